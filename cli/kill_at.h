// SITEMILL_TEST_KILL_AT=STEP:N[:TERM], for the crash tests only
// (docs/publishing.md): the process ends with SIGKILL the Nth time the run
// reaches STEP, a publish_step's name. Exactly what a kill at that moment
// would leave. With :TERM it sends itself SIGTERM there instead, which the
// run handles as one from outside.
#ifndef SITEMILL_CLI_KILL_AT_H
#define SITEMILL_CLI_KILL_AT_H

#include <functional>
#include <optional>
#include <string_view>

#include "sitemill/publish/publish.h"

namespace sitemill::cli {

/// The hook for `spec` ("STEP:N" or "STEP:N:TERM"); std::nullopt when it
/// is not of that form.
std::optional<std::function<void(publish_step)>> kill_at_hook(
    std::string_view spec);

}  // namespace sitemill::cli

#endif  // SITEMILL_CLI_KILL_AT_H
