// sitemill.toml (cli/config_file.h): options of any command read from a
// [command] table, flags winning over the file, and every mistake named with
// its file and line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string site = "https://www.example.com/";

// A working directory with two URLs to list.
struct project {
  temp_dir t;
  project() { write_file(t / "urls.txt", site + "a\n" + site + "b/x\n"); }
  run_result run(const std::vector<std::string>& args) const {
    run_options o;
    o.cwd = t.path();
    return run_sitemill(args, o);
  }
};

TEST(ConfigFile, SitemillTomlInTheWorkingDirectoryHoldsAnyOption) {
  project p;
  write_file(p.t / "sitemill.toml",
             "# the site's one build step\n"
             "[generate]\n"
             "base-url = \"" +
                 site +
                 "\"\n"
                 "out = \"public\"\n"
                 "no-gzip = true\n"
                 "exclude = [\"b/\", \"c/\"]\n"
                 "inputs = [\"urls.txt\"]\n");
  const run_result r = p.run({"generate"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string xml = read_file(p.t / "public/sitemap.xml");
  EXPECT_THAT(xml, HasSubstr("<loc>" + site + "a</loc>"));
  EXPECT_THAT(xml, Not(HasSubstr(site + "b/x"))) << "the list of excludes";
}

// The file is the flags written down: the same options publish the same
// bytes either way.
TEST(ConfigFile, PublishesTheSameBytesAsTheSameFlags) {
  project p;
  write_file(p.t / "sitemill.toml",
             "[generate]\nbase-url = \"" + site +
                 "\"\nout = \"from-file\"\nmax-urls = 1\n"
                 "no-gzip = true\ninputs = [\"urls.txt\"]\n");
  ASSERT_EQ(p.run({"generate"}).exit_code, 0);
  std::filesystem::remove(p.t / "sitemill.toml");
  const run_result flags =
      p.run({"generate", "--base-url", site, "--out", "from-flags",
             "--max-urls", "1", "--no-gzip", "urls.txt"});
  ASSERT_EQ(flags.exit_code, 0) << flags.err;
  const auto from_file = snapshot(p.t / "from-file");
  EXPECT_EQ(from_file.size(), 3u) << "two sitemaps and an index";
  EXPECT_TRUE(from_file == snapshot(p.t / "from-flags"));
}

TEST(ConfigFile, FlagsWinOverTheFile) {
  project p;
  write_file(p.t / "sitemill.toml",
             "[generate]\nbase-url = \"" + site +
                 "\"\nout = \"public\"\nno-gzip = true\n");
  const run_result r = p.run({"generate", "--out", "other", "urls.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(p.t / "other/sitemap.xml"));
  EXPECT_FALSE(std::filesystem::exists(p.t / "public"));
}

TEST(ConfigFile, ConfigNamesAnotherFileBeforeOrAfterTheCommand) {
  project p;
  write_file(p.t / "ci.toml", "[check]\nquiet = true\n");
  write_file(p.t / "s.xml", "not a sitemap");
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--config", "ci.toml", "check", "s.xml"},
           {"check", "s.xml", "--config", "ci.toml"}}) {
    const run_result r = p.run(args);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_THAT(r.out, Not(HasSubstr("checked "))) << "--quiet from ci.toml";
  }
  const run_result loud = p.run({"check", "s.xml"});
  EXPECT_THAT(loud.out, HasSubstr("checked ")) << "without the file";
  const run_result missing = p.run({"check", "s.xml", "--config", "no.toml"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("no.toml"));
}

TEST(ConfigFile, MistakesNameTheFileLineAndKey) {
  struct mistake {
    std::string toml, says;
  };
  const std::vector<mistake> mistakes = {
      {"[generate]\n\nbase_url = \"x\"\n",
       "sitemill.toml:3: 'base_url' is not an option of sitemill generate; "
       "did you mean 'base-url'?"},
      {"[genrate]\nout = \"x\"\n",
       "sitemill.toml:1: [genrate] is not a command; did you mean "
       "[generate]?"},
      {"out = \"x\"\n",
       "sitemill.toml:1: 'out' is outside any command's table"},
      {"[check]\nhelp = true\n",
       "sitemill.toml:2: 'help' cannot be set in a config file"},
      {"[check]\nzzzzzzzz = 1\n",
       "sitemill.toml:2: 'zzzzzzzz' is not an option of sitemill check (run "
       "'sitemill check --help' for its options)"},
      {"[check]\nmax-documents = { a = 1 }\n",
       "sitemill.toml:2: 'max-documents' takes a string, a number, a boolean "
       "or a list"},
      {"[check]\nexclude = [[1]]\n", "sitemill.toml:2"},
      {"[check\n", "sitemill.toml:1: "},
  };
  for (const mistake& m : mistakes) {
    project p;
    write_file(p.t / "sitemill.toml", m.toml);
    const run_result r = p.run({"check", "x.xml"});
    EXPECT_EQ(r.exit_code, 2) << m.toml;
    EXPECT_THAT(r.err, HasSubstr(m.says)) << m.toml;
  }
}

TEST(ConfigFile, AValueTheOptionRejectsIsAnErrorAsOnTheCommandLine) {
  project p;
  write_file(p.t / "sitemill.toml", "[check]\nmax-documents = \"many\"\n");
  const run_result r = p.run({"check", "x.xml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("many"));
}

TEST(ConfigFile, TheDocumentedExampleIsValid) {
  // docs/config.md's first TOML block, read as a config: every key in it is
  // an option (the file is checked whole, whichever command runs).
  const std::string doc =
      read_file(std::string(SITEMILL_SOURCE_DIR) + "/docs/config.md");
  const std::size_t begin = doc.find("```toml\n");
  ASSERT_NE(begin, std::string::npos);
  const std::size_t end = doc.find("```", begin + 8);
  ASSERT_NE(end, std::string::npos);
  const std::string example = doc.substr(begin + 8, end - begin - 8);
  EXPECT_THAT(example, HasSubstr("[generate]"));
  temp_dir t;
  write_file(t / "example.toml", example);
  const run_result r =
      run_sitemill({"--config", t / "example.toml", "check", "--help"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(ConfigFile, HelpNamesTheOption) {
  const run_result r = run_sitemill({"--help"});
  EXPECT_THAT(r.out, HasSubstr("--config"));
  EXPECT_THAT(r.out, HasSubstr("sitemill.toml"));
}

}  // namespace
}  // namespace sitemill::testing
