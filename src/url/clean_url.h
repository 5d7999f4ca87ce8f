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

/// What a path and query need before they are normal.
enum class path_class {
  /// Every byte is one an RFC 3986 path or query keeps as it is
  /// (kept_bytes: no '%', '#', space, control or non-ASCII byte) and there
  /// is no "/." (so no dot segment): already normalised, copied as is.
  clean,
  /// The same, except for bytes >= 0x80: normal once those (if they are
  /// valid UTF-8) are percent-encoded.
  non_ascii,
  /// Anything else: the general path decides.
  other,
};

/// Classifies `s` 16 bytes at a time. url.cpp handles `clean` and
/// `non_ascii` without the general encoder, which makes up most of the cost
/// of a typical URL. The test is conservative: "/.well-known" is `other`.
path_class classify_path_and_query(std::string_view s) noexcept;

/// The implementations classify_path_and_query() chooses from, for tests
/// that hold each to the definition: plain x86-64 (SSE2, or a byte loop
/// elsewhere) and SSSE3, which may be called only when ssse3_available().
path_class classify_path_and_query_baseline(std::string_view s) noexcept;
path_class classify_path_and_query_ssse3(std::string_view s) noexcept;
/// True when this CPU runs classify_path_and_query_ssse3().
bool ssse3_available() noexcept;

/// classify_path_and_query(s) == path_class::clean.
inline bool is_clean_path_and_query(std::string_view s) noexcept {
  return classify_path_and_query(s) == path_class::clean;
}

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_CLEAN_URL_H
