#include "kill_at.h"

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <memory>
#include <string>

namespace sitemill::cli {

std::optional<std::function<void(publish_step)>> kill_at_hook(
    std::string_view spec) {
  int sig = SIGKILL;
  if (spec.ends_with(":TERM")) {
    sig = SIGTERM;
    spec.remove_suffix(5);
  }
  const std::size_t colon = spec.rfind(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const std::string step(spec.substr(0, colon));
  const unsigned long nth =
      std::strtoul(std::string(spec.substr(colon + 1)).c_str(), nullptr, 10);
  if (nth == 0) return std::nullopt;
  auto reached = std::make_shared<std::atomic<unsigned long>>(0);
  return [step, nth, reached, sig](publish_step s) {
    if (to_string(s) == step && ++*reached == nth) ::raise(sig);
  };
}

}  // namespace sitemill::cli
