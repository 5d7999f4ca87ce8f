// `sitemill generate --dry-run` (docs/publishing.md, "A dry run"): every
// input read and the set made, nothing published: no --out, no bookkeeping,
// no state, no robots.txt edit, nothing left in $TMPDIR; the files the set
// would have are listed, and the exit codes are a run's.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string site = "https://www.example.com/";

// A working directory with three URLs, a robots.txt and its own $TMPDIR.
struct project {
  temp_dir t;
  temp_dir tmp;  // the run's $TMPDIR, to prove it is left empty
  const std::string robots = "User-agent: *\nDisallow: /private/\n";
  project() {
    write_file(t / "urls.txt", site + "a\n" + site + "b\n" + site + "c\n");
    write_file(t / "robots.txt", robots);
  }
  run_result generate(const std::vector<std::string>& extra) const {
    std::vector<std::string> args = {"TMPDIR=" + tmp.path(),
                                     SITEMILL_BINARY,
                                     "generate",
                                     "--base-url",
                                     site,
                                     "--out",
                                     t / "public"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_program("/usr/bin/env", args);
  }
  // Nothing but the inputs in the working directory, nothing in $TMPDIR.
  void expect_nothing_written() const {
    EXPECT_EQ(list_all(t.path()),
              (std::vector<std::string>{"robots.txt", "urls.txt"}));
    EXPECT_EQ(read_raw(t / "robots.txt"), robots);
    EXPECT_TRUE(list_all(tmp.path()).empty());
  }
};

TEST(GenerateDryRun, ListsTheFilesItWouldPublishAndWritesNothing) {
  project p;
  const run_result r = p.generate({"--dry-run", "--max-urls", "2", "--no-gzip",
                                   "--robots", p.t / "robots.txt", "--state",
                                   p.t / "state.db", p.t / "urls.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("would publish 3 files to " + p.t / "public" +
                               " (entry " + site + "sitemap.xml)"));
  EXPECT_THAT(r.err, HasSubstr("sitemap.xml (sitemapindex, 2 sitemaps, "));
  EXPECT_THAT(r.err, HasSubstr("), the entry"));
  EXPECT_THAT(r.err, HasSubstr("(urlset, 2 URLs, "));
  EXPECT_THAT(r.err, HasSubstr("(urlset, 1 URL, "));
  EXPECT_THAT(r.err, HasSubstr("3 URLs would be written, 0 duplicates"));
  EXPECT_THAT(r.err, HasSubstr("dry run: nothing was published; " +
                               p.t / "robots.txt" + " not edited"));
  EXPECT_THAT(r.err, Not(HasSubstr("published 3")));
  p.expect_nothing_written();
}

TEST(GenerateDryRun, JsonIsTheRunsReportWithTheSameFiles) {
  project p;
  const std::vector<std::string> args = {"--json", "--max-urls", "2",
                                         p.t / "urls.txt"};
  std::vector<std::string> dry = args;
  dry.insert(dry.begin(), "--dry-run");
  const run_result d = p.generate(dry);
  ASSERT_EQ(d.exit_code, 0) << d.err;
  const nlohmann::json would = parse_report(d);
  EXPECT_EQ(would["dry_run"], true);
  EXPECT_EQ(would["written"], 3);
  EXPECT_EQ(would["entry"], "sitemap.xml");
  p.expect_nothing_written();

  const run_result real = p.generate(args);
  ASSERT_EQ(real.exit_code, 0) << real.err;
  const nlohmann::json did = parse_report(real);
  EXPECT_FALSE(did.contains("dry_run"));
  EXPECT_EQ(would["files"], did["files"])
      << "the same names, types, counts and sizes as the run publishes";
  EXPECT_EQ(list_files(p.t / "public").size(), 3u);

  // What was not published cannot be announced.
  write_file(p.t / "dry.json", d.out);
  const run_result announce =
      run_sitemill({"indexnow", "--from-manifest", p.t / "dry.json", "--key",
                    "0123456789abcdef0123456789abcdef", "--dry-run"});
  EXPECT_EQ(announce.exit_code, 2);
  EXPECT_THAT(announce.err, HasSubstr("dry run"));
}

TEST(GenerateDryRun, ExitCodesAreARunsAndStillNothingIsWritten) {
  struct exit_case {
    std::vector<std::string> args;
    int code;
    std::string says;
  };
  const std::vector<exit_case> cases = {
      {{"--strict", "bad.txt"}, 1, "--strict"},
      {{"only-bad.txt"}, 1, "no valid URL"},
      {{"missing.txt"}, 2, "missing.txt"},
  };
  for (const exit_case& c : cases) {
    project p;
    write_file(p.t / "bad.txt", site + "a\nftp://www.example.com/x\n");
    write_file(p.t / "only-bad.txt", "ftp://www.example.com/x\n");
    std::vector<std::string> args = {"--dry-run"};
    for (const std::string& a : c.args)
      args.push_back(a.ends_with(".txt") ? p.t / a : a);
    const run_result r = p.generate(args);
    EXPECT_EQ(r.exit_code, c.code) << c.args.back() << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr(c.says)) << c.args.back();
    EXPECT_FALSE(std::filesystem::exists(p.t / "public")) << c.args.back();
    EXPECT_TRUE(list_all(p.tmp.path()).empty()) << c.args.back();
  }
  // A stream has no set to make: refused as a usage error.
  project p;
  const run_result stream =
      run_sitemill({"generate", "--base-url", site, "--out", "-", "--dry-run",
                    p.t / "urls.txt"});
  EXPECT_EQ(stream.exit_code, 2);
  EXPECT_THAT(stream.err, HasSubstr("--dry-run"));
  EXPECT_EQ(stream.out, "");
}

TEST(GenerateDryRun, ReadsTheStateAndLeavesItAsItWas) {
  project p;
  const std::string dir = p.t / "site";
  std::filesystem::create_directories(dir);
  const auto page = [](const std::string& body) {
    return "<!DOCTYPE html><html><head><title>t</title></head><body>" + body +
           "</body></html>\n";
  };
  write_file(dir + "/a.html", page("alpha"));
  write_file(dir + "/b.html", page("beta"));
  const std::vector<std::string> args = {
      "--from-dir", dir, "--lastmod", "content", "--state", p.t / "state.db"};
  ASSERT_EQ(p.generate(args).exit_code, 0);
  const std::string state = read_raw(p.t / "state.db");
  const auto published = snapshot(p.t / "public");

  write_file(dir + "/b.html", page("beta, edited"));
  write_file(dir + "/c.html", page("gamma"));
  std::vector<std::string> dry = args;
  dry.push_back("--dry-run");
  const run_result r = p.generate(dry);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("against --state: 1 URL added, 1 changed, 0 "
                               "removed"));
  EXPECT_EQ(read_raw(p.t / "state.db"), state);
  EXPECT_FALSE(std::filesystem::exists(p.t / "state.db-journal"));
  EXPECT_EQ(snapshot(p.t / "public"), published);
  EXPECT_TRUE(list_all(p.tmp.path()).empty());

  // A state that does not exist yet is not created.
  std::vector<std::string> fresh = args;
  fresh[5] = p.t / "new-state.db";
  fresh.push_back("--dry-run");
  ASSERT_EQ(p.generate(fresh).exit_code, 0);
  EXPECT_FALSE(std::filesystem::exists(p.t / "new-state.db"));
}

TEST(GenerateDryRun, ASetPerBaseIsListedAndNoneIsWritten) {
  project p;
  write_file(p.t / "urls.txt", site + "a\nhttps://shop.example.com/b\n");
  const run_result r = p.generate(
      {"--dry-run", "--base-url", "https://shop.example.com/", "--html",
       "--no-gzip", "--json", p.t / "urls.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const std::string host : {"www.example.com", "shop.example.com"}) {
    EXPECT_THAT(r.err, HasSubstr("would publish 3 files to " + p.t /
                                 "public/" + host + " (entry https://" +
                                 host + "/sitemap.xml): 1 URL\n"));
  }
  EXPECT_THAT(r.err, HasSubstr("(html, "));
  EXPECT_THAT(r.err, HasSubstr("2 sets: 2 URLs would be written"));
  const nlohmann::json report = parse_report(r);
  ASSERT_EQ(report["sets"].size(), 2u);
  EXPECT_EQ(report["sets"][1]["files"].size(), 3u);
  p.expect_nothing_written();
}

TEST(GenerateDryRun, HelpAndManPageDescribeIt) {
  const run_result help = run_sitemill({"generate", "--help"});
  EXPECT_THAT(help.out, HasSubstr("--dry-run"));
  temp_dir pages;
  ASSERT_EQ(run_sitemill({"man", "--out", pages.path()}).exit_code, 0);
  EXPECT_THAT(read_file(pages / "sitemill-generate.1"),
              HasSubstr("\\-\\-dry\\-run"));
  for (const char* shell : {"bash", "zsh", "fish"})
    EXPECT_THAT(run_sitemill({"completions", shell}).out,
                HasSubstr("dry-run"))
        << shell;
}

}  // namespace
}  // namespace sitemill::testing
