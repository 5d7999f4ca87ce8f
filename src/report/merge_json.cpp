#include "sitemill/report/merge_json.h"

#include "detail/json_text.h"

namespace sitemill {

status write_merge_json(sink& out, const merge_report& r) {
  using json = nlohmann::ordered_json;
  json files = json::array();
  for (const published_file& f : r.files)
    files.push_back({{"path", f.path},
                     {"type", to_string(f.type)},
                     {"urls", f.urls},
                     {"bytes", f.bytes}});
  const char* outcome = r.outcome == merge_outcome::published ? "published"
                        : r.outcome == merge_outcome::no_valid_urls
                            ? "no_valid_urls"
                        : r.outcome == merge_outcome::refused   ? "refused"
                        : r.outcome == merge_outcome::cancelled ? "cancelled"
                                                                : "failed";
  const json top = {{"outcome", outcome},     {"message", r.message},
                    {"entry", r.entry},       {"entry_url", r.entry_url},
                    {"files", std::move(files)},
                    {"shards", r.shards},     {"records", r.records},
                    {"written", r.written},   {"duplicates", r.duplicates},
                    {"filtered", r.filtered}, {"rejected", r.rejected},
                    {"warnings", r.warnings}, {"skipped", r.skipped}};
  std::string text = detail::dump_json(top);
  text.push_back('\n');
  return out.write(text.data(), text.size());
}

}  // namespace sitemill
