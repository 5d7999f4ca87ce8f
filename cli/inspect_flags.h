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

}  // namespace sitemill::cli

#endif  // SITEMILL_CLI_INSPECT_FLAGS_H
