// check_loc() remembers the scheme and authority of the last plain http(s)
// <loc> of a document (doc_context::last_loc_origin) so that the next URL on
// that origin is not read again. Every URL must be judged exactly as it is
// in a document of its own: the same verdict, the same findings.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "../fuzz/parse_transcript.h"
#include "parse/context.h"
#include "parse/value_checks.h"
#include "sitemill/parse/sitemap_parser.h"

namespace sitemill {
namespace {

using fuzzing::transcript;

struct judged {
  std::string value;
  bool xsd_valid = false;
  std::vector<std::string> events;
  bool operator==(const judged&) const = default;
};

// Each URL in turn through one doc_context (the memo carries over), or each
// through a fresh one.
std::vector<judged> judge(const std::vector<std::string>& urls, bool shared) {
  std::vector<judged> out;
  parse_options o;
  parse_summary s;
  transcript t;
  detail::doc_context one(t, o, s, 1'790'000'000);
  std::string scratch;
  for (const std::string& u : urls) {
    transcript fresh_t;
    parse_summary fresh_s;
    detail::doc_context fresh(fresh_t, o, fresh_s, 1'790'000'000);
    detail::doc_context& doc = shared ? one : fresh;
    transcript& log = shared ? t : fresh_t;
    log.events.clear();
    const detail::loc_verdict v =
        detail::check_loc(u, {3, 7}, detail::loc_source::xml, doc, scratch);
    out.push_back({std::string(v.value), v.xsd_valid, log.events});
  }
  return out;
}

TEST(LocOriginMemo, JudgesEachUrlAsInADocumentOfItsOwn) {
  const std::vector<std::string> urls = {
      "https://www.example.com/a",
      "https://www.example.com/b?x=1",
      "https://www.example.com#top",
      "https://www.example.com",
      "https://www.example.com.evil.test/c",   // same bytes, then more host
      "https://www.example.com:8080/d",        // same host, a port
      "https://www.example.com:8080/e",        // the port remembered
      "https://www.example.com:80801/f",       // a longer port
      "https://www.example.com:8080",          // ends at the port
      "https://www.example.com:8080x/g",       // not a port
      "https://www.example.com@other.test/h",  // user info
      "http://www.example.com/i",
      "HTTPS://www.example.com/j",
      "https://www.example.com/k l",
      "https://www.example.com/%zz",
      "https://www.example.com/m#a#b",
      "https://www.example.co/n",
      "https://www.example.com/\xC3\xA9",
      " https://www.example.com/o ",
      "/relative",
      "https://www.example.com/p",
      "https://",
      "https:///q",
      "ftp://www.example.com/r",
      "https://www.example.com/s",
  };
  const std::vector<judged> alone = judge(urls, false);
  const std::vector<judged> together = judge(urls, true);
  ASSERT_EQ(alone.size(), together.size());
  for (std::size_t i = 0; i < urls.size(); ++i)
    EXPECT_EQ(alone[i], together[i]) << urls[i];
  // The list holds URLs with findings, or it proves little.
  std::size_t with_findings = 0;
  for (const judged& j : alone) with_findings += !j.events.empty();
  EXPECT_GE(with_findings, 8u);
}

}  // namespace
}  // namespace sitemill
