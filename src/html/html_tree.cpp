#include "html/html_tree.h"

#include <algorithm>
#include <string>
#include <vector>

#include "detail/text.h"
#include "detail/utf8.h"
#include "html/html_elements.h"

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

struct open_element {
  std::string name;
  html_namespace ns;
  std::uint64_t formatting = 0;  // its active formatting entry's id, or 0
  std::uint32_t traits = 0;      // element_traits() of an HTML element
  int index = -1;                // its row in html_elements' table
  bool special;                  // 13.2.4.2's "special" category
  bool scope_boundary;           // ends "has an element in scope" (13.2.4.2)
  bool html_integration;  // holds HTML again (foreignObject, desc, title...)
  bool mathml_text;       // a MathML text integration point (mi, mo...)
};

enum class mode : std::uint8_t {
  before_html,
  before_head,
  in_head,
  in_head_noscript,
  after_head,
  in_body,
  after_body,
  in_frameset,  // and after frameset: only frames count
};

enum class scope : std::uint8_t { normal, button, list_item, table };

class tree_construction {
 public:
  tree_construction(std::string_view html, html_reader& reader)
      : tokenizer_(html), reader_(reader) {}

  void run() {
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

 private:
  // 13.2.6: foreign content's rules apply when the current node is an SVG
  // or MathML element, except where it holds HTML.
  void dispatch(const html_token& token) {
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
               current.name == "annotation-xml" && start &&
               token.name == "svg") {
      html_rules(token);
    } else if (current.html_integration && (start || text)) {
      html_rules(token);
    } else {
      foreign_rules(token);
    }
  }

  void foreign_rules(const html_token& token) {
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
                 !stack_.back().html_integration &&
                 !stack_.back().mathml_text) {
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

  void html_rules(const html_token& token) {
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
  bool step(const html_token& t) {
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
        if (start && (t.name == "frameset" || t.name == "frame" ||
                      t.name == "noframes")) {
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
  bool in_template_in_head(const html_token& t) {
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

  bool in_body(const html_token& t) {
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

  void body_start_tag(const html_token& t) {
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

  void body_end_tag(const html_token& t) {
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
  void any_other_end_tag(std::string_view name) {
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
  void insert_text(std::string_view text) {
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
  void insert_html(const html_token& t) {
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

  void close_p() {
    if (in_scope("p", scope::button)) pop_to_last("p");
  }

  // 13.2.6.4.7, "li" and "dd"/"dt": an open item of the same list kind
  // closes, unless a special element other than address, div and p is
  // nearer.
  void close_list_item(std::string_view name) {
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
      if (e.special && e.name != "address" && e.name != "div" &&
          e.name != "p") {
        return;
      }
    }
  }

  // An open `a` or `b` inside the current table closes (a cell at the next
  // cell, a row at the next row).
  void close_in_table(std::string_view a, std::string_view b) {
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
  void imply_table_parts(std::string_view name) {
    if (stack_.empty() || stack_.back().ns != html_namespace::html) return;
    const std::string_view current = stack_.back().name;
    if (current == "table") {
      if (name == "col") {
        push_implied("colgroup");
        return;
      }
      push_implied("tbody");
      if (name != "tr") push_implied("tr");
    } else if ((current == "tbody" || current == "thead" ||
                current == "tfoot") &&
               name != "tr" && name != "col") {
      push_implied("tr");
    }
  }

  // 13.2.4.2: "has an element in scope" and its button, list item and
  // table variants.
  bool in_scope(std::string_view name, scope kind) {
    if (!any_open(name)) return false;
    for (std::size_t i = stack_.size(); i-- > walk_floor();) {
      const open_element& e = stack_[i];
      if (e.ns == html_namespace::html && e.name == name) return true;
      if (kind == scope::table) {
        if (e.ns == html_namespace::html &&
            (e.name == "html" || e.name == "table" || e.name == "template")) {
          return false;
        }
        continue;
      }
      if (e.scope_boundary) return false;
      if (kind == scope::button && e.name == "button") return false;
      if (kind == scope::list_item && (e.name == "ol" || e.name == "ul")) {
        return false;
      }
    }
    return false;
  }

  void pop_to_last(std::string_view name) {
    if (!any_open(name)) return;
    for (std::size_t i = stack_.size(); i-- > walk_floor();) {
      if (stack_[i].ns == html_namespace::html && stack_[i].name == name) {
        pop_to(i);
        return;
      }
    }
  }

  // Pops the head and what is open in it. With `defer_close` (at
  // </head>) the reader is told of its end only when something outside it
  // comes: the <link>, <meta>, <script>, <style> or <title> that the
  // standard puts back into the head after </head> is, in its tree, a child
  // of the head, and the reader (and the content hash) should see it there.
  void pop_head(bool defer_close = false) {
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

  void close_deferred_head() {
    if (!head_close_deferred_) return;
    head_close_deferred_ = false;
    reader_.close();
  }

  // Pops the element at `index` and everything opened inside it.
  void pop_to(std::size_t index) {
    while (stack_.size() > index) pop();
  }

  void pop() {
    const open_element& e = stack_.back();
    if (e.index >= 0) --open_count_[static_cast<std::size_t>(e.index)];
    if (e.ns == html_namespace::html) {
      if (e.name == "head") head_open_ = false;
      if (e.name == "template") --templates_;
      if (e.formatting != 0) {
        for (std::size_t i = formatting_.size(); i-- > 0;) {
          if (formatting_[i].id == e.formatting) {
            formatting_[i].open = false;
            break;
          }
        }
      }
      if ((e.traits & formatting_marker) != 0) clear_formatting_to_marker();
    }
    stack_.pop_back();
    reader_.close();
  }

  // 13.2.4.3, the list of active formatting elements. Entries own a copy
  // of their tag, since a reconstruction reopens it after the token is
  // gone. At most max_formatting entries are kept (the oldest go): the
  // standard has no bound but Noah's Ark, and a page of thousands of
  // unclosed <b>s must not make every text reopen thousands.
  struct formatting_entry {
    std::uint64_t id = 0;  // 0: a marker
    bool open = false;     // its element is on the stack
    std::string name;
    std::vector<std::pair<std::string, std::string>> attributes;
  };
  static constexpr std::size_t max_formatting = 64;
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  // The last entry named `name` after the last marker, or npos.
  std::size_t last_formatting_entry(std::string_view name) const {
    for (std::size_t i = formatting_.size(); i-- > 0;) {
      if (formatting_[i].id == 0) return npos;
      if (formatting_[i].name == name) return i;
    }
    return npos;
  }

  // The element just pushed for `t` becomes an active formatting element;
  // a fourth entry identical to three since the last marker pushes out the
  // earliest of them (Noah's Ark).
  void add_formatting(const html_token& t) {
    formatting_entry e;
    e.id = next_formatting_id_++;
    e.open = true;
    e.name.assign(t.name);
    for (const html_attribute& a : t.attributes)
      e.attributes.emplace_back(a.name, a.value);
    std::size_t same = 0, earliest = npos;
    for (std::size_t i = formatting_.size(); i-- > 0;) {
      const formatting_entry& o = formatting_[i];
      if (o.id == 0) break;
      if (o.name == e.name && o.attributes == e.attributes) {
        ++same;
        earliest = i;
      }
    }
    if (same >= 3) {
      formatting_.erase(formatting_.begin() +
                        static_cast<std::ptrdiff_t>(earliest));
    }
    if (formatting_.size() >= max_formatting)
      formatting_.erase(formatting_.begin());
    stack_.back().formatting = e.id;
    formatting_.push_back(std::move(e));
  }

  // Reopens the formatting elements an end tag closed before their own
  // end tag came, so that what follows is inside them again.
  void reconstruct_formatting() {
    if (formatting_.empty()) return;
    const formatting_entry& last = formatting_.back();
    if (last.id == 0 || last.open) return;
    std::size_t i = formatting_.size() - 1;
    while (i > 0 && formatting_[i - 1].id != 0 && !formatting_[i - 1].open) {
      --i;
    }
    for (; i < formatting_.size(); ++i) {
      formatting_entry& e = formatting_[i];
      attributes_.clear();
      for (const auto& [name, value] : e.attributes)
        attributes_.push_back({name, value});
      html_token t;
      t.type = html_token_type::start_tag;
      t.name = e.name;
      t.attributes = attributes_;
      push(t, html_namespace::html);
      e.id = next_formatting_id_++;
      e.open = true;
      stack_.back().formatting = e.id;
    }
  }

  // The end tag of a formatting element: its element closes with what is
  // open in it and leaves the list. The adoption agency algorithm would
  // also move a block opened inside it out of it; html_tree does not
  // (html_tree.h).
  void formatting_end_tag(std::string_view name) {
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

  void clear_formatting_to_marker() {
    while (!formatting_.empty()) {
      const bool marker = formatting_.back().id == 0;
      formatting_.pop_back();
      if (marker) return;
    }
  }

  void push_implied(std::string_view name) {
    html_token t;
    t.type = html_token_type::start_tag;
    t.name = name;
    push(t, html_namespace::html);
  }

  void push(const html_token& t, html_namespace ns) {
    open_now(t.name, ns,
             ns == html_namespace::html ? t.attributes
                                        : foreign_attributes(t.attributes));
    open_element e;
    e.name.assign(t.name);
    e.ns = ns;
    switch (ns) {
      case html_namespace::html: {
        const element_info info = info_of(t);
        e.traits = info.traits;
        e.index = info.index;
        if (e.index >= 0) ++open_count_[static_cast<std::size_t>(e.index)];
        e.special = (e.traits & special_element) != 0;
        e.scope_boundary = (e.traits & scope_boundary) != 0;
        e.html_integration = false;
        e.mathml_text = false;
        if (t.name == "head") head_open_ = true;
        if (t.name == "template") ++templates_;
        break;
      }
      case html_namespace::svg:
        e.html_integration =
            t.name == "foreignobject" || t.name == "desc" || t.name == "title";
        e.special = e.scope_boundary = e.html_integration;
        e.mathml_text = false;
        break;
      case html_namespace::mathml: {
        e.mathml_text = t.name == "mi" || t.name == "mo" || t.name == "mn" ||
                        t.name == "ms" || t.name == "mtext";
        const html_attribute* encoding =
            find_attribute(t.attributes, "encoding");
        e.html_integration =
            t.name == "annotation-xml" && encoding != nullptr &&
            (iequals(encoding->value, "text/html") ||
             iequals(encoding->value, "application/xhtml+xml"));
        e.special = e.scope_boundary =
            e.mathml_text || t.name == "annotation-xml";
        break;
      }
    }
    stack_.push_back(std::move(e));
  }

  // 13.2.6.3 "adjust foreign attributes": xlink:href is the XLink
  // namespace's href, and so on; read by their local names, so that an SVG
  // <a xlink:href> is a link as a browser follows it.
  std::span<const html_attribute> foreign_attributes(
      std::span<const html_attribute> attributes) {
    static constexpr std::string_view prefixed[] = {
        "xlink:actuate", "xlink:arcrole", "xlink:href", "xlink:role",
        "xlink:show",    "xlink:title",   "xlink:type", "xml:lang",
        "xml:space",     "xmlns:xlink"};
    foreign_attributes_.assign(attributes.begin(), attributes.end());
    for (html_attribute& a : foreign_attributes_) {
      if (std::find(std::begin(prefixed), std::end(prefixed), a.name) !=
          std::end(prefixed)) {
        a.name.remove_prefix(a.name.find(':') + 1);
      }
    }
    return foreign_attributes_;
  }

  void open_now(std::string_view name, html_namespace ns,
                std::span<const html_attribute> attributes) {
    html_element element;
    element.name = name;
    element.ns = ns;
    element.attributes = attributes;
    element.in_head = head_open_ || reopened_head_ ||
                      (ns == html_namespace::html && name == "head");
    reader_.open(element);
  }

  // element_traits() of `t`'s name, looked up once for the token the
  // tokenizer gave (the tree asks a tag's traits several times); a token
  // the tree makes itself (<img> for <image>, an implied or reopened
  // element) is looked up each time.
  element_info info_of(const html_token& t) {
    if (t.name.data() != token_name_.data() ||
        t.name.size() != token_name_.size()) {
      return element_traits(t.name);
    }
    if (!token_info_known_) {
      token_info_ = element_traits(t.name);
      token_info_known_ = true;
    }
    return token_info_;
  }
  std::uint32_t traits_of(const html_token& t) { return info_of(t).traits; }

  // Where a walk down the stack of open elements stops: at most max_walk
  // elements down. The standard's walks have no bound, and a hostile page
  // (a million nested <span>s, then a million stray end tags) would make
  // each of them a walk of the whole stack; browsers bound nesting too
  // (Blink's parser nests no deeper than 512). Past it, an end tag finds
  // no element to close.
  static constexpr std::size_t max_walk = 512;
  std::size_t walk_floor() const noexcept {
    return stack_.size() > max_walk ? stack_.size() - max_walk : 0;
  }

  // Whether an HTML element `name` is open at all: the scope walks below
  // stop early when it is not, so that a page of 100,000 nested <div>s
  // costs no walk of the whole stack at every tag (a quadratic parse of an
  // untrusted page).
  bool any_open(std::string_view name) {
    const int index = index_of(name);
    return index < 0 || open_count_[static_cast<std::size_t>(index)] > 0;
  }

  // The html_elements row of `name`, which is the token's name or a
  // literal of this file: the few literals are remembered by their
  // address (checked against their text), so the scope walks' guards cost
  // no table search.
  int index_of(std::string_view name) {
    if (name.data() == token_name_.data() &&
        name.size() == token_name_.size()) {
      if (!token_info_known_) {
        token_info_ = element_traits(name);
        token_info_known_ = true;
      }
      return token_info_.index;
    }
    for (const auto& [known, index] : literal_index_) {
      if (known.data() == name.data() && known == name) return index;
    }
    const int index = element_traits(name).index;
    if (literal_index_.size() < 32) literal_index_.emplace_back(name, index);
    return index;
  }

  bool has(const html_token& t, std::uint32_t trait) {
    return (traits_of(t) & trait) != 0;
  }

  html_tokenizer tokenizer_;
  html_reader& reader_;
  std::string_view token_name_;  // the tokenizer's token being read
  element_info token_info_;
  bool token_info_known_ = false;
  std::vector<std::pair<std::string_view, int>> literal_index_;
  std::vector<std::uint32_t> open_count_ =
      std::vector<std::uint32_t>(known_elements());  // by html_elements row
  std::vector<open_element> stack_;
  mode mode_ = mode::before_html;
  bool head_open_ = false;
  bool reopened_head_ = false;
  bool head_close_deferred_ = false;  // popped, but the reader not yet told
  std::vector<formatting_entry> formatting_;
  std::uint64_t next_formatting_id_ = 1;
  std::vector<html_attribute> attributes_;  // a reopened element's
  bool in_text_ = false;       // inside an RCDATA, RAWTEXT or script element
  bool skip_newline_ = false;  // the next token follows <pre>, <textarea>...
  std::string text_buffer_;
  std::vector<html_attribute> foreign_attributes_;
  int templates_ = 0;
};

}  // namespace

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
