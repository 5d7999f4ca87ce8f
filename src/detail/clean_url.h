// The fast path of URL normalisation: recognising a path and query that
// normalisation would leave exactly as they are.
#ifndef SITEMILL_DETAIL_CLEAN_URL_H
#define SITEMILL_DETAIL_CLEAN_URL_H

#include <array>
#include <string_view>

namespace sitemill::detail {

/// Bytes a path or query keeps as they are: RFC 3986 pchar minus '%'
/// (which needs a look-ahead), plus '/' and '?'. url.cpp's encoder copies
/// runs of these and percent-encodes everything else.
constexpr std::array<bool, 256> make_kept_bytes() {
  std::array<bool, 256> t{};
  for (int c = 'a'; c <= 'z'; ++c) t[c] = true;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = true;
  for (int c = '0'; c <= '9'; ++c) t[c] = true;
  for (unsigned char c : std::string_view("-._~!$&'()*+,;=:@/?")) t[c] = true;
  return t;
}
inline constexpr std::array<bool, 256> kept_bytes = make_kept_bytes();

/// True when every byte of `s` is one an RFC 3986 path or query keeps as it
/// is (unreserved, sub-delims, ':', '@', '/', '?'; so no '%', '#', space,
/// control or non-ASCII byte) and `s` has no "/." (so no dot segment).
/// Such text is already normalised: url.cpp copies it without the general
/// encoder, which makes up most of the cost of a typical URL. The test is
/// conservative: "/.well-known" fails it and takes the general path.
bool is_clean_path_and_query(std::string_view s) noexcept;

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_CLEAN_URL_H
