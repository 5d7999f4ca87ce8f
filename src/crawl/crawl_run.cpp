// One crawl (crawl_run.h): robots.txt first, then the seed sitemaps, then
// the pages in breadth-first order on the fetcher.
#include "crawl/crawl_run.h"

#include <algorithm>
#include <stdexcept>
#include <thread>
#include <utility>

#include "crawl/crawl_http.h"
#include "crawl/crawl_seeds.h"
#include "html/page_answer.h"
#include "sitemill/limits.h"
#include "sitemill/robots/robots.h"

namespace sitemill::detail {

crawl_run::crawl_run(const crawl_options& o, normalized_url start,
                     item_channel& out, std::atomic<bool>& cancel,
                     std::unique_ptr<crawl_cache> cache)
    : o_(o),
      start_(std::move(start)),
      token_(robots_product_token(user_agent())),
      out_(out),
      cancel_(cancel),
      frontier_({o.max_depth, o.max_query_variants, o.max_frontier_urls,
                 o.max_frontier_bytes},
                o.rules.honour_robots ? &robots_ : nullptr),
      fetcher_(fetch_options_for(o)),
      judges_(o, std::clamp(std::thread::hardware_concurrency(), 2u, 8u)),
      cache_(std::move(cache)) {
  if (!o.patterns.empty()) {
    auto made = site_patterns::make(o.patterns);
    if (made) patterns_ = std::move(*made);  // validate() said otherwise
  }
}

void crawl_run::run() {
  std::string error;
  try {
    if (cache_) {
      bool resuming = false;
      auto id = cache_->begin(start_.href(), crawl_kind::of(o_), resuming,
                              cache_changed_);
      if (!id) throw std::runtime_error(id.err().message);
      crawl_id_ = *id;
    }
    fetcher_.submit({robots_url(), {}, fetch_method::get, robots_tag});
    bool drained = fetcher_.run(*this);  // robots.txt alone
    if (drained && fatal_.empty()) drained = begin_pages();
    // The fetcher stops when nothing is queued or in flight; pages still
    // being judged may then send more.
    while (drained && fatal_.empty()) {
      drained = fetcher_.run(*this);
      if (!drained || !fatal_.empty()) break;
      if (await_renders()) continue;
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

bool crawl_run::on_head(std::uint64_t tag, const http_head& head) {
  (void)absorb_ready();
  if (tag == robots_tag) return head.status == 200;
  if (rendering(tag)) return render_head(tag, head);
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
      n.outcome.target = std::string(to.href());
    }
    return drain_unwanted_body(head);
  }
  if (head.status != 200) {
    n.outcome.verdict = "status " + std::to_string(head.status);
    return drain_unwanted_body(head);
  }
  if (!is_html_media_type(head.content_type)) {
    normalized_url u;
    if (patterns_ && normalize_url(n.url, u) == url_problem::ok &&
        patterns_->decide(pattern_path(u), false) ==
            site_patterns::verdict::include) {
      // Listed as it is (a PDF the patterns name): nothing in it is read.
      n.outcome.lastmod = lastmod_from_http(head.last_modified);
      return drain_unwanted_body(head);
    }
    n.outcome.verdict = "not html";
    return drain_unwanted_body(head);
  }
  if (head.content_length && *head.content_length > o_.max_page_bytes) {
    n.outcome.verdict = "too large";
    return false;
  }
  n.judged = false;
  for (const std::string& v : head.x_robots_tag)
    read_x_robots_tag(v, token_, n.header_noindex, n.header_nofollow);
  return true;
}

bool crawl_run::on_body(std::uint64_t tag, const char* data, std::size_t size) {
  (void)absorb_ready();
  if (tag == robots_tag) {
    // One byte past what the robots.txt readers take, so they can tell a
    // file that ends at the limit from one the limit cuts; the rest is
    // read and dropped, since refusing it would fail the fetch.
    const std::size_t keep = max_robots_txt_bytes + 1;
    if (robots_body_.size() < keep)
      robots_body_.append(data, std::min(size, keep - robots_body_.size()));
    return true;
  }
  if (rendering(tag)) return render_body(tag, data, size);
  node& n = at(tag);
  if (n.judged) return true;  // drained
  if (n.body.size() + size > o_.max_page_bytes) {
    n.outcome.verdict = "too large";
    n.judged = true;
    std::string().swap(n.body);
    return false;
  }
  n.body.append(data, size);
  return true;
}

void crawl_run::on_done(std::uint64_t tag, const fetch_outcome& outcome) {
  tell_progress(false);
  if (tag == robots_tag) {
    robots_done(outcome);
  } else if (rendering(tag)) {
    render_done(tag, outcome);
  } else {
    page_done(tag, outcome);
    commit();
  }
  pump();
  (void)absorb_ready();
}

std::string crawl_run::user_agent() const { return crawl_user_agent(o_); }

fetch_options crawl_run::fetch_options_for(const crawl_options& o) {
  fetch_options f;
  f.concurrency = std::max(1u, o.concurrency);
  f.per_host = f.concurrency;
  f.retry = o.retry;
  f.http = crawl_http_options(o, start_, &cancel_);
  // The fetcher's own cap is a backstop: on_body stops at ours, which
  // tells "too large" from a failed transfer.
  f.http.max_body_bytes =
      std::max<std::uint64_t>(o.max_page_bytes, max_bytes_per_sitemap) + 1;
  scope_.allow_private = o.allow_private;
  scope_.allow_target_host(start_.host());
  f.scope = &scope_;
  // The render thread wakes the fetcher when it has requests for it.
  if (o.render) {
    f.cancelled = [this] {
      take_renders();
      return false;
    };
  }
  return f;
}

// A URL's path below the start URL's directory, as the patterns see it
// ("blog/a.pdf"; no query).
std::string_view crawl_run::pattern_path(const normalized_url& url) const {
  std::string_view path = url.path();
  const std::string_view dir =
      start_.scope_directory().substr(start_.origin().size());
  return path.substr(std::min(dir.size(), path.size()));
}

std::string crawl_run::robots_url() const {
  return std::string(start_.origin()) + "/robots.txt";
}

// robots.txt: 2xx read, 4xx none (RFC 9309 2.3.1.3: everything allowed),
// anything else means the site cannot say, and RFC 9309 2.3.1.4 says to
// crawl nothing then.
void crawl_run::robots_done(const fetch_outcome& outcome) {
  const long status = outcome.head.status;
  if (outcome.ok() && status >= 200 && status < 300) {
    robots_ = parse_robots_rules(robots_body_, user_agent());
  } else {
    robots_body_.clear();  // names no sitemap
    if (!(outcome.ok() && status >= 400 && status < 500) &&
        o_.rules.honour_robots) {
      fatal_ =
          "cannot read " + robots_url() + " (" +
          (outcome.ok() ? "status " + std::to_string(status) : outcome.error) +
          "): RFC 9309 says to crawl nothing while it is unreachable, "
          "unless told to ignore it (`honour_robots`)";
      return;
    }
  }
  if (o_.rules.honour_robots) {
    if (auto delay = robots_.crawl_delay()) {
      crawl_delay_ =
          std::chrono::milliseconds(static_cast<long long>(*delay * 1000));
      fetcher_.set_host_delay(start_.href(), crawl_delay_);
    }
  }
}

// The start URL, then the seeds in document order, all at depth 0; false
// when the crawl was cancelled meanwhile.
bool crawl_run::begin_pages() {
  if (o_.render) start_rendering();
  discover(start_.href(), 0);
  if (o_.seed_sitemaps) {
    read_seed_sitemaps(
        {o_, start_, robots_body_, crawl_delay_, cancel_},
        [&](std::string_view loc) { discover(loc, 0); },
        [&](std::string_view url, std::string why) {
          emit_skip(url, std::move(why));
        });
  }
  std::string().swap(robots_body_);
  if (cancel_) return false;
  pump();
  return true;
}

// A URL found: normalised, session ids removed, in scope, then judged by
// the frontier.
void crawl_run::discover(std::string_view href, std::size_t depth) {
  normalized_url url;
  if (normalize_url(href, url) != url_problem::ok) return;
  strip_session_ids(url);
  if (!within_scope(url, start_)) return;
  switch (frontier_.discover(url, depth)) {
    case discovery::queued:
      if (patterns_ && !patterns_->keeps_url_path(pattern_path(url))) {
        frontier_.taken(url.href().size());
        emit_skip(url.href(), "excluded by `patterns`");
        break;
      }
      queue_.emplace_back();
      queue_.back().url = std::string(url.href());
      queue_.back().depth = depth;
      queue_.back().referrer = referring_;
      break;
    case discovery::robots:
      emit_skip(url.href(), "robots");
      break;
    case discovery::trap_cap:
      emit_skip(url.href(), "trap cap");
      break;
    case discovery::seen:
    case discovery::too_deep:
    case discovery::dropped:  // counted: the warning at the end says so
      break;
  }
}

void crawl_run::page_done(std::uint64_t tag, const fetch_outcome& outcome) {
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
  if (renderer_) {
    renderer_->submit(std::move(job), outcome.head.content_type);
    return;
  }
  if (!judges_.submit(job)) absorb(judge_page(o_, job, links_));
}

// A verdict back from the judges (or from this thread).
void crawl_run::absorb(page_verdict v) {
  node& n = at(v.tag);
  n.done = true;
  n.outcome = std::move(v.outcome);
  remember(n);
}

// The verdict of a page judged before: this crawl's (resuming) or an
// earlier one's (a 304).
void crawl_run::take_known(node& n) {
  cached_page& k = *n.known;
  n.judged = true;
  n.outcome = std::move(k.outcome);
  if (n.etag.empty()) n.etag = std::move(k.etag);
  if (n.last_modified.empty()) n.last_modified = std::move(k.last_modified);
  n.known.reset();
}

// With --state, what this crawl made of a page.
void crawl_run::remember(const node& n) {
  if (!cache_) return;
  if (n.confirmed) return;
  cached_page p;
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
bool crawl_run::absorb_ready() {
  std::vector<page_verdict> ready = judges_.take();
  if (ready.empty()) return false;
  for (page_verdict& v : ready) absorb(std::move(v));
  commit();
  pump();
  return true;
}

// Judges the pages at the head of the queue whose answers are in, in
// queue order: their links are discovered, their records handed on.
void crawl_run::commit() {
  while (!queue_.empty()) {
    node& n = queue_.front();
    if (base_ >= o_.max_pages) {
      n.outcome.verdict = "max pages";
    } else if (!n.done) {
      return;
    }
    if (!n.outcome.found.empty())
      referring_ = std::make_shared<const std::string>(n.url);
    for (const page_outcome::link& f : n.outcome.found)
      discover(f.href, f.same_depth ? n.depth : n.depth + 1);
    referring_.reset();
    frontier_.taken(n.url.size());
    dropped_links_ = frontier_.dropped();
    if (!n.outcome.script_built.empty() && script_built_url_.empty()) {
      script_built_url_ = n.url;
      script_built_facts_ = std::move(n.outcome.script_built);
    }
    crawl_item item;
    item.loc = std::move(n.url);
    item.skipped = std::move(n.outcome.verdict);
    item.lastmod = std::move(n.outcome.lastmod);
    item.extensions = std::move(n.outcome.extensions);
    item.hash = n.outcome.hash;
    if (n.referrer) item.referrer = *n.referrer;
    item.target = std::move(n.outcome.target);
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
void crawl_run::pump() {
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
bool crawl_run::ask_cache(node& n, fetch_request& r) {
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

// Tells options.progress where the crawl is, at most every 250 ms unless
// it is the end.
void crawl_run::tell_progress(bool done) {
  if (!o_.progress) return;
  const auto now = std::chrono::steady_clock::now();
  if (!done && now - last_progress_ < std::chrono::milliseconds(250)) return;
  last_progress_ = now;
  const fetch_counters c = fetcher_.counters();
  crawl_progress p;
  p.fetched = fetched_;
  p.errors = errors_;
  p.queued = c.queued + (base_ + queue_.size() -
                         std::min<std::uint64_t>(next_, base_ + queue_.size()));
  p.listed = listed_;
  p.skipped = skipped_;
  p.bytes = c.bytes;
  p.seconds = std::chrono::duration<double>(now - began_).count();
  p.done = done;
  o_.progress(p);
}

void crawl_run::finish() {
  commit();
  if (cache_) {
    if (status s = cache_->finish(start_.href()); !s)
      throw std::runtime_error(s.message());
  }
  for (const std::string& url : frontier_.too_deep())
    emit_skip(url, "max depth");
  dropped_links_ = frontier_.dropped();
  tell_progress(true);
}

void crawl_run::emit_skip(std::string_view url, std::string reason) {
  ++skipped_;
  crawl_item item;
  item.loc = std::string(url);
  item.skipped = std::move(reason);
  if (referring_) item.referrer = *referring_;
  if (!out_.push(std::move(item))) cancel_ = true;
}

}  // namespace sitemill::detail
