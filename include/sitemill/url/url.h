// sitemill: URL normalisation and the sitemaps.org location rule.
//
// Every <loc> sitemill writes passes through here. Normalisation follows
// RFC 3986 section 6 and what search engines expect:
//   * scheme and host lowercased; IDN hosts converted to punycode (IDNA2008);
//   * the default port (80 for http, 443 for https) and an empty port dropped;
//   * dot segments removed (RFC 3986 5.2.4); an empty path becomes "/";
//   * every byte that may not appear in a URI percent-encoded: non-ASCII as its
//     UTF-8 bytes, space, '"', '<', '>', '\\', '^', '`', '{', '|', '}', '[',
//     ']' outside the host, and a '%' not followed by two hex digits;
//   * a valid "%xx" is never double-encoded: its hex digits are uppercased, and
//     it is decoded when it encodes an unreserved character (%41 -> A);
//   * the fragment is removed (search engines ignore it), and reported.
// Refused, with a reason: schemes other than http(s), credentials
// (user:pass@), control characters, invalid UTF-8, bad hosts or ports, and
// results of 2,048 characters or more (or under the XSD's 12).
//
// A normalised URL comes back as a normalized_url: the href plus the offsets
// of its components, which normalisation knows as it writes them (the layout
// of ada's url_aggregator), so every accessor is a free string_view. Nothing
// else in sitemill splits a URL by hand.
//
// Thread-safety: a url_normalizer is immutable after construction; normalize()
// may be called from several threads at once, each with its own output.
#ifndef SITEMILL_URL_H
#define SITEMILL_URL_H

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/result.h"

namespace sitemill {

/// Why a URL was refused. Values are stable; describe() gives the words.
enum class url_problem : std::uint8_t {
  ok = 0,
  empty,                  ///< nothing but whitespace
  not_http,               ///< a scheme other than http or https
  relative_without_base,  ///< a relative reference, and no base to resolve it
  bad_host,               ///< missing, or characters a host cannot have
  bad_idn,                ///< a non-ASCII host that IDNA2008 cannot convert
  bad_port,               ///< not a number, or above 65535
  has_credentials,        ///< user:password@ in the authority
  control_character,      ///< a byte below 0x20, or 0x7F
  invalid_utf8,           ///< bytes that are not UTF-8
  too_long,               ///< 2,048 characters or more once encoded
  too_short,              ///< under the 12 characters sitemap.xsd requires
  outside_base,           ///< off the base's origin, or above its directory
};

/// A sentence saying why, for diagnostics ("URL is not http or https").
std::string_view describe(url_problem problem) noexcept;

/// For a URL the location rule refuses (url_problem::outside_base): which
/// part differs from `base` (a normalised directory URL), as a clause to
/// follow describe()'s sentence: "the host is other.com, the base's
/// www.example.com". `url` may be relative to the base. "" when either
/// cannot be read. Thread-safe; for messages, not hot paths.
std::string explain_outside_base(std::string_view url, std::string_view base);

/// Things normalisation changed that a user may want to hear about.
struct url_notes {
  bool fragment_removed = false;  ///< a "#..." was dropped
};

namespace detail {
// Where each component of a normalized_url's href begins; see the accessors.
struct url_offsets {
  std::uint32_t scheme_end = 0;   // the ':' after the scheme
  std::uint32_t host_begin = 0;   // after "://"
  std::uint32_t host_end = 0;     // ':' before a port, or the path's '/'
  std::uint32_t path_begin = 0;   // the path's leading '/'
  std::uint32_t query_begin = 0;  // the '?', or the href's size
  std::uint16_t port = 0;         // the port number, written or default
};
struct url_access;
}  // namespace detail

/// A normalised absolute http(s) URL and its components, as normalize_url(),
/// url_normalizer::normalize() and resolve_url() produce it. For
/// "https://[::1]:8080/a/b.xml?x=1": scheme "https", host "[::1]", port
/// 8080, authority "[::1]:8080", origin "https://[::1]:8080", path
/// "/a/b.xml", query "?x=1", scope_directory "https://[::1]:8080/a/".
///
/// Every accessor returns a view into href(), valid until the object is
/// next written to or destroyed. A default-constructed or failed one is
/// empty: every accessor gives "" (and port() 0). Normalisation is
/// idempotent, so normalize_url() is also the way to read the components of
/// a string that is already a normalised URL (a manifest's, a <loc> written
/// by sitemill): it gives back the same href, with its offsets. Not
/// synchronised: share one between threads only for reading.
class normalized_url {
 public:
  /// The whole normalised URL: "https://example.com/a?b".
  std::string_view href() const noexcept { return href_; }
  /// True for a default-constructed or failed URL.
  bool empty() const noexcept { return href_.empty(); }

  /// "http" or "https", without the ':'.
  std::string_view scheme() const noexcept { return part(0, at_.scheme_end); }
  /// scheme() == "https".
  bool is_https() const noexcept { return at_.scheme_end == 5; }

  /// The host as written in href(): lowercased, punycode for IDN, an IPv6
  /// address with its brackets, without a trailing dot ("example.com." is
  /// "example.com", RFC 1034 3.1).
  std::string_view host() const noexcept {
    return part(at_.host_begin, at_.host_end);
  }
  /// True when href() spells a port (one other than the scheme's default).
  bool has_port() const noexcept { return at_.host_end != at_.path_begin; }
  /// The port: the one written, else 443 for https and 80 for http.
  std::uint16_t port() const noexcept { return at_.port; }
  /// host() and ":port" when one is written (no credentials: normalisation
  /// refuses them).
  std::string_view authority() const noexcept {
    return part(at_.host_begin, at_.path_begin);
  }
  /// "scheme://authority", the origin the location rule compares.
  std::string_view origin() const noexcept { return part(0, at_.path_begin); }

  /// The path, never empty: it starts with '/'.
  std::string_view path() const noexcept {
    return part(at_.path_begin, at_.query_begin);
  }
  /// The query with its leading '?' ("?a=1"; "?" for an empty one), or ""
  /// when there is none.
  std::string_view query() const noexcept {
    return part(at_.query_begin, static_cast<std::uint32_t>(href_.size()));
  }
  /// path() followed by query(): everything after origin(), what an HTTP
  /// request line and robots.txt rules name.
  std::string_view path_and_query() const noexcept {
    return part(at_.path_begin, static_cast<std::uint32_t>(href_.size()));
  }
  /// origin() and path() up to and including its last '/', the directory
  /// the sitemaps.org location rule admits URLs under: for
  /// "https://example.com/catalog/s.xml?x=/y", "https://example.com/catalog/".
  std::string_view scope_directory() const noexcept;

 private:
  friend struct detail::url_access;
  std::string_view part(std::uint32_t begin, std::uint32_t end) const noexcept {
    return std::string_view(href_).substr(begin, end - begin);
  }
  std::string href_;
  detail::url_offsets at_;
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

  /// Several bases, for a run that publishes one set per host (or per
  /// directory): relative references resolve against the first, and a URL
  /// meets the location rule when it is under any of them (scope_of() says
  /// which). Fails as with_base() does, naming the base, and when two name
  /// one directory.
  static result<url_normalizer> with_bases(std::span<const std::string> bases);

  /// The normalised base directory ("https://example.com/catalog/"), or "".
  /// With several bases, the first.
  std::string_view base() const noexcept { return base_.href(); }
  /// The same with its components; empty without a base.
  const normalized_url& base_url() const noexcept { return base_; }

  /// How many bases there are: 0, 1, or more from with_bases().
  std::size_t base_count() const noexcept {
    return base_.empty() ? 0 : 1 + others_.size();
  }
  /// Base `i` (0: base_url()), i < base_count().
  const normalized_url& base_url(std::size_t i) const noexcept {
    return i == 0 ? base_ : others_[i - 1];
  }
  /// The base a URL that normalize() accepted lies under: the index of the
  /// longest base directory `normalized` starts with (a base nested in
  /// another wins for its URLs); 0 when there is one base or none matches.
  std::size_t scope_of(std::string_view normalized) const noexcept;

  /// Normalises `input` (surrounding ASCII whitespace ignored) into `out`,
  /// which is cleared first. On any problem other than ok, `out` is
  /// unspecified. Allocation-free once `out` has capacity; the fastest form,
  /// for callers that need only the text.
  [[nodiscard]] url_problem normalize(std::string_view input, std::string& out,
                                      url_notes* notes = nullptr) const;

  /// The same, with the components. On any problem other than ok, `out` is
  /// empty. Allocation-free once `out` has capacity.
  [[nodiscard]] url_problem normalize(std::string_view input,
                                      normalized_url& out,
                                      url_notes* notes = nullptr) const;

 private:
  normalized_url base_;  // the normalised base directory, ends with '/'
  std::vector<normalized_url> others_;  // with_bases(): the 2nd and later
};

/// Normalises an absolute http(s) URL without a base or location rule.
/// Thread-safe.
[[nodiscard]] url_problem normalize_url(std::string_view input,
                                        std::string& out,
                                        url_notes* notes = nullptr);

/// The same, with the components; `out` is empty on any problem.
/// Thread-safe.
[[nodiscard]] url_problem normalize_url(std::string_view input,
                                        normalized_url& out,
                                        url_notes* notes = nullptr);

/// normalize_url() for a stream of absolute URLs that share a few origins
/// (a site's own host, its CDN): it keeps the last few origins it
/// normalised, and a URL that spells one of them exactly as normalised
/// skips the parsing of its scheme and authority, as a base lets
/// url_normalizer do. Same results as normalize_url(). Not thread-safe: one
/// per thread.
class origin_memo {
 public:
  [[nodiscard]] url_problem normalize(std::string_view input, std::string& out);

 private:
  static constexpr std::size_t kept = 4;
  std::array<normalized_url, kept> origins_{};
  std::size_t next_ = 0;
  normalized_url scratch_;
};

/// Resolves `reference` (surrounding ASCII whitespace ignored) against the
/// full URL `base` as a browser would (RFC 3986 5.2.2: "?q" keeps base's
/// path, "x" replaces its last segment, "#f" gives base itself) and
/// normalises the result into `out`; an absolute reference is normalised on
/// its own, and a blank one is refused as empty. No location rule (that is
/// url_normalizer's job, whose base is a directory). With an empty `base`,
/// only absolute references resolve. `out` is empty on any problem; it may
/// be `base`. Thread-safe.
[[nodiscard]] url_problem resolve_url(std::string_view reference,
                                      const normalized_url& base,
                                      normalized_url& out,
                                      url_notes* notes = nullptr);

/// True when `url` is within `scope` by the sitemaps.org location rule: its
/// href starts with scope.scope_directory(), so same scheme, host and port,
/// and a path at or below the directory of scope's path (a '/' in the query
/// does not count). False when either is empty.
bool within_scope(const normalized_url& url,
                  const normalized_url& scope) noexcept;
/// The same for a URL normalised to text (normalize_url()'s string form, or
/// origin_memo's): false when `normalized` or `scope` is empty.
bool within_scope(std::string_view normalized,
                  const normalized_url& scope) noexcept;

/// True when `a` and `b` name one host and port, the fetch scope's unit
/// (walker.h): hosts equal (normalisation dropped a trailing dot), and
/// ports equal, or each the default of its
/// scheme, so "http://h/" and "https://h/" are one host but "h:8080" is not.
/// False when either is empty.
bool same_host(const normalized_url& a, const normalized_url& b) noexcept;

/// True when `s` begins with "http://" or "https://", ignoring ASCII case:
/// text meant as an absolute web URL rather than a file path, whether or
/// not it normalises. Leading whitespace is not skipped.
bool has_http_scheme(std::string_view s) noexcept;

/// `s` with every "%XX" of two hex digits replaced by the byte it encodes
/// (RFC 3986 2.1); a '%' without them is kept. The result may hold any
/// byte, NUL and invalid UTF-8 included: a caller using it as a file name
/// must check it.
std::string percent_decode(std::string_view s);

}  // namespace sitemill

#endif  // SITEMILL_URL_H
