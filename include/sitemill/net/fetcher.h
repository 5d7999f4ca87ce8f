// sitemill: a concurrent fetch engine for many URLs on few hosts (the
// crawler, `check --audit`), on libcurl's multi interface: HTTP/1.1
// keep-alive, and HTTP/2 multiplexing where an https server offers it.
//
// Polite by construction: at most `per_host` transfers to one host and
// `concurrency` in all, a least delay between the starts of two requests to
// one host (robots.txt's Crawl-delay, settable per host at any time), and
// 429 and 5xx answers tried again after Retry-After or an exponential
// backoff, as a timer that pauses that host only. A host is an origin
// (scheme, host and port), as robots.txt is per origin.
//
// It follows no redirect: a 3xx is an answer, delivered with its Location,
// for the caller to judge (in scope? seen already?) and submit. Headers come
// before the body, so the handler can refuse a body it does not want (an
// error page, a PDF) and the transfer ends before any of it is read.
//
// Memory stays flat: a queued request costs its URL and headers, a host its
// origin and a few numbers; no body is buffered (the handler gets chunks).
//
// Thread-safety: one thread submits and runs; every callback runs on the
// thread in run(). wake() and counters() may be called from any thread,
// and the cancel flag (http_options::cancel) set from any thread or a
// signal handler.
#ifndef SITEMILL_NET_FETCHER_H
#define SITEMILL_NET_FETCHER_H

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sitemill/net/http.h"

namespace sitemill {

struct fetch_options {
  /// Each attempt's connect and total timeouts, the body cap, the
  /// user agent, resolve pins, the trace (one line per attempt) and the
  /// cancel flag. max_redirects is not used: the fetcher follows none.
  http_options http;
  /// Transfers in flight at once, over all hosts; 0 counts as 1.
  unsigned concurrency = 8;
  /// Transfers in flight at once to one host; 0 counts as 1.
  unsigned per_host = 2;
  /// The least time between the starts of two requests to one host, for a
  /// host that set_host_delay() has not named.
  std::chrono::milliseconds host_delay{0};
  /// How 429 and 5xx answers are tried again (max_attempts, first_wait
  /// doubled each time, Retry-After capped by max_wait). `sleep` is not
  /// used: a wait is a timer in run()'s loop that pauses the host it is
  /// for, never other hosts. The answer that ends the tries is delivered.
  retry_policy retry;
  /// Judges every address connected to (fetch_scope::may_connect); not
  /// owned. nullptr: any address. Its same_host is not used: nothing is
  /// followed.
  const fetch_scope* scope = nullptr;
  /// Asked on run()'s thread whenever http.cancel is looked at (within
  /// http_cancel_step whatever the transfers are doing): true ends the run
  /// as the flag does. For a caller whose cancel is a question, not a flag
  /// (check's observer). Empty: only the flag.
  std::function<bool()> cancelled;
};

enum class fetch_method : std::uint8_t { get, head };

struct fetch_request {
  std::string url;  ///< absolute http(s)
  /// Sent as given: the crawler's If-None-Match and If-Modified-Since.
  std::vector<std::pair<std::string, std::string>> headers;
  fetch_method method = fetch_method::get;
  std::uint64_t tag = 0;  ///< the caller's; handed back in every callback
};

/// How one request ended.
struct fetch_outcome {
  /// "" when an answer came; else why not, naming the URL (DNS, connect,
  /// timeout, body cap, out of scope, cancelled, ...).
  std::string error;
  /// The answer's head; with an error, what came before it (status 0 when
  /// no answer did).
  http_head head;
  std::uint64_t body_bytes = 0;  ///< decoded body bytes handed to on_body
  bool body_skipped = false;     ///< on_head refused the body
  int attempts = 0;              ///< tries made, retries of 429/5xx included
  /// Set when the scope refused the address connected to ("10.0.0.1").
  std::string out_of_scope;

  bool ok() const noexcept { return error.empty(); }
};

/// The caller's side of run(). Every call is on run()'s thread, one at a
/// time; any of them may submit(). An exception thrown by one ends that
/// request's transfer and leaves run() (the fetcher stays usable; its
/// other transfers go on at the next run()).
class fetch_handler {
 public:
  virtual ~fetch_handler() = default;
  /// The answer's head, once its headers are in (not for a 429 or 5xx
  /// that will be tried again); true reads the body, false ends the
  /// transfer at once, which is not an error (outcome.body_skipped).
  virtual bool on_head(std::uint64_t tag, const http_head& head);
  /// A piece of the body, decoded, in order; false stops the transfer,
  /// which then ends with the error "the handler stopped the transfer".
  virtual bool on_body(std::uint64_t tag, const char* data, std::size_t size);
  /// The end of the request, exactly once per request submitted (unless a
  /// cancel leaves it queued, see run()). `outcome` lives for the call.
  virtual void on_done(std::uint64_t tag, const fetch_outcome& outcome) = 0;
};

/// What a progress line shows; a snapshot, each number read atomically.
struct fetch_counters {
  std::uint64_t queued = 0;     ///< waiting to start, retries included
  std::uint64_t in_flight = 0;  ///< transfers running
  std::uint64_t done = 0;       ///< on_done calls so far
  std::uint64_t errors = 0;     ///< of those, ended with an error
  std::uint64_t bytes = 0;      ///< body bytes received, all requests
};

class fetcher {
 public:
  explicit fetcher(fetch_options options = {});
  ~fetcher();
  fetcher(const fetcher&) = delete;
  fetcher& operator=(const fetcher&) = delete;

  /// Queues `request` behind the others of its host (FIFO per host; hosts
  /// take turns). Before run() or from inside a handler callback; never
  /// from another thread. A URL that is not absolute http(s) ends in
  /// on_done with an error, without a transfer.
  void submit(fetch_request request);

  /// The least time between request starts on the host of `url` (any URL
  /// of it, or its origin): robots.txt's Crawl-delay. Takes effect for the
  /// next start; callable at any time from run()'s thread.
  void set_host_delay(std::string_view url, std::chrono::milliseconds delay);

  /// Fetches until nothing is queued or in flight (true), or until the
  /// cancel flag is seen (false), within http_cancel_step of its being set
  /// whatever the phase of the transfers. On a cancel, transfers in flight
  /// end in on_done with the error "cancelled", and queued requests stay
  /// queued (counters().queued) for a later run().
  bool run(fetch_handler& handler);

  /// Makes a run() waiting for the network look at the cancel flag now.
  /// Thread-safe (curl_multi_wakeup()); from a signal handler set the
  /// flag only: it is seen within http_cancel_step anyway.
  void wake() noexcept;

  fetch_counters counters() const noexcept;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace sitemill

#endif  // SITEMILL_NET_FETCHER_H
