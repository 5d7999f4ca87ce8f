// sitemill: the Sitemap: records of robots.txt (docs/protocol.md section 5,
// RFC 9309). Codes and their fixes are listed in docs/diagnostics-robots.md.
//
// Only Sitemap records are read; groups and rules are skipped, so a Sitemap
// line can never end or start a group (RFC 9309 2.2.4). Lines come from the
// one lexer (robots_lexer.h: comments, whitespace, misspellings, the missing
// colon, the parsing limit), and what it forgave is said here. Choices of
// this reader:
//   * "Site-map:", "Sitemaps:" and "Sitemap <url>" without a colon are taken,
//     with a warning (RFC 9309 2.2.4 allows the leniency; Google's parser
//     takes "site-map" and a missing colon); "Sitemap a b" without a colon is
//     no record for Google and is not taken, with a warning.
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
#include "robots/robots_lexer.h"
#include "sitemill/limits.h"
#include "sitemill/url/url.h"

namespace sitemill {
namespace {

using detail::quoted_printable;

class sitemap_finder final : public detail::robots_handler {
 public:
  explicit sitemap_finder(std::string_view robots_url) {
    // A robots.txt URL that does not normalise leaves base_ empty.
    (void)normalize_url(robots_url, base_);
  }

  void on_line(const detail::robots_line& line) override {
    const std::string_view content = line.content;
    if (content.empty()) return;
    const std::uint64_t number = line.number;
    if (has_http_scheme(content)) {
      add(severity::info, "robots-bare-url", number, line.column(content),
          "line holds only a URL, " + quoted_printable(content) +
              ", which robots.txt gives no meaning; if it names a sitemap, "
              "write \"Sitemap: \" before it");
      return;
    }
    if (line.key == detail::robots_key::none) {
      // "Sitemap a b": Google's parser reads no record there, so no crawler
      // that follows it sees a sitemap; say so rather than stay silent.
      if (line.missing_colon && detail::classify_robots_key(line.name) ==
                                    detail::robots_key::sitemap) {
        add(severity::warning, "robots-missing-colon", number,
            line.column(line.name),
            quoted_printable(line.name) +
                " is not followed by ':' and more than one word follows, "
                "so crawlers read no record here and nothing was taken; "
                "write \"Sitemap: <URL>\", one URL per line");
      }
      return;
    }
    if (line.key != detail::robots_key::sitemap) return;
    const std::uint64_t key_column = line.column(line.name);

    if (line.misspelled) {
      add(severity::warning, "robots-sitemap-misspelled", number, key_column,
          quoted_printable(line.name) +
              " is read as \"Sitemap\", but not every crawler forgives the "
              "spelling; write \"Sitemap:\"");
    }
    if (line.missing_colon) {
      add(severity::warning, "robots-missing-colon", number, key_column,
          quoted_printable(line.name) +
              " is not followed by ':'; write \"Sitemap: <URL>\"");
    }
    if (line.value.empty()) {
      add(severity::error, "robots-sitemap-empty", number, key_column,
          "Sitemap: has no URL; give the full URL of a sitemap or index, or "
          "remove the line");
      return;
    }
    take(line.value, number, line.column(line.value));
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
            "Sitemap: " + quoted_printable(value) +
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
            "Sitemap: " + quoted_printable(value) +
                " is relative; the protocol wants the full URL, so write "
                "\"Sitemap: " +
                url + "\" (it was read as that here)");
      }
    }
    if (problem != url_problem::ok) {
      add(severity::error, "robots-sitemap-invalid", number, column,
          "Sitemap: " + quoted_printable(value) + ": " +
              std::string(describe(problem)));
      return;
    }
    for (const char c : value) {
      if (detail::is_ascii_space(c)) {
        add(severity::warning, "robots-sitemap-whitespace", number, column,
            "Sitemap: " + quoted_printable(value) +
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
      std::string message = "Sitemap: " + quoted_printable(value) +
                            " repeats line " + std::to_string(it->second);
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
  const detail::robots_lex_result read =
      detail::lex_robots_txt(robots_txt, finder);
  if (read.utf16) {
    finder.add(severity::error, "robots-utf16", 0, 0,
               "robots.txt is UTF-16 (it starts with a UTF-16 byte order "
               "mark); RFC 9309 requires UTF-8, so crawlers cannot read it. "
               "Save it as UTF-8");
  }
  if (read.truncated) {
    finder.add(severity::info, "robots-truncated", read.lines + 1, 0,
               "robots.txt is over " +
                   detail::with_commas(max_robots_txt_bytes) +
                   " bytes (500 KiB, RFC 9309's parsing limit); only that "
                   "much was read, and Sitemap: lines after it may be missed "
                   "by crawlers too; move them to the top");
  }
  return std::move(finder).finish();
}

}  // namespace sitemill
