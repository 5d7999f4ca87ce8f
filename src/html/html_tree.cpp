// The HTML standard's tree construction (13.2.6), its insertion modes: which
// rules a token meets in each mode and in foreign content, the tags HTML lets
// authors omit or implies, and the end tags. read_html() runs it; the stack
// and the list of active formatting elements it works on are
// html_tree_construction.h's and html_tree_stack.cpp's.
#include "html/html_tree.h"

#include <string>
#include <string_view>

#include "detail/text.h"
#include "detail/utf8.h"
#include "html/html_tree_construction.h"

namespace sitemill::detail {
namespace {

bool is_heading(std::string_view name) noexcept {
  return name.size() == 2 && name[0] == 'h' && name[1] >= '1' && name[1] <= '6';
}

// The whitespace `text` starts with.
std::string_view leading_space(std::string_view text) noexcept {
  std::size_t n = 0;
  while (n < text.size() && is_html_space(text[n])) ++n;
  return text.substr(0, n);
}

}  // namespace

inline void tree_construction::run() {
  for (;;) {
    html_token token = tokenizer_.next();
    token_name_ = token.name;
    token_info_known_ = false;
    if (token.type == html_token_type::eof) {
      // The end of the input is "anything else" in the modes before the
      // body: a page that ends in its head still has its implied <body>.
      if (in_text_) {  // 13.2.6.4.8: an unclosed <title>, <script>...
        in_text_ = false;
        pop();
      }
      html_rules(token);
      break;
    }
    // 13.2.6.4.7: a newline right after <pre>, <listing> or <textarea>
    // is no part of its text.
    if (skip_newline_ && token.type == html_token_type::text &&
        !token.text.empty() && token.text.front() == '\n') {
      token.text.remove_prefix(1);
    }
    skip_newline_ = false;
    if (token.type == html_token_type::text && token.text.empty()) continue;
    dispatch(token);
    tokenizer_.allow_cdata(!stack_.empty() &&
                           stack_.back().ns != html_namespace::html);
  }
  close_deferred_head();
  while (!stack_.empty()) pop();
}

// 13.2.6: foreign content's rules apply when the current node is an SVG
// or MathML element, except where it holds HTML.
inline void tree_construction::dispatch(const html_token& token) {
  // 13.2.6.4.8, "text": the text of an RCDATA, RAWTEXT or script element,
  // which the tokenizer ends with that element's end tag (or the input's
  // end).
  if (in_text_) {
    if (token.type == html_token_type::text) {
      reader_.text(token.text);
      return;
    }
    in_text_ = false;
    if (token.type == html_token_type::end_tag) {
      pop();
      return;
    }
  }
  if (stack_.empty() || stack_.back().ns == html_namespace::html) {
    html_rules(token);
    return;
  }
  const open_element& current = stack_.back();
  const bool start = token.type == html_token_type::start_tag;
  const bool text = token.type == html_token_type::text;
  if (current.mathml_text && (text || (start && token.name != "mglyph" &&
                                       token.name != "malignmark"))) {
    html_rules(token);
  } else if (current.ns == html_namespace::mathml &&
             current.name == "annotation-xml" && start && token.name == "svg") {
    html_rules(token);
  } else if (current.html_integration && (start || text)) {
    html_rules(token);
  } else {
    foreign_rules(token);
  }
}

inline void tree_construction::foreign_rules(const html_token& token) {
  switch (token.type) {
    case html_token_type::comment:
      reader_.comment();
      return;
    case html_token_type::text:
      insert_text(token.text);
      return;
    case html_token_type::start_tag:
      if (has(token, breakout) ||
          (token.name == "font" &&
           (find_attribute(token.attributes, "color") != nullptr ||
            find_attribute(token.attributes, "face") != nullptr ||
            find_attribute(token.attributes, "size") != nullptr))) {
        while (!stack_.empty() && stack_.back().ns != html_namespace::html &&
               !stack_.back().html_integration && !stack_.back().mathml_text) {
          pop();
        }
        html_rules(token);
        return;
      }
      push(token, stack_.back().ns);
      if (token.self_closing) pop();
      return;
    case html_token_type::end_tag:
      for (std::size_t i = stack_.size(); i-- > walk_floor();) {
        if (stack_[i].ns == html_namespace::html) break;
        if (stack_[i].name == token.name) {
          pop_to(i);
          return;
        }
      }
      html_rules(token);
      return;
    case html_token_type::eof:
      return;
  }
}

inline void tree_construction::html_rules(const html_token& token) {
  // One token may be read again in the next mode ("reprocess"); text is
  // split where its leading whitespace ends, as the standard splits it.
  html_token t = token;
  for (;;) {
    if (t.type == html_token_type::text && mode_ != mode::in_body) {
      const std::string_view space = leading_space(t.text);
      if (!space.empty()) {
        if (mode_ != mode::before_html && mode_ != mode::before_head) {
          reader_.text(space);
        }
        t.text.remove_prefix(space.size());
        if (t.text.empty()) return;
      }
    }
    if (step(t)) return;
  }
}

// One insertion mode's rules for `t`; false to reprocess it in the new
// mode.
bool tree_construction::step(const html_token& t) {
  if (t.type == html_token_type::comment) {
    reader_.comment();
    return true;
  }
  const bool start = t.type == html_token_type::start_tag;
  const bool end = t.type == html_token_type::end_tag;
  // End tags the modes before the body treat as "anything else".
  const bool ends_anyway =
      end && (t.name == "body" || t.name == "html" || t.name == "br");
  switch (mode_) {
    case mode::before_html:
      if (start && t.name == "html") {
        push(t, html_namespace::html);
        mode_ = mode::before_head;
        return true;
      }
      if (end && !ends_anyway && t.name != "head") return true;
      push_implied("html");
      mode_ = mode::before_head;
      return false;
    case mode::before_head:
      if (start && t.name == "html") return true;
      if (start && t.name == "head") {
        push(t, html_namespace::html);
        mode_ = mode::in_head;
        return true;
      }
      if (end && !ends_anyway && t.name != "head") return true;
      push_implied("head");
      mode_ = mode::in_head;
      return false;
    case mode::in_head:
      if (templates_ > 0) return in_template_in_head(t);
      if (start && (t.name == "html" || t.name == "head")) return true;
      if (start && t.name == "noscript") {
        push(t, html_namespace::html);
        mode_ = mode::in_head_noscript;
        return true;
      }
      if (start && has(t, head_content)) {
        insert_html(t);
        return true;
      }
      if (end && t.name == "head") {
        pop_head(/*defer_close=*/true);
        mode_ = mode::after_head;
        return true;
      }
      if (end && !ends_anyway) return true;
      pop_head();
      mode_ = mode::after_head;
      return false;
    case mode::in_head_noscript:
      if (end && t.name == "noscript") {
        pop();
        mode_ = mode::in_head;
        return true;
      }
      if (start &&
          (t.name == "basefont" || t.name == "bgsound" || t.name == "link" ||
           t.name == "meta" || t.name == "noframes" || t.name == "style")) {
        insert_html(t);
        return true;
      }
      if (start && (t.name == "head" || t.name == "noscript")) return true;
      if (end && t.name != "br") return true;
      pop();
      mode_ = mode::in_head;
      return false;
    case mode::after_head:
      if (templates_ > 0) return in_template_in_head(t);
      if (start && t.name == "html") return true;
      if (start && t.name == "body") {
        close_deferred_head();
        push(t, html_namespace::html);
        mode_ = mode::in_body;
        return true;
      }
      if (start && t.name == "frameset") {
        close_deferred_head();
        push(t, html_namespace::html);
        mode_ = mode::in_frameset;
        return true;
      }
      if (start && has(t, head_content)) {
        // Back into the head, as the standard puts it.
        reopened_head_ = true;
        insert_html(t);
        reopened_head_ = false;
        return true;
      }
      if (start && t.name == "head") return true;
      if (end && !ends_anyway) return true;
      close_deferred_head();
      push_implied("body");
      mode_ = mode::in_body;
      return false;
    case mode::in_body:
      return in_body(t);
    case mode::after_body:
      if (end && t.name == "html") return true;
      mode_ = mode::in_body;
      return false;
    case mode::in_frameset:
      // 13.2.6.4.20 and 13.2.6.4.21: a frameset page is its frames; the
      // markup around them is dropped, <noframes> is raw text.
      if (start &&
          (t.name == "frameset" || t.name == "frame" || t.name == "noframes")) {
        insert_html(t);
      } else if (end && t.name == "frameset" && !stack_.empty() &&
                 stack_.back().name == "frameset") {
        pop();
      }
      return true;
  }
  return true;
}

// <template> in the head: its content is read as body content until
// </template>, and the head goes on after it.
bool tree_construction::in_template_in_head(const html_token& t) {
  if (t.type == html_token_type::end_tag && t.name == "template") {
    pop_to_last("template");
    return true;
  }
  if (t.type == html_token_type::eof) {  // 13.2.6.4.18: close it, go on
    pop_to_last("template");
    return false;
  }
  return in_body(t);
}

inline bool tree_construction::in_body(const html_token& t) {
  switch (t.type) {
    case html_token_type::text:
      reconstruct_formatting();
      insert_text(t.text);
      return true;
    case html_token_type::start_tag:
      body_start_tag(t);
      return true;
    case html_token_type::end_tag:
      if (t.name == "html" && templates_ == 0) {
        mode_ = mode::after_body;
        return false;
      }
      body_end_tag(t);
      return true;
    case html_token_type::comment:
    case html_token_type::eof:
      return true;
  }
  return true;
}

void tree_construction::body_start_tag(const html_token& t) {
  if (t.name == "image") {  // 13.2.6.4.7: "Don't ask."
    html_token img = t;
    img.name = "img";
    insert_html(img);
    return;
  }
  const std::string_view name = t.name;
  if (name == "html" || name == "head" || name == "body" ||
      name == "frameset") {
    return;
  }
  if (name == "a" || name == "nobr") {
    // A second <a> (or <nobr> in scope) closes the first: the adoption
    // agency, as far as html_tree follows it (formatting_end_tag()).
    if (last_formatting_entry(name) != npos &&
        (name == "a" || in_scope(name, scope::normal))) {
      formatting_end_tag(name);
    }
  }
  if (name == "xmp") close_p();
  if (!has(t, no_reconstruct)) reconstruct_formatting();
  if (name == "svg" || name == "math") {
    push(t, name == "svg" ? html_namespace::svg : html_namespace::mathml);
    if (t.self_closing) pop();
    return;
  }
  if (has(t, closes_p) || is_heading(name)) close_p();
  if (is_heading(name) && !stack_.empty() && is_heading(stack_.back().name) &&
      stack_.back().ns == html_namespace::html) {
    pop();
  } else if (name == "li" || name == "dd" || name == "dt") {
    close_list_item(name);
    close_p();
  } else if (name == "button") {
    if (in_scope("button", scope::normal)) pop_to_last("button");
  } else if (name == "option" || name == "optgroup") {
    if (!stack_.empty() && stack_.back().name == "option") pop();
  } else if (name == "td" || name == "th") {
    close_in_table("td", "th");
    imply_table_parts(name);
  } else if (name == "tr") {
    close_in_table("td", "th");
    close_in_table("tr", "tr");
    imply_table_parts(name);
  } else if (name == "col") {
    imply_table_parts(name);
  } else if (name == "tbody" || name == "thead" || name == "tfoot") {
    close_in_table("td", "th");
    close_in_table("tr", "tr");
    close_in_table("tbody", "thead");
    close_in_table("tfoot", "tfoot");
  }
  insert_html(t);
  if (has(t, formatting)) add_formatting(t);
  if (has(t, formatting_marker)) formatting_.push_back({});
}

void tree_construction::body_end_tag(const html_token& t) {
  const std::string_view name = t.name;
  if (name == "body") {
    if (in_scope("body", scope::normal)) mode_ = mode::after_body;
    return;
  }
  if (name == "p") {
    if (!in_scope("p", scope::button)) push_implied("p");
    pop_to_last("p");
    return;
  }
  if (name == "br") {
    html_token br = t;
    br.type = html_token_type::start_tag;
    br.attributes = {};
    insert_html(br);
    return;
  }
  if (name == "li" || name == "dd" || name == "dt") {
    if (in_scope(name, name == "li" ? scope::list_item : scope::normal)) {
      pop_to_last(name);
    }
    return;
  }
  if (is_heading(name)) {
    if (!any_open("h1") && !any_open("h2") && !any_open("h3") &&
        !any_open("h4") && !any_open("h5") && !any_open("h6")) {
      return;
    }
    for (std::size_t i = stack_.size(); i-- > walk_floor();) {
      const open_element& e = stack_[i];
      if (e.ns == html_namespace::html && is_heading(e.name)) {
        pop_to(i);
        return;
      }
      if (e.scope_boundary) return;
    }
    return;
  }
  if (has(t, formatting)) {
    formatting_end_tag(name);
    return;
  }
  if (has(t, block_end)) {  // closed by scope, not by "special"
    if (in_scope(name, scope::normal)) pop_to_last(name);
    return;
  }
  if (name == "template") {  // "in head" rules: whatever is open in it
    pop_to_last("template");
    return;
  }
  if (has(t, table_part)) {
    if (in_scope(name, scope::table)) pop_to_last(name);
    return;
  }
  any_other_end_tag(name);
}

// "Any other end tag": the nearest element of that name closes, unless a
// special element is nearer.
inline void tree_construction::any_other_end_tag(std::string_view name) {
  for (std::size_t i = stack_.size(); i-- > walk_floor();) {
    const open_element& e = stack_[i];
    if (e.ns == html_namespace::html && e.name == name) {
      if (name == "head" || name == "html") return;
      pop_to(i);
      return;
    }
    if (e.special) return;
  }
}

// Text in the current node. U+0000 in markup (the tokenizer leaves it
// there) is dropped in HTML content and read as U+FFFD in foreign
// content (13.2.6.4.7, 13.2.6.5).
inline void tree_construction::insert_text(std::string_view text) {
  if (text.find('\0') == std::string_view::npos) {
    reader_.text(text);
    return;
  }
  const bool foreign =
      !stack_.empty() && stack_.back().ns != html_namespace::html;
  text_buffer_.clear();
  for (const char c : text) {
    if (c != '\0') {
      text_buffer_.push_back(c);
    } else if (foreign) {
      text_buffer_.append("\xEF\xBF\xBD");
    }
  }
  if (!text_buffer_.empty()) reader_.text(text_buffer_);
}

// An HTML element in the current node, with the tokenizer switched as
// its kind asks; void elements close at once.
void tree_construction::insert_html(const html_token& t) {
  const std::string_view name = t.name;
  if (has(t, void_element)) {
    open_now(t.name, html_namespace::html, t.attributes);
    reader_.close();
    return;
  }
  push(t, html_namespace::html);
  skip_newline_ = name == "pre" || name == "listing" || name == "textarea";
  in_text_ = true;
  if (name == "title" || name == "textarea") {
    tokenizer_.switch_to(html_text_state::rcdata);
  } else if (name == "style" || name == "xmp" || name == "iframe" ||
             name == "noembed" || name == "noframes") {
    tokenizer_.switch_to(html_text_state::rawtext);
  } else if (name == "script") {
    tokenizer_.switch_to(html_text_state::script);
  } else if (name == "plaintext") {
    tokenizer_.switch_to(html_text_state::plaintext);
  } else {
    in_text_ = false;
  }
}

inline void tree_construction::close_p() {
  if (in_scope("p", scope::button)) pop_to_last("p");
}

// 13.2.6.4.7, "li" and "dd"/"dt": an open item of the same list kind
// closes, unless a special element other than address, div and p is
// nearer.
inline void tree_construction::close_list_item(std::string_view name) {
  if (name == "li" ? !any_open("li") : !any_open("dd") && !any_open("dt")) {
    return;
  }
  for (std::size_t i = stack_.size(); i-- > walk_floor();) {
    const open_element& e = stack_[i];
    const bool same =
        e.ns == html_namespace::html &&
        (name == "li" ? e.name == "li" : e.name == "dd" || e.name == "dt");
    if (same) {
      pop_to(i);
      return;
    }
    if (e.special && e.name != "address" && e.name != "div" && e.name != "p") {
      return;
    }
  }
}

// An open `a` or `b` inside the current table closes (a cell at the next
// cell, a row at the next row).
void tree_construction::close_in_table(std::string_view a, std::string_view b) {
  if (!any_open(a) && !any_open(b)) return;
  for (std::size_t i = stack_.size(); i-- > walk_floor();) {
    const open_element& e = stack_[i];
    if (e.ns != html_namespace::html) continue;
    if (e.name == a || e.name == b) {
      pop_to(i);
      return;
    }
    if (e.name == "table" || e.name == "html" || e.name == "template") {
      return;
    }
  }
}

// 13.2.6.4.9 and 13.2.6.4.13: a row or cell straight in a <table> is in
// an implied <tbody>, a cell straight in a row group in an implied <tr>,
// a <col> straight in a <table> in an implied <colgroup>.
void tree_construction::imply_table_parts(std::string_view name) {
  if (stack_.empty() || stack_.back().ns != html_namespace::html) return;
  const std::string_view current = stack_.back().name;
  if (current == "table") {
    if (name == "col") {
      push_implied("colgroup");
      return;
    }
    push_implied("tbody");
    if (name != "tr") push_implied("tr");
  } else if ((current == "tbody" || current == "thead" || current == "tfoot") &&
             name != "tr" && name != "col") {
    push_implied("tr");
  }
}

// Pops the head and what is open in it. With `defer_close` (at
// </head>) the reader is told of its end only when something outside it
// comes: the <link>, <meta>, <script>, <style> or <title> that the
// standard puts back into the head after </head> is, in its tree, a child
// of the head, and the reader (and the content hash) should see it there.
inline void tree_construction::pop_head(bool defer_close) {
  for (std::size_t i = stack_.size(); i-- > 0;) {
    if (stack_[i].name == "head" && stack_[i].ns == html_namespace::html) {
      pop_to(i + 1);
      if (defer_close) {
        stack_.pop_back();
        head_open_ = false;
        head_close_deferred_ = true;
      } else {
        pop();
      }
      return;
    }
  }
}

// The end tag of a formatting element: its element closes with what is
// open in it and leaves the list. The adoption agency algorithm would
// also move a block opened inside it out of it; html_tree does not
// (html_tree.h).
void tree_construction::formatting_end_tag(std::string_view name) {
  const std::size_t i = last_formatting_entry(name);
  if (i == npos) {
    any_other_end_tag(name);
    return;
  }
  const std::uint64_t id = formatting_[i].id;
  // Open but out of scope (behind a table cell, say): the end tag is
  // dropped and the element stays active (13.2.6.4.7, the adoption
  // agency's step 4.6).
  if (formatting_[i].open && !in_scope(name, scope::normal)) return;
  const bool open = formatting_[i].open;
  formatting_.erase(formatting_.begin() + static_cast<std::ptrdiff_t>(i));
  if (!open) return;
  for (std::size_t k = stack_.size(); k-- > 0;) {
    if (stack_[k].formatting == id) {
      pop_to(k);
      return;
    }
  }
}

void read_html(std::string_view html, html_reader& reader) {
  if (html.substr(0, 3) == "\xEF\xBB\xBF") html.remove_prefix(3);
  std::string repaired;
  if (!is_valid_utf8(html)) {
    repaired = utf8_with_replacements(html);
    html = repaired;
  }
  tree_construction(html, reader).run();
}

}  // namespace sitemill::detail
