// sitemill internals: what the <loc> checks need to know about a URL's
// bytes, read in one pass (value_checks.cpp's hot path: every <loc> of a
// 50 MB file).
#ifndef SITEMILL_PARSE_URL_SCAN_H
#define SITEMILL_PARSE_URL_SCAN_H

#include <cstddef>
#include <string_view>

namespace sitemill::detail {

struct url_scan {
  std::size_t chars = 0;      // code points
  std::size_t collapsed = 0;  // code points after XSD whitespace collapse
  std::size_t hashes = 0;
  bool bad_percent = false, space = false, unsafe = false, non_ascii = false,
       brackets = false;
  char unsafe_char = 0;
};

/// Counts and flags `s`'s characters: code points, whitespace, unsafe bytes,
/// escapes, non-ASCII.
url_scan scan_url(std::string_view s) noexcept;

}  // namespace sitemill::detail

#endif  // SITEMILL_PARSE_URL_SCAN_H
