#include "explain.h"

#include <cstdio>

#include "command.h"
#include "docs_location.h"
#include "embedded_docs.h"
#include "suggest.h"

namespace sitemill::cli {
namespace {

// The cells of a Markdown table row: split at each '|' that is not escaped
// as "\|", each trimmed, "\|" read as '|'.
std::vector<std::string> cells_of(std::string_view row) {
  std::vector<std::string> cells;
  std::string cell;
  for (std::size_t i = 1; i < row.size(); ++i) {  // past the leading '|'
    if (row[i] == '\\' && i + 1 < row.size() && row[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (row[i] == '|') {
      const auto b = cell.find_first_not_of(' ');
      const auto e = cell.find_last_not_of(' ');
      cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
      cell.clear();
    } else {
      cell += row[i];
    }
  }
  return cells;
}

// A cell's Markdown code spans as plain text: `<loc>` is <loc>, and
// `` ` `` (a span of two backticks around one) is `.
std::string plain(std::string_view cell) {
  std::string out;
  std::size_t at = 0;
  while (at < cell.size()) {
    if (cell[at] != '`') {
      out += cell[at++];
      continue;
    }
    std::size_t run = cell.find_first_not_of('`', at);
    if (run == std::string_view::npos) run = cell.size();
    const std::string_view fence = cell.substr(at, run - at);
    const std::size_t close = cell.find(fence, run);
    if (close == std::string_view::npos) {  // not a span: keep it as is
      out += fence;
      at = run;
      continue;
    }
    std::string_view code = cell.substr(run, close - run);
    if (code.size() > 2 && code.front() == ' ' && code.back() == ' ')
      code = code.substr(1, code.size() - 2);
    out += code;
    at = close + fence.size();
  }
  return out;
}

// Words wrapped at `width` columns, each line after `indent`.
std::string wrapped(std::string_view text, std::size_t width,
                    std::string_view indent) {
  std::string out, line;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find(' ', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(at, end - at);
    at = end + 1;
    if (word.empty()) continue;
    if (!line.empty() &&
        indent.size() + line.size() + 1 + word.size() > width) {
      ((out += indent) += line) += '\n';
      line.clear();
    }
    (line += line.empty() ? "" : " ") += word;
  }
  if (!line.empty()) ((out += indent) += line) += '\n';
  return out;
}

}  // namespace

std::vector<code_doc> documented_codes() {
  std::vector<code_doc> codes;
  for (const embedded_file& f : embedded_files()) {
    std::vector<std::string> headings;  // of the table being read
    std::size_t at = 0;
    while (at < f.data.size()) {
      std::size_t end = f.data.find('\n', at);
      if (end == std::string_view::npos) end = f.data.size();
      const std::string_view line = f.data.substr(at, end - at);
      at = end + 1;
      if (!line.starts_with('|')) {
        headings.clear();
        continue;
      }
      std::vector<std::string> cells = cells_of(line);
      if (headings.empty()) {
        if (!cells.empty() && cells[0] == "Code") headings = std::move(cells);
        continue;
      }
      const std::string& first = cells[0];
      if (first.size() < 3 || first.front() != '`' || first.back() != '`')
        continue;  // the |---| line
      code_doc doc{first.substr(1, first.size() - 2), std::string(f.name), {}};
      for (std::size_t i = 1; i < cells.size() && i < headings.size(); ++i)
        doc.columns.emplace_back(headings[i], plain(cells[i]));
      codes.push_back(std::move(doc));
    }
  }
  return codes;
}

int explain_code(std::string_view code) {
  const std::vector<code_doc> codes = documented_codes();
  auto severity = [](const code_doc& d) {
    for (const auto& [heading, text] : d.columns)
      if (heading == "Severity") return text;
    return std::string();
  };
  if (code.empty()) {
    std::printf(
        "Every code a finding of sitemill check (or a reader's "
        "warning) can carry;\n'sitemill check --explain CODE' "
        "prints one's documentation.\n");
    std::string doc;
    for (const code_doc& d : codes) {
      if (d.doc != doc) std::printf("\n%s:\n", (doc = d.doc).c_str());
      std::printf("  %-32s %s\n", d.code.c_str(), severity(d).c_str());
    }
    return exit_ok;
  }
  for (const code_doc& d : codes) {
    if (d.code != code) continue;
    std::printf("%s (%s; %s)\n", d.code.c_str(), severity(d).c_str(),
                cite_docs("docs/" + d.doc).c_str());
    for (const auto& [heading, text] : d.columns) {
      if (heading == "Severity" || text.empty() || text == "—") continue;
      std::printf("\n%s:\n%s",
                  heading == "§" ? "Protocol digest sections" : heading.c_str(),
                  wrapped(text, 80, "  ").c_str());
    }
    return exit_ok;
  }
  std::vector<std::string> names;
  for (const code_doc& d : codes) names.push_back(d.code);
  const std::string nearest = nearest_name(code, names, 4);
  std::string line = "sitemill check: --explain: no finding has the code '" +
                     std::string(code) + "'";
  line += nearest.empty() ? "; 'sitemill check --explain' lists the codes"
                          : "; did you mean '" + nearest + "'?";
  std::fprintf(stderr, "%s\n", line.c_str());
  return exit_usage;
}

}  // namespace sitemill::cli
