#include "sitemill/inspect/stats.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <unordered_map>

#include "detail/text.h"
#include "detail/url_set.h"
#include "inspect/set_walk.h"
#include "inspect/url_fields.h"
#include "sitemill/date/dates.h"
#include "sitemill/date/w3c_datetime.h"
#include "sitemill/entry/fields.h"
#include "sitemill/url/url.h"

namespace sitemill {
namespace {

constexpr std::array<std::string_view, priority_slots> priority_names = {
    "0.0", "0.1", "0.2", "0.3", "0.4",  "0.5",    "0.6",
    "0.7", "0.8", "0.9", "1.0", "none", "invalid"};

std::vector<key_count> sorted_by_count(
    const std::unordered_map<std::string, std::uint64_t>& m) {
  std::vector<key_count> v;
  v.reserve(m.size());
  for (const auto& [k, n] : m) v.push_back({k, n});
  std::sort(v.begin(), v.end(), [](const key_count& a, const key_count& b) {
    return a.count != b.count ? a.count > b.count : a.key < b.key;
  });
  return v;
}

class stats_visitor final : public detail::set_visitor {
 public:
  explicit stats_visitor(set_stats& s) : s_(s) {}

  void on_document(const walk_document& doc, const walk_read& r) override {
    document_stats d;
    d.source = doc.source;
    d.kind = r.summary.kind;
    d.entries = r.summary.entries;
    d.bytes = r.summary.bytes;
    d.gzipped = r.summary.gzipped;
    d.complete = r.summary.complete;
    struct stat st {};
    // An object of a bucket: its size as stored, as a file's on disk.
    if (r.stored_bytes) {
      d.bytes_on_disk = *r.stored_bytes;
    } else if (!doc.fetched && !doc.path.empty() && doc.path != "-" &&
               ::stat(doc.path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
      d.bytes_on_disk = static_cast<std::uint64_t>(st.st_size);
    }
    if (d.bytes_on_disk) {
      s_.bytes_on_disk += *d.bytes_on_disk;
      s_.bytes_measured += d.bytes;
    }
    s_.bytes += d.bytes;
    s_.gzipped_documents += d.gzipped;
    if (d.kind == document_kind::sitemapindex)
      ++s_.indexes;
    else if (d.kind != document_kind::unknown)
      ++s_.files;
    s_.documents.push_back(std::move(d));
  }

  void on_url(const parsed_entry& e, document_kind kind) override {
    ++s_.urls;
    detail::url_fields& f = fields_;
    detail::read_url_fields(e, kind, f);
    count_segment(f);
    count_lastmod(f);
    ++s_.changefreq[f.changefreq];
    ++s_.priority[f.priority];
    count_extensions(e.extensions);
    if (!seen_.insert(detail::key_of(f, e))) ++s_.duplicate_entries;
  }

  void on_diagnostic(const diagnostic& d) override {
    ++findings_[d.code];
    switch (d.level) {
      case severity::error:
        ++s_.errors;
        break;
      case severity::warning:
        ++s_.warnings;
        break;
      default:
        ++s_.infos;
        break;
    }
  }

  void on_not_read(const walk_document& doc, const std::string& why) override {
    if (s_.not_read_examples.size() < listed_not_read)
      s_.not_read_examples.push_back(doc.source + ": " + why);
    ++s_.not_read;
  }

  void finish() {
    s_.distinct_urls = seen_.size();
    std::vector<key_count> segs = sorted_by_count(segments_);
    s_.segments_other = segments_other_;
    for (std::size_t i = listed_segments; i < segs.size(); ++i)
      s_.segments_other += segs[i].count;
    if (segs.size() > listed_segments) segs.resize(listed_segments);
    s_.segments = std::move(segs);
    for (const auto& [month, n] : months_) {
      char buf[16];
      std::snprintf(buf, sizeof buf, "%04d-%02d", month / 100, month % 100);
      s_.lastmod_months.push_back({buf, n});
    }
    s_.findings = sorted_by_count(findings_);
  }

 private:
  void count_segment(const detail::url_fields& f) {
    if (f.url.empty()) {
      ++s_.urls_not_parsed;
      return;
    }
    // "/blog/a" -> "blog"; a URL at the root ("/", "/a.html") -> "/".
    std::string_view path = f.url.path().substr(1);
    const std::size_t slash = path.find('/');
    const std::string_view seg =
        slash == std::string_view::npos ? "/" : path.substr(0, slash);
    segment_key_.assign(seg);
    auto it = segments_.find(segment_key_);
    if (it != segments_.end())
      ++it->second;
    else if (segments_.size() < tracked_segments)
      segments_.emplace(segment_key_, 1);
    else
      ++segments_other_;
  }

  void count_lastmod(const detail::url_fields& f) {
    if (!f.lastmod_present)
      ++s_.lastmod_none;
    else if (!f.lastmod)
      ++s_.lastmod_invalid;
    else
      ++months_[f.lastmod->year * 100 + f.lastmod->month];
  }

  void count_extensions(std::span<const extension_value> values) {
    if (values.empty()) return;
    const auto fields = extension_fields();
    extension_mask used = 0;
    std::uint32_t item = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const auto kind = static_cast<std::size_t>(fields[values[i].field].kind);
      if (i == 0 || values[i].item != item) ++s_.extensions[kind].items;
      item = values[i].item;
      used |= static_cast<extension_mask>(1u << kind);
    }
    for (std::size_t k = 0; k < extension_kind_count; ++k)
      if (used & (1u << k)) ++s_.extensions[k].urls;
  }

  set_stats& s_;
  detail::url_fields fields_;
  std::string segment_key_;
  std::unordered_map<std::string, std::uint64_t> segments_;
  std::uint64_t segments_other_ = 0;
  std::map<int, std::uint64_t> months_;  // year * 100 + month
  std::unordered_map<std::string, std::uint64_t> findings_;
  detail::url_set seen_;
};

// The stem of a set whose entry is `entry` (a path or URL):
// "sitemap" for out/sitemap.xml and sitemap-index-2.xml.
std::string_view stem_of(std::string_view entry) {
  entry = entry.substr(entry.find_last_of('/') + 1);
  if (entry.ends_with(".xml")) entry.remove_suffix(4);
  if (const std::size_t at = entry.rfind("-index-");
      at != std::string_view::npos &&
      entry.find_first_not_of("0123456789", at + 7) == std::string_view::npos)
    entry = entry.substr(0, at);
  return entry;
}

// The section of each sitemap the manifest records, by file name; empty
// when it records none (a set without sections, or a manifest written
// before sections were recorded).
std::map<std::string_view, std::string_view> recorded_sections(
    const std::optional<published_manifest>& manifest) {
  std::map<std::string_view, std::string_view> out;
  if (!manifest) return out;
  bool named = false;
  for (const published_file& f : manifest->files)
    if (f.section) {
      out.emplace(f.path, *f.section);
      named = named || !f.section->empty();
    }
  if (!named) out.clear();
  return out;
}

// Each sitemap's section as the manifest records it, else as its name
// says (section_of_file()).
void count_sections(set_stats& s,
                    const std::optional<published_manifest>& manifest) {
  const std::string_view stem = stem_of(s.entry);
  const auto recorded = recorded_sections(manifest);
  s.sections_recorded = !recorded.empty();
  std::map<std::string, section_stats> by_name;
  bool named = false;
  for (const document_stats& d : s.documents) {
    if (d.kind == document_kind::sitemapindex ||
        d.kind == document_kind::unknown)
      continue;
    // A file the manifest gives no section (a news sitemap) is read by
    // its name, as without a manifest.
    const std::string_view name =
        std::string_view(d.source).substr(d.source.find_last_of('/') + 1);
    const auto it = recorded.find(name);
    const std::optional<std::string> section =
        it != recorded.end() ? std::string(it->second)
                             : section_of_file(d.source, stem);
    if (!section) continue;
    named = named || !section->empty();
    section_stats& t = by_name[*section];
    t.name = *section;
    ++t.files;
    t.urls += d.entries;
    t.bytes += d.bytes;
  }
  if (!named) return;
  for (auto& [name, t] : by_name) s.sections.push_back(std::move(t));
}

}  // namespace

std::optional<std::string> section_of_file(std::string_view name,
                                           std::string_view stem) {
  name = name.substr(name.find_last_of('/') + 1);
  if (!name.starts_with(stem) || name.size() <= stem.size() ||
      name[stem.size()] != '-')
    return std::nullopt;
  name.remove_prefix(stem.size() + 1);
  name = name.substr(0, name.find('.'));  // section names hold no '.'
  // SECTION-K-HASH, or K-HASH; under the stable layout K is the leaf's
  // path ("0110"), and a section's root leaf is SECTION-HASH
  // (docs/scaling.md).
  constexpr std::size_t hash_digits = 12;
  if (name.size() == hash_digits &&
      name.find_first_not_of("0123456789abcdef") == std::string_view::npos)
    return std::string();  // the default section's root leaf: HASH
  const std::size_t dash = name.rfind('-');
  if (dash == std::string_view::npos || name.size() - dash - 1 != hash_digits ||
      name.find_first_not_of("0123456789abcdef", dash + 1) !=
          std::string_view::npos)
    return std::nullopt;
  name = name.substr(0, dash);
  // K: digits, and a merged shard's number before a leaf's path ("1_0110").
  constexpr std::string_view number_chars = "0123456789_";
  if (name.find('-') == std::string_view::npos &&
      name.find_first_not_of(number_chars) != std::string_view::npos)
    return std::string(name);
  const std::size_t number = name.rfind('-') + 1;  // 0 when there is none
  if (number == name.size() ||
      name.find_first_not_of(number_chars, number) != std::string_view::npos)
    return std::nullopt;
  return std::string(number == 0 ? std::string_view()
                                 : name.substr(0, number - 1));
}

double set_stats::compression_ratio() const noexcept {
  return bytes_measured == 0 ? 0.0
                             : static_cast<double>(bytes_on_disk) /
                                   static_cast<double>(bytes_measured);
}

std::string_view changefreq_label(std::size_t slot) noexcept {
  if (slot < 7) return to_string(static_cast<changefreq>(slot + 1));
  return slot == 7 ? "none" : "invalid";
}

std::string_view priority_label(std::size_t slot) noexcept {
  return slot < priority_slots ? priority_names[slot] : "invalid";
}

result<set_stats> compute_stats(const set_input& in,
                                const inspect_options& options,
                                bool (*cancelled)()) {
  set_stats s;
  s.input = in.given;
  s.entry = in.target;
  stats_visitor v(s);
  const detail::set_walk_outcome out = detail::walk_set(
      in, options, v,
      cancelled ? std::function<bool()>(cancelled) : std::function<bool()>());
  if (!out.unreadable.empty()) return error{out.unreadable};
  v.finish();
  count_sections(s, in.manifest);
  return s;
}

}  // namespace sitemill
