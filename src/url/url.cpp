// sitemill: URL normalisation (RFC 3986) and the sitemaps.org location rule.
// This file parses: the fast path, the scheme, relative resolution against a
// base (5.2), the location rule, url_normalizer, origin_memo, resolve_url and
// the host and scope comparisons. The authority (hosts, IDN, ports) is
// url_host.cpp's, the path and query (encoding, dot segments) url_path.cpp's.
//
// The hot path is a URL that already starts with the base origin and has an
// ASCII path: it costs one scan for control bytes, one prefix compare and a
// table-driven copy. Everything else (scheme, authority, IDN, relative
// resolution) takes the general path. Both record where each component
// begins as they write it, for normalized_url; nothing else splits a URL.
#include "sitemill/url/url.h"

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
#include "url/url_parts.h"

namespace sitemill {

namespace {

using detail::append_encoded;
using detail::append_from_authority;
using detail::append_path_and_query;
using detail::is_alpha;
using detail::is_digit;
using detail::offset;
using detail::url_access;
using detail::url_offsets;

bool is_ascii_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
         c == '\v';
}

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
  // Normalisation lowercased both hosts, dropped a trailing dot and a
  // scheme's default port.
  return a.host() == b.host() &&
         (a.has_port() || b.has_port() ? a.port() == b.port() : true);
}

bool within_scope(const normalized_url& url,
                  const normalized_url& scope) noexcept {
  return !url.empty() && within_scope(url.href(), scope);
}

bool within_scope(std::string_view normalized,
                  const normalized_url& scope) noexcept {
  // The directory ends with '/', so a prefix match cannot stop inside a host
  // name, a port or a path segment.
  return !normalized.empty() && !scope.empty() &&
         normalized.starts_with(scope.scope_directory());
}

bool has_http_scheme(std::string_view s) noexcept {
  return detail::istarts_with(s, "http://") ||
         detail::istarts_with(s, "https://");
}

}  // namespace sitemill
