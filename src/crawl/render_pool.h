// sitemill internals: the rendering crawl's browser side (crawl_options::
// render): a thread that owns a headless Chromium (net/chromium.h) and a
// bounded pool of tabs, loads each page the crawl fetched, and hands back
// its DOM once the page settled, for judge_page() to read as it reads a
// fetched page.
//
// The browser fetches nothing itself. Every request a page makes is paused
// (Fetch.enable) and judged here: the page's own document is answered with
// the body the crawl fetched; images, fonts and media are refused; a request
// that is not a GET, or not to the start URL's origin, or that robots.txt
// disallows, is failed; the rest is asked of the crawl thread (take()), which
// fetches it on the crawl's fetcher, so politeness (concurrency, Crawl-delay,
// retries), the fetch scope's address checks and the User-Agent hold for
// them as for pages, and the answer is handed to the browser (answer()).
// A script or stylesheet every page loads is fetched once: answers of 200
// up to 2 MiB are kept, up to 32 MiB in all.
//
// A page settles when its load event has fired and none of its requests
// has been pending for 500 ms (render_wait 0), or render_wait after its
// load event. A page that does not within render_timeout, whose tab
// crashes (its JavaScript heap past render_memory_mib), or that a browser
// crash takes down twice, comes back with a failure, reported "render
// failed: ...". A browser that dies is started again, and the pages it held
// are rendered anew.
//
// Thread-safety: submit(), answer(), take(), pending(), wait() and fatal()
// are for the crawl thread (one thread); the render thread is the pool's
// own. `wake` is called on the render thread.
#ifndef SITEMILL_CRAWL_RENDER_POOL_H
#define SITEMILL_CRAWL_RENDER_POOL_H

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "crawl/page_judges.h"
#include "sitemill/crawl/crawl_source.h"
#include "sitemill/robots/robots_rules.h"
#include "sitemill/url/url.h"

namespace sitemill::detail {

/// A request a page made, for the crawl's fetcher.
struct render_fetch {
  std::uint64_t id = 0;
  std::string url;
};

/// The crawl's answer to a render_fetch.
struct render_answer {
  std::uint64_t id = 0;
  std::string error;  ///< "" when an answer came
  long status = 0;
  std::string content_type, location;
  std::string body;
};

/// A page back from the browser: its job with the rendered DOM as the body,
/// or why it could not be rendered.
struct render_result {
  page_job job;
  std::string failure;  ///< "" rendered
};

/// What a render crawl's summary tells.
struct render_counts {
  std::uint64_t refused = 0;   ///< requests of pages refused (media aside)
  std::uint64_t restarts = 0;  ///< times the browser was started again
};

class render_pool {
 public:
  /// `o` and `robots` (nullptr: robots.txt not obeyed) must outlive the
  /// pool, and robots.txt be read before the first submit().
  render_pool(const crawl_options& o, const normalized_url& start,
              const robots_rules* robots, std::function<void()> wake);
  ~render_pool();
  render_pool(const render_pool&) = delete;
  render_pool& operator=(const render_pool&) = delete;

  /// A fetched page to render; `content_type` as its answer said.
  void submit(page_job job, std::string content_type);
  /// The answer to a render_fetch taken before.
  void answer(render_answer a);
  /// Moves out what the render thread has for the crawl thread.
  void take(std::vector<render_fetch>& fetches,
            std::vector<render_result>& done);
  /// Pages submitted and not yet taken back.
  std::size_t pending() const;
  /// Waits until take() has something, nothing is pending, or `most`
  /// passed.
  void wait(std::chrono::milliseconds most);
  /// Why the browser could not be started; "" while it could.
  std::string fatal() const;
  /// Requests of pages refused (other hosts, robots.txt, not GET),
  /// images, fonts and media aside; and how often the browser restarted.
  std::uint64_t refused() const noexcept { return refused_; }
  std::uint64_t restarts() const noexcept { return restarts_; }

 private:
  struct job_in {
    page_job job;
    std::string content_type;
    int attempts = 0;
  };
  struct state;
  void work();

  const crawl_options& o_;
  normalized_url start_;
  const robots_rules* robots_;
  std::function<void()> wake_;
  int wake_fd_ = -1;  // eventfd: the crawl thread has mail for the renderer

  mutable std::mutex mu_;
  std::condition_variable mail_;
  std::deque<job_in> jobs_;
  std::vector<render_answer> answers_;
  std::vector<render_fetch> fetches_;
  std::vector<render_result> done_;
  std::size_t pending_ = 0;
  std::string fatal_;
  bool stopping_ = false;
  std::atomic<bool> stop_{false};  // ends the render thread's waits
  std::atomic<std::uint64_t> refused_{0}, restarts_{0};
  std::thread thread_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_CRAWL_RENDER_POOL_H
