// The state of the HTML standard's tree construction (13.2.6) as read_html()
// keeps it: the stack of open elements, the list of active formatting
// elements and the insertion mode, with the small bookkeeping both halves of
// it call on every token inline here. The insertion modes are html_tree.cpp's,
// the rest of the work on the stack and the list html_tree_stack.cpp's; what
// is followed of the standard and what is not is html_tree.h's comment.
#ifndef SITEMILL_HTML_TREE_CONSTRUCTION_H
#define SITEMILL_HTML_TREE_CONSTRUCTION_H

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "html/html_elements.h"
#include "html/html_tokenizer.h"
#include "html/html_tree.h"

namespace sitemill::detail {

// read_html()'s parser: one per document, on the stack of its caller.
class tree_construction {
 public:
  tree_construction(std::string_view html, html_reader& reader)
      : tokenizer_(html), reader_(reader) {}

  // Reads the whole input, telling the reader (html_tree.cpp).
  void run();

 private:
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

  // The insertion modes and the rules for tokens in them (html_tree.cpp).
  void dispatch(const html_token& token);
  void foreign_rules(const html_token& token);
  void html_rules(const html_token& token);
  bool step(const html_token& t);
  bool in_template_in_head(const html_token& t);
  bool in_body(const html_token& t);
  void body_start_tag(const html_token& t);
  void body_end_tag(const html_token& t);
  void any_other_end_tag(std::string_view name);
  void insert_text(std::string_view text);
  void insert_html(const html_token& t);
  void close_p();
  void close_list_item(std::string_view name);
  void close_in_table(std::string_view a, std::string_view b);
  void imply_table_parts(std::string_view name);
  void pop_head(bool defer_close = false);
  void formatting_end_tag(std::string_view name);

  // The stack of open elements and the list of active formatting elements
  // (html_tree_stack.cpp; what both files call often is inline below).
  void pop_to_last(std::string_view name);
  void add_formatting(const html_token& t);
  void push(const html_token& t, html_namespace ns);
  std::span<const html_attribute> foreign_attributes(
      std::span<const html_attribute> attributes);

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

}  // namespace sitemill::detail

#endif  // SITEMILL_HTML_TREE_CONSTRUCTION_H
