// append_encoded(), the percent-encoder of URL normalisation, written through
// a pointer into room for its longest result, gives what it gave when it
// appended each run of safe bytes and each escape on its own. The oracle is
// that encoder, copied verbatim; both run on generated and hostile text
// (every byte, '%' with and without hex digits, UTF-8, cut sequences) after
// prefixes of several lengths. And normalize_url() on URLs with UTF-8 paths
// and queries, which take this encoder, gives the expected text.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>

#include "sitemill/url/url.h"
#include "url/clean_url.h"
#include "url/url_parts.h"

namespace sitemill::detail {
namespace {
namespace oracle {

// --- The oracle: the encoder before ----------------------------------------

constexpr char kHexUpper[] = "0123456789ABCDEF";
char to_upper(char c) noexcept {
  return (c >= 'a' && c <= 'z') ? static_cast<char>(c & ~0x20) : c;
}
bool is_unreserved(unsigned char c) noexcept {
  return is_alpha(c) || is_digit(c) || c == '-' || c == '.' || c == '_' ||
         c == '~';
}
constexpr const std::array<bool, 256>& kPass = detail::kept_bytes;

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

}  // namespace oracle

// Both encoders after `prefix`; the whole strings must match.
void expect_same(std::string_view prefix, std::string_view src) {
  std::string mine(prefix), theirs(prefix);
  append_encoded(mine, src);
  oracle::append_encoded(theirs, src);
  ASSERT_EQ(mine, theirs) << "prefix \"" << prefix << "\" source \"" << src
                          << '"';
}

constexpr std::string_view prefixes[] = {
    "", "https://www.example.com",
    "https://www.example.com/a-rather-long-directory-name-that-fills-more/"};

TEST(AppendEncoded, AgreesOnEveryByteAloneAndBetweenSafeText) {
  for (std::string_view prefix : prefixes) {
    for (int b = 0; b < 256; ++b) {
      const char c = static_cast<char>(b);
      expect_same(prefix, std::string(1, c));
      expect_same(prefix,
                  "/caf" + std::string(1, c) + "/x?q=" + std::string(3, c));
      if (HasFatalFailure()) return;
    }
  }
}

TEST(AppendEncoded, AgreesOnPercentWithEveryPairOfFollowingBytes) {
  // "%XX" with every two bytes after it: hex of either case, unreserved or
  // not, non-hex, and the text cut after one or two of them.
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      const std::string s = {'%', static_cast<char>(a), static_cast<char>(b)};
      expect_same("", s);
      expect_same("/p", "/x" + s + "y");
      if (HasFatalFailure()) return;
    }
    expect_same("", std::string{'/', '%', static_cast<char>(a)});
  }
  expect_same("", "%");
  expect_same("/", "%%%2");
}

TEST(AppendEncoded, AgreesOnRandomText) {
  // An alphabet weighted to the bytes that matter: safe ASCII, '%', hex
  // digits, UTF-8 lead and continuation bytes, controls, space, '#'.
  constexpr std::string_view alphabet =
      "abcXYZ019-._~/?=&%%%AaFf\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\x80\xbf"
      "\xff\x01\x7f #\"<>";
  std::mt19937_64 rng(8);
  for (int round = 0; round < 200'000; ++round) {
    std::string s(rng() % 300, 'a');
    for (char& c : s) c = alphabet[rng() % alphabet.size()];
    expect_same(prefixes[rng() % std::size(prefixes)], s);
    if (HasFatalFailure()) return;
  }
  for (int round = 0; round < 50'000; ++round) {
    std::string s(rng() % 64, 'a');
    for (char& c : s) c = static_cast<char>(rng());
    expect_same(prefixes[rng() % std::size(prefixes)], s);
    if (HasFatalFailure()) return;
  }
}

TEST(AppendEncoded, NormalisedUtf8UrlsAreEncodedAsBefore) {
  // The fast path of a clean origin with UTF-8 and the general path (a
  // '%', a space) both end in the encoder.
  struct example {
    std::string_view in, out;
  };
  constexpr example examples[] = {
      {"https://example.com/caf\xc3\xa9/men\xc3\xba?q=\xe2\x82\xac",
       "https://example.com/caf%C3%A9/men%C3%BA?q=%E2%82%AC"},
      {"https://example.com/a b/%7e%2f%41?x=%zz",
       "https://example.com/a%20b/~%2FA?x=%25zz"},
      {"https://example.com/\xf0\x9f\x98\x80",
       "https://example.com/%F0%9F%98%80"},
  };
  for (const example& e : examples) {
    std::string out;
    ASSERT_EQ(normalize_url(e.in, out), url_problem::ok) << e.in;
    EXPECT_EQ(out, e.out);
  }
}

}  // namespace
}  // namespace sitemill::detail
