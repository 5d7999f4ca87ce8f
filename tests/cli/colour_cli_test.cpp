// Colour for severities (cli/colour.h): on a terminal by default, off with
// NO_COLOR, TERM=dumb, --color=never or when output is not a terminal, and
// forced by --color=always. A terminal is made with util-linux's script(1),
// which runs the command on a pseudo-terminal.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string red_error = "\x1b[1;31merror\x1b[0m";

struct bad_sitemap {
  temp_dir t;
  std::string path = t / "bad.xml";
  bad_sitemap() {
    write_file(path,
               "<?xml version=\"1.0\"?>\n<urlset "
               "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url>"
               "<loc>https://www.example.com/a</loc><priority>2</priority>"
               "</url></urlset>\n");
  }
  // `sitemill check [flag] bad.xml` on a pseudo-terminal, with `env`.
  run_result on_terminal(const std::string& env,
                         const std::string& flag = "") const {
    const std::string command =
        std::string(SITEMILL_BINARY) + " check " + flag + " " + path;
    std::vector<std::string> args = {"-i"};
    for (std::size_t at = 0; at < env.size();) {
      const std::size_t space = env.find(' ', at);
      args.push_back(env.substr(at, space - at));
      at = space == std::string::npos ? env.size() : space + 1;
    }
    args.insert(args.end(), {"script", "-qec", command, "/dev/null"});
    return run_program("/usr/bin/env", args);
  }
};

TEST(Colour, ATerminalGetsColouredSeverities) {
  bad_sitemap s;
  const run_result r = s.on_terminal("TERM=xterm PATH=/usr/bin:/bin");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr(red_error));
}

TEST(Colour, NoColorDumbTerminalsAndNeverTurnItOff) {
  bad_sitemap s;
  for (const auto& [env, flag] :
       std::vector<std::pair<std::string, std::string>>{
           {"TERM=xterm NO_COLOR=1 PATH=/usr/bin:/bin", ""},
           {"TERM=dumb PATH=/usr/bin:/bin", ""},
           {"PATH=/usr/bin:/bin", ""},
           {"TERM=xterm PATH=/usr/bin:/bin", "--color never"}}) {
    const run_result r = s.on_terminal(env, flag);
    EXPECT_EQ(r.exit_code, 1) << env << r.err;
    EXPECT_THAT(r.out, HasSubstr("error: priority")) << env << " " << flag;
    EXPECT_THAT(r.out, Not(HasSubstr("\x1b["))) << env << " " << flag;
  }
}

TEST(Colour, APipeGetsNoneUnlessAlways) {
  bad_sitemap s;
  run_result r = run_sitemill({"check", s.path});
  EXPECT_THAT(r.out, Not(HasSubstr("\x1b[")));
  r = run_sitemill({"check", "--color=always", s.path});
  EXPECT_THAT(r.out, HasSubstr(red_error));
  r = run_sitemill({"--color", "sometimes", "check", s.path});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--color"));
}

TEST(Colour, GenerateColoursWhatItRejects) {
  temp_dir t;
  write_file(t / "urls.txt", "https://elsewhere.example/x\n");
  const run_result r = run_sitemill({"generate", "--color", "always",
                                     "--base-url", "https://www.example.com/",
                                     "--out", t / "out", t / "urls.txt"});
  EXPECT_THAT(r.err, HasSubstr("\x1b[1;31mrejected\x1b[0m")) << r.err;
}

}  // namespace
}  // namespace sitemill::testing
