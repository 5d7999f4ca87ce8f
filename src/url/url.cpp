// sitemill: URL normalisation (RFC 3986) and the sitemaps.org location rule.
//
// The hot path is a URL that already starts with the base origin and has an
// ASCII path: it costs one scan for control bytes, one prefix compare and a
// table-driven copy. Everything else (scheme, authority, IDN, relative
// resolution) takes the general path. Both record where each component
// begins as they write it, for normalized_url; nothing else splits a URL.
#include "sitemill/url/url.h"

#include <idn2.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include "detail/text.h"
#include "detail/utf8.h"
#include "sitemill/limits.h"
#include "url/clean_url.h"

namespace sitemill {

// The one writer of a normalized_url's fields, for the functions below.
struct detail::url_access {
  static std::string& href(normalized_url& u) noexcept { return u.href_; }
  static url_offsets& at(normalized_url& u) noexcept { return u.at_; }
  static const url_offsets& at(const normalized_url& u) noexcept {
    return u.at_;
  }
};

namespace {

using detail::url_access;
using detail::url_offsets;

std::uint32_t offset(std::size_t n) noexcept {
  return static_cast<std::uint32_t>(n);
}

constexpr char kHexUpper[] = "0123456789ABCDEF";

bool is_alpha(unsigned char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_digit(unsigned char c) noexcept { return c >= '0' && c <= '9'; }
bool is_hex(unsigned char c) noexcept {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
unsigned hex_value(unsigned char c) noexcept {
  if (is_digit(c)) return c - '0';
  return (c | 0x20u) - 'a' + 10;
}
char to_upper(char c) noexcept {
  return (c >= 'a' && c <= 'z') ? static_cast<char>(c & ~0x20) : c;
}
bool is_ascii_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
         c == '\v';
}
// RFC 3986 2.3: these are the characters a %XX is decoded back to (6.2.2.2).
bool is_unreserved(unsigned char c) noexcept {
  return is_alpha(c) || is_digit(c) || c == '-' || c == '.' || c == '_' ||
         c == '~';
}

// Bytes copied unchanged into a path or query (url/clean_url.h). '?' can
// only reach the encoder inside a query: the path is cut at the first one.
constexpr const std::array<bool, 256>& kPass = detail::kept_bytes;

// Bytes the pre-scan must look at more closely: controls refuse the URL,
// bytes >= 0x80 need UTF-8 validation.
constexpr std::uint8_t kControl = 1;
constexpr std::uint8_t kHigh = 2;
constexpr std::array<std::uint8_t, 256> make_scan_table() {
  std::array<std::uint8_t, 256> t{};
  for (int c = 0; c < 0x20; ++c) t[c] = kControl;
  t[0x7F] = kControl;
  for (int c = 0x80; c < 0x100; ++c) t[c] = kHigh;
  return t;
}
constexpr std::array<std::uint8_t, 256> kScan = make_scan_table();

// Appends `src` with every byte a URI may not contain percent-encoded and
// every valid %XX normalised (RFC 3986 6.2.2.1 and 6.2.2.2). Runs of safe
// bytes go out with one append, so a clean path costs one scan.
void append_encoded(std::string& out, std::string_view src) {
  const char* p = src.data();
  const std::size_t n = src.size();
  std::size_t i = 0;
  while (i < n) {
    std::size_t run = i;
    while (run < n && kPass[static_cast<unsigned char>(p[run])]) ++run;
    out.append(p + i, run - i);
    i = run;
    if (i == n) break;
    const auto c = static_cast<unsigned char>(p[i]);
    if (c == '%') {
      if (n - i >= 3 && is_hex(static_cast<unsigned char>(p[i + 1])) &&
          is_hex(static_cast<unsigned char>(p[i + 2]))) {
        const auto v = static_cast<unsigned char>(
            hex_value(static_cast<unsigned char>(p[i + 1])) * 16 +
            hex_value(static_cast<unsigned char>(p[i + 2])));
        if (is_unreserved(v)) {
          out.push_back(static_cast<char>(v));
        } else {
          const char esc[3] = {'%', to_upper(p[i + 1]), to_upper(p[i + 2])};
          out.append(esc, 3);
        }
        i += 3;
      } else {
        out.append("%25", 3);
        ++i;
      }
      continue;
    }
    const char esc[3] = {'%', kHexUpper[c >> 4], kHexUpper[c & 15]};
    out.append(esc, 3);
    ++i;
  }
}

// A segment starting with '.' is the only shape that can be "." or "..";
// most paths have none, so removal is skipped for them.
bool has_dot_segment_candidate(std::string_view path) noexcept {
  std::size_t pos = path.find("/.");
  while (pos != std::string_view::npos) {
    const std::size_t seg = pos + 1;
    std::size_t end = path.find('/', seg);
    if (end == std::string_view::npos) end = path.size();
    const std::size_t len = end - seg;
    if ((len == 1) || (len == 2 && path[seg + 1] == '.')) return true;
    pos = path.find("/.", end);
  }
  return false;
}

// RFC 3986 5.2.4 on out[begin, end), a path starting with '/', in place: the
// output never outgrows the input, so one write cursor suffices. Returns the
// new end.
std::size_t remove_dot_segments(std::string& s, std::size_t begin,
                                std::size_t end) {
  char* b = s.data();
  std::size_t w = begin;
  std::size_t r = begin;
  while (r < end) {
    const std::size_t seg = r + 1;
    const void* slash = std::memchr(b + seg, '/', end - seg);
    const std::size_t seg_end =
        slash ? static_cast<std::size_t>(static_cast<const char*>(slash) - b)
              : end;
    const std::size_t len = seg_end - seg;
    const bool last = seg_end == end;
    if (len == 1 && b[seg] == '.') {
      if (last) b[w++] = '/';
    } else if (len == 2 && b[seg] == '.' && b[seg + 1] == '.') {
      while (w > begin && b[--w] != '/') {
      }
      if (last) b[w++] = '/';
    } else {
      std::memmove(b + w, b + r, seg_end - r);
      w += seg_end - r;
    }
    r = seg_end;
  }
  if (w == begin) b[w++] = '/';
  return w;
}

void normalize_path(std::string& out, std::size_t path_begin) {
  if (has_dot_segment_candidate(
          std::string_view(out).substr(path_begin, out.size() - path_begin))) {
    out.resize(remove_dot_segments(out, path_begin, out.size()));
  }
}

// RFC 3986 3.2.2 dec-octet: no leading zeros, at most 255.
bool valid_ipv4(std::string_view s) noexcept {
  int octets = 0;
  std::size_t i = 0;
  while (true) {
    std::size_t j = i;
    unsigned v = 0;
    while (j < s.size() && is_digit(static_cast<unsigned char>(s[j])) &&
           j - i < 3) {
      v = v * 10 + static_cast<unsigned>(s[j] - '0');
      ++j;
    }
    const std::size_t len = j - i;
    if (len == 0 || v > 255 || (len > 1 && s[i] == '0')) return false;
    ++octets;
    i = j;
    if (i == s.size()) break;
    if (s[i] != '.' || octets == 4) return false;
    ++i;
  }
  return octets == 4;
}

// RFC 3986 3.2.2 IPv6address: eight h16, or fewer around one "::", the last
// 32 bits optionally as dotted IPv4.
bool valid_ipv6(std::string_view s) noexcept {
  const std::size_t n = s.size();
  std::size_t i = 0;
  int groups = 0;
  bool compressed = false;
  if (n >= 2 && s[0] == ':' && s[1] == ':') {
    compressed = true;
    i = 2;
    if (i == n) return true;
  }
  while (true) {
    std::size_t j = i;
    while (j < n && is_hex(static_cast<unsigned char>(s[j]))) ++j;
    if (j < n && s[j] == '.') {
      if (!valid_ipv4(s.substr(i))) return false;
      groups += 2;
      break;
    }
    if (j == i || j - i > 4) return false;
    ++groups;
    i = j;
    if (i == n) break;
    if (s[i] != ':') return false;
    ++i;
    if (i < n && s[i] == ':') {
      if (compressed) return false;
      compressed = true;
      ++i;
      if (i == n) break;
    } else if (i == n) {
      return false;
    }
  }
  return compressed ? groups <= 7 : groups == 8;
}

bool is_host_char(char c) noexcept {
  const auto u = static_cast<unsigned char>(c);
  return is_alpha(u) || is_digit(u) || c == '-' || c == '.' || c == '_';
}

// A lowercased reg-name or IPv4 address: host characters only, and no empty
// label apart from the root label a trailing dot stands for.
bool valid_ascii_host(std::string_view h) noexcept {
  if (h.empty() || h[0] == '.') return false;
  for (std::size_t i = 0; i < h.size(); ++i) {
    if (!is_host_char(h[i])) return false;
    if (h[i] == '.' && i + 1 < h.size() && h[i + 1] == '.') return false;
  }
  return true;
}

// IDNA2008 via UTS #46 non-transitional processing, as browsers do; the
// transitional retry accepts names (emoji, ZWNJ) that only IDNA2003 allowed.
url_problem append_idn_host(std::string& out, std::string_view host) {
  // DNS names are at most 253 octets, and a code point at most 4 UTF-8
  // bytes, so a longer host cannot convert anyway.
  char buf[1024];
  if (host.size() >= sizeof buf) return url_problem::bad_idn;
  for (std::size_t i = 0; i < host.size(); ++i)
    buf[i] = detail::ascii_lower(host[i]);
  buf[host.size()] = '\0';
  char* ascii = nullptr;
  int rc = idn2_to_ascii_8z(buf, &ascii, IDN2_NONTRANSITIONAL | IDN2_NFC_INPUT);
  if (rc != IDN2_OK) {
    ascii = nullptr;
    rc = idn2_to_ascii_8z(buf, &ascii, IDN2_TRANSITIONAL | IDN2_NFC_INPUT);
  }
  if (rc != IDN2_OK || ascii == nullptr) {
    if (ascii) idn2_free(ascii);
    return url_problem::bad_idn;
  }
  const std::size_t begin = out.size();
  for (const char* p = ascii; *p; ++p) out.push_back(detail::ascii_lower(*p));
  idn2_free(ascii);
  // Without STD3 rules UTS #46 maps some symbols to ASCII punctuation
  // (U+2100 becomes "a/c"), which must not smuggle a '/' into the host.
  if (!valid_ascii_host(std::string_view(out).substr(begin)))
    return url_problem::bad_idn;
  return url_problem::ok;
}

// Appends "host[:port]" normalised, from the authority of an absolute URL,
// and records where the host ends and which port it names.
url_problem append_authority(std::string& out, std::string_view auth,
                             bool https, url_offsets& at) {
  if (auth.find('@') != std::string_view::npos)
    return url_problem::has_credentials;
  std::string_view host;
  std::string_view port;
  bool has_port = false;
  if (!auth.empty() && auth[0] == '[') {
    const std::size_t close = auth.find(']');
    if (close == std::string_view::npos) return url_problem::bad_host;
    const std::string_view literal = auth.substr(1, close - 1);
    if (!valid_ipv6(literal)) return url_problem::bad_host;
    const std::string_view after = auth.substr(close + 1);
    if (!after.empty()) {
      if (after[0] != ':') return url_problem::bad_host;
      port = after.substr(1);
      has_port = true;
    }
    out.push_back('[');
    for (char c : literal) out.push_back(detail::ascii_lower(c));
    out.push_back(']');
  } else {
    const std::size_t colon = auth.find(':');
    host = auth.substr(0, colon);
    if (colon != std::string_view::npos) {
      port = auth.substr(colon + 1);
      has_port = true;
    }
    bool non_ascii = false;
    for (char c : host) {
      if (static_cast<unsigned char>(c) >= 0x80) {
        non_ascii = true;
      } else if (!is_host_char(c)) {
        return url_problem::bad_host;
      }
    }
    if (non_ascii) {
      if (const url_problem p = append_idn_host(out, host);
          p != url_problem::ok) {
        return p;
      }
    } else {
      if (!valid_ascii_host(host)) return url_problem::bad_host;
      for (char c : host) out.push_back(detail::ascii_lower(c));
    }
  }
  at.host_end = offset(out.size());
  at.port = https ? 443 : 80;
  if (has_port && !port.empty()) {
    unsigned value = 0;
    for (char c : port) {
      if (!is_digit(static_cast<unsigned char>(c)))
        return url_problem::bad_port;
      value = value * 10 + static_cast<unsigned>(c - '0');
      if (value > 65535) return url_problem::bad_port;
    }
    // RFC 3986 6.2.3: the scheme's default port is the same as none.
    if (value != at.port) {
      at.port = static_cast<std::uint16_t>(value);
      char digits[6];
      std::size_t k = sizeof digits;
      do {
        digits[--k] = static_cast<char>('0' + value % 10);
        value /= 10;
      } while (value != 0);
      out.push_back(':');
      out.append(digits + k, sizeof digits - k);
    }
  }
  return url_problem::ok;
}

// RFC 3986 3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":".
// Returns the position of the ':' or npos when `s` has no scheme.
std::size_t scheme_end(std::string_view s) noexcept {
  if (s.empty() || !is_alpha(static_cast<unsigned char>(s[0])))
    return std::string_view::npos;
  for (std::size_t i = 1; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == ':') return i;
    if (!is_alpha(c) && !is_digit(c) && c != '+' && c != '-' && c != '.')
      return std::string_view::npos;
  }
  return std::string_view::npos;
}

// Appends the path (cut at the first '?') and the query of `rest` encoded,
// after `out` already holds everything before the path, and records where
// the query begins.
void append_path_and_query(std::string& out, std::string_view rest,
                           std::size_t path_begin, url_offsets& at) {
  const std::size_t q = rest.find('?');
  append_encoded(out, rest.substr(0, q));
  if (out.size() == path_begin) out.push_back('/');
  normalize_path(out, path_begin);
  at.query_begin = offset(out.size());
  if (q != std::string_view::npos) append_encoded(out, rest.substr(q));
}

// Appends "scheme://", the authority, path and query of `rest`, the text
// after "//" of an absolute URL or network-path reference.
url_problem append_from_authority(std::string& out, std::string_view rest,
                                  bool https, url_offsets& at) {
  out.append(https ? "https://" : "http://");
  at.scheme_end = https ? 5 : 4;
  at.host_begin = offset(out.size());
  const std::string_view auth = rest.substr(0, rest.find_first_of("/?"));
  if (const url_problem p = append_authority(out, auth, https, at);
      p != url_problem::ok) {
    return p;
  }
  at.path_begin = offset(out.size());
  append_path_and_query(out, rest.substr(auth.size()), out.size(), at);
  return url_problem::ok;
}

// A normalised absolute URL that relative references resolve against.
struct base_view {
  std::string_view href;
  const url_offsets& at;  // of href
  std::size_t dir_end;    // after the last '/' of the path
  // url_normalizer's base is a directory that every result must be in;
  // resolve_url's is a page, which only resolves.
  bool location_rule;
  // More directories a result may be in instead (url_normalizer::
  // with_bases()); relative references still resolve against `href`.
  std::span<const normalized_url> also = {};

  bool admits(std::string_view url) const noexcept {
    if (url.starts_with(href)) return true;
    for (const normalized_url& dir : also)
      if (url.starts_with(dir.href())) return true;
    return false;
  }

  std::size_t origin() const noexcept { return at.path_begin; }
  bool same_origin(std::string_view input) const noexcept {
    return input.size() > origin() && input[origin()] == '/' &&
           input.compare(0, origin(), href.substr(0, origin())) == 0;
  }
};

base_view directory_base(const normalized_url& dir) noexcept {
  return {dir.href(), url_access::at(dir), dir.href().size(), true};
}

url_problem normalize_general(std::string_view input, const base_view* base,
                              std::string& out, url_offsets& at,
                              url_notes* notes);

// Normalises `input` into `out`; `at`, when given, receives the offsets of
// its components (the std::string form of normalize() skips the search for
// the '?' on the fast path).
url_problem normalize_impl(std::string_view input, const base_view* base,
                           std::string& out, url_offsets* at, url_notes* notes,
                           bool check_min_length) {
  out.clear();
  if (notes) *notes = url_notes{};
  detail::path_class fast = detail::path_class::other;
  if (base && base->same_origin(input)) {
    fast = detail::classify_path_and_query(input.substr(base->origin()));
    if (fast == detail::path_class::non_ascii &&
        !detail::is_valid_utf8(input.substr(base->origin()))) {
      fast = detail::path_class::other;  // the general path says why
    }
  }
  if (fast != detail::path_class::other) {
    if (fast == detail::path_class::clean) {
      // The common case: the base's own origin followed by text that needs
      // no trimming, encoding or dot-segment removal; the URL is its own
      // normal form. Everything else takes the general path below.
      out.assign(input);
    } else {
      // The same with UTF-8 in it, which only needs percent-encoding.
      out.assign(input.substr(0, base->origin()));
      append_encoded(out, input.substr(base->origin()));
    }
    if (at) {
      *at = base->at;
      at->query_begin =
          offset(std::min(out.find('?', base->origin()), out.size()));
    }
  } else {
    url_offsets general;
    if (const url_problem p =
            normalize_general(input, base, out, general, notes);
        p != url_problem::ok) {
      return p;
    }
    if (at) *at = general;
  }
  // Outside the base is the more useful thing to hear about a URL that is
  // also too short ("//g").
  if (base && base->location_rule && !base->admits(out))
    return url_problem::outside_base;
  if (out.size() > max_loc_length) return url_problem::too_long;
  if (check_min_length && out.size() < min_loc_length)
    return url_problem::too_short;
  return url_problem::ok;
}

// Everything but the final checks: trims, validates and rewrites any input.
url_problem normalize_general(std::string_view input, const base_view* base,
                              std::string& out, url_offsets& at,
                              url_notes* notes) {
  while (!input.empty() && is_ascii_space(input.front()))
    input.remove_prefix(1);
  while (!input.empty() && is_ascii_space(input.back())) input.remove_suffix(1);
  if (input.empty()) return url_problem::empty;

  std::uint8_t seen = 0;
  for (char c : input) seen |= kScan[static_cast<unsigned char>(c)];
  if (seen & kControl) return url_problem::control_character;
  if ((seen & kHigh) && !detail::is_valid_utf8(input))
    return url_problem::invalid_utf8;

  // RFC 3986 3.5: the first '#' starts the fragment, wherever it is.
  if (const std::size_t hash = input.find('#');
      hash != std::string_view::npos) {
    input = input.substr(0, hash);
    if (notes) notes->fragment_removed = true;
  }

  if (base && base->same_origin(input)) {
    // The input spells the base origin exactly, and that origin is already
    // normalised, so only the path and query need work.
    out.append(base->href.substr(0, base->origin()));
    at = base->at;
    append_path_and_query(out, input.substr(base->origin()), base->origin(),
                          at);
  } else if (const std::size_t colon = scheme_end(input);
             colon != std::string_view::npos) {
    const std::string_view scheme = input.substr(0, colon);
    bool https;
    if (detail::iequals(scheme, "https")) {
      https = true;
    } else if (detail::iequals(scheme, "http")) {
      https = false;
    } else {
      return url_problem::not_http;
    }
    const std::string_view rest = input.substr(colon + 1);
    // "http:path" has no authority, so no host to fetch from.
    if (rest.size() < 2 || rest[0] != '/' || rest[1] != '/')
      return url_problem::bad_host;
    if (const url_problem p =
            append_from_authority(out, rest.substr(2), https, at);
        p != url_problem::ok) {
      return p;
    }
  } else if (!base) {
    return url_problem::relative_without_base;
  } else if (input.size() >= 2 && input[0] == '/' && input[1] == '/') {
    // RFC 3986 5.2.2: a network-path reference keeps only the base scheme.
    if (const url_problem p = append_from_authority(
            out, input.substr(2), base->at.scheme_end == 5, at);
        p != url_problem::ok) {
      return p;
    }
  } else if (input.empty()) {
    // RFC 3986 5.2.2: only a fragment ("#top") is the base itself.
    out.append(base->href);
    at = base->at;
  } else {
    // RFC 3986 5.2.2 and 5.2.3: an absolute path replaces the base path,
    // a query alone keeps it, and a relative path merges with its
    // directory, which is appending to the part up to its last '/'.
    const std::size_t keep = input[0] == '/'   ? base->origin()
                             : input[0] == '?' ? base->at.query_begin
                                               : base->dir_end;
    out.append(base->href.substr(0, keep));
    at = base->at;
    append_path_and_query(out, input, base->origin(), at);
  }
  return url_problem::ok;
}

}  // namespace

std::string_view describe(url_problem problem) noexcept {
  switch (problem) {
    case url_problem::ok:
      return "URL is valid";
    case url_problem::empty:
      return "URL is empty; give an absolute http or https URL";
    case url_problem::not_http:
      return "URL is not http or https; only http:// and https:// URLs can "
             "be listed";
    case url_problem::relative_without_base:
      return "URL is relative; give an absolute http(s) URL or set a base URL "
             "to resolve it against";
    case url_problem::bad_host:
      return "URL has a missing or invalid host; use a domain name, an IPv4 "
             "address or a bracketed IPv6 address";
    case url_problem::bad_idn:
      return "URL host is not a valid internationalised domain name "
             "(IDNA2008); check its spelling";
    case url_problem::bad_port:
      return "URL port is not a number from 0 to 65535";
    case url_problem::has_credentials:
      return "URL contains a user name or password; remove the "
             "\"user:password@\" part";
    case url_problem::control_character:
      return "URL contains a control character such as a tab or newline; "
             "remove it";
    case url_problem::invalid_utf8:
      return "URL is not valid UTF-8; convert the input to UTF-8";
    case url_problem::too_long:
      return "URL is 2,048 characters or more once percent-encoded; shorten "
             "it";
    case url_problem::too_short:
      return "URL is shorter than the 12 characters sitemap.xsd requires";
    case url_problem::outside_base:
      return "URL is outside the base URL's scheme, host, port or directory "
             "(the sitemaps.org location rule)";
  }
  return "URL has an unknown problem";
}

std::string explain_outside_base(std::string_view url, std::string_view base) {
  normalized_url b, u;
  if (normalize_url(base, b) != url_problem::ok) return {};
  url = detail::trim(url);
  if (normalize_url(url, u) != url_problem::ok &&
      resolve_url(url, b, u) != url_problem::ok)
    return {};
  auto differs = [](std::string_view part, std::string_view mine,
                    std::string_view theirs) {
    std::string out = "the ";
    ((((out += part) += " is ") += mine) += ", the base's ") += theirs;
    return out;
  };
  if (u.scheme() != b.scheme())
    return differs("scheme", u.scheme(), b.scheme());
  if (u.host() != b.host()) return differs("host", u.host(), b.host());
  if (u.port() != b.port())
    return differs("port", std::to_string(u.port()), std::to_string(b.port()));
  return "the path " + std::string(u.path()) +
         " is not in the base's directory " + std::string(b.path());
}

result<url_normalizer> url_normalizer::with_base(std::string_view base) {
  auto fail = [base](std::string_view why) {
    std::string msg = "base URL \"";
    msg.append(base);
    msg.append("\": ");
    msg.append(why);
    return error{std::move(msg)};
  };
  url_normalizer n;
  std::string& dir = url_access::href(n.base_);
  url_offsets& at = url_access::at(n.base_);
  url_notes notes;
  // The base is a directory, not a <loc>, so "http://a/" is a fine base even
  // though it is under the 12 characters a <loc> needs.
  const url_problem p = normalize_impl(base, nullptr, dir, &at, &notes,
                                       /*check_min_length=*/false);
  if (p != url_problem::ok) return fail(describe(p));
  if (notes.fragment_removed) return fail("a base URL cannot have a fragment");
  if (at.query_begin != dir.size())
    return fail("a base URL cannot have a query");
  if (dir.back() != '/') dir.push_back('/');
  at.query_begin = offset(dir.size());
  if (dir.size() > max_loc_length) return fail(describe(url_problem::too_long));
  return n;
}

result<url_normalizer> url_normalizer::with_bases(
    std::span<const std::string> bases) {
  if (bases.empty()) return error{"no base URL given"};
  auto first = with_base(bases.front());
  if (!first) return first;
  for (const std::string& b : bases.subspan(1)) {
    auto next = with_base(b);
    if (!next) return next;
    for (std::size_t i = 0; i < first->base_count(); ++i)
      if (first->base_url(i).href() == next->base()) {
        return error{"base URL \"" + b + "\": given twice (as \"" +
                     std::string(next->base()) + "\")"};
      }
    first->others_.push_back(std::move(next->base_));
  }
  return first;
}

std::size_t url_normalizer::scope_of(
    std::string_view normalized) const noexcept {
  std::size_t best = 0, best_size = 0;
  for (std::size_t i = 0; i < base_count(); ++i) {
    const std::string_view dir = base_url(i).href();
    if (dir.size() > best_size && normalized.starts_with(dir)) {
      best = i;
      best_size = dir.size();
    }
  }
  return best;
}

url_problem url_normalizer::normalize(std::string_view input, std::string& out,
                                      url_notes* notes) const {
  if (base_.empty())
    return normalize_impl(input, nullptr, out, nullptr, notes, true);
  base_view base = directory_base(base_);
  base.also = others_;
  return normalize_impl(input, &base, out, nullptr, notes, true);
}

namespace {

// A failed normalized_url is empty, so that no accessor can read offsets
// that do not match its href.
url_problem settle(url_problem p, normalized_url& out) {
  if (p != url_problem::ok) {
    url_access::href(out).clear();
    url_access::at(out) = url_offsets{};
  }
  return p;
}

}  // namespace

url_problem url_normalizer::normalize(std::string_view input,
                                      normalized_url& out,
                                      url_notes* notes) const {
  std::string& href = url_access::href(out);
  url_offsets& at = url_access::at(out);
  if (base_.empty())
    return settle(normalize_impl(input, nullptr, href, &at, notes, true), out);
  base_view base = directory_base(base_);
  base.also = others_;
  return settle(normalize_impl(input, &base, href, &at, notes, true), out);
}

url_problem normalize_url(std::string_view input, std::string& out,
                          url_notes* notes) {
  return normalize_impl(input, nullptr, out, nullptr, notes, true);
}

url_problem normalize_url(std::string_view input, normalized_url& out,
                          url_notes* notes) {
  return settle(normalize_impl(input, nullptr, url_access::href(out),
                               &url_access::at(out), notes, true),
                out);
}

url_problem origin_memo::normalize(std::string_view input, std::string& out) {
  for (const normalized_url& o : origins_) {
    if (o.empty()) break;
    // No location rule and no relative resolution: a URL that spells this
    // origin is absolute, and normalising it with the origin as its base
    // gives what normalize_url() does, only sooner.
    const base_view origin{o.href(), url_access::at(o), 0, false};
    if (origin.same_origin(input))
      return normalize_impl(input, &origin, out, nullptr, nullptr, true);
  }
  const url_problem p = normalize_url(input, scratch_);
  if (p != url_problem::ok) return p;
  out.assign(scratch_.href());
  // Remembered unless an origin it already has is spelled differently
  // ("HTTPS://Example.com" each time would evict the useful ones).
  for (const normalized_url& o : origins_)
    if (!o.empty() && o.origin() == scratch_.origin()) return p;
  origins_[next_] = scratch_;
  next_ = (next_ + 1) % kept;
  return p;
}

url_problem resolve_url(std::string_view reference, const normalized_url& base,
                        normalized_url& out, url_notes* notes) {
  if (&out == &base) {
    const normalized_url copy = base;
    return resolve_url(reference, copy, out, notes);
  }
  if (base.empty()) return normalize_url(reference, out, notes);
  const base_view view{base.href(), url_access::at(base),
                       base.scope_directory().size(), false};
  return settle(normalize_impl(reference, &view, url_access::href(out),
                               &url_access::at(out), notes, true),
                out);
}

std::string_view normalized_url::scope_directory() const noexcept {
  const std::string_view href = href_;
  // The path starts with '/', so the last one before the query is in it.
  return href.substr(0, href.substr(0, at_.query_begin).rfind('/') + 1);
}

bool same_host(const normalized_url& a, const normalized_url& b) noexcept {
  if (a.empty() || b.empty()) return false;
  const auto bare = [](std::string_view host) {
    if (!host.empty() && host.back() == '.') host.remove_suffix(1);
    return host;
  };
  // Normalisation lowercased both hosts, and dropped a scheme's default port.
  return bare(a.host()) == bare(b.host()) &&
         (a.has_port() || b.has_port() ? a.port() == b.port() : true);
}

bool within_scope(const normalized_url& url,
                  const normalized_url& scope) noexcept {
  // The directory ends with '/', so a prefix match cannot stop inside a host
  // name, a port or a path segment.
  return !url.empty() && !scope.empty() &&
         url.href().starts_with(scope.scope_directory());
}

bool has_http_scheme(std::string_view s) noexcept {
  return detail::istarts_with(s, "http://") ||
         detail::istarts_with(s, "https://");
}

std::string percent_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && s.size() - i >= 3 &&
        is_hex(static_cast<unsigned char>(s[i + 1])) &&
        is_hex(static_cast<unsigned char>(s[i + 2]))) {
      out.push_back(static_cast<char>(
          hex_value(static_cast<unsigned char>(s[i + 1])) * 16 +
          hex_value(static_cast<unsigned char>(s[i + 2]))));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

}  // namespace sitemill
