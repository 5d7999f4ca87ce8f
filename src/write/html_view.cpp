#include "sitemill/write/html_view.h"

#include "detail/text.h"
#include "sitemill/numbers.h"
#include "sitemill/write/xml_escape.h"

namespace sitemill {
namespace {

// One style for every page: readable on screen, no colours on paper, and
// long URLs wrap instead of widening the table.
constexpr std::string_view style =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}"
    "h1{font-size:1.4em;margin:0 0 .3em}p{color:#555;margin:0 0 1em}"
    "table{border-collapse:collapse;width:100%}"
    "th,td{text-align:left;padding:.25em .6em;border-bottom:1px solid #ddd;"
    "vertical-align:top}th{background:#f3f3f3}.num{text-align:right}"
    ".loc{word-break:break-all}a{color:#0645ad}"
    "@media print{body{margin:0}a{color:inherit}th{background:none}"
    "tr{break-inside:avoid}}";

// noindex: the view is a page about the sitemaps, not a page of the site;
// a search engine that finds it (it sits beside the set, in the web root)
// should list the pages it names, never the view itself.
void append_head(std::string& out, std::string_view title) {
  out +=
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, "
      "initial-scale=1\"><meta name=\"generator\" content=\"sitemill\">"
      "<meta name=\"robots\" content=\"noindex\"><title>";
  append_xml_escaped(out, title);
  out += "</title><style>";
  out += style;
  out += "</style></head>\n<body>\n";
}

// An href for `url` only when it cannot run anything: sitemaps hold
// http(s) URLs, and anything else is shown as text.
bool linkable(std::string_view url) {
  return detail::istarts_with(url, "http://") ||
         detail::istarts_with(url, "https://");
}

void append_link(std::string& out, std::string_view href,
                 std::string_view text) {
  out += "<a href=\"";
  append_xml_escaped(out, href);
  out += "\">";
  append_xml_escaped(out, text);
  out += "</a>";
}

void append_cell(std::string& out, std::string_view text,
                 std::string_view cls = {}) {
  out += cls.empty() ? "<td>" : "<td class=\"";
  if (!cls.empty()) (out += cls) += "\">";
  append_xml_escaped(out, text);
  out += "</td>";
}

}  // namespace

void append_html_page_start(std::string& out, const html_view_page& page) {
  std::string title(page.sitemap);
  title +=
      ", URLs " + with_commas(page.first) + " to " + with_commas(page.last);
  append_head(out, title);
  out += "<h1>";
  append_xml_escaped(out, title);
  out += "</h1>\n<p>URLs " + with_commas(page.first) + " to " +
         with_commas(page.last) + " of " + with_commas(page.sitemap_urls) +
         " in ";
  append_link(out, page.sitemap, page.sitemap);
  out += ". ";
  append_link(out, page.front_page, "All sitemaps and pages");
  out +=
      ".</p>\n<table id=\"urls\"><thead><tr><th class=\"num\">#</th>"
      "<th>URL</th><th>Last modified</th><th>Change frequency</th>"
      "<th class=\"num\">Priority</th></tr></thead>\n<tbody>\n";
}

void append_html_row(std::string& out, std::uint64_t number,
                     const html_view_row& row) {
  out += "<tr><td class=\"num\">";
  out += std::to_string(number);
  out += "</td><td class=\"loc\">";
  if (linkable(row.loc))
    append_link(out, row.loc, row.loc);
  else
    append_xml_escaped(out, row.loc);
  out += "</td>";
  append_cell(out, row.lastmod);
  append_cell(out, row.changefreq);
  append_cell(out, row.priority, "num");
  out += "</tr>\n";
}

void append_html_page_end(std::string& out) {
  out += "</tbody></table>\n<p>Written by sitemill.</p>\n</body></html>\n";
}

void append_html_front_page(std::string& out, std::string_view entry,
                            std::span<const html_view_file> files) {
  std::uint64_t urls = 0;
  for (const auto& f : files) urls += f.urls;
  append_head(out, "Sitemaps");
  out += "<h1>Sitemaps</h1>\n<p><span id=\"file-count\">";
  out += with_commas(files.size());
  out += "</span> sitemaps, <span id=\"url-count\">";
  out += with_commas(urls);
  out += "</span> URLs. Submitted as ";
  append_link(out, entry, entry);
  out +=
      ".</p>\n<table id=\"files\"><thead><tr><th class=\"num\">#</th>"
      "<th>Sitemap</th><th class=\"num\">URLs</th><th>Newest lastmod</th>"
      "<th>Pages</th></tr></thead>\n<tbody>\n";
  std::uint64_t number = 0;
  for (const auto& f : files) {
    out += "<tr><td class=\"num\">" + std::to_string(++number) +
           "</td><td class=\"loc\">";
    append_link(out, f.path, f.path);
    out += "</td>";
    append_cell(out, with_commas(f.urls), "num");
    append_cell(out, f.newest);
    out += "<td>";
    for (std::size_t k = 0; k < f.pages.size(); ++k) {
      if (k != 0) out += ' ';
      append_link(out, f.pages[k], std::to_string(k + 1));
    }
    out += "</td></tr>\n";
  }
  out += "</tbody></table>\n<p>Written by sitemill.</p>\n</body></html>\n";
}

}  // namespace sitemill
