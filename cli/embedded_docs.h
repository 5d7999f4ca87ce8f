// The findings docs (docs/diagnostics*.md) compiled into the CLI
// (cmake/EmbedFiles.cmake, in CMakeLists.txt), so `check --explain CODE`
// prints a code's documentation wherever the binary runs, installed or not.
#ifndef SITEMILL_CLI_EMBEDDED_DOCS_H
#define SITEMILL_CLI_EMBEDDED_DOCS_H

#include <span>
#include <string_view>

namespace sitemill::cli {

struct embedded_file {
  std::string_view name;  ///< the file's name in docs/ ("diagnostics.md")
  std::string_view data;  ///< its bytes
};

/// Every embedded doc, in name order.
std::span<const embedded_file> embedded_files() noexcept;

/// The bytes of the embedded doc called `name`; empty when there is none.
std::string_view embedded_file_named(std::string_view name) noexcept;

}  // namespace sitemill::cli

#endif  // SITEMILL_CLI_EMBEDDED_DOCS_H
