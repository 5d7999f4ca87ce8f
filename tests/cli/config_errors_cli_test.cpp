// Mistakes in sitemill.toml (cli/config_file.h, docs/config.md): every one
// names the file, the line and the key, whether the key is unknown, its
// value of the wrong kind, or a value its option refuses.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string site = "https://www.example.com/";

struct mistake {
  std::string toml;  // after "[generate]\nbase-url = ...\n"
  std::string says;
};

run_result generate_with(const std::string& toml,
                         std::vector<std::string> args = {}) {
  temp_dir t;
  write_file(t / "urls.txt", site + "a\n");
  write_file(t / "sitemill.toml",
             "[generate]\nbase-url = \"" + site + "\"\n" + toml);
  run_options o;
  o.cwd = t.path();
  args.insert(args.begin(), "generate");
  args.push_back("urls.txt");
  return run_sitemill(args, o);
}

TEST(ConfigErrors, AnUnknownKeyIsNamedWithTheNearestOne) {
  const run_result r = generate_with("out = \"public\"\nmax-url = 5\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("sitemill.toml:4: 'max-url' is not an option "
                               "of sitemill generate; did you mean "
                               "'max-urls'?"));
}

TEST(ConfigErrors, AValueOfTheWrongKindNamesFileLineAndKey) {
  const std::vector<mistake> mistakes = {
      {"out = \"public\"\nno-gzip = \"yes\"\n",
       "sitemill.toml:4: 'no-gzip' is a flag: write no-gzip = true (or "
       "false)"},
      {"out = \"public\"\nmax-urls = true\n",
       "sitemill.toml:4: 'max-urls' takes a number, not a boolean"},
      {"out = [\"a\", \"b\"]\n",
       "sitemill.toml:3: 'out' takes one value, not a list"},
      {"out = \"public\"\nmax-urls = [1, 2]\n",
       "sitemill.toml:4: 'max-urls' takes one number, not a list"},
  };
  for (const mistake& m : mistakes) {
    const run_result r = generate_with(m.toml);
    EXPECT_EQ(r.exit_code, 2) << m.toml;
    EXPECT_THAT(r.err, HasSubstr(m.says)) << m.toml;
  }
}

TEST(ConfigErrors, AValueTheOptionRefusesNamesFileLineAndKey) {
  const std::vector<mistake> mistakes = {
      {"out = \"public\"\nformat = \"html\"\n",
       "sitemill.toml:4: 'format' in [generate]: "},
      {"out = \"public\"\ncompression = \"ultra\"\n",
       "sitemill.toml:4: 'compression' in [generate]: "},
      {"out = \"public\"\n\nmax-urls = \"many\"\n",
       "sitemill.toml:5: 'max-urls' in [generate]: "},
  };
  for (const mistake& m : mistakes) {
    const run_result r = generate_with(m.toml);
    EXPECT_EQ(r.exit_code, 2) << m.toml;
    EXPECT_THAT(r.err, HasSubstr(m.says)) << m.toml;
    // The value is quoted back as the file has it.
    const std::string value = m.toml.substr(m.toml.rfind("= ") + 2);
    EXPECT_THAT(r.err, HasSubstr(value.substr(1, value.size() - 3))) << m.toml;
  }
}

TEST(ConfigErrors, AValueTheCommandLineReplacesIsNotTheFilesMistake) {
  const run_result r = generate_with("out = \"public\"\nformat = \"html\"\n",
                                     {"--format", "xml"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, Not(HasSubstr("sitemill.toml")));
}

TEST(ConfigErrors, ARefusedValueOfAnotherCommandIsNamedToo) {
  temp_dir t;
  write_file(t / "sitemill.toml", "[check]\nmax-documents = \"many\"\n");
  run_options o;
  o.cwd = t.path();
  const run_result r = run_sitemill({"check", "x.xml"}, o);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err,
              HasSubstr("sitemill.toml:2: 'max-documents' in [check]: "));
  EXPECT_THAT(r.err, HasSubstr("many"));
}

}  // namespace
}  // namespace sitemill::testing
