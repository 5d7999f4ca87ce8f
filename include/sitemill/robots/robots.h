// sitemill: the Sitemap: lines of robots.txt (docs/protocol.md section 5).
//
// A Sitemap record belongs to no group: it may stand anywhere, its field
// name is case-insensitive, its value is a full URL whose case is kept, and
// there may be many. RFC 9309 lets parsers be lenient; this one is, and says
// what it forgave.
#ifndef SITEMILL_ROBOTS_H
#define SITEMILL_ROBOTS_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/diagnostic.h"

namespace sitemill {

/// One sitemap named by robots.txt.
struct robots_sitemap {
  /// Absolute (a relative value resolved against the robots.txt URL).
  std::string url;
  std::uint64_t line = 0;  ///< where it was named first
};

struct robots_sitemaps {
  std::vector<robots_sitemap> sitemaps;  ///< in file order, duplicates removed
  /// Relative values, duplicates, bad URLs, UTF-16, ...
  std::vector<diagnostic> diagnostics;
};

/// Finds the Sitemap: lines of a robots.txt body fetched from `robots_url`.
/// Lines are read as the rules reader and the editor read them (a UTF-8 BOM,
/// LF, CR and CRLF line ends, comments, surrounding whitespace), and at most
/// the first max_robots_txt_bytes (limits.h; RFC 9309 2.5's minimum parsing
/// limit). Relative values are resolved and reported as errors
/// (the protocol wants full URLs); a UTF-16 file is an error and yields
/// nothing. URLs are returned normalised (url.h; path case kept) and
/// deduplicated on that form. Never fails: every problem is a diagnostic
/// (codes "robots-*", listed in docs/diagnostics-robots.md). An empty or
/// invalid `robots_url` only means relative values cannot be resolved.
/// Thread-safe; both views are read during the call only.
robots_sitemaps find_sitemaps(std::string_view robots_txt,
                              std::string_view robots_url);

}  // namespace sitemill

#endif  // SITEMILL_ROBOTS_H
