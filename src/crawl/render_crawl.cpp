// The rendering crawl's side of crawl_run (crawl_options::render): pages
// fetched and judged by their answers as always, their HTML handed to the
// render pool (render_pool.h) instead of the judges, the requests the
// rendered pages make fetched on the crawl's fetcher, and the DOM that
// comes back judged with judge_page(), as a fetched page's HTML is.
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "crawl/crawl_run.h"

namespace sitemill::detail {

// After robots.txt: the render thread reads its rules.
void crawl_run::start_rendering() {
  renderer_ = std::make_unique<render_pool>(
      o_, start_, o_.rules.honour_robots ? &robots_ : nullptr,
      [this] { fetcher_.wake(); });
}

bool crawl_run::render_head(std::uint64_t tag, const http_head& head) {
  auto it = subresources_.find(tag - render_tags);
  if (it == subresources_.end()) return false;
  it->second.status = head.status;
  it->second.content_type = head.content_type;
  it->second.location = head.location;
  return true;
}

bool crawl_run::render_body(std::uint64_t tag, const char* data,
                            std::size_t size) {
  auto it = subresources_.find(tag - render_tags);
  if (it == subresources_.end()) return false;
  if (it->second.body.size() + size > o_.max_page_bytes) return false;
  it->second.body.append(data, size);
  return true;
}

void crawl_run::render_done(std::uint64_t tag, const fetch_outcome& outcome) {
  auto it = subresources_.find(tag - render_tags);
  if (it == subresources_.end()) return;
  render_answer a = std::move(it->second);
  subresources_.erase(it);
  a.error = outcome.error;
  if (renderer_) renderer_->answer(std::move(a));
}

// What the render thread has: requests to fetch, pages rendered (judged
// here, on the crawl thread, then committed in queue order as any page).
void crawl_run::take_renders() {
  if (!renderer_) return;
  std::vector<render_fetch> fetches;
  std::vector<render_result> done;
  renderer_->take(fetches, done);
  for (render_fetch& f : fetches) {
    subresources_[f.id].id = f.id;
    fetcher_.submit(
        {std::move(f.url), {}, fetch_method::get, render_tags + f.id});
  }
  for (render_result& r : done) {
    if (r.failure.empty()) {
      absorb(judge_page(o_, r.job, links_));
    } else {  // as a failed fetch: reported, not remembered
      node& n = at(r.job.tag);
      n.done = true;
      n.outcome.verdict = "render failed: " + r.failure;
      ++errors_;
    }
  }
  if (!done.empty()) {
    commit();
    pump();
  }
  render_refused_ = renderer_->refused();
  render_restarts_ = renderer_->restarts();
  if (std::string why = renderer_->fatal(); !why.empty() && fatal_.empty()) {
    fatal_ = "render: " + why;
    cancel_ = true;
  }
}

// The fetcher is idle while pages are in the browser: waits for the render
// thread (at most 100 ms, so that the fetcher's run() sees a cancel); false
// when no page is there.
bool crawl_run::await_renders() {
  if (!renderer_ || renderer_->pending() == 0) return false;
  renderer_->wait(std::chrono::milliseconds(100));
  take_renders();
  return true;
}

}  // namespace sitemill::detail
