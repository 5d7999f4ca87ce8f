#include "sitemill/notify/announce.h"

namespace sitemill {

bool announcement::ok() const noexcept {
  if (robots && robots->failure) return false;
  if (indexnow) {
    if (indexnow->failure) return false;
    if (indexnow->report && !indexnow->report->ok()) return false;
  }
  return true;
}

std::vector<std::string> indexnow_urls(const state_changes& changes) {
  std::vector<std::string> urls = changes.added;
  urls.insert(urls.end(), changes.changed.begin(), changes.changed.end());
  return urls;
}

std::vector<std::string> robots_sitemap_urls(const generate_report& report,
                                             std::string_view base_url) {
  std::string base(base_url);
  if (!base.ends_with('/')) base.push_back('/');
  std::vector<std::string> urls;
  for (const published_file& f : report.files)
    if (f.type == document_type::sitemapindex || f.path == report.entry)
      urls.push_back(base + f.path);
  return urls;
}

announcement announce_set(http_client& client, const generate_report& report,
                          const announce_options& options) {
  announcement done;
  if (report.outcome != generate_outcome::published) return done;

  if (!options.robots_path.empty()) {
    robots_announcement& robots = done.robots.emplace();
    robots.path = options.robots_path;
    robots.sitemaps = robots_sitemap_urls(report, options.base_url);
    auto updated = update_robots(robots.path, robots.sitemaps);
    if (updated)
      robots.update = std::move(*updated);
    else
      robots.failure = std::move(updated).err();
  }

  if (!options.indexnow.key.empty() && report.changes) {
    indexnow_announcement& indexnow = done.indexnow.emplace();
    indexnow.urls = indexnow_urls(*report.changes);
    if (!indexnow.urls.empty()) {
      auto sent = submit_indexnow(client, indexnow.urls, options.indexnow);
      if (sent)
        indexnow.report = std::move(*sent);
      else
        indexnow.failure = std::move(sent).err();
    }
  }
  return done;
}

}  // namespace sitemill
