// Fuzz target for URL normalisation. Beyond "no crash", it aborts when an
// accepted URL breaks an invariant: normalising it again changes it, it holds
// a byte a <loc> may not, its length is outside [12, 2047], it is outside
// the base it was accepted under, or its components do not fit together
// (origin() + path_and_query() is not href(), scope_directory() is not a
// prefix ending in '/', the fast and general paths disagree on them). It
// also checks that a base changes nothing for an absolute URL but the
// location rule, which pits the origin fast path against the general parser.
//
// Input: a URL. When it contains a '\n', the text before the first one is
// also tried as a base directory, and as a page for resolve_url(), for the
// text after it.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "sitemill/limits.h"
#include "sitemill/url/url.h"

namespace {

using sitemill::normalized_url;
using sitemill::url_normalizer;
using sitemill::url_notes;
using sitemill::url_problem;

void require(bool ok) {
  if (!ok) std::abort();
}

bool is_upper_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F');
}

// What an accepted URL looks like, independently of how it was made.
void check_shape(std::string_view out) {
  require(out.size() >= sitemill::min_loc_length);
  require(out.size() <= sitemill::max_loc_length);
  const std::size_t scheme = out.starts_with("https://")  ? 8
                             : out.starts_with("http://") ? 7
                                                          : 0;
  require(scheme != 0);
  const std::size_t path = out.find('/', scheme);
  require(path != std::string_view::npos && path > scheme);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const char c = out[i];
    require(c > 0x20 && c < 0x7F);
    require(std::string_view("\"<>\\^`{|}#").find(c) == std::string_view::npos);
    // RFC 3986 3.2.2: brackets only around an IPv6 host.
    if (c == '[' || c == ']') require(i >= scheme && i < path);
    if (c == '%') {
      require(i + 2 < out.size() && is_upper_hex(out[i + 1]) &&
              is_upper_hex(out[i + 2]));
    }
  }
}

// The components of `u` fit together and match its href.
void check_components(const normalized_url& u) {
  const std::string_view href = u.href();
  require(!u.empty());
  require(std::string(u.origin()).append(u.path_and_query()) == href);
  require(std::string(u.path()).append(u.query()) == u.path_and_query());
  require(std::string(u.scheme()).append("://").append(u.authority()) ==
          u.origin());
  require(u.scheme() == (u.is_https() ? "https" : "http"));
  require(u.authority().starts_with(u.host()) && !u.host().empty());
  require(u.has_port() == (u.authority().size() != u.host().size()));
  if (u.has_port()) {
    require(u.authority().substr(u.host().size()) ==
            ":" + std::to_string(u.port()));
  } else {
    require(u.port() == (u.is_https() ? 443 : 80));
  }
  require(u.path().starts_with('/'));
  require(u.path().find('?') == std::string_view::npos);
  require(u.query().empty() || u.query().starts_with('?'));
  const std::string_view dir = u.scope_directory();
  require(dir.ends_with('/') && href.starts_with(dir) &&
          dir.size() > u.origin().size());
  require(href.find('/', dir.size()) == std::string_view::npos ||
          href.find('?', dir.size()) < href.find('/', dir.size()));
  require(sitemill::within_scope(u, u));
}

// Every component of `u`, to compare two URLs'.
std::string components(const normalized_url& u) {
  std::string s;
  for (std::string_view part : {u.href(), u.scheme(), u.host(), u.authority(),
                                u.path(), u.query(), u.scope_directory()})
    s.append(part).push_back('|');
  return s + std::to_string(u.port()) + (u.has_port() ? "+" : "-");
}

void check_accepted(const url_normalizer& n, std::string_view out) {
  check_shape(out);
  std::string again;
  url_notes notes;
  require(n.normalize(out, again, &notes) == url_problem::ok);
  require(again == out);
  require(!notes.fragment_removed);
  require(sitemill::normalize_url(out, again) == url_problem::ok);
  require(again == out);
  // Read back with and without the base (the fast path, when the base's
  // origin starts it, against the general one): the same components.
  normalized_url with_base, without;
  require(n.normalize(out, with_base) == url_problem::ok);
  require(sitemill::normalize_url(out, without) == url_problem::ok);
  require(with_base.href() == out);
  check_components(with_base);
  require(components(with_base) == components(without));
  if (!n.base().empty())
    require(sitemill::within_scope(with_base, n.base_url()));
}

const url_normalizer& fixed_base(std::size_t i) {
  static const url_normalizer bases[] = {
      *url_normalizer::with_base("https://www.example.com/"),
      *url_normalizer::with_base("http://example.com:8080/catalog/"),
      *url_normalizer::with_base("https://[2001:db8::1]/a/b/"),
      *url_normalizer::with_base("http://bücher.example/ü/"),
  };
  return bases[i];
}
constexpr std::size_t kFixedBases = 4;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);

  std::string plain;
  const url_problem plain_problem = sitemill::normalize_url(input, plain);
  if (plain_problem == url_problem::ok) check_accepted(url_normalizer{}, plain);
  normalized_url plain_url;
  require(sitemill::normalize_url(input, plain_url) == plain_problem);
  require(plain_url.href() == (plain_problem == url_problem::ok
                                   ? std::string_view(plain)
                                   : std::string_view()));

  std::string out;
  for (std::size_t i = 0; i < kFixedBases; ++i) {
    const url_normalizer& n = fixed_base(i);
    const url_problem p = n.normalize(input, out);
    if (p == url_problem::ok) check_accepted(n, out);
    if (plain_problem == url_problem::relative_without_base) continue;
    // An absolute URL: the base may only add the location rule, which is
    // checked before the length.
    if (plain_problem == url_problem::ok) {
      if (sitemill::within_scope(plain_url, n.base_url())) {
        require(p == url_problem::ok && out == plain);
      } else {
        require(p == url_problem::outside_base);
      }
    } else {
      require(p == plain_problem ||
              (p == url_problem::outside_base &&
               (plain_problem == url_problem::too_long ||
                plain_problem == url_problem::too_short)));
    }
  }

  if (const std::size_t nl = input.find('\n'); nl != std::string_view::npos) {
    const auto base = url_normalizer::with_base(input.substr(0, nl));
    if (base.has_value()) {
      const std::string_view dir = base->base();
      require(dir.ends_with('/') && dir.size() <= sitemill::max_loc_length);
      const auto again = url_normalizer::with_base(dir);
      require(again.has_value() && again->base() == dir);
      require(sitemill::within_scope(base->base_url(), base->base_url()));
      if (base->normalize(input.substr(nl + 1), out) == url_problem::ok)
        check_accepted(*base, out);
    }
    // The text before the '\n' as a page that references resolve against:
    // where its directory's normalizer accepts a reference, resolve_url
    // gives the same URL, unless the reference keeps the page's own last
    // segment ("?q", "#f", which a directory does not have).
    normalized_url page;
    if (sitemill::normalize_url(input.substr(0, nl), page) == url_problem::ok) {
      const std::string_view ref = input.substr(nl + 1);
      normalized_url resolved;
      const url_problem r = sitemill::resolve_url(ref, page, resolved);
      if (r == url_problem::ok) {
        check_shape(resolved.href());
        check_components(resolved);
        normalized_url again;
        require(sitemill::normalize_url(resolved.href(), again) ==
                url_problem::ok);
        require(components(again) == components(resolved));
      }
      const auto dir = url_normalizer::with_base(page.scope_directory());
      std::size_t first = 0;
      while (first < ref.size() &&
             std::string_view(" \t\n\r\f\v").find(ref[first]) !=
                 std::string_view::npos)
        ++first;
      const bool own_segment =
          first < ref.size() && (ref[first] == '?' || ref[first] == '#');
      if (dir.has_value() && !own_segment &&
          dir->normalize(ref, out) == url_problem::ok) {
        require(r == url_problem::ok && resolved.href() == out);
      }
    }
  }
  return 0;
}
