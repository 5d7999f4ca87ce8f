// generate_options::layout through the library: the stable layout's names,
// its churn (one URL added or removed changes at most two files), its
// independence from input order, and the sequential layout's files, with and
// without sections (whose entries wait in parked files until the end).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <random>
#include <regex>
#include <set>

#include "generate/section_park.h"
#include "generate/shard_manifest.h"
#include "generate/testing.h"
#include "sitemill/generate/generate.h"
#include "sitemill/generate/merge.h"
#include "sitemill/inspect/stats.h"
#include "sitemill/source/page_source.h"
#include "support/run.h"

namespace sitemill {
namespace {

namespace fs = std::filesystem;
using testing::temp_dir;

// The sitemaps of a published directory by name (the index left out).
std::map<std::string, std::string> sitemaps_in(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename();
    if (!e.is_regular_file() || name == "sitemap.xml") continue;
    std::ifstream in(e.path(), std::ios::binary);
    files[name] = {std::istreambuf_iterator<char>(in), {}};
  }
  return files;
}

// The <loc>s of a plain sitemap, in order.
std::vector<std::string> locs_of(const std::string& xml) {
  std::vector<std::string> out;
  for (std::size_t at = xml.find("<loc>"); at != std::string::npos;
       at = xml.find("<loc>", at + 1)) {
    const std::size_t end = xml.find("</loc>", at);
    out.push_back(xml.substr(at + 5, end - at - 5));
  }
  return out;
}

struct quiet : generate_observer {
  std::vector<record_issue> rejects;
  void rejected(const record_issue& r) override { rejects.push_back(r); }
};

// Publishes `paths` (one a line) into `out` with max_urls 100, plain XML.
generate_report publish(const temp_dir& d, const std::string& out,
                        const std::vector<std::string>& paths,
                        file_layout layout = file_layout::stable,
                        std::vector<section_rule> sections = {}) {
  const std::string input = d / (out + ".txt");
  {
    std::ofstream f(input);
    for (const std::string& p : paths) f << p << "\n";
  }
  generate_options o;
  o.sources.push_back(list_source(input));
  o.base_url = "https://www.example.com/";
  o.out_dir = d / out;
  o.gzip = false;
  o.max_urls = 100;
  o.layout = layout;
  o.sections = std::move(sections);
  quiet obs;
  return generate(o, obs);
}

std::vector<std::string> pages(std::size_t n) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i)
    out.push_back("/shop/item-" + std::to_string(i) + ".html");
  return out;
}

// Names in `a` not in `b`.
std::vector<std::string> only_in(const std::map<std::string, std::string>& a,
                                 const std::map<std::string, std::string>& b) {
  std::vector<std::string> out;
  for (const auto& [name, bytes] : a)
    if (!b.contains(name)) out.push_back(name);
  return out;
}

TEST(StableLayout, NamesFilesByLeafPathAndHoldsEveryUrlOnce) {
  temp_dir d;
  const auto r = publish(d, "out", pages(3'000));
  ASSERT_EQ(r.outcome, generate_outcome::published) << r.message;
  const auto files = sitemaps_in(d / "out");
  const std::regex name("sitemap-[01]+-[0-9a-f]{12}\\.xml");
  std::set<std::string> seen;
  for (const auto& [file, xml] : files) {
    EXPECT_TRUE(std::regex_match(file, name)) << file;
    const auto locs = locs_of(xml);
    EXPECT_LE(locs.size(), 100u) << file;
    // A leaf holds at least a quarter of a file on a set this even.
    EXPECT_GE(locs.size(), 25u) << file;
    for (const std::string& l : locs) EXPECT_TRUE(seen.insert(l).second) << l;
  }
  EXPECT_EQ(seen.size(), 3'000u);
}

TEST(StableLayout, ASmallSetIsTheRootLeafWithNoPath) {
  temp_dir d;
  ASSERT_EQ(publish(d, "out", pages(40)).outcome, generate_outcome::published);
  // One plain file is the entry itself, as under the sequential layout.
  EXPECT_TRUE(fs::exists(d / "out/sitemap.xml"));
  EXPECT_EQ(sitemaps_in(d / "out").size(), 0u);
}

// A file's label (its leaf) and URLs depend on the set alone; within a
// file, entries keep their input order, so its bytes (and hash) do not.
TEST(StableLayout, InputOrderDoesNotMoveAUrlToAnotherFile) {
  temp_dir d;
  auto list = pages(2'000);
  ASSERT_EQ(publish(d, "a", list).outcome, generate_outcome::published);
  std::shuffle(list.begin(), list.end(), std::mt19937(7));
  ASSERT_EQ(publish(d, "b", list).outcome, generate_outcome::published);
  auto by_label = [](const std::map<std::string, std::string>& files) {
    std::map<std::string, std::vector<std::string>> out;
    for (const auto& [name, xml] : files) {
      // sitemap-<label>-<12 hex>.xml
      const std::string label = name.substr(8, name.size() - 8 - 17);
      auto locs = locs_of(xml);
      std::sort(locs.begin(), locs.end());
      out[label] = std::move(locs);
    }
    return out;
  };
  const auto a = by_label(sitemaps_in(d / "a"));
  EXPECT_GT(a.size(), 20u);
  EXPECT_EQ(a, by_label(sitemaps_in(d / "b")));
}

TEST(StableLayout, OneUrlAddedOrRemovedChangesAtMostTwoFiles) {
  temp_dir d;
  const auto list = pages(5'000);
  ASSERT_EQ(publish(d, "base", list).outcome, generate_outcome::published);
  const auto base = sitemaps_in(d / "base");
  auto head = list;
  head.insert(head.begin(), "/shop/new-arrival.html");
  auto tail = list;
  tail.push_back("/shop/last-one.html");
  auto middle = list;
  middle.erase(middle.begin() + 2'500);
  for (const auto& [what, changed] :
       {std::pair{"head", head}, {"tail", tail}, {"middle", middle}}) {
    ASSERT_EQ(publish(d, what, changed).outcome, generate_outcome::published);
    const auto now = sitemaps_in(d / what);
    EXPECT_LE(only_in(base, now).size(), 2u) << what;
    EXPECT_LE(only_in(now, base).size(), 2u) << what;
    EXPECT_GE(only_in(now, base).size(), 1u) << what;
  }
}

TEST(StableLayout, RerunsAreByteIdentical) {
  temp_dir d;
  ASSERT_EQ(publish(d, "a", pages(1'500)).outcome,
            generate_outcome::published);
  ASSERT_EQ(publish(d, "b", pages(1'500)).outcome,
            generate_outcome::published);
  EXPECT_EQ(sitemaps_in(d / "a"), sitemaps_in(d / "b"));
  std::ifstream a(d / "a/sitemap.xml"), b(d / "b/sitemap.xml");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(a), {}),
            std::string(std::istreambuf_iterator<char>(b), {}));
}

TEST(SequentialLayout, FillsFilesInInputOrderWithNumberedNames) {
  temp_dir d;
  const auto list = pages(250);
  ASSERT_EQ(publish(d, "out", list, file_layout::sequential).outcome,
            generate_outcome::published);
  const auto files = sitemaps_in(d / "out");
  ASSERT_EQ(files.size(), 3u);
  std::vector<std::string> in_order;
  for (int k = 1; k <= 3; ++k) {
    const std::string prefix = "sitemap-" + std::to_string(k) + "-";
    auto at = std::find_if(files.begin(), files.end(), [&](const auto& f) {
      return f.first.starts_with(prefix);
    });
    ASSERT_NE(at, files.end()) << prefix;
    for (const auto& l : locs_of(at->second)) in_order.push_back(l);
  }
  ASSERT_EQ(in_order.size(), list.size());
  for (std::size_t i = 0; i < list.size(); ++i)
    EXPECT_EQ(in_order[i], "https://www.example.com" + list[i]);
}

// Sections other than the first wait in parked files; each must come out as
// it went in: in input order under the sequential layout, complete under
// the stable one.
TEST(SequentialLayout, ParkedSectionsKeepInputOrder) {
  temp_dir d;
  std::vector<std::string> list;
  for (int i = 0; i < 600; ++i)
    list.push_back((i % 3 == 0   ? "/blog/post-"
                    : i % 3 == 1 ? "/docs/page-"
                                 : "/shop/item-") +
                   std::to_string(i) + ".html");
  const std::vector<section_rule> rules{{"blog", "blog/**"},
                                        {"docs", "docs/**"}};
  ASSERT_EQ(publish(d, "out", list, file_layout::sequential, rules).outcome,
            generate_outcome::published);
  const auto files = sitemaps_in(d / "out");
  for (const std::string stem : {"sitemap-blog-", "sitemap-docs-", "sitemap-"}) {
    std::vector<std::string> got;
    for (int k = 1; k <= 2; ++k) {
      const std::string prefix = stem + std::to_string(k) + "-";
      auto at = std::find_if(files.begin(), files.end(), [&](const auto& f) {
        return f.first.starts_with(prefix);
      });
      ASSERT_NE(at, files.end()) << prefix;
      for (const auto& l : locs_of(at->second)) got.push_back(l);
    }
    std::vector<std::string> want;
    const std::string dir = stem == "sitemap-blog-"   ? "/blog/"
                            : stem == "sitemap-docs-" ? "/docs/"
                                                      : "/shop/";
    for (const std::string& p : list)
      if (p.starts_with(dir)) want.push_back("https://www.example.com" + p);
    EXPECT_EQ(got, want) << stem;
  }
}

TEST(StableLayout, SectionsAreLaidOutEachOnTheirOwn) {
  temp_dir d;
  std::vector<std::string> list;
  for (int i = 0; i < 900; ++i)
    list.push_back((i % 3 == 0   ? "/blog/post-"
                    : i % 3 == 1 ? "/docs/page-"
                                 : "/shop/item-") +
                   std::to_string(i) + ".html");
  const std::vector<section_rule> rules{{"blog", "blog/**"},
                                        {"docs", "docs/**"}};
  ASSERT_EQ(publish(d, "out", list, file_layout::stable, rules).outcome,
            generate_outcome::published);
  const std::regex name("sitemap-(blog-|docs-)?[01]+-[0-9a-f]{12}\\.xml");
  std::map<std::string, std::size_t> per_section;
  for (const auto& [file, xml] : sitemaps_in(d / "out")) {
    ASSERT_TRUE(std::regex_match(file, name)) << file;
    const std::string section = file.starts_with("sitemap-blog-")   ? "blog"
                                : file.starts_with("sitemap-docs-") ? "docs"
                                                                    : "";
    for (const std::string& l : locs_of(xml)) {
      ++per_section[section];
      EXPECT_NE(l.find(section.empty() ? "/shop/" : "/" + section + "/"),
                std::string::npos)
          << l << " in " << file;
    }
  }
  EXPECT_EQ(per_section["blog"], 300u);
  EXPECT_EQ(per_section["docs"], 300u);
  EXPECT_EQ(per_section[""], 300u);
}

// The writer's own rule decides what is too large, also for an entry that
// waits in a parked section: it is reported at once, not lost at the end.
TEST(StableLayout, AnEntryTooLargeForAFileIsRejectedWhenParked) {
  temp_dir d;
  const std::string input = d / "in.txt";
  {
    std::ofstream f(input);
    f << "/shop/a.html\n/blog/" << std::string(600, 'x') << ".html\n"
      << "/blog/b.html\n";
  }
  for (file_layout layout : {file_layout::stable, file_layout::sequential}) {
    generate_options o;
    o.sources.push_back(list_source(input));
    o.base_url = "https://www.example.com/";
    o.out_dir = d / (layout == file_layout::stable ? "s" : "q");
    o.gzip = false;
    o.max_bytes = 600;
    o.layout = layout;
    o.sections = {{"blog", "blog/**"}};
    quiet obs;
    const auto r = generate(o, obs);
    ASSERT_EQ(r.outcome, generate_outcome::published) << r.message;
    EXPECT_EQ(r.written, 2u);
    ASSERT_EQ(obs.rejects.size(), 1u);
    EXPECT_EQ(obs.rejects[0].line, 2u);
  }
}

// Each shard lays out its own URLs; the merge puts the shard's number in
// front of its leaves' paths, so that one URL added still changes at most
// two files of the merged set.
TEST(StableLayout, ShardsMergedKeepEachShardsLeavesApart) {
  temp_dir d;
  auto run = [&](const std::string& out, const std::vector<std::string>& list) {
    const std::string input = d / (out + ".txt");
    {
      std::ofstream f(input);
      for (const std::string& p : list) f << p << "\n";
    }
    for (std::uint32_t i = 0; i < 3; ++i) {
      generate_options o;
      o.sources.push_back(list_source(input));
      o.base_url = "https://www.example.com/";
      o.out_dir = d / out;
      o.max_urls = 100;
      o.shard.index = i;
      o.shard.count = 3;
      quiet obs;
      ASSERT_EQ(generate(o, obs).outcome, generate_outcome::published);
    }
    merge_options m;
    m.out_dir = d / out;
    const merge_report merged = merge_shards(m);
    ASSERT_EQ(merged.outcome, merge_outcome::published) << merged.message;
  };
  auto list = pages(3'000);
  run("a", list);
  list.insert(list.begin(), "/shop/new.html");
  run("b", list);
  const auto a = sitemaps_in(d / "a");
  const auto b = sitemaps_in(d / "b");
  const std::regex name("sitemap-[012](_[01]+)?-[0-9a-f]{12}\\.xml\\.gz");
  for (const auto& [file, bytes] : a)
    EXPECT_TRUE(std::regex_match(file, name)) << file;
  EXPECT_GT(a.size(), 30u);
  EXPECT_LE(only_in(a, b).size(), 2u);
  EXPECT_LE(only_in(b, a).size(), 2u);
}

TEST(SectionPark, HandsBackRecordsInOrderAcrossManyFlushes) {
  temp_dir d;
  detail::section_park park(d / "park");
  std::string record;
  w3c_datetime when;
  ASSERT_EQ(parse_w3c_datetime("2026-11-27T10:00:00Z", when),
            datetime_problem::ok);
  for (std::uint64_t i = 0; i < 20'000; ++i) {
    record.clear();
    const std::string xml = "<url><loc>u" + std::to_string(i) + "</loc></url>";
    detail::append_parked(
        record, {xml, i % 2 == 0 ? std::optional(when) : std::nullopt,
                 static_cast<extension_mask>(i % 16), std::nullopt});
    ASSERT_EQ(detail::parked_xml_size(record), xml.size());
    ASSERT_TRUE(park.add(i * 7919, record));
  }
  std::uint64_t next = 0;
  ASSERT_TRUE(park.replay([&](std::uint64_t fp, std::string_view rec) {
    EXPECT_EQ(fp, next * 7919);
    const detail::parked_entry e = detail::read_parked(rec);
    EXPECT_EQ(e.xml, "<url><loc>u" + std::to_string(next) + "</loc></url>");
    EXPECT_EQ(e.lastmod.has_value(), next % 2 == 0);
    EXPECT_EQ(e.uses, next % 16);
    ++next;
    return status{};
  }));
  EXPECT_EQ(next, 20'000u);
  EXPECT_GT(park.disk_bytes(), 20'000u * 16);
  EXPECT_FALSE(fs::exists(d / "park"));  // removed once read
}

TEST(SectionPark, AnEmptyParkHandsBackNothingAndMakesNoFile) {
  temp_dir d;
  detail::section_park park(d / "park");
  int calls = 0;
  ASSERT_TRUE(park.replay([&](std::uint64_t, std::string_view) {
    ++calls;
    return status{};
  }));
  EXPECT_EQ(calls, 0);
  EXPECT_FALSE(fs::exists(d / "park"));
}

TEST(LayoutLabel, ValidatesWhatTheStableLayoutWrites) {
  for (const char* good : {"", "0", "1", "0110", "0110-2", "2", "17", "1-10"})
    EXPECT_TRUE(detail::valid_layout_label(good)) << good;
  for (const char* bad : {"-2", "0110-1", "0110-", "01a", "../x", "0-02",
                          "0 1", "2-0"})
    EXPECT_FALSE(detail::valid_layout_label(bad)) << bad;
  EXPECT_TRUE(detail::valid_layout_label(std::string(64, '1')));
  EXPECT_FALSE(detail::valid_layout_label(std::string(65, '1')));
}

TEST(StableLayout, StatsTellsAFilesSectionFromItsLabelledName) {
  const struct {
    const char* name;
    std::optional<std::string> section;
  } cases[] = {
      {"sitemap-0123456789ab.xml.gz", ""},
      {"sitemap-0110-0123456789ab.xml.gz", ""},
      {"sitemap-blog-0123456789ab.xml.gz", "blog"},
      {"sitemap-blog-0110-0123456789ab.xml.gz", "blog"},
      {"sitemap-2_0110-0123456789ab.xml.gz", ""},
      {"sitemap-blog-2_0110-0123456789ab.xml.gz", "blog"},
      {"sitemap-help-center-1-0123456789ab.xml", "help-center"},
      {"sitemap-blog-x-0123456789ab.xml", std::nullopt},
  };
  for (const auto& c : cases)
    EXPECT_EQ(section_of_file(c.name, "sitemap"), c.section) << c.name;
}

TEST(LayoutLabel, IsPartOfTheShardOptionsLine) {
  generate_options o;
  const std::string stable = detail::shard_options_line(o);
  o.layout = file_layout::sequential;
  const std::string sequential = detail::shard_options_line(o);
  EXPECT_NE(stable, sequential);
  EXPECT_NE(stable.find("layout=stable"), std::string::npos);
  EXPECT_NE(sequential.find("layout=sequential"), std::string::npos);
}

}  // namespace
}  // namespace sitemill
