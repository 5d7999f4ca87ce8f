// Fuzz target for robots.txt: the lexer and its three consumers. Beyond "no
// crash", it aborts when an invariant breaks:
//   * lexer: without a limit, the BOM and the lines' bytes are the input;
//     with one, the lines read are exactly those that end within it;
//   * finder: sitemaps are normalised, unique and in line order;
//   * editor: it refuses a file holding a NUL byte; otherwise its output,
//     re-read by the finder, names exactly the sitemaps asked for (with
//     replace) or all of them (without); every line that is not a Sitemap
//     record is kept byte for byte, in order; a second edit changes nothing;
//   * matcher: a path and its percent-encoded spellings get the same answer;
//     a product token the file never names gets the `*` answer.
//
// Input: a robots.txt body.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "detail/text.h"
#include "robots/robots_lexer.h"
#include "sitemill/limits.h"
#include "sitemill/robots/robots.h"
#include "sitemill/robots/robots_edit.h"
#include "sitemill/robots/robots_rules.h"
#include "sitemill/url/url.h"

namespace {

using sitemill::detail::robots_key;
using sitemill::detail::robots_line;

void require(bool ok) {
  if (!ok) std::abort();
}

constexpr std::string_view kRobotsUrl = "https://www.example.com/robots.txt";
const std::vector<std::string> kWanted = {
    "https://www.example.com/sitemap.xml",
    "https://www.example.com/news.xml",
};

struct collector final : sitemill::detail::robots_handler {
  std::vector<robots_line> lines;
  void on_line(const robots_line& line) override { lines.push_back(line); }
};

bool within(std::string_view part, std::string_view whole) {
  return part.empty() ||
         (part.data() >= whole.data() &&
          part.data() + part.size() <= whole.data() + whole.size());
}

// The shape of one line, whatever the input.
void check_line(const robots_line& l) {
  require(l.text.find_first_of("\r\n") == std::string_view::npos);
  require(l.line_end.empty() || l.line_end == "\n" || l.line_end == "\r" ||
          l.line_end == "\r\n");
  require(within(l.content, l.text) && within(l.name, l.text) &&
          within(l.value, l.text));
  require(sitemill::detail::trim(l.content) == l.content);
  require(sitemill::detail::trim(l.value) == l.value);
  require(l.content.find('#') == std::string_view::npos);
  if (l.content.empty()) require(l.key == robots_key::none);
  if (l.key != robots_key::none) {
    require(!l.name.empty());
    bool misspelled = false;
    require(sitemill::detail::classify_robots_key(l.name, &misspelled) ==
            l.key);
    require(misspelled == l.misspelled);
  }
  if (l.missing_colon && l.key != robots_key::none) {
    for (const char c : l.value) require(!sitemill::detail::is_ascii_space(c));
  }
}

std::size_t offset(std::string_view part, std::string_view whole) {
  return static_cast<std::size_t>(part.data() - whole.data());
}

void check_lexer(std::string_view input, const collector& all,
                 const sitemill::detail::robots_lex_result& whole) {
  if (whole.utf16) {
    require(all.lines.empty() && !whole.truncated);
    return;
  }
  require(!whole.truncated);
  require(whole.lines == all.lines.size());
  std::string joined(input.substr(0, whole.bom));
  for (std::size_t i = 0; i < all.lines.size(); ++i) {
    require(all.lines[i].number == i + 1);
    check_line(all.lines[i]);
    joined += all.lines[i].bytes();
  }
  require(joined == input);

  // Limits that fall inside the input, so something is cut.
  for (const std::size_t limit : {input.size() / 2, input.size() / 3 + 1,
                                  input.size() > 0 ? input.size() - 1 : 0}) {
    if (limit >= input.size()) continue;
    collector cut;
    const auto read = sitemill::detail::lex_robots_txt(input, cut, limit);
    require(read.truncated && read.lines == cut.lines.size());
    // Exactly the lines whose text ends within the limit; a blank line
    // whose line end is the first byte past it may be left out.
    std::size_t expected = 0;
    while (expected < all.lines.size() &&
           offset(all.lines[expected].text, input) +
                   all.lines[expected].text.size() <=
               limit) {
      ++expected;
    }
    require(cut.lines.size() == expected ||
            (cut.lines.size() + 1 == expected &&
             all.lines[expected - 1].text.empty() &&
             offset(all.lines[expected - 1].text, input) == limit));
    for (std::size_t i = 0; i < cut.lines.size(); ++i) {
      const robots_line& a = cut.lines[i];
      const robots_line& b = all.lines[i];
      require(a.text.data() == b.text.data() && a.text == b.text);
      require(a.key == b.key && a.name == b.name && a.value == b.value &&
              a.misspelled == b.misspelled &&
              a.missing_colon == b.missing_colon);
      require(offset(a.line_end, input) + a.line_end.size() <= limit);
    }
  }
}

std::vector<std::string> found_urls(std::string_view text) {
  const sitemill::robots_sitemaps found =
      sitemill::find_sitemaps(text, kRobotsUrl);
  std::vector<std::string> urls;
  std::uint64_t last_line = 0;
  for (const auto& s : found.sitemaps) {
    std::string again;
    require(sitemill::normalize_url(s.url, again) ==
                sitemill::url_problem::ok &&
            again == s.url);
    require(s.line > last_line);
    last_line = s.line;
    for (const std::string& u : urls) require(u != s.url);
    urls.push_back(s.url);
  }
  for (const auto& d : found.diagnostics) {
    require(d.code.starts_with("robots-") && !d.message.empty());
  }
  return urls;
}

bool sitemap_line(const robots_line& l) {
  return l.key == robots_key::sitemap ||
         (l.key == robots_key::none && l.missing_colon &&
          sitemill::detail::classify_robots_key(l.name) == robots_key::sitemap);
}

void check_editor(std::string_view input, const collector& all, std::size_t bom,
                  bool replace) {
  sitemill::robots_edit_options options;
  options.replace = replace;
  auto edit = sitemill::edit_robots_txt(input, kWanted, options);
  // A NUL byte: no text file holds one, and the editor keeps every byte.
  if (input.find('\0') != std::string_view::npos) {
    require(!edit);
    return;
  }
  if (!edit) {
    // The one other refusal of a file that is not UTF-16: removing line 1
    // would leave a later line's bytes FF FE or FE FF in front.
    bool utf16_looking = false;
    for (const robots_line& l : all.lines) {
      utf16_looking =
          utf16_looking || (l.number > 1 && (l.text.starts_with("\xFF\xFE") ||
                                             l.text.starts_with("\xFE\xFF")));
    }
    require(utf16_looking && bom == 0);
    return;
  }
  const std::string& out = edit->text;
  require(edit->changed == (out != input));

  // Every line is still there, in order, byte for byte, but the Sitemap
  // records the edit says it removed.
  require(out.compare(0, bom, input.substr(0, bom)) == 0);
  std::size_t pos = bom;
  std::size_t removed = 0;
  for (const robots_line& l : all.lines) {
    if (removed < edit->removed.size() &&
        edit->removed[removed].line == l.number) {
      require(sitemap_line(l) && edit->removed[removed].text == l.text);
      ++removed;
      continue;
    }
    const std::string_view bytes = l.bytes();
    require(out.compare(pos, bytes.size(), bytes) == 0);
    pos += bytes.size();
  }
  require(removed == edit->removed.size());
  // ... and after them only blank lines and the lines added.
  collector tail;
  sitemill::detail::lex_robots_txt(std::string_view(out).substr(pos), tail,
                                   sitemill::detail::robots_no_limit);
  for (const robots_line& l : tail.lines) {
    require(l.content.empty() || l.text.starts_with("Sitemap: "));
  }

  if (out.size() <= sitemill::max_robots_txt_bytes) {
    const std::vector<std::string> urls = found_urls(out);
    for (const std::string& w : kWanted) {
      bool seen = false;
      for (const std::string& u : urls) seen = seen || u == w;
      require(seen);
    }
    if (replace) require(urls.size() == kWanted.size());
  }

  auto again = sitemill::edit_robots_txt(out, kWanted, options);
  require(again.has_value() && again->text == out && !again->changed);
}

bool is_unreserved(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
}

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
         (c >= 'A' && c <= 'F');
}

// `path` with unreserved and non-ASCII bytes percent-encoded (`lower` hex
// digits or upper) and the hex digits of its escapes in that case too:
// RFC 9309 2.2.2 makes every such spelling the same path.
std::string respelled(std::string_view path, bool lower) {
  const char* digits = lower ? "0123456789abcdef" : "0123456789ABCDEF";
  std::string out;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const auto c = static_cast<unsigned char>(path[i]);
    if (c == '%' && i + 2 < path.size() && is_hex(path[i + 1]) &&
        is_hex(path[i + 2])) {
      out += '%';
      for (const char h : {path[i + 1], path[i + 2]}) {
        out += lower ? sitemill::detail::ascii_lower(h)
                     : static_cast<char>(h >= 'a' && h <= 'f' ? h - 32 : h);
      }
      i += 2;
    } else if (c >= 0x80 || is_unreserved(c)) {
      out += '%';
      out += digits[c >> 4];
      out += digits[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

void check_matcher(std::string_view input, const collector& all) {
  const sitemill::robots_rules star = sitemill::parse_robots_rules(input);
  const sitemill::robots_rules star_too =
      sitemill::parse_robots_rules(input, "*");
  const sitemill::robots_rules ours =
      sitemill::parse_robots_rules(input, "sitemill/1.0 (+https://x)");
  // A token no file in the corpus names, unless the input spells it.
  constexpr std::string_view stranger = "qzxjvbot";
  const sitemill::robots_rules theirs =
      sitemill::parse_robots_rules(input, stranger);
  bool names_stranger = false;
  for (std::size_t i = 0; i + stranger.size() <= input.size(); ++i) {
    names_stranger =
        names_stranger ||
        sitemill::detail::iequals(input.substr(i, stranger.size()), stranger);
  }

  std::vector<std::string> paths = {"/", "/a", "/robots.txt", "/%E3%83%84",
                                    "/a?b=c"};
  for (const robots_line& l : all.lines) {
    if (paths.size() >= 24) break;
    if (l.key != robots_key::allow && l.key != robots_key::disallow) continue;
    std::string p(l.value);
    if (!p.starts_with('/')) p.insert(0, "/");
    paths.push_back(std::move(p));
  }
  for (const std::string& p : paths) {
    for (const sitemill::robots_rules* r : {&star, &ours}) {
      const bool allowed = r->allowed(p);
      require(r->allowed(respelled(p, false)) == allowed);
      require(r->allowed(respelled(p, true)) == allowed);
      const std::string rule = r->matching_rule(p);
      require(allowed == (rule.empty() || rule.starts_with("Allow: ")));
    }
    require(star_too.allowed(p) == star.allowed(p));
    if (!names_stranger) require(theirs.allowed(p) == star.allowed(p));
  }
  require(star_too.size() == star.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);

  collector all;
  const auto whole = sitemill::detail::lex_robots_txt(
      input, all, sitemill::detail::robots_no_limit);
  check_lexer(input, all, whole);

  found_urls(input);
  check_matcher(input, all);
  if (!whole.utf16) {
    check_editor(input, all, whole.bom, true);
    check_editor(input, all, whole.bom, false);
  }
  return 0;
}
