// sitemill internals: the frame every HTML report page shares (the set's
// report, report_html.h; the site audit, audit_html.h): the head with its
// marker and inline style, and the small pieces of markup the pages are
// built from. Every text given is escaped here.
#ifndef SITEMILL_REPORT_REPORT_PAGE_H
#define SITEMILL_REPORT_REPORT_PAGE_H

#include <string>
#include <string_view>

namespace sitemill::detail {

/// Opens a page: doctype, head (title "`title`: `subject`", the generator
/// marker, the shared style), body and its <h1>`title`</h1>.
void open_report_page(std::string& out, std::string_view title,
                      std::string_view subject);
/// Closes what open_report_page() opened.
void close_report_page(std::string& out);

/// `t`, escaped.
void report_text(std::string& out, std::string_view t);
/// <span id="`id`">`v`</span>: a number a test or a script can find.
void report_number(std::string& out, std::string_view id, std::string_view v);
/// One box of a <dl class="totals">.
void report_total(std::string& out, std::string_view label, std::string_view id,
                  std::string_view value);
/// One <td>, with a class when `cls` is not empty.
void report_cell(std::string& out, std::string_view t,
                 std::string_view cls = {});

}  // namespace sitemill::detail

#endif  // SITEMILL_REPORT_REPORT_PAGE_H
