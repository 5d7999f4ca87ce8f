// generate from JSONL and CSV lists that carry hreflang alternates, images,
// a video and news (issue 11): the published set validates against the
// official schemas (all.xsd), and reading it back with sitemill's own
// parser gives every field the list gave (write, read, compare).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "sitemill/entry/extensions.h"
#include "sitemill/parse/sitemap_parser.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;

const std::string base = "https://www.example.com/";
const std::string en = base + "en/grill";
const std::string de = base + "de/grill";

// A URL's extension items as the parser reads them: "image: loc=...;
// caption=...", keys as in the table. Alternates are sorted (cluster
// completion may order them) and their default rel="alternate" left out.
using items = std::vector<std::string>;

struct reader final : parse_handler {
  std::map<std::string, items> urls;
  std::vector<std::string> errors;
  void on_entry(const parsed_entry& e) override {
    items& out = urls[std::string(e.loc.text)];
    const auto fields = extension_fields();
    std::vector<std::string> links;
    const auto& values = e.extensions;
    for (std::size_t i = 0; i < values.size();) {
      const std::uint32_t number = values[i].item;
      const extension_field& first = fields[values[i].field];
      std::string item(namespace_of(first.kind).name);
      item += ":";
      char sep = ' ';
      for (; i < values.size() && values[i].item == number; ++i) {
        const std::string_view key = fields[values[i].field].key;
        if (key == "@rel" && values[i].text == "alternate") continue;
        item += sep;
        item += key;
        item += "=";
        item += values[i].text;
        sep = ';';
      }
      (first.kind == extension_kind::alternate ? links : out)
          .push_back(std::move(item));
    }
    std::sort(links.begin(), links.end());
    out.insert(out.begin(), links.begin(), links.end());
  }
  void on_diagnostic(const diagnostic& d) override {
    if (d.level == severity::error) errors.push_back(d.message);
  }
};

std::map<std::string, items> read_back(const published_set& set) {
  reader r;
  for (const set_file* f : set.sitemaps()) parse_bytes(f->content, r);
  EXPECT_THAT(r.errors, ::testing::IsEmpty());
  return r.urls;
}

// Validates every urlset of the set with xmllint against all.xsd (the
// sitemap schema and every extension schema), offline.
void expect_schema_valid(const std::string& dir, const published_set& set) {
  for (const set_file* f : set.sitemaps()) {
    const std::string plain = dir + "/" + f->path + ".plain.xml";
    write_file(plain, f->content);
    const std::string schemas = SITEMILL_SCHEMA_DIR;
    const run_result r = run_program(
        "/usr/bin/env",
        {"XML_CATALOG_FILES=" + schemas + "/catalog.xml", "xmllint", "--nonet",
         "--noout", "--schema", schemas + "/all.xsd", plain});
    EXPECT_EQ(r.exit_code, 0) << f->path << ": " << r.err;
    std::remove(plain.c_str());
  }
}

// What both lists below give, in the writer's order.
const std::map<std::string, items> shared_expectation = {
    {en,
     {"hreflang: @hreflang=de;@href=" + de,
      "hreflang: @hreflang=en;@href=" + en,
      "hreflang: @hreflang=x-default;@href=" + en,
      "image: loc=https://cdn.example.com/grill.jpg;caption=A grill, hot",
      "image: loc=https://cdn.example.com/steak.jpg",
      "video: thumbnail_loc=https://cdn.example.com/grill-thumb.jpg;"
      "title=Grilling steaks;description=How to grill.;"
      "content_loc=https://cdn.example.com/grill.mp4;duration=600;"
      "tag=steak;tag=summer;family_friendly=yes;price=1.99;"
      "price@currency=EUR",
      "news: publication.name=Example Times;publication.language=en;"
      "publication_date=2026-11-23T09:00:00Z;title=Summer grilling"}},
    {de,
     {"hreflang: @hreflang=de;@href=" + de,
      "hreflang: @hreflang=en;@href=" + en,
      "hreflang: @hreflang=x-default;@href=" + en,
      "image: loc=https://cdn.example.com/grill.jpg"}},
    {base + "plain", {}},
};

TEST(GenerateListExtensions, JsonlExtensionsArePublishedValidAndReadBackWhole) {
  temp_dir t;
  write_file(
      t / "urls.jsonl",
      "{\"loc\": \"" + en + "\", \"alternates\": {\"en\": \"" + en +
          "\", \"de\": \"" + de + "\", \"x-default\": \"" + en +
          "\"}, \"images\": [{\"loc\": \"https://cdn.example.com/grill.jpg\","
          " \"caption\": \"A grill, hot\"}, "
          "\"https://cdn.example.com/steak.jpg\"], \"videos\": "
          "[{\"thumbnail_loc\": \"https://cdn.example.com/grill-thumb.jpg\","
          " \"title\": \"Grilling steaks\", \"description\": \"How to grill.\","
          " \"content_loc\": \"https://cdn.example.com/grill.mp4\", "
          "\"duration\": 600, \"family_friendly\": true, \"tag\": [\"steak\", "
          "\"summer\"], \"price\": {\"value\": \"1.99\", \"currency\": "
          "\"EUR\"}}], \"news\": {\"publication\": {\"name\": \"Example "
          "Times\", \"language\": \"en\"}, \"publication_date\": "
          "\"2026-11-23T09:00:00Z\", \"title\": \"Summer grilling\"}}\n"
          // Named by en only: cluster completion gives it the whole cluster.
          "{\"loc\": \"" +
          de + "\", \"image\": \"https://cdn.example.com/grill.jpg\"}\n" +
          "{\"loc\": \"" + base + "plain\"}\n");
  auto g = generate_and_check(t / "out", {"--no-gzip", t / "urls.jsonl"});
  EXPECT_THAT(g.report["warnings"], ::testing::IsEmpty())
      << g.report["warnings"].dump();
  expect_schema_valid(t.path(), g.set);
  EXPECT_EQ(read_back(g.set), shared_expectation);
}

TEST(GenerateListExtensions, CsvColumnsArePublishedValidAndReadBackWhole) {
  temp_dir t;
  write_file(
      t / "urls.csv",
      "loc,alternate:en,alternate:de,alternate:x-default,image,image:caption,"
      "image2,video:thumbnail_loc,video:title,video:description,"
      "video:content_loc,video:duration,video:family_friendly,video:tag,"
      "video:tag,video:price,video:price@currency,news:name,news:language,"
      "news:publication_date,news:title\n" +
          en + "," + en + "," + de + "," + en +
          ",https://cdn.example.com/grill.jpg,\"A grill, hot\","
          "https://cdn.example.com/steak.jpg,"
          "https://cdn.example.com/grill-thumb.jpg,Grilling steaks,"
          "How to grill.,https://cdn.example.com/grill.mp4,600,yes,steak,"
          "summer,1.99,EUR,Example Times,en,2026-11-23T09:00:00Z,"
          "Summer grilling\n" +
          de + ",,,,https://cdn.example.com/grill.jpg,,,,,,,,,,,,,,,,\n" +
          // Every cell given: a row with fewer than the header's is warned
          // about (generate_exports_test.cpp).
          base + "plain" + std::string(20, ',') + "\n");
  auto g = generate_and_check(t / "out", {"--no-gzip", t / "urls.csv"});
  EXPECT_THAT(g.report["warnings"], ::testing::IsEmpty())
      << g.report["warnings"].dump();
  expect_schema_valid(t.path(), g.set);
  EXPECT_EQ(read_back(g.set), shared_expectation);
}

TEST(GenerateListExtensions, JsonlVideoKeepsEveryFieldOfTheTable) {
  temp_dir t;
  const std::string video =
      "{\"thumbnail_loc\": \"https://cdn.example.com/t.jpg\", \"title\": "
      "\"T\", \"description\": \"D\", \"content_loc\": "
      "\"https://cdn.example.com/v.mp4\", \"player_loc\": {\"value\": "
      "\"https://www.example.com/player?v=1\", \"allow_embed\": true, "
      "\"autoplay\": \"ap=1\"}, \"duration\": 600, \"expiration_date\": "
      "\"2030-01-01\", \"rating\": 4.2, \"content_segment_loc\": [{\"value\": "
      "\"https://cdn.example.com/s1.mp4\", \"duration\": 30}], "
      "\"view_count\": 12, \"publication_date\": \"2026-11-01\", \"tag\": "
      "[\"a\", \"b\"], \"category\": \"Food\", \"family_friendly\": false, "
      "\"restriction\": {\"value\": \"IE GB\", \"relationship\": \"allow\"}, "
      "\"gallery_loc\": {\"value\": \"https://www.example.com/g\", "
      "\"title\": \"G\"}, \"price\": [{\"value\": \"1.99\", \"currency\": "
      "\"EUR\", \"type\": \"rent\", \"resolution\": \"hd\"}, {\"value\": "
      "\"5\", \"currency\": \"USD\"}], \"requires_subscription\": false, "
      "\"uploader\": {\"value\": \"Ann\", \"info\": "
      "\"https://www.example.com/ann\"}, \"tvshow\": {\"show_title\": "
      "\"Cooking\", \"video_type\": \"full\", \"episode_title\": \"One\", "
      "\"season_number\": 2, \"episode_number\": 3, \"premier_date\": "
      "\"2026-01-01\"}, \"platform\": {\"value\": \"web tv\", "
      "\"relationship\": \"allow\"}, \"live\": false, \"id\": {\"value\": "
      "\"x1\", \"type\": \"url\"}}";
  write_file(t / "v.jsonl",
             "{\"loc\": \"" + base + "v\", \"video\": " + video + "}\n");
  auto g = generate_and_check(t / "out", {"--no-gzip", t / "v.jsonl"});
  EXPECT_THAT(g.report["warnings"], ::testing::IsEmpty())
      << g.report["warnings"].dump();
  expect_schema_valid(t.path(), g.set);
  const auto got = read_back(g.set);
  ASSERT_EQ(got.count(base + "v"), 1u);
  EXPECT_EQ(got.at(base + "v"),
            (items{"video: thumbnail_loc=https://cdn.example.com/t.jpg;title=T;"
                   "description=D;content_loc=https://cdn.example.com/v.mp4;"
                   "player_loc=https://www.example.com/player?v=1;"
                   "player_loc@allow_embed=yes;player_loc@autoplay=ap=1;"
                   "duration=600;expiration_date=2030-01-01;rating=4.2;"
                   "content_segment_loc=https://cdn.example.com/s1.mp4;"
                   "content_segment_loc@duration=30;view_count=12;"
                   "publication_date=2026-11-01;tag=a;tag=b;category=Food;"
                   "family_friendly=no;restriction=IE GB;"
                   "restriction@relationship=allow;"
                   "gallery_loc=https://www.example.com/g;gallery_loc@title=G;"
                   "price=1.99;price@currency=EUR;price@type=rent;"
                   "price@resolution=hd;price=5;price@currency=USD;"
                   "requires_subscription=no;uploader=Ann;"
                   "uploader@info=https://www.example.com/ann;"
                   "tvshow.show_title=Cooking;tvshow.video_type=full;"
                   "tvshow.episode_title=One;tvshow.season_number=2;"
                   "tvshow.episode_number=3;tvshow.premier_date=2026-01-01;"
                   "platform=web tv;platform@relationship=allow;live=no;id=x1;"
                   "id@type=url"}));
}

TEST(GenerateListExtensions, BadValuesAndUnknownKeysWarnWithTheirLine) {
  temp_dir t;
  write_file(t / "urls.jsonl",
             "{\"loc\": \"" + base +
                 "a\", \"colour\": \"red\", \"images\": "
                 "[\"ftp://x/1.jpg\", \"https://cdn.example.com/ok.jpg\"]}\n"
                 "{\"loc\": \"" +
                 base +
                 "b\", \"colour\": \"blue\", \"video\": "
                 "{\"title\": {\"nested\": 1}}}\n");
  auto g = generate_and_check(t / "out", {"--no-gzip", t / "urls.jsonl"});
  std::string warnings;
  for (const auto& w : g.report["warnings"])
    warnings += w["input"].get<std::string>() + ":" +
                std::to_string(w["line"].get<int>()) + ": " +
                w["reason"].get<std::string>() + "\n";
  EXPECT_THAT(warnings, HasSubstr(":1: unknown key \"colour\" ignored"));
  EXPECT_EQ(warnings.find("\"colour\"", warnings.find("colour") + 8),
            std::string::npos)
      << "one warning per key per input: " << warnings;
  EXPECT_THAT(warnings, HasSubstr(":1: image:loc \"ftp://x/1.jpg\" dropped"));
  EXPECT_THAT(warnings, HasSubstr(":2: video:title dropped: an object"));
  const auto got = read_back(g.set);
  EXPECT_EQ(got.at(base + "a"),
            (items{"image: loc=https://cdn.example.com/ok.jpg"}));
  EXPECT_EQ(got.at(base + "b"), items{}) << "the URL is kept";
}

TEST(GenerateListExtensions, StrictRefusesAValueOfTheWrongTypeNotAnUnknownKey) {
  temp_dir t;
  write_file(t / "unknown.jsonl",
             "{\"loc\": \"" + base + "a\", \"colour\": \"red\"}\n");
  write_file(t / "wrong.jsonl",
             "{\"loc\": \"" + base + "a\", \"image\": true}\n");
  auto passes = run_sitemill({"generate", "--base-url", base, "--out", t / "o1",
                              "--strict", t / "unknown.jsonl"});
  EXPECT_EQ(passes.exit_code, 0) << passes.err;
  auto refused = run_sitemill({"generate", "--base-url", base, "--out",
                               t / "o2", "--strict", t / "wrong.jsonl"});
  EXPECT_EQ(refused.exit_code, 1) << refused.err;
  EXPECT_THAT(refused.err, HasSubstr("image:loc dropped: true or false"));
  EXPECT_FALSE(std::filesystem::exists(t / "o2/sitemap.xml"));
}

TEST(GenerateListExtensions, ColumnsFlagNamesExtensionColumns) {
  temp_dir t;
  write_file(t / "urls.tsv", base + "a\thttps://cdn.example.com/a.jpg\tCat\n");
  auto g = generate_and_check(
      t / "out",
      {"--no-gzip", "--columns", "loc,image,image:caption", t / "urls.tsv"});
  EXPECT_EQ(read_back(g.set).at(base + "a"),
            (items{"image: loc=https://cdn.example.com/a.jpg;caption=Cat"}));
  auto bad = run_sitemill({"generate", "--base-url", base, "--out", t / "o2",
                           "--columns", "loc,image:cat", t / "urls.tsv"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("unknown column \"image:cat\""));
}

}  // namespace
}  // namespace sitemill::testing
