#include "inspect_flags.h"

#include <algorithm>

#include "verbose.h"

namespace sitemill::cli {

void inspect_flags::add_to(CLI::App& cmd) {
  cmd.add_option("--set", run.set_name,
                 "The set to read in a directory holding several "
                 "(its manifest-SET.json; default: the only one, else "
                 "\"sitemap\")");
  cmd.add_flag("--fetch-children", run.fetch_children,
               "Fetch a local index's children that are not found beside it");
  cmd.add_flag("--allow-private", run.allow_private,
               "Fetch from loopback and private addresses no input names");
  cmd.add_option("--max-documents", run.max_documents,
                 "Documents read at most per input")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--max-bytes", run.max_total_bytes,
                 "Uncompressed bytes read at most per input")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--timeout", timeout_s,
                 "Seconds one HTTP request may take, transfer included")
      ->check(CLI::Range(0.001, 86'400.0))
      ->capture_default_str();
  cmd.add_option("--max-time", max_time_s, "Seconds one input's walk may take")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
}

inspect_options inspect_flags::options() const {
  inspect_options o = run;
  o.http.total_timeout =
      std::chrono::milliseconds(static_cast<std::int64_t>(timeout_s * 1000.0));
  o.http.connect_timeout =
      std::min(o.http.connect_timeout, o.http.total_timeout);
  o.max_time = std::chrono::seconds(static_cast<std::int64_t>(max_time_s));
  trace_walk(o, o.http);
  return o;
}

}  // namespace sitemill::cli
