// sitemill: diagnostics, the validator's unit of output.
//
// Like robotstxt's reporting: a reader never fails on bad input, it reports
// each problem with where it is and how to fix it, and carries on.
#ifndef SITEMILL_DIAGNOSTIC_H
#define SITEMILL_DIAGNOSTIC_H

#include <cstdint>
#include <string>
#include <string_view>

namespace sitemill {

/// How bad a finding is. Search engines reject or ignore what an error
/// describes; a warning is legal but unwise or schema-invalid only; info is
/// worth knowing.
enum class severity : std::uint8_t { error, warning, info };

/// "error", "warning" or "info".
std::string_view to_string(severity s) noexcept;

/// One finding in one document.
struct diagnostic {
  severity level = severity::error;
  /// Stable identifier, kebab-case ("loc-not-absolute", "lastmod-no-zone");
  /// the full list is in docs/diagnostics.md. Scripts match on it.
  std::string code;
  std::uint64_t line = 0;  ///< 1-based; 0 when about the document as a whole
  /// 1-based, in characters (Unicode code points, as libxml2 counts them,
  /// so a UTF-8 BOM is none); 0 when unknown.
  std::uint64_t column = 0;
  std::string message;  ///< what is wrong and how to fix it
};

}  // namespace sitemill

#endif  // SITEMILL_DIAGNOSTIC_H
