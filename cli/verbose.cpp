#include "verbose.h"

#include <cstdio>
#include <string>

namespace sitemill::cli {
namespace {
bool verbose_on = false;
}  // namespace

void set_verbose(bool on) noexcept { verbose_on = on; }
bool verbose() noexcept { return verbose_on; }

std::function<void(std::string_view)> verbose_trace() {
  if (!verbose_on) return {};
  return [](std::string_view line) {
    // One write per line, so lines from the reader and writer threads of a
    // run never interleave within a line.
    std::string text = "sitemill: ";
    text.append(line);
    text.push_back('\n');
    std::fwrite(text.data(), 1, text.size(), stderr);
  };
}

void trace_walk(walk_caps& walk, http_options& http) {
  walk.trace = verbose_trace();
  http.trace = verbose_trace();
}

}  // namespace sitemill::cli
