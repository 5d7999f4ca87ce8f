// sitemill internals: one crawl, on a thread of its own: a fetcher (net/
// fetcher.h) for the pages, a frontier (crawl_frontier.h) that decides what
// to fetch, the page judges (page_judges.h) that read what came back, and
// the seed sitemaps (crawl_seeds.h). Records leave through an item_channel.
//
// Order: queue_ is the breadth-first order. Requests go out in that order,
// up to `window` ahead of the first page not yet judged; answers may come
// back in any order, but a page's links are discovered, and its record
// handed on, only once every page before it has been: commit() does it. So
// the crawl's outcome does not depend on timing.
#ifndef SITEMILL_CRAWL_CRAWL_RUN_H
#define SITEMILL_CRAWL_CRAWL_RUN_H

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "crawl/crawl_cache.h"
#include "crawl/crawl_frontier.h"
#include "crawl/item_channel.h"
#include "crawl/page_judges.h"
#include "crawl/render_pool.h"
#include "html/page_links.h"
#include "sitemill/crawl/crawl_source.h"
#include "sitemill/net/fetcher.h"
#include "sitemill/robots/robots_rules.h"
#include "sitemill/url/url.h"

namespace sitemill::detail {

class crawl_run final : public fetch_handler {
 public:
  /// `o`, `out` and `cancel` must outlive the run; `cache` is --state's.
  crawl_run(const crawl_options& o, normalized_url start, item_channel& out,
            std::atomic<bool>& cancel, std::unique_ptr<crawl_cache> cache);

  /// Crawls to the end, or until cancelled; then closes the channel.
  void run();

  bool on_head(std::uint64_t tag, const http_head& head) override;
  bool on_body(std::uint64_t tag, const char* data, std::size_t size) override;
  void on_done(std::uint64_t tag, const fetch_outcome& outcome) override;

  /// With render, as of the last page rendered; safe from any thread.
  render_counts rendering_counts() const noexcept {
    return {render_refused_.load(), render_restarts_.load()};
  }

  /// Links the frontier counted and did not keep (crawl_frontier::
  /// dropped()), as of the last page committed; safe from any thread.
  std::uint64_t dropped_links() const noexcept { return dropped_links_; }

  /// The first page, in queue order, that looked built by its scripts
  /// (page_outcome::script_built), and what made it look so; "" when none.
  /// Read once the channel is closed: the crawl thread writes them before.
  const std::string& script_built_url() const noexcept {
    return script_built_url_;
  }
  const std::string& script_built_facts() const noexcept {
    return script_built_facts_;
  }

  /// With a cache whose last crawl of this start URL was of another kind
  /// (crawl_kind: rendering, user agent, credentials), what differs
  /// (crawl_cache::begin()); "" otherwise. Read once the channel is closed.
  const std::string& cache_changed() const noexcept { return cache_changed_; }
  /// The cache's file; "" without one.
  std::string cache_path() const { return cache_ ? cache_->path() : ""; }

 private:
  static constexpr std::uint64_t robots_tag = ~std::uint64_t{0};
  // With `render`, the requests rendered pages make have tags from here on
  // (render_crawl.cpp); robots_tag aside.
  static constexpr std::uint64_t render_tags = std::uint64_t{1} << 62;

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
    std::string etag, last_modified;   // the answer's validators
    std::optional<cached_page> known;  // from an earlier crawl
    bool header_noindex = false, header_nofollow = false;
    std::string body;
    page_outcome outcome;
    // The page whose link found it, shared by all its links (16 bytes per
    // queued URL, the page's URL once while any of its links waits).
    std::shared_ptr<const std::string> referrer;
  };

  std::string user_agent() const;
  fetch_options fetch_options_for(const crawl_options& o);
  node& at(std::uint64_t tag) { return queue_[tag - base_]; }
  std::string_view pattern_path(const normalized_url& url) const;
  std::string robots_url() const;

  void robots_done(const fetch_outcome& outcome);
  bool begin_pages();
  void discover(std::string_view href, std::size_t depth);
  void page_done(std::uint64_t tag, const fetch_outcome& outcome);
  void absorb(page_verdict v);
  void take_known(node& n);
  void remember(const node& n);
  bool absorb_ready();
  void commit();
  void pump();
  bool ask_cache(node& n, fetch_request& r);
  void tell_progress(bool done);
  void finish();
  void emit_skip(std::string_view url, std::string reason);

  // The rendering crawl (render_crawl.cpp).
  bool rendering(std::uint64_t tag) const noexcept {
    return tag >= render_tags && tag != robots_tag;
  }
  void start_rendering();
  bool render_head(std::uint64_t tag, const http_head& head);
  bool render_body(std::uint64_t tag, const char* data, std::size_t size);
  void render_done(std::uint64_t tag, const fetch_outcome& outcome);
  void take_renders();
  bool await_renders();

  const crawl_options& o_;
  normalized_url start_;
  std::string token_;
  item_channel& out_;
  std::atomic<bool>& cancel_;
  robots_rules robots_;
  crawl_frontier frontier_;
  fetch_scope scope_;
  fetcher fetcher_;
  page_links links_;  // for pages judged on this thread
  page_judges judges_;
  std::unique_ptr<crawl_cache> cache_;     // with --state
  std::optional<site_patterns> patterns_;  // --include, --exclude
  std::uint64_t crawl_id_ = 0;
  std::uint64_t listed_ = 0, skipped_ = 0, fetched_ = 0, errors_ = 0;
  const std::chrono::steady_clock::time_point began_ =
      std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_progress_{};
  std::deque<node> queue_;
  std::uint64_t base_ = 0;  // the queue index of queue_.front()
  std::uint64_t next_ = 0;  // the next queue index to send
  std::string robots_body_;
  std::chrono::milliseconds crawl_delay_{0};  // robots.txt's, when obeyed
  std::string fatal_;
  std::atomic<std::uint64_t> dropped_links_{0};
  // With `render`; after fetcher_, which its thread wakes, so it ends first.
  std::unique_ptr<render_pool> renderer_;
  std::unordered_map<std::uint64_t, render_answer> subresources_;
  std::atomic<std::uint64_t> render_refused_{0}, render_restarts_{0};
  // While commit() discovers a page's links: that page.
  std::shared_ptr<const std::string> referring_;
  std::string script_built_url_, script_built_facts_;
  std::string cache_changed_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_CRAWL_CRAWL_RUN_H
