// sitemill: the Sitemap: records of robots.txt (PROTOCOL.md section 5,
// RFC 9309). Codes and their fixes are listed in docs/diagnostics-robots.md.
//
// Only Sitemap records are read; groups and rules are skipped, so a Sitemap
// line can never end or start a group (RFC 9309 2.2.4). Choices where the
// RFC leaves room:
//   * '#' starts a comment wherever it stands, as in RFC 9309's grammar
//     (a value cannot contain '#') and Google's parser. A sitemap URL loses
//     nothing by it: its fragment would be dropped anyway.
//   * "site-map" and "sitemaps" are taken as "sitemap", with a warning
//     (RFC 9309 2.2.4 allows common misspellings; Google accepts
//     "site-map"). "Sitemap <url>" without a colon is taken too, with a
//     warning, as Google's parser does.
//   * A line that is nothing but an http(s) URL is reported (info) and not
//     taken: only the owner knows whether it names a sitemap.
//   * Sitemap URLs are returned normalised (url.h): scheme and host
//     lowercased, path and query case kept. Duplicates are found on the
//     normalised form, so "HTTP://Example.com/s.xml" repeats
//     "http://example.com/s.xml".
#include "sitemill/robots/robots.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "detail/text.h"
#include "robots/sitemap_key.h"
#include "sitemill/url/url.h"

namespace sitemill {
namespace {

// RFC 9309 2.5: "The parsing limit MUST be at least 500 kibibytes".
constexpr std::size_t kParseLimit = 500 * 1024;

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

bool is_space(char c) noexcept { return c == ' ' || c == '\t'; }

using key_kind = detail::sitemap_key;

std::string quoted(std::string_view s) {
  std::string out = "\"";
  detail::append_printable(out, s);
  out.push_back('"');
  return out;
}

class sitemap_finder {
 public:
  explicit sitemap_finder(std::string_view robots_url) {
    // A robots.txt URL that does not normalise leaves base_ empty.
    (void)normalize_url(robots_url, base_);
  }

  void line(std::string_view text, std::uint64_t number) {
    // RFC 9309 2.2: everything from '#' to the end of the line is comment.
    const std::size_t hash = text.find('#');
    const std::string_view content = text.substr(0, hash);
    std::size_t start = 0;
    while (start < content.size() && is_space(content[start])) ++start;
    const std::string_view rest = content.substr(start);
    if (rest.empty()) return;

    if (has_http_scheme(rest)) {
      add(severity::info, "robots-bare-url", number, start + 1,
          "line holds only a URL, " + quoted(detail::trim(rest)) +
              ", which robots.txt gives no meaning; if it names a sitemap, "
              "write \"Sitemap: \" before it");
      return;
    }

    // RFC 9309 2.2: key *WS ":" *WS value. Without a colon before the first
    // space, fall back to "key value" (the colon of "http:" must not count).
    std::size_t key_end = 0;
    while (key_end < rest.size() && rest[key_end] != ':' &&
           !is_space(rest[key_end])) {
      ++key_end;
    }
    const std::string_view key = rest.substr(0, key_end);
    const key_kind kind = detail::classify_sitemap_key(key);
    if (kind == key_kind::other) return;
    std::size_t value_begin = key_end;
    while (value_begin < rest.size() && is_space(rest[value_begin]))
      ++value_begin;
    const bool has_colon =
        value_begin < rest.size() && rest[value_begin] == ':';
    if (has_colon) {
      ++value_begin;
    } else if (value_begin == key_end) {
      return;  // "sitemapfoo": another key that merely starts like ours
    }
    while (value_begin < rest.size() && is_space(rest[value_begin]))
      ++value_begin;
    const std::string_view value = detail::trim(rest.substr(value_begin));
    const std::uint64_t key_column = start + 1;
    const std::uint64_t value_column = start + value_begin + 1;

    if (kind == key_kind::misspelled) {
      add(severity::warning, "robots-sitemap-misspelled", number, key_column,
          quoted(key) +
              " is read as \"Sitemap\", but not every crawler forgives the "
              "spelling; write \"Sitemap:\"");
    }
    if (!has_colon) {
      add(severity::warning, "robots-missing-colon", number, key_column,
          quoted(key) + " is not followed by ':'; write \"Sitemap: <URL>\"");
    }
    if (value.empty()) {
      add(severity::error, "robots-sitemap-empty", number, key_column,
          "Sitemap: has no URL; give the full URL of a sitemap or index, or "
          "remove the line");
      return;
    }
    take(value, number, value_column);
  }

  robots_sitemaps finish() && { return std::move(out_); }

  void add(severity level, std::string code, std::uint64_t line,
           std::uint64_t column, std::string message) {
    out_.diagnostics.push_back(
        diagnostic{level, std::move(code), line, column, std::move(message)});
  }

 private:
  void take(std::string_view value, std::uint64_t number,
            std::uint64_t column) {
    std::string url;
    url_problem problem = normalize_url(value, url);
    if (problem == url_problem::relative_without_base) {
      if (base_.empty()) {
        add(severity::error, "robots-relative-sitemap", number, column,
            "Sitemap: " + quoted(value) +
                " is relative and the robots.txt URL is not known to "
                "resolve it; give the full URL, e.g. "
                "\"https://www.example.com/sitemap.xml\"");
        return;
      }
      normalized_url resolved;
      problem = resolve_url(value, base_, resolved);
      url = resolved.href();
      if (problem == url_problem::ok) {
        add(severity::error, "robots-relative-sitemap", number, column,
            "Sitemap: " + quoted(value) +
                " is relative; the protocol wants the full URL, so write "
                "\"Sitemap: " +
                url + "\" (it was read as that here)");
      }
    }
    if (problem != url_problem::ok) {
      add(severity::error, "robots-sitemap-invalid", number, column,
          "Sitemap: " + quoted(value) + ": " + std::string(describe(problem)));
      return;
    }
    for (const char c : value) {
      if (is_space(c)) {
        add(severity::warning, "robots-sitemap-whitespace", number, column,
            "Sitemap: " + quoted(value) +
                " contains a space, read as part of the URL (" + url +
                "); put one URL per Sitemap: line and write a space in a "
                "URL as %20");
        break;
      }
    }
    const auto [it, inserted] = first_line_.try_emplace(url, number);
    if (!inserted) {
      // Spelled differently, the two can still be one URL ("HTTP://A/x"
      // and "http://a/x"); saying the common form shows why.
      std::string message = "Sitemap: " + quoted(value) + " repeats line " +
                            std::to_string(it->second);
      if (value != url) message += " (both are " + url + ")";
      message += "; remove one of them";
      add(severity::info, "robots-duplicate-sitemap", number, column,
          std::move(message));
      return;
    }
    out_.sitemaps.push_back(robots_sitemap{std::move(url), number});
  }

  normalized_url base_;  // the robots.txt URL, empty when invalid
  std::unordered_map<std::string, std::uint64_t> first_line_;
  robots_sitemaps out_;
};

}  // namespace

robots_sitemaps find_sitemaps(std::string_view robots_txt,
                              std::string_view robots_url) {
  sitemap_finder finder(robots_url);
  // RFC 9309 2.3 requires UTF-8; a UTF-16 file read as bytes would yield
  // nothing useful (every other byte is NUL), so nothing is taken from it.
  if (robots_txt.starts_with("\xFF\xFE") ||
      robots_txt.starts_with("\xFE\xFF")) {
    finder.add(severity::error, "robots-utf16", 0, 0,
               "robots.txt is UTF-16 (it starts with a UTF-16 byte order "
               "mark); RFC 9309 requires UTF-8, so crawlers cannot read it. "
               "Save it as UTF-8");
    return std::move(finder).finish();
  }

  std::string_view text = robots_txt;
  bool truncated = false;
  if (text.size() > kParseLimit) {
    // The line cut by the limit is dropped whole, so a half URL is never
    // taken for a sitemap.
    truncated = true;
    const char next = text[kParseLimit];
    text = text.substr(0, kParseLimit);
    if (next != '\n' && next != '\r') {
      const std::size_t last_break = text.find_last_of("\r\n");
      text = text.substr(
          0, last_break == std::string_view::npos ? 0 : last_break + 1);
    }
  }
  if (text.starts_with(kUtf8Bom)) text.remove_prefix(kUtf8Bom.size());

  std::uint64_t number = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t eol = text.find_first_of("\r\n", pos);
    const std::size_t end = eol == std::string_view::npos ? text.size() : eol;
    finder.line(text.substr(pos, end - pos), ++number);
    pos = end;
    if (pos < text.size()) {
      pos +=
          (text[pos] == '\r' && pos + 1 < text.size() && text[pos + 1] == '\n')
              ? 2
              : 1;
    }
  }
  if (truncated) {
    finder.add(severity::info, "robots-truncated", number + 1, 0,
               "robots.txt is " + detail::with_commas(robots_txt.size()) +
                   " bytes; only the first " +
                   detail::with_commas(kParseLimit) +
                   " (500 KiB, RFC 9309's parsing limit) were read, and "
                   "Sitemap: lines after that may be missed by crawlers too; "
                   "move them to the top");
  }
  return std::move(finder).finish();
}

}  // namespace sitemill
