#include "sitemill/walk/site.h"

#include "detail/text.h"
#include "sitemill/limits.h"
#include "sitemill/robots/robots.h"

namespace sitemill {
namespace {

// One byte past what find_sitemaps() reads, so it can tell a file that ends at
// the limit from one the limit cuts.
constexpr std::size_t robots_keep_bytes = max_robots_txt_bytes + 1;

std::string robots_url_of(const normalized_url& site) {
  return std::string(site.origin()) + "/robots.txt";
}

diagnostic about_file(severity level, std::string_view code,
                      std::string message) {
  diagnostic d;
  d.level = level;
  d.code = code;
  d.message = std::move(message);
  return d;
}

}  // namespace

bool names_site(std::string_view target, normalized_url& site) {
  return has_http_scheme(detail::trim(target)) &&
         normalize_url(target, site) == url_problem::ok &&
         site.path_and_query() == "/";
}

walk_document site_robots_document(const normalized_url& site) {
  walk_document robots;
  robots.source = robots.url = robots_url_of(site);
  robots.fetched = true;
  return robots;
}

site_sitemaps find_site_sitemaps(sitemap_walker& walker,
                                 const normalized_url& site,
                                 std::string_view target) {
  site_sitemaps out;
  const std::string origin(site.origin());
  const std::string robots_url = robots_url_of(site);
  out.robots = walker.fetch_text(robots_url, robots_keep_bytes);
  if (!out.robots.response) {
    if (out.robots.stop == walk_stop::none) {
      out.diagnostics.push_back(
          about_file(severity::error, "fetch-failed",
                     "robots.txt of " + std::string(target) +
                         " could not be fetched: " + out.robots.error));
      out.unreadable = true;
    }
    return out;
  }
  const http_response& r = *out.robots.response;
  const std::string where =
      r.effective_url.empty() ? robots_url : r.effective_url;
  robots_sitemaps found;
  if (r.status == 200) {
    found = find_sitemaps(out.robots.body, where);
    out.diagnostics = std::move(found.diagnostics);
    if (found.sitemaps.empty())
      out.diagnostics.push_back(about_file(
          severity::info, "no-sitemap-line",
          "robots.txt names no sitemap that can be fetched; " + origin +
              "/sitemap.xml is tried instead. Add 'Sitemap: <full URL>' "
              "lines so every search engine finds the sitemaps"));
  } else if (r.status >= 400 && r.status < 500) {
    out.diagnostics.push_back(
        about_file(severity::info, "robots-txt-missing",
                   "robots.txt answered HTTP " + std::to_string(r.status) +
                       ", so it names no sitemap; " + origin +
                       "/sitemap.xml is tried instead"));
  } else {
    out.diagnostics.push_back(about_file(
        severity::error, "http-status",
        "robots.txt answered HTTP " + std::to_string(r.status) +
            ": crawlers treat a robots.txt they cannot read as forbidding "
            "the whole site (RFC 9309 2.3.1.4); it must answer 200, or 404 "
            "when there is none"));
  }
  out.named = found.sitemaps.size();

  // The origin that answered, after redirects, is the site's.
  normalized_url answered;
  if (normalize_url(where, answered) != url_problem::ok)
    (void)normalize_url(robots_url, answered);
  if (found.sitemaps.empty()) {
    walk_link l;
    l.url = origin + "/sitemap.xml";
    l.listing = walk_listing{robots_url, l.url, 0, 0};
    out.links.push_back(std::move(l));
    out.fallback = true;
  } else {
    out.links = listed_sitemaps(found, robots_url, answered);
  }
  return out;
}

std::vector<walk_link> listed_sitemaps(const robots_sitemaps& found,
                                       const std::string& robots_url,
                                       const normalized_url& answered) {
  const std::string robots_site = std::string(answered.origin()) + "/";
  std::vector<walk_link> out;
  for (const robots_sitemap& s : found.sitemaps) {
    normalized_url url;
    if (normalize_url(s.url, url) != url_problem::ok) continue;  // reported
    walk_link l;
    l.url = std::string(url.href());
    l.source = s.url;
    l.listing = walk_listing{robots_url, s.url, s.line, 0};
    if (url.origin() != answered.origin()) l.cross_submit = robots_site;
    out.push_back(std::move(l));
  }
  return out;
}

}  // namespace sitemill
