// sitemill internals: what the HTML standard's tree construction says of an
// HTML element by its name, as traits (a bit each), looked up once per tag:
// the lists below are the standard's own (13.2.4.2, 13.2.4.3, 13.2.6.4.4,
// 13.2.6.4.7, 13.2.6.5), merged at compile time into one sorted table.
#ifndef SITEMILL_HTML_ELEMENTS_H
#define SITEMILL_HTML_ELEMENTS_H

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sitemill::detail {

/// The traits of an HTML element (not SVG or MathML).
enum element_trait : std::uint32_t {
  special_element = 1u << 0,    ///< 13.2.4.2's "special" category
  closes_p = 1u << 1,           ///< its start tag ends an open <p>
  void_element = 1u << 2,       ///< never holds anything
  head_content = 1u << 3,       ///< "in head" keeps it in the head
  breakout = 1u << 4,           ///< its start tag ends foreign content
  block_end = 1u << 5,          ///< its end tag closes it by scope
  table_part = 1u << 6,         ///< <table> and what it holds
  formatting = 1u << 7,         ///< a formatting element (13.2.4.3)
  no_reconstruct = 1u << 8,     ///< its start tag reopens no formatting
  formatting_marker = 1u << 9,  ///< puts a marker in the formatting list
  scope_boundary = 1u << 10,    ///< ends "has an element in scope"
};

/// What the table knows of an element name.
struct element_info {
  std::uint32_t traits = 0;  ///< element_trait bits
  int index = -1;  ///< its row, below known_elements; -1 when not listed
};

/// How many element names the table lists.
[[nodiscard]] std::size_t known_elements() noexcept;

/// The traits and row of the HTML element `name` (lowercase); no traits
/// and -1 for a name the standard's lists do not name (an unknown
/// element, <span>...).
[[nodiscard]] element_info element_traits(std::string_view name) noexcept;

}  // namespace sitemill::detail

#endif  // SITEMILL_HTML_ELEMENTS_H
