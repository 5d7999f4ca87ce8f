#include "robots/robots_lexer.h"

#include <string_view>

#include "detail/text.h"

namespace sitemill::detail {
namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// Reads `line.text` into the record fields.
void read_record(robots_line& line) {
  line.content = trim(line.text.substr(0, line.text.find('#')));
  const std::string_view content = line.content;
  if (content.empty()) return;
  std::size_t name_end = 0;
  while (name_end < content.size() && content[name_end] != ':' &&
         !is_ascii_space(content[name_end])) {
    ++name_end;
  }
  std::size_t value_begin = name_end;
  while (value_begin < content.size() && is_ascii_space(content[value_begin]))
    ++value_begin;
  std::string_view value;
  if (value_begin < content.size() && content[value_begin] == ':') {
    value = trim(content.substr(value_begin + 1));
  } else if (value_begin == name_end) {
    return;  // one word and no colon: nothing to read it as
  } else {
    // Google's rule: whitespace stands for the colon only between exactly
    // two words (content has no trailing whitespace left to mistake).
    line.missing_colon = true;
    line.name = content.substr(0, name_end);
    line.value = content.substr(value_begin);
    for (const char c : line.value) {
      if (is_ascii_space(c)) return;
    }
    value = line.value;
  }
  if (name_end == 0) return;  // ": value"
  line.name = content.substr(0, name_end);
  line.value = value;
  line.key = classify_robots_key(line.name, &line.misspelled);
}

}  // namespace

robots_key classify_robots_key(std::string_view name,
                               bool* misspelled) noexcept {
  struct spelling {
    std::string_view name;
    robots_key key;
    bool misspelled;
  };
  // google/robotstxt's spellings (robots.cc, kAllowFrequentTypos), and
  // "sitemaps", which sitemill has always forgiven.
  static constexpr spelling spellings[] = {
      {"user-agent", robots_key::user_agent, false},
      {"allow", robots_key::allow, false},
      {"disallow", robots_key::disallow, false},
      {"sitemap", robots_key::sitemap, false},
      {"useragent", robots_key::user_agent, true},
      {"dissallow", robots_key::disallow, true},
      {"dissalow", robots_key::disallow, true},
      {"disalow", robots_key::disallow, true},
      {"diasllow", robots_key::disallow, true},
      {"disallaw", robots_key::disallow, true},
      {"site-map", robots_key::sitemap, true},
      {"sitemaps", robots_key::sitemap, true},
  };
  for (const spelling& s : spellings) {
    if (iequals(name, s.name)) {
      if (misspelled != nullptr) *misspelled = s.misspelled;
      return s.key;
    }
  }
  if (misspelled != nullptr) *misspelled = false;
  return robots_key::other;
}

robots_lex_result lex_robots_txt(std::string_view body, robots_handler& handler,
                                 std::size_t limit) {
  robots_lex_result result;
  if (body.starts_with("\xFF\xFE") || body.starts_with("\xFE\xFF")) {
    result.utf16 = true;
    return result;
  }
  std::string_view text = body;
  if (text.size() > limit) {
    result.truncated = true;
    const char next = text[limit];
    text = text.substr(0, limit);
    if (next != '\n' && next != '\r') {
      const std::size_t last_break = text.find_last_of("\r\n");
      text = text.substr(
          0, last_break == std::string_view::npos ? 0 : last_break + 1);
    }
  }
  if (text.starts_with(kUtf8Bom)) {
    result.bom = kUtf8Bom.size();
    text.remove_prefix(kUtf8Bom.size());
  }
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t eol = text.find_first_of("\r\n", pos);
    const std::size_t end = eol == std::string_view::npos ? text.size() : eol;
    std::size_t next = end;
    if (next < text.size()) {
      next +=
          text[next] == '\r' && next + 1 < text.size() && text[next + 1] == '\n'
              ? 2
              : 1;
    }
    robots_line line;
    line.number = ++result.lines;
    line.text = text.substr(pos, end - pos);
    line.line_end = text.substr(end, next - end);
    read_record(line);
    handler.on_line(line);
    pos = next;
  }
  return result;
}

}  // namespace sitemill::detail
