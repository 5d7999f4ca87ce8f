#include "generate/set_writers.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "sitemill/write/stylesheet.h"

namespace sitemill::detail {
namespace {

// A failure outside the writer: its message kept (the first only).
add_status failed_with(std::string& error, const status& st) {
  if (error.empty()) error = st.message();
  return add_status::failed;
}

// One parked record (a section park's or the layout's) to the writer of its
// file. put() parked only entries that fit a file, so a refusal is a bug.
status write_parked(sitemap_writer& w, std::string_view record) {
  const parked_entry e = read_parked(record);
  switch (w.add_serialized(e.xml, e.lastmod, e.uses)) {
    case add_status::added:
      return {};
    case add_status::too_large:
      return error{"internal: a parked entry no longer fits a file"};
    case add_status::failed:
      break;
  }
  return error{w.error()};
}

}  // namespace

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
  if (!direct_) direct_ = section;
  return slots_[section];
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
  std::string path = out_.temp_path(what + std::to_string(s.temp_paths.size()));
  auto file = file_sink::create(path);
  if (!file) return file.err();
  s.digests.emplace_back();
  (*file)->report_to(&s.digests.back());
  s.temp_paths.push_back(std::move(path));
  if (!s.group.empty() || !stable()) {
    s.labels.emplace_back();
  } else if (part == 0) {
    s.labels.emplace_back(s.leaf);
  } else {
    // A leaf the writer still had to cut (see finish_section()): its
    // further files are numbered after the leaf's path.
    s.labels.emplace_back((s.leaf.empty() ? "" : s.leaf + "-") +
                          std::to_string(part + 1));
  }
  if (!o_.gzip) return std::unique_ptr<sink>(std::move(*file));
  return std::unique_ptr<sink>(
      std::make_unique<gzip_sink>(std::move(*file), o_.level, pool_));
}

std::uint64_t set_writers::overhead(extension_mask uses) {
  if (o_.type == document_type::text) uses = 0;
  std::optional<std::uint64_t>& known = overheads_[uses];
  if (!known) {
    // Measured, not computed: the writer alone knows its header's bytes.
    writer_options wo;
    wo.type = o_.type;
    wo.xsl_href = xsl_href_of(o_);
    std::string bytes;
    sitemap_writer probe(wo, [&bytes](std::size_t) {
      return result<std::unique_ptr<sink>>(
          std::make_unique<memory_sink>(&bytes));
    });
    (void)probe.add_serialized("", std::nullopt, uses);
    (void)probe.finish();
    known = bytes.size();
  }
  return *known;
}

add_status set_writers::add(std::uint32_t section, std::uint64_t fingerprint,
                            std::string_view xml,
                            const std::optional<w3c_datetime>& lastmod,
                            extension_mask uses,
                            const std::optional<w3c_datetime>& news) {
  constexpr extension_mask news_bit = mask_of(extension_kind::news);
  if (!o_.news || (uses & news_bit) == 0 || !news)
    return put(section_slot(section), fingerprint, xml, lastmod, uses);
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
  return put(section_slot(section), fingerprint, scratch_, lastmod,
             uses & ~news_bit);
}

bool set_writers::parks_deferred(std::uint32_t section, std::string_view xml,
                                 extension_mask uses) {
  if (!stable() || o_.news || !direct_ || section != *direct_) return false;
  if (overhead(uses) + xml.size() > o_.max_bytes) return false;
  slot& s = slots_[section];
  if (s.deferred == slot::deferral::undecided)
    s.deferred =
        s.spool && !s.trial ? slot::deferral::parked : slot::deferral::spooled;
  return s.deferred == slot::deferral::parked;
}

add_status set_writers::add_deferred(std::uint32_t section,
                                     std::uint64_t fingerprint,
                                     std::string_view xml,
                                     const std::optional<w3c_datetime>& lastmod,
                                     extension_mask uses,
                                     const parked_deferral& d) {
  return put(section_slot(section), fingerprint, xml, lastmod, uses, &d);
}

add_status set_writers::put(slot& s, std::uint64_t fingerprint,
                            std::string_view xml,
                            const std::optional<w3c_datetime>& lastmod,
                            extension_mask uses,
                            const parked_deferral* deferral) {
  const bool direct = &s == &slots_[*direct_];
  if (direct && !stable()) {
    if (!s.writer) open(s, o_.max_urls);
    return s.writer->add_serialized(xml, lastmod, uses);
  }
  // A parked entry must be one the writer will take: the writer's own test.
  if (overhead(uses) + xml.size() > o_.max_bytes) return add_status::too_large;
  auto failed = [&s](const status& st) { return failed_with(s.error, st); };
  if (!direct) {
    status st = park(s, fingerprint, xml, lastmod, uses);
    return st ? add_status::added : failed(st);
  }
  if (!s.spool && !s.trial) s.trial = trial_allowed_;  // the first entry
  if (s.trial) {
    s.trial_tally += prefix_tally{1, xml.size()};
    if (leaf_limits().fits(s.trial_tally))
      return write_trial(s, fingerprint, xml, lastmod, uses);
    if (status st = end_trial(s); !st) return failed(st);
  }
  // The record's xml and tail in two pieces: the spool joins them.
  record_.clear();
  append_parked_tail(record_, lastmod, uses, deferral);
  if (!s.spool) s.spool = new_spool();
  status st = s.spool->add(fingerprint, static_cast<std::uint32_t>(xml.size()),
                           xml, record_);
  return st ? add_status::added : failed(st);
}

status set_writers::park(slot& s, std::uint64_t fingerprint,
                         std::string_view xml,
                         const std::optional<w3c_datetime>& lastmod,
                         extension_mask uses) {
  record_.clear();
  append_parked(record_, {xml, lastmod, uses, std::nullopt});
  if (!s.park)
    s.park = std::make_unique<section_park>(out_.temp_path(
        "park-" + (s.section.empty() ? std::string("default") : s.section)));
  return s.park->add(fingerprint, record_);
}

void set_writers::expect_entries(std::uint64_t entries) {
  trial_allowed_ = entries <= o_.max_urls;
}

// A section that fits one file is the stable layout's root leaf: all of its
// entries in input order, which would be written only after the last one.
// So while the first section still fits one file, the same writer writes
// that file as entries come (its compression overlapping the reading, as in
// the sequential layout), and the entries wait in a section park (one file,
// not the spool's 256) in case it does not last. The file is the one the
// spool's replay would write, byte for byte: the same entries, in the same
// order, through the same writer.
add_status set_writers::write_trial(slot& s, std::uint64_t fingerprint,
                                    std::string_view xml,
                                    const std::optional<w3c_datetime>& lastmod,
                                    extension_mask uses) {
  if (status st = park(s, fingerprint, xml, lastmod, uses); !st)
    return failed_with(s.error, st);
  if (!s.writer) {
    s.leaf.clear();  // the root's path
    open(s, o_.max_urls);
  }
  switch (s.writer->add_serialized(xml, lastmod, uses)) {
    case add_status::added:
      // A namespace first met past the writer's first 4 MiB cut the file:
      // no longer the root leaf's one file, which the replay writes whole
      // (it knows every namespace before the first entry).
      if (!s.writer->parts().empty()) {
        if (status st = end_trial(s); !st) return failed_with(s.error, st);
      }
      return add_status::added;
    case add_status::too_large:  // put() asked the writer's own test first
      s.error = "internal: an entry that fits a file was refused";
      return add_status::failed;
    case add_status::failed:
      break;
  }
  return add_status::failed;
}

// The first entry that does not fit one file ends the trial: its file is
// thrown away, and the entries so far go to the spool as a parked section's
// do (write_in_order()), ahead of the ones to come.
status set_writers::end_trial(slot& s) {
  s.trial = false;
  if (s.writer) {
    // Dropped unfinished, its files' chunks are skipped by the pool; once
    // the pool is idle nothing writes to them any more, or to their digests.
    s.writer.reset();
    status waited = pool_ ? pool_->wait() : status{};
    for (const std::string& path : s.temp_paths) ::unlink(path.c_str());
    s.temp_paths.clear();
    s.digests.clear();
    s.labels.clear();
    if (!waited) return waited;
  }
  s.spool = new_spool();
  if (!s.park) return {};
  std::unique_ptr<section_park> park = std::move(s.park);
  status st = park->replay([&](std::uint64_t fp, std::string_view record) {
    return s.spool->add(fp, parked_xml_size(record), record);
  });
  parked_bytes_ += park->disk_bytes();
  return st;
}

std::unique_ptr<layout_spool> set_writers::new_spool() {
  // A leaf's mark: the extensions its entries use (the record's last byte,
  // in whichever piece ends it).
  auto uses = [](std::string_view payload, std::string_view tail) {
    return static_cast<std::uint8_t>(
        parked_uses(tail.empty() ? payload : tail));
  };
  return std::make_unique<layout_spool>(
      [this](std::string_view what) { return out_.temp_path(what); },
      layout_spool::default_buffer_bytes, uses);
}

// Parked entries are known before their file is begun: the writer is told
// what they use, and holds nothing back for their namespaces (4 MiB less
// memory, no file cut for a namespace first met late), where that does not
// change a byte: when one file holds them all, it declares exactly their
// namespaces either way; entries that use no extension declare none.
void set_writers::promise_uses(slot& s, const prefix_tally& all) {
  const auto uses = static_cast<extension_mask>(all.marks);
  if (uses == 0 || (all.urls <= o_.max_urls &&
                    overhead(uses) + all.bytes <= o_.max_bytes))
    s.writer->expect_uses(uses);
}

// Closes the writer's last file and keeps what it wrote.
status set_writers::close_writer(slot& s) {
  if (!s.writer) return {};
  status st = s.writer->finish();
  const auto& parts = s.writer->parts();
  s.parts.insert(s.parts.end(), parts.begin(), parts.end());
  if (!st && s.error.empty()) s.error = st.message();
  s.writer.reset();
  return st;
}

// Replays a layout: each leaf one writer, so one file; a leaf over the
// limits (URLs sharing all 64 fingerprint bits, or entries needing a
// namespace the file's first 4 MiB did not declare) is cut by the writer.
class set_writers::leaf_writer final : public layout_spool::reader {
 public:
  leaf_writer(set_writers& w, slot& s) : w_(w), s_(s) {}
  status begin(const layout_leaf& leaf) override {
    s_.leaf = leaf_path(leaf);
    w_.open(s_, w_.o_.max_urls);
    w_.promise_uses(s_, leaf.tally);
    return {};
  }
  status entry(std::string_view record) override {
    return write_parked(*s_.writer, record);
  }
  status end(const layout_leaf&) override { return w_.close_writer(s_); }

 private:
  set_writers& w_;
  slot& s_;
};

const layout_limits& set_writers::leaf_limits() {
  if (leaf_limits_) return *leaf_limits_;
  layout_limits& limits = leaf_limits_.emplace();
  limits.max_urls = o_.max_urls;
  // Room for every namespace, so that a leaf that fits is one file; under
  // limits too small for that (tests), the leaves are cut by the writer.
  std::uint64_t fixed = overhead(static_cast<extension_mask>(
      (1u << extension_kind_count) - 1));
  if (2 * fixed > o_.max_bytes) fixed = overhead(0);
  limits.max_bytes = o_.max_bytes > fixed ? o_.max_bytes - fixed : 0;
  return limits;
}

status set_writers::give_back(
    const std::function<status(std::string_view, std::uint32_t)>& back) {
  if (!direct_) return {};
  slot& s = slots_[*direct_];
  if (s.deferred != slot::deferral::parked) return {};
  struct handing_back final : layout_spool::reader {
    const std::function<status(std::string_view, std::uint32_t)>& back;
    std::uint32_t section;
    handing_back(
        const std::function<status(std::string_view, std::uint32_t)>& b,
        std::uint32_t sec)
        : back(b), section(sec) {}
    status begin(const layout_leaf&) override { return {}; }
    status entry(std::string_view record) override {
      return back(record, section);
    }
    status end(const layout_leaf&) override { return {}; }
  } r(back, *direct_);
  std::unique_ptr<layout_spool> spool = std::move(s.spool);
  s.deferred = slot::deferral::undecided;
  status st = spool->drain_in_order(r);
  parked_bytes_ += spool->disk_bytes();
  return st;
}

status set_writers::write_stable(slot& s, layout_spool& spool) {
  leaf_writer r(*this, s);
  // Only the first section's layout holds entries add_deferred() parked.
  layout_spool::filter* filter = nullptr;
  if (s.deferred == slot::deferral::parked) {
    if (fate_ == nullptr)
      return sitemill::error{
          "internal: entries whose duplicate check waits were "
          "parked, and nothing decides them"};
    filter = fate_;
  }
  status st = spool.replay(leaf_limits(), r, filter);
  if (s.writer) (void)close_writer(s);  // a failed replay's open leaf
  parked_bytes_ += spool.disk_bytes();  // every level
  return st;
}

status set_writers::write_in_order(slot& s, section_park& park) {
  // The park's bytes are all on disk once its replay starts.
  struct count_at_end {
    section_park& park;
    std::uint64_t& total;
    ~count_at_end() { total += park.disk_bytes(); }
  } counted{park, parked_bytes_};
  if (stable() && !leaf_limits().fits(park.tally())) {
    // Parked by fingerprint now, one section at a time, so that no more
    // than one spool's partition files are open.
    std::unique_ptr<layout_spool> spool = new_spool();
    status st = park.replay([&](std::uint64_t fp, std::string_view record) {
      return spool->add(fp, parked_xml_size(record), record);
    });
    if (!st) return st;
    return write_stable(s, *spool);
  }
  // In input order: the sequential layout, or the stable layout's root leaf
  // (a section that fits one file), which is the same file.
  s.leaf.clear();
  open(s, o_.max_urls);
  promise_uses(s, park.tally());
  status st = park.replay([&](std::uint64_t, std::string_view record) {
    return write_parked(*s.writer, record);
  });
  status closed = close_writer(s);
  return st ? closed : st;
}

status set_writers::finish_section(slot& s) {
  if (s.writer) {
    if (s.trial) {  // its file is the whole layout (write_trial())
      parked_bytes_ += s.park->disk_bytes();
      s.park.reset();
    }
    return close_writer(s);
  }
  if (s.spool) {
    std::unique_ptr<layout_spool> spool = std::move(s.spool);
    return write_stable(s, *spool);
  }
  if (s.park) {
    std::unique_ptr<section_park> park = std::move(s.park);
    return write_in_order(s, *park);
  }
  return {};
}

status set_writers::finish() {
  // The direct section first: its spool's partition files are closed as
  // they are read, before a parked section's spool opens its own.
  if (direct_)
    if (status st = finish_section(slots_[*direct_]); !st) return st;
  for (std::uint32_t i = 0; i < slots_.size(); ++i)
    if (i != direct_)
      if (status st = finish_section(slots_[i]); !st) return st;
  return close_writer(news_);
}

void set_writers::restart() {
  auto clear = [](slot& s) {
    for (const std::string& path : s.temp_paths) ::unlink(path.c_str());
    s.temp_paths.clear();
    s.digests.clear();
    s.labels.clear();
    s.parts.clear();
    s.writer.reset();
    s.spool.reset();
    s.park.reset();
    s.trial = false;
    s.trial_tally = {};
    s.deferred = slot::deferral::undecided;
    s.error.clear();
  };
  for (slot& s : slots_) clear(s);
  clear(news_);
  direct_.reset();
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
    for (std::size_t i = 0; i < s->parts.size(); ++i)
      out.push_back({s->temp_paths[i], s->parts[i], s->digests[i].xxh3,
                     s->group, s->section, s->labels[i]});
  }
  return out;
}

void set_writers::count_sections(std::vector<section_total>& totals) const {
  for (const slot& s : slots_) {
    if (s.parts.empty()) continue;
    auto at = std::find_if(
        totals.begin(), totals.end(),
        [&](const section_total& t) { return t.name == s.section; });
    if (at == totals.end()) at = totals.insert(totals.end(), {s.section});
    for (const part_info& p : s.parts) {
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
  for (const slot& s : slots_) {
    if (!s.error.empty()) return s.error;
    if (s.writer && !s.writer->error().empty()) return s.writer->error();
  }
  if (!news_.error.empty()) return news_.error;
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
