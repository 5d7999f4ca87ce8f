// sitemill: the site audit as one HTML page (`sitemill audit --html FILE`),
// in the frame and style of the set's report (report_html.h): inline CSS, no
// scripts, nothing fetched, printable. The totals, the sitemaps read, then
// one table per class of findings (orphans, missing, not indexable) with
// each URL, its reason and the page that links to it, at most
// audit_html_rows rows each (the rest counted; --json lists all), and the
// notes. Every text from the site is escaped; none becomes a link.
//
// Thread-safety: the function is pure.
#ifndef SITEMILL_REPORT_AUDIT_HTML_H
#define SITEMILL_REPORT_AUDIT_HTML_H

#include <cstddef>
#include <span>
#include <string>

#include "sitemill/audit/audit.h"

namespace sitemill {

/// Findings listed per class on the page.
inline constexpr std::size_t audit_html_rows = 1'000;

/// Appends the page for `report`, its verdict judged by `fail_on`.
void append_audit_html(std::string& out, const audit_report& report,
                       std::span<const audit_class> fail_on);

}  // namespace sitemill

#endif  // SITEMILL_REPORT_AUDIT_HTML_H
