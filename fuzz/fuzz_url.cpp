// Fuzz target for URL normalisation. Beyond "no crash", it aborts when an
// accepted URL breaks an invariant: normalising it again changes it, it holds
// a byte a <loc> may not, its length is outside [12, 2047], or it is outside
// the base it was accepted under. It also checks that a base changes nothing
// for an absolute URL but the location rule, which pits the origin fast path
// against the general parser.
//
// Input: a URL. When it contains a '\n', the text before the first one is
// also tried as a base for the text after it.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "sitemill/limits.h"
#include "sitemill/url/url.h"

namespace {

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

void check_accepted(const url_normalizer& n, std::string_view out) {
  check_shape(out);
  std::string again;
  url_notes notes;
  require(n.normalize(out, again, &notes) == url_problem::ok);
  require(again == out);
  require(!notes.fragment_removed);
  require(sitemill::normalize_url(out, again) == url_problem::ok);
  require(again == out);
  if (!n.base().empty()) require(sitemill::within_scope(out, n.base()));
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

  std::string out;
  for (std::size_t i = 0; i < kFixedBases; ++i) {
    const url_normalizer& n = fixed_base(i);
    const url_problem p = n.normalize(input, out);
    if (p == url_problem::ok) check_accepted(n, out);
    if (plain_problem == url_problem::relative_without_base) continue;
    // An absolute URL: the base may only add the location rule, which is
    // checked before the length.
    if (plain_problem == url_problem::ok) {
      if (sitemill::within_scope(plain, n.base())) {
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
      require(sitemill::within_scope(dir, dir));
      if (base->normalize(input.substr(nl + 1), out) == url_problem::ok)
        check_accepted(*base, out);
    }
  }
  return 0;
}
