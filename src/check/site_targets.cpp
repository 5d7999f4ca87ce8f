// A site target ("https://www.example.com/"): its robots.txt, reported as a
// document of its own, and the sitemaps it names (find_site_sitemaps(), the
// one piece that finds them), walked as its children.
#include "sitemill/walk/site.h"

#include "check/checker.h"

namespace sitemill::detail {

void checker::check_site(const std::string& target,
                         const normalized_url& site) {
  const walk_document robots = site_robots_document(site);
  if (auto why = walker_.admit(robots)) {
    if (why->reason != walk_skip_reason::stopped) not_read(robots, *why);
    return;
  }

  const std::size_t slot = open_report(robots);
  report_.documents[slot].robots_txt = true;
  report_.documents[slot].kind = document_kind::text;
  open_.push_back(open_document{
      slot, nullptr,
      std::make_unique<diagnostic_list>(options_.max_listed_per_code), false,
      false, {}});
  diagnostic_list& diags = *open_.back().robots;

  site_sitemaps found = find_site_sitemaps(walker_, site, target);
  if (found.robots.stop != walk_stop::none)
    stopped_inside(found.robots.stop, diags);
  for (diagnostic& d : found.diagnostics) diags.add(std::move(d));
  if (found.unreadable) report_.documents[slot].unreadable = true;
  if (found.robots.response) {
    report_.documents[slot].bytes = found.robots.response->body_bytes;
    report_.documents[slot].urls = found.named;
    open_.back().fallback = found.fallback;
    if (!found.fallback) remember_robots(std::string(site.origin()), found.links);
    walker_.walk_listed(robots, found.links);
  }
  open_document d = std::move(open_.back());
  open_.pop_back();
  finish(d.slot, *d.robots);
}

}  // namespace sitemill::detail
