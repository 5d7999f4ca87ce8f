// "Did you mean": the nearest of a few known names to a mistyped word, for
// a command (sitemill generat) and a config key (base_url).
#ifndef SITEMILL_CLI_SUGGEST_H
#define SITEMILL_CLI_SUGGEST_H

#include <string>
#include <string_view>
#include <vector>

namespace sitemill::cli {

/// The name in `names` fewest edits (Levenshtein) from `word`, when it is at
/// most `max_edits` away; empty otherwise. The first of equals wins.
std::string nearest_name(std::string_view word,
                         const std::vector<std::string>& names,
                         std::size_t max_edits = 2);

}  // namespace sitemill::cli

#endif  // SITEMILL_CLI_SUGGEST_H
