// generate --section, the `section` column and key, and --section-by
// first-segment end to end: files of their own per section, named for it,
// one index listing them all, totals per section in the summary, --json,
// stats and the report; merge refuses shards whose sections differ.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using json = nlohmann::json;

const std::string base = "https://www.example.com/";

// These tests pin names and order under --layout sequential (numbered per
// section); the stable layout's names are tested in
// stable_layout_generate_test.cpp and generate_layout_cli_test.cpp.
generate_run sequential_check(const std::string& out,
                              std::vector<std::string> args) {
  args.insert(args.begin(), {"--layout", "sequential"});
  return generate_and_check(out, args);
}

// The sitemaps' names with the 12 hex digits of their hash as <h>, in the
// index's order.
std::vector<std::string> sitemap_names(const published_set& set) {
  static const std::regex hash("-[0-9a-f]{12}\\.");
  std::vector<std::string> out;
  for (const set_file* f : set.sitemaps())
    out.push_back(std::regex_replace(f->path, hash, "-<h>."));
  return out;
}

// The locs the index lists, as file names.
std::vector<std::string> index_order(const published_set& set) {
  std::vector<std::string> out;
  const set_file* index = set.find("sitemap.xml");
  if (index == nullptr) {
    ADD_FAILURE() << "no index";
    return out;
  }
  for (const xml_entry& e : parse_entries(index->content))
    out.push_back(e.at("loc").substr(base.size()));
  return out;
}

std::vector<std::string> locs_of(const set_file& f) {
  std::vector<std::string> out;
  for (const xml_entry& e : parse_entries(f.content))
    out.push_back(e.at("loc").substr(base.size()));
  return out;
}

const set_file& file_named(const published_set& set, std::string_view prefix) {
  for (const set_file* f : set.sitemaps())
    if (f->path.starts_with(prefix)) return *f;
  ADD_FAILURE() << "no sitemap named " << prefix << "...";
  static const set_file none;
  return none;
}

const char* const kUrls =
    "/\n/about.html\n/products/grill\n/blog/a.html\n/products/steak\n"
    "/help/manuals/grill.pdf\n/help/faq\n/blog/2026/b.html\n";

TEST(GenerateSections, EachSectionHasFilesOfItsOwnInTheOneIndex) {
  temp_dir t;
  write_file(t / "urls.txt", kUrls);
  auto g = sequential_check(
      t / "out", {"--section", "products=products/**", "--section",
                  "blog=blog/", "--section", "manuals=help/manuals/**",
                  "--section", "help=help/**", t / "urls.txt"});
  EXPECT_EQ(g.set.entry, "sitemap.xml");
  // The default section keeps a set's usual names and comes first, then
  // the sections by name.
  EXPECT_THAT(
      sitemap_names(g.set),
      ElementsAre("sitemap-1-<h>.xml.gz", "sitemap-blog-1-<h>.xml.gz",
                  "sitemap-help-1-<h>.xml.gz", "sitemap-manuals-1-<h>.xml.gz",
                  "sitemap-products-1-<h>.xml.gz"));
  std::vector<std::string> listed;
  for (const set_file* f : g.set.sitemaps()) listed.push_back(f->path);
  EXPECT_EQ(index_order(g.set), listed);
  EXPECT_THAT(locs_of(file_named(g.set, "sitemap-1-")),
              ElementsAre("", "about.html"));
  EXPECT_THAT(locs_of(file_named(g.set, "sitemap-blog-")),
              ElementsAre("blog/a.html", "blog/2026/b.html"));
  EXPECT_THAT(locs_of(file_named(g.set, "sitemap-products-")),
              ElementsAre("products/grill", "products/steak"));
  // The first matching glob wins: manuals is listed before help.
  EXPECT_THAT(locs_of(file_named(g.set, "sitemap-manuals-")),
              ElementsAre("help/manuals/grill.pdf"));
  EXPECT_THAT(locs_of(file_named(g.set, "sitemap-help-")),
              ElementsAre("help/faq"));

  const json& s = g.report["sections"];
  ASSERT_EQ(s.size(), 5u) << s;
  EXPECT_EQ(s[0], json({{"name", ""},
                        {"urls", 2},
                        {"files", 1},
                        {"bytes", file_named(g.set, "sitemap-1-").bytes}}));
  EXPECT_EQ(s[1]["name"], "blog");
  EXPECT_EQ(s[1]["urls"], 2);
  EXPECT_EQ(s[4]["name"], "products");
  EXPECT_EQ(s[4]["files"], 1);
  EXPECT_THAT(g.run.err, HasSubstr("sitemill: 5 sections:\n"));
  EXPECT_THAT(g.run.err, HasSubstr("sitemill:   (default) 2 URLs in 1 file, "));
  EXPECT_THAT(g.run.err, HasSubstr("sitemill:   manuals   1 URL in 1 file, "));
}

TEST(GenerateSections, WithoutSectionsNothingChanges) {
  temp_dir t;
  write_file(t / "urls.txt", kUrls);
  auto g = sequential_check(t / "out", {t / "urls.txt"});
  EXPECT_THAT(sitemap_names(g.set), ElementsAre("sitemap-1-<h>.xml.gz"));
  EXPECT_FALSE(g.report.contains("sections"));
  EXPECT_THAT(g.run.err, ::testing::Not(HasSubstr("section")));
}

TEST(GenerateSections, ASectionSplitsAtTheUrlLimitOnItsOwn) {
  temp_dir t;
  std::string urls;
  for (int i = 0; i < 7; ++i) urls += "/products/" + std::to_string(i) + "\n";
  urls += "/blog/a\n/b\n";
  write_file(t / "urls.txt", urls);
  auto g = sequential_check(
      t / "out", {"--max-urls", "3", "--section", "products=products/",
                  "--section", "blog=blog/", t / "urls.txt"});
  EXPECT_THAT(sitemap_names(g.set),
              ElementsAre("sitemap-1-<h>.xml.gz", "sitemap-blog-1-<h>.xml.gz",
                          "sitemap-products-1-<h>.xml.gz",
                          "sitemap-products-2-<h>.xml.gz",
                          "sitemap-products-3-<h>.xml.gz"));
  std::vector<std::size_t> counts;
  for (const set_file* f : g.set.sitemaps()) counts.push_back(f->urls);
  EXPECT_THAT(counts, ElementsAre(1u, 1u, 3u, 3u, 1u));
  EXPECT_EQ(g.report["sections"][2]["files"], 3);
  EXPECT_EQ(g.report["sections"][2]["urls"], 7);
}

TEST(GenerateSections, OneSectionAloneIsStillIndexed) {
  temp_dir t;
  write_file(t / "urls.txt", "/blog/a\n/blog/b\n");
  auto g = sequential_check(
      t / "out", {"--no-gzip", "--section", "blog=blog/", t / "urls.txt"});
  EXPECT_EQ(g.set.entry, "sitemap.xml");
  ASSERT_EQ(g.set.indexes().size(), 1u);
  EXPECT_THAT(sitemap_names(g.set), ElementsAre("sitemap-blog-1-<h>.xml"));
}

TEST(GenerateSections, ACsvSectionColumnWinsOverTheGlobs) {
  temp_dir t;
  write_file(t / "urls.csv",
             "loc,section,lastmod\n"
             "/products/grill,catalog,2026-11-01\n"
             "/products/steak,,2026-11-02\n"
             "/blog/a,Blog Posts,2026-11-03\n"
             "/about,,\n");
  auto r =
      run_sitemill({"generate", "--json", "--out", t / "out", "--base-url",
                    base, "--layout", "sequential", "--section",
                    "products=products/", t / "urls.csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = parse_report(r);
  set_expectations expected;
  expected.report = &report;
  auto set = expect_valid_set(t / "out", expected);
  EXPECT_THAT(sitemap_names(set), ElementsAre("sitemap-1-<h>.xml.gz",
                                              "sitemap-catalog-1-<h>.xml.gz",
                                              "sitemap-products-1-<h>.xml.gz"));
  EXPECT_THAT(locs_of(file_named(set, "sitemap-catalog-")),
              ElementsAre("products/grill"));
  EXPECT_THAT(locs_of(file_named(set, "sitemap-products-")),
              ElementsAre("products/steak"));
  // A value that cannot name a section is an invalid field: a warning, and
  // the URL goes on to the globs (here none matches: the default section).
  EXPECT_THAT(locs_of(file_named(set, "sitemap-1-")),
              ElementsAre("blog/a", "about"));
  ASSERT_EQ(report["warnings"].size(), 1u) << report["warnings"];
  EXPECT_EQ(report["warnings"][0]["line"], 4);
  EXPECT_THAT(report["warnings"][0]["reason"].get<std::string>(),
              HasSubstr("section \"Blog Posts\" ignored: a section name uses "
                        "only lowercase letters"));
  // --strict counts it as an invalid field.
  auto strict = run_sitemill({"generate", "--strict", "--out", t / "strict",
                              "--base-url", base, t / "urls.csv"});
  EXPECT_NE(strict.exit_code, 0);
}

TEST(GenerateSections, AJsonlSectionKeyAndAColumnByAnotherName) {
  temp_dir t;
  write_file(t / "urls.jsonl",
             "{\"loc\": \"/a\", \"section\": \"docs\"}\n"
             "{\"loc\": \"/b\"}\n"
             "{\"loc\": \"/c\", \"section\": \"docs\"}\n");
  auto g = sequential_check(t / "out", {t / "urls.jsonl"});
  EXPECT_THAT(sitemap_names(g.set),
              ElementsAre("sitemap-1-<h>.xml.gz", "sitemap-docs-1-<h>.xml.gz"));
  EXPECT_THAT(locs_of(file_named(g.set, "sitemap-docs-")),
              ElementsAre("a", "c"));

  write_file(t / "export.csv", "url,type\n/x,shop\n/y,blog\n");
  auto h = sequential_check(
      t / "out2", {"--columns", "loc=url,section=type", t / "export.csv"});
  EXPECT_THAT(sitemap_names(h.set), ElementsAre("sitemap-blog-1-<h>.xml.gz",
                                                "sitemap-shop-1-<h>.xml.gz"));
}

TEST(GenerateSections, ADirectoryTreeBySection) {
  temp_dir t;
  const std::string site = t / "site";
  for (const char* dir : {"blog/2026", "docs", "Legacy"})
    std::filesystem::create_directories(site + "/" + dir);
  const std::string page = "<!DOCTYPE html><title>x</title><p>x</p>";
  for (const char* file :
       {"index.html", "about.html", "blog/index.html", "blog/2026/a.html",
        "docs/guide.html", "Legacy/old.html"})
    write_file(site + "/" + file, page);
  auto g = sequential_check(
      t / "out", {"--from-dir", site, "--section-by", "first-segment"});
  EXPECT_THAT(sitemap_names(g.set),
              ElementsAre("sitemap-1-<h>.xml.gz", "sitemap-blog-1-<h>.xml.gz",
                          "sitemap-docs-1-<h>.xml.gz"));
  // Pages at the root, and a directory whose name is no section name
  // (said in a warning), stay in the default section.
  auto rest = locs_of(file_named(g.set, "sitemap-1-"));
  std::sort(rest.begin(), rest.end());
  EXPECT_THAT(rest, ElementsAre("", "Legacy/old.html", "about.html"));
  auto blog = locs_of(file_named(g.set, "sitemap-blog-"));
  std::sort(blog.begin(), blog.end());
  EXPECT_THAT(blog, ElementsAre("blog/", "blog/2026/a.html"));
  EXPECT_THAT(
      g.report["warnings"].dump(),
      HasSubstr("first path segment \\\"Legacy\\\" is no section name"));

  // A glob names what the first segment cannot, and wins over it.
  auto h = sequential_check(
      t / "out2",
      {"--from-dir", site, "--section-by", "first-segment", "--section",
       "legacy=Legacy/", "--section", "articles=blog/2026/"});
  EXPECT_THAT(
      sitemap_names(h.set),
      ElementsAre("sitemap-1-<h>.xml.gz", "sitemap-articles-1-<h>.xml.gz",
                  "sitemap-blog-1-<h>.xml.gz", "sitemap-docs-1-<h>.xml.gz",
                  "sitemap-legacy-1-<h>.xml.gz"));
  EXPECT_THAT(h.report["warnings"].dump(),
              ::testing::Not(HasSubstr("first path segment")));
}

TEST(GenerateSections, RerunsAreByteIdentical) {
  temp_dir t;
  std::string urls;
  for (int i = 0; i < 40; ++i)
    urls += "/" +
            std::string(i % 3 == 0   ? "a"
                        : i % 3 == 1 ? "b"
                                     : "c") +
            "/" + std::to_string(i) + "\n";
  write_file(t / "urls.txt", urls);
  const std::vector<std::string> flags{
      "--max-urls", "4",         "--section-by", "first-segment",
      "--section",  "bees=b/**", t / "urls.txt"};
  auto one = sequential_check(t / "one", flags);
  auto two = sequential_check(t / "two", flags);
  EXPECT_EQ(snapshot(t / "one"), snapshot(t / "two"));
  EXPECT_EQ(one.report["sections"], two.report["sections"]);
  EXPECT_EQ(one.report["sections"].size(), 3u);  // a, bees, c
}

TEST(GenerateSections, HreflangClustersSpanSections) {
  temp_dir t;
  write_file(
      t / "urls.jsonl",
      "{\"loc\": \"/en/a\", \"section\": \"en\", \"alternates\": {\"en\": "
      "\"/en/a\", \"de\": \"/de/a\"}}\n"
      "{\"loc\": \"/de/a\", \"section\": \"de\"}\n"
      "{\"loc\": \"/en/a\", \"section\": \"de\"}\n");
  auto g = sequential_check(t / "out", {t / "urls.jsonl"});
  EXPECT_EQ(g.report["duplicates"], 1);
  EXPECT_THAT(sitemap_names(g.set), ElementsAre("sitemap-de-1-<h>.xml.gz",
                                                "sitemap-en-1-<h>.xml.gz"));
  // The page in section de gets its return link, from a cluster met in en.
  const set_file& de = file_named(g.set, "sitemap-de-");
  EXPECT_THAT(de.content, HasSubstr("hreflang=\"en\""));
  EXPECT_THAT(locs_of(de), ElementsAre("de/a"));
}

// Files written before the first hreflang cluster are read back and
// rewritten: each entry keeps its section.
TEST(GenerateSections, EntriesReadBackForClustersKeepTheirSections) {
  temp_dir t;
  write_file(t / "urls.jsonl",
             "{\"loc\": \"/blog/x\", \"section\": \"blog\"}\n"
             "{\"loc\": \"/shop/y\", \"section\": \"shop\"}\n"
             "{\"loc\": \"/z\"}\n"
             "{\"loc\": \"/en/a\", \"section\": \"en\", \"alternates\": "
             "{\"en\": \"/en/a\", \"de\": \"/de/a\"}}\n"
             "{\"loc\": \"/de/a\", \"section\": \"de\"}\n");
  auto g = sequential_check(t / "out", {"--max-urls", "1", t / "urls.jsonl"});
  EXPECT_THAT(sitemap_names(g.set),
              ElementsAre("sitemap-1-<h>.xml.gz", "sitemap-blog-1-<h>.xml.gz",
                          "sitemap-de-1-<h>.xml.gz", "sitemap-en-1-<h>.xml.gz",
                          "sitemap-shop-1-<h>.xml.gz"));
  EXPECT_THAT(locs_of(file_named(g.set, "sitemap-shop-")),
              ElementsAre("shop/y"));
  EXPECT_THAT(locs_of(file_named(g.set, "sitemap-1-")), ElementsAre("z"));
}

// Past the memory budget, entries wait on disk with their section: the
// same files.
TEST(GenerateSections, TheMemoryBudgetChangesNothing) {
  temp_dir t;
  write_file(t / "urls.txt", std::string(kUrls) + "/blog/a.html\n/b\n");
  const std::vector<std::string> flags{"--section", "blog=blog/", "--section",
                                       "help=help/", t / "urls.txt"};
  auto in_memory = sequential_check(t / "one", flags);
  std::vector<std::string> on_disk{"--memory-budget", "0"};
  on_disk.insert(on_disk.end(), flags.begin(), flags.end());
  auto spilled = sequential_check(t / "two", on_disk);
  EXPECT_GT(spilled.report["spilled"].get<int>(), 0);
  EXPECT_EQ(snapshot(t / "one"), snapshot(t / "two"));
  EXPECT_EQ(in_memory.report["sections"], spilled.report["sections"]);
}

TEST(GenerateSections, BadSectionsAreRefused) {
  temp_dir t;
  write_file(t / "urls.txt", kUrls);
  auto upper = run_sitemill({"generate", "--out", t / "out", "--base-url", base,
                             "--section", "Blog=blog/", t / "urls.txt"});
  EXPECT_EQ(upper.exit_code, 2);
  EXPECT_THAT(upper.err, HasSubstr("\"Blog\": a section name uses only "
                                   "lowercase letters a-z, digits"));
  auto no_glob = run_sitemill({"generate", "--out", t / "out", "--base-url",
                               base, "--section", "blog", t / "urls.txt"});
  EXPECT_EQ(no_glob.exit_code, 2);
  EXPECT_THAT(no_glob.err, HasSubstr("a section is NAME=GLOB"));
  auto twice =
      run_sitemill({"generate", "--out", t / "out", "--base-url", base,
                    "--section", "a=x/", "--section", "a=y/", t / "urls.txt"});
  EXPECT_NE(twice.exit_code, 0);
  EXPECT_THAT(twice.err, HasSubstr("\"a\" is given twice"));
  EXPECT_THAT(twice.err, HasSubstr("--section"));
  auto news =
      run_sitemill({"generate", "--news", "--out", t / "out", "--base-url",
                    base, "--section", "news=news/", t / "urls.txt"});
  EXPECT_NE(news.exit_code, 0);
  EXPECT_THAT(news.err, HasSubstr("names the Google News sitemaps"));
  auto stream = run_sitemill({"generate", "--out", "-", "--base-url", base,
                              "--section", "blog=blog/", t / "urls.txt"});
  EXPECT_NE(stream.exit_code, 0);
  EXPECT_THAT(stream.err,
              HasSubstr("sections are written to files of their own"));
  EXPECT_FALSE(std::filesystem::exists(t / "out"));
}

TEST(GenerateSections, StatsAndTheReportCountPerSection) {
  temp_dir t;
  write_file(t / "urls.txt", kUrls);
  auto g = sequential_check(
      t / "out", {"--section", "products=products/", "--section", "blog=blog/",
                  t / "urls.txt"});
  auto stats = run_sitemill({"stats", "--json", t / "out"});
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  const json s = json::parse(stats.out);
  ASSERT_EQ(s["sections"].size(), 3u) << s["sections"];
  EXPECT_EQ(s["sections"][0]["name"], "");
  EXPECT_EQ(s["sections"][0]["urls"], 4);
  EXPECT_EQ(s["sections"][1],
            json({{"name", "blog"},
                  {"files", 1},
                  {"urls", 2},
                  {"bytes", g.report["sections"][1]["bytes"]}}));
  EXPECT_EQ(s["sections"][2]["name"], "products");
  auto text = run_sitemill({"stats", t / "out"});
  EXPECT_THAT(text.out,
              HasSubstr("URLs per section (as the manifest records them):"));
  EXPECT_THAT(text.out, HasSubstr("  products"));

  auto report = run_sitemill({"report", t / "out", "-o", t / "report.html"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const std::string html = read_file(t / "report.html");
  EXPECT_THAT(html, HasSubstr("<h2>URLs per section</h2>"));
  EXPECT_THAT(html, HasSubstr("<td class=\"loc\">products</td>"));
}

std::vector<std::string> shard_args(const temp_dir& t, const char* shard,
                                    std::vector<std::string> extra) {
  std::vector<std::string> args{"generate", "--base-url", base,
                                "--out",    t / "out",    "--shard",
                                shard,      "--layout",   "sequential"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back(t / "urls.txt");
  return args;
}

TEST(GenerateSections, MergeRefusesShardsWhoseSectionsDiffer) {
  temp_dir t;
  std::string urls;
  for (int i = 0; i < 60; ++i)
    urls += "/" + std::string(i % 2 ? "blog" : "shop") + "/" +
            std::to_string(i) + "\n";
  write_file(t / "urls.txt", urls);
  const std::vector<std::string> same{"--section", "blog=blog/"};
  for (const char* shard : {"0/2", "1/2"})
    ASSERT_EQ(run_sitemill(shard_args(t, shard, same)).exit_code, 0);
  auto merged = run_sitemill({"merge", "--out", t / "out", "--json"});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  auto set = expect_valid_set(t / "out");
  EXPECT_THAT(
      sitemap_names(set),
      ElementsAre("sitemap-1-<h>.xml.gz", "sitemap-2-<h>.xml.gz",
                  "sitemap-blog-1-<h>.xml.gz", "sitemap-blog-2-<h>.xml.gz"))
      << "each section's files from every shard, the default section first";
  EXPECT_EQ(set.urls, 60u);

  ASSERT_EQ(run_sitemill(shard_args(t, "1/2", {"--section", "blog=blog/**"}))
                .exit_code,
            0);
  auto mixed = run_sitemill({"merge", "--out", t / "out", "--json"});
  EXPECT_EQ(mixed.exit_code, 1);
  EXPECT_EQ(json::parse(mixed.out)["outcome"], "refused");
  EXPECT_THAT(mixed.out, HasSubstr("section=blog="));
}

}  // namespace
}  // namespace sitemill::testing
