// End-to-end runs of generate's other sources (issue 4): a site's output
// directory with truthful lastmod kept in a state database, existing
// sitemaps (local, remote, feeds), and several sources mixed in one run.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <ctime>
#include <filesystem>

#include "support/campaign.h"
#include "support/http_server.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using ::testing::UnorderedElementsAre;
using json = nlohmann::json;

const std::string base = "https://www.example.com/";

// Sets a file's modification time, so lastmods are predictable.
void set_mtime(const std::string& path, std::time_t when) {
  timespec times[2] = {{when, 0}, {when, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0) << path;
}

std::string page(std::string_view body, std::string_view head = "") {
  return "<!doctype html><html><head><title>t</title>" + std::string(head) +
         "</head><body>" + std::string(body) + "</body></html>\n";
}

// loc -> lastmod ("" when absent) of every URL in a published set.
std::map<std::string, std::string> lastmods(const published_set& set) {
  std::map<std::string, std::string> out;
  for (const auto& e : all_entries(set))
    out[e.at("loc")] = e.count("lastmod") ? e.at("lastmod") : "";
  return out;
}

constexpr std::time_t jan_2024 = 1704067200;  // 2024-01-01T00:00:00Z
constexpr std::time_t jun_2024 = 1717200000;  // 2024-06-01T00:00:00Z
constexpr std::time_t jul_2024 = 1719792000;  // 2024-07-01T00:00:00Z

TEST(GenerateSources, DirectoryListsPagesAndSkipsThemWithReasons) {
  temp_dir t;
  const std::string site = t / "site";
  std::filesystem::create_directories(site + "/about");
  std::filesystem::create_directories(site + "/blog");
  std::filesystem::create_directories(site + "/private");
  write_file(site + "/index.html", page("home"));
  write_file(site + "/about/index.html", page("about"));
  write_file(site + "/blog/draft.html",
             page("draft", "<meta name=\"robots\" content=\"noindex\">"));
  write_file(site + "/copy.html",
             page("copy", "<link rel=\"canonical\" href=\"/about/\">"));
  write_file(site + "/private/x.html", page("secret"));
  write_file(site + "/robots.txt", "User-agent: *\nDisallow: /private/\n");
  write_file(site + "/style.css", "body{}");
  write_file(site + "/.hidden.html", page("hidden"));

  auto g = generate_and_check(t / "out", {"--from-dir", site});
  EXPECT_THAT(all_locs(g.set), UnorderedElementsAre(base, base + "about/"));
  const auto& skipped = g.report["skipped"];
  ASSERT_EQ(skipped.size(), 3u) << g.report.dump();
  std::string reasons;
  for (const auto& s : skipped)
    reasons += s["reason"].get<std::string>() + "\n";
  EXPECT_THAT(reasons, HasSubstr("draft.html"));
  EXPECT_THAT(reasons, HasSubstr("noindex"));
  EXPECT_THAT(reasons, HasSubstr("canonical"));
  EXPECT_THAT(reasons, HasSubstr("robots.txt"));
  EXPECT_EQ(g.report["records"], 2);
}

TEST(GenerateSources, ContentLastmodSurvivesARebuildAndFollowsAnEdit) {
  temp_dir t;
  const std::string site = t / "site";
  std::filesystem::create_directories(site);
  write_file(site + "/a.html", page("alpha"));
  write_file(site + "/b.html", page("beta"));
  set_mtime(site + "/a.html", jan_2024);
  set_mtime(site + "/b.html", jan_2024);
  const std::vector<std::string> args = {
      "--from-dir", site,           "--lastmod", "content",
      "--state",    t / "state.db", "--no-gzip"};

  auto first = generate_and_check(t / "out", args);
  EXPECT_EQ(lastmods(first.set),
            (std::map<std::string, std::string>{
                {base + "a.html", "2024-01-01T00:00:00Z"},
                {base + "b.html", "2024-01-01T00:00:00Z"}}));
  EXPECT_THAT(first.report["changes"]["added"],
              UnorderedElementsAre(base + "a.html", base + "b.html"));
  const auto published = snapshot(t / "out");

  // A rebuild rewrites every file with the same content: nothing changes.
  write_file(site + "/a.html", page("alpha"));
  write_file(site + "/b.html", page("beta"));
  set_mtime(site + "/a.html", jun_2024);
  set_mtime(site + "/b.html", jun_2024);
  auto rebuilt = generate_and_check(t / "out", args);
  EXPECT_EQ(lastmods(rebuilt.set), lastmods(first.set));
  EXPECT_TRUE(rebuilt.report["changes"]["added"].empty());
  EXPECT_TRUE(rebuilt.report["changes"]["changed"].empty());
  EXPECT_EQ(snapshot(t / "out"), published)
      << "an unchanged site rewrites nothing";

  // One page edited: only its lastmod moves.
  write_file(site + "/b.html", page("beta, edited"));
  set_mtime(site + "/b.html", jul_2024);
  auto edited = generate_and_check(t / "out", args);
  EXPECT_EQ(lastmods(edited.set),
            (std::map<std::string, std::string>{
                {base + "a.html", "2024-01-01T00:00:00Z"},
                {base + "b.html", "2024-07-01T00:00:00Z"}}));
  EXPECT_THAT(edited.report["changes"]["changed"],
              ElementsAre(base + "b.html"));
}

TEST(GenerateSources, AFailedRunDoesNotAdvanceTheState) {
  temp_dir t;
  const std::string site = t / "site";
  std::filesystem::create_directories(site);
  write_file(site + "/a.html", page("alpha"));
  set_mtime(site + "/a.html", jan_2024);
  std::vector<std::string> args = {"--from-dir", site,      "--lastmod",
                                   "content",    "--state", t / "state.db"};
  generate_and_check(t / "out", args);

  write_file(site + "/a.html", page("alpha, edited"));
  set_mtime(site + "/a.html", jul_2024);
  write_file(t / "bad.txt", "ftp://www.example.com/x\n");
  auto failed =
      run_sitemill({"generate", "--base-url", base, "--out", t / "out",
                    "--strict", "--from-dir", site, "--lastmod", "content",
                    "--state", t / "state.db", t / "bad.txt"});
  ASSERT_EQ(failed.exit_code, 1) << failed.err;

  auto next = generate_and_check(t / "out", args);
  EXPECT_THAT(next.report["changes"]["changed"], ElementsAre(base + "a.html"))
      << "the failed run must not have recorded the edit";
  EXPECT_EQ(lastmods(next.set).at(base + "a.html"), "2024-07-01T00:00:00Z");
}

TEST(GenerateSources, ContentPolicyNeedsAState) {
  temp_dir t;
  std::filesystem::create_directories(t / "site");
  auto r = run_sitemill({"generate", "--base-url", base, "--out", t / "out",
                         "--from-dir", t / "site", "--lastmod", "content"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("sitemill generate: --lastmod content needs "
                               "--state FILE to remember content hashes"));
}

// An index and its gzipped children, written by sitemill itself, read back:
// every entry with its fields comes through unchanged.
TEST(GenerateSources, LocalIndexReadsBackEveryEntryWithItsFields) {
  temp_dir t;
  write_file(t / "urls.tsv",
             "loc\tlastmod\tchangefreq\tpriority\n/a\t2024-01-02\tdaily\t0.5\n"
             "/b\t2024-03-04T05:06:07+01:00\t\t\n/c\t\tweekly\t1.0\n/d\t\t\t\n/"
             "e\t2023-12-31\t\t\n");
  auto original =
      generate_and_check(t / "old", {"--max-urls", "2", t / "urls.tsv"});
  ASSERT_GE(original.set.sitemaps().size(), 3u);

  auto copy =
      generate_and_check(t / "new", {"--from-sitemap", t / "old/sitemap.xml"});
  EXPECT_EQ(all_entries(copy.set), all_entries(original.set));
  EXPECT_EQ(copy.report["records"], 5);
}

// An extension one namespace version off is read by no search engine, and
// sitemill cannot write it again: the run says so at the input's own line,
// naming the file once.
TEST(GenerateSources, AnExtensionInAWrongNamespaceIsNamedAtItsLine) {
  temp_dir t;
  write_file(t / "in.xml",
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"\n"
             "  xmlns:image=\"http://www.google.com/schemas/sitemap-image/2.0\">\n"
             "<url><loc>https://www.example.com/a</loc><image:image>"
             "<image:loc>https://www.example.com/i.jpg</image:loc>"
             "</image:image></url>\n"
             "</urlset>\n");
  auto r = run_sitemill({"generate", "--base-url", base, "--out", t / "out",
                         "--from-sitemap", t / "in.xml"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string file = t / "in.xml";
  EXPECT_THAT(r.err, HasSubstr(file + ":4: warning: <image:image> is in the "
                               "namespace \"http://www.google.com/schemas/"
                               "sitemap-image/2.0\""));
  EXPECT_THAT(r.err, HasSubstr("Did you mean"));
  EXPECT_EQ(r.err.find(file + ": warning: " + file), std::string::npos) << r.err;
}

// A local index lists its children by URL; each is looked for beside it
// under the file name its URL's last segment decodes to, as a server would
// map it ("a%20b.xml" is the file "a b.xml"), whatever the case of the
// scheme. A name that decodes into another directory ("..%2F") is never
// looked for locally: that child is fetched from its URL instead.
TEST(GenerateSources, LocalIndexFindsChildrenByTheirDecodedFileNames) {
  temp_dir t;
  http_server server;
  std::filesystem::create_directories(t / "old");
  auto urlset = [](const std::string& loc) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
           "<url><loc>" +
           loc + "</loc></url>\n</urlset>\n";
  };
  write_file(t / "old/a b.xml", urlset(base + "spaced"));
  write_file(t / "old/\xC3\xBC.xml", urlset(base + "umlaut"));
  write_file(t / "secret.xml", urlset(base + "secret"));
  std::string index =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  for (const std::string& loc :
       {std::string("Https://www.example.com/a%20b.xml"),
        std::string("https://www.example.com/%C3%BC.xml"),
        server.url("/..%2Fsecret.xml")})
    index += "<sitemap><loc>" + loc + "</loc></sitemap>\n";
  write_file(t / "old/index.xml", index + "</sitemapindex>\n");

  // --allow-private: the test server is on the loopback, which the index's
  // children may not name by themselves.
  auto g = generate_and_check(
      t / "out", {"--from-sitemap", t / "old/index.xml", "--allow-private"});
  EXPECT_THAT(all_locs(g.set), ElementsAre(base + "spaced", base + "umlaut"));
  ASSERT_EQ(g.report["rejected"].size(), 1u) << g.report.dump();
  EXPECT_THAT(g.report["rejected"][0]["reason"].get<std::string>(),
              HasSubstr("404"));
  EXPECT_EQ(server.count("/..%2Fsecret.xml"), 1u);
}

TEST(GenerateSources, RewriteBaseMigratesASite) {
  temp_dir t;
  write_file(t / "old.xml",
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
             "<url><loc>https://old.example.org/a</loc><lastmod>2024-01-01</"
             "lastmod></url>\n"
             "<url><loc>https://old.example.org/b?x=1&amp;y=2</loc></url>\n"
             "</urlset>\n");
  auto g = generate_and_check(
      t / "out", {"--from-sitemap", t / "old.xml", "--rewrite-base",
                  "https://old.example.org/", base});
  EXPECT_THAT(all_locs(g.set), ElementsAre(base + "a", base + "b?x=1&y=2"));
}

TEST(GenerateSources, RemoteIndexIsFollowedAndAMissingChildIsReported) {
  temp_dir t;
  http_server server;
  const std::string urlset =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
      "<url><loc>" +
      server.url("/one") + "</loc></url>\n</urlset>\n";
  const std::string urlset2 =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
      "<url><loc>" +
      server.url("/two") +
      "</loc><lastmod>2024-02-03</lastmod></url>\n</urlset>\n";
  server.route(
      "/sitemap.xml",
      text_reply(200,
                 "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<sitemapindex "
                 "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
                 "<sitemap><loc>" +
                     server.url("/s1.xml") +
                     "</loc></sitemap>\n"
                     "<sitemap><loc>" +
                     server.url("/s2.xml.gz") +
                     "</loc></sitemap>\n"
                     "<sitemap><loc>" +
                     server.url("/missing.xml") +
                     "</loc></sitemap>\n"
                     "</sitemapindex>\n",
                 "application/xml"));
  server.route("/s1.xml", text_reply(200, urlset, "application/xml"));
  server.route("/s2.xml.gz",
               text_reply(200, gzip(urlset2), "application/gzip"));

  auto g = generate_and_check(t / "out",
                              {"--from-sitemap", server.url("/sitemap.xml"),
                               "--rewrite-base", server.url("/"), base});
  EXPECT_THAT(all_locs(g.set), ElementsAre(base + "one", base + "two"));
  ASSERT_EQ(g.report["rejected"].size(), 1u);
  EXPECT_THAT(g.report["rejected"][0]["reason"].get<std::string>(),
              HasSubstr("missing.xml"));
  EXPECT_THAT(g.report["rejected"][0]["reason"].get<std::string>(),
              HasSubstr("404"));
  EXPECT_EQ(server.count("/s2.xml.gz"), 1u);
}

// Issue 14: --from-sitemap reads through the walker, so an index child on
// another port of the machine is not fetched, and says why.
TEST(GenerateSources, RemoteIndexChildOnAnotherPortIsNotFetched) {
  temp_dir t;
  http_server server, other;
  other.route("/s1.xml",
              text_reply(200, urlset({other.url("/one")}), "application/xml"));
  server.route("/s2.xml", text_reply(200, urlset({server.url("/two")}),
                                     "application/xml"));
  server.route(
      "/sitemap.xml",
      text_reply(200,
                 sitemapindex({other.url("/s1.xml"), server.url("/s2.xml")}),
                 "application/xml"));
  auto g = generate_and_check(t / "out",
                              {"--from-sitemap", server.url("/sitemap.xml"),
                               "--rewrite-base", server.url("/"), base});
  sitemill::test::campaign_tally(sitemill::test::campaign_kind::hostile_input,
                                 1);
  EXPECT_THAT(all_locs(g.set), ElementsAre(base + "two"));
  ASSERT_EQ(g.report["rejected"].size(), 1u) << g.report.dump(2);
  EXPECT_THAT(g.report["rejected"][0]["reason"].get<std::string>(),
              HasSubstr(other.url("/s1.xml") +
                        " is on another host or port than the index"));
  EXPECT_TRUE(other.requests().empty());
}

TEST(GenerateSources, FeedDatesBecomeW3cLastmods) {
  temp_dir t;
  write_file(
      t / "feed.rss",
      "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>x</title>"
      "<item><link>https://www.example.com/post</link>"
      "<pubDate>Tue, 10 Jun 2003 04:00:00 GMT</pubDate></item>"
      "<item><link>https://www.example.com/other</link>"
      "<pubDate>Wed, 11 Jun 2003 09:41:01 +0200</pubDate></item>"
      // Zone names in any case, as check reads them (RFC 5322 1.2.2).
      "<item><link>https://www.example.com/lower</link>"
      "<pubDate>Wed, 11 Jun 2003 09:41:01 gmt</pubDate></item>"
      "<item><link>https://www.example.com/atom-style</link>"
      "<pubDate>2003-06-12t10:00:00z</pubDate></item>"
      "</channel></rss>\n");
  auto g = generate_and_check(t / "out", {"--from-sitemap", t / "feed.rss"});
  EXPECT_EQ(lastmods(g.set),
            (std::map<std::string, std::string>{
                {base + "post", "2003-06-10T04:00:00Z"},
                {base + "other", "2003-06-11T09:41:01+02:00"},
                {base + "lower", "2003-06-11T09:41:01Z"},
                {base + "atom-style", "2003-06-12T10:00:00Z"}}));
}

TEST(GenerateSources, SourcesMixAndDeduplicateAcrossEachOther) {
  temp_dir t;
  std::filesystem::create_directories(t / "site");
  write_file(t / "site/index.html", page("home"));
  write_file(t / "site/x.html", page("x"));
  write_file(t / "list.txt", "/x.html\n/list-only\n");
  write_file(t / "old.txt",
             "https://www.example.com/\nhttps://www.example.com/map-only\n");
  auto g =
      generate_and_check(t / "out", {t / "list.txt", "--from-dir", t / "site",
                                     "--from-sitemap", t / "old.txt"});
  EXPECT_THAT(all_locs(g.set),
              UnorderedElementsAre(base + "x.html", base + "list-only", base,
                                   base + "map-only"));
  EXPECT_EQ(g.report["duplicates"], 2);
  EXPECT_EQ(g.report["records"], 6);
}

// generate --robots and --indexnow-key announce a set once it is published,
// and IndexNow hears only about what changed since the last run.
TEST(GenerateSources, AnnouncesThePublishedSetAndOnlyWhatChanged) {
  temp_dir t;
  http_server server;
  server.route("/indexnow", text_reply(200, ""));
  std::filesystem::create_directories(t / "site");
  write_file(t / "site/a.html", page("alpha"));
  write_file(t / "site/b.html", page("beta"));
  write_file(t / "robots.txt",
             "# mine\r\nUser-agent: *\r\nDisallow: /tmp/\r\n");
  const std::vector<std::string> args = {"generate",
                                         "--base-url",
                                         base,
                                         "--out",
                                         t / "out",
                                         "--from-dir",
                                         t / "site",
                                         "--lastmod",
                                         "content",
                                         "--state",
                                         t / "state.db",
                                         "--robots",
                                         t / "robots.txt",
                                         "--indexnow-key",
                                         "0123456789abcdef",
                                         "--indexnow-endpoint",
                                         server.url("/indexnow")};

  auto first = run_sitemill(args);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(read_raw(t / "robots.txt"),
            "# mine\r\nUser-agent: *\r\nDisallow: /tmp/\r\n\r\nSitemap: " +
                base + "sitemap.xml\r\n");
  ASSERT_EQ(server.count("/indexnow"), 1u);
  auto body = nlohmann::json::parse(server.requests().back().body);
  EXPECT_THAT(body["urlList"],
              UnorderedElementsAre(base + "a.html", base + "b.html"));
  EXPECT_EQ(body["key"], "0123456789abcdef");

  auto again = run_sitemill(args);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(server.count("/indexnow"), 1u) << "nothing changed, nothing sent";

  write_file(t / "site/b.html", page("beta, edited"));
  auto edited = run_sitemill(args);
  ASSERT_EQ(edited.exit_code, 0) << edited.err;
  ASSERT_EQ(server.count("/indexnow"), 2u);
  body = nlohmann::json::parse(server.requests().back().body);
  EXPECT_THAT(body["urlList"], ElementsAre(base + "b.html"));
}

// --json carries what was announced, in generate's words, and the report
// stays one that `sitemill indexnow --from-manifest` reads.
TEST(GenerateSources, JsonCarriesWhatWasAnnounced) {
  temp_dir t;
  http_server server;
  server.route("/indexnow", text_reply(405, ""));
  std::filesystem::create_directories(t / "site");
  write_file(t / "site/a.html", page("alpha"));
  auto r = run_sitemill({"generate", "--json", "--base-url", base, "--out",
                         t / "out", "--from-dir", t / "site", "--lastmod",
                         "content", "--state", t / "state.db", "--robots",
                         t / "robots.txt", "--indexnow-key", "0123456789abcdef",
                         "--indexnow-endpoint", server.url("/indexnow")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const json j = parse_report(r);
  const json& robots = j["announce"]["robots"];
  EXPECT_EQ(robots["path"], t / "robots.txt");
  EXPECT_EQ(robots["added"], json::array({base + "sitemap.xml"}));
  EXPECT_EQ(robots["created"], true);
  EXPECT_EQ(robots["written"], true);
  const json& indexnow = j["announce"]["indexnow"];
  EXPECT_EQ(indexnow["urls"], 1);
  ASSERT_EQ(indexnow["batches"].size(), 1u);
  EXPECT_EQ(indexnow["batches"][0]["outcome"], "refused");
  EXPECT_EQ(indexnow["batches"][0]["status"], 405);
  EXPECT_THAT(indexnow["batches"][0]["message"].get<std::string>(),
              HasSubstr("check that --indexnow-endpoint is"));

  write_file(t / "report.json", r.out);
  server.route("/indexnow", text_reply(200, ""));
  auto again = run_sitemill({"indexnow", "--key", "0123456789abcdef",
                             "--endpoint", server.url("/indexnow"),
                             "--from-manifest", t / "report.json"});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(json::parse(server.requests().back().body)["urlList"],
            json::array({base + "a.html"}));
}

// The library's advice names its options (`endpoint`); generate names its
// own flags, which differ from those of `sitemill indexnow` (--endpoint).
TEST(GenerateSources, IndexNowAdviceNamesGeneratesOwnFlags) {
  temp_dir t;
  http_server server;
  server.route("/indexnow", text_reply(405, ""));
  std::filesystem::create_directories(t / "site");
  write_file(t / "site/a.html", page("alpha"));
  auto r =
      run_sitemill({"generate", "--base-url", base, "--out", t / "out",
                    "--from-dir", t / "site", "--lastmod", "content", "--state",
                    t / "state.db", "--indexnow-key", "0123456789abcdef",
                    "--indexnow-endpoint", server.url("/indexnow")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("sitemill: IndexNow: 405 Method Not Allowed: "
                               "not an answer IndexNow defines; check that "
                               "--indexnow-endpoint is an IndexNow endpoint"));
}

// The set is live before robots.txt is edited: a robots.txt that cannot be
// written is a usage error (exit 2), and the set stays published.
TEST(GenerateSources, ARobotsTxtThatCannotBeWrittenExitsTwoAfterPublishing) {
  temp_dir t;
  write_file(t / "u.txt", "/a\n");
  auto r = run_sitemill({"generate", "--base-url", base, "--out", t / "out",
                         "--robots", t / "missing/robots.txt", t / "u.txt"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("sitemill generate: --robots: "));
  EXPECT_THAT(r.err, HasSubstr("missing/robots.txt"));
  EXPECT_THAT(list_files(t / "out"),
              ElementsAre(StartsWith("sitemap-"), "sitemap.xml"));
}

TEST(GenerateSources, IndexNowWithoutAStateIsAUsageError) {
  temp_dir t;
  write_file(t / "u.txt", "/a\n");
  auto r = run_sitemill({"generate", "--base-url", base, "--out", t / "out",
                         "--indexnow-key", "0123456789abcdef", t / "u.txt"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--state"));
  EXPECT_TRUE(list_files(t / "out").empty());
}

}  // namespace
}  // namespace sitemill::testing
