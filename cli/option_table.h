// The one table of options, read back from the commands' own CLI11
// declarations as plain data: what the shell completions and the man pages
// are written from, so that they can never list an option the CLI does not
// take, or miss one it does.
#ifndef SITEMILL_CLI_OPTION_TABLE_H
#define SITEMILL_CLI_OPTION_TABLE_H

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace sitemill::cli {

/// What a shell offers for an option's value (or a positional).
enum class value_kind {
  none,       ///< a flag: takes no value
  choice,     ///< one of `choices` (CLI::IsMember)
  number,     ///< INT, UINT, FLOAT, NUMBER: nothing to offer
  file,       ///< a path, or TEXT, which the declarations cannot tell from
              ///< one (a shell offers files for an unknown word too)
  directory,  ///< DIR (CLI::ExistingDirectory, or ->type_name("DIR"))
  text,       ///< any other type name (URL, GLOB, ZONE, ...): nothing
};

struct option_entry {
  std::vector<std::string> long_names;   ///< "--out", in declaration order
  std::vector<std::string> short_names;  ///< "-q"
  std::string positional;                ///< a positional's name, else ""
  /// The value as --help shows it: " TEXT:{xml,txt}=xml REQUIRED".
  std::string label;
  std::string description;
  std::string group;  ///< --help's heading; "Options" when none was given
  value_kind value = value_kind::none;
  std::vector<std::string> choices;
  std::string envname;  ///< the environment variable read when not given
  bool required = false;
  bool repeatable = false;  ///< may be given (or take values) more than once
};

struct command_entry {
  std::string name;
  std::string summary;      ///< the description's first line
  std::string description;  ///< the description's other lines
  std::string footer;
  std::vector<option_entry> options;  ///< declaration order, help included
  std::vector<std::string> groups;    ///< option groups in --help's order

  std::vector<const option_entry*> positionals() const;
  std::vector<const option_entry*> named_options() const;
};

struct program_entry {
  command_entry root;  ///< the program itself and its global options
  /// The visible commands in --help's order; hidden ones (group "") left out.
  std::vector<command_entry> commands;
  bool fallthrough = false;  ///< commands take the root's options too
  /// --config: its long name, the file read without it, and its help.
  const option_entry* config = nullptr;
  std::string config_file;
  /// Root options a command accepts after its name too (CLI11 fallthrough:
  /// `sitemill generate --config ci.toml`), help and version aside.
  std::vector<const option_entry*> inherited() const;

  program_entry() = default;
  // `config` points into `root`.
  program_entry(const program_entry&) = delete;
  program_entry& operator=(const program_entry&) = delete;
  program_entry(program_entry&&) = default;
};

/// Walks `root` and its visible commands.
program_entry describe_program(const CLI::App& root);

/// The commands a person is offered (in --help, completions, man pages,
/// config tables and suggestions): all but the hidden ones (group "", such
/// as `sitemill man`, which the build runs).
std::vector<const CLI::App*> visible_commands(const CLI::App& root);

/// The first line of `text`, cut to its first sentence, and to at most
/// about `width` characters at a word: what fits beside a completion.
std::string short_help(const std::string& text, std::size_t width = 80);

}  // namespace sitemill::cli

#endif  // SITEMILL_CLI_OPTION_TABLE_H
