// detail::json_lexer, the strict JSON reader under the JSONL list reader:
// tokens with their offsets, escapes (RFC 8259 section 7), numbers (section
// 6), the nesting cap, and the reason and offset of each refusal.
#include "detail/json_lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace {

using sitemill::detail::json_lexer;

// Each token as "kind:text@offset", so a case is one line.
struct token_list {
  std::vector<std::string> tokens;
  void add(std::string_view kind, std::string_view text, std::size_t at) {
    std::string t(kind);
    if (!text.empty()) t.append(":").append(text);
    tokens.push_back(t + "@" + std::to_string(at));
  }
  void begin_object(std::size_t at) { add("{", {}, at); }
  void end_object(std::size_t at) { add("}", {}, at); }
  void begin_list(std::size_t at) { add("[", {}, at); }
  void end_list(std::size_t at) { add("]", {}, at); }
  void key(std::string_view text, std::size_t at) { add("key", text, at); }
  void string(std::string_view text, std::size_t at) { add("str", text, at); }
  void number(std::string_view text, std::size_t at) { add("num", text, at); }
  void literal(std::string_view word, std::size_t at) { add(word, {}, at); }
};

struct lexed {
  bool ok = false;
  std::vector<std::string> tokens;
  std::string reason;
  std::size_t offset = 0;
};

lexed lex(std::string_view text) {
  json_lexer lexer;
  lexer.reset(text);
  token_list list;
  std::string scratch;
  lexed out;
  out.ok = lexer.read_document(list, scratch);
  out.tokens = std::move(list.tokens);
  out.reason = std::string(lexer.error().reason);
  out.offset = lexer.error().offset;
  return out;
}

// The one string a document holds, decoded.
std::string string_of(std::string_view text) {
  const lexed l = lex(text);
  EXPECT_TRUE(l.ok) << text << ": " << l.reason << " at " << l.offset;
  EXPECT_EQ(l.tokens.size(), 1u) << text;
  if (l.tokens.size() != 1) return {};
  const std::string& t = l.tokens[0];
  return t.substr(4, t.rfind('@') - 4);  // "str:" ... "@0"
}

void expect_error(std::string_view text, std::string_view reason,
                  std::size_t offset) {
  const lexed l = lex(text);
  EXPECT_FALSE(l.ok) << text;
  EXPECT_EQ(l.reason, reason) << text;
  EXPECT_EQ(l.offset, offset) << text;
}

TEST(JsonLexer, TellsEachTokenWithTheOffsetOfItsFirstByte) {
  EXPECT_EQ(
      lex(R"({"a": 1, "bc": [true, null, "x"], "d": {}})").tokens,
      (std::vector<std::string>{"{@0", "key:a@1", "num:1@6", "key:bc@9", "[@15",
                                "true@16", "null@22", "str:x@28", "]@31",
                                "key:d@34", "{@39", "}@40", "}@41"}));
  EXPECT_EQ(lex(" \t\r\n[ ] ").tokens,
            (std::vector<std::string>{"[@4", "]@6"}));
}

// Section 7: the two-character escapes and \u, which gives UTF-8.
TEST(JsonLexer, DecodesEscapes) {
  EXPECT_EQ(string_of(R"("\"\\\/\b\f\n\r\t")"), "\"\\/\b\f\n\r\t");
  EXPECT_EQ(string_of(R"("a\u0041\u00e9\u20AC")"), "aA\xC3\xA9\xE2\x82\xAC");
  EXPECT_EQ(string_of(R"("\u0000")"), std::string(1, '\0'));
}

// Section 7: a code point above U+FFFF is escaped as a UTF-16 surrogate pair.
TEST(JsonLexer, JoinsSurrogatePairsIntoOneCodePoint) {
  EXPECT_EQ(string_of(R"("\uD83D\uDE00")"), "\xF0\x9F\x98\x80");
  EXPECT_EQ(string_of(R"("\udbff\udfff")"), "\xF4\x8F\xBF\xBF");
}

TEST(JsonLexer, RefusesAHalfOfASurrogatePairWhereItIsFound) {
  expect_error(R"("\uDC00")", "unpaired surrogate in \\u escape", 7);
  expect_error(R"("\uD800")", "unpaired surrogate in \\u escape", 7);
  expect_error(R"("\uD800x")", "unpaired surrogate in \\u escape", 7);
  expect_error(R"("\uD800\u0041")", "unpaired surrogate in \\u escape", 13);
  expect_error(R"("\uD800\uD800")", "unpaired surrogate in \\u escape", 13);
  expect_error(R"("\uD800\u12")", "invalid \\u escape", 9);
}

TEST(JsonLexer, RefusesBadEscapesAtTheByteThatIsWrong) {
  expect_error(R"("a\qb")", "invalid escape in a string", 3);
  expect_error(R"("\u12G4")", "invalid \\u escape", 5);
  expect_error(R"("\u12")", "invalid \\u escape", 3);
  expect_error("\"a\nb\"", "control character in a string", 2);
  expect_error("\"a\\\"\x1f\"", "control character in a string", 4);
}

// Bytes are passed through: the entry stage judges UTF-8 with the URL's
// words, so the lexer neither refuses nor repairs them.
TEST(JsonLexer, PassesBytesThatAreNotUtf8Through) {
  EXPECT_EQ(string_of("\"\xff\xfe\""), "\xff\xfe");
  EXPECT_EQ(string_of("\"\xed\xa0\x80\""), "\xed\xa0\x80");  // a surrogate
  EXPECT_EQ(string_of("\"\xc3\\n\""), "\xc3\n");             // cut by an escape
}

TEST(JsonLexer, ViewsTheTextUnlessAStringHasEscapes) {
  const std::string text = R"(["plain", "esc\n"])";
  json_lexer lexer;
  lexer.reset(text);
  std::string scratch;
  std::vector<std::string_view> strings;
  ASSERT_TRUE(lexer.each_element([&] {
    std::string_view s;
    if (!lexer.read_string(s, scratch)) return false;
    strings.push_back(s);
    return true;
  }));
  ASSERT_EQ(strings.size(), 2u);
  EXPECT_EQ(strings[0].data(), text.data() + 2);
  EXPECT_EQ(strings[1].data(), scratch.data());
  EXPECT_EQ(strings[1], "esc\n");
}

// Section 6: a number is kept as written, never converted.
TEST(JsonLexer, KeepsANumbersTextAsWritten) {
  for (const std::string_view n :
       {"0", "-0", "0.80", "12", "-3.25", "1e5", "1E+10", "2.5e-3", "-0.0e0"}) {
    const lexed l = lex(n);
    EXPECT_TRUE(l.ok) << n;
    EXPECT_EQ(l.tokens,
              std::vector<std::string>{"num:" + std::string(n) + "@0"});
  }
}

TEST(JsonLexer, RefusesNumbersOutsideTheGrammar) {
  expect_error("-", "invalid number", 1);
  expect_error("-a", "invalid number", 1);
  expect_error("1.", "invalid number", 2);
  expect_error("1.e3", "invalid number", 2);
  expect_error("1e", "invalid number", 2);
  expect_error("1e+", "invalid number", 3);
  expect_error(".5", "unexpected character", 0);
  expect_error("+1", "unexpected character", 0);
  expect_error("01", "unexpected text after the value", 1);
  expect_error("[1 2]", "expected ',' or ']'", 3);
}

// The cap keeps recursion bounded: 256 containers deep is read, 257 is not.
TEST(JsonLexer, RefusesNestingDeeperThanTheCapWhereItStarts) {
  const int cap = json_lexer::max_depth;
  const std::string deepest = std::string(cap, '[') + std::string(cap, ']');
  EXPECT_TRUE(lex(deepest).ok);
  expect_error(std::string(cap + 1, '[') + std::string(cap + 1, ']'),
               "values nested too deeply", cap);
  std::string objects;
  for (int i = 0; i <= cap; ++i) objects += R"({"a":)";
  expect_error(objects + "1" + std::string(cap + 1, '}'),
               "values nested too deeply", 5 * cap);
  // A line of a million '[' is refused at the cap, without deeper calls.
  expect_error(std::string(1000000, '['), "values nested too deeply", cap);
}

TEST(JsonLexer, RefusesATruncatedDocumentAtItsEnd) {
  expect_error("", "expected a value", 0);
  expect_error("  ", "expected a value", 2);
  expect_error("{", "expected a string key", 1);
  expect_error(R"({"a")", "expected ':' after a key", 4);
  expect_error(R"({"a":)", "expected a value", 5);
  expect_error(R"({"a":1)", "expected ',' or '}'", 6);
  expect_error(R"({"a":1,)", "expected a string key", 7);
  expect_error("[", "expected a value", 1);
  expect_error("[1,", "expected a value", 3);
  expect_error(R"("abc)", "unterminated string", 4);
  expect_error(R"("abc\)", "unterminated string", 5);
  expect_error("tru", "invalid literal", 0);
  expect_error("nul", "invalid literal", 0);
}

TEST(JsonLexer, RefusesWhatIsNoJson) {
  expect_error("{a:1}", "expected a string key", 1);
  expect_error(R"({"a" 1})", "expected ':' after a key", 5);
  expect_error("[1,]", "unexpected character", 3);
  expect_error("{} {}", "unexpected text after the value", 3);
  expect_error("True", "unexpected character", 0);
  expect_error("[nan]", "invalid literal", 1);
  expect_error("'a'", "unexpected character", 0);
}

TEST(JsonLexer, SkipsAValueAfterCheckingIt) {
  const std::string text = R"({"a": [1, {"b": "\u00e9"}], "c": 2})";
  json_lexer lexer;
  lexer.reset(text);
  std::string scratch;
  std::vector<std::string> keys;
  ASSERT_TRUE(lexer.each_member(scratch, [&](std::string_view key) {
    keys.emplace_back(key);
    return lexer.skip_value(1, scratch);
  }));
  EXPECT_EQ(keys, (std::vector<std::string>{"a", "c"}));
  EXPECT_TRUE(lexer.at_end());

  lexer.reset(R"({"a": [1, {"b": "\x"}]})");
  EXPECT_FALSE(lexer.each_member(
      scratch, [&](std::string_view) { return lexer.skip_value(1, scratch); }));
  EXPECT_EQ(lexer.error().reason, "invalid escape in a string");
  EXPECT_EQ(lexer.error().offset, 18u);
}

}  // namespace
