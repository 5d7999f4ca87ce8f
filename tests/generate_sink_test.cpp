// generate_options::output: a set's one sitemap written to a caller's sink,
// only once the run succeeds; what one stream cannot hold is refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "sitemill/generate/generate.h"
#include "support/run.h"

namespace sitemill {
namespace {

using testing::temp_dir;

generate_options to_sink(const temp_dir& d, const std::string& urls,
                         sink& out) {
  std::ofstream(d / "urls.txt") << urls;
  generate_options o;
  o.sources = {list_source(d / "urls.txt")};
  o.base_url = "https://www.example.com/";
  o.output = &out;
  o.gzip = false;
  return o;
}

// $TMPDIR holds the run's temporary files; none may outlive it.
std::size_t files_in(const std::string& dir) {
  std::size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    (void)e;
    ++n;
  }
  return n;
}

TEST(GenerateSink, WritesTheOneSitemapAndClosesTheSink) {
  temp_dir d, tmp;
  setenv("TMPDIR", tmp.path().c_str(), 1);
  memory_sink out;
  generate_observer quiet;
  const generate_report r = generate(to_sink(d, "/a\n/b\n/a\n", out), quiet);
  unsetenv("TMPDIR");
  ASSERT_EQ(r.outcome, generate_outcome::published) << r.message;
  EXPECT_TRUE(out.closed());
  EXPECT_EQ(testing::validate_xml(out.data()), "") << out.data();
  EXPECT_EQ(testing::parse_entries(out.data()).size(), 2u);
  EXPECT_EQ(r.written, 2u);
  EXPECT_EQ(r.duplicates, 1u);
  ASSERT_EQ(r.sets.size(), 1u);
  EXPECT_EQ(r.sets[0].base_url, "https://www.example.com/");
  EXPECT_EQ(files_in(tmp.path()), 0u) << "its temporary files went with it";
}

TEST(GenerateSink, WritesNothingWhenTheSetNeedsSeveralFiles) {
  temp_dir d, tmp;
  setenv("TMPDIR", tmp.path().c_str(), 1);
  memory_sink out;
  generate_observer quiet;
  generate_options o = to_sink(d, "/a\n/b\n/c\n", out);
  o.max_urls = 2;
  const generate_report r = generate(o, quiet);
  unsetenv("TMPDIR");
  EXPECT_EQ(r.outcome, generate_outcome::needs_several_files);
  EXPECT_NE(r.message.find("needs 2 sitemaps"), std::string::npos) << r.message;
  EXPECT_EQ(out.data(), "");
  EXPECT_FALSE(out.closed());
  EXPECT_EQ(files_in(tmp.path()), 0u);
}

TEST(GenerateSink, WritesNothingWhenStrictFails) {
  temp_dir d;
  memory_sink out;
  generate_observer quiet;
  generate_options o = to_sink(d, "/a\nftp://elsewhere/\n", out);
  o.strict = true;
  EXPECT_EQ(generate(o, quiet).outcome, generate_outcome::strict_failed);
  EXPECT_EQ(out.data(), "");
}

TEST(GenerateSink, RefusesWhatOneStreamCannotHold) {
  temp_dir d;
  generate_observer quiet;
  const std::vector<void (*)(generate_options&)> cases = {
      [](generate_options& o) { o.out_dir = "public"; },
      [](generate_options& o) {
        o.more_base_urls = {"https://shop.example.com/"};
      },
      [](generate_options& o) {
        o.shard = {0, 2, false, ""};
      },
      [](generate_options& o) { o.html_view = true; },
      [](generate_options& o) { o.bundled_stylesheet = true; },
  };
  for (auto change : cases) {
    memory_sink out;
    generate_options o = to_sink(d, "/a\n", out);
    change(o);
    const generate_report r = generate(o, quiet);
    EXPECT_EQ(r.outcome, generate_outcome::failed);
    EXPECT_EQ(r.field, "output");
    EXPECT_NE(r.message.find("`output`"), std::string::npos) << r.message;
    EXPECT_EQ(out.data(), "");
  }
}

}  // namespace
}  // namespace sitemill
