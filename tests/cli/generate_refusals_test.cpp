// A refusal says what the input was and what to do instead.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(GenerateRefusals, AUrlGivenAsAnInputNamesTheSourcesThatTakeOne) {
  temp_dir t;
  auto r = run_sitemill({"generate", "--base-url", "https://www.example.com/",
                         "--out", t / "out", "https://www.example.com/"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("https://www.example.com/ is a URL, and inputs "
                               "are list files of URLs"));
  EXPECT_THAT(r.err, HasSubstr("--from-sitemap URL"));
  EXPECT_THAT(r.err, Not(HasSubstr("unknown input format")));
}

TEST(GenerateRefusals, AWebPageGivenAsASitemapSaysSo) {
  temp_dir t;
  write_file(t / "page.html", "<!doctype html><html><body>hi</body></html>\n");
  auto r =
      run_sitemill({"generate", "--base-url", "https://www.example.com/",
                    "--out", t / "out", "--from-sitemap", t / "page.html"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("page.html: rejected: not read as a sitemap: "
                               "line 1: the XML is not well-formed"));
  EXPECT_THAT(r.err, HasSubstr("it starts <!doctype html>: this is a web "
                               "page, not a sitemap"));
  // XHTML, which XML reads: its root says the same.
  write_file(t / "page.xhtml",
             "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body/></html>\n");
  auto x =
      run_sitemill({"generate", "--base-url", "https://www.example.com/",
                    "--out", t / "out", "--from-sitemap", t / "page.xhtml"});
  EXPECT_EQ(x.exit_code, 1);
  EXPECT_THAT(x.err, HasSubstr("not read as a sitemap: line 1: the root "
                               "element is <html>: this is a web page"));
}

// The location rule's rejection names the part of the URL that differs.
TEST(GenerateRefusals, ALocationRuleRejectionNamesThePartThatDiffers) {
  temp_dir t;
  write_file(t / "u.txt",
             "http://www.example.com/shop/a\nhttps://shop.example.com/shop/b\n"
             "https://www.example.com:8443/shop/c\nhttps://www.example.com/d\n"
             "../e\n");
  auto r =
      run_sitemill({"generate", "--base-url", "https://www.example.com/shop/",
                    "--out", t / "out", t / "u.txt"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr(":1: rejected: URL is outside the base URL's "
                               "scheme, host, port or directory (the "
                               "sitemaps.org location rule): the scheme is "
                               "http, the base's https: "
                               "http://www.example.com/shop/a"));
  EXPECT_THAT(r.err, HasSubstr(":2: rejected: URL is outside the base URL's "));
  EXPECT_THAT(r.err, HasSubstr("the host is shop.example.com, the base's "
                               "www.example.com"));
  EXPECT_THAT(r.err, HasSubstr("the port is 8443, the base's 443"));
  EXPECT_THAT(r.err, HasSubstr("the path /d is not in the base's directory "
                               "/shop/"));
  EXPECT_THAT(r.err, HasSubstr("the path /e is not in the base's directory "
                               "/shop/: ../e"));
}

}  // namespace
}  // namespace sitemill::testing
