// End-to-end runs of generate --from-log (issue 13): a gzipped access log
// mixing pages, assets, bots, errors, POSTs, query strings and lines that are
// no log lines publishes exactly the pages people were served, with the
// popularity priorities docs/access-logs.md states, and names each bad line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>

#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string base = "https://www.example.com/";

std::string combined(std::string_view method, std::string_view target,
                     int status, std::string_view agent) {
  return "203.0.113.7 - - [12/Mar/2024:10:00:00 +0000] \"" +
         std::string(method) + " " + std::string(target) + " HTTP/1.1\" " +
         std::to_string(status) + " 5120 \"https://www.example.com/\" \"" +
         std::string(agent) + "\"";
}

constexpr std::string_view firefox =
    "Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0";
constexpr std::string_view googlebot =
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

// The test log: page -> requests of it people made, and everything that
// must be left out, shuffled; then lines that are no log lines, at the
// physical line numbers `bad_lines` gives (1-based).
struct test_log {
  std::map<std::string, int> pages;  // path -> GET/HEAD requests
  std::vector<std::uint64_t> bad_lines = {1, 777, 2500};
  std::string text;
};

test_log make_log() {
  test_log log;
  log.pages["/"] = 1000;
  log.pages["/about/"] = 100;
  log.pages["/docs/guide.html"] = 10;
  for (int k = 1; k <= 20; ++k)
    log.pages["/blog/post-" + std::to_string(k)] = k;
  log.pages["/head-only"] = 1;  // a HEAD
  log.pages["/cached"] = 1;     // a 304
  std::vector<std::string> lines;
  for (const auto& [path, n] : log.pages)
    for (int i = 0; i < n; ++i)
      lines.push_back(combined(path == "/head-only" ? "HEAD" : "GET", path,
                               path == "/cached" ? 304 : 200, firefox));
  for (int i = 0; i < 250; ++i) {
    for (const char* asset :
         {"/css/site.css", "/js/app.js?v=3", "/img/logo.PNG", "/fonts/a.woff2"})
      lines.push_back(combined("GET", asset, 200, firefox));
  }
  for (int i = 0; i < 300; ++i) {
    lines.push_back(combined("GET", "/bot-only", 200, googlebot));
    lines.push_back(combined("GET", "/", 200, "curl/8.5.0"));
  }
  for (int i = 0; i < 200; ++i)
    lines.push_back(combined("GET", "/missing", 404, firefox));
  for (int i = 0; i < 100; ++i) {
    lines.push_back(combined("POST", "/contact", 200, firefox));
    lines.push_back(combined("GET", "/old", 301, firefox));
  }
  for (int i = 0; i < 150; ++i)
    lines.push_back(
        combined("GET", "/search?q=" + std::to_string(i), 200, firefox));
  std::mt19937 shuffle_with(13);
  std::shuffle(lines.begin(), lines.end(), shuffle_with);
  const std::string bad[] = {
      "this is not a log line",
      R"log(203.0.113.7 - - [12/Mar/2024:10:00:00 +0000] "GET /cut-short HTTP/1.1" 20)log",
      R"log(203.0.113.7 - - [12/Mar/2024:10:00:00 +0000] "GET /unclosed 200 1)log",
  };
  for (std::size_t b = 0; b < std::size(bad); ++b)
    lines.insert(lines.begin() + (log.bad_lines[b] - 1), bad[b]);
  for (const auto& l : lines) log.text += l + "\n";
  return log;
}

// The priority docs/access-logs.md gives `count` requests of `max`.
std::string expected_priority(int count, int max) {
  const double p = 0.1 + 0.9 * std::log(1.0 + count) / std::log(1.0 + max);
  char text[8];
  std::snprintf(text, sizeof text, "%.1f", std::round(p * 10) / 10);
  return text;
}

TEST(GenerateLogs, PublishesTheServedPagesWithTheirPopularity) {
  temp_dir t;
  const test_log log = make_log();
  ASSERT_EQ(split_lines(log.text).size(), 3475u);
  write_file(t / "access.log.gz", gzip(log.text));
  auto g = generate_and_check(t / "out", {"--from-log", t / "access.log.gz",
                                          "--priority", "popularity"});
  std::map<std::string, std::string> got;
  for (const auto& e : all_entries(g.set))
    got[e.at("loc")] = e.count("priority") ? e.at("priority") : "";
  std::map<std::string, std::string> want;
  for (const auto& [path, n] : log.pages)
    want[base + path.substr(1)] = expected_priority(n, 1000);
  EXPECT_EQ(got, want);
  // Spot checks of the rule, independent of the helper above.
  EXPECT_EQ(got[base], "1.0");
  EXPECT_EQ(got[base + "about/"], "0.7");
  EXPECT_EQ(got[base + "docs/guide.html"], "0.4");
  EXPECT_EQ(got[base + "blog/post-1"], "0.2");

  // Each line that is no log line is rejected at its line, nothing else is.
  EXPECT_EQ(g.report["rejected"].size(), 3u);
  for (std::size_t b = 0; b < 3; ++b) {
    const auto& r = g.report["rejected"][b];
    EXPECT_EQ(r["input"], t / "access.log.gz");
    EXPECT_EQ(r["line"], log.bad_lines[b]);
    EXPECT_THAT(r["reason"].get<std::string>(),
                HasSubstr("not an access log line"));
    EXPECT_THAT(g.run.err, HasSubstr(t / "access.log.gz:" +
                                     std::to_string(log.bad_lines[b]) +
                                     ": rejected: not an access log line"));
  }
  EXPECT_THAT(g.report["rejected"][1]["reason"].get<std::string>(),
              HasSubstr("no three-digit status"));
  // The log's one note says what was left out, in the CLI's words.
  ASSERT_EQ(g.report["warnings"].size(), 1u) << g.report.dump();
  EXPECT_EQ(g.report["warnings"][0]["reason"],
            "3,475 lines; pages listed: 25 (from 1,322 requests); not log "
            "lines: 3; left out: 100 not a GET or HEAD of a path, 300 "
            "answered other than 2xx or 304, 600 by bots, 1,000 of assets, "
            "150 with a query string (see --log-keep-query)");
  EXPECT_EQ(g.report["duplicates"], 0) << "the source lists a page once";
  EXPECT_EQ(g.report["records"], 28);
}

TEST(GenerateLogs, StreamsFromStdinWithoutPriorities) {
  temp_dir t;
  const test_log log = make_log();
  run_options in;
  in.stdin_data = gzip(log.text);
  auto g = generate_and_check(t / "out", {"--from-log", "-"}, in);
  const auto locs = all_locs(g.set);
  EXPECT_EQ(locs.size(), log.pages.size());
  EXPECT_THAT(locs, Not(::testing::Contains(base + "bot-only")));
  EXPECT_THAT(locs, Not(::testing::Contains(base + "search")));
  for (const auto& e : all_entries(g.set)) {
    EXPECT_EQ(e.count("priority"), 0u) << e.at("loc");
    EXPECT_EQ(e.count("lastmod"), 0u) << e.at("loc");
  }
  EXPECT_EQ(g.report["rejected"][0]["input"], "<stdin>");
}

TEST(GenerateLogs, KeepQueryAndVhostCombined) {
  temp_dir t;
  write_file(t / "vhost.log",
             "www.example.com:443 " + combined("GET", "/s?q=1", 200, firefox) +
                 "\nshop.example.com:443 " +
                 combined("GET", "/cart", 200, firefox) +
                 "\nwww.example.com:80 " +
                 combined("GET", "/s?q=1", 200, firefox) + "\n");
  auto g = generate_and_check(
      t / "out", {"--from-log", t / "vhost.log", "--log-keep-query"});
  EXPECT_EQ(all_locs(g.set), std::vector<std::string>{base + "s?q=1"});
  EXPECT_THAT(g.report["warnings"][0]["reason"].get<std::string>(),
              HasSubstr("1 for another host"));
}

TEST(GenerateLogs, PopularityCannotReadStdinAndNeedsALog) {
  temp_dir t;
  auto r = run_sitemill({"generate", "--base-url", base, "--out", t / "out",
                         "--from-log", "-", "--priority", "popularity"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--priority popularity reads the logs twice"));
  write_file(t / "urls.txt", base + "\n");
  r = run_sitemill({"generate", "--base-url", base, "--out", t / "out",
                    t / "urls.txt", "--priority", "popularity"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--from-log"));
}

}  // namespace
}  // namespace sitemill::testing
