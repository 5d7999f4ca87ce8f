// End-to-end runs of generate --from-dir over a site as a generator builds
// it (issue 30): a canonical link that names a URL no file serves, one
// lastmod for every page (a CI checkout keeps no file times), sitemaps kept
// in a folder of the site (--sitemaps-url, inferred from --out inside
// --from-dir), and an --error-page that names no file.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <ctime>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::StartsWith;
using ::testing::UnorderedElementsAre;
using json = nlohmann::json;

const std::string base = "https://www.example.com/";
constexpr std::time_t checkout = 1767323045;  // 2026-01-02T03:04:05Z

void set_mtime(const std::string& path, std::time_t when) {
  timespec times[2] = {{when, 0}, {when, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0) << path;
}

// Every file and directory below `dir` dated `when`, as a fresh checkout is.
void touch_all(const std::string& dir, std::time_t when) {
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    set_mtime(e.path().string(), when);
  set_mtime(dir, when);
}

// A page as a generator writes it: a title, a canonical when given, a
// stated date when given.
std::string page(const std::string& title, const std::string& canonical = "",
                 const std::string& modified = "") {
  std::string head = "<meta charset=\"utf-8\"><title>" + title + "</title>";
  if (!canonical.empty())
    head += "<link rel=\"canonical\" href=\"" + canonical + "\">";
  if (!modified.empty())
    head += "<meta property=\"article:modified_time\" content=\"" + modified +
            "\">";
  return "<!DOCTYPE html>\n<html lang=\"en\"><head>" + head +
         "</head><body><main><h1>" + title + "</h1><p>Text of " + title +
         ".</p></main></body></html>\n";
}

void put(const std::string& path, const std::string& bytes) {
  std::filesystem::create_directories(
      std::filesystem::path(path).parent_path());
  write_file(path, bytes);
}

// A small Jekyll-shaped _site: flat pages (about.html), folders with index
// files, posts, a 404 page and a robots.txt; every file of one checkout
// time.
void jekyll_site(const std::string& site, int posts = 3) {
  put(site + "/index.html", page("Home", base));
  put(site + "/team/index.html", page("Team", base + "team/"));
  put(site + "/404.html", page("Page not found"));
  for (int i = 1; i <= posts; ++i)
    put(site + "/blog/post-" + std::to_string(i) + ".html",
        page("Post " + std::to_string(i)));
  put(site + "/robots.txt", "User-agent: *\nDisallow: /drafts/\n");
}

// The warnings of a --json report, as "INPUT: REASON".
std::vector<std::string> warnings_of(const json& report) {
  std::vector<std::string> out;
  for (const auto& w : report["warnings"])
    out.push_back(w["input"].get<std::string>() + ": " +
                  w["reason"].get<std::string>());
  return out;
}

std::vector<std::string> skipped_of(const json& report) {
  std::vector<std::string> out;
  for (const auto& s : report["skipped"])
    out.push_back(s["input"].get<std::string>() + ": " +
                  s["reason"].get<std::string>());
  return out;
}

std::map<std::string, std::string> lastmods(const published_set& set) {
  std::map<std::string, std::string> out;
  for (const auto& e : all_entries(set))
    out[e.at("loc")] = e.count("lastmod") ? e.at("lastmod") : "";
  return out;
}

// --- a canonical that names a URL no file serves ----------------------------

// Jekyll's `permalink: /about/` on a page it still writes as about.html (a
// site moved from folder URLs, or a plugin that writes flat files): the page
// says /about/, a static host serves /about and /about.html, and /about/ is
// a 404. The page is listed as it declares, and the run says so, naming it.
TEST(GenerateDirSource, CanonicalNamingNoFileIsListedWithAWarning) {
  temp_dir t;
  const std::string site = t / "_site";
  jekyll_site(site);
  put(site + "/about.html", page("About", base + "about/"));
  // The same spellings that a file does serve: no warning.
  put(site + "/contact.html", page("Contact", base + "contact"));
  put(site + "/team/index.html", page("Team", base + "team"));
  touch_all(site, checkout);
  const auto g = generate_and_check(t / "out", {"--from-dir", site});
  EXPECT_THAT(all_locs(g.set),
              UnorderedElementsAre(base, base + "about/", base + "contact",
                                   base + "team", base + "blog/post-1.html",
                                   base + "blog/post-2.html",
                                   base + "blog/post-3.html"));
  const auto warnings = warnings_of(g.report);
  EXPECT_THAT(warnings,
              Contains(AllOf(StartsWith(site + "/about.html: listed under its "
                                               "canonical " +
                                        base + "about/"),
                             HasSubstr("no about/index.html or "
                                       "about/index.htm"),
                             HasSubstr(base + "about.html"))));
  for (const auto& w : warnings) {
    EXPECT_THAT(w, Not(HasSubstr("contact.html"))) << w;
    EXPECT_THAT(w, Not(HasSubstr("team/index.html"))) << w;
  }
}

// A page skipped for its canonical, which names a URL of the site that no
// file serves (a typo, or a trailing '/' the target does not have): neither
// is listed, and that is said. A canonical to a page the site has (by its
// clean URL) or to another site is only a skip.
TEST(GenerateDirSource, CanonicalToAMissingPageOfTheSiteIsWarned) {
  temp_dir t;
  const std::string site = t / "_site";
  jekyll_site(site);
  put(site + "/contact.html", page("Contact"));
  put(site + "/contact-us.html", page("Contact us", base + "contact"));
  put(site + "/old-team.html", page("Old team", base + "teams/"));
  put(site + "/mirror.html", page("Mirror", "https://elsewhere.example/x/"));
  touch_all(site, checkout);
  const auto g = generate_and_check(t / "out", {"--from-dir", site});
  EXPECT_THAT(skipped_of(g.report),
              UnorderedElementsAre(
                  site + "/404.html: " + base +
                      "404.html: error page (404.html at the site's root)",
                  site + "/contact-us.html: " + base +
                      "contact-us.html: canonical points to " + base +
                      "contact",
                  site + "/old-team.html: " + base +
                      "old-team.html: canonical points to " + base + "teams/",
                  site + "/mirror.html: " + base +
                      "mirror.html: canonical points to "
                      "https://elsewhere.example/x/"));
  const auto warnings = warnings_of(g.report);
  EXPECT_THAT(warnings,
              Contains(AllOf(StartsWith(site + "/old-team.html: its canonical " +
                                        base + "teams/ names no file"),
                             HasSubstr("teams/index.html"))));
  for (const auto& w : warnings) {
    EXPECT_THAT(w, Not(HasSubstr("contact-us.html"))) << w;
    EXPECT_THAT(w, Not(HasSubstr("mirror.html"))) << w;
  }
}

// --- one lastmod for every page ---------------------------------------------

// A CI checkout: every file has the checkout's time. With --lastmod mtime
// every page gets it, and generate says so with the fix, as check then
// says lastmod-all-same of the sitemap it wrote.
TEST(GenerateDirSource, MtimeOfACheckoutForEveryPageIsWarnedWithTheFix) {
  temp_dir t;
  const std::string site = t / "_site";
  jekyll_site(site, 12);
  touch_all(site, checkout);
  const auto g = generate_and_check(
      t / "out", {"--from-dir", site, "--lastmod", "mtime", "--no-gzip"});
  for (const auto& [loc, lastmod] : lastmods(g.set))
    EXPECT_EQ(lastmod, "2026-01-02T03:04:05Z") << loc;
  EXPECT_THAT(warnings_of(g.report),
              Contains(AllOf(StartsWith(site + ": all 14 listed pages get one "
                                               "lastmod, 2026-01-02T03:04:05Z"),
                             HasSubstr("modification time"),
                             HasSubstr("--lastmod page"),
                             HasSubstr("--lastmod content with --state"))));
  const run_result check = run_sitemill(
      {"check", t / "out/sitemap.xml", "--sitemap-url", base + "sitemap.xml"});
  EXPECT_THAT(check.out + check.err, HasSubstr("lastmod-all-same"));

  // Pages edited at different times: no warning.
  set_mtime(site + "/blog/post-3.html", checkout - 86400);
  const auto h = generate_and_check(
      t / "out2", {"--from-dir", site, "--lastmod", "mtime", "--no-gzip"});
  for (const auto& w : warnings_of(h.report))
    EXPECT_THAT(w, Not(HasSubstr("get one lastmod"))) << w;
}

// The default for a directory is the date each page states: posts keep
// theirs, pages stating none have no lastmod (and one warning counts them)
// rather than the checkout's time, and with --state they are dated by
// their content.
TEST(GenerateDirSource, DefaultLastmodIsThePagesOwnDate) {
  temp_dir t;
  const std::string site = t / "_site";
  jekyll_site(site, 0);
  for (int i = 1; i <= 11; ++i)
    put(site + "/blog/post-" + std::to_string(i) + ".html",
        page("Post " + std::to_string(i), "",
             "2024-03-" + std::string(i < 10 ? "0" : "") + std::to_string(i) +
                 "T09:30:00+01:00"));
  touch_all(site, checkout);
  const auto g = generate_and_check(t / "out", {"--from-dir", site});
  const auto dates = lastmods(g.set);
  EXPECT_EQ(dates.at(base + "blog/post-1.html"), "2024-03-01T09:30:00+01:00");
  EXPECT_EQ(dates.at(base + "blog/post-11.html"), "2024-03-11T09:30:00+01:00");
  EXPECT_EQ(dates.at(base), "");
  EXPECT_EQ(dates.at(base + "team/"), "");
  EXPECT_THAT(warnings_of(g.report),
              Contains(AllOf(StartsWith(site + ": 2 listed files state no "
                                               "date"),
                             HasSubstr("--state FILE"),
                             HasSubstr("--lastmod mtime"))));

  const auto s = generate_and_check(
      t / "out-state",
      {"--from-dir", site, "--state", t / "state.db", "--no-gzip"});
  const auto with_state = lastmods(s.set);
  EXPECT_EQ(with_state.at(base), "2026-01-02T03:04:05Z");
  EXPECT_EQ(with_state.at(base + "blog/post-2.html"),
            "2024-03-02T09:30:00+01:00");
}

// The state is new (or was not kept between CI runs): every page is dated
// by the one checkout time it was first seen at. Said, with the fix.
TEST(GenerateDirSource, ANewStateDatingEveryPageAlikeIsWarned) {
  temp_dir t;
  const std::string site = t / "_site";
  jekyll_site(site, 12);
  touch_all(site, checkout);
  const auto g = generate_and_check(
      t / "out", {"--from-dir", site, "--lastmod", "content", "--state",
                  t / "state.db"});
  EXPECT_THAT(warnings_of(g.report),
              Contains(AllOf(StartsWith(site + ": all 14 listed pages get one "
                                               "lastmod"),
                             HasSubstr("first seen"),
                             HasSubstr("Keep --state FILE between runs"))));
}

// Every page states the same date: a template that writes the build time.
TEST(GenerateDirSource, OneStatedDateOnEveryPageIsWarned) {
  temp_dir t;
  const std::string site = t / "_site";
  for (int i = 1; i <= 10; ++i)
    put(site + "/p" + std::to_string(i) + ".html",
        page("P" + std::to_string(i), "", "2026-01-02T03:00:00Z"));
  const auto g = generate_and_check(t / "out", {"--from-dir", site});
  EXPECT_THAT(warnings_of(g.report),
              Contains(AllOf(HasSubstr("all 10 listed pages get one lastmod"),
                             HasSubstr("the date each states"))));
}

// --- sitemaps in a folder of the site ---------------------------------------

// The locs of the index at `entry`.
std::vector<std::string> index_locs(const std::string& entry) {
  std::vector<std::string> out;
  for (const auto& e : parse_entries(read_file(entry))) out.push_back(e.at("loc"));
  return out;
}

// --out inside --from-dir: the files are served at the folder's URL, so the
// index names them there, the summary says so, and robots.txt (--robots)
// names the entry there: the Sitemap: line that vouches for URLs outside the
// folder. check reads the set from that URL.
TEST(GenerateDirSource, SitemapsInAFolderOfTheSiteAreNamedWhereTheyAre) {
  temp_dir t;
  const std::string site = t / "public";
  jekyll_site(site, 3);
  const run_result r = run_sitemill(
      {"generate", "--from-dir", site, "--base-url", base, "--out",
       site + "/sitemaps", "--index", "always", "--robots",
       site + "/robots.txt", "--html", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = parse_report(r);
  EXPECT_EQ(report["entry_url"], base + "sitemaps/sitemap.xml");
  EXPECT_EQ(report["sets"][0]["sitemaps_url"], base + "sitemaps/");
  EXPECT_EQ(report["sets"][0]["base_url"], base);
  EXPECT_THAT(r.err, HasSubstr("--out " + site + "/sitemaps is inside "
                               "--from-dir " + site +
                               ": the sitemaps are served at " + base +
                               "sitemaps/"));
  EXPECT_THAT(r.err, Not(HasSubstr("warning: the sitemaps at")));
  const auto locs = index_locs(site + "/sitemaps/sitemap.xml");
  ASSERT_EQ(locs.size(), 1u);
  EXPECT_THAT(locs[0], StartsWith(base + "sitemaps/sitemap-"));
  EXPECT_TRUE(std::filesystem::exists(
      site + "/sitemaps/" + locs[0].substr((base + "sitemaps/").size())));
  EXPECT_THAT(read_file(site + "/robots.txt"),
              HasSubstr("Sitemap: " + base + "sitemaps/sitemap.xml\n"));
  EXPECT_THAT(read_file(site + "/robots.txt"),
              Not(HasSubstr("Sitemap: " + base + "sitemap.xml")));
  // The HTML view beside the set links to its sitemaps by relative names.
  EXPECT_THAT(read_file(site + "/sitemaps/sitemap.html"),
              Not(HasSubstr(base + "sitemap-")));
  // The pages are the site's, not the folder's.
  EXPECT_THAT(
      read_file(site + "/sitemaps/" + locs[0].substr((base + "sitemaps/").size())),
      HasSubstr("<loc>" + base + "blog/post-1.html</loc>"));

  // check, told where the set is served, finds the index's child where the
  // index says (it then holds the pages to the folder's location rule,
  // which only robots.txt waives).
  const run_result check =
      run_sitemill({"check", site + "/sitemaps/sitemap.xml", "--sitemap-url",
                    base + "sitemaps/sitemap.xml"});
  EXPECT_THAT(check.out + check.err,
              HasSubstr(locs[0].substr((base + "sitemaps/").size()) +
                        ": urlset, 5 URLs"));
}

// Without --robots, and with no Sitemap: line in the site's robots.txt, the
// pages outside the folder would be dropped by the location rule: warned.
// A robots.txt that already names the entry vouches for it.
TEST(GenerateDirSource, SitemapsInAFolderWithoutRobotsAreWarned) {
  temp_dir t;
  const std::string site = t / "public";
  jekyll_site(site, 2);
  const std::vector<std::string> args = {
      "generate", "--from-dir", site, "--base-url", base,
      "--out",    site + "/sitemaps"};
  const run_result r = run_sitemill(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err,
              HasSubstr("warning: the sitemaps at " + base +
                        "sitemaps/ list URLs outside that folder (under " +
                        base + "), which search engines take only when the "
                               "host's robots.txt names " +
                        base + "sitemaps/sitemap.xml in a Sitemap: line"));
  put(site + "/robots.txt",
      "User-agent: *\nDisallow:\n\nSitemap: " + base + "sitemaps/sitemap.xml\n");
  const run_result vouched = run_sitemill(args);
  ASSERT_EQ(vouched.exit_code, 0) << vouched.err;
  EXPECT_THAT(vouched.err, Not(HasSubstr("warning: the sitemaps at")));
}

// --out inside --from-dir keeps the set's bookkeeping beside --out, in the
// site a deploy serves: warned, with where it would be served; a
// --manifest-dir outside the site silences it (and the bookkeeping is there).
TEST(GenerateDirSource, BookkeepingInsideTheSiteIsWarned) {
  temp_dir t;
  const std::string site = t / "public";
  jekyll_site(site, 2);
  const run_result r = run_sitemill({"generate", "--from-dir", site,
                                     "--base-url", base, "--out",
                                     site + "/sitemaps"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("warning: the set's bookkeeping (its lock, "
                               "manifest and journal) is kept in " +
                               site + "/.sitemill/sitemaps, inside --from-dir " +
                               site + ", so a deploy of it serves them at " +
                               base + ".sitemill/sitemaps/"));
  EXPECT_TRUE(std::filesystem::is_directory(site + "/.sitemill/sitemaps"));

  const run_result apart = run_sitemill(
      {"generate", "--from-dir", site, "--base-url", base, "--out",
       site + "/sitemaps", "--manifest-dir", t / "books"});
  ASSERT_EQ(apart.exit_code, 0) << apart.err;
  EXPECT_THAT(apart.err, Not(HasSubstr("bookkeeping")));
  EXPECT_FALSE(std::filesystem::is_empty(t / "books"));

  // --out beside the site: nothing to say.
  const run_result beside = run_sitemill({"generate", "--from-dir", site,
                                          "--base-url", base, "--out",
                                          t / "deploy"});
  ASSERT_EQ(beside.exit_code, 0) << beside.err;
  EXPECT_THAT(beside.err, Not(HasSubstr("bookkeeping")));
}

// --sitemaps-url given: --out anywhere (a deploy step copies it), the
// index and entry name that URL; sitemaps served above the pages (the
// host's root, for pages under /docs/) need no vouching.
TEST(GenerateDirSource, GivenSitemapsUrlNamesTheFiles) {
  temp_dir t;
  const std::string site = t / "public";
  jekyll_site(site, 2);
  const run_result r = run_sitemill(
      {"generate", "--from-dir", site, "--base-url", base + "docs/", "--out",
       t / "deploy", "--sitemaps-url", base, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = parse_report(r);
  EXPECT_EQ(report["entry_url"], base + "sitemap.xml");
  EXPECT_EQ(report["sets"][0]["sitemaps_url"], base);
  EXPECT_THAT(index_locs(t / "deploy/sitemap.xml"),
              Contains(StartsWith(base + "sitemap-")));
  EXPECT_THAT(r.err, Not(HasSubstr("is inside --from-dir")));
  EXPECT_THAT(r.err, Not(HasSubstr("warning: the sitemaps at")));
}

TEST(GenerateDirSource, SitemapsUrlIsRefusedWithSeveralBases) {
  temp_dir t;
  put(t / "urls.txt", "https://www.example.com/a\nhttps://shop.example.com/b\n");
  const run_result r = run_sitemill(
      {"generate", t / "urls.txt", "--base-url", base, "--base-url",
       "https://shop.example.com/", "--out", t / "out", "--sitemaps-url",
       base + "sitemaps/"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--sitemaps-url names where one set is served"));
  EXPECT_FALSE(std::filesystem::exists(t / "out/sitemap.xml"));
}

// Shards write beside --out and the merge names the files at the sitemaps'
// URL, as one process does.
TEST(GenerateDirSource, MergedShardsNameTheFilesAtTheSitemapsUrl) {
  temp_dir t;
  const std::string site = t / "public";
  jekyll_site(site, 6);
  for (const char* shard : {"0/2", "1/2"}) {
    const run_result r = run_sitemill(
        {"generate", "--from-dir", site, "--base-url", base, "--out",
         site + "/sitemaps", "--shard", shard});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const run_result m =
      run_sitemill({"merge", "--out", site + "/sitemaps", "--json"});
  ASSERT_EQ(m.exit_code, 0) << m.err;
  EXPECT_EQ(parse_report(m)["entry_url"], base + "sitemaps/sitemap.xml");
  for (const auto& loc : index_locs(site + "/sitemaps/sitemap.xml"))
    EXPECT_THAT(loc, StartsWith(base + "sitemaps/sitemap-")) << loc;
}

// --- --error-page ---------------------------------------------------------

TEST(GenerateDirSource, ErrorPageNamingNoFileIsWarnedNamingIt) {
  temp_dir t;
  const std::string site = t / "_site";
  jekyll_site(site, 2);
  put(site + "/errors/gone/index.html", page("Gone"));
  put(site + "/oops.html", page("Oops"));
  const auto g = generate_and_check(
      t / "out", {"--from-dir", site, "--error-page", "errors/gone/",
                  "--error-page", "/oops.html", "--error-page", "oups.html"});
  EXPECT_THAT(all_locs(g.set), Not(Contains(base + "oops.html")));
  EXPECT_THAT(all_locs(g.set), Not(Contains(base + "errors/gone/")));
  const auto warnings = warnings_of(g.report);
  EXPECT_THAT(warnings, Contains(AllOf(StartsWith(site + ": --error-page "
                                                         "\"oups.html\" "
                                                         "names no page"))));
  for (const auto& w : warnings) {
    EXPECT_THAT(w, Not(HasSubstr("\"/oops.html\""))) << w;
    EXPECT_THAT(w, Not(HasSubstr("\"errors/gone/\""))) << w;
  }
}

}  // namespace
}  // namespace sitemill::testing
