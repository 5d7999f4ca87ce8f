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
                         compress_pool* pool)
    : o_(o), out_(out), pool_(pool) {
  const auto now = o.now.value_or(std::chrono::system_clock::now());
  now_ =
      std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch())
          .count();
  news_.group = "news";
  open(main_, o.max_urls);
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
  std::string path = out_.temp_path(
      (s.group.empty() ? "part-" : s.group + "-") + std::to_string(part));
  auto file = file_sink::create(path);
  if (!file) return file.err();
  s.digests.emplace_back();
  (*file)->report_to(&s.digests.back());
  s.temp_paths.push_back(std::move(path));
  if (!o_.gzip) return std::unique_ptr<sink>(std::move(*file));
  return std::unique_ptr<sink>(
      std::make_unique<gzip_sink>(std::move(*file), o_.level, pool_));
}

add_status set_writers::add(std::string_view xml,
                            const std::optional<w3c_datetime>& lastmod,
                            extension_mask uses,
                            const std::optional<w3c_datetime>& news) {
  constexpr extension_mask news_bit = mask_of(extension_kind::news);
  if (!o_.news || (uses & news_bit) == 0 || !news)
    return main_.writer->add_serialized(xml, lastmod, uses);
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
  return main_.writer->add_serialized(scratch_, lastmod, uses & ~news_bit);
}

status set_writers::finish() {
  if (status s = main_.writer->finish(); !s) return s;
  if (news_.writer)
    if (status s = news_.writer->finish(); !s) return s;
  return {};
}

void set_writers::restart() {
  for (slot* s : {&main_, &news_}) {
    for (const std::string& path : s->temp_paths) ::unlink(path.c_str());
    s->temp_paths.clear();
    s->digests.clear();
    s->writer.reset();
  }
  open(main_, o_.max_urls);
}

std::vector<std::string> set_writers::files() const {
  std::vector<std::string> out = main_.temp_paths;
  out.insert(out.end(), news_.temp_paths.begin(), news_.temp_paths.end());
  return out;
}

std::vector<finished_sitemap> set_writers::finished() const {
  std::vector<finished_sitemap> out;
  for (const slot* s : {&main_, &news_}) {
    if (!s->writer) continue;
    const auto& parts = s->writer->parts();
    for (std::size_t i = 0; i < parts.size(); ++i)
      out.push_back({s->temp_paths[i], parts[i], s->digests[i].xxh3, s->group});
  }
  return out;
}

std::size_t set_writers::file_count() const {
  return main_.temp_paths.size() + news_.temp_paths.size();
}

const std::string& set_writers::error() const {
  if (!main_.writer->error().empty() || !news_.writer)
    return main_.writer->error();
  return news_.writer->error();
}

}  // namespace sitemill::detail
