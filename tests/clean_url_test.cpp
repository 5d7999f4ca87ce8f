// Tests for the URL fast path: the SIMD classifier against a plain byte
// loop, and normalisation through the fast path (a base whose origin the URL
// spells) against the general path (no base), which must agree exactly.
#include "url/clean_url.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <string_view>

#include "sitemill/url/url.h"

namespace {

using sitemill::detail::classify_path_and_query;
using sitemill::detail::is_clean_path_and_query;
using sitemill::detail::path_class;

// The definition, written the slow and obvious way.
bool reference(std::string_view s) {
  constexpr std::string_view extra = "-._~!$&'()*+,;=:@/?";
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') ||
                    extra.find(static_cast<char>(c)) != std::string_view::npos;
    if (!ok) return false;
    if (c == '.' && i > 0 && s[i - 1] == '/') return false;
  }
  return true;
}

path_class reference_class(std::string_view s) {
  std::string ascii;
  bool high = false;
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) {
      high = true;
      ascii += 'x';  // stands in: neither '/' nor '.'
    } else {
      ascii += c;
    }
  }
  if (!reference(ascii)) return path_class::other;
  return high ? path_class::non_ascii : path_class::clean;
}

// Every byte value at every position of strings up to three 16-byte
// blocks long, so each lane and the padded tail see every byte.
TEST(CleanUrl, EveryByteAtEveryPositionMatchesTheReference) {
  for (std::size_t len = 1; len <= 48; ++len) {
    for (std::size_t at = 0; at < len; ++at) {
      for (int b = 0; b < 256; ++b) {
        std::string s(len, 'x');
        s[at] = static_cast<char>(b);
        ASSERT_EQ(is_clean_path_and_query(s), reference(s))
            << "byte " << b << " at " << at << " of " << len;
        ASSERT_EQ(classify_path_and_query(s), reference_class(s))
            << "byte " << b << " at " << at << " of " << len;
      }
    }
  }
}

TEST(CleanUrl, KnownVerdicts) {
  EXPECT_TRUE(is_clean_path_and_query(""));
  EXPECT_TRUE(is_clean_path_and_query("/"));
  EXPECT_TRUE(is_clean_path_and_query("/a/b.html?x=1&y='2'~_-*+,;=:@!$()"));
  EXPECT_TRUE(is_clean_path_and_query("/file.tar.gz"));
  EXPECT_FALSE(is_clean_path_and_query("/.well-known/"));
  EXPECT_FALSE(is_clean_path_and_query("/a/../b"));
  EXPECT_FALSE(is_clean_path_and_query("/a%20b"));
  EXPECT_FALSE(is_clean_path_and_query("/a b"));
  EXPECT_FALSE(is_clean_path_and_query("/a#top"));
  EXPECT_FALSE(is_clean_path_and_query("/caf\xC3\xA9"));
  EXPECT_FALSE(is_clean_path_and_query("/a^b"));
  EXPECT_FALSE(is_clean_path_and_query("/a{b}"));
  EXPECT_FALSE(is_clean_path_and_query("/a\x7F"));
}

// "/." split across a 16-byte boundary, and at every other offset.
TEST(CleanUrl, FindsSlashDotAtEveryOffset) {
  for (std::size_t at = 0; at + 1 < 64; ++at) {
    std::string s(64, 'x');
    s[at] = '/';
    s[at + 1] = '.';
    EXPECT_FALSE(is_clean_path_and_query(s)) << at;
    s[at + 1] = 'y';
    EXPECT_TRUE(is_clean_path_and_query(s)) << at;
  }
}

TEST(CleanUrl, RandomTextMatchesTheReference) {
  constexpr std::string_view alphabet = "ab/./%#?&' \x7F\x80\xFF^~[]{}|\\`\"<>";
  std::mt19937 rng(12345);
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  std::uniform_int_distribution<std::size_t> length(0, 70);
  std::bernoulli_distribution plain(0.9);
  for (int i = 0; i < 200'000; ++i) {
    std::string s(length(rng), 'a');
    for (char& c : s)
      if (!plain(rng)) c = alphabet[pick(rng)];
    ASSERT_EQ(is_clean_path_and_query(s), reference(s)) << s;
    ASSERT_EQ(classify_path_and_query(s), reference_class(s)) << s;
  }
}

// The fast path must give what the general path gives. Normalising with a
// base takes the fast path whenever the URL spells the base's origin and
// its rest is clean; normalising with no base never takes it.
TEST(CleanUrl, FastPathAgreesWithTheGeneralPath) {
  auto base = sitemill::url_normalizer::with_base("https://www.example.com/");
  ASSERT_TRUE(base.has_value());
  constexpr std::string_view pieces[] = {
      "a",        "b-c",  "/",           ".",  "..",  "?",  "&",
      "'",        "%41",  "%2e",         "%",  " ",   "#f", "~",
      "\xC3\xA9", "=",    "x.html",      "//", "%7e", ":",  "\xE6\x97\xA5",
      "\xC3",     "\xFF", "\xED\xA0\x80"};
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::size_t> pick(0, std::size(pieces) - 1);
  std::uniform_int_distribution<int> count(0, 12);
  std::string with_base, without_base;
  int fast_and_ok = 0, non_ascii_and_ok = 0;
  for (int i = 0; i < 100'000; ++i) {
    std::string url = "https://www.example.com/";
    for (int k = count(rng); k > 0; --k) url += pieces[pick(rng)];
    const auto a = base->normalize(url, with_base);
    const auto b = sitemill::normalize_url(url, without_base);
    if (b != sitemill::url_problem::ok) {
      EXPECT_EQ(a, b) << url;
      continue;
    }
    ASSERT_EQ(a, sitemill::url_problem::ok) << url;
    ASSERT_EQ(with_base, without_base) << url;
    const path_class kind =
        classify_path_and_query(std::string_view(url).substr(23));
    if (kind == path_class::clean) ++fast_and_ok;
    if (kind == path_class::non_ascii) ++non_ascii_and_ok;
  }
  // The mix must exercise both fast paths, or the comparison proves nothing.
  EXPECT_GT(fast_and_ok, 5'000);
  EXPECT_GT(non_ascii_and_ok, 1'000);
}

// origin_memo must give what normalize_url() gives, for every URL and
// whatever origins it remembers: several origins (more than it keeps), some
// spelled as normalised and some not, with paths from the mix above.
TEST(CleanUrl, OriginMemoAgreesWithNormalizeUrl) {
  constexpr std::string_view origins[] = {
      "https://www.example.com", "https://cdn.example.net",
      "http://img.example.org",  "https://static.example.com:8443",
      "https://WWW.Example.com", "https://www.example.com:443",
      "HTTP://img.example.org",  "https://xn--bcher-kva.example",
      "https://b\xC3\xBC" "cher.example", "https://user@www.example.com",
      "https://[::1]",           "https://www.example.com."};
  constexpr std::string_view paths[] = {
      "/",     "/a",   "/b-c", "/x.html?q=1", "/%7e", "/\xC3\xA9", "/./a",
      "/a/../b", "/#f", "",    "/a b",       "/\xFF", "?x",      "/%2e"};
  std::mt19937 rng(11);
  std::uniform_int_distribution<std::size_t> origin(0, std::size(origins) - 1);
  std::uniform_int_distribution<std::size_t> path(0, std::size(paths) - 1);
  sitemill::origin_memo memo;
  std::string remembered, plain;
  int hits = 0;
  for (int i = 0; i < 50'000; ++i) {
    const std::string url =
        std::string(origins[origin(rng)]) + std::string(paths[path(rng)]);
    const auto a = memo.normalize(url, remembered);
    const auto b = sitemill::normalize_url(url, plain);
    ASSERT_EQ(a, b) << url;
    if (b == sitemill::url_problem::ok) {
      ASSERT_EQ(remembered, plain) << url;
      hits += url.starts_with("https://cdn.example.net/");
    }
  }
  EXPECT_GT(hits, 1'000);  // the mix reaches the remembered origins
}

}  // namespace
