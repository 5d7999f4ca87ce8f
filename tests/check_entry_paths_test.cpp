// The shortcuts of check's per-entry work must answer as the general
// readings do: the plain-URL, priority and Unicode-trim fast paths
// (src/parse/value_checks.cpp), and hreflang_set's page list, which becomes
// a table only when links are judged or the page cap is near
// (src/check/hreflang_set.cpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "check/hreflang_set.h"
#include "parse/value_checks.h"
#include "sitemill/entry/extensions.h"

namespace sitemill {
namespace {

// --- xsd:anyURI (docs/protocol.md 9.6) ---------------------------------------

TEST(CheckEntryPaths, TheAnyUriFastPathTakesOnlyWhatLibxml2Accepts) {
  std::string scratch;
  // Taken: the fast path says valid, and so must the whole verdict.
  for (const std::string_view u :
       {"HTTPS://WWW.EXAMPLE.COM/", "hTtP://a.b", "https://a.b:1/",
        "https://a.b:65535?x",
        "https://b\xC3\xBC"
        "cher.example/",
        "https://xn--bcher-kva.example/", "https://a b.example/",
        "https://www.example.com/%C3%BC#top", "https://exa_mple.com~/"}) {
    SCOPED_TRACE(u);
    EXPECT_TRUE(detail::any_uri_fast_path(u));
    EXPECT_TRUE(detail::xsd_any_uri(u, scratch));
  }
  // Left to libxml2: the fast path declines; libxml2 decides either way.
  for (const std::string_view u :
       {"https://a.b:123456/", "https://a.b:/", "https://a.b:8a/",
        "https://user:pw@a.b/", "https://@a.b/", "https://a%41.b/",
        "https://[::1]:80/", "https:///x", "https://", "https:a.b/",
        "http:/a.b/", "ftp://a.b/", "//a.b/", "https://a.b/%zz",
        "https://a.b/#a#b", "https://a.b/[x]"}) {
    SCOPED_TRACE(u);
    EXPECT_FALSE(detail::any_uri_fast_path(u));
  }
}

// --- priority (docs/protocol.md 2: 0.0 to 1.0) -------------------------------

TEST(CheckEntryPaths, PriorityOfOneDecimalIsDecidedAsTheXsdDoes) {
  for (char a = '0'; a <= '9'; ++a) {
    for (char b = '0'; b <= '9'; ++b) {
      const std::string p{a, '.', b};
      SCOPED_TRACE(p);
      EXPECT_EQ(detail::xsd_priority(p), a == '0' || (a == '1' && b == '0'));
    }
  }
  // Beside the fast path's three characters, the general reading.
  for (const std::string_view p :
       {" 0.5", "0.5 ", "00.5", "0.50", ".5", "1", "0.", "-0.0"})
    EXPECT_TRUE(detail::xsd_priority(p)) << p;
  for (const std::string_view p : {"0,5", "1.01", "-0.5", "a.5", "0.a", "2"})
    EXPECT_FALSE(detail::xsd_priority(p)) << p;
}

// --- Unicode spaces around a URL (docs/protocol.md checklist 29) -------------

TEST(CheckEntryPaths, TrimmingUnicodeSpaceLeavesPrintableEndsAlone) {
  struct row {
    std::string_view in, out;
  };
  for (const row& r : std::vector<row>{
           {"https://a.b/", "https://a.b/"},
           {"x", "x"},
           {"", ""},
           {"\xC2\xA0https://a.b/", "https://a.b/"},
           {"https://a.b/\xE2\x80\x8B", "https://a.b/"},
           {"\xEF\xBB\xBF\xC2\xA0 x \xE3\x80\x80", "x"},
           {"https://a.b/\xC3\xBC", "https://a.b/\xC3\xBC"},
           {"\tx\n", "x"},
           {"~", "~"},
           {"\x7F", "\x7F"},
       })
    EXPECT_EQ(detail::trim_unicode_space(r.in), r.out) << r.in;
}

// --- hreflang pages (docs/protocol.md 3) -------------------------------------

std::vector<extension_value> alternates(
    const std::vector<std::pair<const char*, const char*>>& links) {
  const auto href = *find_extension_field(extension_kind::alternate, "@href");
  const auto lang =
      *find_extension_field(extension_kind::alternate, "@hreflang");
  std::vector<extension_value> v;
  std::uint32_t item = 0;
  for (const auto& [l, h] : links) {
    v.push_back({lang, item, l});
    v.push_back({href, item, h});
    ++item;
  }
  return v;
}

std::uint64_t fp(std::string_view url) {
  return detail::hreflang_set::fingerprint(url);
}

TEST(CheckEntryPaths, HreflangPageCapCountsDistinctPages) {
  detail::hreflang_set set(100, 3);
  using added = detail::hreflang_set::added;
  const auto links = alternates({{"en", "https://a.b/en"}});
  // A page listed again (in another sitemap of the run) is one page.
  for (int round = 0; round < 4; ++round) {
    ASSERT_EQ(set.add_page(0, fp("https://a.b/en"), links), added::ok);
    ASSERT_EQ(set.add_page(0, fp("https://a.b/de"), {}), added::ok);
  }
  EXPECT_EQ(set.add_page(1, fp("https://a.b/fr"), {}), added::ok);
  EXPECT_FALSE(set.stopped());
  EXPECT_EQ(set.add_page(1, fp("https://a.b/it"), {}), added::stopped_now)
      << "the fourth distinct page passes the cap of 3";
  EXPECT_TRUE(set.stopped());
}

TEST(CheckEntryPaths, HreflangJudgesTargetsListedBeforeAnyLink) {
  detail::hreflang_set set(100, 10'000);
  // The target comes first, without links, so it is only listed; the link
  // to it must still find it a page of the set.
  (void)set.add_page(0, fp("https://a.b/de"), {});
  for (int i = 0; i < 5000; ++i)
    (void)set.add_page(0, fp("https://a.b/p" + std::to_string(i)), {});
  (void)set.add_page(1, fp("https://a.b/en"),
                     alternates({{"de", "https://a.b/de"},
                                 {"fr", "https://elsewhere.example/fr"}}));
  const auto found = set.judge();
  ASSERT_EQ(found.size(), 1u) << "the page off the set is not judged";
  EXPECT_EQ(found[0].what, detail::hreflang_set::finding::kind::no_return);
  EXPECT_EQ(found[0].target, fp("https://a.b/de"));
  EXPECT_EQ(found[0].page, fp("https://a.b/en"));
}

}  // namespace
}  // namespace sitemill
