// sitemill CLI: -v/--verbose, a root option like --color: what was walked,
// fetched and skipped, and why, one line each on stderr, from the library's
// own traces (walk_caps::trace, http_options::trace).
#ifndef SITEMILL_CLI_VERBOSE_H
#define SITEMILL_CLI_VERBOSE_H

#include <functional>
#include <string_view>

#include "sitemill/net/http.h"
#include "sitemill/walk/walker.h"

namespace sitemill::cli {

void set_verbose(bool on) noexcept;
bool verbose() noexcept;

/// Prints "sitemill: LINE" to stderr under --verbose; empty otherwise, so
/// the library does no work for a trace nobody reads.
std::function<void(std::string_view)> verbose_trace();

/// Sets the walk's and the fetches' traces of a command's options.
void trace_walk(walk_caps& walk, http_options& http);

}  // namespace sitemill::cli

#endif  // SITEMILL_CLI_VERBOSE_H
