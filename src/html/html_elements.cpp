#include "html/html_elements.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <iterator>

namespace sitemill::detail {
namespace {

constexpr std::string_view special_names[] = {
    "address",    "applet",   "area",       "article",  "aside",   "base",
    "basefont",   "bgsound",  "blockquote", "body",     "br",      "button",
    "caption",    "center",   "col",        "colgroup", "dd",      "details",
    "dir",        "div",      "dl",         "dt",       "embed",   "fieldset",
    "figcaption", "figure",   "footer",     "form",     "frame",   "frameset",
    "h1",         "h2",       "h3",         "h4",       "h5",      "h6",
    "head",       "header",   "hgroup",     "hr",       "html",    "iframe",
    "img",        "input",    "keygen",     "li",       "link",    "listing",
    "main",       "marquee",  "menu",       "meta",     "nav",     "noembed",
    "noframes",   "noscript", "object",     "ol",       "p",       "param",
    "plaintext",  "pre",      "script",     "search",   "section", "select",
    "source",     "style",    "summary",    "table",    "tbody",   "td",
    "template",   "textarea", "tfoot",      "th",       "thead",   "title",
    "tr",         "track",    "ul",         "wbr",      "xmp"};

// Start tags that end an open <p> (13.2.6.4.7, "in body").
constexpr std::string_view closes_p_names[] = {
    "address",   "article", "aside",  "blockquote", "center",   "details",
    "dialog",    "dir",     "div",    "dl",         "fieldset", "figcaption",
    "figure",    "footer",  "form",   "header",     "hgroup",   "hr",
    "listing",   "main",    "menu",   "nav",        "ol",       "p",
    "plaintext", "pre",     "search", "section",    "summary",  "table",
    "ul",        "xmp"};

constexpr std::string_view void_names[] = {
    "area",  "base",  "basefont", "bgsound", "br",    "col",    "embed",
    "frame", "hr",    "image",    "img",     "input", "keygen", "link",
    "meta",  "param", "source",   "track",   "wbr"};

// The elements "in head" keeps in the head (13.2.6.4.4).
constexpr std::string_view head_content_names[] = {
    "base",     "basefont", "bgsound", "link",     "meta",
    "noframes", "script",   "style",   "template", "title"};

// HTML start tags that end foreign content (13.2.6.5).
constexpr std::string_view breakout_names[] = {
    "b",      "big",    "blockquote", "body",    "br",    "center", "code",
    "dd",     "div",    "dl",         "dt",      "em",    "embed",  "h1",
    "h2",     "h3",     "h4",         "h5",      "h6",    "head",   "hr",
    "i",      "img",    "li",         "listing", "menu",  "meta",   "nobr",
    "ol",     "p",      "pre",        "ruby",    "s",     "small",  "span",
    "strike", "strong", "sub",        "sup",     "table", "tt",     "u",
    "ul",     "var"};

// End tags that close their element when it is in scope, whatever special
// element is open inside it (13.2.6.4.7, "in body").
constexpr std::string_view block_names[] = {
    "address",  "applet",     "article", "aside",   "blockquote", "button",
    "center",   "details",    "dialog",  "dir",     "div",        "dl",
    "fieldset", "figcaption", "figure",  "footer",  "form",       "header",
    "hgroup",   "listing",    "main",    "marquee", "menu",       "nav",
    "object",   "ol",         "pre",     "search",  "section",    "summary",
    "ul"};

// 13.2.4.3: the formatting elements, which a later text reopens when an
// end tag closed them early.
constexpr std::string_view formatting_names[] = {
    "a",    "b", "big",   "code",   "em",     "font", "i",
    "nobr", "s", "small", "strike", "strong", "tt",   "u"};

// Start tags in body that do not reconstruct the active formatting
// elements first (13.2.6.4.7): blocks, list items, headings, the head's
// elements, table parts and a few others; every other start tag does.
constexpr std::string_view no_reconstruct_names[] = {
    "address",    "article",  "aside",      "base",    "basefont", "bgsound",
    "blockquote", "body",     "caption",    "center",  "col",      "colgroup",
    "dd",         "details",  "dialog",     "dir",     "div",      "dl",
    "dt",         "fieldset", "figcaption", "figure",  "footer",   "form",
    "frame",      "frameset", "h1",         "h2",      "h3",       "h4",
    "h5",         "h6",       "head",       "header",  "hgroup",   "hr",
    "html",       "li",       "link",       "listing", "main",     "menu",
    "meta",       "nav",      "noframes",   "ol",      "p",        "param",
    "plaintext",  "pre",      "script",     "search",  "section",  "source",
    "style",      "summary",  "table",      "tbody",   "td",       "template",
    "textarea",   "tfoot",    "th",         "thead",   "title",    "tr",
    "track",      "ul"};

// Elements whose insertion puts a marker in the list of active formatting
// elements, and whose end clears the list back to it.
constexpr std::string_view marker_names[] = {
    "applet", "caption", "marquee", "object", "td", "template", "th"};

constexpr std::string_view table_part_names[] = {"caption", "colgroup", "table",
                                                 "tbody",   "td",       "tfoot",
                                                 "th",      "thead",    "tr"};

constexpr std::string_view scope_boundary_names[] = {
    "applet", "caption", "html",     "marquee", "object",
    "table",  "td",      "template", "th"};

struct traits_of {
  std::string_view name;
  std::uint32_t traits = 0;
};

template <std::size_t N>
constexpr std::size_t count(const std::string_view (&)[N]) {
  return N;
}

constexpr std::size_t listed =
    count(special_names) + count(closes_p_names) + count(void_names) +
    count(head_content_names) + count(breakout_names) + count(block_names) +
    count(formatting_names) + count(no_reconstruct_names) +
    count(marker_names) + count(table_part_names) + count(scope_boundary_names);

// Every list's names with its trait, sorted by name, one row per name with
// the traits of all the lists that name it; `size` rows are used.
struct trait_table {
  std::array<traits_of, listed> rows{};
  std::size_t size = 0;
};

constexpr trait_table build_table() {
  std::array<traits_of, listed> all{};
  std::size_t n = 0;
  auto add = [&](const auto& list, std::uint32_t trait) {
    for (const std::string_view name : list) all[n++] = {name, trait};
  };
  add(special_names, special_element);
  add(closes_p_names, closes_p);
  add(void_names, void_element);
  add(head_content_names, head_content);
  add(breakout_names, breakout);
  add(block_names, block_end);
  add(formatting_names, formatting);
  add(no_reconstruct_names, no_reconstruct);
  add(marker_names, formatting_marker);
  add(table_part_names, table_part);
  add(scope_boundary_names, scope_boundary);
  std::sort(all.begin(), all.end(), [](const traits_of& a, const traits_of& b) {
    return a.name < b.name;
  });
  trait_table t;
  for (const traits_of& row : all) {
    if (t.size > 0 && t.rows[t.size - 1].name == row.name) {
      t.rows[t.size - 1].traits |= row.traits;
    } else {
      t.rows[t.size++] = row;
    }
  }
  return t;
}

constexpr trait_table table = build_table();

}  // namespace

std::size_t known_elements() noexcept { return table.size; }

element_info element_traits(std::string_view name) noexcept {
  const auto end = table.rows.begin() + static_cast<std::ptrdiff_t>(table.size);
  const auto it = std::lower_bound(
      table.rows.begin(), end, name,
      [](const traits_of& row, std::string_view n) { return row.name < n; });
  if (it == end || it->name != name) return {};
  return {it->traits, static_cast<int>(it - table.rows.begin())};
}

}  // namespace sitemill::detail
