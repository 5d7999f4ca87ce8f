#include "colour.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace sitemill::cli {
namespace {

colour_choice chosen = colour_choice::automatic;

// auto: a terminal that is not "dumb", and no NO_COLOR with a value.
bool terminal_wants_colour(std::FILE* stream) {
  const char* no_colour = std::getenv("NO_COLOR");
  if (no_colour != nullptr && no_colour[0] != '\0') return false;
  const char* term = std::getenv("TERM");
  if (term == nullptr || std::strcmp(term, "dumb") == 0) return false;
  return ::isatty(::fileno(stream)) == 1;
}

}  // namespace

void set_colour_choice(colour_choice choice) noexcept { chosen = choice; }

std::string painted(std::FILE* stream, std::string_view word, paint kind) {
  const bool on =
      chosen == colour_choice::always ||
      (chosen == colour_choice::automatic && terminal_wants_colour(stream));
  if (!on) return std::string(word);
  // Bold red, bold yellow, cyan: readable on dark and light backgrounds.
  const char* start = kind == paint::error     ? "\x1b[1;31m"
                      : kind == paint::warning ? "\x1b[1;33m"
                                               : "\x1b[36m";
  std::string out = start;
  out += word;
  out += "\x1b[0m";
  return out;
}

}  // namespace sitemill::cli
