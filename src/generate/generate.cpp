#include "sitemill/generate/generate.h"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <optional>
#include <thread>
#include <unordered_map>

#include "detail/scratch_directory.h"
#include "detail/text.h"
#include "generate/cluster_stage.h"
#include "generate/entry_stage.h"
#include "generate/options_check.h"
#include "generate/set_staging.h"
#include "generate/set_writers.h"
#include "generate/shard_manifest.h"
#include "generate/testing.h"
#include "generate/url_dedup.h"
#include "publish/set_outputs.h"
#include "sitemill/date/w3c_datetime.h"
#include "sitemill/entry/entry.h"

namespace sitemill {
namespace {

constexpr std::uint64_t progress_every = 65'536;

// The state of one run: the pipeline's order. Where the sets go is
// detail::set_outputs (publish/), entries that must wait go through
// detail::cluster_stage, a shard's output is publish_shard()
// (shard_manifest.h).
class run final : public detail::cluster_stage::host {
 public:
  run(const generate_options& o, const detail::generate_testing& t,
      generate_observer& obs, detail::prepared_options p)
      : o_(o),
        t_(t),
        obs_(obs),
        builder_(std::move(p.normalizer), p.dates),
        patterns_(std::move(p.patterns)),
        section_rules_(std::move(p.sections)),
        dates_(p.dates),
        sitemaps_url_(std::move(p.sitemaps_url)) {}

  ~run() override {
    if (pool_) (void)pool_->wait();  // its tasks write into the outputs
  }

  generate_report execute() {
    report_.dry_run = o_.dry_run;
    if (status s = open_outputs(); !s) return fail(s.err());
    // A dry run reads the state it finds and never writes it: a missing
    // database is made (empty, as a first run sees it) in the scratch
    // directory, and the run is abandoned at the end.
    std::string state_path = o_.state_path;
    if (o_.dry_run && !state_path.empty() &&
        !std::filesystem::exists(state_path))
      state_path = scratch_.path() + "/state.db";
    if (!state_path.empty()) {
      auto db = state_db::open(state_path);
      if (!db) return fail(db.err());
      state_ = std::move(*db);
      if (status s = state_->begin_run(); !s) return fail(s.err());
    }
    if (o_.gzip) pool_.emplace(o_.threads);
    dedup_.emplace(
        o_.memory_budget,
        [this](std::string_view what) { return outs_.temp_path(what); },
        o_.report_duplicates);
    clusters_.emplace(*this, builder_, *dedup_, o_.type, o_.shard.count > 1);
    for (detail::set_output& out : outs_)
      writers_.emplace_back(o_, out, pool_ ? &*pool_ : nullptr, sections_);
    // A cancel is honoured in every phase before the commit: while reading,
    // writing parked entries, compressing and before publishing. The
    // longest wait is the compressions already running (one file per
    // thread), which finish_early() lets end before it removes their files.
    if (status s = read_inputs(); !s) return fail(s.err());
    if (stop_) return cancel_run();
    if (clusters_->has_parked())
      if (status s = write_parked(); !s) return fail(s.err());
    if (stop_) return cancel_run();
    if (status s = finish_writers(); !s) return fail(s.err());
    report_.sections = detail::section_totals(writers_, sections_);
    if (t_.hook) t_.hook(publish_step::sitemaps_finished);
    if (cancelled()) return cancel_run();

    // A shard that holds no URL still says so, or the merge would miss it.
    if (report_.written == 0 && o_.shard.count == 0) {
      report_.outcome = generate_outcome::no_valid_urls;
      report_.message = "no valid URL in the input; nothing was published";
      return finish_early();
    }
    if (o_.strict && (report_.rejected > 0 || field_warnings_ > 0)) {
      report_.outcome = generate_outcome::strict_failed;
      report_.message = "`strict`: " + detail::with_commas(report_.rejected) +
                        " rejected records and " +
                        detail::with_commas(field_warnings_) +
                        " invalid fields; nothing was published";
      return finish_early();
    }
    std::uint64_t stale_news = 0;
    for (const detail::set_writers& w : writers_) stale_news += w.stale_news();
    if (stale_news > 0)
      issue(false, "", 0,
            detail::with_commas(stale_news) +
                " articles are older than two days: written without their "
                "news:news block, as Google asks");
    if (outs_.streaming()) return write_stream();
    if (status s = o_.shard.count > 0 ? publish_shard() : stage_and_publish();
        !s)
      return fail(s.err());
    if (stop_) return cancel_run();  // before the commit: nothing published
    report_.outcome = generate_outcome::published;
    if (state_ && o_.dry_run) {
      if (auto changes = state_->changes())
        report_.changes = std::move(*changes);
      state_->abandon_run();
    } else if (state_) {
      commit_state();
    }
    return std::move(report_);
  }

 private:
  // --- what the cluster stage asks of the run -------------------------------
  std::string temp_path(std::string_view what) override {
    return outs_.temp_path(what);
  }
  std::uint32_t sets() const override {
    return static_cast<std::uint32_t>(writers_.size());
  }
  detail::set_writers& writers(std::uint32_t set) override {
    return writers_[set];
  }

  // Closes every set's last files and waits for their compression.
  status finish_writers() override {
    status finished;
    for (std::uint32_t i = 0; i < writers_.size(); ++i) {
      detail::set_writers& w = writers_[i];
      w.decide_deferred(&clusters_->fate_of(i));
      if (status s = w.finish(); !s && finished) finished = s;
    }
    status compressed = pool_ ? pool_->wait() : status{};
    if (!finished) return finished;
    return compressed;
  }

  void issue(bool reject, const std::string& input, std::uint64_t line,
             std::string reason) override {
    record_issue r{input, line, std::move(reason)};
    if (reject) {
      ++report_.rejected;
      obs_.rejected(r);
    } else {
      ++report_.warnings;
      obs_.warning(r);
    }
  }

  void not_written(std::uint32_t set, bool duplicate) override {
    --report_.written;
    --outs_[set].written;
    if (duplicate) ++report_.duplicates;
  }

  void duplicate(std::uint32_t input, std::uint64_t line, std::string_view url,
                 std::uint64_t first) override {
    if (!o_.report_duplicates) return;
    const std::string unknown;
    report_duplicate(input < names_.size() ? names_[input] : unknown, line,
                     url, first);
  }

  // --- duplicates (report_duplicates) ---------------------------------------
  // Where a record was read, as url_dedup keeps it: the document's number
  // in places_ (the inputs, then the documents of sources that read
  // several) above line_bits, the line below.
  static constexpr int line_bits = 40;
  static constexpr std::uint64_t line_mask = (std::uint64_t{1} << line_bits) - 1;

  std::uint64_t position_of(std::size_t input, std::string_view from,
                            std::uint64_t line) {
    std::uint64_t place = input;
    if (!from.empty() && from != names_[input]) {
      if (from != last_place_name_) {
        auto [at, added] =
            place_index_.try_emplace(std::string(from), places_.size());
        if (added) places_.emplace_back(from);
        last_place_name_ = at->first;
        last_place_ = at->second;
      }
      place = last_place_;
    }
    return place << line_bits | std::min(line, line_mask);
  }

  void report_duplicate(const std::string& where, std::uint64_t line,
                        std::string_view url, std::uint64_t first) {
    duplicate_record d;
    d.input = where;
    d.line = line;
    d.url = url;
    if (first != 0 && (first >> line_bits) < places_.size()) {
      d.first_input = places_[first >> line_bits];
      d.first_line = first & line_mask;
    }
    obs_.duplicate(d);
  }

  // Asked between records, entries and steps. Once yes, always yes: an
  // observer need not say it twice.
  bool cancelled() override { return stop_ = stop_ || obs_.cancelled(); }

  // --- the ends of a run ----------------------------------------------------
  generate_report cancel_run() {
    report_.outcome = generate_outcome::cancelled;
    report_.message = "interrupted; nothing was published";
    return finish_early();
  }

  generate_report fail(error e) {
    report_.outcome = generate_outcome::failed;
    report_.message = std::move(e.message);
    report_.field = std::move(e.field);
    return finish_early();
  }

  generate_report finish_early() {
    if (state_) state_->abandon_run();
    if (pool_) (void)pool_->wait();  // workers may still hold temporary files
    outs_.discard_temporaries();
    report_.files.clear();
    report_.entry.clear();
    report_.entry_url.clear();
    report_.sets.clear();
    report_.sections.clear();
    return std::move(report_);
  }

  // The state advances only with a published set, so its lastmods always
  // describe what the world can fetch. Failing here after the publish
  // leaves the old state: the next run sees those pages as changed again.
  void commit_state() {
    if (auto changes = state_->changes()) report_.changes = std::move(*changes);
    if (status s = state_->commit_run(); !s)
      issue(false, o_.state_path, 0,
            "the sitemaps were published but the state was not saved: " +
                s.message());
  }

  // --- reading --------------------------------------------------------------
  status open_outputs() {
    detail::output_plan plan;
    plan.out_dir = o_.out_dir;
    plan.manifest_dir = o_.manifest_dir;
    plan.name = o_.name;
    plan.stream = o_.output;
    plan.after_step = t_.hook;
    plan.bucket = o_.bucket;
    if (o_.dry_run) {
      if (status s = scratch_.make("sitemill-dry-run-"); !s)
        return error{"`dry_run`: " + s.err().message, "dry_run"};
      plan.scratch_dir = scratch_.path();
    }
    if (o_.shard.count > 0) {
      // A shard writes beside out_dir, in a directory of its own with its
      // own lock, so shards running at once never meet; merge_shards()
      // publishes into out_dir.
      auto dir = detail::shard_output_dir(o_);
      if (!dir) return dir.err();
      plan.shard_dir = std::move(*dir);
    }
    return outs_.open(plan, builder_.normalizer());
  }

  // Each source becomes an input of the entry stage, opened on its reader
  // thread when its turn comes.
  std::vector<detail::entry_stage::input> resolve_inputs() {
    std::vector<detail::entry_stage::input> inputs;
    input_sizes_known_ = true;
    for (const auto& source : o_.sources) {
      names_.push_back(source->name());
      const std::optional<std::uint64_t> size = source->size();
      input_sizes_known_ = input_sizes_known_ && size.has_value();
      // Bytes of the inputs before this one, when every one is done.
      inputs_before_.push_back(input_bytes_total_);
      input_bytes_total_ += size.value_or(0);
      inputs.push_back({[this, source](const std::atomic<bool>* stop) {
                          source_context context;
                          const url_normalizer& bases = builder_.normalizer();
                          context.base_url = bases.base();
                          for (std::size_t i = 1; i < bases.base_count(); ++i)
                            context.more_base_urls.push_back(
                                bases.base_url(i).href());
                          context.has_state = state_ != nullptr;
                          context.state = state_.get();
                          context.stop = stop;
                          return source->open(context);
                        },
                        source->applies_patterns() ? nullptr : patterns_,
                        section_rules_});
      if (o_.shard.count > 1 && !o_.shard.presplit) {
        inputs.back().shard_index = o_.shard.index;
        inputs.back().shard_count = o_.shard.count;
      }
    }
    return inputs;
  }

  // The entry -> writer end: batches come back from the parallel entry
  // stage in input order and are reported, deduplicated and written here,
  // on one thread, exactly as records were read.
  status read_inputs() {
    detail::entry_stage stage(resolve_inputs(), builder_.normalizer(), o_.type,
                              entry_workers(), {}, dates_);
    places_ = names_;
    std::uint64_t next_progress = progress_every;
    // Asked while the stage waits too: an input that sends nothing (a FIFO,
    // a stalled fetch) must not keep a cancel waiting.
    while (detail::record_batch* b =
               stage.next([this] { return cancelled(); })) {
      const std::string& name = names_[b->input];
      if (report_.records == 0 && input_sizes_known_) {
        const std::uint64_t expected = b->records_in(input_bytes_total_);
        dedup_->expect(expected);
        for (detail::set_writers& w : writers_) w.expect_entries(expected);
      }
      // Prefetch a few records ahead of the probe: far enough to hide a
      // cache miss, near enough that the line is still in L1 when used.
      constexpr std::size_t ahead = 16;
      auto prefetch = [&](std::size_t k) {
        if (k < b->results.size() && b->results[k].written)
          dedup_->prefetch(b->results[k].key);
      };
      for (std::size_t k = 0; k < ahead; ++k) prefetch(k);
      for (std::size_t i = 0; i < b->records.size(); ++i) {
        prefetch(i + ahead);
        if (status s = take(*b, i, name); !s) return s;
      }
      for (const auto& n : b->notes) {
        issue(false, n.source.empty() ? name : n.source, n.line, n.message);
        field_warnings_ += n.dropped_value;
      }
      // Read before the batch goes back: the reader may refill it at once.
      const bool last_of_input = b->last_of_input;
      const std::size_t input = b->input;
      const std::uint64_t input_bytes = b->input_bytes;
      stage.release(b);
      if (t_.hook) t_.hook(publish_step::batch_read);
      if (report_.records >= next_progress || last_of_input) {
        generate_progress now;
        now.records = report_.records;
        for (const detail::set_writers& w : writers_)
          now.files += w.file_count();
        now.input_bytes_read = inputs_before_[input] + input_bytes;
        if (input_sizes_known_) now.input_bytes_total = input_bytes_total_;
        obs_.progress(now);
        next_progress = report_.records + progress_every;
      }
      if (cancelled()) break;
    }
    if (stop_) {
      stage.cancel();
      return {};
    }
    if (std::string why = stage.error(); !why.empty()) return error{why};
    return {};
  }

  // One record of a batch: reported, counted, and written (now, or parked
  // by the cluster stage) unless it is a duplicate or --strict has already
  // failed.
  status take(const detail::record_batch& b, std::size_t i,
              const std::string& name) {
    const auto& rec = b.records[i];
    const auto& res = b.results[i];
    if (res.other_shard) {
      ++report_.other_shards;
      return {};
    }
    // A reader that reads several documents (an index and its children)
    // names the one each record came from.
    std::string_view from = b.field(rec, detail::record_batch::source_field);
    const std::string& where = from.empty() ? name : (source_name_ = from);
    if (res.skipped) {
      ++report_.skipped;
      obs_.skipped({where, rec.line, b.messages[res.reject_message]});
      return {};
    }
    ++report_.records;
    if (res.filtered) {
      ++report_.filtered;
      return {};
    }
    if (!res.written) {
      issue(true, where, rec.line, b.messages[res.reject_message]);
      return {};
    }
    field_warnings_ += res.field_warnings;
    for (std::uint32_t w = res.warnings_begin; w < res.warnings_end; ++w)
      issue(false, where, rec.line, b.messages[w]);
    if (res.lastmod_dropped || res.lastmod_read != lastmod_note::none)
      count_lastmod(b, i, where);
    const std::uint64_t position =
        o_.report_duplicates ? position_of(b.input, from, rec.line) : 0;
    auto judged = dedup_->add(res.key, position);
    if (!judged) return judged.err();
    if (*judged == detail::url_dedup::verdict::repeat) {
      ++report_.duplicates;
      if (o_.report_duplicates)
        report_duplicate(
            where, rec.line,
            detail::cluster_stage::loc_of(
                std::string_view(b.xml).substr(res.xml_offset, res.xml_length),
                duplicate_url_),
            dedup_->first_position());
      return {};
    }
    // Past the memory budget a new URL's fate waits for the end of the
    // input: its entry is parked with its number (cluster_stage).
    const std::uint64_t deferred =
        *judged == detail::url_dedup::verdict::deferred
            ? dedup_->deferred() - 1
            : detail::spooled_entry::not_deferred;
    // Once --strict has failed, nothing will be published: keep checking
    // the rest so the user sees every problem in one run, but stop writing.
    if (o_.strict && (report_.rejected > 0 || field_warnings_ > 0)) {
      ++report_.written;
      return {};
    }
    auto section = sections_.id_of(
        b.text_at(res.section_offset, res.section_length), where, rec.line);
    if (!section) return section.err();
    detail::set_output& out = outs_[res.set];
    const std::string_view xml =
        std::string_view(b.xml).substr(res.xml_offset, res.xml_length);
    detail::set_writers& w = writers_[res.set];
    const bool has_links = res.links_begin != res.links_end;
    if (deferred != detail::spooled_entry::not_deferred &&
        clusters_->leaves_deferred_to_writers(has_links) &&
        w.parks_deferred(*section, xml, res.uses)) {
      // Parked by fingerprint with its deferral, where the spool would
      // park it in order and the layout by fingerprint after: counted as
      // written, taken back if it repeats (cluster_stage::fate_of()).
      const detail::parked_deferral d{
          deferred, static_cast<std::uint32_t>(b.input), rec.line};
      return count_added(w.add_deferred(*section, res.key.fingerprint, xml,
                                        res.lastmod, res.uses, d),
                         w, out, where, rec.line);
    }
    if (clusters_->parks(has_links,
                         deferred != detail::spooled_entry::not_deferred)) {
      if (status s = clusters_->park(b, i, *section, deferred, where); !s)
        return s;
      // Counted as written now; one that turns out too large with its
      // cluster, or a repeat, is taken back when it is written.
      ++report_.written;
      ++out.written;
      return {};
    }
    return count_added(w.add(*section, res.key.fingerprint, xml, res.lastmod,
                             res.uses, res.news_published),
                       w, out, where, rec.line);
  }

  // What the writers said of an entry read at `line` of `where`.
  status count_added(add_status added, detail::set_writers& w,
                     detail::set_output& out, const std::string& where,
                     std::uint64_t line) {
    switch (added) {
      case add_status::added:
        ++report_.written;
        ++out.written;
        break;
      case add_status::too_large:
        issue(true, where, line,
              "entry is larger than `max_bytes` allows in one file");
        break;
      case add_status::failed:
        return error{w.error()};
    }
    return {};
  }

  // The run's lastmod counts, and the one warning per input that its
  // date-times without a zone were read as UTC.
  void count_lastmod(const detail::record_batch& b, std::size_t i,
                     const std::string& where) {
    const auto& rec = b.records[i];
    const auto& res = b.results[i];
    lastmod_counts& c = report_.lastmods;
    const std::string_view text =
        detail::trim(b.field(rec, detail::record_batch::lastmod_field));
    if (res.lastmod_dropped) {
      ++c.dropped;
      if (c.first_dropped.size() < lastmod_counts::max_samples)
        c.first_dropped.push_back({where, rec.line, std::string(text)});
    }
    if (res.lastmod_read == lastmod_note::dst_gap ||
        res.lastmod_read == lastmod_note::dst_overlap)
      ++c.dst_adjusted;
    if (res.lastmod_read != lastmod_note::zone_assumed) return;
    ++c.zone_assumed;
    if (zone_warned_.size() <= b.input) zone_warned_.resize(b.input + 1);
    if (zone_warned_[b.input]) return;
    zone_warned_[b.input] = true;
    std::string why = "lastmod \"";
    detail::append_printable(why, text);
    why +=
        "\" has no time zone: read as UTC, as is every lastmod of this input "
        "without one (give `time_zone` to name their zone)";
    issue(false, where, rec.line, std::move(why));
  }

  unsigned entry_workers() const {
    unsigned cores =
        o_.threads != 0 ? o_.threads : std::thread::hardware_concurrency();
    return cores == 0 ? 1 : cores;
  }

  // Entries that waited (hreflang clusters, duplicate checks past the
  // memory budget), written once every input is read.
  status write_parked() {
    status s = clusters_->write_parked(names_);
    if (dedup_->spilling()) report_.spilled = dedup_->deferred();
    if (!s || stop_) return s;
    report_.spill_bytes = dedup_->disk_bytes() + clusters_->spool_bytes();
    return {};
  }

  // --- publishing -----------------------------------------------------------
  // Each set's sitemaps become a named, indexed set. All are staged before
  // any is published, so a failure to stage one publishes none; each
  // publish is atomic on its own (docs/publishing.md).
  status stage_and_publish() {
    std::vector<assembled_set> staged(outs_.size());
    for (std::size_t i = 0; i < outs_.size(); ++i) {
      detail::set_output& out = outs_[i];
      if (out.written == 0) {
        issue(false, "", 0,
              "no URL is under " + out.base +
                  ": no set was published for it (" + out.dir +
                  " is left as it was)");
        continue;
      }
      auto set = detail::stage_set(o_, layout_of(out), out, writers_[i]);
      if (!set) return set.err();
      staged[i] = std::move(*set);
    }
    if (cancelled()) return {};  // the last moment before the first commit
    if (o_.dry_run) {
      // What would be published; the staged files go with the scratch
      // directory.
      for (detail::set_output& out : outs_)
        if (out.written > 0) report_.sets.push_back(std::move(out.report));
    } else if (status s = outs_.publish(
                   staged, report_.sets,
                   [this](const std::string& path, std::string why) {
                     issue(false, path, 0, std::move(why));
                   });
               !s) {
      return s;
    }
    const set_report& first = report_.sets.front();
    report_.entry = first.entry;
    report_.entry_url = first.entry_url;
    report_.dated = first.dated;
    report_.files = first.files;
    return {};
  }

  // The layout names the files under the URL they are served at: the
  // set's base, or sitemaps_url.
  set_layout layout_of(const detail::set_output& out) const {
    return detail::layout_of(o_,
                             sitemaps_url_.empty() ? out.base : sitemaps_url_,
                             t_.max_index_entries);
  }

  // A shard's sitemaps and its manifest, in its shard directory.
  status publish_shard() {
    detail::set_output& out = outs_[0];
    detail::shard_manifest m =
        detail::shard_manifest_of(o_, report_, layout_of(out));
    if (status s = detail::publish_shard(*out.pub(), m, writers_[0].finished(),
                                         [this] { return cancelled(); });
        !s || stop_)
      return s;
    report_.shard_dir = out.dir;
    return {};
  }

  // `output`: the one sitemap to the caller's sink, once the run has
  // succeeded; a set that needs more files than one writes nothing.
  generate_report write_stream() {
    const std::vector<finished_sitemap> sitemaps = writers_[0].finished();
    if (sitemaps.size() != 1) {
      report_.outcome = generate_outcome::needs_several_files;
      report_.message =
          "`output`: the set needs " + std::to_string(sitemaps.size()) +
          " sitemaps and an index (over 50,000 URLs or 50 MiB, or news "
          "files); publish it to a directory (`out_dir`)";
      return finish_early();
    }
    if (cancelled()) return cancel_run();
    if (status s = outs_.write_stream(sitemaps.front()); !s)
      return fail(s.err());
    set_report& r = outs_[0].report;
    r.base_url = outs_[0].base;
    r.sitemaps_url = sitemaps_url_.empty() ? r.base_url : sitemaps_url_;
    r.written = outs_[0].written;
    r.dated = sitemaps.front().part.newest.has_value();
    report_.dated = r.dated;
    report_.sets.push_back(std::move(r));
    report_.outcome = generate_outcome::published;
    if (state_) commit_state();
    return std::move(report_);
  }

  const generate_options& o_;
  const detail::generate_testing& t_;
  generate_observer& obs_;
  entry_builder builder_;
  std::shared_ptr<const site_patterns> patterns_;  // url_patterns; or none
  std::shared_ptr<const detail::section_rules> section_rules_;
  detail::section_table sections_;  // before writers_, which name by it
  lastmod_reader dates_;
  const std::string sitemaps_url_;     // normalised; "" when the bases serve it
  std::vector<bool> zone_warned_;      // per input: zone_assumed said
  detail::scratch_directory scratch_;  // a dry run's; removed after outs_
  // Destroyed in reverse: the parked entries and the duplicate check's
  // files, then the writers (their sinks use the pool), then the outputs,
  // whose publishers remove what they created.
  detail::set_outputs outs_;
  std::optional<compress_pool> pool_;
  std::deque<detail::set_writers> writers_;  // a deque: they never move
  std::optional<detail::url_dedup> dedup_;   // made once the outputs are open
  std::optional<detail::cluster_stage> clusters_;
  bool stop_ = false;               // see cancelled()
  std::vector<std::string> names_;  // each input's name in diagnostics
  // For progress: the bytes of the inputs before each one, their total,
  // and whether every source knew its size.
  std::vector<std::uint64_t> inputs_before_;
  std::uint64_t input_bytes_total_ = 0;
  bool input_sizes_known_ = true;
  std::unique_ptr<state_db> state_;
  std::string source_name_;  // scratch for a record's source document
  // report_duplicates: the documents positions name, and their numbers.
  std::vector<std::string> places_;
  std::unordered_map<std::string, std::uint64_t> place_index_;
  std::string_view last_place_name_;  // a key of place_index_
  std::uint64_t last_place_ = 0;
  std::string duplicate_url_;  // scratch
  std::uint64_t field_warnings_ = 0;
  generate_report report_;
};

generate_report refused(error e) {
  generate_report r;
  r.message = std::move(e.message);
  r.field = std::move(e.field);
  return r;
}

}  // namespace

generate_report detail::generate(const generate_options& options,
                                 generate_observer& observer,
                                 const generate_testing& testing) {
  auto prepared = detail::prepare_options(options, testing);
  if (!prepared) return refused(prepared.err());
  run r(options, testing, observer, std::move(*prepared));
  return r.execute();
}

generate_report generate(const generate_options& options,
                         generate_observer& observer) {
  return detail::generate(options, observer, {});
}

}  // namespace sitemill
