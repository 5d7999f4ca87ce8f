// Internals the pieces of URL normalisation share (url.cpp, url_path.cpp,
// url_host.cpp): the one writer of a normalized_url's fields, the byte
// classes RFC 3986 names, and the steps one piece calls in another. Inline
// because the byte tests run on every byte of every URL.
#ifndef SITEMILL_URL_URL_PARTS_H
#define SITEMILL_URL_URL_PARTS_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "detail/text.h"
#include "sitemill/url/url.h"

namespace sitemill::detail {

// The one writer of a normalized_url's fields, for the functions of url/.
struct url_access {
  static std::string& href(normalized_url& u) noexcept { return u.href_; }
  static url_offsets& at(normalized_url& u) noexcept { return u.at_; }
  static const url_offsets& at(const normalized_url& u) noexcept {
    return u.at_;
  }
};

inline std::uint32_t offset(std::size_t n) noexcept {
  return static_cast<std::uint32_t>(n);
}

inline bool is_alpha(unsigned char c) noexcept {
  return is_ascii_alpha(static_cast<char>(c));
}
inline bool is_digit(unsigned char c) noexcept {
  return is_ascii_digit(static_cast<char>(c));
}
inline bool is_hex(unsigned char c) noexcept {
  return is_ascii_hex(static_cast<char>(c));
}
inline unsigned hex_value(unsigned char c) noexcept {
  if (is_digit(c)) return c - '0';
  return (c | 0x20u) - 'a' + 10;
}

// url_path.cpp: appends the path (cut at the first '?') and the query of
// `rest` encoded and without dot segments, after `out` already holds
// everything before the path, and records where the query begins.
void append_path_and_query(std::string& out, std::string_view rest,
                           std::size_t path_begin, url_offsets& at);

// url_path.cpp: appends `src` with every byte a URI may not contain
// percent-encoded and every valid %XX normalised (RFC 3986 6.2.2.1 and
// 6.2.2.2).
void append_encoded(std::string& out, std::string_view src);

// url_host.cpp: appends "scheme://", the authority, path and query of `rest`,
// the text after "//" of an absolute URL or network-path reference.
url_problem append_from_authority(std::string& out, std::string_view rest,
                                  bool https, url_offsets& at);

}  // namespace sitemill::detail

#endif  // SITEMILL_URL_URL_PARTS_H
