// The crawler for a caller that wants every URL with its verdict and the
// page that linked to it (crawl_pages.h): the same crawl_run as the record
// source, read from its channel on the caller's thread.
#include "sitemill/crawl/crawl_pages.h"

#include <deque>
#include <thread>

#include "crawl/crawl_run.h"
#include "crawl/item_channel.h"
#include "sitemill/url/url.h"

namespace sitemill {

crawl_urls_result crawl_urls(
    const crawl_options& options,
    const std::function<void(const crawled_url&)>& each,
    const std::atomic<bool>* stop) {
  crawl_urls_result out;
  normalized_url start;
  if (normalize_url(options.start_url, start) != url_problem::ok) {
    out.error =
        "`start_url` " + options.start_url + ": not an absolute http(s) URL";
    return out;
  }
  std::atomic<bool> cancel{false};
  detail::item_channel channel;
  detail::crawl_run run(options, std::move(start), channel, cancel, nullptr);
  std::thread thread([&] { run.run(); });
  std::deque<detail::crawl_item> taken;
  try {
    while (channel.pop_all(taken, stop, cancel)) {
      for (const detail::crawl_item& item : taken)
        each({item.loc, item.skipped, item.referrer, item.target});
      taken.clear();
    }
  } catch (...) {
    cancel = true;
    channel.abandon();
    thread.join();
    throw;
  }
  thread.join();
  // A stop may end a transfer first, which the crawl tells as that
  // transfer's failure (robots.txt "cannot be read"): it was the stop.
  out.error = stop != nullptr && stop->load() ? "cancelled" : channel.error();
  out.dropped_links = run.dropped_links();
  return out;
}

}  // namespace sitemill
