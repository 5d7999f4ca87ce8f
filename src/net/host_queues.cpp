// sitemill: per-host FIFOs taking turns (host_queues.h).
#include "net/host_queues.h"

#include <algorithm>
#include <utility>

namespace sitemill::detail {

host_queues::host_queues(unsigned per_host, std::chrono::milliseconds delay)
    : per_host_(std::max(per_host, 1u)), delay_(delay) {}

host_queues::host& host_queues::at(std::string_view origin) {
  auto it = hosts_.find(std::string(origin));
  if (it == hosts_.end()) {
    auto h = std::make_unique<host>();
    h->origin = origin;
    it = hosts_.emplace(h->origin, std::move(h)).first;
  }
  return *it->second;
}

void host_queues::list(host& h) {
  if (h.listed) return;
  h.listed = true;
  ring_.push_back(&h);
}

void host_queues::push_back(host& h, queued_fetch item) {
  h.queue.push_back(std::move(item));
  ++queued_;
  list(h);
}

void host_queues::push_front(host& h, queued_fetch item,
                             clock::time_point not_before) {
  h.queue.push_front(std::move(item));
  ++queued_;
  h.paused_until = std::max(h.paused_until, not_before);
  list(h);
}

void host_queues::set_delay(std::string_view origin,
                            std::chrono::milliseconds delay) {
  at(origin).delay = delay;
}

host_queues::clock::time_point host_queues::ready_at(const host& h) const {
  clock::time_point at = h.paused_until;
  if (h.last_start) at = std::max(at, *h.last_start + h.delay.value_or(delay_));
  return at;
}

std::optional<host_queues::started> host_queues::next(clock::time_point now) {
  // One look at each host at most: the one whose turn it is first; a host
  // that starts goes to the back, so hosts take turns.
  for (std::size_t n = ring_.size(); n > 0; --n) {
    host* h = ring_.front();
    ring_.pop_front();
    if (h->active < per_host_ && ready_at(*h) <= now) {
      started out{h, std::move(h->queue.front())};
      h->queue.pop_front();
      --queued_;
      ++h->active;
      h->last_start = now;
      if (h->queue.empty())
        h->listed = false;
      else
        ring_.push_back(h);
      return out;
    }
    ring_.push_back(h);
  }
  return std::nullopt;
}

void host_queues::finished(host& h) noexcept {
  if (h.active > 0) --h.active;
}

std::optional<host_queues::clock::time_point> host_queues::next_time(
    clock::time_point now) const {
  std::optional<clock::time_point> out;
  for (const host* h : ring_) {
    if (h->active >= per_host_) continue;  // waits for a transfer to end
    const clock::time_point at = ready_at(*h);
    if (at > now && (!out || at < *out)) out = at;
  }
  return out;
}

}  // namespace sitemill::detail
