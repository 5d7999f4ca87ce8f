// sitemill internals: how the crawler judges a fetched page (listed, or
// skipped and why; the links to follow), and the threads that do it. Apart
// from the crawl's fetching because judging is where its CPU time goes, and
// it needs nothing of the network: a page's answer and body in, a verdict
// out.
#ifndef SITEMILL_CRAWL_PAGE_JUDGES_H
#define SITEMILL_CRAWL_PAGE_JUDGES_H

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "crawl/crawl_cache.h"
#include "html/page_links.h"
#include "sitemill/crawl/crawl_source.h"
#include "sitemill/html/html_page.h"

namespace sitemill::detail {

/// A fetched page to judge: what its answer said, and its body.
struct page_job {
  std::uint64_t tag = 0;
  std::string url;
  std::string body;
  std::string last_modified;
  bool header_noindex = false, header_nofollow = false;
};

/// What a page's HTML says: its verdict ("" listed), the links to follow,
/// and a listed page's lastmod and extensions.
struct page_verdict {
  std::uint64_t tag = 0;
  page_outcome outcome;
};

/// Whether a page's HTML looks like the shell of a page its scripts build
/// (a single-page app): at least one <script>, at most one link, under
/// 200 bytes of text, and neither a meta refresh nor a canonical link to
/// another URL (a redirect page such as Jekyll's and Hugo's aliases has a
/// script, a link and a line of text). A page written in HTML, even a
/// short one, has a site's navigation around it. `self_canonical`: its
/// canonical link, if any, names the page itself.
bool looks_script_built(const html_facts& facts, bool self_canonical);

/// Reads a page with the directory source's scan (scan_html, page_links)
/// and applies the page rules of `o`. Thread-safe given its own page_links.
page_verdict judge_page(const crawl_options& o, const page_job& job,
                        page_links& links);

/// Parsing was most of a crawl's CPU time (gumbo: 72% of a 20,000-page
/// crawl's cycles in perf, before html_tokenizer replaced it), so pages are
/// judged on threads of their own, one per core (with one fewer, the crawl
/// used 120% of 2 cores and took 13.3 s; with one per core 184% and 10.0 s),
/// while the crawl thread keeps the transfers going; the crawl thread takes
/// the verdicts back in any order (the crawl's commit() restores the
/// queue's). At most max_backlog body bytes wait: past it the crawl thread
/// judges the page itself, which slows the fetching down to the parsing.
class page_judges {
 public:
  static constexpr std::size_t max_backlog = 32u << 20;

  /// `o` must outlive the judges.
  page_judges(const crawl_options& o, unsigned threads);
  ~page_judges();

  /// False when the backlog is full: judge the page on the caller's thread.
  bool submit(page_job& job);

  /// The verdicts ready so far (none without taking the lock when there are
  /// none, as on most calls).
  std::vector<page_verdict> take();

  /// Waits until a verdict is ready or none is pending; the number pending.
  std::size_t wait_any();

 private:
  void work();

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

}  // namespace sitemill::detail

#endif  // SITEMILL_CRAWL_PAGE_JUDGES_H
