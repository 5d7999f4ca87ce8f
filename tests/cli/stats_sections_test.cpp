// stats counts a published set's sections as its manifest records them, so
// names that read two ways by file name alone ("dept-1": the root file of
// section dept-1, or leaf 1 of section dept; "2024": a section or a file
// number) are counted right; without a manifest, and for a manifest entry
// no run could have written, the file's name is read as before.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using json = nlohmann::json;
namespace fs = std::filesystem;

const std::string base = "https://www.example.com/";

const char* const kUrls =
    "/\n/about.html\n/dept/grill\n/dept/steak\n/dept/oven\n/blog/a.html\n"
    "/blog/b.html\n";

std::string manifest_of(const std::string& out) {
  return fs::path(out).parent_path() / ".sitemill" / fs::path(out).filename() /
         "manifest-sitemap.json";
}

json sections_of(const std::string& target) {
  auto stats = run_sitemill({"stats", "--json", target});
  EXPECT_EQ(stats.exit_code, 0) << stats.err;
  return json::parse(stats.out)["sections"];
}

json section(const std::string& name, int urls) {
  return {{"name", name}, {"urls", urls}};
}

// name and urls of each, for comparing
json names_and_urls(const json& sections) {
  json out = json::array();
  for (const json& s : sections)
    out.push_back(section(s["name"].get<std::string>(), s["urls"].get<int>()));
  return out;
}

TEST(StatsSections, TheManifestRecordsEachSitemapsSection) {
  temp_dir t;
  write_file(t / "urls.txt", kUrls);
  // The stable layout: each section fits one file, named
  // sitemap-dept-1-<hash>.xml.gz and sitemap-2024-<hash>.xml.gz.
  auto g = generate_and_check(
      t / "out", {"--layout", "stable", "--section", "dept-1=dept/",
                  "--section", "2024=blog/", t / "urls.txt"});
  ASSERT_EQ(g.run.exit_code, 0) << g.run.err;
  const std::regex root_leaf("sitemap-dept-1-[0-9a-f]{12}\\.xml\\.gz");
  int root_leaves = 0;
  for (const set_file* f : g.set.sitemaps())
    root_leaves += std::regex_match(f->path, root_leaf);
  ASSERT_EQ(root_leaves, 1) << "a name that reads two ways";

  const json manifest = json::parse(read_file(manifest_of(t / "out")));
  int recorded = 0;
  for (const json& f : manifest["files"]) {
    if (f["type"] == "urlset") {
      ASSERT_TRUE(f.contains("section")) << f;
      ++recorded;
    } else {
      EXPECT_FALSE(f.contains("section")) << f;  // the index
    }
  }
  EXPECT_EQ(recorded, 3);

  EXPECT_EQ(names_and_urls(sections_of(t / "out")),
            json::array({section("", 2), section("2024", 2),
                         section("dept-1", 3)}));
  auto text = run_sitemill({"stats", t / "out"});
  EXPECT_THAT(text.out,
              HasSubstr("URLs per section (as the manifest records them):"));
  EXPECT_THAT(text.out, HasSubstr("  dept-1 "));
}

// kUrls in sections shop and blog, published to t/out.
void publish_shop_and_blog(const temp_dir& t) {
  write_file(t / "urls.txt", kUrls);
  auto g = generate_and_check(t / "out", {"--section", "shop=dept/",
                                          "--section", "blog=blog/",
                                          t / "urls.txt"});
  ASSERT_EQ(g.run.exit_code, 0) << g.run.err;
}

TEST(StatsSections, WithoutAManifestTheNamesAreRead) {
  temp_dir t;
  ASSERT_NO_FATAL_FAILURE(publish_shop_and_blog(t));
  // The index file alone: no manifest beside a file given by path.
  const std::string index = t / "out/sitemap.xml";
  EXPECT_EQ(names_and_urls(sections_of(index)),
            json::array({section("", 2), section("blog", 2),
                         section("shop", 3)}));
  auto text = run_sitemill({"stats", index});
  EXPECT_THAT(text.out, HasSubstr("URLs per section (by file name):"));
}

TEST(StatsSections, ASectionNoRunCouldWriteIsNotBelieved) {
  temp_dir t;
  ASSERT_NO_FATAL_FAILURE(publish_shop_and_blog(t));
  const std::string path = manifest_of(t / "out");
  json manifest = json::parse(read_file(path));
  for (json& f : manifest["files"])
    if (f.value("section", "") == "blog") f["section"] = "Blog\x1b[31m/..";
  std::ofstream(path, std::ios::trunc) << manifest.dump();

  // The tampered file is read by its name; the others as recorded.
  EXPECT_EQ(names_and_urls(sections_of(t / "out")),
            json::array({section("", 2), section("blog", 2),
                         section("shop", 3)}));
  auto text = run_sitemill({"stats", t / "out"});
  EXPECT_THAT(text.out, Not(HasSubstr("\x1b[31m")));
}

}  // namespace
}  // namespace sitemill::testing
