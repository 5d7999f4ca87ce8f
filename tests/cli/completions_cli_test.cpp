// Shell completions (sitemill completions) and man pages (sitemill man),
// both written from the commands' own CLI11 declarations. What they must
// hold is read from --help at test time, never from a list kept here: a new
// command or option that --help shows and they miss fails these tests.
// The bash script is run for real in bash; the pages are checked with groff
// (groff-base); zsh and fish check their scripts' syntax when installed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "roff.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::UnorderedElementsAre;

constexpr const char* bash = "/bin/bash";
constexpr const char* groff = "/usr/bin/groff";

std::string help_of(const std::vector<std::string>& args) {
  std::vector<std::string> with_help = args;
  with_help.push_back("--help");
  const run_result r = run_sitemill(with_help);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

// The commands `sitemill --help` lists under "Subcommands:".
std::vector<std::string> commands_in_help() {
  std::vector<std::string> commands;
  bool in_list = false;
  for (const std::string& line : split_lines(help_of({}))) {
    if (line == "Subcommands:") {
      in_list = true;
    } else if (in_list && line.starts_with("  ") && line[2] != ' ') {
      commands.push_back(line.substr(2, line.find(' ', 2) - 2));
    } else if (in_list && !line.starts_with("  ")) {
      in_list = false;
    }
  }
  EXPECT_THAT(commands, Not(IsEmpty()));
  return commands;
}

// The long options --help shows for `args`: the names at the start of an
// option's line ("  -q,--quiet", "  --out TEXT REQUIRED").
std::set<std::string> long_options_in_help(
    const std::vector<std::string>& args) {
  static const std::regex option_line(
      R"(^  (?:-\w,)?(--[\w-]+)(?:,(--[\w-]+))?)");
  std::set<std::string> options;
  for (const std::string& line : split_lines(help_of(args))) {
    std::smatch m;
    if (!std::regex_search(line, m, option_line)) continue;
    options.insert(m[1]);
    if (m[2].matched) options.insert(m[2]);
  }
  EXPECT_THAT(options, Not(IsEmpty()));
  return options;
}

// --help's group headings of `command`'s options ("Dates (lastmod):"), but
// the two every command has.
std::vector<std::string> groups_in_help(const std::string& command) {
  std::vector<std::string> groups;
  bool after_usage = false;
  for (const std::string& line : split_lines(help_of({command}))) {
    after_usage = after_usage || line.starts_with("Usage:");
    if (after_usage && !line.empty() && line.back() == ':' &&
        line.front() != ' ' && line != "Positionals:" && line != "Options:")
      groups.push_back(line.substr(0, line.size() - 1));
  }
  EXPECT_THAT(groups, Not(IsEmpty()));
  return groups;
}

std::string script_for(const std::string& shell) {
  const run_result r = run_sitemill({"completions", shell});
  EXPECT_EQ(r.exit_code, 0) << shell << ": " << r.err;
  EXPECT_THAT(r.out, Not(IsEmpty())) << shell;
  return r.out;
}

// `word` in `text` as a whole word: not a prefix of a longer option.
bool has_word(const std::string& text, const std::string& word) {
  for (std::size_t at = text.find(word); at != std::string::npos;
       at = text.find(word, at + 1)) {
    const std::size_t end = at + word.size();
    const auto part_of_name = [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '-' ||
             c == '_';
    };
    const bool starts = at == 0 || !part_of_name(text[at - 1]);
    const bool ends = end == text.size() || !part_of_name(text[end]);
    if (starts && ends) return true;
  }
  return false;
}

// Sources the bash script and calls its function as `complete -F` would
// for the command line `words` (the last one being completed, in `cwd`).
std::vector<std::string> bash_complete(const std::vector<std::string>& words,
                                       const std::string& cwd = "/") {
  static const temp_dir scripts;
  static const std::string script = [] {
    write_file(scripts / "sitemill.bash", script_for("bash"));
    return scripts / "sitemill.bash";
  }();
  std::vector<std::string> args = {
      "-c",
      "source \"$1\" && shift && COMP_WORDS=(\"$@\") && "
      "COMP_CWORD=$(($# - 1)) && _sitemill && "
      "printf '%s\\n' \"${COMPREPLY[@]}\"",
      "bash", script};
  args.insert(args.end(), words.begin(), words.end());
  run_options o;
  o.cwd = cwd;
  const run_result r = run_program(bash, args, o);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  std::vector<std::string> replies;
  for (const std::string& line : split_lines(r.out))
    if (!line.empty()) replies.push_back(line);
  return replies;
}

struct man_dir {
  temp_dir t;
  man_dir() {
    const run_result r = run_sitemill({"man", "--out", t / "man1"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  std::string page(const std::string& name) const {
    return read_raw(t / ("man1/" + name));
  }
};

// How the page spells `text` (roff): hyphens as \-.
std::string in_roff(const std::string& text) {
  return sitemill::cli::roff_escape(text);
}

TEST(CompletionsCli, EveryCommandOfHelpIsInEveryScriptAndHasAManPage) {
  const std::vector<std::string> commands = commands_in_help();
  EXPECT_THAT(commands, Not(::testing::Contains("man")))
      << "man is a build step, hidden from --help";
  for (const char* shell : {"bash", "zsh", "fish"}) {
    const std::string script = script_for(shell);
    for (const std::string& command : commands)
      EXPECT_TRUE(has_word(script, command)) << shell << ": " << command;
  }
  const man_dir man;
  const std::string overview = man.page("sitemill.1");
  for (const std::string& command : commands) {
    const std::string page = man.page("sitemill-" + command + ".1");
    EXPECT_THAT(page, HasSubstr(".SH NAME\n" + in_roff("sitemill-" + command)));
    EXPECT_THAT(overview, HasSubstr(".TP\n\\fB" + in_roff(command) + "\\fR"));
    EXPECT_THAT(overview,
                HasSubstr(".BR " + in_roff("sitemill-" + command) + " (1)"));
  }
  EXPECT_EQ(std::filesystem::exists(man.t / "man1/sitemill-man.1"), false);
}

// The "never drift" guarantee: generate's options as its --help lists them.
TEST(CompletionsCli, EveryLongOptionOfGenerateHelpIsInTheBashScriptAndPage) {
  const std::set<std::string> options = long_options_in_help({"generate"});
  EXPECT_THAT(options, ::testing::Contains("--base-url"));
  const std::string script = script_for("bash");
  const std::string page = man_dir().page("sitemill-generate.1");
  for (const std::string& option : options) {
    EXPECT_TRUE(has_word(script, option)) << option;
    EXPECT_THAT(page, HasSubstr("\\fB" + in_roff(option) + "\\fR")) << option;
  }
  // And nothing else: what bash offers after -- is generate's options and
  // the program's own (--config) that commands take too.
  const std::set<std::string> root = long_options_in_help({});
  for (const std::string& offered :
       bash_complete({"sitemill", "generate", "--"}))
    EXPECT_TRUE(options.count(offered) == 1 || root.count(offered) == 1)
        << offered;
  for (const std::string& group : groups_in_help("generate"))
    EXPECT_THAT(page, HasSubstr(".SS \"" + in_roff(group) + "\"")) << group;
}

TEST(CompletionsCli, BashCompletesCommandsOptionsChoicesAndFiles) {
  temp_dir t;
  write_file(t / "public.xml", "");
  std::filesystem::create_directory(t / "publish");
  write_file(t / "other.txt", "");
  const struct {
    std::vector<std::string> words;
    std::vector<std::string> replies;
  } cases[] = {
      {{"sitemill", "gen"}, {"generate"}},
      {{"sitemill", "ch"}, {"check"}},
      {{"sitemill", "ma"}, {}},  // man is hidden
      {{"sitemill", "check", "--max-do"}, {"--max-documents"}},
      {{"sitemill", "generate", "--no-g"}, {"--no-gzip"}},
      {{"sitemill", "generate", "--format", ""}, {"xml", "txt"}},
      {{"sitemill", "generate", "--format", "=", "t"}, {"txt"}},
      {{"sitemill", "generate", "--compression", "b"}, {"best"}},
      {{"sitemill", "completions", "z"}, {"zsh"}},
      {{"sitemill", "--config", "ci.toml", "gen"}, {"generate"}},
      {{"sitemill", "--con"}, {"--config"}},
      {{"sitemill", "generate", "--co"},
       {"--columns", "--compression", "--concurrency", "--cookie",
        "--cookie-file", "--config", "--color"}},
      {{"sitemill", "check", "--max-depth", ""}, {}},  // a number
  };
  for (const auto& c : cases)
    EXPECT_THAT(bash_complete(c.words),
                ::testing::UnorderedElementsAreArray(c.replies))
        << ::testing::PrintToString(c.words);
  EXPECT_THAT(bash_complete({"sitemill", "check", "pub"}, t.path()),
              UnorderedElementsAre("public.xml", "publish"));
  EXPECT_THAT(bash_complete({"sitemill", "generate", "--state", "o"}, t.path()),
              ElementsAre("other.txt"));
  EXPECT_THAT(bash_complete({"sitemill", "--config", "o"}, t.path()),
              ElementsAre("other.txt"));
}

TEST(CompletionsCli, AnUnknownShellExitsTwoAndNamesTheShells) {
  const run_result r = run_sitemill({"completions", "tcsh"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr("tcsh"));
  EXPECT_THAT(r.err, HasSubstr("{bash,zsh,fish}"));
  EXPECT_EQ(run_sitemill({"completions"}).exit_code, 2);
}

// zsh and fish are not needed to build or install: only to check syntax.
TEST(CompletionsCli, ZshAndFishReadTheirScriptsWhenInstalled) {
  const struct {
    const char* shell;
    const char* program;
    const char* check;
  } shells[] = {{"zsh", "/usr/bin/zsh", "-n"},
                {"fish", "/usr/bin/fish", "--no-execute"}};
  int checked = 0;
  for (const auto& s : shells) {
    if (::access(s.program, X_OK) != 0) continue;
    temp_dir t;
    write_file(t / "script", script_for(s.shell));
    const run_result r = run_program(s.program, {s.check, t / "script"});
    EXPECT_EQ(r.exit_code, 0) << s.shell << ": " << r.err;
    EXPECT_EQ(r.err, "") << s.shell;
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "neither zsh nor fish is installed";
}

// Every page formats without a warning, and every line that starts with a
// '.' is a request these pages use: text never reaches roff as a request.
TEST(ManPages, EveryPageIsCleanRoff) {
  ASSERT_EQ(::access(groff, X_OK), 0)
      << groff << " is missing: install groff-base";
  const man_dir man;
  static const std::regex request(
      R"(^\.(\\"|TH|SH|SS|TP|PP|RS|RE|nf|fi|sp|BR)( |$))");
  for (const std::string& name : list_files(man.t / "man1")) {
    const std::string path = man.t / ("man1/" + name);
    const run_result r = run_program(groff, {"-man", "-ww", "-z", path});
    EXPECT_EQ(r.exit_code, 0) << name;
    EXPECT_EQ(r.err, "") << name;
    for (const std::string& line : split_lines(read_raw(path))) {
      if (!line.empty() && (line[0] == '.' || line[0] == '\'')) {
        EXPECT_TRUE(std::regex_search(line, request)) << name << ": " << line;
      }
    }
  }
}

// Options render as typed (ASCII hyphens), so they can be copied.
TEST(ManPages, OptionsRenderAsTyped) {
  const man_dir man;
  const run_result r = run_program(
      groff, {"-man", "-Tutf8", "-P-cbou", man.t / "man1/sitemill-generate.1"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("--base-url"));
  EXPECT_THAT(r.out, HasSubstr("EXIT STATUS"));
  EXPECT_THAT(r.out, HasSubstr("sitemill generate --base-url "
                               "https://www.example.com/"));
}

TEST(ManPages, TheOverviewHasTheProgramsOptionsExitCodesAndFiles) {
  const std::string page = man_dir().page("sitemill.1");
  for (const std::string& option : long_options_in_help({}))
    EXPECT_THAT(page, HasSubstr("\\fB" + in_roff(option) + "\\fR")) << option;
  EXPECT_THAT(page, HasSubstr(".SH EXIT STATUS\n"));
  EXPECT_THAT(page, HasSubstr(".SH FILES\n.TP\n\\fIsitemill.toml\\fR"));
  EXPECT_THAT(page, HasSubstr(".SH ENVIRONMENT\n"));
}

// diff's examples continue a line with a backslash: it must print as one.
TEST(ManPages, ABackslashInAnExampleIsEscaped) {
  const std::string page = man_dir().page("sitemill-diff.1");
  EXPECT_THAT(page, HasSubstr("\\e\n"));
  EXPECT_THAT(page, Not(HasSubstr("0' \\\n")));
}

TEST(Roff, EscapesWhatRoffWouldRead) {
  using sitemill::cli::roff_argument;
  using sitemill::cli::roff_escape;
  const struct {
    std::string text;
    std::string roff;
  } cases[] = {
      {"plain words", "plain words"},
      {"a\\b", "a\\eb"},
      {"\\fBbold?", "\\efBbold?"},
      {".SH not a request", "\\&.SH not a request"},
      {"'quote at the start", "\\&'quote at the start"},
      {"in the middle . and '", "in the middle . and '"},
      {"two\n.lines", "two\n\\&.lines"},
      {"--out", "\\-\\-out"},
      {"caf\xc3\xa9", "caf\\[u00E9]"},
      {"\xe2\x80\x94", "\\[u2014]"},
      {"\xf0\x9f\x98\x80", "\\[u1F600]"},
      {"bad \xff byte", "bad \\[uFFFD] byte"},
      {"cut \xc3", "cut \\[uFFFD]"},
  };
  for (const auto& c : cases) EXPECT_EQ(roff_escape(c.text), c.roff) << c.text;
  EXPECT_EQ(roff_argument("say \"hi\""), "\"say \\(dqhi\\(dq\"");
  EXPECT_EQ(roff_argument(".x"), "\"\\&.x\"");
}

}  // namespace
}  // namespace sitemill::testing
