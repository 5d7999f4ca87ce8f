// The site audit's page (audit_html.h), in the set report's frame.
#include "sitemill/report/audit_html.h"

#include <algorithm>

#include "report/report_page.h"
#include "sitemill/numbers.h"

namespace sitemill {
namespace {

using detail::report_cell;
using detail::report_text;

void totals(std::string& out, const audit_report& r) {
  out += "<dl class=\"totals\">";
  detail::report_total(out, "Sitemap URLs", "sitemap-urls",
                       with_commas(r.sitemap_urls));
  detail::report_total(out, "URLs crawled", "crawled-urls",
                       with_commas(r.crawled_urls));
  detail::report_total(out, "Indexable pages", "indexable-pages",
                       with_commas(r.indexable_pages));
  detail::report_total(out, "Orphans", "orphans",
                       with_commas(r.orphans.size()));
  detail::report_total(out, "Missing", "missing",
                       with_commas(r.missing.size()));
  detail::report_total(out, "Not indexable", "not-indexable",
                       with_commas(r.not_indexable.size()));
  out += "</dl>\n";
}

void sitemaps(std::string& out, const audit_report& r) {
  out += "<h2>Sitemaps</h2>\n<p class=\"note\">";
  if (r.sitemaps.empty())
    out +=
        "No sitemap was found: robots.txt names none, and none of the "
        "common locations answers one.";
  else if (r.discovered)
    out +=
        "robots.txt names no sitemap; these were found at the common "
        "locations. Name them in robots.txt with Sitemap: lines.";
  else
    out += "As robots.txt names them.";
  out += "</p>\n";
  if (r.sitemaps.empty()) return;
  out += "<ul>";
  for (const std::string& s : r.sitemaps) {
    out += "<li class=\"loc\">";
    report_text(out, s);
    out += "</li>";
  }
  out += "</ul>\n";
}

void table(std::string& out, std::string_view id, std::string_view heading,
           std::string_view rule, const std::vector<audit_finding>& list,
           bool listed) {
  out += "<section id=\"";
  out += id;
  out += "\"><h2>";
  report_text(out, heading);
  out += " (";
  out += with_commas(list.size());
  out += ")</h2>\n<p class=\"note\">";
  report_text(out, rule);
  out += "</p>\n";
  if (list.empty()) {
    out += "<p>None.</p></section>\n";
    return;
  }
  out +=
      "<table class=\"examples\"><tr><th>URL</th><th>Reason</th>"
      "<th>Linked from</th>";
  if (listed) out += "<th>Sitemap</th>";
  out += "</tr>\n";
  const std::size_t shown = std::min(list.size(), audit_html_rows);
  for (std::size_t i = 0; i < shown; ++i) {
    const audit_finding& f = list[i];
    out += "<tr>";
    report_cell(out, f.url, "loc");
    out += "<td><code>";
    report_text(out, f.reason);
    out += "</code> ";
    report_text(out, f.message);
    out += "</td>";
    report_cell(out, f.linked_from.empty() ? "-" : f.linked_from, "loc");
    if (listed) report_cell(out, f.sitemap, "loc");
    out += "</tr>\n";
  }
  out += "</table>\n";
  if (shown < list.size()) {
    out += "<p class=\"note\">... and ";
    out += with_commas(list.size() - shown);
    out += " more: the JSON report lists them all.</p>\n";
  }
  out += "</section>\n";
}

}  // namespace

void append_audit_html(std::string& out, const audit_report& r,
                       std::span<const audit_class> fail_on) {
  detail::open_report_page(out, "Sitemap audit", r.site);
  out += "<p>";
  report_text(out, r.site);
  out +=
      ": its sitemaps compared with a crawl of its links. Verdict: "
      "<span id=\"outcome\">";
  report_text(out, audit_outcome(r, fail_on));
  out += "</span>.</p>\n";
  if (!r.error.empty()) {
    out += "<p class=\"error\">";
    report_text(out, r.error);
    out += "</p>\n";
  }
  totals(out, r);
  sitemaps(out, r);
  table(out, "orphan-list", "Orphans",
        "Sitemap URLs that no crawled page links to: search engines find "
        "them only through the sitemap.",
        r.orphans, true);
  table(out, "missing-list", "Missing",
        "Pages the crawl reached and search engines would index (200, "
        "HTML, not noindex, no canonical elsewhere) that no sitemap lists.",
        r.missing, false);
  table(out, "not-indexable-list", "Not indexable",
        "Sitemap URLs search engines will not index as listed: an answer "
        "other than 200, a redirect, noindex, a canonical URL elsewhere, "
        "robots.txt, or another host.",
        r.not_indexable, true);
  if (!r.notes.empty()) {
    out += "<h2>Notes</h2>\n<ul>";
    for (const std::string& n : r.notes) {
      out += "<li>";
      report_text(out, n);
      out += "</li>";
    }
    out += "</ul>\n";
  }
  detail::close_report_page(out);
}

}  // namespace sitemill
