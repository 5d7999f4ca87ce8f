// A sitemap in a folder of its site (https://host/sitemaps/) listing the
// site's pages: the location rule (docs/protocol.md 1.6) drops them, unless
// the host's robots.txt names the sitemap or its index in a Sitemap: line,
// the owner's word that cross-submission rests on (1.7). check accepts
// them then, and only then; generate warns when nothing vouches (issue 30).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/http_server.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using json = nlohmann::json;

const std::string xml = "application/xml";

std::size_t count_code(const json& report, std::string_view code) {
  std::size_t n = 0;
  for (const json& d : report["documents"])
    for (const json& f : d["diagnostics"]) n += f["code"] == code;
  return n;
}

// A site whose sitemaps live in /sitemaps/: an index and one child listing
// the site's pages at its root.
void serve_folder_set(http_server& site) {
  site.route(
      "/sitemaps/sitemap.xml",
      text_reply(200, sitemapindex({site.url("/sitemaps/pages.xml")}), xml));
  site.route("/sitemaps/pages.xml",
             text_reply(200,
                        urlset({site.url("/"), site.url("/blog/a.html"),
                                site.url("/sitemaps/about.html")}),
                        xml));
}

TEST(CheckVouchedFolder, AFetchedIndexInAFolderIsHeldToItUnlessRobotsNamesIt) {
  http_server site;
  serve_folder_set(site);
  site.route("/robots.txt", text_reply(200, "User-agent: *\nDisallow:\n"));
  run_result r =
      run_sitemill({"check", "--json", site.url("/sitemaps/sitemap.xml")});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  json j = parse_report(r);
  EXPECT_EQ(count_code(j, "outside-location"), 2u) << j.dump(2);
  EXPECT_THAT(j.dump(), HasSubstr("or name the sitemap (or its index) in a "
                                  "Sitemap: line of the host's robots.txt"));
  EXPECT_EQ(site.count("/robots.txt"), 1u);

  // The host's robots.txt names the index: its child's pages are the site's.
  site.route("/robots.txt",
             text_reply(200, "User-agent: *\nDisallow:\n\nSitemap: " +
                                 site.url("/sitemaps/sitemap.xml") + "\n"));
  r = run_sitemill({"check", "--json", site.url("/sitemaps/sitemap.xml")});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  j = parse_report(r);
  EXPECT_EQ(count_code(j, "outside-location"), 0u) << j.dump(2);
  EXPECT_EQ(j["errors"], 0) << j.dump(2);

  // Naming the child itself vouches for it too.
  site.route(
      "/robots.txt",
      text_reply(200, "Sitemap: " + site.url("/sitemaps/pages.xml") + "\n"));
  r = run_sitemill({"check", site.url("/sitemaps/sitemap.xml")});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;

  // A robots.txt that names another sitemap vouches for nothing here.
  site.route("/robots.txt",
             text_reply(200, "Sitemap: " + site.url("/sitemap.xml") + "\n"));
  r = run_sitemill({"check", site.url("/sitemaps/sitemap.xml")});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("outside-location"));
}

// Vouching lifts the folder, not the host: a URL of another origin stays
// outside, now measured against the site's root.
TEST(CheckVouchedFolder, AVouchedSitemapIsStillHeldToItsHost) {
  http_server site;
  site.route("/robots.txt",
             text_reply(200, "Sitemap: " + site.url("/sitemaps/s.xml") + "\n"));
  site.route(
      "/sitemaps/s.xml",
      text_reply(200, urlset({site.url("/a"), "https://elsewhere.example/b"}),
                 xml));
  const run_result r =
      run_sitemill({"check", "--json", site.url("/sitemaps/s.xml")});
  const json j = parse_report(r);
  EXPECT_EQ(count_code(j, "outside-location"), 1u) << j.dump(2);
  EXPECT_THAT(j.dump(), HasSubstr("elsewhere.example/b"));
  EXPECT_THAT(j.dump(), HasSubstr("the root of the site, whose robots.txt "
                                  "names this sitemap"));
}

// Nothing outside the folder: robots.txt is not asked.
TEST(CheckVouchedFolder, ReadsRobotsOnlyWhenSomethingIsOutside) {
  http_server site;
  site.route("/robots.txt", text_reply(200, "User-agent: *\n"));
  site.route("/docs/sitemap.xml",
             text_reply(200, urlset({site.url("/docs/a")}), xml));
  const run_result r = run_sitemill({"check", site.url("/docs/sitemap.xml")});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(site.count("/robots.txt"), 0u);
}

// A site target reads its robots.txt anyway: a same-host sitemap it names
// in a folder is the site's, and so are the children of that index.
TEST(CheckVouchedFolder, ASiteTargetsRobotsVouchesForItsFolderSitemaps) {
  http_server site;
  serve_folder_set(site);
  site.route(
      "/robots.txt",
      text_reply(200, "Sitemap: " + site.url("/sitemaps/sitemap.xml") + "\n"));
  const run_result r = run_sitemill({"check", "--json", site.url("/")});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const json j = parse_report(r);
  EXPECT_EQ(count_code(j, "outside-location"), 0u) << j.dump(2);
  EXPECT_EQ(site.count("/robots.txt"), 1u);
}

void put(const std::string& path, std::string_view bytes) {
  std::filesystem::create_directories(
      std::filesystem::path(path).parent_path());
  write_file(path, bytes);
}

std::string page(std::string_view title) {
  return "<!doctype html><html><head><title>" + std::string(title) +
         "</title></head><body><p>" + std::string(title) +
         "</p></body></html>\n";
}

// The case: generate --from-dir public --out public/sitemaps, then
// check the set where it is served. Without a Sitemap: line generate warns
// and check reports the pages; with --robots both are satisfied, and check
// reads public/robots.txt from disk (no network: the host is not real).
TEST(CheckVouchedFolder, ALocalSetInAFolderPassesOnceRobotsNamesIt) {
  temp_dir t;
  const std::string base = "https://www.example.com/";
  const std::string pub = t / "public";
  put(pub + "/index.html", page("Home"));
  put(pub + "/blog/a.html", page("A"));
  put(pub + "/robots.txt", "User-agent: *\nDisallow:\n");
  std::vector<std::string> args = {"generate",       "--from-dir", pub,
                                   "--base-url",     base,         "--out",
                                   pub + "/sitemaps"};
  run_result g = run_sitemill(args);
  ASSERT_EQ(g.exit_code, 0) << g.err;
  EXPECT_THAT(g.err, HasSubstr("warning: the sitemaps at " + base +
                               "sitemaps/ list URLs outside that folder"));
  const std::vector<std::string> check = {
      "check", "--json", pub + "/sitemaps/sitemap.xml", "--sitemap-url",
      base + "sitemaps/sitemap.xml"};
  run_result c = run_sitemill(check);
  EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
  EXPECT_EQ(count_code(parse_report(c), "outside-location"), 2u) << c.out;

  args.push_back("--robots");
  args.push_back(pub + "/robots.txt");
  g = run_sitemill(args);
  ASSERT_EQ(g.exit_code, 0) << g.err;
  EXPECT_THAT(g.err, Not(HasSubstr("warning: the sitemaps at")));
  EXPECT_THAT(read_file(pub + "/robots.txt"),
              HasSubstr("Sitemap: " + base + "sitemaps/sitemap.xml"));
  c = run_sitemill(check);
  EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
  EXPECT_EQ(count_code(parse_report(c), "outside-location"), 0u) << c.out;

  // Checked from a copy whose folders are not the URL's, the robots.txt
  // beside it is not the site's: the rule holds.
  std::filesystem::copy(pub, t / "copy",
                        std::filesystem::copy_options::recursive);
  std::filesystem::rename(t / "copy/sitemaps", t / "copy/elsewhere");
  c = run_sitemill({"check", "--json", t / "copy/elsewhere/sitemap.xml",
                    "--sitemap-url", base + "sitemaps/sitemap.xml"});
  EXPECT_EQ(count_code(parse_report(c), "outside-location"), 2u) << c.out;
}

}  // namespace
}  // namespace sitemill::testing
