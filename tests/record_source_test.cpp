// Sources as an interface: a source generate() has never heard of plugs in,
// every source is validated before anything is written, and the built-in
// sources keep their order and names.
#include "sitemill/source/record_source.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "sitemill/generate/generate.h"
#include "sitemill/source/site_source.h"
#include "support/run.h"

namespace sitemill {
namespace {

using testing::temp_dir;

// A reader over URLs held in memory, as an embedding program would have.
class vector_reader final : public record_reader {
 public:
  explicit vector_reader(std::vector<std::string> urls)
      : urls_(std::move(urls)) {}
  bool next(input_record& out) override {
    if (i_ == urls_.size()) return false;
    out = input_record{};
    out.line = i_ + 1;
    out.loc = urls_[i_++];
    return true;
  }
  const std::string& error() const noexcept override { return error_; }
  const std::vector<note>& notes() const noexcept override { return notes_; }

 private:
  std::vector<std::string> urls_;
  std::size_t i_ = 0;
  std::string error_;
  std::vector<note> notes_;
};

// A source that remembers what the run offered it.
class memory_source final : public record_source {
 public:
  memory_source(std::vector<std::string> urls, std::string refusal = "")
      : urls_(std::move(urls)), refusal_(std::move(refusal)) {}
  std::string name() const override { return "memory"; }
  status validate(const source_context& c) const override {
    validated_base = std::string(c.base_url);
    if (!refusal_.empty()) return error{refusal_};
    return {};
  }
  result<std::unique_ptr<record_reader>> open(
      const source_context& c) const override {
    opened_base = std::string(c.base_url);
    ++opened;
    return std::unique_ptr<record_reader>(
        std::make_unique<vector_reader>(urls_));
  }
  mutable std::string validated_base, opened_base;
  mutable int opened = 0;

 private:
  std::vector<std::string> urls_;
  std::string refusal_;
};

struct collecting_observer : generate_observer {
  std::vector<record_issue> rejects;
  void rejected(const record_issue& r) override { rejects.push_back(r); }
};

generate_options options_for(const temp_dir& d) {
  generate_options o;
  o.base_url = "https://www.example.com";  // normalised to ".../"
  o.out_dir = d / "out";
  o.gzip = false;
  return o;
}

TEST(RecordSource, ASourceGenerateDoesNotKnowPlugsInAndSeesTheNormalisedBase) {
  temp_dir d;
  auto mine = std::make_shared<memory_source>(std::vector<std::string>{
      "/a", "https://www.example.com/b", "ftp://x/", "/a"});
  generate_options o = options_for(d);
  o.sources = {mine};
  collecting_observer obs;
  generate_report r = generate(o, obs);
  ASSERT_EQ(r.outcome, generate_outcome::published) << r.message;
  EXPECT_EQ(r.records, 4u);
  EXPECT_EQ(r.written, 2u);
  EXPECT_EQ(r.duplicates, 1u);
  ASSERT_EQ(obs.rejects.size(), 1u);
  EXPECT_EQ(obs.rejects[0].input, "memory") << "named by the source";
  EXPECT_EQ(obs.rejects[0].line, 3u);
  EXPECT_EQ(mine->validated_base, "https://www.example.com/");
  EXPECT_EQ(mine->opened_base, "https://www.example.com/");
  EXPECT_EQ(mine->opened, 1);
  const auto locs =
      testing::parse_entries(testing::read_file(d / "out/sitemap.xml"));
  ASSERT_EQ(locs.size(), 2u);
}

TEST(RecordSource, ARefusingSourceFailsTheRunBeforeOutIsCreated) {
  temp_dir d;
  auto good = std::make_shared<memory_source>(std::vector<std::string>{"/a"});
  auto bad = std::make_shared<memory_source>(std::vector<std::string>{"/b"},
                                             "the export is not ready");
  generate_options o = options_for(d);
  o.sources = {good, bad};
  generate_observer quiet;
  generate_report r = generate(o, quiet);
  EXPECT_EQ(r.outcome, generate_outcome::failed);
  EXPECT_EQ(r.message, "the export is not ready");
  EXPECT_EQ(good->opened, 0) << "no source is opened before all are valid";
  EXPECT_FALSE(std::filesystem::exists(d / "out"));
}

TEST(RecordSource, SourcesAreReadInOrderAndTheFirstRecordOfAURLWins) {
  temp_dir d;
  testing::write_file(d / "list.tsv", "loc\tpriority\n/a\t0.1\n");
  auto mine =
      std::make_shared<memory_source>(std::vector<std::string>{"/a", "/z"});
  generate_options o = options_for(d);
  o.sources = {list_source(d / "list.tsv"), mine};
  generate_observer quiet;
  generate_report r = generate(o, quiet);
  ASSERT_EQ(r.outcome, generate_outcome::published) << r.message;
  EXPECT_EQ(r.duplicates, 1u);
  const auto entries =
      testing::parse_entries(testing::read_file(d / "out/sitemap.xml"));
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].at("loc"), "https://www.example.com/a");
  EXPECT_EQ(entries[0].at("priority"), "0.1") << "the list came first";
  EXPECT_EQ(entries[1].at("loc"), "https://www.example.com/z");
}

TEST(RecordSource, AListSourceTakesItsFormatFromTheExtensionOrIsTold) {
  temp_dir d;
  testing::write_file(d / "urls.dat", "/a\n");
  source_context context;
  context.base_url = "https://www.example.com/";
  const status unknown = list_source(d / "urls.dat")->validate(context);
  EXPECT_FALSE(unknown) << "an unknown extension is refused up front";
  EXPECT_EQ(unknown.field(), "format") << "names the option to set";
  EXPECT_TRUE(static_cast<bool>(
      list_source(d / "urls.dat", input_format::txt)->validate(context)));
  EXPECT_TRUE(static_cast<bool>(list_source("-")->validate(context)))
      << "stdin is txt";
  EXPECT_EQ(list_source("-")->name(), "<stdin>");
  const status missing = list_source(d / "missing.txt")->validate(context);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.message().find("missing.txt"), std::string::npos);
}

TEST(RecordSource, ADirectoryWithContentLastmodNeedsTheRunsState) {
  temp_dir d;
  site_source_options site;
  site.root = d.path();
  site.lastmod = lastmod_policy::content;
  auto dir = directory_source(site);
  source_context context;
  context.base_url = "https://www.example.com/";
  EXPECT_FALSE(static_cast<bool>(dir->validate(context)));
  context.has_state = true;
  EXPECT_TRUE(static_cast<bool>(dir->validate(context)));
  EXPECT_EQ(dir->name(), d.path());
}

}  // namespace
}  // namespace sitemill
