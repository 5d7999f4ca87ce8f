// sitemill: protocol limits, each with the sentence it comes from
// (sitemaps.org, or RFC 9309 for robots.txt).
#ifndef SITEMILL_LIMITS_H
#define SITEMILL_LIMITS_H

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sitemill {

/// "each Sitemap file that you provide must have no more than 50,000 URLs"
/// (sitemaps.org protocol, "Sitemap index"). Also the cap for text sitemaps.
inline constexpr std::size_t max_urls_per_sitemap = 50'000;

/// "... and must be no larger than 50MB (52,428,800 bytes)" (uncompressed).
inline constexpr std::size_t max_bytes_per_sitemap = 52'428'800;

/// "Sitemap index files may not list more than 50,000 Sitemaps and must be no
/// larger than 50MB (52,428,800 bytes)".
inline constexpr std::size_t max_sitemaps_per_index = 50'000;
inline constexpr std::size_t max_bytes_per_index = 52'428'800;

/// "This value must be less than 2,048 characters." The XSD allows 2,048, the
/// prose does not, so sitemill writes at most 2,047 (docs/protocol.md checklist
/// 5).
inline constexpr std::size_t max_loc_length = 2'047;

/// sitemap.xsd: `<xsd:minLength value="12"/>` on tLoc.
inline constexpr std::size_t min_loc_length = 12;

/// "Crawlers SHOULD impose a parsing limit to protect their systems; see
/// Section 3. The parsing limit MUST be at least 500 kibibytes [KiB]."
/// (RFC 9309 2.5) 500 KiB is 512,000 bytes; sitemill reads exactly that much
/// of a robots.txt, the least a crawler may read, so what it finds there every
/// crawler finds too.
inline constexpr std::size_t max_robots_txt_bytes = 500 * 1024;

/// Google News sitemaps: "Only include recent URLs for articles that were
/// created in the last two days" (docs/protocol.md 3, S9).
inline constexpr std::int64_t max_news_age_seconds = 2 * 24 * 3600;

/// Google News sitemaps: at most 1,000 news:news per sitemap (docs/protocol.md
/// 3).
inline constexpr std::size_t max_news_per_sitemap = 1'000;

/// The one namespace URI of both urlset and sitemapindex (http, www, no slash).
inline constexpr std::string_view sitemap_namespace =
    "http://www.sitemaps.org/schemas/sitemap/0.9";

}  // namespace sitemill

#endif  // SITEMILL_LIMITS_H
