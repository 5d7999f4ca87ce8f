// End-to-end runs of generate --from-dir over sites as MkDocs, Hugo and
// Jekyll publish them (tests/data/sites/, written by hand in their
// generators' shapes). Each fixture holds its generator's own sitemap.xml:
// the answer sitemill's URL set must match. Error pages and redirect stubs
// are what the generators leave out, and so must sitemill.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

const std::string base = "https://www.example.com/";

std::string site(const std::string& name) {
  return std::string(SITEMILL_SOURCE_DIR) + "/tests/data/sites/" + name;
}

using lastmod_map = std::map<std::string, std::string>;

// loc -> lastmod ("" when absent) of entries.
lastmod_map lastmods(const std::vector<xml_entry>& entries) {
  lastmod_map out;
  for (const auto& e : entries)
    out[e.at("loc")] = e.count("lastmod") ? e.at("lastmod") : "";
  return out;
}

// What the generator's own sitemap.xml in the fixture says.
lastmod_map generator_says(const std::string& name) {
  return lastmods(parse_entries(read_file(site(name) + "/sitemap.xml")));
}

std::vector<std::string> locs_of(const lastmod_map& m) {
  std::vector<std::string> out;
  for (const auto& [loc, lastmod] : m) out.push_back(loc);
  return out;
}

// The skipped records of a report as "FILE: REASON", FILE relative to the
// fixture.
std::vector<std::string> skipped_of(const nlohmann::json& report,
                                    const std::string& name) {
  std::vector<std::string> out;
  for (const auto& s : report["skipped"]) {
    std::string input = s["input"];
    const std::string root = site(name) + "/";
    EXPECT_EQ(input.rfind(root, 0), 0u) << input;
    EXPECT_EQ(s["line"], 0) << input;
    out.push_back(input.substr(std::min(root.size(), input.size())) + ": " +
                  s["reason"].get<std::string>());
  }
  return out;
}

generate_run run_page_lastmod(const temp_dir& t, const std::string& name,
                              std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"--from-dir", site(name), "--lastmod",
                                   "page", "--no-gzip"};
  args.insert(args.end(), extra.begin(), extra.end());
  return generate_and_check(t / "out", args);
}

// Jekyll: posts state their date in jekyll-seo-tag's JSON-LD, as
// jekyll-sitemap reads it; pages without one have no lastmod in either;
// `permalink: /about` wrote about.html with the canonical /about.
TEST(GenerateStaticSites, JekyllSiteGivesJekyllSitemapsUrlsAndLastmods) {
  temp_dir t;
  const auto g = run_page_lastmod(t, "jekyll");
  EXPECT_EQ(lastmods(all_entries(g.set)), generator_says("jekyll"));
  EXPECT_THAT(
      skipped_of(g.report, "jekyll"),
      UnorderedElementsAre(
          "404.html: https://www.example.com/404.html: error page (404.html "
          "at the site's root)",
          "old-welcome/index.html: https://www.example.com/old-welcome/: "
          "redirect (meta refresh to "
          "https://www.example.com/2024/03/10/welcome-to-jekyll.html)"));
}

// Hugo: pages state article:modified_time (and microdata dateModified),
// the date Hugo's sitemap gives them. List pages (home, sections,
// taxonomies) state none: Hugo gives them their newest child's date, which
// a page does not say, so sitemill lists them without one and says so.
TEST(GenerateStaticSites, HugoSiteGivesHugosUrlsAndThePagesDates) {
  temp_dir t;
  const auto g = run_page_lastmod(t, "hugo");
  const lastmod_map hugo = generator_says("hugo");
  const lastmod_map ours = lastmods(all_entries(g.set));
  EXPECT_EQ(locs_of(ours), locs_of(hugo));
  const std::vector<std::string> lists = {base, base + "posts/",
                                          base + "tags/"};
  for (const auto& [loc, lastmod] : hugo) {
    const bool list = std::find(lists.begin(), lists.end(), loc) != lists.end();
    EXPECT_EQ(ours.at(loc), list ? "" : lastmod) << loc;
  }
  EXPECT_EQ(ours.at(base + "posts/caf%C3%A9-au-lait/"),
            "2024-04-02T18:00:00+02:00");
  EXPECT_THAT(
      skipped_of(g.report, "hugo"),
      UnorderedElementsAre(
          "404.html: https://www.example.com/404.html: error page (404.html "
          "at the site's root)",
          "posts/old-first-post/index.html: "
          "https://www.example.com/posts/old-first-post/: redirect (meta "
          "refresh to https://www.example.com/posts/first-post/)"));
  ASSERT_EQ(g.report["warnings"].size(), 1u) << g.report.dump();
  EXPECT_EQ(g.report["warnings"][0]["input"], site("hugo"));
  EXPECT_THAT(g.report["warnings"][0]["reason"].get<std::string>(),
              HasSubstr("3 listed files state no date"));
}

// MkDocs: its sitemap's lastmod is the build date on every page; the pages
// state no date, so --lastmod page gives none rather than a false one.
TEST(GenerateStaticSites, MkDocsSiteGivesMkDocsUrlsWithoutBuildDates) {
  temp_dir t;
  const auto g = run_page_lastmod(t, "mkdocs");
  const lastmod_map mkdocs = generator_says("mkdocs");
  const lastmod_map ours = lastmods(all_entries(g.set));
  EXPECT_EQ(locs_of(ours), locs_of(mkdocs));
  for (const auto& [loc, lastmod] : ours) EXPECT_EQ(lastmod, "") << loc;
  EXPECT_THAT(skipped_of(g.report, "mkdocs"),
              UnorderedElementsAre(
                  "404.html: https://www.example.com/404.html: error page "
                  "(404.html at the site's root)",
                  "old-about/index.html: https://www.example.com/old-about/: "
                  "redirect (meta refresh to https://www.example.com/about/)"));
}

// --clean-urls lists about.html as /about; the posts' canonicals name
// their .html spelling, which wins: the same set as Jekyll's.
TEST(GenerateStaticSites, CleanUrlsKeepWhatTheCanonicalsSay) {
  temp_dir t;
  const auto g = run_page_lastmod(t, "jekyll", {"--clean-urls"});
  EXPECT_EQ(lastmods(all_entries(g.set)), generator_says("jekyll"));
}

// The switches list error pages and redirect stubs anyway; a stub's own
// noindex still keeps it out.
TEST(GenerateStaticSites, KeepSwitchesListErrorPagesAndRedirects) {
  temp_dir t;
  const auto g =
      run_page_lastmod(t, "jekyll", {"--keep-error-pages", "--keep-redirects"});
  const lastmod_map ours = lastmods(all_entries(g.set));
  EXPECT_EQ(ours.count(base + "404.html"), 1u);
  EXPECT_EQ(ours.count(base + "old-welcome/"), 0u);
  EXPECT_THAT(skipped_of(g.report, "jekyll"),
              UnorderedElementsAre("old-welcome/index.html: "
                                   "https://www.example.com/old-welcome/: "
                                   "noindex (meta robots)"));
}

// A blog that numbers its posts keeps them; --error-page names the error
// page a site keeps where no rule would find it, and the report says which
// flag left it out.
TEST(GenerateStaticSites, ErrorPageFlagLeavesOutTheNamedPages) {
  temp_dir t;
  const std::string dir = t / "site";
  auto page = [&dir](const std::string& file, const std::string& title) {
    std::filesystem::create_directories(
        std::filesystem::path(dir + "/" + file).parent_path());
    write_file(dir + "/" + file, "<!DOCTYPE html><html><head><title>" + title +
                                     "</title></head><body><p>" + title +
                                     "</p></body></html>\n");
  };
  page("index.html", "Notes");
  page("404.html", "Page not found");
  page("blog/420.html", "Post 420");
  page("blog/404.html", "Post 404: the errors post");
  page("errors/gone/index.html", "Gone");
  page("lost.html", "Lost");
  const auto g = generate_and_check(
      t / "out",
      {"--from-dir", dir, "--base-url", base, "--no-gzip", "--error-page",
       "errors/gone/", "--error-page", "/lost.html"});
  EXPECT_THAT(all_locs(g.set),
              UnorderedElementsAre(base, base + "blog/404.html",
                                   base + "blog/420.html"));
  std::vector<std::string> skipped;
  for (const auto& s : g.report["skipped"]) {
    const std::string input = s["input"];
    skipped.push_back(input.substr(dir.size() + 1) + ": " +
                      s["reason"].get<std::string>());
  }
  EXPECT_THAT(skipped,
              UnorderedElementsAre(
                  "404.html: " + base +
                      "404.html: error page (404.html at the site's root)",
                  "errors/gone/index.html: " + base +
                      "errors/gone/: error page (named by --error-page)",
                  "lost.html: " + base +
                      "lost.html: error page (named by --error-page)"));
  const auto help = run_sitemill({"generate", "--help"});
  EXPECT_THAT(help.out, HasSubstr("--error-page"));
}

// Messages about a directory's pages name the file, not a record number.
TEST(GenerateStaticSites, MessagesNameThePagesFile) {
  temp_dir t;
  const auto r = run_sitemill({"generate", "--base-url", base, "--out",
                               t / "out", "--from-dir", site("hugo")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr(site("hugo") + "/404.html: skipped: "));
  EXPECT_THAT(r.err, HasSubstr(site("hugo") +
                               "/posts/old-first-post/index.html: skipped: "));
}

}  // namespace
}  // namespace sitemill::testing
