// assemble_set: the one rule that names a finished set's files and writes its
// index, shared by generate and a merge of shards.
#include "sitemill/publish/set_assembly.h"

#include <gtest/gtest.h>

#include <fstream>

#include "sitemill/parse/sitemap_parser.h"
#include "support/run.h"

namespace sitemill {
namespace {

using testing::read_file;
using testing::temp_dir;

// A finished "sitemap" with the given bytes and newest lastmod, as a writer
// would leave it in the publisher's directory.
finished_sitemap finished(publisher& pub, const std::string& bytes,
                          std::uint64_t digest, std::string_view newest = "") {
  finished_sitemap s;
  s.temp_path = pub.temp_path("part");
  std::ofstream(s.temp_path, std::ios::binary) << bytes;
  s.part.urls = 1;
  s.part.bytes = bytes.size();
  if (!newest.empty()) {
    w3c_datetime when;
    EXPECT_EQ(parse_w3c_datetime(newest, when), datetime_problem::ok);
    s.part.newest = when;
  }
  s.digest = digest;
  return s;
}

set_layout layout_for(std::string base = "https://example.com/maps/") {
  set_layout l;
  l.base_url = std::move(base);
  l.extension = ".xml";
  return l;
}

// The <loc>s and <lastmod>s of an index, in order, read back with the parser.
std::vector<std::pair<std::string, std::string>> index_entries(
    const std::string& xml) {
  std::vector<std::pair<std::string, std::string>> out;
  struct collect final : parse_handler {
    std::vector<std::pair<std::string, std::string>>* out;
    void on_entry(const parsed_entry& e) override {
      out->emplace_back(std::string(e.loc.text), std::string(e.lastmod.text));
    }
  } handler;
  handler.out = &out;
  parse_bytes(xml, handler);
  return out;
}

TEST(SetAssembly, ALoneSitemapIsTheEntryWithoutAnIndex) {
  temp_dir d;
  auto pub = publisher::open(d / "out");  // bookkeeping in d too
  ASSERT_TRUE(pub);
  auto set = assemble_set(**pub, layout_for(), {finished(**pub, "a", 0xab)});
  ASSERT_TRUE(set) << set.err().message;
  ASSERT_EQ(set->files.size(), 1u);
  EXPECT_EQ(set->entry, "sitemap.xml");
  EXPECT_EQ(set->files[0].file.path, "sitemap.xml");
  EXPECT_EQ(set->files[0].file.digest, 0xabu);
}

TEST(SetAssembly, IndexListsContentNamedSitemapsInOrderWithNewestLastmod) {
  temp_dir d;
  auto pub = publisher::open(d / "out");  // bookkeeping in d too
  ASSERT_TRUE(pub);
  auto set =
      assemble_set(**pub, layout_for(),
                   {finished(**pub, "a", 0x0123456789abcdefULL, "2024-05-01"),
                    finished(**pub, "b", 0xfedcba9876543210ULL)});
  ASSERT_TRUE(set) << set.err().message;
  ASSERT_EQ(set->files.size(), 3u);
  EXPECT_EQ(set->files[0].file.path, "sitemap-1-456789abcdef.xml");
  EXPECT_EQ(set->files[1].file.path, "sitemap-2-ba9876543210.xml");
  EXPECT_EQ(set->entry, "sitemap.xml");
  const auto& index = set->files[2];
  EXPECT_EQ(index.file.path, "sitemap.xml");
  EXPECT_EQ(index.file.type, document_type::sitemapindex);
  EXPECT_EQ(index.file.urls, 2u);
  auto entries = index_entries(read_file(index.temp_path));
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].first,
            "https://example.com/maps/sitemap-1-456789abcdef.xml");
  EXPECT_EQ(entries[0].second, "2024-05-01");
  EXPECT_EQ(entries[1].first,
            "https://example.com/maps/sitemap-2-ba9876543210.xml");
  EXPECT_EQ(entries[1].second, "");
}

TEST(SetAssembly, IndexModeAlwaysIndexesOneSitemap) {
  temp_dir d;
  auto pub = publisher::open(d / "out");  // bookkeeping in d too
  ASSERT_TRUE(pub);
  set_layout l = layout_for();
  l.index = index_mode::always;
  auto set = assemble_set(**pub, l, {finished(**pub, "a", 1)});
  ASSERT_TRUE(set) << set.err().message;
  ASSERT_EQ(set->files.size(), 2u);
  EXPECT_EQ(set->entry, "sitemap.xml");
  EXPECT_EQ(set->files[0].file.path, "sitemap-1-000000000001.xml");
}

TEST(SetAssembly, TooManySitemapsForOneIndexGiveNumberedIndexes) {
  temp_dir d;
  auto pub = publisher::open(d / "out");  // bookkeeping in d too
  ASSERT_TRUE(pub);
  set_layout l = layout_for();
  l.name = "shop";
  l.max_index_entries = 2;
  std::vector<finished_sitemap> maps;
  for (int i = 0; i < 3; ++i) maps.push_back(finished(**pub, "x", i + 1));
  auto set = assemble_set(**pub, l, std::move(maps));
  ASSERT_TRUE(set) << set.err().message;
  ASSERT_EQ(set->files.size(), 5u);
  EXPECT_EQ(set->files[3].file.path, "shop-index-1.xml");
  EXPECT_EQ(set->files[4].file.path, "shop-index-2.xml");
  EXPECT_EQ(set->entry, "shop-index-1.xml");
  EXPECT_EQ(index_entries(read_file(set->files[4].temp_path)).size(), 1u);
}

TEST(SetAssembly, AnAssembledSetPublishes) {
  temp_dir d;
  auto pub = publisher::open(d / "out");  // bookkeeping in d too
  ASSERT_TRUE(pub);
  auto set = assemble_set(**pub, layout_for(),
                          {finished(**pub, "a", 7), finished(**pub, "b", 8)});
  ASSERT_TRUE(set);
  ASSERT_TRUE((*pub)->publish(std::move(set->files), set->entry));
  EXPECT_EQ(read_file(d / "out/sitemap-1-000000000007.xml"), "a");
  EXPECT_FALSE(index_entries(read_file(d / "out/sitemap.xml")).empty());
}

TEST(SetAssembly, NoSitemapsIsAnError) {
  temp_dir d;
  auto pub = publisher::open(d / "out");  // bookkeeping in d too
  ASSERT_TRUE(pub);
  EXPECT_FALSE(assemble_set(**pub, layout_for(), {}));
}

}  // namespace
}  // namespace sitemill
