// sitemill: the lines a report's findings point at. check reports a line and
// a column; a person wants to see the text there. quote_finding_lines() reads
// each local document that holds an example once more, up to its last wanted
// line, and keeps a short window of each wanted line around the column, so
// the report can show it beside the finding (docs/report.md).
//
// Fetched documents are not quoted: quoting them would be a third download
// of each (stats and check have fetched them already); their examples keep
// the document and line.
#ifndef SITEMILL_REPORT_FINDING_LINES_H
#define SITEMILL_REPORT_FINDING_LINES_H

#include <cstddef>
#include <functional>
#include <vector>

#include "sitemill/report/report_html.h"

namespace sitemill {

/// Bytes of a line kept around the column (about two lines of the page).
inline constexpr std::size_t quote_window_bytes = 160;

/// Fills `quote` of every example in `findings` whose document is a local
/// file (gzip or not) and whose line is not 0. A document that cannot be read
/// again is left unquoted. Memory: one block and one line (at most 1 MiB
/// kept of it) at a time; the quotes are at most quote_window_bytes each.
/// `cancelled` is polled between lines.
void quote_finding_lines(std::vector<code_findings>& findings,
                         const std::function<bool()>& cancelled = {});

}  // namespace sitemill

#endif  // SITEMILL_REPORT_FINDING_LINES_H
