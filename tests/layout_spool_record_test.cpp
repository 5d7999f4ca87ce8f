// The stable layout's parked records (layout_spool.h): a payload comes back
// byte for byte whatever it shares with the spool's reference, whatever its
// size against the buffers, in two pieces or one, and its size with it,
// at the first level and below; what the payloads share is not written.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "generate/layout_spool.h"
#include "generate/section_park.h"
#include "support/run.h"

namespace sitemill::detail {
namespace {

struct entry {
  std::uint64_t fingerprint;
  std::uint32_t size;
  std::string payload;
};

// Keeps each leaf's payloads and the sizes its tally adds up.
struct collector : layout_spool::reader {
  std::vector<std::vector<std::string>> leaves;
  std::uint64_t tallied_bytes = 0;
  status begin(const layout_leaf& l) override {
    leaves.emplace_back();
    tallied_bytes += l.tally.bytes;
    return {};
  }
  status entry(std::string_view payload) override {
    leaves.back().emplace_back(payload);
    return {};
  }
  status end(const layout_leaf&) override { return {}; }
};

// URLs of one host, as the writer serialises them, with sizes that may be
// under or over the payload's length (the spool stores their difference).
std::vector<entry> shop(std::size_t n, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<entry> out;
  for (std::size_t i = 0; i < n; ++i) {
    entry e;
    e.fingerprint = rng();
    e.payload = "<url><loc>https://www.example.com/";
    // Some share more of the first one's bytes than the host, some less.
    if (i % 3 == 0) e.payload += "shop/";
    if (i % 7 == 0) e.payload = "<url><loc>http://other.example/";
    if (i % 11 == 0) e.payload = "";
    e.payload += std::to_string(rng() % 1'000'000) + "</loc></url>\n";
    if (i % 13 == 0) e.payload += std::string(300 + rng() % 5'000, 'x');
    e.size = static_cast<std::uint32_t>(e.payload.size() + (i % 5) - 2);
    out.push_back(std::move(e));
  }
  return out;
}

// Fresh names, as a run's temporaries have (a level below reuses files
// while another level's are alive).
layout_spool::temp_namer fresh_names(const testing::temp_dir& d) {
  // One counter for every copy: each level below has one.
  return [&d, n = std::make_shared<int>(0)](std::string_view what) {
    return d / (std::to_string((*n)++) + "-" + std::string(what));
  };
}

// Parks `entries` (each payload split at `split` bytes into its two
// pieces), replays them and checks that every leaf holds its payloads in
// the order added, byte for byte, and that the tallies add up their sizes.
void round_trip(const std::vector<entry>& entries, std::size_t buffer_bytes,
                const layout_limits& limits, std::size_t split) {
  testing::temp_dir d;
  layout_spool spool(fresh_names(d), buffer_bytes);
  std::uint64_t sizes = 0;
  for (const entry& e : entries) {
    const std::string_view p = e.payload;
    const std::size_t at = std::min(split, p.size());
    ASSERT_TRUE(
        spool.add(e.fingerprint, e.size, p.substr(0, at), p.substr(at)));
    sizes += e.size;
  }
  collector c;
  const status replayed = spool.replay(limits, c);
  ASSERT_TRUE(replayed) << replayed.message();
  EXPECT_EQ(c.tallied_bytes, sizes);
  std::size_t count = 0;
  std::vector<std::string> all;
  for (const auto& leaf : c.leaves) {
    count += leaf.size();
    all.insert(all.end(), leaf.begin(), leaf.end());
  }
  ASSERT_EQ(count, entries.size());
  // Every payload came back whole: as a multiset, the same.
  std::vector<std::string> expected;
  for (const entry& e : entries) expected.push_back(e.payload);
  std::sort(all.begin(), all.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_TRUE(all == expected);
  EXPECT_TRUE(testing::list_files(d.path()).empty());
}

TEST(LayoutSpoolRecord, PayloadsComeBackWholeWhateverTheyShareWithTheFirst) {
  round_trip(shop(5'000, 1), layout_spool::default_buffer_bytes,
             {1'000, 100'000'000}, std::string::npos);
}

TEST(LayoutSpoolRecord, PayloadsComeBackWholeInPiecesOfAnySplit) {
  for (std::size_t split : {0, 1, 20, 40})
    round_trip(shop(2'000, 2), layout_spool::default_buffer_bytes,
               {500, 100'000'000}, split);
}

// A buffer as small as a record's head: every record crosses the write
// buffers and the read windows, and long ones are written and read past
// them.
TEST(LayoutSpoolRecord, PayloadsComeBackWholeThroughTheSmallestBuffers) {
  round_trip(shop(3'000, 3), 1, {200, 100'000'000}, std::string::npos);
  round_trip(shop(3'000, 4), 1, {3'000, 100'000'000}, 10);
}

// 40,000 entries at 10 a file: every partition is parked again one level
// down, where the records are read back and written anew.
TEST(LayoutSpoolRecord, PayloadsAndSizesComeBackWholeOneLevelDown) {
  round_trip(shop(40'000, 5), layout_spool::default_buffer_bytes,
             {10, 100'000'000}, std::string::npos);
  round_trip(shop(20'000, 6), 64, {10, 100'000'000}, 5);
}

TEST(LayoutSpoolRecord, ALeafOfManyPartitionsKeepsTheOrderAdded) {
  testing::temp_dir d;
  layout_spool spool(fresh_names(d), 100);
  const auto entries = shop(10'000, 7);
  for (const entry& e : entries)
    ASSERT_TRUE(spool.add(e.fingerprint, e.size, e.payload));
  collector c;
  ASSERT_TRUE(spool.replay({10'000, 100'000'000}, c));
  ASSERT_EQ(c.leaves.size(), 1u);
  ASSERT_EQ(c.leaves[0].size(), entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i)
    ASSERT_EQ(c.leaves[0][i], entries[i].payload) << i;
}

// What a section's `<url>` elements share with the first (scheme, host and
// tags up to the path) is written once, not once a URL.
TEST(LayoutSpoolRecord, WhatPayloadsShareWithTheFirstIsNotWritten) {
  testing::temp_dir d;
  layout_spool spool(fresh_names(d));
  const std::string host = "<url><loc>https://www.example.com/catalogue/";
  std::uint64_t payload_bytes = 0;
  std::mt19937_64 rng(8);
  for (int i = 0; i < 10'000; ++i) {
    const std::string xml = host + std::to_string(i) + "</loc></url>\n";
    std::string tail;
    append_parked_tail(tail, std::nullopt, 0);
    ASSERT_TRUE(
        spool.add(rng(), static_cast<std::uint32_t>(xml.size()), xml, tail));
    payload_bytes += xml.size() + tail.size();
  }
  // Each record keeps its own bytes and a head of at most 16.
  EXPECT_LT(spool.disk_bytes(), payload_bytes - 10'000 * (host.size() - 16));
  collector c;
  ASSERT_TRUE(spool.replay({10'000, 100'000'000}, c));
  ASSERT_EQ(c.leaves.size(), 1u);
  const parked_entry back = read_parked(c.leaves[0][42]);
  EXPECT_EQ(back.xml, host + "42</loc></url>\n");
  EXPECT_FALSE(back.lastmod.has_value());
}

// A partition file cut short (or changed) under the spool is an error that
// names it, never a crash or a wrong payload.
TEST(LayoutSpoolRecord, APartitionFileCutShortIsAnErrorNamingIt) {
  testing::temp_dir d;
  layout_spool spool(fresh_names(d), 1);
  for (const entry& e : shop(3'000, 9))
    ASSERT_TRUE(spool.add(e.fingerprint, e.size, e.payload));
  for (const std::string& name : testing::list_files(d.path())) {
    const std::string path = d / name;
    std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
  }
  collector c;
  const status s = spool.replay({3'000, 100'000'000}, c);
  ASSERT_FALSE(s);
  EXPECT_NE(s.err().message.find("layout-0-"), std::string::npos)
      << s.err().message;
  EXPECT_NE(s.err().message.find("the stable layout's partition file"),
            std::string::npos);
}

bool same(const w3c_datetime& a, const w3c_datetime& b) {
  return a.year == b.year && a.month == b.month && a.day == b.day &&
         a.hour == b.hour && a.minute == b.minute && a.second == b.second &&
         a.nanos == b.nanos && a.fraction_digits == b.fraction_digits &&
         a.offset_minutes == b.offset_minutes && a.zulu == b.zulu &&
         a.negative_zero_offset == b.negative_zero_offset && a.form == b.form;
}

// A record is its xml then its tail, and the lastmod comes back field for
// field in every form (the record packs it without the struct's padding),
// with a deferral or without.
TEST(SectionParkRecord, AppendParkedIsTheXmlThenItsTail) {
  std::vector<std::optional<w3c_datetime>> lastmods{std::nullopt};
  for (const char* text :
       {"2026", "2026-11", "2026-11-27", "2026-11-27T10:00Z",
        "2026-11-27T10:00:59-00:00", "2026-11-27T10:00:00.25+02:00",
        "0001-01-01T00:00:00.000000001-14:00", "9999-12-31T23:59:59.9+14:00",
        "2026-11-27T10:00:00.0Z"}) {
    w3c_datetime d;
    ASSERT_EQ(parse_w3c_datetime(text, d), datetime_problem::ok) << text;
    lastmods.emplace_back(d);
  }
  const std::optional<parked_deferral> deferrals[] = {
      std::nullopt, parked_deferral{0, 0, 0},
      parked_deferral{~std::uint64_t{0}, 0xffffffffu, std::uint64_t{1} << 40}};
  for (const auto& lastmod : lastmods) {
    for (const auto& deferral : deferrals) {
      for (extension_mask uses :
           {extension_mask{0}, extension_mask{5}, extension_mask{255}}) {
        std::string whole, tail;
        append_parked(whole,
                      {"<url><loc>a</loc></url>", lastmod, uses, deferral});
        append_parked_tail(tail, lastmod, uses,
                           deferral ? &*deferral : nullptr);
        EXPECT_EQ(whole, "<url><loc>a</loc></url>" + tail);
        EXPECT_EQ(parked_xml_size(whole), 23u);
        EXPECT_EQ(parked_deferred(whole), deferral.has_value());
        const parked_entry e = read_parked(whole);
        EXPECT_EQ(e.xml, "<url><loc>a</loc></url>");
        EXPECT_EQ(e.uses, uses);
        ASSERT_EQ(e.lastmod.has_value(), lastmod.has_value());
        if (lastmod) {
          EXPECT_TRUE(same(*e.lastmod, *lastmod));
          if (!deferral) {
            EXPECT_LE(tail.size(), 2u + 15u);  // the struct: 20
          }
        }
        std::string plain, scratch;
        append_parked(plain,
                      {"<url><loc>a</loc></url>", lastmod, uses, std::nullopt});
        EXPECT_EQ(without_deferral(whole, scratch), plain);
        ASSERT_EQ(e.deferral.has_value(), deferral.has_value());
        if (deferral) {
          EXPECT_EQ(e.deferral->number, deferral->number);
          EXPECT_EQ(e.deferral->input, deferral->input);
          EXPECT_EQ(e.deferral->line, deferral->line);
        }
      }
    }
  }
  // The deferral of the 99,000,000th record at line 100,000,000 of the
  // first input: 10 bytes with its length, where the numbers take 20.
  std::string small;
  const parked_deferral far{99'000'000, 0, 100'000'000};
  append_parked_tail(small, std::nullopt, 0, &far);
  EXPECT_EQ(small.size(), 2u + 10u);
  // An entry with no xml (text sitemaps never park one, but the record
  // still reads back).
  std::string empty;
  append_parked(empty, {"", std::nullopt, 0, std::nullopt});
  EXPECT_EQ(read_parked(empty).xml, "");
}

}  // namespace
}  // namespace sitemill::detail
