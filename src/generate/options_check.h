// What generate() refuses before it touches anything: options that do not
// fit together, and each source's own check; and what it makes of the
// options that pass (prepare_options()). Errors name the option field
// (error::field), as the CLI's vocabulary words them.
#ifndef SITEMILL_GENERATE_OPTIONS_CHECK_H
#define SITEMILL_GENERATE_OPTIONS_CHECK_H

#include <memory>
#include <string>
#include <string_view>

#include "generate/sections.h"
#include "generate/testing.h"
#include "sitemill/date/lastmod_reading.h"
#include "sitemill/generate/generate.h"
#include "sitemill/result.h"
#include "sitemill/source/site_source.h"
#include "sitemill/url/url.h"

namespace sitemill::detail {

/// The options alone, `output`'s rules among them (one stream holds one
/// sitemap of one set).
[[nodiscard]] status check_options(const generate_options& o,
                                   const generate_testing& t);

/// Every source's validate(), with `base` the first base URL, so that a bad
/// source fails the run before out_dir is touched.
[[nodiscard]] status check_sources(const generate_options& o,
                                   std::string_view base);

/// What a run is built from: the options' text made into the objects that
/// read and place URLs.
struct prepared_options {
  url_normalizer normalizer;  ///< base_url and more_base_urls
  lastmod_reader dates;       ///< date_format, more_date_formats, time_zone
  std::shared_ptr<const site_patterns> patterns;  ///< url_patterns, or none
  std::shared_ptr<const section_rules> sections;
  std::string sitemaps_url;  ///< normalised, or empty
};

/// check_options(), then each option made into what the run uses, then
/// check_sources(): the first refusal, naming its field.
[[nodiscard]] result<prepared_options> prepare_options(
    const generate_options& o, const generate_testing& t);

}  // namespace sitemill::detail

#endif  // SITEMILL_GENERATE_OPTIONS_CHECK_H
