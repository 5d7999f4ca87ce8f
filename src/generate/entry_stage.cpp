#include "generate/entry_stage.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "detail/text.h"
#include "sitemill/entry/entry.h"
#include "sitemill/generate/shard.h"
#include "source/readers.h"

namespace sitemill::detail {
namespace {

// A batch is big enough that queue hand-offs cost nothing per record, and
// small enough that a few of them in flight keep memory flat (~0.5 MiB each).
constexpr std::size_t batch_records = 1'024;
constexpr std::size_t batch_raw_bytes = 256 * 1024;

enum field_index {
  loc_field,
  lastmod_field,
  changefreq_field,
  priority_field,
  problem_field,
  skipped_field,
  source_field,
  section_field,
  foreign_field
};
static_assert(source_field == record_batch::source_field);
static_assert(section_field == record_batch::section_field);
static_assert(lastmod_field == record_batch::lastmod_field);

}  // namespace

void record_batch::clear() {
  raw.clear();
  records.clear();
  extensions.clear();
  notes.clear();
  last_of_input = false;
  input_bytes = 0;
  xml.clear();
  results.clear();
  links.clear();
  text.clear();
  messages.clear();
}

struct entry_stage::impl {
  std::vector<input> inputs;
  url_normalizer normalizer;
  lastmod_reader dates;
  document_type type;
  batch_hook before_batch;

  std::mutex mu;
  std::condition_variable free_ready, work_ready, done_ready;
  std::vector<std::unique_ptr<record_batch>> storage;
  std::vector<record_batch*> free_batches;
  std::deque<record_batch*> work;
  std::map<std::uint64_t, record_batch*>
      done;                    // finished, waiting for their turn
  std::uint64_t produced = 0;  // batches handed to the workers
  std::uint64_t next_out = 0;  // the batch next() returns next
  bool reader_finished = false;
  bool stopping = false;
  std::atomic<bool> stop_flag{false};  // `stopping`, for readers to poll
  std::string error;

  std::thread reader_thread;
  std::vector<std::thread> workers;

  record_batch* take_free() {
    std::unique_lock lock(mu);
    free_ready.wait(lock, [&] { return stopping || !free_batches.empty(); });
    if (stopping) return nullptr;
    record_batch* b = free_batches.back();
    free_batches.pop_back();
    return b;
  }

  void push(record_batch* b) {
    std::lock_guard lock(mu);
    b->seq = produced++;
    work.push_back(b);
    work_ready.notify_one();
  }

  void finish_reading(std::string why) {
    std::lock_guard lock(mu);
    if (error.empty()) error = std::move(why);
    reader_finished = true;
    work_ready.notify_all();
    done_ready.notify_all();
  }

  // Where the text of a record's field goes in the batch's arena: inside
  // the row already copied there (at `row_at`) when it lies in `row`, else
  // appended. Returns its offset.
  static std::uint32_t place(record_batch& b, std::string_view row,
                             std::uint32_t row_at, std::string_view text) {
    // Most of a record's nine fields are empty: no call for those.
    if (text.empty()) return 0;
    // One unsigned compare: a view before the row wraps to a huge offset.
    const std::uintptr_t in_row =
        reinterpret_cast<std::uintptr_t>(text.data()) -
        reinterpret_cast<std::uintptr_t>(row.data());
    if (text.size() <= row.size() && in_row <= row.size() - text.size())
      return row_at + static_cast<std::uint32_t>(in_row);
    const auto at = static_cast<std::uint32_t>(b.raw.size());
    b.raw.append(text.data(), text.size());
    return at;
  }

  static void copy_field(record_batch& b, record_batch::raw_record& r, int i,
                         std::string_view row, std::uint32_t row_at,
                         std::string_view text) {
    r.offset[i] = place(b, row, row_at, text);
    r.length[i] = static_cast<std::uint32_t>(text.size());
  }

  // A record's text into the batch: a list's row in one copy (its fields
  // are views of it), anything else field by field.
  static void copy_record(record_batch& b, const input_record& rec,
                          std::string_view row) {
    auto& r = b.records.emplace_back();
    r.line = rec.line;
    const auto row_at = static_cast<std::uint32_t>(b.raw.size());
    b.raw.append(row.data(), row.size());
    copy_field(b, r, loc_field, row, row_at, rec.loc);
    copy_field(b, r, lastmod_field, row, row_at, rec.lastmod);
    copy_field(b, r, changefreq_field, row, row_at, rec.changefreq);
    copy_field(b, r, priority_field, row, row_at, rec.priority);
    copy_field(b, r, problem_field, row, row_at, rec.problem);
    copy_field(b, r, skipped_field, row, row_at, rec.skipped);
    copy_field(b, r, source_field, row, row_at, rec.source);
    copy_field(b, r, section_field, row, row_at, rec.section);
    copy_field(b, r, foreign_field, row, row_at, rec.foreign_xml);
    if (!rec.extensions.empty()) {  // most records carry none
      r.ext_begin = static_cast<std::uint32_t>(b.extensions.size());
      for (const extension_value& v : rec.extensions)
        b.extensions.push_back({v.field, v.item, place(b, row, row_at, v.text),
                                static_cast<std::uint32_t>(v.text.size())});
      r.ext_end = static_cast<std::uint32_t>(b.extensions.size());
    }
  }

  void read_all() {
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      auto opened = inputs[i].open(&stop_flag);
      if (!opened) return finish_reading(opened.err().message);
      record_reader& reader = **opened;
      record_batch* b = take_free();
      if (b == nullptr) return finish_reading({});
      b->input = i;
      // The list readers say which line a record's fields are views of.
      const auto* lines = dynamic_cast<const line_record_reader*>(&reader);
      input_record rec;
      while (reader.next(rec)) {
        copy_record(*b, rec,
                    lines != nullptr ? lines->row() : std::string_view());
        if (b->records.size() >= batch_records ||
            b->raw.size() >= batch_raw_bytes) {
          b->input_bytes = reader.bytes_read();
          push(b);
          b = take_free();
          if (b == nullptr) return finish_reading({});
          b->input = i;
        }
      }
      b->notes = reader.notes();
      b->last_of_input = true;
      b->input_bytes = reader.bytes_read();
      push(b);
      if (!reader.error().empty()) return finish_reading(reader.error());
    }
    finish_reading({});
  }

  // Moves the entry's hreflang alternates (rel="alternate" links with an
  // hreflang) out of its extensions into the batch's links, so generate can
  // write each page's complete cluster in their place.
  static void take_hreflang_links(record_batch& b, record_batch::result& res,
                                  url_entry& entry,
                                  std::vector<extension_value>& rest) {
    const auto fields = extension_fields();
    // The alternate's attributes by id: compared for every value of every
    // record, where comparing keys as text showed in profiles.
    static const extension_field_id hreflang_id =
        *find_extension_field(extension_kind::alternate, "@hreflang");
    static const extension_field_id href_id =
        *find_extension_field(extension_kind::alternate, "@href");
    static const extension_field_id rel_id =
        *find_extension_field(extension_kind::alternate, "@rel");
    static const extension_field_id media_id =
        *find_extension_field(extension_kind::alternate, "@media");
    res.links_begin = res.links_end =
        static_cast<std::uint32_t>(b.links.size());
    rest.clear();
    const auto& values = entry.extensions;
    for (std::size_t i = 0; i < values.size();) {
      std::size_t end = i;
      while (end < values.size() && values[end].item == values[i].item) ++end;
      std::string_view hreflang, href;
      bool alternate =
          fields[values[i].field].kind == extension_kind::alternate;
      for (std::size_t k = i; alternate && k < end; ++k) {
        const extension_field_id id = values[k].field;
        if (id == hreflang_id) hreflang = values[k].text;
        if (id == href_id) href = values[k].text;
        if (id == rel_id && values[k].text != "alternate") alternate = false;
        if (id == media_id) alternate = false;  // a media alternate stays
      }
      if (alternate && !hreflang.empty() && !href.empty()) {
        auto put = [&](std::string_view s) {
          b.text += s;
          return static_cast<std::uint32_t>(b.text.size() - s.size());
        };
        const std::uint32_t h = put(hreflang);
        const std::uint32_t u = put(href);
        b.links.push_back({h, static_cast<std::uint32_t>(hreflang.size()), u,
                           static_cast<std::uint32_t>(href.size())});
      } else {
        rest.insert(rest.end(), values.begin() + static_cast<std::ptrdiff_t>(i),
                    values.begin() + static_cast<std::ptrdiff_t>(end));
      }
      i = end;
    }
    res.links_end = static_cast<std::uint32_t>(b.links.size());
    if (res.links_end != res.links_begin) entry.extensions = rest;
  }

  // A record's extension values, viewing the batch's arena.
  static void raw_extensions(const record_batch& b,
                             const record_batch::raw_record& r,
                             std::vector<extension_value>& out) {
    out.clear();
    for (std::uint32_t k = r.ext_begin; k < r.ext_end; ++k) {
      const auto& e = b.extensions[k];
      out.push_back({e.field, e.item,
                     std::string_view(b.raw).substr(e.offset, e.length)});
    }
  }

  // The URL's path below the base, as include/exclude patterns see it:
  // "blog/a.html", without query. The location rule has put every written
  // URL at or below the base.
  static std::string_view path_below_base(std::string_view loc,
                                          std::string_view base) {
    std::string_view path = loc.substr(std::min(base.size(), loc.size()));
    return path.substr(0, path.find('?'));
  }

  // Appends which part of `loc` differs from the base it was meant for: the
  // base on its host when there are several, else the first.
  static void explain_outside(std::string_view loc, const url_normalizer& bases,
                              std::string& reason) {
    std::string_view base = bases.base();
    bool foreign = false;  // an absolute URL on none of the bases' origins
    normalized_url u;
    if (bases.base_count() > 1 && normalize_url(loc, u) == url_problem::ok) {
      foreign = true;
      for (std::size_t i = 0; i < bases.base_count() && foreign; ++i)
        if (bases.base_url(i).origin() == u.origin()) {
          base = bases.base_url(i).href();
          foreign = false;
        }
    }
    std::string why = explain_outside_base(loc, base);
    if (why.empty()) return;
    (reason += ": ") += why;
    if (foreign) reason += "; no base URL has its scheme, host and port";
  }

  void process(record_batch& b, entry_builder& builder, url_entry& entry,
               std::vector<field_warning>& warnings,
               std::vector<extension_value>& raw,
               std::vector<extension_value>& rest) {
    b.results.resize(b.records.size());
    const site_patterns* patterns = inputs[b.input].patterns.get();
    const section_rules* sections = inputs[b.input].sections.get();
    const std::uint32_t shards = inputs[b.input].shard_count;
    const std::uint32_t shard = inputs[b.input].shard_index;
    // A record without a URL to hash (skipped, unreadable, not a URL) is
    // told by its raw text, so that exactly one shard reports it.
    auto elsewhere = [&](std::string_view text) {
      return shards > 1 && shard_of(trim(text), shards) != shard;
    };
    for (std::size_t i = 0; i < b.records.size(); ++i) {
      const auto& r = b.records[i];
      auto& res = b.results[i];
      const bool unreadable = !b.field(r, skipped_field).empty() ||
                              !b.field(r, problem_field).empty();
      if (unreadable && elsewhere(b.field(r, loc_field))) {
        res.other_shard = true;
        continue;
      }
      if (std::string_view why = b.field(r, skipped_field); !why.empty()) {
        res.skipped = true;
        res.reject_message = static_cast<std::uint32_t>(b.messages.size());
        std::string what(b.field(r, loc_field));
        what += ": ";
        what += why;
        b.messages.push_back(std::move(what));
        continue;
      }
      if (std::string_view problem = b.field(r, problem_field);
          !problem.empty()) {
        res.reject_message = static_cast<std::uint32_t>(b.messages.size());
        b.messages.emplace_back(problem);
        continue;
      }
      const std::string_view loc = b.field(r, loc_field);
      auto built = builder.build_loc(loc, entry);
      if (built.problem != url_problem::ok && elsewhere(loc)) {
        res.other_shard = true;
        continue;
      }
      if (built.problem != url_problem::ok) {
        std::string reason(describe(built.problem));
        // Which part differs: a rejection that names it is fixed at once.
        if (built.problem == url_problem::outside_base)
          explain_outside(loc, builder.normalizer(), reason);
        reason += ": ";
        append_printable(reason, trim(loc));
        res.reject_message = static_cast<std::uint32_t>(b.messages.size());
        b.messages.push_back(std::move(reason));
        continue;
      }
      if (shards > 1 && shard_of(entry.loc, shards) != shard) {
        res.other_shard = true;
        continue;
      }
      const url_normalizer& bases = builder.normalizer();
      if (bases.base_count() > 1)
        res.set = static_cast<std::uint32_t>(bases.scope_of(entry.loc));
      const std::string_view path =
          path_below_base(entry.loc, bases.base_url(res.set).href());
      if (patterns != nullptr && !patterns->keeps_url_path(path)) {
        res.filtered = true;
        continue;
      }
      const section_rules::choice section =
          sections != nullptr ? sections->pick(b.field(r, section_field), path)
                              : section_rules::choice{};
      res.written = true;
      res.key = url_set::hash(entry.loc);
      const lastmod_outcome lastmod = builder.build_fields(
          b.field(r, lastmod_field), b.field(r, changefreq_field),
          b.field(r, priority_field), entry, warnings);
      res.lastmod_dropped = lastmod.dropped;
      res.lastmod_read = lastmod.note;
      if (r.ext_end != r.ext_begin) {
        if (type == document_type::text) {
          warnings.push_back(
              {"extension data (hreflang, images, video, news) dropped: a "
               "text sitemap carries URLs only"});
        } else {
          raw_extensions(b, r, raw);
          builder.build_extensions(raw, entry, warnings);
          take_hreflang_links(b, res, entry, rest);
          res.uses = extensions_used(entry.extensions);
          if (res.uses & mask_of(extension_kind::news))
            res.news_published = news_publication_date(entry.extensions);
        }
      }
      if (!section.bad_field.empty())
        warnings.push_back(
            {"section " + quoted_printable(section.bad_field) +
             " ignored: " + sections->problem(section.bad_field)});
      if (const std::string_view foreign = b.field(r, foreign_field);
          !foreign.empty()) {
        if (type == document_type::text)
          warnings.push_back(
              {"elements of namespaces without a schema dropped: a text "
               "sitemap carries URLs only"});
        else
          entry.foreign_xml = foreign;
      }
      res.warnings_begin = static_cast<std::uint32_t>(b.messages.size());
      res.field_warnings = static_cast<std::uint32_t>(warnings.size());
      for (auto& w : warnings) b.messages.push_back(std::move(w.message));
      if (!section.bad_segment.empty())
        b.messages.push_back(
            "first path segment " + quoted_printable(section.bad_segment) +
            " is no section name (" + sections->problem(section.bad_segment) +
            "): written to the default section; a `sections` glob can name "
            "its section");
      if (!section.name.empty()) {
        res.section_offset = static_cast<std::uint32_t>(b.text.size());
        res.section_length = static_cast<std::uint32_t>(section.name.size());
        b.text += section.name;
      }
      if (built.notes.fragment_removed)
        b.messages.push_back("fragment removed from " + std::string(entry.loc));
      if (lastmod.note == lastmod_note::dst_gap ||
          lastmod.note == lastmod_note::dst_overlap) {
        std::string note = "lastmod \"";
        append_printable(note, trim(b.field(r, lastmod_field)));
        note += "\": ";
        note += describe(lastmod.note);
        b.messages.push_back(std::move(note));
      }
      res.warnings_end = static_cast<std::uint32_t>(b.messages.size());
      res.lastmod = entry.lastmod;
      res.xml_offset = static_cast<std::uint32_t>(b.xml.size());
      std::size_t links_at = 0;
      append_entry(b.xml, entry, type, &links_at);
      res.links_at = static_cast<std::uint32_t>(links_at - res.xml_offset);
      res.xml_length =
          static_cast<std::uint32_t>(b.xml.size() - res.xml_offset);
    }
  }

  void work_loop() {
    entry_builder builder(normalizer, dates);
    url_entry entry;
    std::vector<field_warning> warnings;
    std::vector<extension_value> raw, rest;
    for (;;) {
      record_batch* b = nullptr;
      {
        std::unique_lock lock(mu);
        work_ready.wait(
            lock, [&] { return stopping || !work.empty() || reader_finished; });
        if (stopping || work.empty()) return;
        b = work.front();
        work.pop_front();
      }
      if (before_batch) before_batch(b->seq);
      process(*b, builder, entry, warnings, raw, rest);
      std::lock_guard lock(mu);
      done.emplace(b->seq, b);
      done_ready.notify_all();
    }
  }
};

entry_stage::entry_stage(std::vector<input> inputs, url_normalizer normalizer,
                         document_type type, unsigned workers,
                         batch_hook before_batch, lastmod_reader dates)
    : impl_(std::make_unique<impl>()) {
  impl_->inputs = std::move(inputs);
  impl_->normalizer = std::move(normalizer);
  impl_->dates = dates;
  impl_->type = type;
  impl_->before_batch = std::move(before_batch);
  if (workers == 0) workers = 1;
  // Four batches per worker (each at most ~0.5 MiB) absorb the stalls of
  // a 2-core machine running six threads: with two per worker, the bench
  // run (benchmarks/compare_peer.sh, --fast) idled a core ~20% of the time
  // and was ~4% slower.
  for (unsigned i = 0; i < 4 * workers + 4; ++i) {
    impl_->storage.push_back(std::make_unique<record_batch>());
    impl_->free_batches.push_back(impl_->storage.back().get());
  }
  for (unsigned i = 0; i < workers; ++i)
    impl_->workers.emplace_back([this] { impl_->work_loop(); });
  impl_->reader_thread = std::thread([this] { impl_->read_all(); });
}

entry_stage::~entry_stage() {
  cancel();
  impl_->reader_thread.join();
  for (auto& t : impl_->workers) t.join();
}

record_batch* entry_stage::next(const std::function<bool()>& cancelled) {
  std::unique_lock lock(impl_->mu);
  auto ready = [&] {
    return impl_->stopping || impl_->done.count(impl_->next_out) ||
           (impl_->reader_finished && impl_->next_out == impl_->produced);
  };
  if (!cancelled) {
    impl_->done_ready.wait(lock, ready);
  } else {
    while (!impl_->done_ready.wait_for(lock, std::chrono::milliseconds(100),
                                       ready)) {
      lock.unlock();
      const bool stop = cancelled();
      if (stop) cancel();
      lock.lock();
    }
  }
  auto it = impl_->done.find(impl_->next_out);
  if (impl_->stopping || it == impl_->done.end()) return nullptr;
  record_batch* b = it->second;
  impl_->done.erase(it);
  ++impl_->next_out;
  return b;
}

void entry_stage::release(record_batch* batch) {
  batch->clear();
  std::lock_guard lock(impl_->mu);
  impl_->free_batches.push_back(batch);
  impl_->free_ready.notify_one();
}

void entry_stage::cancel() {
  impl_->stop_flag = true;
  std::lock_guard lock(impl_->mu);
  impl_->stopping = true;
  impl_->free_ready.notify_all();
  impl_->work_ready.notify_all();
  impl_->done_ready.notify_all();
}

std::string entry_stage::error() const {
  std::lock_guard lock(impl_->mu);
  return impl_->error;
}

}  // namespace sitemill::detail
