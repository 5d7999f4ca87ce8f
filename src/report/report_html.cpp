#include "sitemill/report/report_html.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <span>
#include <tuple>
#include <utility>

#include "report/report_page.h"
#include "sitemill/numbers.h"
#include "sitemill/report/finding_lines.h"

namespace sitemill {
namespace {

void text(std::string& out, std::string_view t) { detail::report_text(out, t); }

void number_span(std::string& out, std::string_view id, std::string_view v) {
  detail::report_number(out, id, v);
}

void total(std::string& out, std::string_view label, std::string_view id,
           std::string_view value) {
  detail::report_total(out, label, id, value);
}

void cell(std::string& out, std::string_view t, std::string_view cls = {}) {
  detail::report_cell(out, t, cls);
}

std::string fixed(double v, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

using bar = std::pair<std::string, std::uint64_t>;

// Horizontal bars, one a row: label, bar scaled to the largest, count and
// share of `of`.
void hbars(std::string& out, std::string_view label, std::span<const bar> bars,
           std::uint64_t of) {
  if (bars.empty()) return;
  std::uint64_t most = 1;
  for (const auto& b : bars) most = std::max(most, b.second);
  constexpr int row = 20, label_w = 170, bar_w = 380, width = 700;
  const int height = static_cast<int>(bars.size()) * row + 4;
  out += "<svg role=\"img\" viewBox=\"0 0 " + std::to_string(width) + " " +
         std::to_string(height) + "\" width=\"" + std::to_string(width) +
         "\" height=\"" + std::to_string(height) + "\"><title>";
  text(out, label);
  out += "</title>\n";
  int y = 2;
  for (const auto& [key, n] : bars) {
    const double w = static_cast<double>(bar_w) * static_cast<double>(n) /
                     static_cast<double>(most);
    out += "<text x=\"" + std::to_string(label_w - 6) + "\" y=\"" +
           std::to_string(y + 14) + "\" text-anchor=\"end\">";
    text(out, key.size() > 28 ? key.substr(0, 27) + "\u2026" : key);
    out += "</text><rect class=\"bar\" x=\"" + std::to_string(label_w) +
           "\" y=\"" + std::to_string(y + 3) + "\" width=\"" + fixed(w, 1) +
           "\" height=\"" + std::to_string(row - 6) + "\"><title>";
    text(out, key + ": " + with_commas(n));
    out += "</title></rect><text x=\"" + fixed(label_w + w + 6, 1) + "\" y=\"" +
           std::to_string(y + 14) + "\">";
    text(out, with_commas(n) + " (" + percent_of(n, of) + ")");
    out += "</text>\n";
    y += row;
  }
  out += "</svg>\n";
}

// "2026-03" as a month number (year * 12 + month - 1); -1 for another key.
int month_number(std::string_view key) {
  if (key.size() != 7 || key[4] != '-') return -1;
  int n = 0;
  for (std::size_t i : {0, 1, 2, 3, 5, 6}) {
    if (key[i] < '0' || key[i] > '9') return -1;
    n = n * 10 + (key[i] - '0');
  }
  const int month = n % 100;
  return month < 1 || month > 12 ? -1 : n / 100 * 12 + month - 1;
}

// The months with the months none has in between, at zero, so the bars are
// a time axis; as given when the span is over max_span months (a stray
// year 1900 would otherwise draw a thousand empty bars).
std::vector<key_count> contiguous_months(std::span<const key_count> months) {
  constexpr int max_span = 240;
  std::vector<key_count> all(months.begin(), months.end());
  if (months.empty()) return all;
  const int first = month_number(months.front().key);
  const int last = month_number(months.back().key);
  if (first < 0 || last < first || last - first >= max_span) return all;
  std::vector<key_count> filled;
  std::size_t next = 0;
  for (int m = first; m <= last; ++m) {
    char key[16];
    std::snprintf(key, sizeof key, "%04d-%02d", m / 12, m % 12 + 1);
    if (next < all.size() && all[next].key == key)
      filled.push_back(std::move(all[next++]));
    else
      filled.push_back({key, 0});
  }
  if (next != all.size()) return {months.begin(), months.end()};  // unsorted
  return filled;
}

// Vertical bars for the months, oldest left; a label under every k-th bar
// so that at most about a dozen are written.
void month_bars(std::string& out, std::span<const key_count> given) {
  if (given.empty()) return;
  const std::vector<key_count> months = contiguous_months(given);
  std::uint64_t most = 1;
  for (const auto& m : months) most = std::max(most, m.count);
  const int n = static_cast<int>(months.size());
  const int slot = std::clamp(680 / n, 3, 48);
  const int chart_h = 160, top = 16, left = 10;
  // Wide enough for the caption above the bars, however few they are.
  const int width = std::max(left * 2 + slot * n, 320);
  const int height = top + chart_h + 22;
  const int every = std::max(1, (n + 11) / 12);
  out += "<svg role=\"img\" viewBox=\"0 0 " + std::to_string(width) + " " +
         std::to_string(height) + "\" width=\"" + std::to_string(width) +
         "\" height=\"" + std::to_string(height) +
         "\"><title>URLs by lastmod month</title>\n";
  for (int i = 0; i < n; ++i) {
    const auto& m = months[static_cast<std::size_t>(i)];
    const double h = static_cast<double>(chart_h) *
                     static_cast<double>(m.count) / static_cast<double>(most);
    const int x = left + i * slot;
    out += "<rect class=\"bar\" x=\"" + std::to_string(x + 1) + "\" y=\"" +
           fixed(top + chart_h - h, 1) + "\" width=\"" +
           std::to_string(std::max(1, slot - 2)) + "\" height=\"" +
           fixed(h, 1) + "\"><title>";
    text(out, m.key + ": " + with_commas(m.count));
    out += "</title></rect>\n";
    if (i % every == 0) {
      out += "<text x=\"" + std::to_string(x + 1) + "\" y=\"" +
             std::to_string(top + chart_h + 16) + "\">";
      text(out, m.key);
      out += "</text>\n";
    }
  }
  out += "<text x=\"" + std::to_string(left) + "\" y=\"11\">";
  text(out, "largest month: " + counted(most, "URL", "URLs"));
  out += "</text></svg>\n";
}

void share_table(std::string& out, std::string_view id, std::string_view head,
                 std::span<const bar> rows, std::uint64_t of) {
  out += "<table id=\"";
  out += id;
  out += "\"><thead><tr><th>";
  text(out, head);
  out +=
      "</th><th class=\"num\">URLs</th><th class=\"num\">Share</th></tr>"
      "</thead><tbody>\n";
  for (const auto& [key, n] : rows) {
    out += "<tr>";
    cell(out, key, "loc");
    cell(out, with_commas(n), "num");
    cell(out, percent_of(n, of), "num");
    out += "</tr>\n";
  }
  out += "</tbody></table>\n";
}

void totals(std::string& out, const set_stats& s) {
  out += "<section id=\"totals\"><h2>Totals</h2><dl class=\"totals\">";
  total(out, "URLs", "url-count", with_commas(s.urls));
  total(out, "Distinct URLs", "distinct-count", with_commas(s.distinct_urls));
  total(out, "Files with URLs", "file-count", with_commas(s.files));
  total(out, "Indexes", "index-count", with_commas(s.indexes));
  total(out, "Bytes (uncompressed)", "byte-count", with_commas(s.bytes));
  total(out, "Gzip ratio", "gzip-ratio",
        s.bytes_measured > 0 ? fixed(s.compression_ratio(), 3) : "n/a");
  total(out, "Duplicate entries", "duplicate-count",
        with_commas(s.duplicate_entries));
  total(out, "Without lastmod", "lastmod-none-share",
        percent_of(s.lastmod_none, s.urls));
  out +=
      "</dl>\n<p class=\"note\">Gzip ratio: bytes on disk over "
      "uncompressed bytes, over the local files (";
  text(out,
       with_commas(s.bytes_on_disk) + " of " + with_commas(s.bytes_measured));
  out += "); n/a for a fetched set. ";
  text(out, with_commas(s.gzipped_documents));
  out += " documents are gzipped.</p></section>\n";
}

void files(std::string& out, const set_stats& s) {
  out +=
      "<section id=\"per-file\"><h2>URLs per file</h2>"
      "<table id=\"files\"><thead><tr><th class=\"num\">#</th><th>Document"
      "</th><th>Kind</th><th class=\"num\">Entries</th><th class=\"num\">"
      "Bytes</th><th class=\"num\">On disk</th><th>Read</th></tr></thead>"
      "<tbody>\n";
  const std::size_t listed =
      std::min(s.documents.size(), report_listed_documents);
  for (std::size_t i = 0; i < listed; ++i) {
    const auto& d = s.documents[i];
    out += "<tr>";
    cell(out, std::to_string(i + 1), "num");
    cell(out, d.source, "loc");
    cell(out, std::string(to_string(d.kind)) + (d.gzipped ? ", gzip" : ""));
    cell(out, with_commas(d.entries), "num");
    cell(out, with_commas(d.bytes), "num");
    cell(out, d.bytes_on_disk ? with_commas(*d.bytes_on_disk) : "", "num");
    cell(out, d.complete ? "whole" : "not to its end");
    out += "</tr>\n";
  }
  out += "</tbody>";
  if (listed < s.documents.size()) {
    std::uint64_t entries = 0, bytes = 0;
    for (std::size_t i = listed; i < s.documents.size(); ++i) {
      entries += s.documents[i].entries;
      bytes += s.documents[i].bytes;
    }
    out += "<tfoot><tr><td></td>";
    cell(out, counted(s.documents.size() - listed, "more document",
                      "more documents") +
                  " (the first " + with_commas(report_listed_documents) +
                  " are listed)");
    out += "<td></td>";
    cell(out, with_commas(entries), "num");
    cell(out, with_commas(bytes), "num");
    out += "<td></td><td></td></tr></tfoot>";
  }
  out += "</table>\n";
  if (s.not_read > 0) {
    out += "<p>Documents not read, or not to their end: ";
    text(out, with_commas(s.not_read));
    out += " (the first ";
    text(out, with_commas(listed_not_read));
    out += " named).</p><ul>";
    for (const auto& why : s.not_read_examples) {
      out += "<li class=\"loc\">";
      text(out, why);
      out += "</li>";
    }
    out += "</ul>\n";
  }
  out += "</section>\n";
}

// Per section (generate's --section), when the files' names show sections.
void sections(std::string& out, const set_stats& s) {
  if (s.sections.empty()) return;
  out +=
      "<section id=\"per-section\"><h2>URLs per section</h2>"
      "<p class=\"note\">Told by the files' names "
      "(NAME-SECTION-K-&lt;hash&gt;); \u201c(default)\u201d is the files of "
      "no section.</p>\n<table id=\"sections\"><thead><tr><th>Section</th>"
      "<th class=\"num\">Files</th><th class=\"num\">URLs</th>"
      "<th class=\"num\">Share</th><th class=\"num\">Bytes</th></tr>"
      "</thead><tbody>\n";
  for (const section_stats& t : s.sections) {
    out += "<tr>";
    cell(out, t.name.empty() ? "(default)" : t.name, "loc");
    cell(out, with_commas(t.files), "num");
    cell(out, with_commas(t.urls), "num");
    cell(out, percent_of(t.urls, s.urls), "num");
    cell(out, with_commas(t.bytes), "num");
    out += "</tr>\n";
  }
  out += "</tbody></table></section>\n";
}

void paths(std::string& out, const set_stats& s) {
  std::vector<bar> rows;
  for (const auto& kc : s.segments)
    rows.emplace_back(kc.key == "/" ? "/ (the root)" : "/" + kc.key + "/",
                      kc.count);
  if (s.segments_other > 0) rows.emplace_back("other", s.segments_other);
  if (s.urls_not_parsed > 0)
    rows.emplace_back("not an http(s) URL", s.urls_not_parsed);
  out +=
      "<section id=\"per-path\"><h2>URLs per top-level path</h2>"
      "<p class=\"note\">The first ";
  text(out, with_commas(tracked_segments));
  out += " distinct first path segments are counted, the ";
  text(out, with_commas(listed_segments));
  out += " largest listed; the rest are \u201cother\u201d.</p>\n";
  hbars(out, "URLs per top-level path", rows, s.urls);
  share_table(out, "paths", "Path", rows, s.urls);
  out += "</section>\n";
}

void lastmods(std::string& out, const set_stats& s) {
  out += "<section id=\"lastmod\"><h2>lastmod by month</h2><p>";
  number_span(out, "lastmod-none", with_commas(s.lastmod_none));
  out += s.lastmod_none == 1 ? " URL (" : " URLs (";
  text(out, percent_of(s.lastmod_none, s.urls));
  out += s.lastmod_none == 1 ? ") has no lastmod" : ") have no lastmod";
  if (s.lastmod_invalid > 0) {
    out += "; ";
    text(out, with_commas(s.lastmod_invalid));
    out += s.lastmod_invalid == 1 ? " has one that is not a date"
                                  : " have one that is not a date";
  }
  out += ".</p>\n";
  if (s.lastmod_months.empty())
    out += "<p class=\"note\">No URL has a lastmod.</p>\n";
  else
    month_bars(out, s.lastmod_months);
  out += "</section>\n";
}

template <std::size_t N>
std::vector<bar> slots(const std::array<std::uint64_t, N>& counts,
                       std::string_view (*label)(std::size_t) noexcept) {
  std::vector<bar> rows;
  for (std::size_t i = 0; i < N; ++i)
    if (counts[i] > 0) rows.emplace_back(std::string(label(i)), counts[i]);
  return rows;
}

void fields(std::string& out, const set_stats& s) {
  out += "<section id=\"changefreq\"><h2>changefreq</h2>\n";
  hbars(out, "URLs by changefreq", slots(s.changefreq, changefreq_label),
        s.urls);
  out += "</section>\n<section id=\"priority\"><h2>priority</h2>\n";
  hbars(out, "URLs by priority", slots(s.priority, priority_label), s.urls);
  out +=
      "</section>\n<section id=\"extensions-section\"><h2>Extensions</h2>"
      "<table id=\"extensions\"><thead><tr><th>Extension</th><th "
      "class=\"num\">URLs with one</th><th class=\"num\">Items</th></tr>"
      "</thead><tbody>\n";
  for (std::size_t k = 0; k < extension_kind_count; ++k) {
    out += "<tr>";
    cell(out, namespace_of(static_cast<extension_kind>(k)).name);
    cell(out, with_commas(s.extensions[k].urls), "num");
    cell(out, with_commas(s.extensions[k].items), "num");
    out += "</tr>\n";
  }
  out += "</tbody></table></section>\n";
}

// The places the examples quote, numbered for the page's links: one per
// document, line and column, ordered by the document's first example, then
// line and column.
struct line_ids {
  struct place {
    const finding_example* example = nullptr;  // the first one quoted there
    std::vector<std::string_view> codes;       // found there, first first
  };
  std::vector<place> places;

  explicit line_ids(const std::vector<code_findings>& groups) {
    std::map<std::string_view, std::size_t> rank;  // document -> first seen
    std::map<std::tuple<std::size_t, std::uint64_t, std::uint64_t>, place>
        ordered;
    for (const auto& g : groups)
      for (const auto& e : g.examples) {
        if (!e.quote) continue;
        const std::size_t r =
            rank.emplace(e.document, rank.size()).first->second;
        place& p = ordered[{r, e.line, e.column}];
        if (!p.example) p.example = &e;
        if (std::find(p.codes.begin(), p.codes.end(), g.code) == p.codes.end())
          p.codes.push_back(g.code);
      }
    for (auto& [key, p] : ordered) {
      ids_[{p.example->document, p.example->line, p.example->column}] =
          places.size();
      places.push_back(std::move(p));
    }
  }
  std::size_t id_of(const finding_example& e) const {
    return ids_.at({e.document, e.line, e.column});
  }

 private:
  std::map<std::tuple<std::string_view, std::uint64_t, std::uint64_t>,
           std::size_t>
      ids_;
};

void findings(std::string& out, const std::vector<code_findings>& groups,
              const line_ids& lines, std::string_view docs_dir) {
  std::uint64_t by_level[3] = {0, 0, 0};
  for (const auto& g : groups) by_level[static_cast<int>(g.level)] += g.count;
  out += "<section id=\"findings-section\"><h2>Findings of check</h2><p>";
  // The noun agrees with the count, as in every command's text.
  auto noun = [](std::uint64_t n, const char* one, const char* many) {
    return n == 1 ? one : many;
  };
  number_span(out, "error-count", with_commas(by_level[0]));
  (out += ' ') += noun(by_level[0], "error", "errors");
  out += ", ";
  number_span(out, "warning-count", with_commas(by_level[1]));
  (out += ' ') += noun(by_level[1], "warning", "warnings");
  out += ", ";
  number_span(out, "info-count", with_commas(by_level[2]));
  (out += ' ') += noun(by_level[2], "info", "infos");
  out += ", in ";
  text(out, counted(groups.size(), "code", "codes"));
  out += " (";
  text(out, docs_dir);
  out +=
      "diagnostics.md describes each).</p>"
      "<p class=\"note\">Each code lists its first ";
  text(out, with_commas(report_examples_per_code));
  out += " findings in the order check read them; the count is of all.</p>\n";
  if (groups.empty()) {
    out += "<p>No findings.</p></section>\n";
    return;
  }
  out +=
      "<table id=\"findings\"><thead><tr><th>Code</th><th>Severity</th>"
      "<th class=\"num\">Findings</th><th class=\"num\">Documents</th></tr>"
      "</thead><tbody>\n";
  for (const auto& g : groups) {
    const std::string level(to_string(g.level));
    out += "<tr><td><a href=\"#code-";
    text(out, g.code);
    out += "\">";
    text(out, g.code);
    out += "</a></td>";
    cell(out, level, level);
    cell(out, with_commas(g.count), "num");
    cell(out, with_commas(g.documents), "num");
    out += "</tr>\n";
  }
  out += "</tbody></table>\n";
  for (const auto& g : groups) {
    const std::string level(to_string(g.level));
    out += "<section class=\"code\" id=\"code-";
    text(out, g.code);
    out += "\"><h3><span class=\"";
    out += level;
    out += "\">";
    text(out, level);
    out += "</span> ";
    text(out, g.code);
    out += ": ";
    text(out, with_commas(g.count));
    out += g.count == 1 ? " finding" : " findings";
    if (g.examples.size() < g.count) {
      out += ", the first ";
      text(out, with_commas(g.examples.size()));
      out += " listed";
    }
    out +=
        "</h3><table class=\"examples\"><thead><tr><th>Document</th><th "
        "class=\"num\">Line</th><th>Message</th></tr></thead><tbody>\n";
    for (const auto& e : g.examples) {
      out += "<tr>";
      cell(out, e.document, "loc");
      if (e.quote) {
        out += "<td class=\"num\"><a href=\"#line-";
        out += std::to_string(lines.id_of(e));
        out += "\">";
        text(out, with_commas(e.line));
        out += "</a></td>";
      } else {
        cell(out, e.line == 0 ? "" : with_commas(e.line), "num");
      }
      cell(out, e.message);
      out += "</tr>\n";
    }
    out += "</tbody></table></section>\n";
  }
  out += "</section>\n";
}

// The quoted lines, one row per place (document, line, column) in document
// order, each linking back to the codes found there.
void quoted_lines(std::string& out, const line_ids& lines) {
  if (lines.places.empty()) return;
  out +=
      "<section id=\"lines-section\"><h2>The lines of the findings</h2>"
      "<p class=\"note\">Each example above links to its line here: the "
      "text around the column check names (at most ";
  text(out, with_commas(quote_window_bytes));
  out +=
      " bytes, indentation left out, \"...\" where it is cut). Fetched "
      "documents are not quoted: it would mean fetching them a third "
      "time.</p>"
      "<table id=\"lines\"><thead><tr><th>Document</th><th "
      "class=\"num\">Line</th><th class=\"num\">Column</th><th>Text</th>"
      "<th>Codes</th></tr></thead><tbody>\n";
  for (std::size_t id = 0; id < lines.places.size(); ++id) {
    const line_ids::place& p = lines.places[id];
    out += "<tr id=\"line-";
    out += std::to_string(id);
    out += "\">";
    cell(out, p.example->document, "loc");
    cell(out, with_commas(p.example->line), "num");
    cell(out, p.example->column == 0 ? "" : with_commas(p.example->column),
         "num");
    out += "<td><code>";
    text(out, *p.example->quote);
    out += "</code></td><td>";
    for (std::size_t i = 0; i < p.codes.size(); ++i) {
      if (i > 0) out += ' ';
      out += "<a href=\"#code-";
      text(out, p.codes[i]);
      out += "\">";
      text(out, p.codes[i]);
      out += "</a>";
    }
    out += "</td></tr>\n";
  }
  out += "</tbody></table></section>\n";
}

}  // namespace

std::vector<code_findings> group_findings(const check_report& report,
                                          std::size_t examples_per_code) {
  std::map<std::string, code_findings, std::less<>> by_code;
  auto group = [&](std::string_view code, severity level) -> code_findings& {
    auto it = by_code.find(code);
    if (it == by_code.end()) {
      it = by_code.emplace(std::string(code), code_findings{}).first;
      it->second.code = std::string(code);
      it->second.level = level;
    }
    return it->second;
  };
  for (const auto& doc : report.documents) {
    std::map<std::string_view, bool> seen;  // the codes of this document
    for (const auto& d : doc.diagnostics) {
      if (d.code == "more-not-listed") continue;  // counted from `unlisted`
      code_findings& g = group(d.code, d.level);
      ++g.count;
      if (!seen[g.code]) {
        seen[g.code] = true;
        ++g.documents;
      }
      if (g.examples.size() < examples_per_code)
        g.examples.push_back({doc.source, d.line, d.message, d.column, {}});
    }
    for (const auto& u : doc.unlisted) group(u.code, u.level).count += u.count;
  }
  std::vector<code_findings> out;
  out.reserve(by_code.size());
  for (auto& [code, g] : by_code) out.push_back(std::move(g));
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    if (a.level != b.level) return a.level < b.level;
    if (a.count != b.count) return a.count > b.count;
    return a.code < b.code;
  });
  return out;
}

void append_report_html(std::string& out, const set_stats& stats,
                        const std::vector<code_findings>& groups,
                        std::string_view docs_dir) {
  detail::open_report_page(out, "Sitemap report", stats.input);
  out += "<p>";
  text(out, stats.input);
  if (stats.entry != stats.input) {
    out += " (entry ";
    text(out, stats.entry);
    out += ")";
  }
  out +=
      ". Written by sitemill: every table summarises (the rules are under "
      "each heading), so the page stays small for any size of set.</p>\n";
  totals(out, stats);
  files(out, stats);
  sections(out, stats);
  paths(out, stats);
  lastmods(out, stats);
  fields(out, stats);
  const line_ids lines(groups);
  findings(out, groups, lines, docs_dir);
  quoted_lines(out, lines);
  detail::close_report_page(out);
}

}  // namespace sitemill
