// sitemill: the HTML report of a sitemap set (`sitemill report`), one
// self-contained page a person opens in any browser: inline CSS, charts as
// inline SVG drawn here, no scripts, nothing fetched, printable. Its layout
// and rules are in docs/report.md.
//
// The page summarises, whatever the set's size: the numbers come from
// compute_stats() (bounded tables), the findings from check() grouped by
// code, each code with its count and at most report_examples_per_code
// examples; at most report_listed_documents documents are listed, the
// rest summed in one row. So a 10^6-URL set gives a page of some kilobytes.
//
// Every text taken from the set (URLs, paths, messages, quoted lines) is
// untrusted and is escaped with append_xml_escaped(); nothing from it becomes
// a link. The page's own links join a finding to its quoted line and back.
//
// Thread-safety: the functions are pure and may be called from any thread.
#ifndef SITEMILL_REPORT_REPORT_HTML_H
#define SITEMILL_REPORT_REPORT_HTML_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/check/check.h"
#include "sitemill/diagnostic.h"
#include "sitemill/inspect/stats.h"

namespace sitemill {

/// Examples listed per finding code (the first ones in document order).
inline constexpr std::size_t report_examples_per_code = 20;
/// Documents listed in the per-file table (in walk order); the rest are
/// summed in one row.
inline constexpr std::size_t report_listed_documents = 1'000;

/// One finding shown as an example of its code.
struct finding_example {
  std::string document;    ///< path or URL, as check reached it
  std::uint64_t line = 0;  ///< 0: about the document as a whole
  std::string message;
  std::uint64_t column = 0;  ///< 1-based, in characters; 0 when unknown
  /// The line's text around `column` (quote_finding_lines()), printable
  /// UTF-8; none when not quoted (a fetched document, line 0).
  std::optional<std::string> quote;
};

/// Every finding of one code across the run.
struct code_findings {
  std::string code;
  severity level = severity::error;
  std::uint64_t count = 0;      ///< all of them, listed by check or not
  std::uint64_t documents = 0;  ///< documents with at least one
  std::vector<finding_example> examples;  ///< at most the cap asked for
};

/// Groups `report`'s findings by code: errors first, then warnings, then
/// infos, each by count (largest first), then code. check's own
/// "more-not-listed" notes are folded into their code's count, not shown.
std::vector<code_findings> group_findings(
    const check_report& report,
    std::size_t examples_per_code = report_examples_per_code);

/// What every report page holds in its head, so a program (the CLI, before
/// replacing a file it was not told to) can tell a report from another page.
inline constexpr std::string_view report_html_marker =
    "<meta name=\"generator\" content=\"sitemill\">";

/// Appends the whole report page for `stats` and the findings `findings`
/// (group_findings() of check's report on the same input). The page cites
/// the findings doc as `docs_dir` + "diagnostics.md": where the reader has
/// sitemill's docs (an installed package's share/doc/sitemill/).
void append_report_html(std::string& out, const set_stats& stats,
                        const std::vector<code_findings>& findings,
                        std::string_view docs_dir = "docs/");

}  // namespace sitemill

#endif  // SITEMILL_REPORT_REPORT_HTML_H
