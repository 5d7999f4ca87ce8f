// The library names no flag of the CLI (architecture.md: the library names
// its options in backquotes, and cli/vocabulary.cpp says them as flags): an
// embedder gets advice about options it has, not about flags it does not.
// The string literals of src/ and include/sitemill/ are read as the compiler
// reads them (comments, character literals, digit separators and raw strings
// told apart), and none may hold a flag the CLI declares.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace sitemill {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

// Files of others' work in progress that still name flags, each to leave
// this list once its messages name options. Empty: every file is checked.
const std::set<std::string> not_yet_clean = {
};

struct literal {
  std::size_t line;  ///< where the literal starts, from 1
  std::string text;  ///< its characters, escapes left as written
};

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_';
}

// The string literals of C++ source `code`, comments skipped.
std::vector<literal> string_literals(std::string_view code) {
  std::vector<literal> found;
  std::size_t line = 1;
  std::size_t i = 0;
  auto advance = [&](std::size_t to) {
    for (; i < to && i < code.size(); ++i) line += code[i] == '\n';
  };
  while (i < code.size()) {
    const char c = code[i];
    const std::string_view rest = code.substr(i);
    if (rest.starts_with("//")) {
      advance(std::min(code.find('\n', i), code.size()));
    } else if (rest.starts_with("/*")) {
      const std::size_t end = code.find("*/", i + 2);
      advance(end == std::string_view::npos ? code.size() : end + 2);
    } else if (c == '\'') {
      // 50'000: a digit separator when the token it is in is a number.
      std::size_t start = i;
      while (start > 0 && (is_word_char(code[start - 1]) ||
                           code[start - 1] == '\'' || code[start - 1] == '.'))
        --start;
      if (start < i && code[start] >= '0' && code[start] <= '9') {
        advance(i + 1);
        continue;
      }
      std::size_t end = i + 1;
      while (end < code.size() && code[end] != '\'')
        end += code[end] == '\\' ? 2 : 1;
      advance(end + 1);
    } else if (c == '"') {
      const std::size_t at_line = line;
      std::size_t start = i;
      while (start > 0 && is_word_char(code[start - 1])) --start;
      const std::string_view prefix = code.substr(start, i - start);
      if (prefix == "R" || prefix == "u8R" || prefix == "uR" ||
          prefix == "UR" || prefix == "LR") {
        const std::size_t open = code.find('(', i);
        const std::string close =
            ")" + std::string(code.substr(i + 1, open - i - 1)) + "\"";
        const std::size_t end = code.find(close, open);
        found.push_back(
            {at_line, std::string(code.substr(open + 1, end - open - 1))});
        advance(end + close.size());
        continue;
      }
      std::size_t end = i + 1;
      while (end < code.size() && code[end] != '"' && code[end] != '\n')
        end += code[end] == '\\' ? 2 : 1;
      found.push_back({at_line, std::string(code.substr(i + 1, end - i - 1))});
      advance(end + 1);
    } else {
      advance(i + 1);
    }
  }
  return found;
}

// Every "--name" in `text` that stands as a flag would: not inside a word
// ("x--y") and not a dash of prose ("a -- b").
std::vector<std::string> flag_words(std::string_view text) {
  std::vector<std::string> words;
  for (std::size_t at = text.find("--"); at != std::string_view::npos;
       at = text.find("--", at + 2)) {
    if (at > 0 && (is_word_char(text[at - 1]) || text[at - 1] == '-')) continue;
    std::size_t end = at + 2;
    if (end >= text.size() || text[end] < 'a' || text[end] > 'z') continue;
    while (end < text.size() && (is_word_char(text[end]) || text[end] == '-'))
      ++end;
    words.emplace_back(text.substr(at, end - at));
  }
  return words;
}

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const fs::path source_dir = SITEMILL_SOURCE_DIR;

// The flags the CLI declares: the literals of cli/ that are a flag's name
// and nothing else ("--max-urls", "-q,--quiet"), as every declaration is.
std::set<std::string> cli_flags() {
  std::set<std::string> flags;
  for (const auto& entry : fs::directory_iterator(source_dir / "cli")) {
    if (entry.path().extension() != ".cpp") continue;
    for (const literal& l : string_literals(read_all(entry.path()))) {
      std::string_view name = l.text;
      if (name.size() > 3 && name[0] == '-' && name[1] != '-' && name[2] == ',')
        name.remove_prefix(3);  // "-q,"
      const std::vector<std::string> words = flag_words(name);
      if (words.size() == 1 && words.front() == name)
        flags.insert(words.front());
    }
  }
  return flags;
}

// "FILE:LINE: --flag in "literal"" for each flag of `flags` that a string
// literal of the library's files names.
std::vector<std::string> library_flag_mentions(
    const std::set<std::string>& flags) {
  std::vector<std::string> found;
  for (const char* dir : {"src", "include/sitemill"}) {
    for (const auto& entry :
         fs::recursive_directory_iterator(source_dir / dir)) {
      const fs::path& path = entry.path();
      if (path.extension() != ".cpp" && path.extension() != ".h") continue;
      const std::string name = path.lexically_relative(source_dir).string();
      for (const literal& l : string_literals(read_all(path)))
        for (const std::string& word : flag_words(l.text))
          if (flags.contains(word))
            found.push_back(name + ":" + std::to_string(l.line) + ": " + word +
                            " in \"" + l.text + "\"");
    }
  }
  return found;
}

TEST(LibraryNamesNoFlag, ReadsOnlyStringLiteralsAsTheCompilerDoes) {
  const std::string code =
      "// a comment naming --max-urls\n"
      "/* and a block\n   naming --out */\n"
      "int n = 50'000; char q = '\"';\n"
      "auto s = \"give --out DIR\";\n"
      "auto t = \"a -- b, x--y, ---z, --\";\n"
      "auto r = R\"x(raw \"--name\")x\";\n"
      "auto e = \"an \\\"escaped --strict\\\" quote\";\n";
  std::vector<std::string> seen;
  for (const literal& l : string_literals(code))
    for (const std::string& word : flag_words(l.text))
      seen.push_back(std::to_string(l.line) + " " + word);
  EXPECT_THAT(seen, ElementsAre("5 --out", "7 --name", "8 --strict"));
}

TEST(LibraryNamesNoFlag, FindsTheCliFlags) {
  const std::set<std::string> flags = cli_flags();
  for (const char* flag : {"--base-url", "--quiet", "--columns", "--robots",
                           "--indexnow-key", "--include", "--max-depth"})
    EXPECT_TRUE(flags.contains(flag)) << flag;
  EXPECT_FALSE(flags.contains("--noout")) << "xmllint's, not ours";
}

TEST(LibraryNamesNoFlag, NoMessageOfTheLibraryNamesAFlag) {
  std::vector<std::string> named;
  std::set<std::string> still_naming;
  for (std::string& found : library_flag_mentions(cli_flags())) {
    const std::string file = found.substr(0, found.find(':'));
    if (not_yet_clean.contains(file))
      still_naming.insert(file);
    else
      named.push_back(std::move(found));
  }
  EXPECT_THAT(named, IsEmpty())
      << "name the option in backquotes (`columns`) and say it as a flag in "
         "cli/vocabulary.cpp";
  // The list shrinks as files are cleaned, so no file hides behind it.
  for (const std::string& file : not_yet_clean)
    EXPECT_TRUE(still_naming.contains(file))
        << file << " names no flag now: take it off not_yet_clean";
}

}  // namespace
}  // namespace sitemill
