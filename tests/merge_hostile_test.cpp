// Shard directories may sit on shared storage that other jobs write, so
// `merge` treats every shard file as untrusted input (issue 34, item 1): a
// part replaced by a symbolic link, a FIFO, other bytes or another size, and
// a manifest with numbers past its caps, a base URL that is not http(s) or
// a symbolic link in its place are each refused, naming the file and the
// problem, with nothing published. The reader of shard.json is fuzzed too
// (fuzz/fuzz_shard_manifest.cpp).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "generate/shard_manifest.h"
#include "sitemill/generate/generate.h"
#include "sitemill/generate/merge.h"
#include "support/campaign.h"
#include "support/run.h"

namespace sitemill {
namespace {

using testing::temp_dir;
namespace fs = std::filesystem;

constexpr const char* base = "https://www.example.com/";

struct quiet_observer : generate_observer {};

// Two shards of 1,200 URLs (500 per sitemap), ready to merge into `out`;
// returns their shard directories.
std::vector<std::string> two_shards(const temp_dir& d, const std::string& out) {
  {
    std::ofstream list(d / "urls.txt");
    for (int i = 0; i < 1'200; ++i) list << base << "p/" << i << "\n";
  }
  std::vector<std::string> dirs;
  for (std::uint32_t i = 0; i < 2; ++i) {
    generate_options o;
    o.sources.push_back(list_source(d / "urls.txt"));
    o.base_url = base;
    o.out_dir = out;
    o.max_urls = 500;
    o.shard.index = i;
    o.shard.count = 2;
    quiet_observer obs;
    const generate_report r = generate(o, obs);
    EXPECT_EQ(r.outcome, generate_outcome::published) << r.message;
    dirs.push_back(r.shard_dir);
  }
  return dirs;
}

// The first sitemap a shard directory holds (not its manifest).
std::string first_part(const std::string& dir) {
  for (const std::string& name : testing::list_files(dir))
    if (name != std::string(detail::shard_manifest_name))
      return dir + "/" + name;
  ADD_FAILURE() << "no sitemap in " << dir;
  return {};
}

merge_report merge_into(const std::string& out) {
  merge_options m;
  m.out_dir = out;
  return merge_shards(m);
}

// The merge is refused, its message names `file` and says `problem`, and
// `out` holds nothing.
void expect_refused(const std::string& out, const std::string& file,
                    const std::string& problem) {
  const merge_report r = merge_into(out);
  EXPECT_EQ(r.outcome, merge_outcome::refused) << r.message;
  EXPECT_NE(r.message.find(file), std::string::npos) << r.message;
  EXPECT_NE(r.message.find(problem), std::string::npos) << r.message;
  EXPECT_TRUE(testing::list_files(out).empty())
      << "something was published from a bad shard";
}

struct part_case {
  const char* what;
  const char* problem;  // in the message
  std::function<void(const std::string& part)> spoil;
};

TEST(MergeHostileShards, APartThatIsNotWhatItsManifestSaysIsRefused) {
  const part_case cases[] = {
      {"a symbolic link to /etc/passwd", "is a symbolic link",
       [](const std::string& part) {
         fs::remove(part);
         fs::create_symlink("/etc/passwd", part);
       }},
      {"a symbolic link to a sitemap of the same bytes", "is a symbolic link",
       [](const std::string& part) {
         fs::rename(part, part + ".moved");
         fs::create_symlink(part + ".moved", part);
       }},
      {"a FIFO, which must not hang the merge", "is not a regular file",
       [](const std::string& part) {
         fs::remove(part);
         ASSERT_EQ(::mkfifo(part.c_str(), 0600), 0);
       }},
      {"a directory", "is not a regular file",
       [](const std::string& part) {
         fs::remove(part);
         fs::create_directory(part);
       }},
      {"other bytes of the same size", "does not hold the bytes",
       [](const std::string& part) {
         std::string bytes = testing::read_raw(part);
         bytes[bytes.size() / 2] ^= 0x01;
         testing::write_file(part, bytes);
       }},
      {"one byte more", "its shard manifest says",
       [](const std::string& part) {
         testing::write_file(part, testing::read_raw(part) + "x");
       }},
      {"cut short", "its shard manifest says",
       [](const std::string& part) {
         fs::resize_file(part, fs::file_size(part) / 2);
       }},
  };
  for (const part_case& c : cases) {
    SCOPED_TRACE(c.what);
    temp_dir d;
    const std::string out = d / "out";
    const auto dirs = two_shards(d, out);
    ASSERT_EQ(dirs.size(), 2u);
    const std::string part = first_part(dirs[1]);
    c.spoil(part);
    expect_refused(out, part, c.problem);
  }
  test::campaign_tally(test::campaign_kind::hostile_input, std::size(cases));
}

struct manifest_case {
  const char* what;
  const char* problem;
  std::function<void(nlohmann::json&)> spoil;
};

TEST(MergeHostileShards, AManifestPastItsCapsIsRefusedBeforeAllocating) {
  const manifest_case cases[] = {
      {"a count of a trillion shards", "its count is not",
       [](nlohmann::json& j) { j["count"] = 1'000'000'000'000ull; }},
      {"a count past the cap", "its count is not",
       [](nlohmann::json& j) { j["count"] = detail::max_shards + 1; }},
      {"a negative index", "its index is not below its count",
       [](nlohmann::json& j) { j["index"] = -1; }},
      {"a file:// base URL", "its base URL \"file:///etc/\"",
       [](nlohmann::json& j) { j["layout"]["base_url"] = "file:///etc/"; }},
      {"a javascript: base URL", "its base URL",
       [](nlohmann::json& j) {
         j["layout"]["base_url"] = "javascript:alert(1)//";
       }},
      {"a file of a billion URLs", "its URLs are not from 0 to 50,000",
       [](nlohmann::json& j) { j["files"][0]["urls"] = 1'000'000'000; }},
      {"a file of a fractional size", "its size is not",
       [](nlohmann::json& j) { j["files"][0]["size"] = 1.5; }},
      {"records past the cap", "its count of records",
       [](nlohmann::json& j) {
         j["counts"]["records"] = 18'446'744'073'709'551'615ull;
       }},
      {"a file outside the directory", "a file is not a plain name",
       [](nlohmann::json& j) {
         j["files"][0]["path"] = "../../../etc/passwd";
       }},
      {"a set name with a slash", "its set name",
       [](nlohmann::json& j) { j["layout"]["name"] = "../sitemap"; }},
      {"an unknown type", "its type",
       [](nlohmann::json& j) { j["layout"]["type"] = "sitemapindex"; }},
      {"an extension of another type", "its extension",
       [](nlohmann::json& j) { j["layout"]["extension"] = ".html"; }},
  };
  for (const manifest_case& c : cases) {
    SCOPED_TRACE(c.what);
    temp_dir d;
    const std::string out = d / "out";
    const auto dirs = two_shards(d, out);
    ASSERT_EQ(dirs.size(), 2u);
    const std::string manifest =
        dirs[1] + "/" + std::string(detail::shard_manifest_name);
    nlohmann::json j = nlohmann::json::parse(testing::read_file(manifest));
    c.spoil(j);
    testing::write_file(manifest, j.dump(1));
    expect_refused(out, manifest, c.problem);
  }
  test::campaign_tally(test::campaign_kind::hostile_input, std::size(cases));
}

TEST(MergeHostileShards, AManifestThatIsALinkOrTooLargeIsRefused) {
  {
    temp_dir d;
    const std::string out = d / "out";
    const auto dirs = two_shards(d, out);
    const std::string manifest =
        dirs[1] + "/" + std::string(detail::shard_manifest_name);
    fs::rename(manifest, d / "elsewhere.json");
    fs::create_symlink(d / "elsewhere.json", manifest);
    expect_refused(out, manifest, "is a symbolic link");
  }
  {
    temp_dir d;
    const std::string out = d / "out";
    const auto dirs = two_shards(d, out);
    const std::string manifest =
        dirs[0] + "/" + std::string(detail::shard_manifest_name);
    fs::resize_file(manifest, detail::max_shard_manifest_bytes + 1);
    expect_refused(out, manifest, "more than a shard manifest can be");
  }
  // A link to nothing and a FIFO are refused by name too, not taken for a
  // shard that never ran.
  {
    temp_dir d;
    const std::string out = d / "out";
    const auto dirs = two_shards(d, out);
    const std::string manifest =
        dirs[1] + "/" + std::string(detail::shard_manifest_name);
    fs::remove(manifest);
    fs::create_symlink(d / "nowhere.json", manifest);
    expect_refused(out, manifest, "is a symbolic link");
  }
  {
    temp_dir d;
    const std::string out = d / "out";
    const auto dirs = two_shards(d, out);
    const std::string manifest =
        dirs[0] + "/" + std::string(detail::shard_manifest_name);
    fs::remove(manifest);
    ASSERT_EQ(::mkfifo(manifest.c_str(), 0600), 0);
    expect_refused(out, manifest, "is not a regular file");
  }
  test::campaign_tally(test::campaign_kind::hostile_input, 4);
}

// The checks refuse only what is wrong: untouched shards merge, and a
// shard's manifest records the size it checks.
TEST(MergeHostileShards, UntouchedShardsStillMerge) {
  temp_dir d;
  const std::string out = d / "out";
  const auto dirs = two_shards(d, out);
  for (const std::string& dir : dirs) {
    auto m = detail::read_shard_manifest(
        dir + "/" + std::string(detail::shard_manifest_name));
    ASSERT_TRUE(m) << m.err().message;
    for (const auto& f : m->files) {
      ASSERT_TRUE(f.size.has_value()) << f.path;
      EXPECT_EQ(*f.size, fs::file_size(dir + "/" + f.path)) << f.path;
    }
  }
  const merge_report r = merge_into(out);
  ASSERT_EQ(r.outcome, merge_outcome::published) << r.message;
  EXPECT_EQ(r.written, 1'200u);
  // A copy, not a link: what was checked is what is published, whatever is
  // written to the shard's file afterwards.
  for (const auto& f : r.files) {
    struct stat st;
    ASSERT_EQ(::stat((out + "/" + f.path).c_str(), &st), 0);
    EXPECT_EQ(st.st_nlink, 1u) << f.path;
  }
}

// A manifest written before sizes were recorded is still merged, checked by
// its digest alone.
TEST(MergeHostileShards, AManifestWithoutSizesIsCheckedByDigest) {
  temp_dir d;
  const std::string out = d / "out";
  const auto dirs = two_shards(d, out);
  for (const std::string& dir : dirs) {
    const std::string manifest =
        dir + "/" + std::string(detail::shard_manifest_name);
    nlohmann::json j = nlohmann::json::parse(testing::read_file(manifest));
    for (auto& f : j["files"]) f.erase("size");
    testing::write_file(manifest, j.dump(1));
  }
  ASSERT_EQ(merge_into(out).outcome, merge_outcome::published);
  const auto published = testing::snapshot(out);
  const std::string part = first_part(dirs[0]);
  testing::write_file(part, testing::read_raw(part) + "x");
  const merge_report r = merge_into(out);
  EXPECT_EQ(r.outcome, merge_outcome::refused) << r.message;
  EXPECT_NE(r.message.find(part + " does not hold the bytes"),
            std::string::npos)
      << r.message;
  EXPECT_EQ(testing::snapshot(out), published) << "the published set changed";
}

}  // namespace
}  // namespace sitemill
