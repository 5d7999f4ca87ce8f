// sitemill.toml: any option of any command, read by toml++ and handed to
// CLI11 as if typed. A table per command, keys spelled as the long options:
//
//   [generate]
//   base-url = "https://www.example.com/"
//   out = "public"
//   exclude = ["/drafts/*", "/tmp/*"]
//   no-gzip = true
//
// The commands' CLI11 declarations are the one table of options: a key is
// valid exactly when the command has that long option (or positional), so
// the file, the flags and --help never drift. Flags given on the command
// line win over the file (CLI11 fills only options left unset). Unknown
// tables and keys, and values of a kind no option takes, are errors naming
// the file, line and key, with the nearest valid key when one is close.
#ifndef SITEMILL_CLI_CONFIG_FILE_H
#define SITEMILL_CLI_CONFIG_FILE_H

#include <CLI/CLI.hpp>
#include <istream>
#include <string>
#include <vector>

namespace sitemill::cli {

/// The file read when --config is not given, from the working directory.
inline constexpr const char* default_config_file = "sitemill.toml";

class toml_config final : public CLI::Config {
 public:
  /// `root` is the whole command tree (it must outlive this object): keys
  /// are checked against its commands' options.
  explicit toml_config(const CLI::App& root) : root_(root) {}

  /// The file CLI11 opened as a stream: what messages name.
  std::vector<CLI::ConfigItem> from_config(std::istream& in) const override;

  /// The options as a sitemill.toml (CLI11's own TOML writer, whose output
  /// this reader reads).
  std::string to_config(const CLI::App* app, bool default_also,
                        bool write_description,
                        std::string prefix) const override;

  /// A parse error `message` of CLI11's about an option whose value this
  /// file gave (a value its check refused, a number that is not one), told
  /// as "FILE:LINE: 'key' in [command]: why"; "" when the message is about
  /// no such option. `args` is the command line: an option given there is
  /// not the file's.
  std::string explain(const std::string& message,
                      const std::vector<std::string>& args) const;

 private:
  struct config_origin {
    std::string command, key;
    std::string where;  // "FILE:LINE"
  };
  const CLI::App& root_;
  // Every key read, for explain(); CLI11 checks the values after reading.
  mutable std::vector<config_origin> origins_;
};

/// Declares --config on `app` (read `default_config_file` when present) and
/// makes every command read it; call before the commands are added, so they
/// inherit the reader.
void add_config_option(CLI::App& app);

}  // namespace sitemill::cli

#endif  // SITEMILL_CLI_CONFIG_FILE_H
