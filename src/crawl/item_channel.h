// sitemill internals: the queue between the crawl's thread and generate's
// reader thread. Kept apart from the crawl itself because it is the one
// place the two threads meet: what it holds, and how each side waits.
#ifndef SITEMILL_CRAWL_ITEM_CHANNEL_H
#define SITEMILL_CRAWL_ITEM_CHANNEL_H

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "crawl/crawl_cache.h"

namespace sitemill::detail {

/// What the crawl hands on: a listed page or a skipped URL, owning its text.
struct crawl_item {
  std::string loc;
  std::string lastmod;
  std::string skipped;  ///< the reason; "" for a listed page
  using value = page_outcome::value;
  std::vector<value> extensions;
  std::optional<content_hash> hash;  ///< a listed page's, for --state
  /// The page whose link found it ("" for the start URL, seeds and "max
  /// depth"), and a redirect's or canonical link's target (crawl_pages.h).
  std::string referrer, target;
};

/// From the crawl thread to the reader: bounded, so a crawl cannot run far
/// ahead of a slow writer; either side may give up. The reader takes all
/// that waits at once: taken one by one, each item woke the reader (a futex
/// wake and two context switches: 7% of an unchanged re-crawl's cycles).
class item_channel {
 public:
  static constexpr std::size_t capacity = 4096;

  /// False when the reader has gone.
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
  /// Moves every waiting item to `out` (empty); false at the end (error()
  /// says whether it failed). Polls `stop` every 100 ms while it waits.
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

}  // namespace sitemill::detail

#endif  // SITEMILL_CRAWL_ITEM_CHANNEL_H
