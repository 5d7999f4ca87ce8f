// End-to-end runs of `sitemill stats` and `sitemill diff`: every change
// class, the exit codes and the --fail-on guard.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "inspect_support.h"
#include "support/http_server.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using json = nlohmann::json;

const std::string site = "https://www.example.com/";

// Two sitemaps with one URL of each class between them.
struct two_sets {
  temp_dir t;
  std::string old_path = t / "old.xml";
  std::string new_path = t / "new.xml.gz";
  two_sets() {
    write_file(
        old_path,
        urlset_xml({{site + "same", lastmod("2026-01-01")},
                    {site + "gone", ""},
                    {site + "fwd", lastmod("2026-01-01")},
                    {site + "back", lastmod("2026-05-01")},
                    {site + "gain", ""},
                    {site + "lose", lastmod("2026-01-01")},
                    {site + "cf", "<changefreq>daily</changefreq>"},
                    {site + "prio", "<priority>0.5</priority>"},
                    {site + "img", "<image:image><image:loc>" + site +
                                       "1.png</image:loc></image:image>"}}));
    write_file(new_path,
               gzip(urlset_xml(
                   {{site + "same", lastmod("2026-01-01")},
                    {site + "new", ""},
                    {site + "fwd", lastmod("2026-02-01")},
                    {site + "back", lastmod("2026-04-01")},
                    {site + "gain", lastmod("2026-03-01")},
                    {site + "lose", ""},
                    {site + "cf", "<changefreq>weekly</changefreq>"},
                    {site + "prio", "<priority>0.8</priority>"},
                    {site + "img", "<image:image><image:loc>" + site +
                                       "2.png</image:loc></image:image>"}})));
  }
};

TEST(DiffCli, SameSetsExitZero) {
  two_sets s;
  const run_result r = run_sitemill({"diff", s.old_path, s.old_path});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("same: no URL or field differs"));
}

TEST(DiffCli, SummaryNamesEveryClassAndExitsOne) {
  two_sets s;
  const run_result r = run_sitemill({"diff", s.old_path, s.new_path});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  for (const char* line :
       {"added: 1", "removed: 1", "lastmod-forward: 1", "lastmod-backward: 1",
        "lastmod-gained: 1", "lastmod-lost: 1", "changefreq: 1", "priority: 1",
        "extensions: 1"})
    EXPECT_THAT(r.out, HasSubstr(line)) << r.out;
  EXPECT_THAT(r.out, HasSubstr("suspicious"));
  EXPECT_THAT(r.out, HasSubstr(site + "back  2026-05-01 -> 2026-04-01"))
      << "each lastmod as its file has it";
  EXPECT_THAT(r.out, HasSubstr("1 added, 1 removed, 7 changed URLs"));
}

TEST(DiffCli, LimitCutsTheExamples) {
  temp_dir t;
  std::vector<url_xml> many;
  for (int i = 0; i < 5; ++i) many.push_back({site + std::to_string(i), ""});
  write_file(t / "old.xml", urlset_xml({{site + "x", ""}}));
  write_file(t / "new.xml", urlset_xml(many));
  const run_result r =
      run_sitemill({"diff", "--limit", "2", t / "old.xml", t / "new.xml"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("added: 5"));
  EXPECT_THAT(r.out, HasSubstr("... and 3 more"));
  EXPECT_THAT(r.out, HasSubstr(site + "0\n"));
  EXPECT_THAT(r.out, Not(HasSubstr(site + "2\n")));
}

TEST(DiffCli, JsonListsEveryDifference) {
  two_sets s;
  const run_result r =
      run_sitemill({"diff", "--json", "--limit", "0", s.old_path, s.new_path});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const json j = parse_report(r);
  ASSERT_EQ(j.at("urls").size(), 9u);
  std::map<std::string, json> by_url;
  for (const auto& u : j.at("urls")) by_url[u.at("url")] = u;
  EXPECT_EQ(by_url.at(site + "back").at("changes"),
            json::array({"lastmod-backward"}));
  EXPECT_EQ(by_url.at(site + "back").at("old_lastmod"), "2026-05-01T00:00:00Z");
  EXPECT_EQ(by_url.at(site + "back").at("new_lastmod"), "2026-04-01");
  EXPECT_EQ(by_url.at(site + "gone").at("changes"), json::array({"removed"}));
  EXPECT_EQ(by_url.at(site + "new").at("changes"), json::array({"added"}));
  EXPECT_EQ(j.at("summary").at("counts").at("extensions"), 1);
  EXPECT_EQ(j.at("summary").at("same"), false);
  EXPECT_EQ(j.at("summary").at("old_urls"), 9);
}

TEST(DiffCli, GuardTripsOnlyAboveItsLimit) {
  two_sets s;
  // 1 of 9 removed: 11.1%.
  run_result r = run_sitemill(
      {"diff", "--fail-on", "removed>20%", s.old_path, s.new_path});
  EXPECT_EQ(r.exit_code, 0)
      << "a guard that holds passes a changed set: " << r.err;
  EXPECT_THAT(r.err, Not(HasSubstr("guard tripped")));
  r = run_sitemill(
      {"diff", "--fail-on", "removed>10%", s.old_path, s.new_path});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("guard tripped: removed: 1 URL, 11.1% of "
                               "OLD's 9, above 10% (removed>10%)"));
  r = run_sitemill({"diff", "--fail-on", "added>5", "--fail-on",
                    "lastmod-backward>0", s.old_path, s.new_path});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("guard tripped: lastmod-backward"));
  EXPECT_THAT(r.err, Not(HasSubstr("guard tripped: added")));
}

TEST(DiffCli, ErrorsExitTwo) {
  two_sets s;
  run_result r = run_sitemill({"diff", s.old_path, s.t / "missing.xml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("missing.xml"));
  r = run_sitemill({"diff", "--fail-on", "vanished>1", s.old_path, s.new_path});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--fail-on vanished>1: not a class"));
  // OLD is read twice; stdin cannot be. NEW can.
  run_options in;
  in.stdin_data = read_raw(s.old_path);
  r = run_sitemill({"diff", "-", s.old_path}, in);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("OLD cannot be stdin"));
  r = run_sitemill({"diff", s.old_path, "-"}, in);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run_sitemill({"diff", s.t.path(), s.old_path});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("holds no published set"));
}

TEST(DiffCli, ComparesTwoPublishedSetsAndTheirFiles) {
  temp_dir t;
  std::string old_list, new_list;
  for (int i = 0; i < 6; ++i)
    old_list += site + "p/" + std::to_string(i) + "\n";
  for (int i = 1; i < 7; ++i)
    new_list += site + "p/" + std::to_string(i) + "\n";
  write_file(t / "old.txt", old_list);
  write_file(t / "new.txt", new_list);
  for (const char* which : {"old", "new"}) {
    const run_result g =
        run_sitemill({"generate", "--base-url", site, "--out", t / which,
                      "--max-urls", "2", "--layout", "sequential",
                      t / (std::string(which) + ".txt")});
    ASSERT_EQ(g.exit_code, 0) << g.err;
  }
  const run_result r = run_sitemill({"diff", "--json", t / "old", t / "new"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const json j = parse_report(r);
  const json& c = j.at("summary").at("counts");
  EXPECT_EQ(c.at("added"), 1);
  EXPECT_EQ(c.at("removed"), 1);
  EXPECT_EQ(j.at("summary").at("files_compared"), true);
  // Every child holds other URLs now: new names, old ones gone; the index
  // keeps its name with other bytes.
  EXPECT_EQ(c.at("files-added"), 3);
  EXPECT_EQ(c.at("files-removed"), 3);
  EXPECT_EQ(c.at("files-changed"), 1);
  ASSERT_FALSE(j.at("files").empty());
  // 3 of the 4 files OLD's manifest lists are gone: 75%.
  run_result g = run_sitemill(
      {"diff", "--fail-on", "files-removed>70%", t / "old", t / "new"});
  EXPECT_EQ(g.exit_code, 1);
  EXPECT_THAT(g.err, HasSubstr("files-removed: 3 files, 75.0% of OLD's 4"));
  g = run_sitemill(
      {"diff", "--fail-on", "files-removed>75%", t / "old", t / "new"});
  EXPECT_EQ(g.exit_code, 0) << g.err;
  // stats reads the same published set through its manifest.
  const run_result st = run_sitemill({"stats", "--json", t / "new"});
  EXPECT_EQ(st.exit_code, 0) << st.err;
  const json sj = parse_report(st);
  EXPECT_EQ(sj.at("urls"), 6);
  EXPECT_EQ(sj.at("files"), 3);
  EXPECT_EQ(sj.at("indexes"), 1);
  EXPECT_EQ(sj.at("segments").at("p"), 6);
}

TEST(StatsCli, PrintsTheNumbersAndExitsZero) {
  two_sets s;
  run_result r = run_sitemill({"stats", s.new_path});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("URLs: 9 (9 distinct, 0 duplicate entries)"));
  EXPECT_THAT(r.out, HasSubstr("lastmod by month:"));
  EXPECT_THAT(r.out, HasSubstr("1 gzipped"));
  r = run_sitemill({"stats", "--json", s.old_path});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const json j = parse_report(r);
  EXPECT_EQ(j.at("urls"), 9);
  EXPECT_EQ(j.at("lastmod").at("none"), 5);
  EXPECT_EQ(j.at("lastmod").at("months").at("2026-01"), 3);
  EXPECT_EQ(j.at("changefreq").at("daily"), 1);
  EXPECT_EQ(j.at("priority").at("0.5"), 1);
  EXPECT_EQ(j.at("extensions").at("image").at("items"), 1);
}

TEST(DiffCli, ReadsUrlsThroughTheWalker) {
  // A served index whose children are fetched from the same server; the
  // URLs in them are the site's, which the walker does not fetch.
  http_server server;
  server.route(
      "/sitemap.xml",
      text_reply(200, index_xml({server.url("/a.xml")}), "application/xml"));
  server.route("/a.xml", text_reply(200,
                                    urlset_xml({{server.url("/p/1"), ""},
                                                {server.url("/p/2"), ""}}),
                                    "application/xml"));
  temp_dir t;
  write_file(t / "old.xml", urlset_xml({{server.url("/p/1"), ""}}));
  run_result r = run_sitemill(
      {"diff", "--json", t / "old.xml", server.url("/sitemap.xml")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const json j = parse_report(r);
  EXPECT_EQ(j.at("summary").at("counts").at("added"), 1);
  EXPECT_EQ(j.at("summary").at("new_files"), 1);
  r = run_sitemill({"stats", "--json", server.url("/sitemap.xml")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const json st = parse_report(r);
  EXPECT_EQ(st.at("urls"), 2);
  EXPECT_EQ(st.at("indexes"), 1);
  // Fetched documents have no size on disk.
  EXPECT_TRUE(st.at("documents").at(0).at("bytes_on_disk").is_null());
  // A fetched child answering 404 makes NEW incomplete: an error, not a
  // removal of every URL it held.
  server.route("/a.xml", text_reply(404, "gone"));
  r = run_sitemill({"diff", t / "old.xml", server.url("/sitemap.xml")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("not read whole"));
}

// A site's robots.txt naming two sitemaps, as check reads a site.
struct served_site {
  http_server server;
  served_site() {
    server.route("/robots.txt",
                 text_reply(200,
                            "User-agent: *\nDisallow: /private/\n"
                            "Sitemap: " +
                                server.url("/a.xml") +
                                "\nSitemap: " + server.url("/b.xml") + "\n"));
    server.route("/a.xml", text_reply(200,
                                      urlset_xml({{server.url("/p/1"), ""},
                                                  {server.url("/p/2"), ""}}),
                                      "application/xml"));
    server.route("/b.xml",
                 text_reply(200, urlset_xml({{server.url("/p/3"), ""}}),
                            "application/xml"));
  }
};

TEST(StatsCli, ReadsASiteThroughTheSitemapsItsRobotsTxtNames) {
  served_site s;
  const run_result r = run_sitemill({"stats", "--json", s.server.url("/")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = parse_report(r);
  EXPECT_EQ(j.at("urls"), 3);
  EXPECT_EQ(j.at("files"), 2);
  EXPECT_EQ(j.at("documents").size(), 2u) << "the robots.txt is no sitemap";
  EXPECT_EQ(j.at("not_read"), 0);
  EXPECT_TRUE(j.at("findings").empty()) << j.at("findings").dump();
}

TEST(StatsCli, ASiteWithoutRobotsTxtIsReadFromSitemapXml) {
  http_server server;
  server.route("/robots.txt", text_reply(404, "none"));
  server.route("/sitemap.xml",
               text_reply(200, urlset_xml({{server.url("/only"), ""}}),
                          "application/xml"));
  const run_result r = run_sitemill({"stats", "--json", server.url("/")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = parse_report(r);
  EXPECT_EQ(j.at("urls"), 1);
  EXPECT_EQ(j.at("findings").at("robots-txt-missing"), 1)
      << "check's finding about the robots.txt counts too";
}

TEST(StatsCli, ASiteWhoseRobotsTxtCannotBeFetchedExitsTwo) {
  // Port 1 on loopback: nothing listens, the connection is refused.
  const run_result r = run_sitemill({"stats", "http://127.0.0.1:1/"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("http://127.0.0.1:1/: its robots.txt could "
                               "not be fetched"));
}

TEST(DiffCli, ComparesASiteWithASitemap) {
  served_site s;
  temp_dir t;
  write_file(t / "old.xml", urlset_xml({{s.server.url("/p/1"), ""},
                                        {s.server.url("/gone"), ""}}));
  const run_result r =
      run_sitemill({"diff", "--json", t / "old.xml", s.server.url("/")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const json j = parse_report(r);
  EXPECT_EQ(j.at("summary").at("counts").at("added"), 2);
  EXPECT_EQ(j.at("summary").at("counts").at("removed"), 1);
}

TEST(StatsCli, SegmentsBeyondTheTrackedOnesAreOther) {
  temp_dir t;
  std::vector<url_xml> urls;
  for (int i = 0; i < 1'005; ++i)
    urls.push_back({site + "seg" + std::to_string(i) + "/x", ""});
  write_file(t / "s.xml", urlset_xml(urls));
  const run_result r = run_sitemill({"stats", "--json", t / "s.xml"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = parse_report(r);
  // 1,000 tracked, 50 listed: 950 tracked ones and 5 untracked are other.
  EXPECT_EQ(j.at("segments").size(), 51u);
  EXPECT_EQ(j.at("segments").at("other"), 955);
}

TEST(StatsCli, UnreadableInputExitsTwo) {
  temp_dir t;
  const run_result r = run_sitemill({"stats", t / "nothing.xml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("nothing.xml"));
}

TEST(StatsCli, HelpShowsExamples) {
  for (const char* cmd : {"stats", "diff"}) {
    const run_result r = run_sitemill({cmd, "--help"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_THAT(r.out, HasSubstr("Examples:"));
    EXPECT_THAT(r.out, HasSubstr("Exit codes:"));
  }
}

}  // namespace
}  // namespace sitemill::testing
