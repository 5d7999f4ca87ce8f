// The frame every HTML report page shares (report_page.h).
#include "report/report_page.h"

#include "sitemill/report/report_html.h"
#include "sitemill/write/xml_escape.h"

namespace sitemill::detail {
namespace {

// Readable on screen, black on white on paper, sections kept whole when
// they fit, and long URLs wrap instead of widening the page.
constexpr std::string_view style =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:"
    "70em;padding:0 1em;color:#222}h1{font-size:1.5em;margin:0 0 .2em}"
    "h2{font-size:1.15em;margin:1.6em 0 .4em;border-bottom:1px solid #ccc}"
    "h3{font-size:1em;margin:1em 0 .3em}p{margin:0 0 .8em}.note{color:#555}"
    "table{border-collapse:collapse;width:100%;margin:0 0 .8em}"
    "th,td{text-align:left;padding:.2em .6em;border-bottom:1px solid #ddd;"
    "vertical-align:top}th{background:#f3f3f3}table.examples td:first-child"
    "{width:30%}.num{text-align:right;"
    "white-space:nowrap}.loc{word-break:break-all}"
    "#lines code{white-space:pre-wrap;word-break:break-all}"
    ":target{background:#fff3c4}"
    "dl.totals{display:grid;grid-template-columns:repeat(auto-fill,"
    "minmax(11em,1fr));gap:.6em;margin:0 0 1em}dl.totals div{border:1px "
    "solid #ddd;border-radius:4px;padding:.4em .6em}dt{color:#555;font-size:"
    ".85em}dd{margin:0;font-size:1.3em;font-weight:600}"
    "svg{display:block;max-width:100%;height:auto;margin:0 0 .8em}"
    "svg text{font:11px system-ui,sans-serif;fill:#222}.bar{fill:#4a7bd0}"
    ".error{color:#b00020;font-weight:600}.warning{color:#8a5a00;"
    "font-weight:600}.info{color:#555}"
    "@media print{body{margin:0;max-width:none;font-size:11px}th{background:"
    "none}.bar{fill:#555}section,tr,svg{break-inside:avoid}h2{break-after:"
    "avoid}}";

}  // namespace

void report_text(std::string& out, std::string_view t) {
  append_xml_escaped(out, t);
}

void open_report_page(std::string& out, std::string_view title,
                      std::string_view subject) {
  out +=
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, "
      "initial-scale=1\">";
  out += report_html_marker;
  out += "<title>";
  report_text(out, title);
  out += ": ";
  report_text(out, subject);
  out += "</title><style>";
  out += style;
  out += "</style></head>\n<body>\n<h1>";
  report_text(out, title);
  out += "</h1>\n";
}

void close_report_page(std::string& out) { out += "</body></html>\n"; }

void report_number(std::string& out, std::string_view id, std::string_view v) {
  out += "<span id=\"";
  out += id;
  out += "\">";
  report_text(out, v);
  out += "</span>";
}

void report_total(std::string& out, std::string_view label, std::string_view id,
                  std::string_view value) {
  out += "<div><dt>";
  report_text(out, label);
  out += "</dt><dd>";
  report_number(out, id, value);
  out += "</dd></div>";
}

void report_cell(std::string& out, std::string_view t, std::string_view cls) {
  if (cls.empty()) {
    out += "<td>";
  } else {
    out += "<td class=\"";
    out += cls;
    out += "\">";
  }
  report_text(out, t);
  out += "</td>";
}

}  // namespace sitemill::detail
