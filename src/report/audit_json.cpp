#include "sitemill/report/audit_json.h"

#include <nlohmann/json.hpp>

#include "detail/json_text.h"

namespace sitemill {
namespace {

using json = nlohmann::ordered_json;

json or_null(const std::string& s) {
  return s.empty() ? json(nullptr) : json(s);
}

json findings(const std::vector<audit_finding>& list, bool judged) {
  json out = json::array();
  for (const audit_finding& f : list) {
    json o = {{"url", f.url},
              {"reason", f.reason},
              {"message", f.message},
              {"linked_from", or_null(f.linked_from)},
              {"sitemap", or_null(f.sitemap)}};
    if (judged) o["judged_by"] = f.judged_by;
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace

status write_audit_json(sink& out, const audit_report& r,
                        std::span<const audit_class> fail_on) {
  json classes = json::array();
  for (audit_class c : fail_on) classes.push_back(std::string(to_string(c)));
  const json top = {{"site", r.site},
                    {"sitemaps", r.sitemaps},
                    {"discovered", r.discovered},
                    {"totals",
                     {{"sitemap_documents", r.sitemap_documents},
                      {"sitemap_urls", r.sitemap_urls},
                      {"sitemap_urls_dropped", r.sitemap_urls_dropped},
                      {"crawled_urls", r.crawled_urls},
                      {"indexable_pages", r.indexable_pages},
                      {"fetched", r.fetched},
                      {"orphans", r.orphans.size()},
                      {"missing", r.missing.size()},
                      {"not_indexable", r.not_indexable.size()}}},
                    {"orphans", findings(r.orphans, false)},
                    {"missing", findings(r.missing, false)},
                    {"not_indexable", findings(r.not_indexable, true)},
                    {"notes", r.notes},
                    {"error", or_null(r.error)},
                    {"fail_on", std::move(classes)},
                    {"outcome", std::string(audit_outcome(r, fail_on))}};
  std::string text = detail::dump_json(top);
  text.push_back('\n');
  return out.write(text.data(), text.size());
}

}  // namespace sitemill
