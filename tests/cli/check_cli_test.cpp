// End-to-end tests of `sitemill check`: the human and JSON reports, exit
// codes, a set published by `sitemill generate`, stdin, a site served by a
// loopback server, and spot checks of the shared conformance files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "support/campaign.h"
#include "support/http_server.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::urlset;  // tests/support: one <url> per line
using json = nlohmann::json;

const std::regex& finding_line() {
  static const std::regex re(
      R"(^(.+?)(:(\d+)(:(\d+))?)?: (error|warning|info): (.+) \[([a-z0-9-]+)\]$)");
  return re;
}

std::vector<std::smatch> findings(const std::string& out,
                                  std::vector<std::string>& storage) {
  storage = split_lines(out);
  std::vector<std::smatch> m;
  for (const auto& line : storage) {
    std::smatch s;
    if (std::regex_match(line, s, finding_line())) m.push_back(s);
  }
  return m;
}

std::string conformance_dir() {
  return std::string(SITEMILL_SOURCE_DIR) + "/../shared/conformance";
}

// --- the human report
// ----------------------------------------------------------

TEST(CheckCli, PrintsFindingsAsFileLineColumnSeverityMessageCode) {
  temp_dir t;
  const std::string file = t / "sitemap.xml";
  write_file(file,
             urlset({"https://www.example.com/a", "https://shop.example.com/b",
                     "https://www.example.com/a"}));
  run_result r = run_sitemill({"check", file});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  std::vector<std::string> lines = split_lines(r.out);
  ASSERT_GE(lines.size(), 4u) << r.out;
  EXPECT_EQ(lines[0], file + ": urlset, 3 URLs, " +
                          std::to_string(urlset({"https://www.example.com/a",
                                                 "https://shop.example.com/b",
                                                 "https://www.example.com/a"})
                                             .size()) +
                          " bytes, valid against sitemap.xsd")
      << "the header: source, type, URLs, bytes, schema verdict";
  std::vector<std::string> storage;
  auto f = findings(r.out, storage);
  ASSERT_EQ(f.size(), 2u) << r.out;
  EXPECT_EQ(f[0][1].str(), file);
  EXPECT_EQ(f[0][3].str(), "4");
  EXPECT_FALSE(f[0][5].str().empty()) << "a column";
  EXPECT_EQ(f[0][6].str(), "error");
  EXPECT_EQ(f[0][8].str(), "mixed-hosts");
  EXPECT_EQ(f[1][3].str(), "5");
  EXPECT_EQ(f[1][6].str(), "warning");
  EXPECT_EQ(f[1][8].str(), "duplicate-url");
  EXPECT_EQ(lines.back(), "checked 1 document, 3 URLs: 1 error, 1 warning");
  EXPECT_EQ(r.err, "") << "the report is the result: stdout";
}

TEST(CheckCli, QuietPrintsOnlyErrors) {
  temp_dir t;
  write_file(t / "s.xml",
             urlset({"https://www.example.com/a", "https://b.example.com/b",
                     "https://www.example.com/a"}));
  run_result r = run_sitemill({"check", "-q", t / "s.xml"});
  EXPECT_EQ(r.exit_code, 1);
  std::vector<std::string> lines = split_lines(r.out);
  ASSERT_EQ(lines.size(), 1u) << r.out;
  EXPECT_THAT(lines[0], HasSubstr(": error: "));
  EXPECT_THAT(lines[0], HasSubstr("[mixed-hosts]"));

  write_file(t / "clean.xml", urlset({"https://www.example.com/a"}));
  run_result clean = run_sitemill({"check", "--quiet", t / "clean.xml"});
  EXPECT_EQ(clean.exit_code, 0);
  EXPECT_EQ(clean.out, "") << "nothing to say";
}

// --- the JSON report
// -------------------------------------------------------------

TEST(CheckCli, PrintsOneJsonObjectWithTheContractsShape) {
  temp_dir t;
  write_file(t / "a.xml",
             urlset({"https://www.example.com/a", "https://www.example.com/a",
                     "https://other.example.com/c"}));
  write_file(t / "b.txt", "https://www.example.com/x\n");
  run_result r = run_sitemill({"check", "--json", t / "a.xml", t / "b.txt"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  json j = parse_report(r);
  ASSERT_TRUE(j.is_object());
  ASSERT_TRUE(j["documents"].is_array());
  ASSERT_EQ(j["documents"].size(), 2u) << j.dump(2);
  std::uint64_t errors = 0, warnings = 0;
  for (const auto& d : j["documents"]) {
    EXPECT_TRUE(d["source"].is_string());
    EXPECT_THAT((std::vector<std::string>{"urlset", "sitemapindex", "text",
                                          "rss", "atom"}),
                ::testing::Contains(d["type"].get<std::string>()));
    EXPECT_TRUE(d["urls"].is_number_unsigned());
    EXPECT_TRUE(d["bytes"].is_number_unsigned());
    ASSERT_TRUE(d["diagnostics"].is_array());
    for (const auto& g : d["diagnostics"]) {
      EXPECT_THAT((std::vector<std::string>{"error", "warning", "info"}),
                  ::testing::Contains(g["severity"].get<std::string>()));
      EXPECT_TRUE(g["code"].is_string());
      EXPECT_TRUE(g["line"].is_number_unsigned());
      EXPECT_TRUE(g["column"].is_number_unsigned());
      EXPECT_TRUE(g["message"].is_string());
      errors += g["severity"] == "error";
      warnings += g["severity"] == "warning";
    }
  }
  const json& a = j["documents"][0];
  EXPECT_EQ(a["source"], t / "a.xml");
  EXPECT_EQ(a["type"], "urlset");
  EXPECT_EQ(a["urls"], 3);
  EXPECT_EQ(j["documents"][1]["type"], "text");
  EXPECT_EQ(j["errors"], errors);
  EXPECT_EQ(j["warnings"], warnings);
  EXPECT_EQ(j["errors"], 1) << j.dump(2);
  EXPECT_EQ(j["warnings"], 1) << j.dump(2);
  EXPECT_EQ(r.out.find("checked "), std::string::npos)
      << "no human text on stdout";
}

// The library names check_options::fetch_children; the CLI prints its flag,
// in the human report and in --json alike.
TEST(CheckCli, NamesItsOwnFlagWhereTheLibraryNamesAnOption) {
  temp_dir t;
  write_file(t / "index.xml",
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<sitemapindex "
             "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
             "  <sitemap><loc>https://www.example.com/missing.xml</loc>"
             "</sitemap>\n"
             "</sitemapindex>\n");
  const run_result human = run_sitemill({"check", t / "index.xml"});
  EXPECT_EQ(human.exit_code, 1) << human.err;
  EXPECT_THAT(human.out, HasSubstr("; --fetch-children fetches missing ones)"));
  EXPECT_THAT(human.out, Not(HasSubstr("`")));

  const run_result as_json = run_sitemill({"check", "--json", t / "index.xml"});
  const json j = parse_report(as_json);
  ASSERT_EQ(j["documents"][0]["diagnostics"].size(), 1u) << j.dump(2);
  EXPECT_THAT(j["documents"][0]["diagnostics"][0]["message"].get<std::string>(),
              HasSubstr("--fetch-children"));
}

// --- exit codes
// --------------------------------------------------------------------

// A directory is the set published in it, as for stats, diff and report.
TEST(CheckCli, ChecksTheSetPublishedInADirectory) {
  temp_dir t;
  write_file(t / "urls.txt", "/a\n/b\n/c\n");
  ASSERT_EQ(
      run_sitemill({"generate", "--base-url", "https://www.example.com/",
                    "--out", t / "public", "--max-urls", "2", t / "urls.txt"})
          .exit_code,
      0);
  const run_result r = run_sitemill({"check", t / "public"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr(t / "public/sitemap.xml"));
  EXPECT_THAT(r.out, HasSubstr("checked 3 documents, 3 URLs"));

  std::filesystem::create_directories(t / "empty");
  const run_result none = run_sitemill({"check", t / "empty"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_THAT(none.err, HasSubstr("holds no published set"));

  ASSERT_EQ(
      run_sitemill({"generate", "--base-url", "https://www.example.com/",
                    "--out", t / "public", "--name", "blog", t / "urls.txt"})
          .exit_code,
      0);
  const run_result two = run_sitemill({"check", t / "public"});
  EXPECT_EQ(two.exit_code, 0) << "the set named sitemap is chosen";
  EXPECT_THAT(two.out, HasSubstr(t / "public/sitemap.xml"));
}

TEST(CheckCli, ExitsZeroOneOrTwoAsTheContractSays) {
  temp_dir t;
  write_file(t / "clean.xml", urlset({"https://www.example.com/a"}));
  write_file(t / "warn.xml", urlset({"https://www.example.com/a",
                                     "https://www.example.com/a"}));
  write_file(t / "error.xml",
             urlset({"https://www.example.com/a", "https://b.example.com/b"}));
  write_file(t / "order.xml",
             "<?xml version=\"1.0\"?>\n<urlset "
             "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url>"
             "<lastmod>2024-01-01</lastmod><loc>https://www.example.com/</loc>"
             "</url>\n</urlset>\n");
  struct row {
    std::vector<std::string> args;
    int exit_code;
  };
  const row rows[] = {
      {{"check", t / "clean.xml"}, 0},
      {{"check", "--warnings-as-errors", t / "clean.xml"}, 0},
      {{"check", t / "warn.xml"}, 0},
      {{"check", "--warnings-as-errors", t / "warn.xml"}, 1},
      {{"check", t / "error.xml"}, 1},
      {{"check", t / "clean.xml", t / "error.xml"}, 1},
      {{"check", t / "missing.xml"}, 2},
      {{"check", t / "error.xml", t / "missing.xml"}, 2},
      {{"check", "--json", t / "missing.xml"}, 2},
      {{"check"}, 2},
      {{"check", "--sitemap-url", "https://www.example.com/s.xml",
        t / "clean.xml", t / "warn.xml"},
       2},
      {{"check", "--sitemap-url", "not a url", t / "clean.xml"}, 2},
      {{"check", "--no-such-option", t / "clean.xml"}, 2},
      {{"check", "--sitemap-url", "https://www.example.com/s.xml",
        t / "clean.xml"},
       0},
      {{"check", "--sitemap-url", "https://www.example.com/sub/s.xml",
        t / "clean.xml"},
       1},
      // Schema-invalid is an error by default, a warning's worth with
      // --lenient-schema (the rule before issue 11).
      {{"check", t / "order.xml"}, 1},
      {{"check", "--lenient-schema", t / "order.xml"}, 0},
      {{"check", "--lenient-schema", "--warnings-as-errors", t / "order.xml"},
       1},
      {{"check", "--now", "yesterday", t / "clean.xml"}, 2},
  };
  for (const row& rw : rows) {
    run_result r = run_sitemill(rw.args);
    std::string cmd;
    for (const auto& a : rw.args) cmd += a + " ";
    EXPECT_EQ(r.exit_code, rw.exit_code) << cmd << "\n" << r.out << r.err;
  }
}

TEST(CheckCli, ReadsStdinGivenAsDash) {
  run_options o;
  o.stdin_data =
      gzip(urlset({"https://www.example.com/a", "https://www.example.com/b"}));
  run_result r = run_sitemill({"check", "--json", "-"}, o);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  json j = parse_report(r);
  ASSERT_EQ(j["documents"].size(), 1u);
  EXPECT_EQ(j["documents"][0]["source"], "-");
  EXPECT_EQ(j["documents"][0]["urls"], 2);
}

TEST(CheckCli, HelpDocumentsRulesExitCodesAndExamples) {
  run_result r = run_sitemill({"check", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* s :
       {"Exit codes", "--sitemap-url", "--json", "--warnings-as-errors",
        "--lenient-schema", "schema-invalid", "--now", "--max-hreflang-links",
        "hreflang return links", "--max-depth", "--max-documents",
        "--max-bytes", "--timeout", "--max-time", "--user-agent", "--no-follow",
        "robots.txt", "location rule", "sitemill check https://"})
    EXPECT_THAT(r.out, HasSubstr(s));
}

// --- what generate publishes, check accepts
// ---------------------------------------

TEST(CheckCli, FindsNothingWrongInASetGenerateHasPublished) {
  temp_dir t;
  auto g = generate_and_check(
      t / "out", {"--max-urls", "1000", shared_url_list(3'500, "checkset")});
  ASSERT_GE(g.set.files.size(), 5u) << "an index and four sitemaps";
  const std::string entry = t / ("out/" + g.set.entry);
  run_result r =
      run_sitemill({"check", "--json", "--warnings-as-errors", "--sitemap-url",
                    "https://www.example.com/" + g.set.entry, entry});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  json j = parse_report(r);
  EXPECT_EQ(j["errors"], 0) << j.dump(2);
  EXPECT_EQ(j["warnings"], 0) << j.dump(2);
  ASSERT_EQ(j["documents"].size(), g.set.files.size()) << j.dump(2);
  std::uint64_t urls = 0;
  for (const auto& d : j["documents"])
    if (d["type"] != "sitemapindex") urls += d["urls"].get<std::uint64_t>();
  EXPECT_EQ(urls, 3'500u);
  EXPECT_EQ(j["documents"][0]["type"], "sitemapindex");
  EXPECT_EQ(j["documents"][0]["schema_valid"], true);
  for (const auto& d : j["documents"])
    EXPECT_EQ(d["schema_valid"], true) << d["source"];

  // The same set seen from another directory breaks the location rule.
  run_result moved =
      run_sitemill({"check", "--json", "--sitemap-url",
                    "https://www.example.com/sub/" + g.set.entry, entry});
  EXPECT_EQ(moved.exit_code, 1);
}

// --- remote
// ------------------------------------------------------------------------

TEST(CheckCli, ChecksASiteServedOverHttp) {
  http_server server;
  server.route("/robots.txt",
               text_reply(200, "User-agent: *\nSitemap: " +
                                   server.url("/sitemap.xml") + "\n"));
  server.route("/sitemap.xml",
               text_reply(200, urlset({server.url("/a"), server.url("/b")}),
                          "application/xml"));
  run_result r = run_sitemill(
      {"check", "--json", "--user-agent", "ci-check/2", server.url("/")});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  json j = parse_report(r);
  ASSERT_EQ(j["documents"].size(), 2u) << j.dump(2);
  EXPECT_EQ(j["documents"][0]["source"], server.url("/robots.txt"));
  EXPECT_EQ(j["documents"][0]["type"], "text");
  EXPECT_EQ(j["documents"][0]["robots_txt"], true);
  EXPECT_EQ(j["documents"][1]["urls"], 2);
  for (const auto& req : server.requests())
    EXPECT_EQ(req.header("User-Agent").value_or(""), "ci-check/2");

  run_result missing = run_sitemill({"check", server.url("/nope.xml")});
  EXPECT_EQ(missing.exit_code, 2) << missing.out;
  EXPECT_THAT(missing.out, HasSubstr("[http-status]"));
}

// Issue 14: a hostile server's redirect to another port of the machine is
// refused before it is requested, and the report names where it led.
TEST(CheckCli, RefusesARedirectOutOfScopeAndNamesItsTarget) {
  http_server server, other;
  other.route("/admin.xml",
              text_reply(200, urlset({other.url("/a")}), "application/xml"));
  server.redirect("/sitemap.xml", other.url("/admin.xml"), 302);
  run_result r = run_sitemill({"check", server.url("/sitemap.xml")});
  sitemill::test::campaign_tally(sitemill::test::campaign_kind::hostile_input,
                                 1);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("redirected to " + other.url("/admin.xml") +
                               ", outside the fetch scope"));
  EXPECT_THAT(r.out, HasSubstr("[fetch-failed]"));
  EXPECT_TRUE(other.requests().empty());

  run_result help = run_sitemill({"check", "--help"});
  EXPECT_THAT(help.out, HasSubstr("--allow-private"));
  EXPECT_THAT(help.out, HasSubstr("Fetch scope"));
}

// A robots.txt may name sitemaps on any host, but the target 127.0.0.1 does
// not make the machine's other loopback address (::1) fair game.
TEST(CheckCli, RefusesALoopbackAddressNoTargetNames) {
  http_server server;
  const std::string v6 =
      "http://[::1]:" + std::to_string(server.port()) + "/s.xml";
  server.route("/robots.txt", text_reply(200, "Sitemap: " + v6 + "\n"));
  run_result r = run_sitemill({"check", server.url("/")});
  sitemill::test::campaign_tally(sitemill::test::campaign_kind::hostile_input,
                                 1);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("not connected to ::1, a loopback address"));
  EXPECT_THAT(r.out, HasSubstr("--allow-private allows any"));
  EXPECT_EQ(server.requests().size(), 1u) << "robots.txt only";
}

// --- conformance files
// -------------------------------------------------------------

TEST(CheckCli, SpotChecksTheSharedConformanceFiles) {
  if (!std::filesystem::exists(conformance_dir()))
    GTEST_SKIP() << "../shared/conformance is not beside the checkout";
  struct row {
    const char* file;
    const char* type;
    int exit_code;
    std::uint64_t min_urls;
  };
  const row rows[] = {
      {"crawler-commons/sitemaps/sitemap.ns.xml", "urlset", 0, 1},
      {"crawler-commons/sitemaps/xmlSitemap.gz", "urlset", 0, 1},
      {"crawler-commons/sitemaps/sitemap.txt.gz", "text", 0, 1},
      {"crawler-commons/sitemaps/atom.xml", "atom", 0, 1},
      {"crawler-commons/rss/feed.rss", "rss", 0, 1},
      {"sitemap.js/unescaped-lt.xml", "urlset", 1, 0},
      {"sitemap.js/bad-tag-sitemap.xml", "urlset", 1, 1},
      {"codeception-sitemap-module/sitemap_index.xml", "sitemapindex", 0, 1},
  };
  for (const row& rw : rows) {
    const std::string path = conformance_dir() + "/" + rw.file;
    run_result r = run_sitemill({"check", "--json", "--no-follow", path});
    json j = parse_report(r);
    ASSERT_EQ(j["documents"].size(), 1u) << rw.file;
    EXPECT_EQ(j["documents"][0]["type"], rw.type) << rw.file;
    EXPECT_GE(j["documents"][0]["urls"].get<std::uint64_t>(), rw.min_urls)
        << rw.file;
    if (rw.exit_code == 0) {
      EXPECT_EQ(j["errors"], 0) << rw.file << "\n" << j.dump(2);
    }
    EXPECT_EQ(r.exit_code, rw.exit_code) << rw.file << "\n" << j.dump(2);
  }
}

// --- the extensions (issue 11)
// ---------------------------------------------------------

// A urlset with hreflang alternates: each page's (language, URL) pairs.
std::string alternates(
    const std::vector<std::pair<
        std::string, std::vector<std::pair<std::string, std::string>>>>&
        pages) {
  std::string s =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset "
      "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
      "xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n";
  for (const auto& [loc, links] : pages) {
    s += "<url><loc>" + loc + "</loc>";
    for (const auto& [lang, href] : links)
      s += "<xhtml:link rel=\"alternate\" hreflang=\"" + lang + "\" href=\"" +
           href + "\"/>";
    s += "</url>\n";
  }
  return s + "</urlset>\n";
}

TEST(CheckCli, ExitsOneOnAMissingReturnLinkAndNamesBothUrls) {
  temp_dir t;
  const std::string en = "https://www.example.com/en/";
  const std::string de = "https://www.example.com/de/";
  write_file(t / "en.xml", alternates({{en, {{"en", en}, {"de", de}}}}));
  write_file(t / "de.xml", alternates({{de, {{"de", de}}}}));
  run_result r = run_sitemill({"check", t / "en.xml", t / "de.xml"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  std::vector<std::string> storage;
  const auto f = findings(r.out, storage);
  ASSERT_EQ(f.size(), 1u) << r.out;
  EXPECT_EQ(f[0][1].str(), t / "en.xml");
  EXPECT_EQ(f[0][3].str(), "3");
  EXPECT_EQ(f[0][6].str(), "error");
  EXPECT_EQ(f[0][8].str(), "hreflang-no-return");
  EXPECT_THAT(f[0][7].str(), HasSubstr(en));
  EXPECT_THAT(f[0][7].str(), HasSubstr(de));

  // From stdin, read once: still found, though the URLs cannot be named.
  run_options in;
  in.stdin_data =
      alternates({{en, {{"en", en}, {"de", de}}}, {de, {{"de", de}}}});
  run_result piped = run_sitemill({"check", "-"}, in);
  EXPECT_EQ(piped.exit_code, 1) << piped.out;
  EXPECT_THAT(piped.out, HasSubstr("[hreflang-no-return]"));
  EXPECT_THAT(piped.out, HasSubstr("check the file by its path"));

  // Returned, the set passes.
  write_file(t / "de.xml", alternates({{de, {{"de", de}, {"en", en}}}}));
  r = run_sitemill({"check", "--json", t / "en.xml", t / "de.xml"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(parse_report(r)["outcome"], "passed");
}

TEST(CheckCli, PinsTheTimeOfTheCheckForNewsAge) {
  temp_dir t;
  write_file(
      t / "news.xml",
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset "
      "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
      "xmlns:news=\"http://www.google.com/schemas/sitemap-news/0.9\">\n"
      "<url><loc>https://www.example.com/a</loc><news:news><news:publication>"
      "<news:name>The Daily</news:name><news:language>en</news:language>"
      "</news:publication><news:publication_date>2026-11-20T12:00:00Z"
      "</news:publication_date><news:title>A</news:title></news:news></url>\n"
      "</urlset>\n");
  run_result fresh =
      run_sitemill({"check", "--now", "2026-11-22T12:00:00Z", t / "news.xml"});
  EXPECT_EQ(fresh.exit_code, 0) << fresh.out;
  EXPECT_THAT(fresh.out, Not(HasSubstr("[news-too-old]")));
  run_result old =
      run_sitemill({"check", "--now", "2026-11-22T12:00:01Z", t / "news.xml"});
  EXPECT_EQ(old.exit_code, 0) << "a warning: " << old.out;
  EXPECT_THAT(old.out, HasSubstr("[news-too-old]"));
}

TEST(CheckCli, SaysASchemaInvalidFileIsAnErrorAndHowToBeLenient) {
  temp_dir t;
  write_file(t / "s.xml",
             "<?xml version=\"1.0\"?>\n<urlset "
             "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url>"
             "<lastmod>2024-01-01</lastmod><loc>https://www.example.com/</loc>"
             "</url>\n</urlset>\n");
  run_result r = run_sitemill({"check", t / "s.xml"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("[element-order]"));
  EXPECT_THAT(r.out, HasSubstr("[schema-invalid]"));
  EXPECT_THAT(r.out, HasSubstr("--lenient-schema"))
      << "the flag, not the option";
  run_result lenient =
      run_sitemill({"check", "--json", "--lenient-schema", t / "s.xml"});
  EXPECT_EQ(lenient.exit_code, 0);
  const json j = parse_report(lenient);
  EXPECT_EQ(j["outcome"], "passed");
  EXPECT_EQ(j["documents"][0]["schema_valid"], false);
}

}  // namespace
}  // namespace sitemill::testing
