#include "support/campaign.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace sitemill::test {
namespace {

std::string_view name_of(campaign_kind kind) {
  switch (kind) {
    case campaign_kind::crash_point:
      return "crash_points";
    case campaign_kind::fault_case:
      return "fault_cases";
    case campaign_kind::hostile_input:
      return "hostile_inputs";
  }
  return "unknown";
}

}  // namespace

void campaign_tally(campaign_kind kind, std::uint64_t count) {
  const char* path = std::getenv("SITEMILL_CAMPAIGN_LOG");
  if (path == nullptr || *path == '\0' || count == 0) return;
  const std::string line =
      std::string(name_of(kind)) + ' ' + std::to_string(count) + '\n';
  const int fd = ::open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;  // a tally is a report, never a reason to fail a test
  (void)!::write(fd, line.data(), line.size());
  ::close(fd);
}

}  // namespace sitemill::test
