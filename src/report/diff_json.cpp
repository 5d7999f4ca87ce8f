#include "sitemill/report/diff_json.h"

#include <nlohmann/json.hpp>

#include "date/lastmod_parts.h"
#include "detail/json_text.h"
#include "sitemill/date/w3c_datetime.h"

namespace sitemill {
namespace {

using json = nlohmann::ordered_json;

std::string dump(const json& j) { return detail::dump_json(j); }

json class_list(diff_classes classes) {
  json a = json::array();
  for (std::size_t c = 0; c < diff_class_count; ++c)
    if (classes & (1u << c))
      a.push_back(std::string(to_string(static_cast<diff_class>(c))));
  return a;
}

json text_or_null(std::string_view s) {
  return s.empty() ? json(nullptr) : json(std::string(s));
}

}  // namespace

std::string utc_datetime(std::int64_t unix_seconds) {
  w3c_datetime d;
  if (!date_detail::from_unix_time(unix_seconds, 0, 0, d)) return {};
  char buf[max_lastmod_length];
  return std::string(buf, format_lastmod(d, buf));
}

diff_json_writer::diff_json_writer(sink& out, const std::string& old_input,
                                   const std::string& new_input)
    : out_(out) {
  write("{\"old\":" + dump(old_input) + ",\"new\":" + dump(new_input) +
        ",\"files\":[");
}

void diff_json_writer::write(const std::string& text) {
  if (status_) status_ = out_.write(text.data(), text.size());
}

void diff_json_writer::file(const file_difference& d) {
  const json j = {{"change", std::string(to_string(d.kind))},
                  {"old", text_or_null(d.old_path)},
                  {"new", text_or_null(d.new_path)}};
  write((any_file_ ? ",\n" : "\n") + dump(j));
  any_file_ = true;
}

void diff_json_writer::start_urls() {
  if (in_urls_) return;
  write("],\"urls\":[");
  in_urls_ = true;
}

void diff_json_writer::url(const url_difference& d) {
  start_urls();
  json j = {{"url", std::string(d.url)}, {"changes", class_list(d.classes)}};
  if (d.classes & bit(diff_class::removed)) {
    j["old_lastmod"] = text_or_null(d.old_lastmod_text);
  } else {
    if (!(d.classes & bit(diff_class::added)))
      j["old_lastmod"] =
          d.old_lastmod ? json(utc_datetime(*d.old_lastmod)) : json(nullptr);
    j["new_lastmod"] = text_or_null(d.new_lastmod);
  }
  write((any_url_ ? ",\n" : "\n") + dump(j));
  any_url_ = true;
}

status diff_json_writer::finish(const diff_summary& s,
                                const std::vector<guard_verdict>& guards) {
  start_urls();
  json counts = json::object();
  for (std::size_t c = 0; c < diff_class_count; ++c)
    counts[std::string(to_string(static_cast<diff_class>(c)))] = s.counts[c];
  json g = json::array();
  for (const auto& v : guards)
    g.push_back({{"guard", v.sentence}, {"tripped", v.tripped}});
  const json summary = {{"same", s.same()},
                        {"old_urls", s.old_urls},
                        {"new_urls", s.new_urls},
                        {"old_files", s.old_files},
                        {"new_files", s.new_files},
                        {"files_compared", s.files_compared},
                        {"old_manifest_files", s.old_manifest_files},
                        {"changed_urls", s.changed_urls},
                        {"counts", std::move(counts)},
                        {"guards", std::move(g)}};
  write("\n],\"summary\":" + dump(summary) + "}\n");
  return status_;
}

}  // namespace sitemill
