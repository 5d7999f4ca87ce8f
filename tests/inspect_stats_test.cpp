// The numbers of a set (inspect/stats.h), read through the walker.
#include <gtest/gtest.h>

#include <filesystem>

#include "inspect_support.h"
#include "sitemill/inspect/stats.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

const std::string site = "https://www.example.com/";

set_stats stats_of(const std::string& given, std::string_view set = {},
                   bool schema_checks = false) {
  auto in = resolve_set_input(given, set);
  EXPECT_TRUE(in) << (in ? "" : in.err().message);
  if (!in) return {};
  inspect_options o;
  o.parse.schema_checks = schema_checks;
  auto s = compute_stats(*in, o);
  EXPECT_TRUE(s) << (s ? "" : s.err().message);
  return s ? *s : set_stats{};
}

std::uint64_t count_of(const std::vector<key_count>& v, std::string_view k) {
  for (const auto& kc : v)
    if (kc.key == k) return kc.count;
  return 0;
}

TEST(InspectStats, CountsFieldsOfOneUrlset) {
  temp_dir t;
  write_file(
      t / "s.xml",
      urlset_xml(
          {{site + "blog/a", lastmod("2026-10-05") +
                                 "<changefreq>daily</changefreq>"
                                 "<priority>0.5</priority>"},
           {site + "blog/b",
            lastmod("2026-11-01T10:00:00Z") + "<priority>0.55</priority>"},
           {site, "<changefreq>sometimes</changefreq>"},
           {site + "blog/a", lastmod("2026-10-06")},
           {site + "shop/x",
            lastmod("not a date") +
                "<xhtml:link rel=\"alternate\" hreflang=\"de\" href=\"" + site +
                "de/shop/x\"/>"
                "<xhtml:link rel=\"alternate\" hreflang=\"en\" href=\"" +
                site +
                "shop/x\"/>"
                "<image:image><image:loc>" +
                site + "i.png</image:loc></image:image>"}}));
  const set_stats s = stats_of(t / "s.xml", {}, /*schema_checks=*/true);
  EXPECT_EQ(s.urls, 5u);
  EXPECT_EQ(s.files, 1u);
  EXPECT_EQ(s.indexes, 0u);
  EXPECT_EQ(s.distinct_urls, 4u);
  EXPECT_EQ(s.duplicate_entries, 1u);
  // Segments: blog x3, shop x1, the root x1.
  EXPECT_EQ(count_of(s.segments, "blog"), 3u);
  EXPECT_EQ(count_of(s.segments, "shop"), 1u);
  EXPECT_EQ(count_of(s.segments, "/"), 1u);
  EXPECT_EQ(count_of(s.lastmod_months, "2026-10"), 2u);
  EXPECT_EQ(count_of(s.lastmod_months, "2026-11"), 1u);
  EXPECT_EQ(s.lastmod_none, 1u);
  EXPECT_EQ(s.lastmod_invalid, 1u);
  EXPECT_EQ(s.changefreq[2], 1u);  // daily
  EXPECT_EQ(changefreq_label(2), "daily");
  EXPECT_EQ(s.changefreq[7], 3u);  // none
  EXPECT_EQ(s.changefreq[8], 1u);  // invalid: "sometimes"
  EXPECT_EQ(s.priority[5], 1u);    // 0.5
  EXPECT_EQ(s.priority[6], 1u);    // 0.55 rounds to 0.6
  EXPECT_EQ(s.priority[11], 3u);   // none
  EXPECT_EQ(priority_label(6), "0.6");
  const auto hreflang = static_cast<std::size_t>(extension_kind::alternate);
  const auto image = static_cast<std::size_t>(extension_kind::image);
  EXPECT_EQ(s.extensions[hreflang].urls, 1u);
  EXPECT_EQ(s.extensions[hreflang].items, 2u);
  EXPECT_EQ(s.extensions[image].urls, 1u);
  EXPECT_EQ(s.extensions[image].items, 1u);
  // The parser's findings are counted by code: the bad changefreq and the
  // lastmod that is not a date are errors.
  EXPECT_GE(s.errors, 2u);
  std::uint64_t by_code = 0;
  for (const auto& f : s.findings) by_code += f.count;
  EXPECT_EQ(by_code, s.errors + s.warnings + s.infos);
  ASSERT_EQ(s.documents.size(), 1u);
  EXPECT_EQ(s.documents[0].entries, 5u);
  ASSERT_TRUE(s.documents[0].bytes_on_disk.has_value());
  EXPECT_EQ(*s.documents[0].bytes_on_disk, s.documents[0].bytes);
}

TEST(InspectStats, ReadsAnIndexAndItsGzippedChildrenWithTheirRatio) {
  temp_dir t;
  std::vector<url_xml> many;
  for (int i = 0; i < 200; ++i)
    many.push_back({site + "p/" + std::to_string(i), lastmod("2025-01-01")});
  write_file(t / "a.xml.gz", gzip(urlset_xml(many)));
  write_file(t / "b.xml", urlset_xml({{site + "q/1", ""}}));
  write_file(t / "sitemap.xml", index_xml({site + "a.xml.gz", site + "b.xml"}));
  const set_stats s = stats_of(t.path());  // a directory: its sitemap.xml
  EXPECT_EQ(s.urls, 201u);
  EXPECT_EQ(s.files, 2u);
  EXPECT_EQ(s.indexes, 1u);
  EXPECT_EQ(s.gzipped_documents, 1u);
  EXPECT_EQ(s.documents.size(), 3u);
  EXPECT_GT(s.bytes_measured, 0u);
  // The gzipped child of 200 similar URLs compresses well below 1.
  EXPECT_LT(s.compression_ratio(), 0.8);
  EXPECT_EQ(count_of(s.lastmod_months, "2025-01"), 200u);
  EXPECT_EQ(s.lastmod_none, 1u);
  EXPECT_EQ(s.not_read, 0u);
}

TEST(InspectStats, CountsAMissingChildAsNotRead) {
  temp_dir t;
  write_file(t / "b.xml", urlset_xml({{site + "q/1", ""}}));
  write_file(t / "i.xml", index_xml({site + "b.xml", site + "gone.xml"}));
  const set_stats s = stats_of(t / "i.xml");
  EXPECT_EQ(s.urls, 1u);
  EXPECT_EQ(s.not_read, 1u);
  ASSERT_EQ(s.not_read_examples.size(), 1u);
  EXPECT_NE(s.not_read_examples[0].find("gone.xml"), std::string::npos);
}

TEST(InspectStats, AnUnreadableInputIsAnError) {
  temp_dir t;
  auto in = resolve_set_input(t / "missing.xml");
  ASSERT_TRUE(in);
  auto s = compute_stats(*in, inspect_options{});
  ASSERT_FALSE(s);
  EXPECT_NE(s.err().message.find("missing.xml"), std::string::npos);
}

TEST(InspectStats, KeepsTheLargestSegmentsAndCountsTheRestAsOther) {
  temp_dir t;
  std::vector<url_xml> urls;
  // 60 segments: s0 with 61 URLs ... s59 with 2 URLs.
  for (int seg = 0; seg < 60; ++seg)
    for (int i = 0; i < 61 - seg; ++i)
      urls.push_back(
          {site + "s" + std::to_string(seg) + "/" + std::to_string(i), ""});
  write_file(t / "s.xml", urlset_xml(urls));
  const set_stats s = stats_of(t / "s.xml");
  ASSERT_EQ(s.segments.size(), listed_segments);
  EXPECT_EQ(s.segments.front().key, "s0");
  EXPECT_EQ(s.segments.front().count, 61u);
  EXPECT_EQ(s.segments.back().key, "s49");
  // s50..s59 hold 11 + 10 + ... + 2 URLs.
  EXPECT_EQ(s.segments_other, 65u);
}

// Where earlier builds kept the manifest: in the set's own directory.
TEST(InspectInput, ADirectoryIsReadThroughTheManifestAnEarlierBuildLeftInIt) {
  temp_dir t;
  write_file(t / "entry-file.xml", urlset_xml({{site + "a", ""}}));
  write_file(t / ".sitemill-manifest-blog.json",
             R"({"sitemill_manifest":1,"entry":"entry-file.xml","files":[)"
             R"({"path":"entry-file.xml","type":"urlset","urls":1,)"
             R"("bytes":10,"digest":"00000000000000ab"}]})");
  auto in = resolve_set_input(t.path());
  ASSERT_TRUE(in) << in.err().message;
  EXPECT_EQ(in->target, t / "entry-file.xml");
  ASSERT_TRUE(in->manifest.has_value());
  EXPECT_EQ(in->manifest->files.at(0).digest, 0xabu);
  // A second set makes the choice explicit.
  write_file(t / ".sitemill-manifest-shop.json",
             R"({"sitemill_manifest":1,"entry":"entry-file.xml","files":[]})");
  auto two = resolve_set_input(t.path());
  ASSERT_FALSE(two);
  EXPECT_EQ(two.err().field, "set_name");
  EXPECT_TRUE(resolve_set_input(t.path(), "shop"));
  EXPECT_FALSE(resolve_set_input(t.path(), "nope"));
}

TEST(InspectInput, ADirectoryIsReadThroughTheManifestBesideIt) {
  temp_dir t;
  std::filesystem::create_directories(t / "site");
  std::filesystem::create_directories(t / ".sitemill/site");
  write_file(t / "site/entry-file.xml", urlset_xml({{site + "a", ""}}));
  write_file(t / "site/old.xml", urlset_xml({{site + "b", ""}}));
  write_file(t / ".sitemill/site/manifest-blog.json",
             R"({"sitemill_manifest":1,"entry":"entry-file.xml","files":[]})");
  // A stale copy an interrupted move left behind: the one beside wins.
  write_file(t / "site/.sitemill-manifest-blog.json",
             R"({"sitemill_manifest":1,"entry":"old.xml","files":[]})");
  auto in = resolve_set_input(t / "site");
  ASSERT_TRUE(in) << in.err().message;
  EXPECT_EQ(in->target, t / "site/entry-file.xml");
  EXPECT_EQ(in->directory, t / "site");

  // The manifest named directly leads to the same set.
  auto named = resolve_set_input(t / ".sitemill/site/manifest-blog.json");
  ASSERT_TRUE(named) << named.err().message;
  EXPECT_EQ(named->target, t / "site/entry-file.xml");

  // And a set an earlier build left beside it counts as one more set.
  write_file(t / "site/.sitemill-manifest-shop.json",
             R"({"sitemill_manifest":1,"entry":"old.xml","files":[]})");
  auto two = resolve_set_input(t / "site");
  ASSERT_FALSE(two);
  EXPECT_NE(two.err().message.find("blog, shop"), std::string::npos)
      << two.err().message;
  auto shop = resolve_set_input(t / "site", "shop");
  ASSERT_TRUE(shop) << shop.err().message;
  EXPECT_EQ(shop->target, t / "site/old.xml");
}

TEST(InspectInput, ADirectoryWithoutASetIsAnError) {
  temp_dir t;
  write_file(t / "other.xml", urlset_xml({{site + "a", ""}}));
  auto in = resolve_set_input(t.path());
  ASSERT_FALSE(in);
  EXPECT_NE(in.err().message.find("holds no published set"), std::string::npos);
}

}  // namespace
}  // namespace sitemill::testing
