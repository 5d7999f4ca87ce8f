// -v/--verbose: what was walked, fetched and skipped, and why, one line each
// on stderr, in every command that walks or fetches; nothing of it without
// the flag.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "support/http_server.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* ns = "http://www.sitemaps.org/schemas/sitemap/0.9";

std::string index_of(const std::vector<std::string>& locs) {
  std::string s = "<?xml version=\"1.0\"?>\n<sitemapindex xmlns=\"" +
                  std::string(ns) + "\">\n";
  for (const auto& l : locs) s += "<sitemap><loc>" + l + "</loc></sitemap>\n";
  return s + "</sitemapindex>\n";
}

TEST(VerboseCli, CheckSaysWhatItReadAndWhatItSkippedAndWhy) {
  temp_dir t;
  write_file(t / "sitemap-1.xml", urlset({"https://www.example.com/a"}));
  write_file(t / "index.xml",
             index_of({"https://www.example.com/sitemap-1.xml",
                       "https://www.example.com/sitemap-2.xml"}));
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"-v", "check", t / "index.xml"},
        std::vector<std::string>{"check", t / "index.xml", "--verbose"}}) {
    const run_result r = run_sitemill(args);
    EXPECT_EQ(r.exit_code, 1) << r.err;  // the missing child is an error
    EXPECT_THAT(r.err, HasSubstr("sitemill: read " + (t / "index.xml") +
                                 ": sitemapindex, 2 entries"));
    EXPECT_THAT(r.err, HasSubstr("sitemill: read " + (t / "sitemap-1.xml") +
                                 ": urlset, 1 entries"));
    EXPECT_THAT(r.err, HasSubstr("sitemill: skipped "
                                 "https://www.example.com/sitemap-2.xml: no "
                                 "file beside the index (listed by " +
                                 (t / "index.xml") + ":4)"));
  }
  const run_result quiet = run_sitemill({"check", t / "index.xml"});
  EXPECT_THAT(quiet.err, Not(HasSubstr("sitemill: read")));
}

TEST(VerboseCli, EveryFetchIsToldWithItsAnswer) {
  http_server server;
  server.route("/sitemap.xml",
               text_reply(200, urlset({server.url("/a")}), "application/xml"));
  server.redirect("/old.xml", "/sitemap.xml");
  server.route("/gone.xml", text_reply(404, "no"));
  const run_result r =
      run_sitemill({"stats", "-v", server.url("/old.xml"), "--allow-private"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("sitemill: GET " + server.url("/old.xml") +
                               ": 200 from " + server.url("/sitemap.xml") +
                               " after 1 redirect, "));
  EXPECT_THAT(r.err, HasSubstr("sitemill: read " + server.url("/old.xml") +
                               ": urlset, 1 entries"));
  EXPECT_THAT(r.err, HasSubstr("redirected to " + server.url("/sitemap.xml")));

  const run_result gone =
      run_sitemill({"check", "-v", server.url("/gone.xml")});
  EXPECT_THAT(gone.err,
              HasSubstr("sitemill: GET " + server.url("/gone.xml") + ": 404"));
  EXPECT_THAT(gone.err,
              HasSubstr("sitemill: could not read " + server.url("/gone.xml") +
                        ": answered an HTTP error (404)"));
}

TEST(VerboseCli, GenerateListsEverySkippedPageAndItsFetches) {
  temp_dir t;
  // More skipped pages than the default report prints (200).
  std::filesystem::create_directories(t / "site");
  for (int i = 0; i < 210; ++i)
    write_file(t / ("site/p" + std::to_string(i) + ".html"),
               "<html><head><meta name=\"robots\" content=\"noindex\">"
               "</head><body>x</body></html>");
  write_file(t / "site/index.html", "<html><body>home</body></html>");
  http_server server;
  server.route("/sitemap.xml",
               text_reply(200, urlset({"https://www.example.com/old"}),
                          "application/xml"));
  const run_result r = run_sitemill(
      {"generate", "-v", "--base-url", "https://www.example.com/", "--out",
       t / "out", "--from-dir", t / "site", "--from-sitemap",
       server.url("/sitemap.xml"), "--allow-private"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("p209.html"));
  EXPECT_THAT(r.err, Not(HasSubstr("not shown")));
  EXPECT_THAT(r.err, HasSubstr("sitemill: GET " + server.url("/sitemap.xml") +
                               ": 200"));

  const run_result plain =
      run_sitemill({"generate", "--base-url", "https://www.example.com/",
                    "--out", t / "out2", "--from-dir", t / "site"});
  EXPECT_THAT(plain.err, HasSubstr("not shown"));
}

TEST(VerboseCli, PingTellsItsRequests) {
  http_server server;
  server.route("/ping", text_reply(200, "ok"));
  const run_result r =
      run_sitemill({"ping", "-v", "--endpoint", server.url("/ping"),
                    "https://www.example.com/sitemap.xml"});
  EXPECT_THAT(r.err, HasSubstr("sitemill: GET " + server.url("/ping")));
}

// A page the directory source lists although it looks like a redirect stub
// (its meta refresh waits): said under -v, and only there.
TEST(VerboseCli, GenerateSaysWhyADelayedRefreshIsListed) {
  temp_dir t;
  std::filesystem::create_directories(t / "site/tickets");
  write_file(t / "site/event.html",
             "<html><head><title>Event</title><meta http-equiv=\"refresh\" "
             "content=\"3; url=/tickets/\"></head><body>Doors open at "
             "eight</body></html>");
  write_file(t / "site/tickets/index.html", "<p>tickets</p>");
  const std::vector<std::string> args = {"generate",
                                         "--from-dir",
                                         t / "site",
                                         "--base-url",
                                         "https://www.example.com/",
                                         "--out",
                                         t / "out"};
  std::vector<std::string> verbose = args;
  verbose.push_back("-v");
  const run_result r = run_sitemill(verbose);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("sitemill: " + (t / "site/event.html") +
                               ": listed: its meta refresh to "
                               "https://www.example.com/tickets/ waits 3 s; "
                               "only an instant one is a redirect"));
  EXPECT_THAT(r.err, HasSubstr("2 URLs written"));
  const run_result quiet = run_sitemill(args);
  EXPECT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_THAT(quiet.err, Not(HasSubstr("meta refresh")));
}

}  // namespace
}  // namespace sitemill::testing
