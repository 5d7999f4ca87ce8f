// sitemill: URL normalisation and the sitemaps.org location rule.
//
// Every <loc> sitemill writes passes through here. Normalisation follows
// RFC 3986 section 6 and what search engines expect:
//   * scheme and host lowercased; IDN hosts converted to punycode (IDNA2008);
//   * the default port (80 for http, 443 for https) and an empty port dropped;
//   * dot segments removed (RFC 3986 5.2.4); an empty path becomes "/";
//   * every byte that may not appear in a URI percent-encoded: non-ASCII as its
//     UTF-8 bytes, space, '"', '<', '>', '\\', '^', '`', '{', '|', '}', '[', ']'
//     outside the host, and a '%' not followed by two hex digits;
//   * a valid "%xx" is never double-encoded: its hex digits are uppercased, and
//     it is decoded when it encodes an unreserved character (%41 -> A);
//   * the fragment is removed (search engines ignore it), and reported.
// Refused, with a reason: schemes other than http(s), credentials
// (user:pass@), control characters, invalid UTF-8, bad hosts or ports, and
// results of 2,048 characters or more (or under the XSD's 12).
//
// Thread-safety: a url_normalizer is immutable after construction; normalize()
// may be called from several threads at once, each with its own output string.
#ifndef SITEMILL_URL_H
#define SITEMILL_URL_H

#include <cstdint>
#include <string>
#include <string_view>

#include "sitemill/result.h"

namespace sitemill {

/// Why a URL was refused. Values are stable; describe() gives the words.
enum class url_problem : std::uint8_t {
  ok = 0,
  empty,                 ///< nothing but whitespace
  not_http,              ///< a scheme other than http or https
  relative_without_base, ///< a relative reference and no base URL to resolve it
  bad_host,              ///< missing, or characters a host cannot have
  bad_idn,               ///< a non-ASCII host that IDNA2008 cannot convert
  bad_port,              ///< not a number, or above 65535
  has_credentials,       ///< user:password@ in the authority
  control_character,     ///< a byte below 0x20, or 0x7F
  invalid_utf8,          ///< bytes that are not UTF-8
  too_long,              ///< 2,048 characters or more once encoded
  too_short,             ///< under the 12 characters sitemap.xsd requires
  outside_base,          ///< another scheme, host or port than the base, or above its directory
};

/// A sentence saying why, for diagnostics ("URL is not http or https").
std::string_view describe(url_problem problem) noexcept;

/// Things normalisation changed that a user may want to hear about.
struct url_notes {
  bool fragment_removed = false;  ///< a "#..." was dropped
};

/// Normalises URLs, resolving relative ones against a base URL and applying
/// the location rule (same scheme, host and port, at or below the base's
/// directory) when a base is given.
class url_normalizer {
 public:
  /// No base: only absolute http(s) URLs are accepted, anywhere.
  url_normalizer() = default;

  /// `base` names the directory the sitemaps are published in, e.g.
  /// "https://www.example.com/" or "https://example.com/catalog/". A base
  /// without a trailing slash is taken as a directory ("/catalog" ->
  /// "/catalog/"). Fails when `base` is not an absolute http(s) URL, has a
  /// query, fragment or credentials.
  static result<url_normalizer> with_base(std::string_view base);

  /// The normalised base directory ("https://example.com/catalog/"), or "".
  std::string_view base() const noexcept { return base_; }

  /// Normalises `input` (surrounding ASCII whitespace ignored) into `out`,
  /// which is cleared first. On any problem other than ok, `out` is
  /// unspecified. Allocation-free once `out` has capacity.
  [[nodiscard]] url_problem normalize(std::string_view input, std::string& out,
                                      url_notes* notes = nullptr) const;

 private:
  std::string base_;    // normalised base directory, ends with '/'
  std::size_t origin_length_ = 0;  // length of "scheme://host[:port]" in base_
};

/// Normalises an absolute http(s) URL without a base or location rule.
[[nodiscard]] url_problem normalize_url(std::string_view input, std::string& out,
                                        url_notes* notes = nullptr);

/// True when the normalised absolute `url` is within `scope`: same scheme,
/// host and port, and its path at or below the directory of `scope`'s path
/// (the part up to its last '/'; a '/' in the query does not count). Both
/// arguments must already be normalised. Used for the sitemap location rule.
bool within_scope(std::string_view url, std::string_view scope) noexcept;

}  // namespace sitemill

#endif  // SITEMILL_URL_H
