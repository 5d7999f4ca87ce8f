// sitemill: the fetcher's waiting room: one FIFO of requests per host
// (origin), hosts taking turns, and the rules on when a host may start
// another request (its transfers in flight, its delay between starts, a
// pause asked for by a 429 or 5xx). No libcurl here: the fetcher asks
// next() what to start and says finished() when a transfer ends.
#ifndef SITEMILL_NET_HOST_QUEUES_H
#define SITEMILL_NET_HOST_QUEUES_H

#include <chrono>
#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "sitemill/net/fetcher.h"

namespace sitemill::detail {

/// A request waiting to start, and how many times it has been tried.
struct queued_fetch {
  fetch_request request;
  int attempts = 0;
};

class host_queues {
 public:
  using clock = std::chrono::steady_clock;

  /// One origin. Its address is stable for the life of the host_queues.
  struct host {
    std::string origin;
    std::deque<queued_fetch> queue;
    unsigned active = 0;
    std::optional<std::chrono::milliseconds> delay;  // set_delay()'s
    std::optional<clock::time_point> last_start;
    clock::time_point paused_until{};
    bool listed = false;  // in the ring of hosts with requests queued
  };

  host_queues(unsigned per_host, std::chrono::milliseconds delay);

  /// The host of `origin`, made on first use.
  host& at(std::string_view origin);

  void push_back(host& h, queued_fetch item);
  /// A request to be tried again: first in its host's line, and the host
  /// starts nothing before `not_before` (a server that said "too many" or
  /// "unavailable" is asked nothing else meanwhile).
  void push_front(host& h, queued_fetch item, clock::time_point not_before);

  void set_delay(std::string_view origin, std::chrono::milliseconds delay);

  /// The next request that may start at `now`, taking hosts in turn, and
  /// counts it as started; nullopt when none may.
  struct started {
    host* from;
    queued_fetch item;
  };
  std::optional<started> next(clock::time_point now);

  /// One of `h`'s transfers ended.
  void finished(host& h) noexcept;

  /// The earliest moment after `now` at which a host that waits only on
  /// time (its delay, a pause) may start; nullopt when none does.
  std::optional<clock::time_point> next_time(clock::time_point now) const;

  std::size_t queued() const noexcept { return queued_; }

 private:
  // When `h` may start next, its limit on transfers aside.
  clock::time_point ready_at(const host& h) const;
  void list(host& h);

  unsigned per_host_;
  std::chrono::milliseconds delay_;
  std::unordered_map<std::string, std::unique_ptr<host>> hosts_;
  std::deque<host*> ring_;  // hosts with requests queued, next turn first
  std::size_t queued_ = 0;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_NET_HOST_QUEUES_H
