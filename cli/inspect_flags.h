// The flags stats and diff share: how their inputs are read.
#ifndef SITEMILL_CLI_INSPECT_FLAGS_H
#define SITEMILL_CLI_INSPECT_FLAGS_H

#include <CLI/CLI.hpp>

#include "sitemill/inspect/set_input.h"

namespace sitemill::cli {

/// What every command reading sets says of a bucket in its --help, lines
/// ending in '\n'.
extern const char* const bucket_input_help;

struct inspect_flags {
  inspect_options run;
  double timeout_s = 60;
  std::uint64_t max_time_s = 600;

  /// Declares --set, --fetch-children, --allow-private, --max-documents,
  /// --max-bytes, --timeout and --max-time on `cmd`.
  void add_to(CLI::App& cmd);
  /// The options with the timeouts applied.
  inspect_options options() const;
};

/// For a command that reads one document or one set (check, generate
/// --from-sitemap): a directory or a bucket's prefix (s3://BUCKET/PREFIX/)
/// stands for the set published there, as for stats, diff and report, and
/// `target` becomes its entry (a file, "s3://BUCKET/KEY"); anything else
/// is left as it is. The error says why no set was found; there is no
/// --set to choose one of several, so it says to name an entry file.
status resolve_set_target(std::string& target, const http_options& http);

}  // namespace sitemill::cli

#endif  // SITEMILL_CLI_INSPECT_FLAGS_H
