#include "sitemill/generate/generate.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <thread>

#include "detail/text.h"
#include "detail/url_set.h"
#include "generate/entry_spool.h"
#include "generate/entry_stage.h"
#include "generate/hreflang_clusters.h"
#include "generate/html_view.h"
#include "generate/set_writers.h"
#include "generate/shard_manifest.h"
#include "generate/url_dedup.h"
#include "sitemill/date/w3c_datetime.h"
#include "sitemill/entry/entry.h"
#include "sitemill/parse/sitemap_parser.h"
#include "sitemill/write/xml_escape.h"

namespace sitemill {
namespace {

constexpr std::uint64_t progress_every = 65'536;

// Smallest max_bytes accepted: room for the declaration, the root tags and
// one short URL. Entries that do not fit a file are rejected one by one.
constexpr std::size_t min_max_bytes = 256;

std::string extension_for(const generate_options& o) {
  std::string ext = o.type == document_type::text ? ".txt" : ".xml";
  if (o.gzip) ext += ".gz";
  return ext;
}

status check_options(const generate_options& o) {
  if (o.sources.empty()) return error{"no input: give `sources`", "sources"};
  if (o.out_dir.empty()) return error{"`out_dir` is required", "out_dir"};
  if (o.base_url.empty()) return error{"`base_url` is required", "base_url"};
  if (o.max_urls < 1 || o.max_urls > max_urls_per_sitemap)
    return error{"`max_urls` must be from 1 to 50,000 (the protocol's limit)",
                 "max_urls"};
  if (o.max_bytes < min_max_bytes || o.max_bytes > max_bytes_per_sitemap)
    return error{"`max_bytes` must be from " + std::to_string(min_max_bytes) +
                     " to 52,428,800 (the protocol's limit)",
                 "max_bytes"};
  if (o.max_index_entries < 1 || o.max_index_entries > max_sitemaps_per_index)
    return error{"index entries must be from 1 to 50,000", "max_index_entries"};
  // The stem becomes part of every file name and of the index's URLs, so it
  // keeps to characters that need no escaping in either.
  if (o.name.empty() || o.name.front() == '.' ||
      o.name.find_first_not_of(
          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
          "0123456789._-") != std::string::npos)
    return error{
        "`name` may use only letters, digits, '.', '_' and '-', and may not "
        "start with '.' (it becomes part of file names and URLs)",
        "name"};
  if (o.html_view && (o.html_page_urls < 1 || o.html_page_urls > 50'000))
    return error{"`html_page_urls` must be from 1 to 50,000", "html_page_urls"};
  if (o.shard.count > 0) {
    if (o.shard.index >= o.shard.count)
      return error{"`shard`: the index must be below the count", "shard"};
    auto refuse = [](const char* what, const char* field) {
      return error{std::string("`shard`: ") + what +
                       " cannot be split over shards yet; run it as one "
                       "process",
                   field};
    };
    if (!o.more_base_urls.empty())
      return refuse("a run over several base URLs", "more_base_urls");
    if (o.html_view) return refuse("the HTML view", "html_view");
    if (!o.state_path.empty()) return refuse("a state database", "state_path");
  }
  if (o.bundled_stylesheet && !o.xsl_href.empty())
    return error{"give `xsl_href` or `bundled_stylesheet`, not both",
                 "bundled_stylesheet"};
  return {};
}

// Each base's set goes to a directory of its own, named after it; two bases
// that would share one (http:// and https:// of a host) are refused rather
// than have one set replace the other.
status check_set_directories(const url_normalizer& bases) {
  std::vector<std::string> dirs;
  for (std::size_t i = 0; i < bases.base_count(); ++i) {
    std::string dir = set_directory(bases.base_url(i));
    // Normalisation removed dot segments, so this cannot happen; it is
    // checked anyway because the name becomes a path under out_dir.
    for (std::size_t at = 0; at <= dir.size();) {
      std::size_t end = std::min(dir.find('/', at), dir.size());
      const std::string_view segment =
          std::string_view(dir).substr(at, end - at);
      at = end + 1;
      if (!segment.empty() && segment != "." && segment != "..") continue;
      return error{"`more_base_urls`: base URL " +
                       std::string(bases.base_url(i).href()) +
                       " cannot name a directory below `out_dir`",
                   "more_base_urls"};
    }
    for (std::size_t k = 0; k < dirs.size(); ++k)
      if (dirs[k] == dir)
        return error{"`more_base_urls`: base URLs " +
                         std::string(bases.base_url(k).href()) + " and " +
                         std::string(bases.base_url(i).href()) +
                         " would share the directory " + dir +
                         " of `out_dir`; give one of them",
                     "more_base_urls"};
    dirs.push_back(std::move(dir));
  }
  return {};
}

// Every source's own check, before anything is written, so that a bad
// source fails the run without touching --out.
status check_sources(const generate_options& o, std::string_view base) {
  source_context context;
  context.base_url = base;
  context.has_state = !o.state_path.empty();
  for (const auto& source : o.sources)
    if (status s = source->validate(context); !s) return s;
  return {};
}

// The state of one run, so the steps below stay small.
class run {
 public:
  run(const generate_options& o, generate_observer& obs, url_normalizer n,
      lastmod_reader dates, std::shared_ptr<const site_patterns> patterns)
      : o_(o),
        obs_(obs),
        builder_(std::move(n), dates),
        patterns_(std::move(patterns)),
        dates_(dates) {}

  ~run() {
    if (pool_) (void)pool_->wait();  // its tasks write into the outputs
    spool_.reset();                  // a file in the first output's directory
    dedup_.reset();                  // files there too
    // Last opened first: a nested set's directory goes before the one
    // around it, so each publisher can remove what it created.
    while (!outs_.empty()) outs_.pop_back();
  }

  generate_report execute() {
    if (status s = open_outputs(); !s) return fail(s.err());
    if (!o_.state_path.empty()) {
      auto db = state_db::open(o_.state_path);
      if (!db) return fail(db.err());
      state_ = std::move(*db);
      if (status s = state_->begin_run(); !s) return fail(s.err());
    }
    if (o_.gzip) pool_.emplace(o_.threads);
    dedup_.emplace(o_.memory_budget, [this](std::string_view what) {
      return outs_[0].pub->temp_path(what);
    });

    for (output& out : outs_)
      out.writers.emplace(o_, *out.pub, pool_ ? &*pool_ : nullptr);
    // A cancel is honoured in every phase before the commit: while reading,
    // writing spooled entries, compressing and before publishing. The
    // longest wait is the compressions already running (one file per
    // thread), which finish_early() lets end before it removes their files.
    if (status s = read_inputs(); !s) return fail(s.err());
    if (stop_) return cancel_run();
    if (spool_)
      if (status s = write_spooled(); !s) return fail(s.err());
    if (stop_) return cancel_run();
    if (status s = finish_writers(); !s) return fail(s.err());
    if (o_.test_hook) o_.test_hook(publish_step::sitemaps_finished);
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
    for (const output& out : outs_) stale_news += out.writers->stale_news();
    if (stale_news > 0)
      issue(false, "", 0,
            detail::with_commas(stale_news) +
                " articles are older than two days: written without their "
                "news:news block, as Google asks");
    if (status s = stage_and_publish(); !s) return fail(s.err());
    if (stop_) return cancel_run();  // before the commit: nothing published
    report_.outcome = generate_outcome::published;
    if (state_) commit_state();
    return std::move(report_);
  }

 private:
  // Asked between records, entries and steps. Once yes, always yes: an
  // observer need not say it twice.
  bool cancelled() { return stop_ = stop_ || obs_.cancelled(); }

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

  // The publisher names its directory argument; the run names the option
  // that argument came from.
  static error out_dir_error(error e) {
    if (e.field != "dir") return e;
    return error{"`out_dir` " + e.message, "out_dir"};
  }

  // One output per base: out_dir itself for a run with one, else
  // out_dir/<set_directory()>, each with its own publisher (and lock), all
  // taken before anything is read.
  status open_outputs() {
    const url_normalizer& bases = builder_.normalizer();
    const bool several = bases.base_count() > 1;
    for (std::size_t i = 0; i < bases.base_count(); ++i) {
      output& out = outs_.emplace_back();
      out.base = bases.base_url(i).href();
      out.dir = o_.out_dir;
      std::string bookkeeping = o_.manifest_dir;
      if (several) {
        // Each set's bookkeeping below out_dir's, outside every host's
        // directory, nested bases' too (bookkeeping.h).
        if (bookkeeping.empty()) {
          auto beside = default_bookkeeping_dir(o_.out_dir);
          if (!beside) return out_dir_error(error{beside.err().message, "dir"});
          bookkeeping = std::move(*beside);
        }
        const std::string below = set_directory(bases.base_url(i));
        if (!out.dir.ends_with('/')) out.dir += '/';
        out.dir += below;
        bookkeeping += (bookkeeping.ends_with('/') ? "" : "/") + below;
      }
      if (o_.shard.count > 0) {
        // A shard writes beside out_dir, in a directory of its own with its
        // own lock, so shards running at once never meet; merge_shards()
        // publishes into out_dir.
        if (bookkeeping.empty()) {
          auto beside = default_bookkeeping_dir(o_.out_dir);
          if (!beside) return out_dir_error(error{beside.err().message, "dir"});
          bookkeeping = std::move(*beside);
        }
        out.dir = detail::shard_directory(bookkeeping, o_.name,
                                          o_.shard.index, o_.shard.count);
        bookkeeping.clear();  // the shard directory's own, beside it
      }
      auto pub = publisher::open(out.dir, o_.name, bookkeeping);
      if (!pub) return out_dir_error(pub.err());
      out.pub = std::move(*pub);
      out.pub->after_step = o_.test_hook;
    }
    return {};
  }

  // Closes every set's last files and waits for their compression.
  status finish_writers() {
    status finished;
    for (output& out : outs_)
      if (status s = out.writers->finish(); !s && finished) finished = s;
    status compressed = pool_ ? pool_->wait() : status{};
    if (!finished) return finished;
    return compressed;
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

  generate_report finish_early() {
    if (state_) state_->abandon_run();
    if (pool_) (void)pool_->wait();  // workers may still hold temporary files
    for (output& out : outs_)
      if (out.pub) out.pub->discard_temporaries();
    report_.files.clear();
    report_.entry.clear();
    report_.entry_url.clear();
    report_.sets.clear();
    return std::move(report_);
  }

  void issue(bool reject, const std::string& input, std::uint64_t line,
             std::string reason) {
    record_issue r{input, line, std::move(reason)};
    if (reject) {
      ++report_.rejected;
      obs_.rejected(r);
    } else {
      ++report_.warnings;
      obs_.warning(r);
    }
  }

  // --- hreflang clusters ---------------------------------------------------
  // Entries are written as they come until the first one lists hreflang
  // alternates. From then on every entry waits in the spool, so that once
  // all inputs are read each page of a cluster can be written with the
  // whole cluster. What was written before is read back from its temporary
  // files into the spool first, since any of those pages may be named later.

  status start_spooling() {
    if (status s = finish_writers(); !s) return s;
    // Entries duplicate detection deferred wait in a spool already: they
    // follow the ones read back, as they followed them in the input.
    std::optional<detail::entry_spool> parked;
    if (spool_) {
      parked.emplace(std::move(*spool_));
      spool_.reset();
    }
    if (status s = open_spool(); !s) return s;
    clustering_ = true;
    for (std::uint32_t set = 0; set < outs_.size(); ++set) {
      for (const std::string& path : outs_[set].writers->files())
        if (status s = respool(path, set); !s) return s;
      outs_[set].writers->restart();
    }
    if (!parked) return {};
    if (status s = parked->rewind(); !s) return s;
    while (auto e = parked->next()) {
      e->loc = loc_of(e->xml, loc_);  // parked without it
      if (status s = spool_->add(*e); !s) return s;
    }
    if (!parked->error().empty()) return error{parked->error()};
    return {};
  }

  status open_spool() {
    auto spool = detail::entry_spool::create(outs_[0].pub->temp_path("spool"));
    if (!spool) return spool.err();
    spool_.emplace(std::move(*spool));
    return {};
  }

  // Reads back a sitemap this run wrote and spools its entries (which are
  // valid and carry no hreflang links: they came before the first).
  status respool(const std::string& path, std::uint32_t set) {
    struct reader final : parse_handler {
      run* self;
      std::uint32_t set;
      status failed;
      void on_entry(const parsed_entry& e) override {
        if (failed) failed = self->respool_entry(e, set);  // until one fails
      }
    } handler;
    handler.self = this;
    handler.set = set;
    parse_options po;
    po.schema_checks = false;
    auto read = parse_file(path, handler, po);
    if (!read) return read.err();
    if (!read->complete)
      return error{"cannot read back " + path +
                   " to complete hreflang clusters"};
    return handler.failed;
  }

  status respool_entry(const parsed_entry& e, std::uint32_t set) {
    url_entry entry;
    if (builder_.build_loc(e.loc.text, entry).problem != url_problem::ok)
      return error{"cannot read back " + std::string(e.loc.text)};
    builder_.build_fields(e.lastmod.text, e.changefreq.text, e.priority.text,
                          entry, scratch_warnings_);
    builder_.build_extensions(e.extensions, entry, scratch_warnings_);
    scratch_xml_.clear();
    std::size_t links_at = 0;
    append_entry(scratch_xml_, entry, o_.type, &links_at);
    detail::spooled_entry spooled;
    spooled.loc = entry.loc;
    spooled.xml = scratch_xml_;
    spooled.links_at = static_cast<std::uint32_t>(links_at);
    spooled.lastmod = entry.lastmod;
    spooled.uses = extensions_used(entry.extensions);
    spooled.news_published = news_publication_date(entry.extensions);
    spooled.set = set;
    return spool_->add(spooled);
  }

  // Every spooled entry, in order, with its cluster's links in place, and
  // the issues clusters found at it reported as it goes by (so they come in
  // input order without being held as text). Deferred entries that repeat
  // an earlier one are dropped here, as they would have been when read.
  status write_spooled() {
    if (dedup_->spilling()) {
      if (status s = dedup_->resolve(clustering_); !s) return s;
      report_.spilled = dedup_->deferred();
    }
    if (clustering_) {
      if (dedup_->deferred() > 0)
        if (status s = join_deferred_pages(); !s) return s;
      clusters_.resolve(builder_.normalizer(), [this](std::string_view url) {
        return dedup_->contains_in_memory(url) ||
               deferred_pages_.contains(url);
      });
    }
    if (status s = spool_->rewind(); !s) return s;
    detail::hreflang_clusters::page_number page = 0;
    const std::string unknown;  // entries read back from this run's files
    while (auto e = spool_->next()) {
      // A million entries take seconds to write: asked every few thousand.
      if (page % 4096 == 0 && cancelled()) return {};
      const std::string& from =
          e->input < names_.size() ? names_[e->input] : unknown;
      // Only clusters find issues here (and the std::function costs an
      // allocation per entry).
      if (clustering_)
        clusters_.report_issues(page, [&](std::string message) {
          issue(false, from, e->line, std::move(message));
        });
      ++page;
      output& out = outs_[e->set];
      if (e->deferred != detail::spooled_entry::not_deferred) {
        auto repeat = dedup_->is_repeat(e->deferred);
        if (!repeat) return repeat.err();
        if (*repeat) {  // counted as written when it was spooled
          --report_.written;
          --out.written;
          ++report_.duplicates;
          continue;
        }
      }
      extension_mask uses = e->uses;
      std::string_view xml = e->xml;
      if (clustering_) {
        scratch_xml_.assign(xml.substr(0, e->links_at));
        if (clusters_.append_links(e->loc, scratch_xml_)) {
          uses |= mask_of(extension_kind::alternate);
          scratch_xml_ += xml.substr(e->links_at);
          xml = scratch_xml_;
        }
      }
      switch (out.writers->add(xml, e->lastmod, uses, e->news_published)) {
        case add_status::added:
          break;
        case add_status::too_large:
          --report_.written;
          --out.written;
          issue(true, from, e->line,
                "the entry for " + std::string(e->loc) +
                    " with its hreflang cluster is larger than `max_bytes` "
                    "allows in one file");
          break;
        case add_status::failed:
          return error{out.writers->error()};
      }
    }
    if (!spool_->error().empty()) return error{spool_->error()};
    report_.spill_bytes = dedup_->disk_bytes() + spool_->bytes();
    return {};
  }

  // Deferred entries join their hreflang clusters only now that they are
  // known not to repeat an earlier page (whose links won), in spool order,
  // as if they had joined when read. Then the clusters learn which of
  // their URLs are such pages, which the in-memory set cannot tell them.
  status join_deferred_pages() {
    if (status s = spool_->rewind(); !s) return s;
    detail::hreflang_clusters::page_number page = 0;
    for (; auto e = spool_->next(); ++page) {
      if (e->deferred == detail::spooled_entry::not_deferred ||
          e->links.empty())
        continue;
      auto repeat = dedup_->is_repeat(e->deferred);
      if (!repeat) return repeat.err();
      if (!*repeat) clusters_.add_page(e->loc, e->links, page);
    }
    if (!spool_->error().empty()) return error{spool_->error()};
    if (status s = dedup_->rewind(); !s) return s;
    if (status s = spool_->rewind(); !s) return s;
    // A repeat's URL is a kept page's too: no need to ask.
    while (auto e = spool_->next())
      if (e->deferred != detail::spooled_entry::not_deferred &&
          clusters_.contains(e->loc))
        deferred_pages_.insert(e->loc);
    if (!spool_->error().empty()) return error{spool_->error()};
    return {};
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
                        source->applies_patterns() ? nullptr : patterns_});
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
    std::uint64_t next_progress = progress_every;
    // Asked while the stage waits too: an input that sends nothing (a FIFO,
    // a stalled fetch) must not keep a cancel waiting.
    while (detail::record_batch* b =
               stage.next([this] { return cancelled(); })) {
      const std::string& name = names_[b->input];
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
      if (o_.test_hook) o_.test_hook(publish_step::batch_read);
      if (report_.records >= next_progress || last_of_input) {
        generate_progress now;
        now.records = report_.records;
        for (const output& out : outs_) now.files += out.writers->file_count();
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

  // One record of a batch: reported, counted, and written unless it is a
  // duplicate or --strict has already failed.
  status take(const detail::record_batch& b, std::size_t i,
              const std::string& name) {
    const auto& rec = b.records[i];
    const auto& res = b.results[i];
    // A reader that reads several documents (an index and its children)
    // names the one each record came from.
    if (res.other_shard) {
      ++report_.other_shards;
      return {};
    }
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
    auto judged = dedup_->add(res.key);
    if (!judged) return judged.err();
    if (*judged == detail::url_dedup::verdict::repeat) {
      ++report_.duplicates;
      return {};
    }
    // Past the memory budget a new URL's fate waits for the end of the
    // input: its entry is spooled with its number (write_spooled()).
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
    const std::string_view xml =
        std::string_view(b.xml).substr(res.xml_offset, res.xml_length);
    output& out = outs_[res.set];
    const bool has_links = res.links_begin != res.links_end;
    if (!clustering_ && !has_links &&
        deferred == detail::spooled_entry::not_deferred) {
      switch (
          out.writers->add(xml, res.lastmod, res.uses, res.news_published)) {
        case add_status::added:
          ++report_.written;
          ++out.written;
          break;
        case add_status::too_large:
          issue(true, where, rec.line,
                "entry is larger than `max_bytes` allows in one file");
          break;
        case add_status::failed:
          return error{out.writers->error()};
      }
      return {};
    }
    // A cluster's pages hash to different shards, and each page must list
    // them all: no shard could complete it alone.
    if (has_links && o_.shard.count > 1)
      return error{
          "`shard`: " + std::string(where) + ":" + std::to_string(rec.line) +
              ": hreflang alternates need every page of a cluster in one "
              "run, and shards split them; generate a multilingual site as "
              "one process",
          "shard"};
    if (has_links && !clustering_) {
      if (status s = start_spooling(); !s) return s;
    } else if (!spool_) {
      if (status s = open_spool(); !s) return s;
    }
    // Only clusters look entries up by loc; a spool of deferred entries
    // alone does without it.
    const std::string_view loc =
        clustering_ ? loc_of(xml, loc_) : std::string_view();
    links_.clear();
    if (has_links) {
      for (std::uint32_t k = res.links_begin; k < res.links_end; ++k) {
        const auto& l = b.links[k];
        links_.push_back({b.text_at(l.hreflang_offset, l.hreflang_length),
                          b.text_at(l.href_offset, l.href_length)});
      }
      // Its page number is its place in the spool, where its issues are
      // reported from (write_spooled()).
      if (spool_->entries() >= std::numeric_limits<std::uint32_t>::max())
        return error{
            "more than 4,294,967,295 entries wait for their hreflang "
            "clusters: split the input"};
      // A deferred page joins its cluster once it is known to be written
      // (join_deferred_pages()); its links wait with it.
      if (deferred == detail::spooled_entry::not_deferred)
        clusters_.add_page(loc, links_,
                           static_cast<detail::hreflang_clusters::page_number>(
                               spool_->entries()));
    }
    // Counted as written now; one that turns out too large with its
    // cluster, or a repeat, is taken back when it is written.
    ++report_.written;
    ++out.written;
    detail::spooled_entry spooled;
    spooled.loc = loc;
    spooled.xml = xml;
    spooled.links_at = res.links_at;
    spooled.lastmod = res.lastmod;
    spooled.uses = res.uses;
    spooled.news_published = res.news_published;
    spooled.input = static_cast<std::uint32_t>(b.input);
    spooled.line = rec.line;
    spooled.set = res.set;
    spooled.deferred = deferred;
    if (deferred != detail::spooled_entry::not_deferred) spooled.links = links_;
    return spool_->add(spooled);
  }

  // The loc as the worker normalised it, from the entry's own bytes
  // (<url><loc>...</loc>): kept nowhere else, to keep the batches small.
  static std::string_view loc_of(std::string_view xml, std::string& scratch) {
    constexpr std::string_view open_loc = "<url><loc>";
    const std::string_view escaped =
        xml.substr(open_loc.size(), xml.find("</loc>") - open_loc.size());
    scratch.clear();
    append_xml_unescaped(scratch, escaped);
    return scratch;
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

  // Each set's parts become a named, indexed set. All are staged before
  // any is published, so a failure to stage one publishes none; each
  // publish is atomic on its own (docs/publishing.md).
  status stage_and_publish() {
    if (o_.shard.count > 0) return publish_shard();
    std::vector<assembled_set> staged(outs_.size());
    for (std::size_t i = 0; i < outs_.size(); ++i) {
      output& out = outs_[i];
      if (out.written == 0) {
        issue(false, "", 0,
              "no URL is under " + out.base +
                  ": no set was published for it (" + out.dir +
                  " is left as it was)");
        continue;
      }
      std::vector<finished_sitemap> sitemaps = out.writers->finished();
      set_report& r = out.report;
      r.base_url = out.base;
      r.out_dir = out.dir;
      r.written = out.written;
      r.dated = std::any_of(
          sitemaps.begin(), sitemaps.end(),
          [](const finished_sitemap& s) { return s.part.newest.has_value(); });
      const set_layout layout = layout_of(out.base);
      std::vector<std::string> newest;  // for the HTML view
      if (o_.html_view)
        for (const finished_sitemap& f : sitemaps) {
          char text[max_lastmod_length];
          newest.emplace_back(
              text, f.part.newest ? format_lastmod(*f.part.newest, text) : 0);
        }
      auto set = assemble_set(*out.pub, layout, std::move(sitemaps));
      if (!set) return set.err();
      if (o_.html_view)
        if (status s = detail::stage_html_view(*out.pub, o_.name, *set, newest,
                                               o_.html_page_urls);
            !s)
          return s;
      for (const auto& f : set->files) r.files.push_back(f.file);
      r.entry = set->entry;
      r.entry_url = out.base + set->entry;
      staged[i] = std::move(*set);
    }
    if (cancelled()) return {};  // the last moment before the first commit
    for (std::size_t i = 0; i < outs_.size(); ++i) {
      output& out = outs_[i];
      if (out.written == 0) continue;
      warn_of_a_foreign_entry(out.dir, *out.pub, staged[i].entry);
      if (status s =
              out.pub->publish(std::move(staged[i].files), staged[i].entry);
          !s) {
        if (report_.sets.empty()) return s;
        return error{s.message() + " (the sets of " + published_bases() +
                     " were published before this failure and stay)"};
      }
      report_.sets.push_back(std::move(out.report));
    }
    const set_report& first = report_.sets.front();
    report_.entry = first.entry;
    report_.entry_url = first.entry_url;
    report_.dated = first.dated;
    report_.files = first.files;
    return {};
  }

  // How the set is named and indexed: by this run, or by the merge of its
  // shards (which reads it from their manifests).
  set_layout layout_of(const std::string& base) const {
    set_layout layout;
    layout.name = o_.name;
    layout.extension = extension_for(o_);
    layout.type = o_.type;
    layout.base_url = base;
    layout.index = o_.index;
    layout.max_index_entries = o_.max_index_entries;
    layout.xsl_href = detail::xsl_href_of(o_);
    layout.bundled_stylesheet = o_.bundled_stylesheet;
    return layout;
  }

  // A shard's sitemaps, named after their content in its directory, and
  // its manifest as the entry: the shard's directory holds its last
  // complete output, which merge_shards() takes.
  status publish_shard() {
    output& out = outs_.front();
    detail::shard_manifest m;
    m.index = o_.shard.index;
    m.count = o_.shard.count;
    m.job = o_.shard.job;
    m.presplit = o_.shard.presplit;
    m.layout = layout_of(out.base);
    m.options = "max_urls=" + std::to_string(o_.max_urls) +
                " max_bytes=" + std::to_string(o_.max_bytes) +
                " gzip=" + (!o_.gzip                             ? "off"
                            : o_.level == compression::fast ? "fast"
                            : o_.level == compression::best ? "best"
                                                            : "normal") +
                " news=" + (o_.news ? "on" : "off");
    m.records = report_.records;
    m.written = report_.written;
    m.duplicates = report_.duplicates;
    m.filtered = report_.filtered;
    m.rejected = report_.rejected;
    m.warnings = report_.warnings;
    m.skipped = report_.skipped;
    std::vector<staged_file> files;
    std::map<std::string, std::size_t> numbers;  // per group
    for (const finished_sitemap& f : out.writers->finished()) {
      std::string name =
          child_file_name(f.group.empty() ? "part" : f.group,
                          ++numbers[f.group], f.digest, m.layout.extension);
      files.push_back({f.temp_path,
                       {name, o_.type, f.part.urls, f.part.bytes, f.digest}});
      m.files.push_back({std::move(name), f.group, f.part.urls, f.part.bytes,
                         f.digest, f.part.newest});
    }
    // Recorded in the shard's own manifest as an index: it is the file
    // that names the others.
    const std::string entry(detail::shard_manifest_name);
    auto manifest = stage_file(*out.pub, "shard", entry,
                               document_type::sitemapindex, detail::to_json(m));
    if (!manifest) return manifest.err();
    manifest->file.urls = m.files.size();
    files.push_back(std::move(*manifest));
    if (cancelled()) return {};
    if (status s = out.pub->publish(std::move(files), entry); !s) return s;
    report_.shard_dir = out.dir;
    return {};
  }

  // The entry's name is the one file name the set must take whatever is
  // there: a file of that name that no manifest lists (a site generator's
  // own sitemap.xml) is replaced, and said so, since nothing else would.
  void warn_of_a_foreign_entry(const std::string& dir, const publisher& pub,
                               const std::string& entry) {
    const std::string path = dir + "/" + entry;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
    for (const published_file& f : pub.current())
      if (f.path == entry) return;
    issue(false, path, 0,
          "replaced by this set's entry; sitemill did not write it (no "
          "manifest lists it): if another tool writes it (a site generator's "
          "own sitemap), turn that off or give the set another `name`");
  }

  std::string published_bases() const {
    std::string list;
    for (const set_report& r : report_.sets)
      (list += list.empty() ? "" : ", ") += r.base_url;
    return list;
  }

  const generate_options& o_;
  generate_observer& obs_;
  entry_builder builder_;
  std::shared_ptr<const site_patterns> patterns_;  // url_patterns; or none
  lastmod_reader dates_;
  std::vector<bool> zone_warned_;  // per input: zone_assumed said
  // One sitemap set being written: the run's, or one per base URL.
  struct output {
    std::string base;  // the normalised base URL
    std::string dir;   // where it is published
    std::unique_ptr<publisher> pub;
    std::optional<detail::set_writers> writers;
    std::uint64_t written = 0;
    set_report report;  // filled when staged
  };
  std::optional<compress_pool> pool_;
  std::optional<detail::url_dedup> dedup_;  // made once out_dir is open
  // Deferred pages (url_dedup.h) that clusters name, which the in-memory
  // set cannot answer for: at most the clusters' own URLs.
  detail::url_set deferred_pages_;
  std::deque<output> outs_;  // a deque: set_writers holds its publisher
  // Entries waiting to be written: every one once hreflang clusters are
  // being completed (clustering_, see start_spooling()), else those whose
  // duplicate check was deferred.
  std::optional<detail::entry_spool> spool_;
  bool clustering_ = false;
  detail::hreflang_clusters clusters_;
  std::vector<detail::hreflang_clusters::link> links_;  // scratch
  std::vector<field_warning> scratch_warnings_;
  std::string scratch_xml_;
  std::string loc_;                 // scratch: a spooled entry's loc
  bool stop_ = false;               // see cancelled()
  std::vector<std::string> names_;  // each input's name in diagnostics
  // For progress: the bytes of the inputs before each one, their total,
  // and whether every source knew its size.
  std::vector<std::uint64_t> inputs_before_;
  std::uint64_t input_bytes_total_ = 0;
  bool input_sizes_known_ = true;
  std::unique_ptr<state_db> state_;
  std::string source_name_;  // scratch for a record's source document
  std::uint64_t field_warnings_ = 0;
  generate_report report_;
};

}  // namespace

generate_report generate(const generate_options& options,
                         generate_observer& observer) {
  auto refused = [](error e) {
    generate_report r;
    r.message = std::move(e.message);
    r.field = std::move(e.field);
    return r;
  };
  if (status s = check_options(options); !s) return refused(s.err());
  auto normalizer = url_normalizer::with_base(options.base_url);
  if (!normalizer)
    return refused({"`base_url`: " + normalizer.err().message, "base_url"});
  if (!options.more_base_urls.empty()) {
    std::vector<std::string> bases{options.base_url};
    bases.insert(bases.end(), options.more_base_urls.begin(),
                 options.more_base_urls.end());
    normalizer = url_normalizer::with_bases(bases);
    if (!normalizer)
      return refused(
          {"`more_base_urls`: " + normalizer.err().message, "more_base_urls"});
    if (status s = check_set_directories(*normalizer); !s)
      return refused(s.err());
  }
  auto dates = lastmod_reader::create(options.date_format, options.time_zone);
  if (!dates) return refused(dates.err());
  if (status s = check_sources(options, normalizer->base()); !s)
    return refused(s.err());
  std::shared_ptr<const site_patterns> patterns;
  if (!options.url_patterns.empty()) {
    auto made = site_patterns::make(options.url_patterns);
    if (!made)
      return refused({"`url_patterns`: " + made.err().message, "url_patterns"});
    patterns = std::make_shared<const site_patterns>(std::move(*made));
  }
  run r(options, observer, std::move(*normalizer), *dates, std::move(patterns));
  return r.execute();
}

}  // namespace sitemill
