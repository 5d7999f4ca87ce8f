// What an HTTP answer says about indexing, read the one way for the crawler
// and check --audit.
#include "html/page_answer.h"

#include <gtest/gtest.h>

namespace sitemill::detail {
namespace {

TEST(PageAnswer, ReadsXRobotsTagForEveryCrawlerOrForOurToken) {
  const struct {
    const char* value;
    bool noindex, nofollow;
  } cases[] = {
      {"noindex", true, false},
      {"NoIndex, NoFollow", true, true},
      {"none", true, true},
      {"nofollow", false, true},
      {"googlebot: noindex", false, false},
      {"sitemill: noindex", true, false},
      {"Sitemill: none", true, true},
      {"googlebot: noindex, sitemill: nofollow", false, true},
      {"unavailable_after: 25 Jun 2010 15:00:00 PST", false, false},
      {"noarchive, nosnippet", false, false},
      {"", false, false},
  };
  for (const auto& c : cases) {
    bool noindex = false, nofollow = false;
    read_x_robots_tag(c.value, "sitemill", noindex, nofollow);
    EXPECT_EQ(noindex, c.noindex) << c.value;
    EXPECT_EQ(nofollow, c.nofollow) << c.value;
  }
}

TEST(PageAnswer, TellsHtmlByItsMediaType) {
  EXPECT_TRUE(is_html_media_type("text/html"));
  EXPECT_TRUE(is_html_media_type("Text/HTML; charset=ISO-8859-1"));
  EXPECT_TRUE(is_html_media_type(" text/html ;charset=utf-8"));
  EXPECT_FALSE(is_html_media_type("application/xhtml+xml"));
  EXPECT_FALSE(is_html_media_type("text/plain"));
  EXPECT_FALSE(is_html_media_type(""));
}

TEST(PageAnswer, MakesLastmodFromLastModified) {
  EXPECT_EQ(lastmod_from_http("Wed, 21 Oct 2015 07:28:00 GMT"),
            "2015-10-21T07:28:00Z");
  EXPECT_EQ(lastmod_from_http("Wednesday, 21-Oct-15 07:28:00 GMT"),
            "2015-10-21T07:28:00Z");
  EXPECT_EQ(lastmod_from_http("yesterday"), "");
}

}  // namespace
}  // namespace sitemill::detail
