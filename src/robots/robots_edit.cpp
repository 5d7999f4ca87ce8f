// sitemill: editing the Sitemap: lines of robots.txt (PROTOCOL.md 5).
//
// The reading side is robots.cpp; this is the writing side and classifies
// lines the same way (a '#' starts a comment anywhere, "site-map",
// "sitemaps" and a missing colon are still Sitemap records), so what the
// checker reads as a sitemap is what the editor counts. Lines are copied as
// byte ranges of the input: whatever is not a Sitemap record cannot change.
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "robots/sitemap_key.h"
#include "detail/text.h"
#include "sitemill/notify/notify.h"
#include "sitemill/url/url.h"

namespace sitemill {
namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
// RFC 9309 2.5: crawlers must parse at least 500 KiB, and may stop there.
constexpr std::size_t kCrawlerParseLimit = 500 * 1024;

bool is_space(char c) noexcept { return c == ' ' || c == '\t'; }

/// One line of the input: [begin, content_end) is the text, [content_end,
/// end) its line end ("" for an unterminated last line).
struct line_span {
  std::size_t begin = 0;
  std::size_t content_end = 0;
  std::size_t end = 0;
};

std::vector<line_span> split_lines(std::string_view text) {
  std::vector<line_span> lines;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t eol = text.find_first_of("\r\n", pos);
    line_span s;
    s.begin = pos;
    s.content_end = eol == std::string_view::npos ? text.size() : eol;
    s.end = s.content_end;
    if (s.end < text.size()) {
      s.end += (text[s.end] == '\r' && s.end + 1 < text.size() &&
                text[s.end + 1] == '\n')
                   ? 2
                   : 1;
    }
    lines.push_back(s);
    pos = s.end;
  }
  return lines;
}

/// A Sitemap record: `canonical` when spelled "Sitemap:" (any case), which
/// is the only form every crawler reads.
struct sitemap_record {
  bool canonical = false;
  std::string_view value;
};

std::optional<sitemap_record> parse_record(std::string_view line) {
  const std::string_view content = line.substr(0, line.find('#'));
  std::size_t start = 0;
  while (start < content.size() && is_space(content[start])) ++start;
  const std::string_view rest = content.substr(start);
  std::size_t key_end = 0;
  while (key_end < rest.size() && rest[key_end] != ':' &&
         !is_space(rest[key_end])) {
    ++key_end;
  }
  const std::string_view key = rest.substr(0, key_end);
  const detail::sitemap_key kind = detail::classify_sitemap_key(key);
  if (kind == detail::sitemap_key::other) {
    return std::nullopt;
  }
  std::size_t value_begin = key_end;
  while (value_begin < rest.size() && is_space(rest[value_begin]))
    ++value_begin;
  const bool has_colon = value_begin < rest.size() && rest[value_begin] == ':';
  if (has_colon) {
    ++value_begin;
  } else if (value_begin == key_end) {
    return std::nullopt;  // "Sitemap" alone on its line
  }
  return sitemap_record{kind == detail::sitemap_key::sitemap && has_colon,
                        detail::trim(rest.substr(value_begin))};
}

/// True when the line holds a record (not blank, not only a comment).
bool has_content(std::string_view line) {
  return !detail::trim(line.substr(0, line.find('#'))).empty();
}

std::string printable(std::string_view s) {
  std::string out;
  detail::append_printable(out, s);
  return out;
}

}  // namespace

result<robots_edit> edit_robots_txt(std::string_view robots_txt,
                                    const std::vector<std::string>& sitemaps,
                                    const robots_edit_options& options) {
  if (robots_txt.starts_with("\xFF\xFE") ||
      robots_txt.starts_with("\xFE\xFF")) {
    return error{
        "robots.txt is UTF-16 (it starts with a UTF-16 byte order mark); "
        "RFC 9309 requires UTF-8 and crawlers cannot read it. Save it as "
        "UTF-8 first"};
  }

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

  const bool has_bom = robots_txt.starts_with(kUtf8Bom);
  const std::string_view body =
      has_bom ? robots_txt.substr(kUtf8Bom.size()) : robots_txt;
  const std::vector<line_span> lines = split_lines(body);
  auto text_of = [&](const line_span& s) {
    return body.substr(s.begin, s.content_end - s.begin);
  };

  // What each line is: not a record (npos), or a record whose value
  // normalises to `url` ("" when it does not normalise).
  struct record_line {
    std::size_t line = 0;
    bool canonical = false;
    std::string url;
    std::string_view value;
  };
  std::vector<record_line> records;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto record = parse_record(text_of(lines[i]));
    if (!record) continue;
    record_line r;
    r.line = i;
    r.canonical = record->canonical;
    r.value = record->value;
    if (normalize_url(record->value, r.url) != url_problem::ok) r.url.clear();
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
    } else if (options.replace) {
      reason = r.url.empty()
                   ? "not a full http(s) URL, and `replace` was given"
                   : "names a sitemap not asked for, and `replace` was given";
    } else {
      if (r.url.empty()) {
        edit.notes.push_back(
            "line " + std::to_string(r.line + 1) + ": \"" +
            printable(text_of(lines[r.line])) +
            "\" does not hold a full http(s) URL, which crawlers need; "
            "`replace` removes it");
      }
      continue;
    }
    remove[r.line] = true;
    edit.removed.push_back(robots_removed_line{
        r.line + 1, std::string(text_of(lines[r.line])), std::move(reason)});
  }

  for (std::size_t i = 0; i < wanted.size(); ++i) {
    (kept_line[i] == none ? edit.added : edit.present).push_back(wanted[i]);
  }

  // The file's own line end, so a CRLF file stays CRLF throughout.
  std::string_view eol = "\n";
  for (const line_span& s : lines) {
    if (s.end > s.content_end) {
      eol = body.substr(s.content_end, s.end - s.content_end);
      break;
    }
  }

  std::string& out = edit.text;
  out.reserve(robots_txt.size() + edit.added.size() * 64);
  if (has_bom) out.append(kUtf8Bom);
  const line_span* last = nullptr;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (remove[i]) continue;
    out.append(body.substr(lines[i].begin, lines[i].end - lines[i].begin));
    last = &lines[i];
  }
  if (!edit.added.empty()) {
    if (last != nullptr) {
      if (last->end == last->content_end) out.append(eol);
      const std::string_view last_text = text_of(*last);
      // A blank line sets the new lines apart from a group's rules; they
      // belong to no group (RFC 9309 2.2.4) and should not look as if they did.
      if (has_content(last_text) && !parse_record(last_text)) out.append(eol);
    }
    for (const std::string& url : edit.added) {
      out.append("Sitemap: ");
      out.append(url);
      out.append(eol);
    }
    if (out.size() > kCrawlerParseLimit) {
      edit.notes.push_back(
          "robots.txt is " + detail::with_commas(out.size()) +
          " bytes; crawlers may stop reading at 500 KiB (RFC 9309 2.5), "
          "before the Sitemap: lines added at its end");
    }
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
    std::ifstream in(path, std::ios::binary);
    if (!in) return error{path + ": cannot be read: " + std::strerror(errno)};
    old.assign(std::istreambuf_iterator<char>(in),
               std::istreambuf_iterator<char>());
    if (in.bad()) return error{path + ": read error"};
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
