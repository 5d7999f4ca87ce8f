// End to end (issue 11): `generate --from-dir --images` on a multilingual
// site directory (en, de, fr; one page names only one direction, one names
// nothing) gives complete hreflang clusters and the pages' images, in files
// the official schemas (all.xsd) accept and sitemill's parser reads back.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "sitemill/entry/extensions.h"
#include "sitemill/parse/sitemap_parser.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using json = nlohmann::json;

const std::string base = "https://www.example.com/";

std::string page(std::string_view lang, std::string_view head,
                 std::string_view body) {
  return "<!doctype html><html lang=\"" + std::string(lang) +
         "\"><head><meta charset=\"utf-8\"><title>" + std::string(lang) +
         "</title>" + std::string(head) + "</head><body>" + std::string(body) +
         "</body></html>\n";
}

std::string link(std::string_view lang, std::string_view href) {
  return "<link rel=\"alternate\" hreflang=\"" + std::string(lang) +
         "\" href=\"" + std::string(href) + "\">";
}

// A small multilingual site, as a static site generator writes it.
void make_site(const std::string& site) {
  namespace fs = std::filesystem;
  for (const char* d : {"en", "de", "fr"})
    fs::create_directories(site + "/" + d);
  // en names every language, itself, x-default and a sister site abroad.
  write_file(site + "/en/index.html",
             page("en",
                  link("en", "/en/") + link("de", "../de/") +
                      link("fr", "https://www.example.com/fr/") +
                      link("x-default", "/en/") +
                      link("es", "https://www.example.es/") +
                      "<meta property=\"og:image\" "
                      "content=\"https://cdn.example.net/salmon-og.jpg\">",
                  "<h1>Salmon</h1>"
                  "<img src=\"/img/salmon.jpg\" srcset=\"/img/salmon-800.jpg "
                  "800w, /img/salmon-1600.jpg 1600w\" alt=\"Salmon\">"
                  "<img src=\"/px.gif\" width=\"1\" height=\"1\">"
                  "<img src=\"data:image/gif;base64,R0lGODlh\">"
                  "<img src=\"https://cdn.example.net/salmon-og.jpg\">"));
  // de names only en: one direction, not even itself.
  write_file(site + "/de/index.html",
             page("de", link("en", "/en/"),
                  "<h1>Lachs</h1><img data-src=\"/img/lachs.jpg\" "
                  "src=\"/img/placeholder.gif\">"));
  // fr names nothing: it joins through en naming it.
  write_file(site + "/fr/index.html",
             page("fr", "<base href=\"/fr/media/\">",
                  "<h1>Saumon</h1><img src=\"saumon.jpg\">"));
  // A page in no cluster.
  write_file(site + "/about.html", page("en", "", "<p>About</p>"));
}

// What sitemill's own parser reads back from a sitemap.
struct read_back {
  bool schema_valid = false;
  std::vector<std::string> locs;
  std::map<std::string, std::map<std::string, std::string>> links;
  std::map<std::string, std::vector<std::string>> images;
};

read_back parse_sitemap(std::string_view bytes) {
  struct handler final : parse_handler {
    read_back* out;
    void on_entry(const parsed_entry& e) override {
      const std::string loc(e.loc.text);
      out->locs.push_back(loc);
      const auto fields = extension_fields();
      std::string lang;
      for (const extension_value& v : e.extensions) {
        const extension_field& f = fields[v.field];
        if (f.kind == extension_kind::alternate && f.key == "@hreflang")
          lang = v.text;
        if (f.kind == extension_kind::alternate && f.key == "@href")
          out->links[loc][lang] = v.text;
        if (f.kind == extension_kind::image && f.key == "loc")
          out->images[loc].emplace_back(v.text);
      }
    }
  } h;
  read_back r;
  h.out = &r;
  r.schema_valid = parse_bytes(bytes, h).schema_valid;
  return r;
}

// xmllint's verdict with the official schemas, offline (the catalog maps
// xhtml1-strict.xsd's one network import to the bundled xml.xsd).
run_result xmllint_all_xsd(const std::string& file) {
  const std::string dir = SITEMILL_SCHEMA_DIR;
  return run_program(
      "/usr/bin/env",
      {"XML_CATALOG_FILES=" + dir + "/catalog.xml", "xmllint", "--noout",
       "--nonet", "--schema", dir + "/all.xsd", file});
}

TEST(GenerateDirExtensions, MultilingualSiteGetsCompleteClustersAndImages) {
  temp_dir t;
  const std::string site = t / "site";
  make_site(site);
  const std::string out = t / "out";
  const run_result run =
      run_sitemill({"generate", "--json", "--from-dir", site, "--base-url",
                    base, "--out", out, "--images", "--no-gzip"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json report = parse_report(run);
  ASSERT_EQ(report["entry"], "sitemap.xml") << report.dump();
  const std::string file = out + "/sitemap.xml";

  const run_result lint = xmllint_all_xsd(file);
  EXPECT_EQ(lint.exit_code, 0) << lint.err;
  EXPECT_THAT(lint.err, HasSubstr("validates"));

  const read_back got = parse_sitemap(read_file(file));
  EXPECT_TRUE(got.schema_valid);
  EXPECT_THAT(got.locs, ElementsAre(base + "about.html", base + "de/",
                                    base + "en/", base + "fr/"));

  // Every member lists every member, itself included, whichever links its
  // own page had; the sister site abroad is a member too.
  const std::map<std::string, std::string> cluster = {
      {"de", base + "de/"},
      {"en", base + "en/"},
      {"es", "https://www.example.es/"},
      {"fr", base + "fr/"},
      {"x-default", base + "en/"}};
  for (const char* member : {"en/", "de/", "fr/"})
    EXPECT_EQ(got.links.at(base + member), cluster) << member;
  EXPECT_EQ(got.links.count(base + "about.html"), 0u);

  // Images: og:image first (document order), srcset's largest, CDN hosts
  // kept, each once; no tracking pixel, no data: URI; a lazy loader's
  // data-src; a <base href>.
  EXPECT_THAT(got.images.at(base + "en/"),
              ElementsAre("https://cdn.example.net/salmon-og.jpg",
                          base + "img/salmon-1600.jpg"));
  EXPECT_THAT(got.images.at(base + "de/"), ElementsAre(base + "img/lachs.jpg"));
  EXPECT_THAT(got.images.at(base + "fr/"),
              ElementsAre(base + "fr/media/saumon.jpg"));
  EXPECT_EQ(got.images.count(base + "about.html"), 0u);

  // The alternate outside --base-url is written, and said to need its own
  // site's sitemap for the return links.
  std::string warnings;
  for (const auto& w : report["warnings"])
    warnings += w["reason"].get<std::string>() + "\n";
  EXPECT_THAT(warnings,
              HasSubstr("alternate https://www.example.es/ is outside the "
                        "base URL"));
}

TEST(GenerateDirExtensions, ImagesAreListedOnlyWithTheFlag) {
  temp_dir t;
  const std::string site = t / "site";
  make_site(site);
  const run_result run =
      run_sitemill({"generate", "--from-dir", site, "--base-url", base, "--out",
                    t / "out", "--no-gzip", "--quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const read_back got = parse_sitemap(read_file(t / "out/sitemap.xml"));
  EXPECT_TRUE(got.schema_valid);
  EXPECT_TRUE(got.images.empty());
  EXPECT_EQ(got.links.size(), 3u);  // the alternates are always read
}

TEST(GenerateDirExtensions, ImagesWithoutADirectoryIsAUsageError) {
  temp_dir t;
  write_file(t / "urls.txt", base + "\n");
  const run_result r = run_sitemill({"generate", "--base-url", base, "--out",
                                     t / "out", "--images", t / "urls.txt"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--images lists the images of the pages of "
                               "--from-dir"));
  EXPECT_FALSE(std::filesystem::exists(t / "out"));
}

TEST(GenerateDirExtensions, HelpExplainsTheImagesFlag) {
  const run_result r = run_sitemill({"generate", "--help"});
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("--images"));
  EXPECT_THAT(r.out, HasSubstr("srcset"));
}

}  // namespace
}  // namespace sitemill::testing
