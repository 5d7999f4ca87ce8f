// Small sitemaps for the stats and diff tests.
#ifndef SITEMILL_TESTS_INSPECT_SUPPORT_H
#define SITEMILL_TESTS_INSPECT_SUPPORT_H

#include <string>
#include <string_view>
#include <vector>

namespace sitemill::testing {

/// One <url>: its loc and the inner XML after it ("<lastmod>..</lastmod>").
struct url_xml {
  std::string loc;
  std::string rest;
};

/// A urlset declaring the image and xhtml namespaces.
inline std::string urlset_xml(const std::vector<url_xml>& urls) {
  std::string s =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
      "xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\" "
      "xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n";
  for (const auto& u : urls)
    s += "<url><loc>" + u.loc + "</loc>" + u.rest + "</url>\n";
  return s + "</urlset>\n";
}

/// A sitemapindex listing `locs`.
inline std::string index_xml(const std::vector<std::string>& locs) {
  std::string s =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  for (const auto& l : locs) s += "<sitemap><loc>" + l + "</loc></sitemap>\n";
  return s + "</sitemapindex>\n";
}

inline std::string lastmod(std::string_view d) {
  return "<lastmod>" + std::string(d) + "</lastmod>";
}

}  // namespace sitemill::testing

#endif  // SITEMILL_TESTS_INSPECT_SUPPORT_H
