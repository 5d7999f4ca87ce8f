// A site target ("https://www.example.com/"): its robots.txt, reported as a
// document of its own, and the sitemaps its Sitemap: lines name (or
// /sitemap.xml without any), walked as the robots.txt's children.
#include <algorithm>
#include <vector>

#include "check/checker.h"
#include "sitemill/robots/robots.h"

namespace sitemill::detail {
namespace {

// One byte past what find_sitemaps() reads, so it can tell a file that ends at
// the limit from one the limit cuts.
constexpr std::size_t robots_keep_bytes = max_robots_txt_bytes + 1;

}  // namespace

void checker::check_site(const std::string& target,
                         const normalized_url& site) {
  const std::string origin(site.origin());
  const std::string robots_url = origin + "/robots.txt";
  walk_document robots;
  robots.source = robots.url = robots_url;
  robots.fetched = true;
  if (auto why = walker_.admit(robots)) {
    if (why->reason != walk_skip_reason::stopped) not_read(robots, *why);
    return;
  }

  const std::size_t slot = open_report(robots);
  report_.documents[slot].robots_txt = true;
  report_.documents[slot].kind = document_kind::text;
  open_.push_back(open_document{
      slot, nullptr,
      std::make_unique<diagnostic_list>(options_.max_listed_per_code), false});
  diagnostic_list& diags = *open_.back().robots;
  const auto close = [&] {
    open_document d = std::move(open_.back());
    open_.pop_back();
    finish(d.slot, *d.robots);
  };

  walk_text got = walker_.fetch_text(robots_url, robots_keep_bytes);
  if (!got.response) {
    if (got.stop != walk_stop::none) {
      stopped_inside(got.stop, diags);
    } else {
      diags.add(
          severity::error, "fetch-failed", 0, 0,
          "robots.txt of " + target + " could not be fetched: " + got.error);
      report_.documents[slot].unreadable = true;
    }
    close();
    return;
  }
  const http_response& r = *got.response;
  report_.documents[slot].bytes = r.body_bytes;
  robots_sitemaps found;
  const long status = r.status;
  const std::string where =
      r.effective_url.empty() ? robots_url : r.effective_url;
  if (status == 200) {
    found = find_sitemaps(got.body, where);
    for (auto& d : found.diagnostics) diags.add(std::move(d));
    if (found.sitemaps.empty())
      diags.add(severity::info, "no-sitemap-line", 0, 0,
                "robots.txt names no sitemap that can be fetched; " + origin +
                    "/sitemap.xml is tried instead. Add 'Sitemap: <full "
                    "URL>' lines so every search engine finds the sitemaps");
  } else if (status >= 400 && status < 500) {
    diags.add(severity::info, "robots-txt-missing", 0, 0,
              "robots.txt answered HTTP " + std::to_string(status) +
                  ", so it names no sitemap; " + origin +
                  "/sitemap.xml is tried instead");
  } else {
    diags.add(severity::error, "http-status", 0, 0,
              "robots.txt answered HTTP " + std::to_string(status) +
                  ": crawlers treat a robots.txt they cannot read as "
                  "forbidding the whole site (RFC 9309 2.3.1.4); it must "
                  "answer 200, or 404 when there is none");
  }
  report_.documents[slot].urls = found.sitemaps.size();

  // The origin that answered, after redirects, is the site's.
  normalized_url answered;
  if (normalize_url(where, answered) != url_problem::ok)
    (void)normalize_url(robots_url, answered);
  const std::string robots_site = std::string(answered.origin()) + "/";
  std::vector<walk_link> links;
  if (found.sitemaps.empty()) {
    walk_link l;
    l.url = origin + "/sitemap.xml";
    l.listing = walk_listing{robots_url, l.url, 0, 0};
    links.push_back(std::move(l));
    open_.back().fallback = true;
  }
  for (const robots_sitemap& s : found.sitemaps) {
    normalized_url url;
    if (normalize_url(s.url, url) != url_problem::ok) continue;  // reported
    walk_link l;
    l.url = std::string(url.href());
    l.source = s.url;
    l.listing = walk_listing{robots_url, s.url, s.line, 0};
    if (url.origin() != answered.origin()) l.cross_submit = robots_site;
    links.push_back(std::move(l));
  }
  walker_.walk_listed(robots, links);
  close();
}

}  // namespace sitemill::detail
