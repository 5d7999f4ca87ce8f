// sitemill generate: URL lists in, a published sitemap set out.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <mutex>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>

#include "colour.h"
#include "command.h"
#include "generate/testing.h"
#include "sitemill/generate/generate.h"
#include "sitemill/notify/announce.h"
#include "sitemill/notify/indexnow.h"
#include "sitemill/report/generate_json.h"
#include "sitemill/numbers.h"
#include "sitemill/crawl/crawl_source.h"
#include "sitemill/source/log_source.h"
#include "sitemill/source/site_source.h"
#include "sitemill/source/sitemap_source.h"
#include "verbose.h"
#include "vocabulary.h"

namespace sitemill::cli {
namespace {

// Diagnostics printed one per line before the rest are only counted.
constexpr std::uint64_t max_printed_issues = 200;

struct generate_cli_options {
  generate_options run;
  // The sources, turned into run.sources in this order: lists, then
  // directories, then sitemaps, then access logs (one source for them all),
  // then crawls.
  std::vector<std::string> inputs, from_dirs, from_sitemaps, from_logs,
      from_crawls;
  crawl_options crawl;
  std::vector<std::string> base_urls;  // run.base_url, then more_base_urls
  log_source_options logs;
  std::string log_priority;
  site_source_options site;
  sitemap_source_options sitemap;
  std::string input_format;
  std::string columns;
  std::string shard;  // run.shard, as --shard gives it (I/N, auto, auto/N)
  std::string format = "xml";
  std::string compression_name = "normal";
  bool fast = false;
  bool no_gzip = false;
  std::string index = "auto";
  bool json_out = false;
  bool quiet = false;
  std::string lastmod_policy_name = "mtime";
  std::string index_files;
  bool keep_index_files = false;
  bool ignore_noindex = false, ignore_canonical = false, ignore_robots = false;
  bool keep_error_pages = false, keep_redirects = false;
  std::vector<std::string> rewrite_base;
  // --include, --exclude, --include-regex, --exclude-regex: one ordered
  // list, since a later pattern wins (as in .gitignore).
  CLI::Option* include_opt = nullptr;
  CLI::Option* exclude_opt = nullptr;
  CLI::Option* include_regex_opt = nullptr;
  CLI::Option* exclude_regex_opt = nullptr;
  CLI::App* command = nullptr;
  std::string robots_path;
  std::string indexnow_key;
  std::string indexnow_endpoint{indexnow_default_endpoint};
  std::string indexnow_key_location;
  std::string now;  // --now, a W3C datetime
};

// Prints issues to stderr as FILE:LINE: kind: reason (the first few hundred),
// keeps every one in an issue_spool for --json so memory stays flat, and
// draws a progress line on a terminal.
class reporter final : public generate_observer {
 public:
  reporter(bool spool, bool quiet, std::span<const term> words)
      : quiet_(quiet), words_(words) {
    if (spool) spool_.emplace();
    // Under --verbose every line is kept: no line is redrawn over them.
    progress_ = !quiet && !verbose() && ::isatty(STDERR_FILENO);
  }

  void rejected(const record_issue& r) override {
    note(r, issue_kind::rejected);
  }
  void warning(const record_issue& r) override { note(r, issue_kind::warning); }
  void skipped(const record_issue& r) override { note(r, issue_kind::skipped); }

  // "sitemill: 1,234,567 records (410,000/s), 25 files, 43% of 120 MB,
  // about 0:07 left": the rate always, the share and the time left when
  // every input's size is known.
  void progress(const generate_progress& now) override {
    if (!progress_) return;
    std::lock_guard lock(draw_mu_);
    const auto at = std::chrono::steady_clock::now();
    if (at - last_draw_ < std::chrono::milliseconds(200)) return;
    last_draw_ = at;
    const double seconds = std::chrono::duration<double>(at - start_).count();
    std::string line = "sitemill: " + with_commas(now.records) + " records";
    if (seconds >= 0.5)
      line += " (" +
              with_commas(static_cast<std::uint64_t>(
                  static_cast<double>(now.records) / seconds)) +
              "/s)";
    line += ", " + with_commas(now.files) + " files";
    if (now.input_bytes_total > 0) {
      const double share = static_cast<double>(now.input_bytes_read) /
                           static_cast<double>(now.input_bytes_total);
      line += ", " + std::to_string(static_cast<int>(share * 100.0)) + "% of " +
              human_bytes(now.input_bytes_total);
      if (seconds >= 0.5 && share > 0.0 && share < 1.0)
        line +=
            ", about " + clock_time(seconds * (1.0 - share) / share) + " left";
    }
    draw(line);
  }

  // "sitemill: crawl: 1,234 pages (456/s), 789 queued, 1,100 listed,
  // 3 errors": from the crawl's own thread (crawl_options::progress), so
  // drawing is under draw_mu_.
  void crawl_progress(const crawl_progress& p) {
    if (!progress_) return;
    std::lock_guard lock(draw_mu_);
    if (p.done) return;  // the summary follows
    last_draw_ = std::chrono::steady_clock::now();
    std::string line = "sitemill: crawl: " + with_commas(p.fetched) + " pages";
    if (p.seconds >= 0.5)
      line += " (" +
              with_commas(static_cast<std::uint64_t>(
                  static_cast<double>(p.fetched) / p.seconds)) +
              "/s)";
    line += ", " + with_commas(p.queued) + " queued, " +
            with_commas(p.listed) + " listed";
    if (p.errors > 0) line += ", " + with_commas(p.errors) + " errors";
    draw(line);
  }

  bool cancelled() override { return interrupted(); }

  void clear_progress() {
    std::lock_guard lock(draw_mu_);
    clear_progress_locked();
  }

  void print_hidden_count() {
    if (hidden_ > 0)
      std::fprintf(
          stderr,
          "sitemill: %llu more rejected records and warnings not shown%s\n",
          static_cast<unsigned long long>(hidden_),
          spool_ ? "" : " (--json lists them all)");
  }

  /// Every issue of the run, for --json; only with --json.
  const issue_spool& spool() const { return *spool_; }

 private:
  void note(const record_issue& issue, issue_kind kind) {
    record_issue mapped;
    const record_issue* in_words = &issue;
    if (issue.reason.find('`') != std::string::npos) {
      mapped = issue;
      to_cli_words(mapped.reason, words_);
      in_words = &mapped;
    }
    const record_issue& r = *in_words;
    if (spool_) spool_->add(kind, r);
    if (quiet_ && kind != issue_kind::rejected) return;
    if (printed_ >= max_printed_issues && !verbose()) {
      ++hidden_;
      return;
    }
    ++printed_;
    std::lock_guard lock(draw_mu_);
    clear_progress_locked();
    const std::string word = kind == issue_kind::rejected
                                 ? painted(stderr, "rejected", paint::error)
                             : kind == issue_kind::warning
                                 ? painted(stderr, "warning", paint::warning)
                                 : painted(stderr, "skipped", paint::info);
    if (r.line > 0)
      std::fprintf(stderr, "%s:%llu: %s: %s\n", r.input.c_str(),
                   static_cast<unsigned long long>(r.line), word.c_str(),
                   r.reason.c_str());
    else
      std::fprintf(stderr, "%s: %s: %s\n", r.input.c_str(), word.c_str(),
                   r.reason.c_str());
  }

  void draw(const std::string& line) {
    std::fprintf(stderr, "\r%s\033[K", line.c_str());
    drawn_ = true;
  }
  void clear_progress_locked() {
    if (drawn_) std::fputs("\r\033[K", stderr);
    drawn_ = false;
  }

  bool quiet_;
  std::span<const term> words_;
  bool progress_ = false;
  std::mutex draw_mu_;  // the crawl's progress comes from its own thread
  bool drawn_ = false;
  std::optional<issue_spool> spool_;
  std::uint64_t printed_ = 0;
  std::uint64_t hidden_ = 0;
  std::chrono::steady_clock::time_point last_draw_{};
  std::chrono::steady_clock::time_point start_ =
      std::chrono::steady_clock::now();
};

void print_json(const generate_report& r, const reporter& rep,
                std::span<const announcement> announced) {
  (void)json_to_stdout("generate", [&](sink& out) {
    return write_generate_json(out, r, rep.spool(), announced);
  });
}

// After a publish: list each set in robots.txt and tell IndexNow what
// changed (announce_sets()), with the library's messages put in generate's
// words, for stderr and --json alike.
std::vector<announcement> announce(const generate_cli_options& o,
                                   const generate_report& r,
                                   std::span<const term> words) {
  announce_options a;
  a.robots_path = o.robots_path;
  a.indexnow.key = o.indexnow_key;
  a.indexnow.endpoint = o.indexnow_endpoint;
  a.indexnow.key_location = o.indexnow_key_location;
  const bool quiet = o.quiet;
  a.indexnow.retry.sleep = [quiet](std::chrono::milliseconds d) {
    return retry_sleep(d, "sitemill generate", quiet);
  };
  http_options announcing;
  announcing.trace = verbose_trace();
  http_client client(std::move(announcing));
  std::vector<announcement> all = announce_sets(client, r.sets, r.changes, a);
  for (announcement& done : all) {
    if (done.robots && done.robots->failure)
      to_cli_words(done.robots->failure->message, words);
    if (done.indexnow && done.indexnow->failure)
      to_cli_words(done.indexnow->failure->message, words);
    if (done.indexnow && done.indexnow->report) {
      for (auto& rej : done.indexnow->report->rejected)
        to_cli_words(rej.reason, words);
      for (auto& b : done.indexnow->report->batches)
        to_cli_words(b.message, words);
    }
  }
  return all;
}

// The set is already live, so a failure to announce it is reported (exit 2
// for robots.txt or refused IndexNow options, 1 for a URL or batch IndexNow
// did not take) but takes nothing back.
int print_announcement(const announcement& done, bool quiet) {
  int code = exit_ok;
  if (const auto& robots = done.robots) {
    if (robots->failure) {
      std::fprintf(stderr, "sitemill generate: --robots: %s\n",
                   robots->failure->message.c_str());
      code = exit_usage;
    } else if (!quiet) {
      const std::size_t added = robots->update->edit.added.size();
      std::fprintf(stderr, "sitemill: %s %s (%zu Sitemap line%s added)\n",
                   robots->update->written ? "updated" : "left unchanged",
                   robots->path.c_str(), added, added == 1 ? "" : "s");
    }
  }
  if (const auto& indexnow = done.indexnow) {
    if (indexnow->urls.empty()) {
      if (!quiet)
        std::fprintf(stderr,
                     "sitemill: nothing changed; IndexNow not called\n");
      return code;
    }
    if (indexnow->failure) {
      std::fprintf(stderr, "sitemill generate: IndexNow: %s\n",
                   indexnow->failure->message.c_str());
      return exit_usage;
    }
    const indexnow_report& sent = *indexnow->report;
    for (const auto& rej : sent.rejected)
      std::fprintf(stderr, "sitemill: IndexNow: not sent: %s: %s\n",
                   rej.url.c_str(), rej.reason.c_str());
    for (const auto& b : sent.batches)
      if (!quiet || b.outcome != indexnow_outcome::accepted)
        std::fprintf(stderr, "sitemill: IndexNow: %s\n", b.message.c_str());
    if (!sent.ok()) code = exit_data;
  }
  return code;
}

// "published 3 files to DIR (entry URL)", and how many indexes there are.
std::string published_line(const set_report& set, std::size_t& indexes) {
  indexes = 0;
  for (const auto& f : set.files)
    indexes += f.type == document_type::sitemapindex;
  return "published " + std::to_string(set.files.size()) +
         (set.files.size() == 1 ? " file" : " files") + " to " + set.out_dir +
         " (entry " + set.entry_url + ")";
}

void print_summary(const generate_report& r) {
  auto count = [](std::uint64_t n) { return std::to_string(n); };
  std::size_t indexes = 0;
  std::string line = "sitemill: ";
  if (r.sets.size() == 1) {
    line += published_line(r.sets.front(), indexes) + ": ";
  } else {
    // One line per host's set, then the run's counts.
    for (const set_report& set : r.sets) {
      std::size_t its_indexes = 0;
      std::string its = published_line(set, its_indexes);
      indexes = std::max(indexes, its_indexes);
      std::fprintf(stderr, "sitemill: %s: %s URLs\n", its.c_str(),
                   count(set.written).c_str());
    }
    line += count(r.sets.size()) + " sets: ";
  }
  line += count(r.written) + " URLs written, " + count(r.duplicates) +
          " duplicates, ";
  if (r.filtered > 0)
    line += count(r.filtered) + " filtered out by --include/--exclude, ";
  line += count(r.rejected) + " rejected, " + count(r.warnings) +
          " warnings, from " + count(r.records) + " records";
  if (r.skipped > 0)
    line += " (" + count(r.skipped) + (r.skipped == 1 ? " page" : " pages") +
            " skipped)";
  if (r.spilled > 0)
    line += "; past --memory-budget, " + count(r.spilled) +
            " records were checked for duplicates on disk (" +
            count((r.spill_bytes + (1 << 20) - 1) >> 20) +
            " MiB of temporary files)";
  // An index entry's lastmod is the newest of its file's: say why the index
  // has none rather than leave a reader to wonder.
  std::string undated;  // the sets whose index has no lastmod, and why
  for (const set_report& set : r.sets)
    if (!set.dated) (undated += undated.empty() ? "" : ", ") += set.base_url;
  if (indexes > 0 && !undated.empty())
    line += r.sets.size() == 1
                ? "; no URL has a lastmod, so neither has the index"
                : "; no URL under " + undated +
                      " has a lastmod, so neither has its index";
  std::fprintf(stderr, "%s\n", line.c_str());
  if (indexes > 1)
    std::fprintf(stderr,
                 "sitemill: %zu index files were needed; submit each of them "
                 "(see --json \"files\")\n",
                 indexes);
  if (r.sets.size() > 1)
    std::fprintf(stderr,
                 "sitemill: each set is submitted for its own host (its "
                 "robots.txt, or that host's Search Console property)\n");
}

// One line for what a million warnings would say a million times: how many
// lastmods were dropped (with the first few), and how many read as UTC.
void print_lastmod_summary(const generate_report& r) {
  const lastmod_counts& l = r.lastmods;
  if (l.dropped > 0) {
    std::string first;
    for (const lastmod_sample& d : l.first_dropped) {
      first += first.empty() ? "first " : ", ";
      first += d.input + ":" + std::to_string(d.line) + " \"" + d.text + "\"";
    }
    std::fprintf(stderr,
                 "sitemill: %llu lastmod%s dropped (%s); --date-format and "
                 "--timezone read other forms (docs/inputs.md)\n",
                 static_cast<unsigned long long>(l.dropped),
                 l.dropped == 1 ? "" : "s", first.c_str());
  }
  if (l.zone_assumed > 0)
    std::fprintf(stderr,
                 "sitemill: %llu lastmod%s without a time zone read as UTC; "
                 "--timezone names their zone\n",
                 static_cast<unsigned long long>(l.zone_assumed),
                 l.zone_assumed == 1 ? "" : "s");
}

// A shard's line: what it kept, where it went, and what comes next.
void print_shard_summary(const generate_report& r, const shard_spec& shard,
                         const std::string& out_dir) {
  auto count = [](std::uint64_t n) { return std::to_string(n); };
  std::fprintf(stderr,
               "sitemill: shard %u of %u: %s URLs written, %s duplicates, %s "
               "rejected, %s warnings, from %s records (%s of other shards) "
               "to %s; run 'sitemill merge --out %s' once every shard is "
               "done\n",
               shard.index, shard.count, count(r.written).c_str(),
               count(r.duplicates).c_str(), count(r.rejected).c_str(),
               count(r.warnings).c_str(), count(r.records).c_str(),
               count(r.other_shards).c_str(), r.shard_dir.c_str(),
               out_dir.c_str());
}

// SITEMILL_TEST_KILL_AT=STEP:N, for the crash tests only (docs/publishing.md):
// the process ends with SIGKILL the Nth time the run reaches STEP, a
// publish_step's name. Exactly what a kill at that moment would leave.
std::optional<std::function<void(publish_step)>> kill_at_hook(
    std::string_view spec) {
  const std::size_t colon = spec.rfind(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const std::string step(spec.substr(0, colon));
  const unsigned long nth =
      std::strtoul(std::string(spec.substr(colon + 1)).c_str(), nullptr, 10);
  if (nth == 0) return std::nullopt;
  auto reached = std::make_shared<std::atomic<unsigned long>>(0);
  return [step, nth, reached](publish_step s) {
    if (to_string(s) == step && ++*reached == nth) ::raise(SIGKILL);
  };
}

// With base URLs on several hosts, each host's robots.txt is its own file:
// one path for them all would list every host's sitemaps in one robots.txt,
// which proves nothing for the others (docs/hosts.md).
bool robots_path_fits_hosts(const generate_cli_options& o) {
  if (o.robots_path.empty() ||
      o.robots_path.find("{host}") != std::string::npos)
    return true;
  std::string first_host;
  for (const std::string& b : o.base_urls) {
    normalized_url u;
    if (normalize_url(b, u) != url_problem::ok) return true;  // generate says
    const std::string host = host_directory(u);
    if (first_host.empty()) first_host = host;
    if (host != first_host) return false;
  }
  return true;
}

// --out -: what the library cannot know refuses a set on stdout, the
// --json object and robots.txt; generate_options::output refuses the rest.
std::string stdout_refusal(const generate_cli_options& o) {
  if (o.json_out) return "--json also prints on stdout; give --out DIR";
  if (!o.robots_path.empty())
    return "--robots lists files sitemill publishes; give --out DIR";
  return {};
}

int run_generate(generate_cli_options& o) {
  generate_options& g = o.run;
  stdout_sink to_stdout;
  if (g.out_dir == "-") {
    if (std::string why = stdout_refusal(o); !why.empty()) {
      std::fprintf(stderr, "sitemill generate: --out -: %s\n", why.c_str());
      return exit_usage;
    }
    g.out_dir.clear();
    g.output = &to_stdout;
  }
  g.base_url = o.base_urls.front();
  g.more_base_urls.assign(o.base_urls.begin() + 1, o.base_urls.end());
  if (!robots_path_fits_hosts(o)) {
    std::fprintf(stderr,
                 "sitemill generate: --robots: the --base-url hosts differ, "
                 "and each host has a robots.txt of its own: put {host} in "
                 "the path (--robots 'public/{host}/robots.txt')\n");
    return exit_usage;
  }
  std::optional<input_format> format;
  if (!o.input_format.empty()) {
    format = parse_input_format(o.input_format);
    if (!format) {
      std::fprintf(
          stderr,
          "sitemill generate: --input-format must be txt, tsv, csv or jsonl\n");
      return exit_usage;
    }
  }
  column_list columns;
  if (!o.columns.empty()) {
    auto cols = parse_column_list(o.columns);
    if (!cols) {
      std::fprintf(stderr, "sitemill generate: --columns: %s\n",
                   cols.err().message.c_str());
      return exit_usage;
    }
    columns = std::move(*cols);
  }
  g.type = o.format == "txt" ? document_type::text : document_type::urlset;
  if (g.xsl_href == "default") {
    g.xsl_href.clear();
    g.bundled_stylesheet = true;
  }
  g.gzip = !o.no_gzip && g.output == nullptr;  // a sitemap on stdout is plain
  g.level = o.fast                         ? compression::fast
            : o.compression_name == "fast" ? compression::fast
            : o.compression_name == "best" ? compression::best
                                           : compression::normal;
  g.index = o.index == "always" ? index_mode::always : index_mode::automatic;
  if (!parse_now_flag(o.now, "generate", g.now)) return exit_usage;
  if (!o.shard.empty()) {
    const bool presplit = g.shard.presplit;
    auto shard = parse_shard(o.shard);
    if (!shard) {
      std::fprintf(stderr, "sitemill generate: %s\n",
                   in_cli_words(shard.err().message, generate_words(""))
                       .c_str());
      return exit_usage;
    }
    g.shard = std::move(*shard);
    g.shard.presplit = presplit;
    // A shard publishes nothing: what is announced is the merged set.
    if (!o.robots_path.empty() || !o.indexnow_key.empty()) {
      std::fprintf(stderr,
                   "sitemill generate: --shard publishes nothing until "
                   "'sitemill merge': announce (--robots, --indexnow-key) "
                   "after the merge, and give --out DIR\n");
      return exit_usage;
    }
  } else if (g.shard.presplit) {
    std::fprintf(stderr,
                 "sitemill generate: --shard-presplit says how a shard's "
                 "inputs are split; give --shard\n");
    return exit_usage;
  }

  // The directory source. --include and --exclude patterns keep the order
  // they were given in, since a later pattern wins (as in .gitignore).
  if (auto policy = parse_lastmod_policy(o.lastmod_policy_name))
    o.site.lastmod = *policy;
  if (!o.index_files.empty()) {
    o.site.index_files.clear();
    for (std::size_t start = 0; start <= o.index_files.size();) {
      std::size_t comma = o.index_files.find(',', start);
      if (comma == std::string::npos) comma = o.index_files.size();
      if (comma > start)
        o.site.index_files.push_back(
            o.index_files.substr(start, comma - start));
      start = comma + 1;
    }
  }
  o.site.map_index_files = !o.keep_index_files;
  o.site.honour_noindex = !o.ignore_noindex;
  o.site.honour_canonical = !o.ignore_canonical;
  o.site.honour_robots = !o.ignore_robots;
  o.site.skip_error_pages = !o.keep_error_pages;
  o.site.honour_refresh = !o.keep_redirects;
  // The patterns, in the order given: a directory applies them to its
  // files after its defaults (*.html, *.htm), every other source to its
  // URLs' paths. Those of a config file come first (include, exclude,
  // include-regex, exclude-regex), so a flag's patterns, later, win; a flag
  // replaces the file's values of the same option.
  std::vector<site_pattern> patterns;
  {
    std::size_t next[4] = {};
    const CLI::Option* opts[4] = {o.include_opt, o.exclude_opt,
                                  o.include_regex_opt, o.exclude_regex_opt};
    const auto& given = o.command->parse_order();
    for (int k = 0; k < 4; ++k)
      if (opts[k]->count() > 0 &&
          std::find(given.begin(), given.end(), opts[k]) == given.end())
        for (const auto& p : opts[k]->as<std::vector<std::string>>())
          patterns.push_back({p, /*include=*/k % 2 == 0, /*regex=*/k >= 2});
    for (const CLI::Option* opt : given)
      for (int k = 0; k < 4; ++k)
        if (opt == opts[k])
          patterns.push_back(
              {opts[k]->as<std::vector<std::string>>()[next[k]++],
               /*include=*/k % 2 == 0, /*regex=*/k >= 2});
  }
  if (!patterns.empty()) {
    o.site.patterns = default_site_patterns();
    o.site.patterns.insert(o.site.patterns.end(), patterns.begin(),
                           patterns.end());
    g.url_patterns = std::move(patterns);
  }

  if (o.rewrite_base.size() == 2)
    o.sitemap.rewrite_base = {o.rewrite_base[0], o.rewrite_base[1]};

  for (const auto& path : o.inputs)
    g.sources.push_back(list_source(path, format, columns));
  for (const auto& dir : o.from_dirs) {
    site_source_options site = o.site;
    site.root = dir;
    std::error_code ignored;
    if (!g.manifest_dir.empty() &&
        std::filesystem::equivalent(dir, g.out_dir, ignored))
      site.manifest_dir = g.manifest_dir;
    g.sources.push_back(directory_source(std::move(site)));
  }
  for (const auto& location : o.from_sitemaps) {
    sitemap_source_options sitemap = o.sitemap;
    trace_walk(sitemap, sitemap.http);
    sitemap.location = location;
    g.sources.push_back(sitemap_source(std::move(sitemap)));
  }

  if (!o.from_logs.empty()) {
    log_source_options logs = o.logs;
    logs.paths = o.from_logs;
    logs.priority_from_popularity = o.log_priority == "popularity";
    g.sources.push_back(log_source(std::move(logs)));
  } else if (o.logs.keep_query || !o.log_priority.empty()) {
    std::fprintf(stderr,
                 "sitemill generate: --log-keep-query and --priority "
                 "apply to the pages of --from-log; give an access log\n");
    return exit_usage;
  }

  // The reporter is made below, after the sources; the crawls' progress
  // reaches it through this pointer, set before generate() runs.
  auto crawl_reporter = std::make_shared<reporter*>(nullptr);
  for (const auto& start : o.from_crawls) {
    crawl_options crawl = o.crawl;
    crawl.start_url = start;
    crawl.images = o.site.images;
    crawl.ignore_noindex = o.ignore_noindex;
    crawl.ignore_canonical = o.ignore_canonical;
    crawl.respect_robots = !o.ignore_robots;
    crawl.allow_private = o.sitemap.allow_private;
    crawl.patterns = g.url_patterns;
    crawl.progress = [crawl_reporter](const crawl_progress& p) {
      if (*crawl_reporter != nullptr) (*crawl_reporter)->crawl_progress(p);
    };
    g.sources.push_back(crawl_source(std::move(crawl)));
  }

  // Lists and sitemaps carry their images themselves; a flag that would
  // change nothing is a mistake worth saying.
  if (o.site.images && o.from_dirs.empty() && o.from_crawls.empty()) {
    std::fprintf(stderr,
                 "sitemill generate: --images lists the images of the pages "
                 "of --from-dir and --from-crawl; give a site directory or a "
                 "start URL\n");
    return exit_usage;
  }

  if (!o.indexnow_key.empty()) {
    if (!is_valid_indexnow_key(o.indexnow_key)) {
      std::fprintf(stderr,
                   "sitemill generate: --indexnow-key must be 8 to 128 of A-Z "
                   "a-z 0-9 and -\n");
      return exit_usage;
    }
    if (g.state_path.empty()) {
      std::fprintf(
          stderr,
          "sitemill generate: --indexnow-key needs --state, so that only the "
          "URLs "
          "added or changed since the last run are sent (as IndexNow asks)\n");
      return exit_usage;
    }
  }

  detail::generate_testing testing;
  if (const char* spec = std::getenv("SITEMILL_TEST_KILL_AT")) {
    auto hook = kill_at_hook(spec);
    if (!hook) {
      std::fprintf(stderr,
                   "sitemill generate: SITEMILL_TEST_KILL_AT must be STEP:N\n");
      return exit_usage;
    }
    testing.hook = std::move(*hook);
  }

  const vocabulary words = generate_words(o.indexnow_key);
  reporter rep(o.json_out, o.quiet, words);
  *crawl_reporter = &rep;
  generate_report r = detail::generate(g, rep, testing);
  rep.clear_progress();
  rep.print_hidden_count();
  if (!o.quiet) print_lastmod_summary(r);

  if (r.outcome == generate_outcome::published && g.output != nullptr) {
    if (!o.quiet)
      std::fprintf(stderr,
                   "sitemill: wrote %llu URLs to stdout (%llu duplicates, "
                   "%llu rejected, from %llu records)\n",
                   static_cast<unsigned long long>(r.written),
                   static_cast<unsigned long long>(r.duplicates),
                   static_cast<unsigned long long>(r.rejected),
                   static_cast<unsigned long long>(r.records));
    int code = exit_ok;
    for (const announcement& one : announce(o, r, words))
      code = std::max(code, print_announcement(one, o.quiet));
    return code;
  }
  if (r.outcome == generate_outcome::published && !r.shard_dir.empty()) {
    if (!o.quiet) print_shard_summary(r, g.shard, g.out_dir);
    if (o.json_out) print_json(r, rep, {});
    return exit_ok;
  }
  if (r.outcome == generate_outcome::published) {
    if (!o.quiet) print_summary(r);
    const std::vector<announcement> done = announce(o, r, words);
    if (o.json_out) print_json(r, rep, done);
    int code = exit_ok;
    for (const announcement& one : done)
      code = std::max(code, print_announcement(one, o.quiet));
    return code;
  }
  if (o.json_out) print_json(r, rep, {});
  std::fprintf(stderr, "sitemill generate: %s\n",
               in_cli_words(r.message, words).c_str());
  switch (r.outcome) {
    case generate_outcome::no_valid_urls:
    case generate_outcome::strict_failed:
    case generate_outcome::needs_several_files:
      return exit_data;
    case generate_outcome::cancelled:
      return exit_interrupted;
    default:
      return exit_usage;
  }
}

}  // namespace

command_runner setup_generate(CLI::App& app) {
  auto o = std::make_shared<generate_cli_options>();
  CLI::App* cmd = app.add_subcommand(
      "generate",
      "Turn lists of a site's URLs into a published sitemap set.\n"
      "Inputs are .txt (one URL per line), .tsv/.csv (header row with loc and "
      "optional\n"
      "lastmod, changefreq, priority), .jsonl/.ndjson (one object per line), "
      "or - for\n"
      "stdin (txt unless --input-format); gzipped inputs are read as well.\n"
      "Extensions (docs/inputs.md): JSONL keys alternates, images, videos, "
      "news, e.g.\n"
      "  {\"loc\": \"https://ex.com/a\", \"alternates\": {\"de\": "
      "\"https://ex.com/de/a\"},\n"
      "   \"images\": [\"https://ex.com/a.jpg\"]}\n"
      "and CSV/TSV columns such as image, image2, image:caption, "
      "alternate:de,\n"
      "video:title, news:title, news:publication_date.\n"
      "URLs are normalised (RFC 3986), must be http(s) under --base-url, and "
      "are written\n"
      "once each; files split at 50,000 URLs / 52,428,800 bytes and get an "
      "index.\n"
      "Publishing is atomic: a failed or killed run leaves the old set as it "
      "was.");
  o->command = cmd;
  cmd->add_option(
      "inputs", o->inputs,
      "URL lists (.txt, .tsv, .csv, .jsonl, .ndjson, gzipped or not), or - for "
      "stdin");
  cmd->add_option("--base-url", o->base_urls,
                  "URL of the directory the set is published at; relative "
                  "inputs resolve against it and every URL must be at or "
                  "below it. Repeat it for a site on several hosts (or "
                  "directories): each gets its own set in OUT/HOST[/PATH]/, "
                  "holding the URLs under it; relative inputs and --from-dir "
                  "pages go to the first (docs/hosts.md)")
      ->required()
      ->allow_extra_args(false);
  cmd->add_option("--out", o->run.out_dir,
                  "Output directory (created if missing); - writes the one "
                  "sitemap of a small set (up to 50,000 URLs and 50 MiB) to "
                  "stdout as plain XML, and refuses a set that needs an "
                  "index")
      ->required();
  cmd->add_option("--manifest-dir", o->run.manifest_dir,
                  "Where sitemill keeps the set's manifest, journal and lock "
                  "(default: .sitemill/NAME/ beside --out, NAME being "
                  "--out's own name, so a deploy of --out never carries "
                  "them; docs/publishing.md)");
  cmd->add_option("--input-format", o->input_format, "Force the input format")
      ->check(CLI::IsMember({"txt", "tsv", "csv", "jsonl", "ndjson"}));
  cmd->add_option(
      "--columns", o->columns,
      "tsv/csv columns, in one of two forms (docs/inputs.md lists every "
      "name):\n"
      "by header name, for a file whose header row has its own names: "
      "COLUMN=NAME pairs,\n"
      "e.g. loc=url,lastmod=updated_at,image=image_url,image:caption=alt "
      "(the header's\n"
      "other columns are ignored; jsonl: top-level keys by the same "
      "pairs);\nin order, for a file without a header row, e.g.\n"
      "loc,lastmod,-,image:caption (- skips a column; a first row that is "
      "still a header,\n"
      "its loc cell \"url\" or not a URL above rows of URLs, is skipped "
      "with a warning)");
  cmd->add_option("--format", o->format,
                  "Sitemap format: xml (urlset) or txt (one URL per line)")
      ->check(CLI::IsMember({"xml", "txt"}))
      ->capture_default_str();
  cmd->add_flag("--no-gzip", o->no_gzip,
                "Write plain .xml/.txt instead of .xml.gz/.txt.gz");
  cmd->add_option("--compression", o->compression_name,
                  "gzip level: fast (ISA-L), normal (libdeflate 6, smaller "
                  "than gzip -6) "
                  "or best (libdeflate 12)")
      ->check(CLI::IsMember({"fast", "normal", "best"}))
      ->capture_default_str();
  cmd->add_flag("--fast", o->fast, "Same as --compression fast");
  cmd->add_option("--max-urls", o->run.max_urls,
                  "URLs per file, at most 50,000")
      ->check(CLI::Range(1, 50'000))
      ->capture_default_str();
  cmd->add_option("--max-bytes", o->run.max_bytes,
                  "Uncompressed bytes per file, at most 52,428,800 (10485760 "
                  "gives the old "
                  "10 MB limit)")
      ->check(CLI::Range(256, 52'428'800))
      ->capture_default_str();
  cmd->add_option(
         "--index", o->index,
         "The entry is always NAME.xml. auto: it is an index unless the set "
         "is one plain XML file (--no-gzip, under the limits); always: an "
         "index even then")
      ->check(CLI::IsMember({"auto", "always"}))
      ->capture_default_str();
  cmd->add_option(
         "--xsl", o->run.xsl_href,
         "Add <?xml-stylesheet type=\"text/xsl\" href=URL?> to every XML "
         "file. default: write sitemill's own stylesheet beside the set "
         "(NAME-<hash>.xsl, published with it) and refer to it, so a browser "
         "that still applies XSLT shows each sitemap as a table (not for "
         ".xml.gz files: add --no-gzip; docs/browser-view.md)")
      ->type_name("URL|default");
  cmd->add_flag(
      "--html", o->run.html_view,
      "Also write a plain HTML view of the set beside it, published with it: "
      "NAME.html lists the sitemaps (URLs, newest lastmod) and links to "
      "pages of their URLs; no scripts, works in every browser and prints "
      "(docs/browser-view.md)");
  cmd->add_option("--html-page-urls", o->run.html_page_urls,
                  "URLs per page of the --html view")
      ->check(CLI::Range(1, 50'000))
      ->capture_default_str();
  cmd->add_option("--name", o->run.name,
                  "File name stem: STEM.xml, STEM-1-<hash>.xml.gz, ...")
      ->capture_default_str();
  cmd->add_option("--threads", o->run.threads,
                  "Compression threads (0: one per core)")
      ->capture_default_str();
  auto* scale = "Scale (docs/scaling.md)";
  cmd->add_option("--shard", o->shard,
                  "Be shard I of N (from 0) of a sharded run: keep the URLs "
                  "that hash to I, write them beside --out, publish nothing "
                  "until 'sitemill merge'. auto: a Slurm job array's task; "
                  "auto/N: a Kubernetes Indexed Job's or GNU parallel's job")
      ->type_name("I/N|auto|auto/N")
      ->group(scale);
  cmd->add_flag("--shard-presplit", o->run.shard.presplit,
                "The inputs hold only this shard's URLs (an export split by "
                "the shard hash): judge every record, filter none")
      ->group(scale);
  cmd->add_option("--memory-budget", o->run.memory_budget,
                  "Memory for duplicate detection (16M, 256MiB, bytes); past "
                  "it, URLs are checked on disk and the same files are "
                  "written (docs/scaling.md)")
      // Checked before the conversion, which would wrap "-5" to 2^64 - 5.
      ->check(CLI::Validator(
          [](const std::string& v) {
            return v.find('-') == std::string::npos
                       ? std::string()
                       : "a size may not be negative: " + v;
          },
          "SIZE"))
      ->transform(CLI::AsSizeValue(false))
      ->default_str("16MiB");
  auto* filters = "Filters (every source; docs/filters.md)";
  auto pattern_option = [&](const char* name, const char* help,
                            const char* type) {
    return cmd->add_option(std::string(name))
        ->description(help)
        ->group(filters)
        ->type_name(type)
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  };
  o->include_opt = pattern_option(
      "--include",
      "List what matches GLOB, matched against the URL's path below "
      "--base-url (\"blog/**\", \"*.pdf\"), or for --from-dir the file's "
      "path; gitignore rules, the last matching pattern wins. A directory "
      "lists *.html and *.htm unless told; other sources list every URL",
      "GLOB");
  o->exclude_opt = pattern_option(
      "--exclude",
      "Leave out what matches GLOB (\"admin/\": a directory and all below "
      "it; \"*.pdf\": a name at any depth; \"/about.html\": from the base)",
      "GLOB");
  o->include_regex_opt = pattern_option(
      "--include-regex",
      "As --include, with an RE2 regular expression searched for in the "
      "path (a directory's ends in /); anchor with ^ and $",
      "RE");
  o->exclude_regex_opt = pattern_option(
      "--exclude-regex", "As --exclude, with an RE2 regular expression", "RE");
  auto* site = "Sources: a site's output directory";
  cmd->add_option(
         "--from-dir", o->from_dirs,
         "Walk a site's output directory for pages (HTML by default; see "
         "--include). "
         "Error pages (404.html, 500.html, 404/index.html), meta refresh "
         "redirect stubs, pages with meta robots noindex, a canonical link to "
         "another URL, or disallowed by the directory's robots.txt are "
         "skipped and reported")
      ->group(site);
  cmd->add_option("--lastmod", o->lastmod_policy_name,
                  "lastmod of directory pages: mtime (file time), content "
                  "(when the content last changed, needs --state), page (the "
                  "date the page states: article:modified_time, JSON-LD "
                  "dateModified, itemprop dateModified, og:updated_time, meta "
                  "lastmod; pages stating none are dated by content with "
                  "--state, else get no lastmod) or none")
      ->check(CLI::IsMember({"mtime", "content", "page", "none"}))
      ->capture_default_str()
      ->group(site);
  cmd->add_option(
         "--state", o->run.state_path,
         "SQLite state file: content hashes for --lastmod content (and for "
         "--lastmod page, the pages that state no date); with it, "
         "--json lists "
         "the URLs added, changed and removed since the last published run")
      ->group(site);
  cmd->add_option("--index-files", o->index_files,
                  "File names that stand for their directory's URL (default "
                  "index.html,index.htm)")
      ->group(site);
  cmd->add_flag("--keep-index-files", o->keep_index_files,
                "List a/index.html as a/index.html, not a/")
      ->group(site);
  cmd->add_flag("--ignore-noindex", o->ignore_noindex,
                "List pages with meta robots noindex")
      ->group(site);
  cmd->add_flag("--ignore-canonical", o->ignore_canonical,
                "List pages whose canonical link names another URL")
      ->group(site);
  cmd->add_flag("--ignore-robots", o->ignore_robots,
                "List pages the site's robots.txt disallows")
      ->group(site);
  cmd->add_flag("--keep-error-pages", o->keep_error_pages,
                "List error pages: HTML files named for an HTTP error status "
                "(404.html, 500.htm) and index files of directories so named "
                "(404/index.html)")
      ->group(site);
  cmd->add_flag("--keep-redirects", o->keep_redirects,
                "List pages whose <meta http-equiv=\"refresh\"> sends to "
                "another URL (redirect stubs); the other rules still apply")
      ->group(site);
  cmd->add_flag("--clean-urls", o->site.clean_urls,
                "List x.html and x.htm as x, for hosts that serve them so "
                "(index files still stand for their directory)")
      ->group(site);
  cmd->add_flag("--images", o->site.images,
                "Also list each page's content images as image:image: <img> "
                "(the largest of srcset, data-src of lazy loaders), "
                "og:image; absolute http(s), any host, first 1,000 per page; "
                "not 1-pixel trackers, data: URIs or <picture> sources. "
                "hreflang alternates in <head> are always read")
      ->group(site);
  auto* maps = "Sources: existing sitemaps";
  cmd->add_option("--from-sitemap", o->from_sitemaps,
                  "Read an existing sitemap, index (children followed), text "
                  "sitemap or feed, "
                  "local or http(s), gzipped or not; its lastmod, changefreq "
                  "and priority carry "
                  "over. Fetches stay on its host and port, and off "
                  "loopback and private addresses it does not name itself "
                  "(as check's fetch scope)")
      ->group(maps);
  cmd->add_flag("--allow-private", o->sitemap.allow_private,
                "With --from-sitemap: fetch from loopback and private "
                "addresses that the location does not name (an intranet "
                "site whose name resolves to 10.x)")
      ->group(maps);
  cmd->add_option("--rewrite-base", o->rewrite_base,
                  "OLD NEW: rewrite locs starting with OLD to start with NEW "
                  "(site migrations)")
      ->expected(2)
      ->group(maps);
  auto* crawl = "Sources: a crawl of the live site (docs/crawl.md)";
  cmd->add_option("--from-crawl", o->from_crawls,
                  "Crawl the site from this URL (repeatable): pages in its "
                  "directory reached by links, answered 200 text/html, not "
                  "noindex, not canonical elsewhere; robots.txt obeyed; "
                  "--ignore-noindex, --ignore-canonical, --ignore-robots, "
                  "--images and --allow-private apply as for --from-dir and "
                  "--from-sitemap")
      ->group(crawl);
  cmd->add_option("--concurrency", o->crawl.concurrency,
                  "Requests in flight at once to the crawled host")
      ->check(CLI::Range(1u, 64u))
      ->default_str("4")
      ->group(crawl);
  cmd->add_option("--max-pages", o->crawl.max_pages,
                  "Pages fetched at most; the rest are reported \"max pages\"")
      ->check(CLI::PositiveNumber)
      ->group(crawl);
  cmd->add_option("--max-depth", o->crawl.max_depth,
                  "Links followed at most from the start URL (0: the start "
                  "page only); deeper pages are reported \"max depth\"")
      ->check(CLI::NonNegativeNumber)
      ->group(crawl);
  cmd->add_option("--max-query-variants", o->crawl.max_query_variants,
                  "Distinct query strings crawled per path (calendars, "
                  "faceted search); more are reported \"trap cap\"")
      ->check(CLI::NonNegativeNumber)
      ->default_str("100")
      ->group(crawl);
  cmd->add_option("--max-page-size", o->crawl.max_page_bytes,
                  "Body bytes read per page (10MiB, 512k); a larger page is "
                  "reported \"too large\"")
      ->transform(CLI::AsSizeValue(false))
      ->default_str("10MiB")
      ->group(crawl);
  cmd->add_flag("--seed-sitemaps", o->crawl.seed_sitemaps,
                "Also start from the URLs of the sitemaps robots.txt names, "
                "so pages no link reaches are found")
      ->group(crawl);
  cmd->add_flag("--ignore-nofollow", o->crawl.ignore_nofollow,
                "Follow rel=\"nofollow\" links and the links of nofollow "
                "pages")
      ->group(crawl);
  cmd->add_option("--user-agent", o->crawl.user_agent,
                  "The User-Agent the crawl sends; robots.txt is obeyed for "
                  "its product token (default: sitemill/VERSION)")
      ->group(crawl);
  auto* logs = "Sources: access logs";
  cmd->add_option(
         "--from-log", o->from_logs,
         "Read a web server access log (Apache or nginx combined, common or "
         "vhost_combined format; gzipped or not; - for stdin) and list the "
         "pages it shows were served, each once, at --base-url's origin, "
         "without lastmod. Left out, and counted in one note per log: "
         "requests other than GET or HEAD of a path, answers other than 2xx "
         "or 304, bots and scripts (user agents with bot, crawl, spider, "
         "curl, wget, python-requests, headless, ...; an empty one), assets "
         "(css, js, images, fonts, media, source maps, archives, feeds, "
         "txt, json), paths with a query string, other vhosts, paths outside "
         "--base-url. A line that is not a log line is rejected with its "
         "line number (docs/access-logs.md)")
      ->group(logs)
      ->type_name("FILE");
  cmd->add_flag("--log-keep-query", o->logs.keep_query,
                "With --from-log: list requests with a query string too, "
                "each as its own URL (/search?q=a)")
      ->group(logs);
  cmd->add_option("--priority", o->log_priority,
                  "popularity: with --from-log, give each page a priority "
                  "from its request count, 0.1 + 0.9 * ln(1 + count) / ln(1 "
                  "+ max count) to one decimal (the most requested page gets "
                  "1.0); the logs are read twice, so not from stdin")
      ->check(CLI::IsMember({"popularity"}))
      ->group(logs);
  auto* notify = "Announcing the published set";
  cmd->add_option("--robots", o->robots_path,
                  "After publishing, make FILE (robots.txt) list the set's "
                  "entry as a Sitemap: line, keeping every other byte. With "
                  "several --base-url hosts, put {host} in FILE: each host's "
                  "set goes to its own robots.txt")
      ->group(notify);
  cmd->add_option(
         "--indexnow-key", o->indexnow_key,
         "After publishing, send the URLs added or changed since the last run "
         "(needs --state) to IndexNow with KEY")
      ->group(notify);
  cmd->add_option("--indexnow-endpoint", o->indexnow_endpoint,
                  "IndexNow endpoint")
      ->capture_default_str()
      ->group(notify);
  cmd->add_option("--indexnow-key-location", o->indexnow_key_location,
                  "URL of the key file when it is not https://HOST/KEY.txt")
      ->group(notify);
  cmd->add_flag("--news", o->run.news,
                "Write Google News sitemaps: articles (entries with news:news) "
                "of the last two days go to NAME-news-*.xml files of at most "
                "1,000 URLs, listed in the index; older ones keep their page "
                "in the other sitemaps without the news block. Without "
                "--news, news blocks are kept whatever their age");
  cmd->add_option("--now", o->now,
                  "The time --news measures article age from (a W3C "
                  "datetime; default: the system clock)");
  auto* dates = "Dates (lastmod)";
  cmd->add_option(
         "--date-format", o->run.date_format,
         "How lastmod values are read. auto: W3C datetimes "
         "(2025-05-14T10:23:00Z), SQL's 2025-05-14 10:23:00[.fraction] with an "
         "optional zone (Z, +02, +0200, +02:00; PostgreSQL's "
         "2025-05-14 10:23:00.123456+02), RFC 2822 and HTTP dates "
         "(Wed, 14 May 2025 10:23:00 GMT), Unix time (9-10 digits seconds, "
         "13 digits milliseconds). w3c: W3C datetimes only. Or a pattern of "
         "%Y %m %d %e %b %H %M %S %f %z %s %% and literal characters, e.g. "
         "\"%d/%m/%Y %H:%M\". Unreadable lastmods are dropped with a warning "
         "(the URL is kept) and summed up in one line")
      ->capture_default_str()
      ->group(dates);
  cmd->add_option("--timezone", o->run.time_zone,
                  "Zone of lastmod date-times that name none: an IANA name "
                  "(Europe/Berlin, DST-correct) or an offset (+02:00). "
                  "Without it they are read as UTC, with a warning per input")
      ->type_name("ZONE")
      ->group(dates);
  cmd->add_flag("--strict", o->run.strict,
                "Publish nothing if any record is rejected or any field is "
                "invalid (exit 1)");
  cmd->add_flag(
      "--json", o->json_out,
      "Print the run's report as one JSON object on stdout (entry, files, "
      "records, written, duplicates, rejected, warnings, skipped, lastmods, "
      "sets: one per --base-url; changes with --state; announce with "
      "--robots or --indexnow-key; docs/report-schema.md)");
  cmd->add_flag("-q,--quiet", o->quiet,
                "Print only rejected records and errors on stderr");
  cmd->footer(
      "Exit codes: 0 published; 1 nothing published because of the data "
      "(--strict and a\n"
      "bad record, or no valid URL at all); 2 usage or I/O error; 130 "
      "interrupted.\n"
      "Example: sitemill generate --base-url https://www.example.com/ --out "
      "public/ urls.txt\n"
      "Two hosts: sitemill generate --base-url https://www.shop.de/ "
      "--base-url https://www.shop.fr/\n"
      "  --out public/ --robots 'public/{host}/robots.txt' products.csv");
  return [o] { return run_generate(*o); };
}

}  // namespace sitemill::cli
