// Shell completion scripts written from the option table (option_table.h):
// command names, each command's options, their fixed choices, and files
// where a value or an argument is a path, for bash, zsh and fish.
#ifndef SITEMILL_CLI_COMPLETIONS_H
#define SITEMILL_CLI_COMPLETIONS_H

#include <string>
#include <string_view>

#include "option_table.h"

namespace sitemill::cli {

/// The shells completion_script() writes for, as `sitemill completions`
/// takes them.
inline constexpr const char* completion_shells[] = {"bash", "zsh", "fish"};

/// The completion script for `shell` (one of completion_shells); "" for
/// any other. bash: defines _sitemill and registers it with complete -F;
/// zsh: a #compdef file for $fpath (also works when sourced); fish: a file
/// of complete commands.
std::string completion_script(const program_entry& program,
                              std::string_view shell);

}  // namespace sitemill::cli

#endif  // SITEMILL_CLI_COMPLETIONS_H
