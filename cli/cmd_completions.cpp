// sitemill completions: a shell completion script on stdout, written from
// the commands' own options (option_table.h), so it offers exactly what
// the binary takes.
#include <cstdio>
#include <string>

#include "command.h"
#include "completions.h"

namespace sitemill::cli {

command_runner setup_completions(CLI::App& app) {
  auto shell = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "completions",
      "Print a shell completion script for bash, zsh or fish.\n"
      "The script completes the commands, each command's options (with "
      "their\n"
      "descriptions in zsh and fish), the fixed choices of options such as "
      "--format,\n"
      "and file names where an option or argument takes a path. Packages "
      "install\n"
      "it; to load it yourself, see docs/completions.md.");
  cmd->add_option("shell", *shell, "The shell to complete for")
      ->required()
      ->check(CLI::IsMember(std::vector<std::string>(
          std::begin(completion_shells), std::end(completion_shells))));
  cmd->footer(
      "Exit codes: 0 the script was printed; 2 an unknown shell, or stdout "
      "cannot be\n"
      "written.\n"
      "Examples:\n"
      "  source <(sitemill completions bash)           # in ~/.bashrc\n"
      "  sitemill completions zsh > ~/.zfunc/_sitemill  # a directory of "
      "$fpath\n"
      "  sitemill completions fish > "
      "~/.config/fish/completions/sitemill.fish");
  return [&app, shell] {
    const std::string script = completion_script(describe_program(app), *shell);
    if (std::fwrite(script.data(), 1, script.size(), stdout) != script.size() ||
        std::fflush(stdout) != 0) {
      std::perror("sitemill completions: stdout");
      return static_cast<int>(exit_usage);
    }
    return static_cast<int>(exit_ok);
  };
}

}  // namespace sitemill::cli
