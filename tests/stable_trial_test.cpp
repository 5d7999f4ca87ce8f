// The stable layout's one-file trial (set_writers::write_trial()): a section
// that fits one file is written as it is read, and must come out byte for
// byte as the replay of its spool would write it; a section that outgrows
// one file drops the trial's file and is laid out as if there had been no
// trial. Which path a run took shows in its progress: the trial's file is
// begun while the input is read, the replay's only after it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "sitemill/generate/generate.h"
#include "sitemill/source/page_source.h"
#include "support/run.h"

namespace sitemill {
namespace {

namespace fs = std::filesystem;
using testing::temp_dir;

// Every file of a published directory by name, with its bytes.
std::map<std::string, std::string> files_in(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::ifstream in(e.path(), std::ios::binary);
    files[e.path().filename()] = {std::istreambuf_iterator<char>(in), {}};
  }
  return files;
}

// Keeps the files begun at the last progress report, the one at the end of
// the input (a small input has no other).
struct watch : generate_observer {
  std::size_t files_at_end_of_input = ~std::size_t{0};
  void progress(const generate_progress& now) override {
    files_at_end_of_input = now.files;
  }
};

std::string url(std::size_t i) {
  return "https://www.example.com/shop/item-" + std::to_string(i * 7919 % 1000) +
         "-" + std::to_string(i) + ".html";
}

generate_options options(const std::string& out, bool gzip) {
  generate_options o;
  o.base_url = "https://www.example.com/";
  o.out_dir = out;
  o.gzip = gzip;
  o.max_urls = 100;
  o.layout = file_layout::stable;
  return o;
}

// `n` URLs from a source that does not know its size: the trial starts.
std::map<std::string, std::string> from_pages(const temp_dir& d,
                                              const std::string& name,
                                              std::size_t n, bool gzip,
                                              std::size_t& files_at_end) {
  generate_options o = options(d / name, gzip);
  std::size_t i = 0;
  o.sources = {page_source("pages", [&i, n](page& p) {
    if (i == n) return false;
    p.loc = url(i);
    p.lastmod = "2025-0" + std::to_string(1 + i % 9) + "-1" +
                std::to_string(i % 10);
    ++i;
    return true;
  })};
  watch w;
  const generate_report r = generate(o, w);
  EXPECT_EQ(r.outcome, generate_outcome::published);
  EXPECT_EQ(r.written, n);
  files_at_end = w.files_at_end_of_input;
  return files_in(d / name);
}

// The same `n` URLs from a list file of known size, each line repeated
// `copies` times: the input's size promises `n * copies` entries.
std::map<std::string, std::string> from_list(const temp_dir& d,
                                             const std::string& name,
                                             std::size_t n, std::size_t copies,
                                             bool gzip,
                                             std::size_t& files_at_end) {
  const std::string input = d / (name + ".tsv");
  {
    std::ofstream f(input);
    for (std::size_t c = 0; c < copies; ++c)
      for (std::size_t i = 0; i < n; ++i)
        f << url(i) << "\t2025-0" << 1 + i % 9 << "-1" << i % 10 << "\n";
  }
  generate_options o = options(d / name, gzip);
  o.sources.push_back(list_source(input, input_format::tsv,
                                  *parse_column_list("loc,lastmod")));
  watch w;
  const generate_report r = generate(o, w);
  EXPECT_EQ(r.outcome, generate_outcome::published);
  EXPECT_EQ(r.written, n);
  files_at_end = w.files_at_end_of_input;
  return files_in(d / name);
}

class StableTrial : public ::testing::TestWithParam<bool> {};

TEST_P(StableTrial, AOneFileSetWrittenAsItIsReadIsTheFileTheReplayWrites) {
  temp_dir d;
  std::size_t trial_files = 0, replay_files = 0;
  const auto trial = from_pages(d, "trial", 80, GetParam(), trial_files);
  // 80 URLs in 320 lines: the size promises more than one file, so no trial.
  const auto replay = from_list(d, "replay", 80, 4, GetParam(), replay_files);
  EXPECT_EQ(trial_files, 1u) << "the trial's file is begun while reading";
  EXPECT_EQ(replay_files, 0u) << "the replay begins its file after reading";
  // Plain, a set of one file is that file as sitemap.xml; gzipped, the
  // file and an index naming it.
  ASSERT_EQ(trial.size(), GetParam() ? 2u : 1u);
  EXPECT_EQ(trial, replay);
}

TEST_P(StableTrial, ASetThatOutgrowsOneFileDropsTheTrialsFile) {
  temp_dir d;
  std::size_t trial_files = 0, replay_files = 0;
  const auto outgrown = from_pages(d, "outgrown", 350, GetParam(), trial_files);
  const auto replay = from_list(d, "replay", 350, 1, GetParam(), replay_files);
  EXPECT_EQ(trial_files, 0u) << "the trial's file is gone by the end of input";
  EXPECT_EQ(replay_files, 0u);
  EXPECT_GE(outgrown.size(), 5u) << "at least four leaves and the index";
  EXPECT_EQ(outgrown, replay);
}

// An image first met past the writer's first 4 MiB: a writer that learns
// namespaces as entries come would cut the file there (two files for a set
// that fits one). The trial gives way to the replay, whose writer is told
// what the leaf's entries use before the first: one file declaring it.
TEST_P(StableTrial, ANamespaceMetLateIsDeclaredByTheOneFile) {
  temp_dir d;
  generate_options o = options(d / "late", GetParam());
  o.max_urls = 50'000;
  const std::string long_path(2000, 'a');
  constexpr std::size_t n = 2200;  // about 4.4 MB of <url> elements
  std::size_t i = 0;
  o.sources = {page_source("pages", [&](page& p) {
    if (i == n) return false;
    p.loc = "https://www.example.com/" + std::to_string(i) + long_path;
    p.images.clear();
    if (i == n - 1) p.images = {"https://www.example.com/a.jpg"};
    ++i;
    return true;
  })};
  watch w;
  const generate_report r = generate(o, w);
  ASSERT_EQ(r.outcome, generate_outcome::published) << r.message;
  EXPECT_EQ(r.written, n);
  std::size_t urlsets = 0;
  for (const auto& f : r.files) urlsets += f.type == document_type::urlset;
  EXPECT_EQ(urlsets, 1u);
  EXPECT_EQ(w.files_at_end_of_input, 0u) << "the trial gave way";
}

INSTANTIATE_TEST_SUITE_P(GzipOrNot, StableTrial, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& p) {
                           return p.param ? "gzip" : "plain";
                         });

}  // namespace
}  // namespace sitemill
