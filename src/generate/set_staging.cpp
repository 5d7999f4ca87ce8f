#include "generate/set_staging.h"

#include <algorithm>

#include "generate/html_view.h"

namespace sitemill::detail {

result<assembled_set> stage_set(const generate_options& o,
                                const set_layout& layout, set_output& out,
                                const set_writers& writers) {
  std::vector<finished_sitemap> sitemaps = writers.finished();
  set_report& r = out.report;
  r.base_url = out.base;
  r.out_dir = out.dir;
  r.written = out.written;
  r.dated = std::any_of(
      sitemaps.begin(), sitemaps.end(),
      [](const finished_sitemap& s) { return s.part.newest.has_value(); });
  std::vector<std::string> newest;  // for the HTML view
  if (o.html_view)
    for (const finished_sitemap& f : sitemaps) {
      char text[max_lastmod_length];
      newest.emplace_back(
          text, f.part.newest ? format_lastmod(*f.part.newest, text) : 0);
    }
  auto set = assemble_set(*out.pub(), layout, std::move(sitemaps));
  if (!set) return set.err();
  if (o.html_view)
    if (status s =
            stage_html_view(*out.pub(), o.name, *set, newest, o.html_page_urls);
        !s)
      return s.err();
  for (const auto& f : set->files) r.files.push_back(f.file);
  r.entry = set->entry;
  r.sitemaps_url = layout.base_url;
  r.entry_url = layout.base_url + set->entry;
  return set;
}

}  // namespace sitemill::detail
