// The HTML standard's tree construction (13.2.6), its bookkeeping: the stack
// of open elements (pushing, popping, the scope walks of 13.2.4.2, bounded so
// that a hostile page costs linear time) and the list of active formatting
// elements (13.2.4.3, Noah's Ark). The insertion modes that call these are
// html_tree.cpp's.
#include <algorithm>
#include <iterator>
#include <string_view>

#include "detail/text.h"
#include "html/html_tree_construction.h"

namespace sitemill::detail {

void tree_construction::pop_to_last(std::string_view name) {
  if (!any_open(name)) return;
  for (std::size_t i = stack_.size(); i-- > walk_floor();) {
    if (stack_[i].ns == html_namespace::html && stack_[i].name == name) {
      pop_to(i);
      return;
    }
  }
}

// The element just pushed for `t` becomes an active formatting element;
// a fourth entry identical to three since the last marker pushes out the
// earliest of them (Noah's Ark).
void tree_construction::add_formatting(const html_token& t) {
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

void tree_construction::push(const html_token& t, html_namespace ns) {
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
      const html_attribute* encoding = find_attribute(t.attributes, "encoding");
      e.html_integration = t.name == "annotation-xml" && encoding != nullptr &&
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
inline std::span<const html_attribute> tree_construction::foreign_attributes(
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

}  // namespace sitemill::detail
