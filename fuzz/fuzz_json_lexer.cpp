// Fuzz target for detail::json_lexer, the JSON under the JSONL list reader.
// Beyond "no crash", it aborts when an invariant breaks:
//   * it never reads outside the input (the input is copied to a buffer of
//     its exact size, so ASan sees a byte past it), and an error's offset is
//     within the input;
//   * tokens come in order: each starts after the one before, at a byte that
//     spells its kind; a number's text and an unescaped string are views of
//     the input at that place; decoded text is never longer than its JSON;
//   * an accepted document's tokens, written back as compact JSON, lex to the
//     same tokens, and writing those is a fixed point; a strict prefix of an
//     accepted document that is not a number is refused;
//   * on input that is UTF-8 (which nlohmann::json insists on) and no deeper
//     than the cap, the lexer accepts exactly what nlohmann::json accepts,
//     and the rewritten document means what the input means.
//
// Input: any bytes, read as one JSON document. The corpus is
// fuzz/corpus/json_lexer/.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "detail/json_lexer.h"
#include "detail/utf8.h"

namespace {

using sitemill::detail::json_lexer;

void require(bool ok) {
  if (!ok) std::abort();
}

enum class kind {
  begin_object,
  end_object,
  begin_list,
  end_list,
  key,
  string,
  number,
  literal
};

struct token {
  kind what;
  std::string text;  // a key's or string's decoded text, a number, a literal
  std::size_t at;
  bool operator==(const token& o) const {
    return what == o.what && text == o.text;  // offsets differ once rewritten
  }
};

// Records the tokens and checks each one against the input as it comes.
struct recorder {
  std::string_view input;
  std::vector<token> tokens;

  void add(kind what, std::string_view text, std::size_t at) {
    require(at < input.size());
    require(tokens.empty() || at > tokens.back().at);
    tokens.push_back({what, std::string(text), at});
  }
  void string_token(kind what, std::string_view text, std::size_t at) {
    require(input[at] == '"');
    // The two quotes and the text fit in what is left: decoded text is never
    // longer than the JSON that spells it (the JSONL reader's arena relies on
    // it).
    require(text.size() + 2 <= input.size() - at);
    const bool is_view = text.data() >= input.data() &&
                         text.data() < input.data() + input.size();
    if (is_view) require(text.data() == input.data() + at + 1);
    add(what, text, at);
  }
  void begin_object(std::size_t at) {
    require(input[at] == '{');
    add(kind::begin_object, {}, at);
  }
  void end_object(std::size_t at) {
    require(input[at] == '}');
    add(kind::end_object, {}, at);
  }
  void begin_list(std::size_t at) {
    require(input[at] == '[');
    add(kind::begin_list, {}, at);
  }
  void end_list(std::size_t at) {
    require(input[at] == ']');
    add(kind::end_list, {}, at);
  }
  void key(std::string_view text, std::size_t at) {
    string_token(kind::key, text, at);
  }
  void string(std::string_view text, std::size_t at) {
    string_token(kind::string, text, at);
  }
  void number(std::string_view text, std::size_t at) {
    require(text.data() == input.data() + at && !text.empty());
    add(kind::number, text, at);
  }
  void literal(std::string_view word, std::size_t at) {
    require(input.substr(at, word.size()) == word);
    add(kind::literal, word, at);
  }
};

struct lexed {
  bool ok = false;
  std::vector<token> tokens;
};

lexed lex(std::string_view input) {
  // An exact-size copy: a read past the end is a heap overflow ASan reports
  // (a std::string's terminator would hide it).
  const std::unique_ptr<char[]> copy(new char[input.size()]);
  std::copy(input.begin(), input.end(), copy.get());
  const std::string_view text(copy.get(), input.size());
  json_lexer lexer;
  lexer.reset(text);
  recorder r{text, {}};
  std::string scratch;
  lexed out;
  out.ok = lexer.read_document(r, scratch);
  if (out.ok) {
    require(lexer.at_end() && lexer.offset() == text.size());
    require(lexer.error().reason.empty());
  } else {
    require(!lexer.error().reason.empty());
    require(lexer.error().offset <= text.size());
  }
  out.tokens = std::move(r.tokens);
  return out;
}

void write_string(std::string& out, std::string_view text) {
  static constexpr char hex[] = "0123456789abcdef";
  out.push_back('"');
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (u < 0x20) {
      out.append("\\u00");
      out.push_back(hex[u >> 4]);
      out.push_back(hex[u & 0xF]);
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
}

// The tokens as compact JSON: commas between siblings, a colon after a key.
std::string write(const std::vector<token>& tokens) {
  std::string out;
  bool need_comma = false;
  for (const token& t : tokens) {
    const bool closes = t.what == kind::end_object || t.what == kind::end_list;
    if (need_comma && !closes) out.push_back(',');
    switch (t.what) {
      case kind::begin_object:
        out.push_back('{');
        break;
      case kind::end_object:
        out.push_back('}');
        break;
      case kind::begin_list:
        out.push_back('[');
        break;
      case kind::end_list:
        out.push_back(']');
        break;
      case kind::key:
        write_string(out, t.text);
        out.push_back(':');
        break;
      case kind::string:
        write_string(out, t.text);
        break;
      case kind::number:
      case kind::literal:
        out.append(t.text);
        break;
    }
    need_comma = t.what != kind::begin_object && t.what != kind::begin_list &&
                 t.what != kind::key;
  }
  return out;
}

bool is_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = sitemill::detail::utf8_sequence_length(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

bool too_deep(std::string_view input) {
  json_lexer lexer;
  lexer.reset(input);
  recorder r{input, {}};
  std::string scratch;
  lexer.read_document(r, scratch);
  return lexer.error().reason == "values nested too deeply";
}

// nlohmann::json refuses a number a double cannot hold (1e400); the lexer
// keeps its text and leaves converting it to the caller.
bool overflows(const lexed& l) {
  for (const token& t : l.tokens)
    if (t.what == kind::number &&
        !std::isfinite(std::strtod(t.text.c_str(), nullptr)))
      return true;
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const lexed first = lex(input);

  if (first.ok) {
    const std::string rewritten = write(first.tokens);
    const lexed second = lex(rewritten);
    require(second.ok && second.tokens == first.tokens);
    require(write(second.tokens) == rewritten);
    // Every JSON value but a number ends with a byte it cannot do without.
    if (first.tokens.front().what != kind::number)
      require(
          !lex(std::string_view(rewritten).substr(0, rewritten.size() - 1)).ok);
  }

  // nlohmann::json skips a UTF-8 BOM, which RFC 8259 lets a parser ignore
  // (the lexer leaves that to its caller, the JSONL reader's line reader),
  // and reads a NUL byte as the end of the input.
  if (is_utf8(input) && !input.starts_with("\xEF\xBB\xBF") &&
      input.find('\0') == std::string_view::npos && !too_deep(input) &&
      !overflows(first)) {
    require(first.ok == nlohmann::json::accept(input));
    if (first.ok) {
      require(nlohmann::json::parse(input) ==
              nlohmann::json::parse(write(first.tokens)));
    }
  }
  return 0;
}
