// `sitemill check --explain [CODE]`: a finding code's documentation, read
// from the tables of the embedded findings docs (embedded_docs.h), so what
// the command prints is what docs/diagnostics-*.md say, never a second copy.
#ifndef SITEMILL_CLI_EXPLAIN_H
#define SITEMILL_CLI_EXPLAIN_H

#include <string>
#include <string_view>
#include <vector>

namespace sitemill::cli {

/// One row of a findings table: the code, and each column by its heading
/// (Severity, Meaning, How to fix, ...), in the table's order.
struct code_doc {
  std::string code;
  std::string doc;  ///< the file it is documented in ("diagnostics-context.md")
  std::vector<std::pair<std::string, std::string>> columns;
};

/// Every code the embedded docs document, in the docs' order.
std::vector<code_doc> documented_codes();

/// Prints `code`'s documentation on stdout (exit 0), or, for a code no doc
/// lists, says so on stderr with the nearest code (exit 2). An empty `code`
/// lists every code with its severity (exit 0).
int explain_code(std::string_view code);

}  // namespace sitemill::cli

#endif  // SITEMILL_CLI_EXPLAIN_H
