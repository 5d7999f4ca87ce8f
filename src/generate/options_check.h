// What generate() refuses before it touches anything: options that do not
// fit together, and each source's own check. Errors name the option field
// (error::field), as the CLI's vocabulary words them.
#ifndef SITEMILL_GENERATE_OPTIONS_CHECK_H
#define SITEMILL_GENERATE_OPTIONS_CHECK_H

#include <string_view>

#include "generate/testing.h"
#include "sitemill/generate/generate.h"
#include "sitemill/result.h"

namespace sitemill::detail {

/// The options alone, `output`'s rules among them (one stream holds one
/// sitemap of one set).
[[nodiscard]] status check_options(const generate_options& o,
                                   const generate_testing& t);

/// Every source's validate(), with `base` the first base URL, so that a bad
/// source fails the run before out_dir is touched.
[[nodiscard]] status check_sources(const generate_options& o,
                                   std::string_view base);

}  // namespace sitemill::detail

#endif  // SITEMILL_GENERATE_OPTIONS_CHECK_H
