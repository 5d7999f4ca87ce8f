// sitemill: the command-line tool.
//
// Exit codes (every subcommand):
//   0  done: the set was published / no errors were found
//   1  the data stopped us: nothing was published (see the messages) / the
//      checked sitemaps have errors
//   2  usage error, unreadable input (a check target that cannot be read at
//      all) or an I/O failure
//   3  interrupted by SIGINT or SIGTERM once the publish had begun: it was
//      finished (the new set is live), nothing after it was done
//   130 interrupted by SIGINT or SIGTERM: nothing was published
#include <malloc.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "colour.h"
#include "command.h"
#include "config_file.h"
#include "docs_location.h"
#include "option_table.h"
#include "sitemill/date/w3c_datetime.h"
#include "sitemill/version.h"
#include "suggest.h"
#include "verbose.h"

namespace sitemill::cli {
namespace {
volatile std::sig_atomic_t got_signal = 0;
void on_signal(int) { got_signal = 1; }
}  // namespace

bool interrupted() noexcept { return got_signal != 0; }

namespace {
std::chrono::milliseconds to_ms(double seconds) {
  return std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000.0));
}
}  // namespace

void retry_flags::add_to(CLI::App& cmd) {
  cmd.add_option("--timeout", timeout_s, "Seconds one HTTP request may take")
      ->check(CLI::Range(0.001, 86'400.0))
      ->capture_default_str();
  cmd.add_option("--retries", retries,
                 "Further tries after a 429 or 5xx answer")
      ->check(CLI::Range(0, 10))
      ->capture_default_str();
  cmd.add_option("--max-wait", max_wait_s,
                 "Seconds one wait between tries may last at most, Retry-After "
                 "included")
      ->check(CLI::Range(0.0, 3'600.0))
      ->capture_default_str();
}

http_options retry_flags::http() const {
  http_options h;
  h.total_timeout = to_ms(timeout_s);
  h.connect_timeout = std::min(h.connect_timeout, h.total_timeout);
  h.trace = verbose_trace();
  return h;
}

void retry_flags::apply(retry_policy& policy, const char* who,
                        bool quiet) const {
  policy.max_attempts = retries + 1;
  policy.max_wait = to_ms(max_wait_s);
  policy.sleep = [who, quiet](std::chrono::milliseconds d) {
    return retry_sleep(d, who, quiet);
  };
}

bool parse_now_flag(const std::string& text, const char* command,
                    std::optional<std::chrono::system_clock::time_point>& out) {
  if (text.empty()) return true;
  w3c_datetime when;
  if (parse_w3c_datetime(text, when) != datetime_problem::ok) {
    std::fprintf(stderr,
                 "sitemill %s: --now takes a W3C datetime "
                 "(2026-11-23T12:00:00Z)\n",
                 command);
    return false;
  }
  out = std::chrono::system_clock::time_point(
      std::chrono::seconds(when.unix_seconds()));
  return true;
}

status stdout_sink::write(const char* data, std::size_t size) {
  if (std::fwrite(data, 1, size, stdout) != size)
    return error{std::string("cannot write to stdout: ") +
                 std::strerror(errno)};
  return {};
}

status stdout_sink::close() {
  if (std::fflush(stdout) != 0)
    return error{std::string("cannot write to stdout: ") +
                 std::strerror(errno)};
  return {};
}

bool json_to_stdout(const char* command,
                    const std::function<status(sink&)>& write) {
  stdout_sink out;
  status written = write(out);
  if (written) written = out.close();
  if (!written)
    std::fprintf(stderr, "sitemill %s: --json: %s\n", command,
                 written.message().c_str());
  return static_cast<bool>(written);
}

bool retry_sleep(std::chrono::milliseconds d, const char* who, bool quiet) {
  if (!quiet && d.count() > 0)
    std::fprintf(stderr, "%s: waiting %.1f s before trying again\n", who,
                 static_cast<double>(d.count()) / 1000.0);
  const auto until = std::chrono::steady_clock::now() + d;
  while (!interrupted()) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= until) return true;
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
        until - now, std::chrono::milliseconds(100)));
  }
  return false;
}

// `sitemill --help` lists each command on one line, its description's
// first, as git and cargo do; `sitemill COMMAND --help` keeps the whole.
class one_line_per_command : public CLI::Formatter {
 public:
  std::string make_subcommand(const CLI::App* sub) const override {
    const std::string& description = sub->get_description();
    std::stringstream out;
    CLI::detail::format_help(out, sub->get_display_name(true),
                             description.substr(0, description.find('\n')),
                             column_width_);
    return out.str();
  }
};

// When `word` (the first argument) names no command, says so with the
// nearest one ("generat": did you mean "generate"?), or lists them all.
bool explain_unknown_command(const CLI::App& app, std::string_view word) {
  if (word.empty() || word.front() == '-') return false;
  std::vector<std::string> commands;
  std::string names;
  for (const CLI::App* sub : app.get_subcommands({}))
    if (sub->get_name() == word) return false;  // hidden ones too
  for (const CLI::App* sub : visible_commands(app)) {
    const std::string& name = sub->get_name();
    names += names.empty() ? name : ", " + name;
    commands.push_back(name);
  }
  const std::string nearest = nearest_name(word, commands);
  std::string line = "sitemill: '" + std::string(word) + "' is not a command";
  line += nearest.empty() ? "; the commands are " + names
                          : "; did you mean '" + nearest + "'?";
  std::fprintf(stderr, "%s\nRun 'sitemill --help' for what each does.\n",
               line.c_str());
  return true;
}

// A mistyped option, told with the nearest one ("sitemill generate: unknown
// option --baseurl; did you mean --base-url?"). CLI11 checks required
// options before unknown ones, so without this `generate --baseurl URL` said
// only that --base-url was required. Long options only: a short one is a
// single letter, too short to guess from.
bool explain_unknown_option(const CLI::App& app, int argc, char** argv) {
  const CLI::App* command = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;  // operands from here on
    if (command == nullptr && !arg.starts_with('-')) {
      for (const CLI::App* sub : app.get_subcommands({}))
        if (sub->get_name() == arg) command = sub;
      continue;
    }
    if (!arg.starts_with("--") || arg.size() < 3) continue;
    const std::string name(arg.substr(0, arg.find('=')));
    if (app.get_option_no_throw(name) != nullptr) continue;
    if (command != nullptr && command->get_option_no_throw(name) != nullptr)
      continue;
    std::vector<std::string> names;
    for (const CLI::App* owner : {&app, command}) {
      if (owner == nullptr) continue;
      for (const CLI::Option* option : owner->get_options())
        for (const std::string& long_name : option->get_lnames())
          names.push_back("--" + long_name);
    }
    const std::string nearest = nearest_name(name, names);
    const std::string who =
        command == nullptr ? "sitemill" : "sitemill " + command->get_name();
    std::string line = who + ": unknown option " + name;
    if (!nearest.empty()) line += "; did you mean " + nearest + "?";
    std::fprintf(stderr, "%s\nRun '%s --help' for its options.\n", line.c_str(),
                 who.c_str());
    return true;
  }
  return false;
}

// `sitemill` alone and `sitemill help [COMMAND]`: the short help (or the
// command's), on stdout, as `sitemill --help` prints it. Exit 0 for help,
// and 2 for no command at all, which is still a mistake in a script.
int print_help(const CLI::App& app, int argc, char** argv) {
  const CLI::App* which = &app;
  if (argc > 2)
    for (const CLI::App* sub : app.get_subcommands({}))
      if (sub->get_name() == argv[2]) which = sub;
  // A command's usage line names sitemill, as `sitemill COMMAND --help`'s.
  const std::string text =
      which == &app ? app.help() : which->help(app.get_name());
  std::fputs(text.c_str(), stdout);
  return argc == 1 ? exit_usage : exit_ok;
}

}  // namespace sitemill::cli

int main(int argc, char** argv) {
  using namespace sitemill::cli;
  // glibc raises its mmap threshold to the size of each large block freed
  // (up to 32 MiB), after which blocks of that size come from the heaps,
  // one per thread, and stay resident when freed: a generate of 10^8 URLs
  // kept its dedup's resolution tables and its readers' batches that way,
  // 20 MiB over its 64 MiB bound by the end (docs/scaling.md). A fixed
  // threshold gives blocks of 256 KiB and more back when they are freed;
  // the few of that size made per file are reused, so this costs no time.
  ::mallopt(M_MMAP_THRESHOLD, 256 * 1024);
  CLI::App app{
      "sitemill: generate, check, show and announce sitemaps (sitemaps.org "
      "protocol)",
      "sitemill"};
  app.formatter(std::make_shared<one_line_per_command>());
  app.set_version_flag("-V,--version",
                       std::string("sitemill ") + sitemill::version());
  app.require_subcommand(1);
  add_config_option(app);
  std::string colour = "auto";
  app.add_option("--color", colour,
                 "Colour severities: auto (on a terminal, unless NO_COLOR is "
                 "set or TERM=dumb), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  bool verbose_flag = false;
  app.add_flag("-v,--verbose", verbose_flag,
               "Say what was walked, fetched and skipped, and why, one line "
               "each on stderr");
  app.footer(
      docs_location_note() +
      "; 'sitemill check --explain CODE' prints a finding's.\n"
      "Exit codes: 0 done; 1 the data stopped us (nothing published) or check "
      "found errors;\n2 usage or I/O error, or a check target unreadable; "
      "3 interrupted\nonce publishing had begun: the new set is live; 130 "
      "interrupted, nothing published.\nRun 'sitemill COMMAND --help' for a "
      "command's options.");

  command_runner generate = setup_generate(app);
  command_runner check = setup_check(app);
  command_runner robots = setup_robots(app);
  command_runner ping = setup_ping(app);
  command_runner indexnow = setup_indexnow(app);
  command_runner submit = setup_submit(app);
  command_runner stats = setup_stats(app);
  command_runner diff = setup_diff(app);
  command_runner report = setup_report(app);
  command_runner audit = setup_audit(app);
  command_runner merge = setup_merge(app);
  command_runner completions = setup_completions(app);
  command_runner man = setup_man(app);
  cite_docs_in_help(app);

  if (argc == 1 || std::string_view(argv[1]) == "help")
    return print_help(app, argc, argv);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (argc > 1 && explain_unknown_command(app, argv[1])) return exit_usage;
    // A value from sitemill.toml that its option refuses: named with the
    // file, line and key, as every other mistake in the file is.
    if (const auto file =
            std::dynamic_pointer_cast<toml_config>(app.get_config_formatter()))
      if (const std::string said = file->explain(
              e.what(), std::vector<std::string>(argv + 1, argv + argc));
          !said.empty()) {
        std::fprintf(stderr, "sitemill: %s\n", said.c_str());
        return exit_usage;
      }
    if (explain_unknown_option(app, argc, argv)) return exit_usage;
    int code = app.exit(e);
    // CLI11 returns 0 for --help/--version; every real parse error is usage.
    return code == 0 ? exit_ok : exit_usage;
  }

  set_verbose(verbose_flag);
  set_colour_choice(colour == "always"  ? colour_choice::always
                    : colour == "never" ? colour_choice::never
                                        : colour_choice::automatic);

  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);

  if (app.got_subcommand("generate")) return generate();
  if (app.got_subcommand("check")) return check();
  if (app.got_subcommand("robots")) return robots();
  if (app.got_subcommand("ping")) return ping();
  if (app.got_subcommand("indexnow")) return indexnow();
  if (app.got_subcommand("submit")) return submit();
  if (app.got_subcommand("stats")) return stats();
  if (app.got_subcommand("diff")) return diff();
  if (app.got_subcommand("report")) return report();
  if (app.got_subcommand("audit")) return audit();
  if (app.got_subcommand("merge")) return merge();
  if (app.got_subcommand("completions")) return completions();
  if (app.got_subcommand("man")) return man();
  return exit_usage;
}
