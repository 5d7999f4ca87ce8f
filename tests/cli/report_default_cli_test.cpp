// `sitemill report` without -o (docs/report.md): the report goes to
// sitemap-report.html in the working directory, stderr says so, and a file of
// that name that is not an earlier report is never replaced.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "inspect_support.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;

const std::string site = "https://www.example.com/";

struct project {
  temp_dir t;
  project() {
    write_file(
        t / "sitemap.xml",
        urlset_xml({{site + "a", lastmod("2026-01-02")}, {site + "b", ""}}));
  }
  run_result report(std::vector<std::string> args) const {
    args.insert(args.begin(), "report");
    run_options o;
    o.cwd = t.path();
    return run_sitemill(args, o);
  }
};

TEST(ReportDefaultFile, WithoutOutputWritesSitemapReportHtmlAndSaysWhere) {
  project p;
  const run_result r = p.report({"sitemap.xml"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("sitemill report: wrote sitemap-report.html"));
  EXPECT_EQ(r.out, "");
  const std::string html = read_file(p.t / "sitemap-report.html");
  EXPECT_THAT(html,
              HasSubstr("<meta name=\"generator\" content=\"sitemill\">"));
  EXPECT_THAT(html, HasSubstr("id=\"url-count\""));
}

TEST(ReportDefaultFile, AnEarlierReportIsReplaced) {
  project p;
  ASSERT_EQ(p.report({"sitemap.xml"}).exit_code, 0);
  write_file(p.t / "sitemap.xml", urlset_xml({{site + "only", ""}}));
  const run_result again = p.report({"sitemap.xml"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_THAT(read_file(p.t / "sitemap-report.html"), HasSubstr(">1<"))
      << "the new report, of one URL";
}

TEST(ReportDefaultFile, AFileOfAnotherKindIsLeftAloneWithExitTwo) {
  project p;
  const std::string mine = "<html><body>my notes</body></html>\n";
  write_file(p.t / "sitemap-report.html", mine);
  const run_result r = p.report({"sitemap.xml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("sitemap-report.html exists and is not a "
                               "sitemill report: not replaced"));
  EXPECT_THAT(r.err, HasSubstr("-o"));
  EXPECT_EQ(read_file(p.t / "sitemap-report.html"), mine);
  // Named with -o, it is replaced: the user asked for it.
  const run_result named =
      p.report({"sitemap.xml", "-o", "sitemap-report.html"});
  ASSERT_EQ(named.exit_code, 0) << named.err;
  EXPECT_THAT(read_file(p.t / "sitemap-report.html"),
              HasSubstr("content=\"sitemill\""));
  EXPECT_THAT(named.err, ::testing::Not(HasSubstr("wrote")))
      << "a file the user named needs no telling";
}

TEST(ReportDefaultFile, HelpNamesTheDefault) {
  const run_result r = run_sitemill({"report", "--help"});
  EXPECT_THAT(r.out, HasSubstr("sitemap-report.html"));
  temp_dir pages;
  ASSERT_EQ(run_sitemill({"man", "--out", pages.path()}).exit_code, 0);
  EXPECT_THAT(read_file(pages / "sitemill-report.1"),
              HasSubstr("sitemap\\-report.html"));
}

}  // namespace
}  // namespace sitemill::testing
