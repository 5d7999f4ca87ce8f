#include "generate/set_writers.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "sitemill/write/stylesheet.h"

namespace sitemill::detail {

std::string xsl_href_of(const generate_options& o) {
  return o.bundled_stylesheet ? bundled_stylesheet_name(o.name) : o.xsl_href;
}

set_layout layout_of(const generate_options& o, const std::string& base,
                     std::size_t max_index_entries) {
  set_layout layout;
  layout.name = o.name;
  layout.extension = o.type == document_type::text ? ".txt" : ".xml";
  if (o.gzip) layout.extension += ".gz";
  layout.type = o.type;
  layout.base_url = base;
  layout.index = o.index;
  layout.max_index_entries = max_index_entries;
  layout.xsl_href = xsl_href_of(o);
  layout.bundled_stylesheet = o.bundled_stylesheet;
  return layout;
}

set_writers::set_writers(const generate_options& o, set_output& out,
                         compress_pool* pool, const section_table& sections)
    : o_(o), out_(out), pool_(pool), sections_(sections) {
  const auto now = o.now.value_or(std::chrono::system_clock::now());
  now_ =
      std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch())
          .count();
  news_.group = "news";
}

set_writers::slot& set_writers::section_slot(std::uint32_t section) {
  while (slots_.size() <= section) {
    slot& s = slots_.emplace_back();
    s.section = sections_.name(static_cast<std::uint32_t>(slots_.size() - 1));
  }
  slot& s = slots_[section];
  if (!s.writer) open(s, o_.max_urls);
  return s;
}

void set_writers::open(slot& s, std::size_t max_urls) {
  writer_options wo;
  wo.type = o_.type;
  wo.max_urls = max_urls;
  wo.max_bytes = o_.max_bytes;
  wo.xsl_href = xsl_href_of(o_);
  s.writer.emplace(wo,
                   [this, &s](std::size_t part) { return make_sink(s, part); });
}

result<std::unique_ptr<sink>> set_writers::make_sink(slot& s,
                                                     std::size_t part) {
  // Temporary names need only be unique: a section's number would do, but
  // its name reads better in a directory listing of a failed run.
  std::string what = !s.group.empty()    ? s.group + "-"
                     : s.section.empty() ? "part-"
                                         : "part-" + s.section + "-";
  std::string path = out_.temp_path(what + std::to_string(part));
  auto file = file_sink::create(path);
  if (!file) return file.err();
  s.digests.emplace_back();
  (*file)->report_to(&s.digests.back());
  s.temp_paths.push_back(std::move(path));
  if (!o_.gzip) return std::unique_ptr<sink>(std::move(*file));
  return std::unique_ptr<sink>(
      std::make_unique<gzip_sink>(std::move(*file), o_.level, pool_));
}

add_status set_writers::add(std::uint32_t section, std::string_view xml,
                            const std::optional<w3c_datetime>& lastmod,
                            extension_mask uses,
                            const std::optional<w3c_datetime>& news) {
  constexpr extension_mask news_bit = mask_of(extension_kind::news);
  if (!o_.news || (uses & news_bit) == 0 || !news)
    return section_slot(section).writer->add_serialized(xml, lastmod, uses);
  if (now_ - news->unix_seconds() <= news_window_seconds) {
    if (!news_.writer) open(news_, std::min(o_.max_urls, max_news_urls));
    return news_.writer->add_serialized(xml, lastmod, uses);
  }
  // Google: "Older articles must be removed, or have their <news:news>
  // block removed." The block is the entry's last extension item; elements
  // of other namespaces may follow it, and never use the prefix news
  // (parsed_entry::foreign_xml).
  ++stale_news_;
  constexpr std::string_view block_end = "</news:news>";
  const std::size_t block = xml.rfind("<news:news>");
  const std::size_t after = xml.find(block_end, block) + block_end.size();
  scratch_.assign(xml.substr(0, block));
  scratch_ += xml.substr(after);
  return section_slot(section).writer->add_serialized(scratch_, lastmod,
                                                      uses & ~news_bit);
}

status set_writers::finish() {
  for (slot& s : slots_)
    if (s.writer)
      if (status st = s.writer->finish(); !st) return st;
  if (news_.writer)
    if (status s = news_.writer->finish(); !s) return s;
  return {};
}

void set_writers::restart() {
  auto clear = [](slot& s) {
    for (const std::string& path : s.temp_paths) ::unlink(path.c_str());
    s.temp_paths.clear();
    s.digests.clear();
    s.writer.reset();
  };
  for (slot& s : slots_) clear(s);
  clear(news_);
}

std::vector<std::pair<std::string, std::uint32_t>> set_writers::files() const {
  std::vector<std::pair<std::string, std::uint32_t>> out;
  for (std::uint32_t i = 0; i < slots_.size(); ++i)
    for (const std::string& path : slots_[i].temp_paths)
      out.emplace_back(path, i);
  for (const std::string& path : news_.temp_paths)
    out.emplace_back(path, default_section);
  return out;
}

std::vector<finished_sitemap> set_writers::finished() const {
  // The default section's name "" sorts first.
  std::vector<const slot*> order;
  for (const slot& s : slots_) order.push_back(&s);
  std::sort(order.begin(), order.end(), [](const slot* a, const slot* b) {
    return a->section < b->section;
  });
  order.push_back(&news_);
  std::vector<finished_sitemap> out;
  for (const slot* s : order) {
    if (!s->writer) continue;
    const auto& parts = s->writer->parts();
    for (std::size_t i = 0; i < parts.size(); ++i)
      out.push_back({s->temp_paths[i], parts[i], s->digests[i].xxh3, s->group,
                     s->section});
  }
  return out;
}

void set_writers::count_sections(std::vector<section_total>& totals) const {
  for (const slot& s : slots_) {
    if (!s.writer || s.writer->parts().empty()) continue;
    auto at = std::find_if(
        totals.begin(), totals.end(),
        [&](const section_total& t) { return t.name == s.section; });
    if (at == totals.end()) at = totals.insert(totals.end(), {s.section});
    for (const part_info& p : s.writer->parts()) {
      at->urls += p.urls;
      at->bytes += p.bytes;
      ++at->files;
    }
  }
}

std::size_t set_writers::file_count() const {
  std::size_t n = news_.temp_paths.size();
  for (const slot& s : slots_) n += s.temp_paths.size();
  return n;
}

const std::string& set_writers::error() const {
  static const std::string none;
  for (const slot& s : slots_)
    if (s.writer && !s.writer->error().empty()) return s.writer->error();
  if (news_.writer) return news_.writer->error();
  return none;
}

std::vector<section_total> section_totals(const std::deque<set_writers>& sets,
                                          const section_table& sections) {
  std::vector<section_total> totals;
  if (sections.size() <= 1) return totals;  // no URL had a section
  for (const set_writers& w : sets) w.count_sections(totals);
  std::sort(totals.begin(), totals.end(),
            [](const section_total& a, const section_total& b) {
              return a.name < b.name;
            });
  return totals;
}

}  // namespace sitemill::detail
