#include "sitemill/report/stats_json.h"

#include <nlohmann/json.hpp>

#include "detail/json_text.h"

namespace sitemill {
namespace {

using json = nlohmann::ordered_json;

json counts(const std::vector<key_count>& v) {
  json o = json::object();
  for (const auto& kc : v) o[kc.key] = kc.count;
  return o;
}

}  // namespace

status write_stats_json(sink& out, const set_stats& s) {
  json docs = json::array();
  for (const auto& d : s.documents)
    docs.push_back({{"source", d.source},
                    {"type", std::string(to_string(d.kind))},
                    {"entries", d.entries},
                    {"bytes", d.bytes},
                    {"bytes_on_disk",
                     d.bytes_on_disk ? json(*d.bytes_on_disk) : json(nullptr)},
                    {"gzipped", d.gzipped},
                    {"complete", d.complete}});
  json segments = counts(s.segments);
  if (s.segments_other > 0) segments["other"] = s.segments_other;
  json sections = json::array();
  for (const section_stats& t : s.sections)
    sections.push_back({{"name", t.name},
                        {"files", t.files},
                        {"urls", t.urls},
                        {"bytes", t.bytes}});
  json months = counts(s.lastmod_months);
  json changefreq = json::object();
  for (std::size_t i = 0; i < changefreq_slots; ++i)
    changefreq[std::string(changefreq_label(i))] = s.changefreq[i];
  json priority = json::object();
  for (std::size_t i = 0; i < priority_slots; ++i)
    priority[std::string(priority_label(i))] = s.priority[i];
  json ext = json::object();
  for (std::size_t k = 0; k < extension_kind_count; ++k)
    ext[std::string(namespace_of(static_cast<extension_kind>(k)).name)] = {
        {"urls", s.extensions[k].urls}, {"items", s.extensions[k].items}};
  const json top = {{"input", s.input},
                    {"entry", s.entry},
                    {"urls", s.urls},
                    {"distinct_urls", s.distinct_urls},
                    {"duplicate_entries", s.duplicate_entries},
                    {"files", s.files},
                    {"indexes", s.indexes},
                    {"bytes", s.bytes},
                    {"bytes_on_disk", s.bytes_on_disk},
                    {"bytes_measured", s.bytes_measured},
                    {"compression_ratio", s.compression_ratio()},
                    {"gzipped_documents", s.gzipped_documents},
                    {"documents", std::move(docs)},
                    {"not_read", s.not_read},
                    {"not_read_examples", s.not_read_examples},
                    {"segments", std::move(segments)},
                    {"sections", std::move(sections)},
                    {"urls_not_parsed", s.urls_not_parsed},
                    {"lastmod",
                     {{"months", std::move(months)},
                      {"none", s.lastmod_none},
                      {"invalid", s.lastmod_invalid}}},
                    {"changefreq", std::move(changefreq)},
                    {"priority", std::move(priority)},
                    {"extensions", std::move(ext)},
                    {"findings", counts(s.findings)},
                    {"errors", s.errors},
                    {"warnings", s.warnings},
                    {"infos", s.infos}};
  std::string text = detail::dump_json(top);
  text += '\n';
  return out.write(text.data(), text.size());
}

}  // namespace sitemill
