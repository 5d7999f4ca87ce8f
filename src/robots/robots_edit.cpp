// sitemill: editing the Sitemap: lines of robots.txt (docs/protocol.md 5).
//
// The reading side is robots.cpp; both read lines through the one lexer
// (robots_lexer.h), so what the checker reads as a sitemap is what the editor
// counts ("site-map", "sitemaps" and a missing colon are still Sitemap
// records). Lines are copied as byte ranges of the input: whatever is not a
// Sitemap record cannot change. The whole file is read, past the parsing
// limit too: every byte must be kept.
#include "sitemill/robots/robots_edit.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "detail/text.h"
#include "robots/robots_lexer.h"
#include "sitemill/limits.h"
#include "sitemill/small_file.h"
#include "sitemill/url/url.h"

namespace sitemill {
namespace {

// Every line, kept for copying.
struct line_collector final : detail::robots_handler {
  std::vector<detail::robots_line> lines;
  void on_line(const detail::robots_line& line) override {
    lines.push_back(line);
  }
};

std::string printable(std::string_view s) {
  std::string out;
  detail::append_printable(out, s);
  return out;
}

// Crawlers read the first 500 KiB (RFC 9309 2.5); the editor keeps every
// byte, so it reads the whole file, but a robots.txt a hundred times that
// is something else, and would be held in memory several times over.
constexpr std::uint64_t max_robots_edit_bytes = 64 << 20;

}  // namespace

result<robots_edit> edit_robots_txt(std::string_view robots_txt,
                                    const std::vector<std::string>& sitemaps,
                                    const robots_edit_options& options) {
  line_collector file;
  const detail::robots_lex_result read =
      detail::lex_robots_txt(robots_txt, file, detail::robots_no_limit);
  if (read.utf16) {
    return error{
        "robots.txt is UTF-16 (it starts with a UTF-16 byte order mark); "
        "RFC 9309 requires UTF-8 and crawlers cannot read it. Save it as "
        "UTF-8 first"};
  }
  // Every byte is kept, so Sitemap: lines added to a binary file (an image
  // or an archive given as robots.txt) would make it neither.
  if (const std::size_t nul = robots_txt.find('\0');
      nul != std::string_view::npos) {
    const auto line =
        1 + std::count(robots_txt.begin(), robots_txt.begin() + nul, '\n');
    return error{"robots.txt holds a NUL byte on line " + std::to_string(line) +
                 ", which no text file does: is it the right file? Nothing "
                 "was changed"};
  }
  const std::vector<detail::robots_line>& lines = file.lines;

  // The wanted URLs, normalised and deduplicated, in the order given.
  std::vector<std::string> wanted;
  std::unordered_map<std::string, std::size_t> wanted_index;
  for (const std::string& given : sitemaps) {
    std::string url;
    const url_problem problem = normalize_url(given, url);
    if (problem == url_problem::relative_without_base) {
      return error{"sitemap URL \"" + printable(given) +
                   "\" is relative; robots.txt needs the full URL, e.g. "
                   "https://www.example.com/sitemap.xml"};
    }
    if (problem != url_problem::ok) {
      return error{"sitemap URL \"" + printable(given) +
                   "\": " + std::string(describe(problem))};
    }
    if (wanted_index.try_emplace(url, wanted.size()).second) {
      wanted.push_back(std::move(url));
    }
  }

  // What each Sitemap record is: a record whose value normalises to `url`
  // ("" when it does not normalise), `canonical` when spelled "Sitemap:"
  // (any case), the only form every crawler reads.
  // "Sitemap a b" without a colon is no record for any crawler, but it is
  // meant as one, so it is treated as one that names no URL.
  struct record_line {
    std::size_t line = 0;
    bool canonical = false;
    bool unread = false;
    std::string url;
  };
  std::vector<record_line> records;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const detail::robots_line& l = lines[i];
    record_line r;
    r.line = i;
    if (l.key == detail::robots_key::none && l.missing_colon) {
      if (detail::classify_robots_key(l.name) != detail::robots_key::sitemap)
        continue;
      r.unread = true;
    } else if (l.key != detail::robots_key::sitemap) {
      continue;
    } else {
      r.canonical = !l.misspelled && !l.missing_colon;
      if (normalize_url(l.value, r.url) != url_problem::ok) r.url.clear();
    }
    records.push_back(std::move(r));
  }

  // The line that keeps each wanted URL: its first canonical record.
  constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::vector<std::size_t> kept_line(wanted.size(), none);
  for (const record_line& r : records) {
    if (!r.canonical || r.url.empty()) continue;
    const auto it = wanted_index.find(r.url);
    if (it != wanted_index.end() && kept_line[it->second] == none) {
      kept_line[it->second] = r.line;
    }
  }

  robots_edit edit;
  std::vector<bool> remove(lines.size(), false);
  for (const record_line& r : records) {
    const auto it =
        r.url.empty() ? wanted_index.end() : wanted_index.find(r.url);
    std::string reason;
    if (it != wanted_index.end()) {
      const std::size_t keep = kept_line[it->second];
      if (keep == r.line) continue;
      reason = keep != none
                   ? "repeats line " + std::to_string(keep + 1)
                   : "not spelled \"Sitemap:\", which every crawler reads; "
                     "written again as \"Sitemap: " +
                         wanted[it->second] + "\"";
    } else if (!r.url.empty() && options.supersedes &&
               options.supersedes(r.url)) {
      reason = "an earlier entry of the same set, superseded";
    } else if (options.replace) {
      reason = r.unread ? "no ':' and more than one word, so no crawler "
                          "reads it, and `replace` was given"
               : r.url.empty()
                   ? "not a full http(s) URL, and `replace` was given"
                   : "names a sitemap not asked for, and `replace` was given";
    } else {
      if (r.url.empty()) {
        edit.notes.push_back(
            "line " + std::to_string(r.line + 1) + ": \"" +
            printable(lines[r.line].text) +
            (r.unread ? "\" has no ':' and more than one word, so no crawler "
                        "reads it; `replace` removes it"
                      : "\" does not hold a full http(s) URL, which crawlers "
                        "need; `replace` removes it"));
      }
      continue;
    }
    remove[r.line] = true;
    edit.removed.push_back(robots_removed_line{
        r.line + 1, std::string(lines[r.line].text), std::move(reason)});
  }

  for (std::size_t i = 0; i < wanted.size(); ++i) {
    (kept_line[i] == none ? edit.added : edit.present).push_back(wanted[i]);
  }

  // The file's own line end, so a CRLF file stays CRLF throughout.
  std::string_view eol = "\n";
  for (const detail::robots_line& l : lines) {
    if (!l.line_end.empty()) {
      eol = l.line_end;
      break;
    }
  }

  std::string& out = edit.text;
  out.reserve(robots_txt.size() + edit.added.size() * 64);
  out.append(robots_txt.substr(0, read.bom));
  const detail::robots_line* last = nullptr;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (remove[i]) continue;
    out.append(lines[i].bytes());
    last = &lines[i];
  }
  if (!edit.added.empty()) {
    if (last != nullptr) {
      if (last->line_end.empty()) out.append(eol);
      // A blank line sets the new lines apart from a group's rules; they
      // belong to no group (RFC 9309 2.2.4) and should not look as if they did.
      if (!last->content.empty() && last->key != detail::robots_key::sitemap)
        out.append(eol);
    }
    for (const std::string& url : edit.added) {
      out.append("Sitemap: ");
      out.append(url);
      out.append(eol);
    }
    if (out.size() > max_robots_txt_bytes) {
      edit.notes.push_back(
          "robots.txt is " + detail::with_commas(out.size()) +
          " bytes; crawlers may stop reading at 500 KiB (RFC 9309 2.5), "
          "before the Sitemap: lines added at its end");
    }
  }
  // Removing line 1 can leave a later line's stray bytes first; read as a
  // UTF-16 byte order mark, they would hide the whole file from crawlers.
  if (out.starts_with("\xFF\xFE") || out.starts_with("\xFE\xFF")) {
    return error{
        "removing the first line would leave robots.txt starting with the "
        "bytes of a UTF-16 byte order mark, which is not UTF-8; crawlers "
        "would read nothing. Fix the bytes first"};
  }
  edit.changed = out != robots_txt;
  return edit;
}

result<robots_update> update_robots(const std::string& path,
                                    const std::vector<std::string>& sitemaps,
                                    const robots_edit_options& options) {
  robots_update update;
  std::string old;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) {
      return error{path + ": " + std::strerror(errno)};
    }
    update.created = true;
  } else {
    if (S_ISDIR(st.st_mode)) {
      return error{path + ": is a directory; give the robots.txt file"};
    }
    auto text = read_small_file(path, max_robots_edit_bytes);
    if (!text) return error{path + ": cannot be read: " + text.err().message};
    old = std::move(*text);
  }
  auto edit = edit_robots_txt(old, sitemaps, options);
  if (!edit) return error{path + ": " + edit.err().message};
  update.edit = std::move(edit).value();
  if (options.dry_run || (!update.edit.changed && !update.created)) {
    return update;
  }
  if (status s = write_file_atomically(path, update.edit.text); !s) {
    return s.err();
  }
  update.written = true;
  return update;
}

}  // namespace sitemill
