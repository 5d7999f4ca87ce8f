// The shortcuts of check's per-entry work must answer as the general
// readings do: the plain-URL, priority and Unicode-trim fast paths
// (src/parse/value_checks.cpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parse/value_checks.h"

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

}  // namespace
}  // namespace sitemill
