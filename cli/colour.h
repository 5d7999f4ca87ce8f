// Colour for severities on a terminal, as people expect of a CLI: on for a
// terminal, off with NO_COLOR (https://no-color.org), a dumb terminal, or
// --color=never; --color=always forces it (a CI log that shows ANSI).
#ifndef SITEMILL_CLI_COLOUR_H
#define SITEMILL_CLI_COLOUR_H

#include <cstdio>
#include <string>
#include <string_view>

namespace sitemill::cli {

enum class colour_choice { automatic, always, never };

/// Set once by main() from --color, before any command prints.
void set_colour_choice(colour_choice choice) noexcept;

/// What a painted word means; each kind has one colour everywhere.
enum class paint { error, warning, info };

/// `word` in its kind's colour when `stream` gets colour, else as it is.
std::string painted(std::FILE* stream, std::string_view word, paint kind);

}  // namespace sitemill::cli

#endif  // SITEMILL_CLI_COLOUR_H
