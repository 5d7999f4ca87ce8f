// sitemill: the fetch engine (fetcher.h) on libcurl's multi interface.
//
// One loop on run()'s thread: start what host_queues says may start, let
// libcurl move every transfer on (curl_multi_perform), deliver the ones
// that ended, then wait for the network (curl_multi_poll) no longer than
// http_cancel_step or the next host's turn, whichever comes first. So a
// cancel is seen within a step whatever the transfers are doing, and a
// retry's wait or a host's delay is a time in the loop, not a sleep.
#include "sitemill/net/fetcher.h"

#include <curl/curl.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <deque>
#include <exception>
#include <string>
#include <thread>
#include <utility>

#include "net/easy_handle.h"
#include "net/exchange.h"
#include "net/host_queues.h"
#include "sitemill/url/url.h"

namespace sitemill {
namespace {

using clock = std::chrono::steady_clock;

}  // namespace

bool fetch_handler::on_head(std::uint64_t, const http_head&) { return true; }

bool fetch_handler::on_body(std::uint64_t, const char*, std::size_t) {
  return true;
}

struct fetcher::impl {
  /// One transfer in flight: what its callbacks share with the loop.
  struct transfer {
    impl* owner = nullptr;
    detail::host_queues::host* from = nullptr;
    detail::queued_fetch item;
    CURL* easy = nullptr;
    detail::header_list headers{nullptr, &curl_slist_free_all};
    detail::transfer_gate gate;  // the head, the cap, a handler's exception
    detail::address_guard guard;
    std::array<char, CURL_ERROR_SIZE> error_buffer{};
    clock::time_point started;
    bool body_refused = false;  // on_head said no
    bool retry = false;         // a 429 or 5xx to be tried again
  };

  explicit impl(fetch_options o)
      : options(std::move(o)),
        defaults(options.http),
        hosts(options.per_host, options.host_delay),
        concurrency(std::max(options.concurrency, 1u)) {
    init_code = detail::curl_init_once();
    if (init_code == CURLE_OK) multi = curl_multi_init();
  }

  ~impl() {
    for (auto& t : active) {
      curl_multi_remove_handle(multi, t->easy);
      curl_easy_cleanup(t->easy);
    }
    for (CURL* h : spare) curl_easy_cleanup(h);
    if (multi != nullptr) curl_multi_cleanup(multi);
  }

  bool cancelled() const {
    return (options.http.cancel != nullptr &&
            options.http.cancel->load(std::memory_order_relaxed)) ||
           (options.cancelled && options.cancelled());
  }
  void count_queued() {
    queued.store(hosts.queued() + refused.size(), std::memory_order_relaxed);
  }

  // libcurl's callbacks; `user` is the transfer.
  static std::size_t on_header(char* data, std::size_t size, std::size_t n,
                               void* user);
  static std::size_t on_body(char* data, std::size_t size, std::size_t n,
                             void* user);
  void start(detail::host_queues::host& from, detail::queued_fetch item);
  // Ends `t` (CURLMSG_DONE, or a cancel): delivers it or queues its retry.
  void finish(transfer& t, CURLcode code, bool cancel);
  void deliver(std::uint64_t tag, const fetch_outcome& outcome);
  // The trace line of one attempt; `why` is the error without its URL.
  void trace(const transfer& t, const fetch_outcome& out, std::string_view why,
             std::string_view also);
  // Moves libcurl on and finishes what ended; true when something did.
  bool drive();

  fetch_options options;
  detail::easy_defaults defaults;
  detail::host_queues hosts;
  unsigned concurrency;
  CURLcode init_code = CURLE_OK;
  CURLM* multi = nullptr;
  std::vector<std::unique_ptr<transfer>> active;
  std::vector<CURL*> spare;  // handles kept for the next transfers
  // Requests refused before any transfer (not an http(s) URL), with why:
  // delivered by run(), since submit() may be called inside a callback.
  std::deque<std::pair<std::uint64_t, std::string>> refused;
  fetch_handler* handler = nullptr;  // during run()

  std::atomic<std::uint64_t> queued{0}, in_flight{0}, done{0}, errors{0},
      bytes{0};
};

std::size_t fetcher::impl::on_header(char* data, std::size_t size,
                                     std::size_t n, void* user) {
  auto& t = *static_cast<transfer*>(user);
  return t.gate.header(data, size * n, [&t](http_head& head) {
    head.effective_url = t.item.request.url;
    if (detail::is_retryable(head.status) &&
        t.item.attempts < std::max(t.owner->options.retry.max_attempts, 1)) {
      // Its body says nothing the next try needs: end the transfer now.
      t.retry = true;
      return false;
    }
    t.body_refused = !t.owner->handler->on_head(t.item.request.tag, head);
    return !t.body_refused;  // false ends it before a byte of body is read
  });
}

std::size_t fetcher::impl::on_body(char* data, std::size_t size, std::size_t n,
                                   void* user) {
  auto& t = *static_cast<transfer*>(user);
  return t.gate.body(data, size * n, [&t](const char* d, std::size_t bytes) {
    t.owner->bytes.fetch_add(bytes, std::memory_order_relaxed);
    return t.owner->handler->on_body(t.item.request.tag, d, bytes);
  });
}

void fetcher::impl::deliver(std::uint64_t tag, const fetch_outcome& outcome) {
  done.fetch_add(1, std::memory_order_relaxed);
  if (!outcome.ok()) errors.fetch_add(1, std::memory_order_relaxed);
  handler->on_done(tag, outcome);
}

void fetcher::impl::trace(const transfer& t, const fetch_outcome& out,
                          std::string_view why, std::string_view also) {
  if (!options.http.trace) return;
  http_response seen;
  static_cast<http_head&>(seen) = out.head;
  seen.body_bytes = out.body_bytes;
  seen.body_skipped = out.body_skipped || t.retry;
  options.http.trace(
      detail::trace_line(
          t.item.request.method == fetch_method::head ? "HEAD" : "GET",
          t.item.request.url, why.empty() ? &seen : nullptr, why,
          clock::now() - t.started) +
      std::string(also));
}

void fetcher::impl::start(detail::host_queues::host& from,
                          detail::queued_fetch item) {
  ++item.attempts;
  auto fail_now = [&](std::string_view why) {
    hosts.finished(from);
    fetch_outcome out;
    out.attempts = item.attempts;
    out.error = item.request.url + ": " + std::string(why);
    deliver(item.request.tag, out);
  };
  if (multi == nullptr) {
    return fail_now(init_code != CURLE_OK ? curl_easy_strerror(init_code)
                                          : "cannot create a libcurl handle");
  }
  CURL* h = nullptr;
  if (!spare.empty()) {
    h = spare.back();
    spare.pop_back();
    curl_easy_reset(h);
  } else {
    h = curl_easy_init();
  }
  if (h == nullptr) return fail_now("cannot create a libcurl handle");

  auto t = std::make_unique<transfer>();
  t->owner = this;
  t->from = &from;
  t->easy = h;
  t->item = std::move(item);
  t->headers = detail::make_header_list(t->item.request.headers, options.http,
                                        t->item.request.url);
  if (!t->headers) {
    spare.push_back(h);
    item = std::move(t->item);
    return fail_now("out of memory building the request headers");
  }
  t->gate.max_body_bytes = options.http.max_body_bytes;
  t->guard.scope = options.scope;
  t->started = clock::now();
  const fetch_request& r = t->item.request;
  defaults.apply(h, options.http.connect_timeout, options.http.total_timeout,
                 t->error_buffer.data());
  curl_easy_setopt(h, CURLOPT_URL, r.url.c_str());
  curl_easy_setopt(h, CURLOPT_PRIVATE, t.get());
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, &on_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, t.get());
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, t.get());
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, t->headers.get());
  if (r.method == fetch_method::head)
    curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
  else
    curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
  if (has_http_scheme(r.url) && (r.url[4] == 's' || r.url[4] == 'S')) {
    // HTTP/2 where the server offers it in TLS; a second request to the
    // host waits for the first connection to say whether it multiplexes
    // rather than opening another.
    curl_easy_setopt(h, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS);
    curl_easy_setopt(h, CURLOPT_PIPEWAIT, 1L);
  } else {
    // Plain http: HTTP/1.1 and keep-alive (no h2c upgrade, which a request
    // with a body-less GET gains nothing from and some servers mishandle).
    curl_easy_setopt(h, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1);
  }
  detail::guard_addresses(h, &t->guard);
  if (curl_multi_add_handle(multi, h) != CURLM_OK) {
    spare.push_back(h);
    item = std::move(t->item);
    return fail_now("cannot start the transfer (libcurl)");
  }
  active.push_back(std::move(t));
  in_flight.store(active.size(), std::memory_order_relaxed);
}

void fetcher::impl::finish(transfer& t, CURLcode code, bool cancel) {
  curl_multi_remove_handle(multi, t.easy);
  hosts.finished(*t.from);
  const auto it = std::find_if(active.begin(), active.end(),
                               [&t](const auto& a) { return a.get() == &t; });
  std::unique_ptr<transfer> owned = std::move(*it);
  active.erase(it);
  in_flight.store(active.size(), std::memory_order_relaxed);
  if (spare.size() < concurrency)
    spare.push_back(t.easy);
  else
    curl_easy_cleanup(t.easy);
  t.easy = nullptr;
  if (t.gate.threw) std::rethrow_exception(t.gate.threw);

  fetch_outcome out;
  out.attempts = t.item.attempts;
  out.head = std::move(t.gate.reader.head());
  out.body_bytes = t.gate.body_bytes;
  const std::string& url = t.item.request.url;
  if (t.retry && !cancel) {
    const auto wait = detail::retry_wait(options.retry, t.item.attempts,
                                         out.head.retry_after);
    trace(t, out, {},
          "; tried again in " + std::to_string(wait.count()) + " ms");
    hosts.push_front(*t.from, std::move(t.item), clock::now() + wait);
    count_queued();
    return;
  }
  std::string why;
  if (t.body_refused) {
    out.body_skipped = true;
  } else if (cancel) {
    why = "cancelled";
  } else if (code != CURLE_OK) {
    if (t.gate.over_cap) {
      why = detail::too_large_text(options.http.max_body_bytes);
    } else if (t.gate.receiver_stopped) {
      why = "the handler stopped the transfer";
    } else if (!t.guard.refused.empty()) {
      out.out_of_scope = t.guard.refused;
      why = detail::refused_address_text(t.guard.refused);
    } else {
      why = detail::transport_error_text(code, t.error_buffer.data());
    }
  }
  if (!why.empty()) out.error = url + ": " + why;
  trace(t, out, why, {});
  deliver(t.item.request.tag, out);
}

bool fetcher::impl::drive() {
  int running = 0;
  (void)curl_multi_perform(multi, &running);
  bool ended = false;
  int left = 0;
  while (CURLMsg* m = curl_multi_info_read(multi, &left)) {
    if (m->msg != CURLMSG_DONE) continue;
    transfer* t = nullptr;
    curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, &t);
    const CURLcode code = m->data.result;
    ended = true;
    finish(*t, code, false);
  }
  return ended;
}

fetcher::fetcher(fetch_options options)
    : impl_(std::make_unique<impl>(std::move(options))) {}

fetcher::~fetcher() = default;

void fetcher::submit(fetch_request request) {
  normalized_url url;
  if (const url_problem p = normalize_url(request.url, url);
      p != url_problem::ok) {
    impl_->refused.emplace_back(request.tag,
                                request.url + ": " + std::string(describe(p)));
  } else {
    impl_->hosts.push_back(impl_->hosts.at(url.origin()),
                           detail::queued_fetch{std::move(request), 0});
  }
  impl_->count_queued();
}

void fetcher::set_host_delay(std::string_view url,
                             std::chrono::milliseconds delay) {
  normalized_url u;
  if (normalize_url(url, u) == url_problem::ok)
    impl_->hosts.set_delay(u.origin(), delay);
}

bool fetcher::run(fetch_handler& handler) {
  impl& m = *impl_;
  m.handler = &handler;
  for (;;) {
    while (!m.refused.empty()) {
      auto [tag, why] = std::move(m.refused.front());
      m.refused.pop_front();
      m.count_queued();
      fetch_outcome out;
      out.error = std::move(why);
      m.deliver(tag, out);
    }
    if (m.cancelled()) {
      while (!m.active.empty()) m.finish(*m.active.front(), CURLE_OK, true);
      return false;
    }
    const auto now = clock::now();
    while (m.active.size() < m.concurrency) {
      auto next = m.hosts.next(now);
      if (!next) break;
      m.count_queued();
      m.start(*next->from, std::move(next->item));
    }
    if (m.active.empty() && m.hosts.queued() == 0 && m.refused.empty())
      return true;
    if (m.multi != nullptr && m.drive()) continue;  // start what may follow

    auto wait = http_cancel_step;
    if (const auto at = m.hosts.next_time(clock::now())) {
      wait = std::min(wait, std::chrono::ceil<std::chrono::milliseconds>(
                                *at - clock::now()));
    }
    wait = std::max(wait, std::chrono::milliseconds(0));
    if (m.multi != nullptr)
      (void)curl_multi_poll(m.multi, nullptr, 0, static_cast<int>(wait.count()),
                            nullptr);
    else
      std::this_thread::sleep_for(wait);  // only a host's delay is left
  }
}

void fetcher::wake() noexcept {
  if (impl_->multi != nullptr) (void)curl_multi_wakeup(impl_->multi);
}

fetch_counters fetcher::counters() const noexcept {
  fetch_counters c;
  c.queued = impl_->queued.load(std::memory_order_relaxed);
  c.in_flight = impl_->in_flight.load(std::memory_order_relaxed);
  c.done = impl_->done.load(std::memory_order_relaxed);
  c.errors = impl_->errors.load(std::memory_order_relaxed);
  c.bytes = impl_->bytes.load(std::memory_order_relaxed);
  return c;
}

}  // namespace sitemill
