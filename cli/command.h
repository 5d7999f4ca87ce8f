// The CLI's shape (CLI11's way): one file per subcommand, each with an
// options struct, a setup function that declares its flags, and a run
// function. Errors carry their exit code and become one in main() only.
#ifndef SITEMILL_CLI_COMMAND_H
#define SITEMILL_CLI_COMMAND_H

#include <CLI/CLI.hpp>
#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "sitemill/net/http.h"
#include "sitemill/write/sink.h"

namespace sitemill::cli {

/// Exit codes shared by every subcommand (documented in --help).
enum exit_code : int {
  exit_ok = 0,     ///< done (published, or no errors found)
  exit_data = 1,   ///< the data stopped us (nothing published)
  exit_usage = 2,  ///< bad options, unreadable input, I/O failure
  /// SIGINT or SIGTERM came once the publish had begun: it was finished, so
  /// the new set is live, and nothing after it (announcing) was done.
  exit_interrupted_published = 3,
  exit_interrupted = 130,  ///< SIGINT or SIGTERM: nothing was published
};

/// Registers a subcommand on `app`; the returned function runs it once
/// parsing has succeeded, and returns the exit code.
using command_runner = std::function<int()>;
command_runner setup_generate(CLI::App& app);
command_runner setup_check(CLI::App& app);
command_runner setup_robots(CLI::App& app);
command_runner setup_ping(CLI::App& app);
command_runner setup_indexnow(CLI::App& app);
command_runner setup_submit(CLI::App& app);
command_runner setup_stats(CLI::App& app);
command_runner setup_diff(CLI::App& app);
command_runner setup_report(CLI::App& app);
command_runner setup_audit(CLI::App& app);
command_runner setup_merge(CLI::App& app);
command_runner setup_completions(CLI::App& app);
/// Hidden from --help: the build writes the man pages with it.
command_runner setup_man(CLI::App& app);

/// Set by SIGINT/SIGTERM; long-running commands poll it and stop cleanly.
bool interrupted() noexcept;

/// --timeout, --retries and --max-wait: how the commands that send (ping,
/// indexnow) talk HTTP and retry 429 and 5xx answers.
struct retry_flags {
  double timeout_s = 30;
  int retries = 3;
  double max_wait_s = 60;

  /// Declares the three options on `cmd`.
  void add_to(CLI::App& cmd);
  /// HTTP settings with --timeout as the total (and at most the connect)
  /// timeout.
  http_options http() const;
  /// Sets the attempts, the longest wait and an interruptible sleep that
  /// says what it waits for as `who`.
  void apply(retry_policy& policy, const char* who, bool quiet) const;
};

/// --now: the time a run measures ages from, as a W3C datetime
/// (2026-11-23T12:00:00Z) in `text`. Leaves `out` alone for an empty text;
/// false after telling stderr that `command`'s --now is not one.
bool parse_now_flag(const std::string& text, const char* command,
                    std::optional<std::chrono::system_clock::time_point>& out);

/// stdout as a sink, where the report renderers write --json; close()
/// flushes.
class stdout_sink final : public sink {
 public:
  status write(const char* data, std::size_t size) override;
  status close() override;
};

/// --json: writes one object to stdout with `write` (a renderer of
/// src/report/); false after telling stderr, as `sitemill <command>`, why it
/// could not be written.
bool json_to_stdout(const char* command,
                    const std::function<status(sink&)>& write);

/// Waits `d` for a retry, saying so on stderr as `who` unless `quiet`, in
/// short steps so Ctrl-C ends the wait at once. False when interrupted.
bool retry_sleep(std::chrono::milliseconds d, const char* who, bool quiet);

}  // namespace sitemill::cli

#endif  // SITEMILL_CLI_COMMAND_H
