// Text for roff (man(7) pages): plain code without CLI11, so the test suite
// checks the escaping directly.
#ifndef SITEMILL_CLI_ROFF_H
#define SITEMILL_CLI_ROFF_H

#include <string>
#include <string_view>

namespace sitemill::cli {

/// `text` as roff prints it literally: a backslash as \e, a hyphen as \-
/// (the ASCII minus, so options and URLs copy and search as typed), other
/// than ASCII as \[uXXXX], and \& before a '.' or '\'' that starts a line
/// (which roff would read as a request). Invalid UTF-8 becomes U+FFFD.
std::string roff_escape(std::string_view text);

/// `text` as one argument of a macro (.TH, .SS): roff_escape()d, '"' as
/// \(dq, in double quotes.
std::string roff_argument(std::string_view text);

}  // namespace sitemill::cli

#endif  // SITEMILL_CLI_ROFF_H
