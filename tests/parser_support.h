// Helpers shared by the sitemap_parser tests: run the parser over bytes and
// keep copies of everything it reports.
#ifndef SITEMILL_TESTS_PARSER_SUPPORT_H
#define SITEMILL_TESTS_PARSER_SUPPORT_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/parse/sitemap_parser.h"
#include "support/run.h"  // gzip()

namespace sitemill::testing {

struct field_copy {
  std::string text;
  bool present = false;
  std::uint64_t line = 0, column = 0;
  bool operator==(const field_copy&) const = default;
};

struct entry_copy {
  field_copy loc, lastmod, changefreq, priority;
  std::uint64_t line = 0, column = 0, index = 0;
  bool operator==(const entry_copy&) const = default;
};

/// Everything one parse reported, copied out of the handler calls.
struct parse_run {
  std::vector<document_kind> kinds;
  std::vector<entry_copy> entries;
  std::vector<diagnostic> diagnostics;
  parse_summary summary;

  /// The first diagnostic with `code`, or nullptr.
  const diagnostic* find(std::string_view code) const {
    for (const auto& d : diagnostics)
      if (d.code == code) return &d;
    return nullptr;
  }
  bool has(std::string_view code) const { return find(code) != nullptr; }
  std::size_t count(std::string_view code) const {
    std::size_t n = 0;
    for (const auto& d : diagnostics) n += d.code == code;
    return n;
  }
  std::vector<std::string> locs() const {
    std::vector<std::string> out;
    for (const auto& e : entries) out.push_back(e.loc.text);
    return out;
  }
  /// Every diagnostic on a line of its own, for failure messages.
  std::string describe() const {
    std::string s;
    for (const auto& d : diagnostics)
      s += "  " + d.code + " " + std::to_string(d.line) + ":" +
           std::to_string(d.column) + " " + d.message + "\n";
    return s;
  }
};

class recorder : public parse_handler {
 public:
  explicit recorder(parse_run& run) : run_(run) {}
  void on_document(document_kind kind) override { run_.kinds.push_back(kind); }
  void on_entry(const parsed_entry& e) override {
    auto copy = [](const parsed_field& f) {
      return field_copy{std::string(f.text), f.present, f.line, f.column};
    };
    run_.entries.push_back({copy(e.loc), copy(e.lastmod), copy(e.changefreq),
                            copy(e.priority), e.line, e.column, e.index});
  }
  void on_diagnostic(const diagnostic& d) override {
    run_.diagnostics.push_back(d);
  }

 private:
  parse_run& run_;
};

/// Parses `bytes` with parse_bytes().
inline parse_run parse(std::string_view bytes, parse_options options = {}) {
  parse_run run;
  recorder r(run);
  run.summary = parse_bytes(bytes, r, options);
  return run;
}

/// Parses `bytes` fed `chunk` bytes at a time (the last piece shorter).
inline parse_run parse_in_chunks(std::string_view bytes, std::size_t chunk,
                                 parse_options options = {}) {
  parse_run run;
  recorder r(run);
  sitemap_parser parser(r, options);
  for (std::size_t i = 0; i < bytes.size(); i += chunk)
    parser.feed(bytes.data() + i, std::min(chunk, bytes.size() - i));
  run.summary = parser.finish();
  return run;
}

inline bool same_summary(const parse_summary& a, const parse_summary& b) {
  return a.kind == b.kind && a.entries == b.entries && a.bytes == b.bytes &&
         a.gzipped == b.gzipped && a.complete == b.complete &&
         a.schema_valid == b.schema_valid && a.errors == b.errors &&
         a.warnings == b.warnings && a.infos == b.infos;
}

inline bool same_diagnostics(const std::vector<diagnostic>& a,
                             const std::vector<diagnostic>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].code != b[i].code || a[i].level != b[i].level ||
        a[i].line != b[i].line || a[i].column != b[i].column ||
        a[i].message != b[i].message)
      return false;
  }
  return true;
}

constexpr std::string_view xml_declaration =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
constexpr std::string_view urlset_open =
    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
constexpr std::string_view extensions_open =
    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\""
    " xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\""
    " xmlns:video=\"http://www.google.com/schemas/sitemap-video/1.1\""
    " xmlns:news=\"http://www.google.com/schemas/sitemap-news/0.9\""
    " xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n";

/// A urlset whose `body` starts on line 3, column 1.
inline std::string urlset(std::string_view body) {
  return std::string(xml_declaration) + std::string(urlset_open) +
         std::string(body) + "\n</urlset>\n";
}

/// A urlset declaring the four extension namespaces; `body` on line 3.
inline std::string ext_urlset(std::string_view body) {
  return std::string(xml_declaration) + std::string(extensions_open) +
         std::string(body) + "\n</urlset>\n";
}

/// A sitemapindex whose `body` starts on line 3, column 1.
inline std::string sitemapindex(std::string_view body) {
  return std::string(xml_declaration) +
         "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
         "\n" +
         std::string(body) + "\n</sitemapindex>\n";
}

/// One <url> with `loc` and `rest` after it: the <loc> is at 3:6 and `rest`
/// starts at column 17 + the length of `loc`.
inline std::string one_url(std::string_view loc, std::string_view rest = "") {
  return urlset("<url><loc>" + std::string(loc) + "</loc>" + std::string(rest) +
                "</url>");
}

}  // namespace sitemill::testing

#endif  // SITEMILL_TESTS_PARSER_SUPPORT_H
