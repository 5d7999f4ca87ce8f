// The crawler: a fetcher (net/fetcher.h) on a thread of its own, a frontier
// (crawl_frontier.h) that decides what to fetch, and the page scan the
// directory source uses (scan_html, page_links) to read what came back.
// Records reach generate's reader thread through a bounded channel.
//
// Order: queue_ is the breadth-first order. Requests go out in that order,
// up to `window` ahead of the first page not yet judged; answers may come
// back in any order, but a page's links are discovered, and its record
// handed on, only once every page before it has been: commit() does it. So
// the crawl's outcome does not depend on timing.
#include "sitemill/crawl/crawl_source.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "crawl/crawl_cache.h"
#include "crawl/crawl_frontier.h"
#include "detail/inflate.h"
#include "detail/text.h"
#include "html/page_answer.h"
#include "html/page_links.h"
#include "sitemill/date/dates.h"
#include "sitemill/date/w3c_datetime.h"
#include "sitemill/entry/extensions.h"
#include "sitemill/html/html_page.h"
#include "sitemill/limits.h"
#include "sitemill/net/fetcher.h"
#include "sitemill/parse/sitemap_parser.h"
#include "sitemill/robots/robots.h"
#include "sitemill/robots/robots_rules.h"
#include "sitemill/source/site_source.h"
#include "sitemill/source/state_db.h"
#include "sitemill/url/url.h"

namespace sitemill {
namespace {

// What the crawl hands on: a listed page or a skipped URL, owning its text.
struct crawl_item {
  std::string loc;
  std::string lastmod;
  std::string skipped;  // the reason; "" for a listed page
  using value = detail::page_outcome::value;
  std::vector<value> extensions;
  std::optional<content_hash> hash;  // a listed page's, for --state
};

// From the crawl thread to the reader: bounded, so a crawl cannot run far
// ahead of a slow writer; either side may give up. The reader takes all
// that waits at once: taken one by one, each item woke the reader (a futex
// wake and two context switches: 7% of an unchanged re-crawl's cycles).
class item_channel {
 public:
  static constexpr std::size_t capacity = 4096;

  // False when the reader has gone.
  bool push(crawl_item item) {
    std::unique_lock lock(mu_);
    room_.wait(lock, [&] { return items_.size() < capacity || abandoned_; });
    if (abandoned_) return false;
    items_.push_back(std::move(item));
    if (items_.size() == 1) ready_.notify_one();
    return true;
  }
  void close(std::string error) {
    std::lock_guard lock(mu_);
    closed_ = true;
    error_ = std::move(error);
    ready_.notify_all();
  }
  void abandon() {
    std::lock_guard lock(mu_);
    abandoned_ = true;
    room_.notify_all();
  }
  // Moves every waiting item to `out` (empty); false at the end (error()
  // says whether it failed). Polls `stop` every 100 ms while it waits.
  bool pop_all(std::deque<crawl_item>& out, const std::atomic<bool>* stop,
               std::atomic<bool>& cancel) {
    std::unique_lock lock(mu_);
    for (;;) {
      if (!items_.empty()) {
        out.swap(items_);
        room_.notify_all();
        return true;
      }
      if (closed_) return false;
      if (stop != nullptr && stop->load()) cancel = true;
      ready_.wait_for(lock, std::chrono::milliseconds(100));
    }
  }
  std::string error() const {
    std::lock_guard lock(mu_);
    return error_;
  }

 private:
  mutable std::mutex mu_;
  std::condition_variable ready_, room_;
  std::deque<crawl_item> items_;
  bool closed_ = false;
  bool abandoned_ = false;
  std::string error_;
};

// A gzipped seed sitemap, inflated up to the protocol's limit (a bomb
// costs no more); what inflates badly gives what came before it.
std::string gunzip_sitemap(std::string_view bytes) {
  detail::gzip_inflater inflater(max_bytes_per_sitemap + 1);
  std::string out;
  char buf[64 * 1024];
  for (;;) {
    const auto step =
        inflater.inflate(bytes.data(), bytes.size(), buf, sizeof buf);
    out.append(buf, step.produced);
    bytes.remove_prefix(step.consumed);
    if (step.result != detail::gzip_inflater::status::ok) break;
    if (bytes.empty() && step.produced < sizeof buf) break;
  }
  return out;
}

// Collects the <loc>s of a sitemap or index.
class loc_collector final : public parse_handler {
 public:
  void on_document(document_kind kind) override {
    index = kind == document_kind::sitemapindex;
  }
  void on_entry(const parsed_entry& e) override {
    locs.emplace_back(e.loc.text);
  }
  bool index = false;
  std::vector<std::string> locs;
};

// A fetched page to judge: what its answer said, and its body.
struct page_job {
  std::uint64_t tag = 0;
  std::string url;
  std::string body;
  std::string last_modified;
  bool header_noindex = false, header_nofollow = false;
};

// A link found on a page; same_depth for a redirect's target (crawled at
// the redirect's depth).
using found_link = detail::page_outcome::link;

// What a page's HTML says: its verdict ("" listed), the links to follow,
// and a listed page's lastmod and extensions.
struct page_verdict {
  std::uint64_t tag = 0;
  detail::page_outcome outcome;
};

// Reads a page with the directory source's scan (scan_html, page_links).
// Thread-safe given its own page_links.
page_verdict judge_page(const crawl_options& o, const page_job& job,
                        detail::page_links& links) {
  page_verdict out;
  out.tag = job.tag;
  normalized_url page;
  if (normalize_url(job.url, page) != url_problem::ok) {
    out.outcome.verdict = "fetch failed: not a URL";
    return out;
  }
  html_scan_options scan;
  scan.links = true;
  scan.images = o.images;
  const html_facts facts = scan_html(job.body, scan);
  detail::page_link_options want;
  want.refresh = false;
  want.images = o.images;
  want.links = true;
  links.resolve(page, facts, want);

  const bool noindex =
      o.rules.honour_noindex && (facts.noindex || job.header_noindex);
  const bool nofollow =
      o.rules.honour_nofollow && (facts.nofollow || job.header_nofollow);
  if (!nofollow) {
    for (const detail::resolved_link& l : links.links()) {
      if (l.nofollow && o.rules.honour_nofollow) continue;
      out.outcome.found.push_back({l.href, false});
    }
  }
  if (noindex) {
    out.outcome.verdict = "noindex";
  } else if (o.rules.honour_canonical && !links.canonical().empty() &&
             links.canonical().href() != page.href()) {
    out.outcome.verdict = "canonical";
  } else {
    out.outcome.lastmod = detail::lastmod_from_http(job.last_modified);
    out.outcome.hash = facts.hash;
    for (const extension_value& v : links.extensions())
      out.outcome.extensions.push_back({v.field, v.item, std::string(v.text)});
  }
  return out;
}

// Parsing was most of a crawl's CPU time (gumbo: 72% of a 20,000-page
// crawl's cycles in perf, before html_tokenizer replaced it), so pages are
// judged on threads of their own, one per core (with one fewer, the crawl
// used 120% of 2 cores and took 13.3 s; with one per core 184% and 10.0 s),
// while the crawl thread keeps the transfers going; the crawl thread takes
// the verdicts back in any order (commit() restores the queue's). At most
// max_backlog body bytes wait: past it the crawl thread judges the page
// itself, which slows the fetching down to the parsing.
class page_judges {
 public:
  static constexpr std::size_t max_backlog = 32u << 20;

  page_judges(const crawl_options& o, unsigned threads) : o_(o) {
    for (unsigned i = 0; i < threads; ++i)
      threads_.emplace_back([this] { work(); });
  }
  ~page_judges() {
    {
      std::lock_guard lock(mu_);
      stopping_ = true;
    }
    work_ready_.notify_all();
    for (auto& t : threads_) t.join();
  }

  // False when the backlog is full: judge the page here.
  bool submit(page_job& job) {
    std::lock_guard lock(mu_);
    if (backlog_ + job.body.size() > max_backlog && !jobs_.empty())
      return false;
    backlog_ += job.body.size();
    ++pending_;
    jobs_.push_back(std::move(job));
    work_ready_.notify_one();
    return true;
  }

  // The verdicts ready so far (none without taking the lock when there are
  // none, as on most calls).
  std::vector<page_verdict> take() {
    std::vector<page_verdict> out;
    if (ready_count_.load(std::memory_order_acquire) == 0) return out;
    std::lock_guard lock(mu_);
    out.swap(ready_);
    ready_count_.store(0, std::memory_order_release);
    return out;
  }

  // Waits until a verdict is ready or none is pending; the number pending.
  std::size_t wait_any() {
    std::unique_lock lock(mu_);
    done_.wait(lock, [&] { return !ready_.empty() || pending_ == 0; });
    return pending_;
  }

 private:
  void work() {
    detail::page_links links;
    std::unique_lock lock(mu_);
    for (;;) {
      work_ready_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;
      page_job job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      page_verdict v;
      try {
        v = judge_page(o_, job, links);
      } catch (const std::exception& e) {
        v.tag = job.tag;
        v.outcome.verdict = std::string("fetch failed: ") + e.what();
      }
      lock.lock();
      backlog_ -= job.body.size();
      --pending_;
      ready_.push_back(std::move(v));
      ready_count_.store(ready_.size(), std::memory_order_release);
      done_.notify_all();
    }
  }

  const crawl_options& o_;
  std::mutex mu_;
  std::condition_variable work_ready_, done_;
  std::deque<page_job> jobs_;
  std::vector<page_verdict> ready_;
  std::atomic<std::size_t> ready_count_{0};
  std::size_t backlog_ = 0;
  std::size_t pending_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

class crawl_run final : public fetch_handler {
 public:
  crawl_run(const crawl_options& o, normalized_url start, item_channel& out,
            std::atomic<bool>& cancel,
            std::unique_ptr<detail::crawl_cache> cache)
      : o_(o),
        start_(std::move(start)),
        token_(robots_product_token(user_agent())),
        out_(out),
        cancel_(cancel),
        frontier_({o.max_depth, o.max_query_variants},
                  o.rules.honour_robots ? &robots_ : nullptr),
        fetcher_(fetch_options_for(o)),
        judges_(o, std::clamp(std::thread::hardware_concurrency(), 2u, 8u)),
        cache_(std::move(cache)) {
    if (!o.patterns.empty()) {
      auto made = site_patterns::make(o.patterns);
      if (made) patterns_ = std::move(*made);  // validate() said otherwise
    }
  }

  // Crawls to the end, or until cancelled; then closes the channel.
  void run() {
    std::string error;
    try {
      if (cache_) {
        bool resuming = false;
        auto id = cache_->begin(start_.href(), resuming);
        if (!id) throw std::runtime_error(id.err().message);
        crawl_id_ = *id;
      }
      fetcher_.submit({robots_url(), {}, fetch_method::get, robots_tag});
      // The fetcher stops when nothing is queued or in flight; pages still
      // being judged may then send more.
      bool drained = false;
      for (;;) {
        drained = fetcher_.run(*this);
        if (!drained || !fatal_.empty()) break;
        const bool more_coming = judges_.wait_any() != 0;
        if (!absorb_ready() && !more_coming) break;
      }
      if (!fatal_.empty()) {
        error = fatal_;
      } else if (!drained) {
        error = "cancelled";
      } else {
        finish();
      }
    } catch (const std::exception& e) {
      error = e.what();
    }
    out_.close(std::move(error));
  }

  bool on_head(std::uint64_t tag, const http_head& head) override {
    (void)absorb_ready();
    if (tag >= sitemap_tag) return head.status == 200;
    node& n = at(tag);
    n.etag = head.etag;
    n.last_modified = head.last_modified;
    if (head.status == 304 && n.known) {  // unchanged since the last crawl
      n.confirmed = (head.etag.empty() || head.etag == n.known->etag) &&
                    (head.last_modified.empty() ||
                     head.last_modified == n.known->last_modified);
      take_known(n);
      // A 304 has no body: "read" it, since refusing one ends the transfer
      // by closing its connection, and an unchanged re-crawl is all 304s.
      return true;
    }
    n.judged = true;  // unless the body is read below
    if (head.status >= 300 && head.status < 400 && !head.location.empty()) {
      n.outcome.verdict = "redirect";
      normalized_url from, to;
      if (normalize_url(n.url, from) == url_problem::ok &&
          resolve_url(head.location, from, to) == url_problem::ok) {
        // A start URL that sends elsewhere (http to https, no www to www)
        // would end the crawl before it began, with an empty set: say so.
        if (tag == 0 && !within_scope(to, start_)) {
          fatal_ = "the start URL " + std::string(start_.href()) +
                   " redirects to " + std::string(to.href()) +
                   ", outside its scope: start the crawl there";
          cancel_ = true;
        }
        n.outcome.found.push_back({std::string(to.href()), true});
      }
      return detail::drain_unwanted_body(head);
    }
    if (head.status != 200) {
      n.outcome.verdict = "status " + std::to_string(head.status);
      return detail::drain_unwanted_body(head);
    }
    if (!detail::is_html_media_type(head.content_type)) {
      normalized_url u;
      if (patterns_ && normalize_url(n.url, u) == url_problem::ok &&
          patterns_->decide(pattern_path(u), false) ==
              site_patterns::verdict::include) {
        // Listed as it is (a PDF --include names): nothing in it is read.
        n.outcome.lastmod = detail::lastmod_from_http(head.last_modified);
        return detail::drain_unwanted_body(head);
      }
      n.outcome.verdict = "not html";
      return detail::drain_unwanted_body(head);
    }
    if (head.content_length && *head.content_length > o_.max_page_bytes) {
      n.outcome.verdict = "too large";
      return false;
    }
    n.judged = false;
    for (const std::string& v : head.x_robots_tag)
      detail::read_x_robots_tag(v, token_, n.header_noindex, n.header_nofollow);
    return true;
  }

  bool on_body(std::uint64_t tag, const char* data, std::size_t size) override {
    (void)absorb_ready();
    if (tag < sitemap_tag && at(tag).judged) return true;  // drained
    std::string& body = tag >= sitemap_tag ? sitemap_body_ : at(tag).body;
    const std::uint64_t cap =
        tag >= sitemap_tag ? max_bytes_per_sitemap + 1 : o_.max_page_bytes;
    if (body.size() + size > cap) {
      if (tag < sitemap_tag) {
        at(tag).outcome.verdict = "too large";
        at(tag).judged = true;
      }
      std::string().swap(body);
      return false;
    }
    body.append(data, size);
    return true;
  }

  void on_done(std::uint64_t tag, const fetch_outcome& outcome) override {
    tell_progress(false);
    if (tag == robots_tag) {
      robots_done(outcome);
    } else if (tag >= sitemap_tag) {
      sitemap_done(outcome);
    } else {
      page_done(tag, outcome);
      commit();
    }
    pump();
    (void)absorb_ready();
  }

 private:
  static constexpr std::uint64_t robots_tag = ~std::uint64_t{0};
  static constexpr std::uint64_t sitemap_tag = std::uint64_t{1} << 62;

  struct node {
    std::string url;
    std::size_t depth = 0;
    bool done = false;
    bool judged = false;  // by its head, or from the cache
    // A 304 confirmed the cache's row as it is (same validators): nothing
    // to write. A resumed crawl asks such a page again, for one more 304,
    // rather than every unchanged re-crawl rewriting every row (which cost
    // a third of its time, most of it the WAL's checkpoint).
    bool confirmed = false;
    std::string etag, last_modified;           // the answer's validators
    std::optional<detail::cached_page> known;  // from an earlier crawl
    bool header_noindex = false, header_nofollow = false;
    std::string body;
    detail::page_outcome outcome;
  };

  std::string user_agent() const {
    return o_.user_agent.empty() ? default_user_agent() : o_.user_agent;
  }

  fetch_options fetch_options_for(const crawl_options& o) {
    fetch_options f;
    f.concurrency = std::max(1u, o.concurrency);
    f.per_host = f.concurrency;
    f.retry = o.retry;
    f.http.connect_timeout = o.connect_timeout;
    f.http.total_timeout = o.timeout;
    // The fetcher's own cap is a backstop: on_body stops at ours, which
    // tells "too large" from a failed transfer.
    f.http.max_body_bytes =
        std::max<std::uint64_t>(o.max_page_bytes, max_bytes_per_sitemap) + 1;
    f.http.user_agent = user_agent();
    f.http.cancel = &cancel_;
    f.http.resolve = o.resolve;
    scope_.allow_private = o.allow_private;
    scope_.allow_target_host(start_.host());
    f.scope = &scope_;
    return f;
  }

  node& at(std::uint64_t tag) { return queue_[tag - base_]; }

  // A URL's path below the start URL's directory, as the patterns see it
  // ("blog/a.pdf"; no query).
  std::string_view pattern_path(const normalized_url& url) const {
    std::string_view path = url.path();
    const std::string_view dir =
        start_.scope_directory().substr(start_.origin().size());
    return path.substr(std::min(dir.size(), path.size()));
  }

  std::string robots_url() const {
    return std::string(start_.origin()) + "/robots.txt";
  }

  // robots.txt: 2xx read, 4xx none (RFC 9309 2.3.1.3: everything
  // allowed), anything else means the site cannot say, and RFC 9309
  // 2.3.1.4 says to crawl nothing then.
  void robots_done(const fetch_outcome& outcome) {
    const long status = outcome.head.status;
    if (outcome.ok() && status >= 200 && status < 300) {
      robots_ = parse_robots_rules(sitemap_body_, user_agent());
      for (auto& s : find_sitemaps(sitemap_body_, robots_url()).sitemaps)
        sitemaps_.push_back(std::move(s.url));
    } else if (!(outcome.ok() && status >= 400 && status < 500) &&
               o_.rules.honour_robots) {
      fatal_ =
          "cannot read " + robots_url() + " (" +
          (outcome.ok() ? "status " + std::to_string(status) : outcome.error) +
          "): RFC 9309 says to crawl nothing while it is unreachable; "
          "--ignore-robots crawls anyway";
      return;
    }
    sitemap_body_.clear();
    if (o_.rules.honour_robots) {
      if (auto delay = robots_.crawl_delay()) {
        fetcher_.set_host_delay(
            start_.href(),
            std::chrono::milliseconds(static_cast<long long>(*delay * 1000)));
      }
    }
    if (o_.seed_sitemaps && !sitemaps_.empty()) {
      next_sitemap();
    } else {
      begin_pages();
    }
  }

  // Seed sitemaps are fetched one at a time, in order (an index's children
  // in its place), so the seeds come in document order.
  void next_sitemap() {
    if (sitemap_at_ == sitemaps_.size() || sitemap_at_ > 1000) {
      begin_pages();
      return;
    }
    sitemap_body_.clear();
    fetcher_.submit({sitemaps_[sitemap_at_],
                     {},
                     fetch_method::get,
                     sitemap_tag + sitemap_at_});
  }

  void sitemap_done(const fetch_outcome& outcome) {
    const std::string where = sitemaps_[sitemap_at_++];
    if (outcome.ok() && outcome.head.status == 200) {
      std::string bytes = std::move(sitemap_body_);
      if (detail::starts_gzip(bytes)) bytes = gunzip_sitemap(bytes);
      loc_collector locs;
      parse_options p;
      p.schema_checks = false;
      parse_bytes(bytes, locs, p);
      if (locs.index) {
        sitemaps_.insert(
            sitemaps_.begin() + static_cast<std::ptrdiff_t>(sitemap_at_),
            locs.locs.begin(), locs.locs.end());
      } else {
        for (std::string& loc : locs.locs) seeds_.push_back(std::move(loc));
      }
    }
    next_sitemap();
  }

  void begin_pages() {
    discover(std::string(start_.href()), 0);
    for (const std::string& seed : seeds_) discover(seed, 0);
    seeds_.clear();
  }

  // A URL found: normalised, session ids removed, in scope, then judged by
  // the frontier.
  void discover(const std::string& href, std::size_t depth) {
    normalized_url url;
    if (normalize_url(href, url) != url_problem::ok) return;
    detail::strip_session_ids(url);
    if (!within_scope(url, start_)) return;
    switch (frontier_.discover(url, depth)) {
      case detail::discovery::queued:
        if (patterns_ && !patterns_->keeps_url_path(pattern_path(url))) {
          emit_skip(url.href(), "excluded by --include/--exclude");
          break;
        }
        queue_.emplace_back();
        queue_.back().url = std::string(url.href());
        queue_.back().depth = depth;
        break;
      case detail::discovery::robots:
        emit_skip(url.href(), "robots");
        break;
      case detail::discovery::trap_cap:
        emit_skip(url.href(), "trap cap");
        break;
      case detail::discovery::seen:
      case detail::discovery::too_deep:
        break;
    }
  }

  void page_done(std::uint64_t tag, const fetch_outcome& outcome) {
    ++fetched_;
    node& n = at(tag);
    if (n.judged || !outcome.ok()) {  // by its head, or the cache
      std::string().swap(n.body);
      n.done = true;
      if (!n.judged) {
        n.outcome.verdict = "fetch failed: " + outcome.error;  // not remembered
        ++errors_;
      } else {
        remember(n);
      }
      return;
    }
    page_job job;
    job.tag = tag;
    job.url = n.url;
    job.body = std::move(n.body);
    job.last_modified = outcome.head.last_modified;
    job.header_noindex = n.header_noindex;
    job.header_nofollow = n.header_nofollow;
    if (!judges_.submit(job)) absorb(judge_page(o_, job, links_));
  }

  // A verdict back from the judges (or from this thread).
  void absorb(page_verdict v) {
    node& n = at(v.tag);
    n.done = true;
    n.outcome = std::move(v.outcome);
    remember(n);
  }

  // The verdict of a page judged before: this crawl's (resuming) or an
  // earlier one's (a 304).
  void take_known(node& n) {
    detail::cached_page& k = *n.known;
    n.judged = true;
    n.outcome = std::move(k.outcome);
    if (n.etag.empty()) n.etag = std::move(k.etag);
    if (n.last_modified.empty()) n.last_modified = std::move(k.last_modified);
    n.known.reset();
  }

  // With --state, what this crawl made of a page.
  void remember(const node& n) {
    if (!cache_) return;
    if (n.confirmed) return;
    detail::cached_page p;
    p.crawl = crawl_id_;
    p.etag = n.etag;
    p.last_modified = n.last_modified;
    p.outcome = n.outcome;
    if (status s = cache_->put(n.url, p); !s) {
      fatal_ = s.message();
      cancel_ = true;
    }
  }

  // Takes in the judges' verdicts so far, then commits and sends what
  // follows; false when there were none.
  bool absorb_ready() {
    std::vector<page_verdict> ready = judges_.take();
    if (ready.empty()) return false;
    for (page_verdict& v : ready) absorb(std::move(v));
    commit();
    pump();
    return true;
  }

  // Judges the pages at the head of the queue whose answers are in, in
  // queue order: their links are discovered, their records handed on.
  void commit() {
    while (!queue_.empty()) {
      node& n = queue_.front();
      if (base_ >= o_.max_pages) {
        n.outcome.verdict = "max pages";
      } else if (!n.done) {
        return;
      }
      for (const found_link& f : n.outcome.found)
        discover(f.href, f.same_depth ? n.depth : n.depth + 1);
      crawl_item item;
      item.loc = std::move(n.url);
      item.skipped = std::move(n.outcome.verdict);
      item.lastmod = std::move(n.outcome.lastmod);
      item.extensions = std::move(n.outcome.extensions);
      item.hash = n.outcome.hash;
      ++(item.skipped.empty() ? listed_ : skipped_);
      queue_.pop_front();
      ++base_;
      if (!out_.push(std::move(item))) {
        cancel_ = true;
        return;
      }
    }
  }

  // Sends the next pages in queue order, at most `window` past the first
  // page not yet judged (answers that come early wait in their node).
  void pump() {
    const std::uint64_t window = 8 * std::max(1u, o_.concurrency);
    for (;;) {
      while (next_ < base_ + queue_.size() && next_ < o_.max_pages &&
             next_ < base_ + window) {
        node& n = at(next_);
        fetch_request r{n.url, {}, fetch_method::get, next_};
        ++next_;
        if (cache_ && !ask_cache(n, r)) continue;  // judged before: resumed
        fetcher_.submit(std::move(r));
      }
      // Pages resumed from the cache, and pages past max_pages, need no
      // answer: commit them now, which may queue more to send.
      const std::uint64_t before = base_;
      commit();
      if (base_ == before || cancel_) return;
    }
  }

  // With --state: false when this crawl judged `n` before it was
  // interrupted (it is resumed from the cache, and not asked again); else
  // `r` asks conditionally when an earlier crawl saw the page.
  bool ask_cache(node& n, fetch_request& r) {
    auto known = cache_->find(n.url);
    if (!known) {
      fatal_ = known.err().message;
      cancel_ = true;
      return true;
    }
    n.known = std::move(*known);
    if (!n.known) return true;
    if (n.known->crawl == crawl_id_) {
      take_known(n);
      n.done = true;
      return false;
    }
    if (!n.known->etag.empty())
      r.headers.emplace_back("If-None-Match", n.known->etag);
    if (!n.known->last_modified.empty())
      r.headers.emplace_back("If-Modified-Since", n.known->last_modified);
    return true;
  }

  // Tells options.progress where the crawl is, at most every 250 ms
  // unless it is the end.
  void tell_progress(bool done) {
    if (!o_.progress) return;
    const auto now = std::chrono::steady_clock::now();
    if (!done && now - last_progress_ < std::chrono::milliseconds(250)) return;
    last_progress_ = now;
    const fetch_counters c = fetcher_.counters();
    crawl_progress p;
    p.fetched = fetched_;
    p.errors = errors_;
    p.queued =
        c.queued + (base_ + queue_.size() -
                    std::min<std::uint64_t>(next_, base_ + queue_.size()));
    p.listed = listed_;
    p.skipped = skipped_;
    p.bytes = c.bytes;
    p.seconds = std::chrono::duration<double>(now - began_).count();
    p.done = done;
    o_.progress(p);
  }

  void finish() {
    commit();
    if (cache_) {
      if (status s = cache_->finish(start_.href()); !s)
        throw std::runtime_error(s.message());
    }
    for (const std::string& url : frontier_.too_deep())
      emit_skip(url, "max depth");
    tell_progress(true);
  }

  void emit_skip(std::string_view url, std::string reason) {
    ++skipped_;
    crawl_item item;
    item.loc = std::string(url);
    item.skipped = std::move(reason);
    if (!out_.push(std::move(item))) cancel_ = true;
  }

  const crawl_options& o_;
  normalized_url start_;
  std::string token_;
  item_channel& out_;
  std::atomic<bool>& cancel_;
  robots_rules robots_;
  detail::crawl_frontier frontier_;
  fetch_scope scope_;
  fetcher fetcher_;
  detail::page_links links_;  // for pages judged on this thread
  page_judges judges_;
  std::unique_ptr<detail::crawl_cache> cache_;  // with --state
  std::optional<site_patterns> patterns_;       // --include, --exclude
  std::uint64_t crawl_id_ = 0;
  std::uint64_t listed_ = 0, skipped_ = 0, fetched_ = 0, errors_ = 0;
  const std::chrono::steady_clock::time_point began_ =
      std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_progress_{};
  std::deque<node> queue_;
  std::uint64_t base_ = 0;  // the queue index of queue_.front()
  std::uint64_t next_ = 0;  // the next queue index to send
  std::vector<std::string> sitemaps_, seeds_;
  std::size_t sitemap_at_ = 0;
  std::string sitemap_body_;  // robots.txt's, then each sitemap's
  std::string fatal_;
};

class crawl_reader final : public record_reader {
 public:
  crawl_reader(const crawl_options& o, normalized_url start,
               const source_context& context,
               std::unique_ptr<detail::crawl_cache> cache)
      : stop_(context.stop),
        state_(context.state),
        run_(o, std::move(start), channel_, cancel_, std::move(cache)),
        thread_([this] { run_.run(); }) {}

  ~crawl_reader() override {
    cancel_ = true;
    channel_.abandon();
    thread_.join();
  }

  bool next(input_record& out) override {
    if (taken_.empty() && !channel_.pop_all(taken_, stop_, cancel_)) {
      error_ = channel_.error();
      if (!error_.empty()) error_ = "crawl: " + error_;
      return false;
    }
    item_ = std::move(taken_.front());
    taken_.pop_front();
    // With --state, a page that sends no Last-Modified is dated by its
    // content, as --from-dir --lastmod content dates files: the date it
    // was first seen with this content. The state lives on this thread.
    if (state_ != nullptr && item_.skipped.empty() && item_.lastmod.empty() &&
        item_.hash) {
      auto lastmod = state_->lastmod_for(
          item_.loc, *item_.hash,
          lastmod_from_unix_time(
              std::chrono::duration_cast<std::chrono::seconds>(
                  std::chrono::system_clock::now().time_since_epoch())
                  .count()));
      if (!lastmod) {
        error_ = lastmod.err().message;
        return false;
      }
      item_.lastmod = std::move(*lastmod);
    }
    values_.clear();
    for (const auto& v : item_.extensions)
      values_.push_back({v.field, v.item, v.text});
    out = input_record{};
    out.line = ++number_;
    out.loc = item_.loc;
    out.lastmod = item_.lastmod;
    out.skipped = item_.skipped;
    out.extensions = values_;
    return true;
  }
  const std::string& error() const noexcept override { return error_; }
  const std::vector<note>& notes() const noexcept override { return notes_; }

 private:
  const std::atomic<bool>* stop_;
  state_db* state_;
  std::atomic<bool> cancel_{false};
  item_channel channel_;
  crawl_run run_;
  std::thread thread_;
  std::deque<crawl_item> taken_;  // items moved out of the channel at once
  crawl_item item_;
  std::vector<extension_value> values_;
  std::uint64_t number_ = 0;
  std::string error_;
  std::vector<note> notes_;
};

class crawl_record_source final : public record_source {
 public:
  explicit crawl_record_source(crawl_options o) : o_(std::move(o)) {}
  std::string name() const override { return o_.start_url; }
  status validate(const source_context&) const override {
    normalized_url start;
    if (normalize_url(o_.start_url, start) != url_problem::ok)
      return error{"--from-crawl " + o_.start_url +
                   ": not an absolute http(s) URL"};
    if (!o_.patterns.empty()) {
      auto made = site_patterns::make(o_.patterns);
      if (!made) return made.err();
    }
    return {};
  }
  // Patterns decide what is fetched, so the crawl applies them itself.
  bool applies_patterns() const noexcept override {
    return !o_.patterns.empty();
  }
  result<std::unique_ptr<record_reader>> open(
      const source_context& context) const override {
    normalized_url start;
    if (normalize_url(o_.start_url, start) != url_problem::ok)
      return error{"--from-crawl " + o_.start_url +
                   ": not an absolute http(s) URL"};
    // With --state, the crawl remembers its pages beside the state
    // database (crawl_cache.h): to resume, and to ask conditionally.
    std::unique_ptr<detail::crawl_cache> cache;
    if (context.state != nullptr) {
      auto opened = detail::crawl_cache::open(context.state->path() + "-crawl");
      if (!opened) return opened.err();
      cache = std::move(*opened);
    }
    return std::unique_ptr<record_reader>(std::make_unique<crawl_reader>(
        o_, std::move(start), context, std::move(cache)));
  }

 private:
  crawl_options o_;
};

}  // namespace

std::shared_ptr<const record_source> crawl_source(crawl_options options) {
  return std::make_shared<crawl_record_source>(std::move(options));
}

}  // namespace sitemill
