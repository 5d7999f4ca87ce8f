// The crawler's judging of a page, and the threads that judge them
// (page_judges.h says why they are threads of their own).
#include "crawl/page_judges.h"

#include <exception>
#include <utility>

#include "html/page_answer.h"
#include "sitemill/html/html_page.h"
#include "sitemill/url/url.h"

namespace sitemill::detail {

bool looks_script_built(const html_facts& facts, bool self_canonical) {
  // A shell names the app and may say "Loading..."; 200 bytes leave room
  // for a title and a sentence, and none for a page of content.
  constexpr std::uint64_t almost_no_text = 200;
  return facts.scripts > 0 && facts.links.size() <= 1 &&
         !facts.links_truncated && facts.text_bytes < almost_no_text &&
         !facts.has_refresh && self_canonical;
}

namespace {

// "3 scripts, 1 link and 14 bytes of text".
std::string script_built_facts(const html_facts& f) {
  auto count = [](std::uint64_t n, const char* one, const char* many) {
    return (n == 0 ? std::string("no") : std::to_string(n)) + " " +
           (n == 1 ? one : many);
  };
  return count(f.scripts, "script", "scripts") + ", " +
         count(f.links.size(), "link", "links") + " and " +
         count(f.text_bytes, "byte", "bytes") + " of text";
}

}  // namespace

page_verdict judge_page(const crawl_options& o, const page_job& job,
                        page_links& links) {
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
  page_link_options want;
  want.refresh = false;
  want.images = o.images;
  want.links = true;
  links.resolve(page, facts, want);

  const bool noindex =
      o.rules.honour_noindex && (facts.noindex || job.header_noindex);
  const bool nofollow =
      o.rules.honour_nofollow && (facts.nofollow || job.header_nofollow);
  if (!nofollow) {
    for (const resolved_link& l : links.links()) {
      if (l.nofollow && o.rules.honour_nofollow) continue;
      out.outcome.found.push_back({l.href, false});
    }
  }
  const bool canonical_elsewhere =
      !links.canonical().empty() && links.canonical().href() != page.href();
  if (looks_script_built(facts, !canonical_elsewhere))
    out.outcome.script_built = script_built_facts(facts);
  if (noindex) {
    out.outcome.verdict = "noindex";
  } else if (o.rules.honour_canonical && canonical_elsewhere) {
    out.outcome.verdict = "canonical";
    out.outcome.target = std::string(links.canonical().href());
  } else {
    out.outcome.lastmod = lastmod_from_http(job.last_modified);
    out.outcome.hash = facts.hash;
    for (const extension_value& v : links.extensions())
      out.outcome.extensions.push_back({v.field, v.item, std::string(v.text)});
  }
  return out;
}

page_judges::page_judges(const crawl_options& o, unsigned threads) : o_(o) {
  for (unsigned i = 0; i < threads; ++i)
    threads_.emplace_back([this] { work(); });
}

page_judges::~page_judges() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  for (auto& t : threads_) t.join();
}

bool page_judges::submit(page_job& job) {
  std::lock_guard lock(mu_);
  if (backlog_ + job.body.size() > max_backlog && !jobs_.empty()) return false;
  backlog_ += job.body.size();
  ++pending_;
  jobs_.push_back(std::move(job));
  work_ready_.notify_one();
  return true;
}

std::vector<page_verdict> page_judges::take() {
  std::vector<page_verdict> out;
  if (ready_count_.load(std::memory_order_acquire) == 0) return out;
  std::lock_guard lock(mu_);
  out.swap(ready_);
  ready_count_.store(0, std::memory_order_release);
  return out;
}

std::size_t page_judges::wait_any() {
  std::unique_lock lock(mu_);
  done_.wait(lock, [&] { return !ready_.empty() || pending_ == 0; });
  return pending_;
}

void page_judges::work() {
  page_links links;
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

}  // namespace sitemill::detail
