// The crawl's seed sitemaps: a walk_observer over sitemap_walker, fed the
// robots.txt the crawl fetched (crawl_seeds.h says why the walker, and why
// on its own client).
#include "crawl/crawl_seeds.h"

#include <algorithm>
#include <thread>

#include "crawl/crawl_http.h"
#include "sitemill/robots/robots.h"
#include "sitemill/walk/site.h"
#include "sitemill/walk/walker.h"

namespace sitemill::detail {
namespace {

using steady = std::chrono::steady_clock;

// The walker's client is not the fetcher, which keeps Crawl-delay between
// pages, so the seeds keep it themselves between their requests to the
// crawl's origin, and once more before the fetcher starts the pages.
class crawl_delay_pacer {
 public:
  // robots.txt was fetched just now: its request counts as the last one.
  crawl_delay_pacer(std::chrono::milliseconds delay,
                    const std::atomic<bool>& cancel)
      : delay_(delay), cancel_(cancel), next_(steady::now() + delay) {}

  void wait_turn() {
    wait_out();
    next_ = steady::now() + delay_;
  }
  // Waits in steps, so a cancel is seen as soon as a transfer's would be.
  void wait_out() const {
    for (auto now = steady::now(); now < next_ && !cancel_.load();
         now = steady::now())
      std::this_thread::sleep_for(std::min<steady::duration>(
          next_ - now, std::chrono::milliseconds(http_cancel_step)));
  }

 private:
  const std::chrono::milliseconds delay_;
  const std::atomic<bool>& cancel_;
  steady::time_point next_;
};

// The walk's events for the crawl: the <loc>s of sitemaps become seeds, the
// sitemaps not read become the crawl's skipped records. One handler serves
// every document: the walker reads them one at a time, and an index's own
// entries are over before its children are opened.
class seed_observer final : public walk_observer, public parse_handler {
 public:
  seed_observer(
      const seed_request& r, const std::function<void(std::string_view)>& found,
      const std::function<void(std::string_view, std::string)>& skipped)
      : origin_(r.start.origin()),
        cancel_(r.cancel),
        pacer_(r.crawl_delay, r.cancel),
        found_(found),
        skipped_(skipped) {}

  parse_handler& on_open(const walk_document& doc) override {
    normalized_url url;
    if (doc.fetched && normalize_url(doc.url, url) == url_problem::ok &&
        url.origin() == origin_)
      pacer_.wait_turn();
    return *this;
  }
  void on_failed(const walk_document& doc, const walk_skip& why) override {
    skipped_(where(doc), "seed sitemap not read: " + describe(why));
  }
  void on_skip(const walk_document& doc, const walk_skip& why) override {
    if (why.reason == walk_skip_reason::already_read ||
        why.reason == walk_skip_reason::repeated)
      return;  // read once, which is all seeding needs
    skipped_(where(doc), "seed sitemap not followed: " + describe(why));
  }
  bool cancelled() override { return cancel_.load(); }

  void on_document(document_kind kind) override {
    index_ = kind == document_kind::sitemapindex;
  }
  void on_entry(const parsed_entry& e) override {
    if (!index_) found_(e.loc.text);  // an index's children: the walker's
  }

  crawl_delay_pacer& pacer() { return pacer_; }

 private:
  // A child skipped before its URL was known is named as listed.
  static std::string_view where(const walk_document& doc) {
    return doc.url.empty() ? doc.source : doc.url;
  }

  const std::string origin_;
  const std::atomic<bool>& cancel_;
  crawl_delay_pacer pacer_;
  const std::function<void(std::string_view)>& found_;
  const std::function<void(std::string_view, std::string)>& skipped_;
  bool index_ = false;
};

}  // namespace

void read_seed_sitemaps(
    const seed_request& r, const std::function<void(std::string_view)>& found,
    const std::function<void(std::string_view, std::string)>& skipped) {
  walk_options w;  // the walker's own caps: depth, documents, bytes, time
  w.trace = r.crawl.trace;
  w.parse.schema_checks = false;
  // As every request of the crawl: a sitemap on the crawl's origin is
  // behind its login too; one elsewhere (robots.txt may name any host) gets
  // nothing.
  w.http = crawl_http_options(r.crawl, r.start, &r.cancel);
  w.allow_private = r.crawl.allow_private;
  seed_observer observer(r, found, skipped);
  sitemap_walker walker(std::move(w), observer);
  // robots.txt is the seeds' lister, as a site target's is for check; the
  // crawl fetched it, and its origin answered it (the fetcher follows no
  // redirect).
  const walk_document robots = site_robots_document(r.start);
  if (walker.admit(robots)) return;  // a fresh walk admits its first document
  std::vector<walk_link> links = listed_sitemaps(
      find_sitemaps(r.robots_txt, robots.url), robots.url, r.start);
  if (links.empty()) {  // none named: the common locations, as check looks
    std::vector<sitemap_probe> probes;
    links = probe_common_sitemaps(walker, r.start, robots.url, probes,
                                  [&] { observer.pacer().wait_turn(); });
  }
  walker.walk_listed(robots, links);
  observer.pacer().wait_out();
}

}  // namespace sitemill::detail
