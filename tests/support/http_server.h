// A scripted HTTP/1.1 server on 127.0.0.1 for tests of everything that
// fetches or sends (http_client, check, ping, IndexNow).
//
// It listens on an ephemeral loopback port only (tests may talk to nothing
// else), answers each request from a route table, records every request,
// and stops in its destructor: every wait inside it (reading, a scripted
// delay) wakes up on stop, so the destructor returns promptly even while a
// client still holds a connection open.
//
// Thread-safety: routes may be changed and the log read from the test's
// thread while connections are served; each connection has its own thread
// (at most max_connections at once, further ones wait in the backlog).
#ifndef SITEMILL_TESTS_SUPPORT_HTTP_SERVER_H
#define SITEMILL_TESTS_SUPPORT_HTTP_SERVER_H

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace sitemill::testing {

/// One scripted answer.
struct http_reply {
  int status = 200;
  /// Sent as given, after the status line. Content-Length (or
  /// Transfer-Encoding: chunked) and Content-Encoding: gzip are added by the
  /// server; do not list them.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  /// Waited before answering (the request is logged first); cut short when
  /// the server stops.
  std::chrono::milliseconds delay{0};
  /// Close the connection after reading the request, without a byte of
  /// answer.
  bool close_without_answer = false;
  /// Send the body in chunks of chunk_size bytes (Transfer-Encoding: chunked)
  /// instead of with a Content-Length.
  bool chunked = false;
  std::size_t chunk_size = 1024;
  /// gzip the body on the wire and say so with Content-Encoding: gzip.
  bool gzip = false;
  /// Announce the whole body but send only its first half, then close: a
  /// transfer cut off mid-body.
  bool truncate = false;
  /// Close the connection after this answer even if the client would keep it.
  bool close_after = false;
  /// This many more body bytes ('.') after `body`, counted in the
  /// Content-Length and written in pieces as the client reads them, never
  /// held in memory: a huge page. Not with chunked or gzip.
  std::uint64_t padding = 0;
  /// Waited after the head is sent and before the body (cut short when the
  /// server stops): a server that answers and then stalls.
  std::chrono::milliseconds stall_after_head{0};
};

/// A reply with `status`, `body` and a Content-Type header.
http_reply text_reply(int status, std::string body,
                      std::string content_type = "text/plain; charset=utf-8");

/// A redirect to `location` (absolute, or a path on this server).
http_reply redirect_reply(std::string location, int status = 301);

/// One request as it arrived.
struct recorded_request {
  std::string method;
  std::string target;   ///< as in the request line: path and query
  std::string version;  ///< "HTTP/1.1"
  std::vector<std::pair<std::string, std::string>> headers;  ///< in order
  std::string body;  ///< Content-Length or chunked body, decoded
  /// When its head had arrived, on the steady clock.
  std::chrono::steady_clock::time_point received;

  /// The value of the first header named `name` (case-insensitive), or
  /// std::nullopt.
  std::optional<std::string> header(std::string_view name) const;
  /// The target without its query.
  std::string_view path() const;
};

/// Computes a reply from the request (a site of thousands of pages, a
/// calendar without end); called on the connection's thread, outside the
/// server's lock, so it must be thread-safe itself.
using http_handler = std::function<http_reply(const recorded_request&)>;

class http_server {
 public:
  /// Binds 127.0.0.1 on a port the kernel picks and starts serving. A
  /// failure to bind or listen throws std::runtime_error (the test cannot
  /// run without it).
  http_server();
  ~http_server();
  http_server(const http_server&) = delete;
  http_server& operator=(const http_server&) = delete;

  static constexpr std::size_t max_connections = 32;

  std::uint16_t port() const noexcept { return port_; }
  /// "http://127.0.0.1:<port>" followed by `path`.
  std::string url(std::string_view path = "/") const;

  /// Every request for `path` is answered with `reply`. `path` matches the
  /// whole target (with query) first, then the target without its query.
  void route(std::string path, http_reply reply);
  /// Requests for `path` are answered with `replies` in turn; the last one
  /// repeats once they are used up (500 then 200; 429 then 200).
  void route(std::string path, std::vector<http_reply> replies);
  /// A shorthand for route(from, redirect_reply(to, status)).
  void redirect(std::string from, std::string to, int status = 301);
  /// Requests no route matches are answered by `handler` instead of a 404.
  void fallback(http_handler handler);
  /// Requests for `path` are answered with what `answer` makes of them
  /// (called on the connection's thread, without the server's lock).
  void route(std::string path, http_handler answer);

  /// Every request received so far, in arrival order.
  std::vector<recorded_request> requests() const;
  /// How many requests had `path` as their target, or as its path part.
  std::size_t count(std::string_view path) const;
  /// Connections accepted so far (keep-alive reuses one).
  std::size_t connections() const;
  /// The most requests that were being answered at one moment (from the
  /// arrival of the head to the start of the answer, so a reply's `delay`),
  /// in all, or with `host` as their Host header. Within the client's own
  /// time for the request, so never more than it had in flight.
  std::size_t peak_in_progress() const;
  std::size_t peak_in_progress(std::string_view host) const;
  /// Answers that could not be sent to the end: the client hung up first.
  std::size_t answers_cut() const;
  /// Body bytes the kernel accepted from this server, over all answers.
  std::uint64_t body_bytes_sent() const;

 private:
  struct route_entry {
    std::vector<http_reply> replies;
    std::size_t next = 0;
    http_handler answer;
  };
  struct gauge {
    std::size_t now = 0;
    std::size_t peak = 0;
  };
  struct connection {
    int fd = -1;
    std::thread thread;
    bool done = false;
  };

  void accept_loop();
  void serve(connection* conn);
  http_reply next_reply(const recorded_request& request);
  // Sends `reply`; false when the client hung up first (counted).
  bool answer(int fd, const recorded_request& req, const http_reply& reply,
              bool close);
  void begin_answer(const recorded_request& req);
  void end_answer(const recorded_request& req);
  // Waits up to `d`; false when the server is stopping.
  bool sleep_for(std::chrono::milliseconds d);

  int listen_fd_ = -1;
  int wake_read_ = -1;  // readable once stopping: every poll() watches it
  int wake_write_ = -1;
  std::uint16_t port_ = 0;

  mutable std::mutex mu_;
  std::condition_variable cv_;  // connection ended, or stopping
  bool stopping_ = false;
  std::map<std::string, route_entry, std::less<>> routes_;
  http_handler fallback_;
  std::vector<recorded_request> log_;
  std::list<connection> connections_;
  std::size_t accepted_ = 0;
  gauge in_progress_;
  std::map<std::string, gauge, std::less<>> in_progress_by_host_;
  std::size_t answers_cut_ = 0;
  std::uint64_t body_bytes_sent_ = 0;
  std::thread acceptor_;
};

/// A loopback port whose connects hang: it listens with a backlog of one
/// that a connection of its own fills, and never accepts, so the kernel
/// drops every further SYN (Linux) and a client waits in connect() until
/// its own timeout. For tests of cancelling a connect.
class stalled_listener {
 public:
  stalled_listener();  ///< throws std::runtime_error when it cannot
  ~stalled_listener();
  stalled_listener(const stalled_listener&) = delete;
  stalled_listener& operator=(const stalled_listener&) = delete;
  std::uint16_t port() const noexcept { return port_; }
  /// "http://127.0.0.1:<port>" followed by `path`.
  std::string url(std::string_view path = "/") const;

 private:
  int listen_fd_ = -1;
  int filler_fd_ = -1;
  std::uint16_t port_ = 0;
};

/// Waits until `condition` holds, looking every few milliseconds, for at
/// most `limit`; returns whether it held. For conditions another thread
/// makes true (a server noticing a hang-up), instead of a fixed sleep.
bool eventually(const std::function<bool()>& condition,
                std::chrono::milliseconds limit = std::chrono::seconds(10));

}  // namespace sitemill::testing

#endif  // SITEMILL_TESTS_SUPPORT_HTTP_SERVER_H
