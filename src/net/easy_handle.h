// sitemill: what every libcurl transfer of sitemill's sets up and reads the
// same way, whether http_client drives it alone or the fetcher drives many:
// the options from http_options, the request headers, the fetch scope's
// address check, the reading of the response head, and the words of the
// errors and trace lines. Internal to src/net/.
#ifndef SITEMILL_NET_EASY_HANDLE_H
#define SITEMILL_NET_EASY_HANDLE_H

#include <curl/curl.h>

#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sitemill/net/http.h"

namespace sitemill::detail {

/// curl_global_init(), once per process (it is not thread-safe in every
/// libcurl build); never undone, since other code may use libcurl at exit.
CURLcode curl_init_once();

/// The options of http_options that every transfer sets alike, prepared
/// once (the pins as a curl_slist, the user agent, the no-proxy list).
/// Read-only once built: one may serve many handles.
class easy_defaults {
 public:
  explicit easy_defaults(const http_options& options);
  ~easy_defaults();
  easy_defaults(const easy_defaults&) = delete;
  easy_defaults& operator=(const easy_defaults&) = delete;

  /// Sets them on `h` (just reset): http(s) only, no redirects followed by
  /// libcurl, the timeouts given, no signals, every encoding libcurl can
  /// undo, the user agent, the no-proxy list, the pins, and `error_buffer`
  /// (CURL_ERROR_SIZE bytes, living as long as the transfer).
  void apply(CURL* h, std::chrono::milliseconds connect_timeout,
             std::chrono::milliseconds total_timeout, char* error_buffer) const;

 private:
  std::string user_agent_;
  std::string no_proxy_;
  curl_slist* pins_ = nullptr;
};

using header_list = std::unique_ptr<curl_slist, void (*)(curl_slist*)>;

/// The request's headers as libcurl takes them, with "Expect:" added unless
/// the caller names one (a body over 1 MiB would otherwise wait for a "100
/// Continue" that many servers never send). Null when out of memory.
header_list make_header_list(
    const std::vector<std::pair<std::string, std::string>>& headers);

/// make_header_list() of a request's own `headers` and what
/// `options.headers_for` adds for `url`, the URL this transfer asks.
header_list make_header_list(
    const std::vector<std::pair<std::string, std::string>>& headers,
    const http_options& options, std::string_view url);

/// The fetch scope's check of the address a transfer connects to.
struct address_guard {
  const fetch_scope* scope = nullptr;
  std::string refused;  ///< the last address the scope refused, dotted
};

/// Has `h` ask `guard` before it opens a socket and before each request
/// (a kept connection, which no socket callback saw under this scope).
/// Nothing is set when guard->scope is null. `guard` must outlive the
/// transfer.
void guard_addresses(CURL* h, address_guard* guard);

/// "not connected to 127.0.0.1, a loopback address outside the fetch
/// scope (...)".
std::string refused_address_text(const std::string& address);

/// "response larger than N bytes": the body cap's error.
std::string too_large_text(std::uint64_t max_body_bytes);

/// Why a transfer failed, from libcurl's code and its error buffer.
std::string transport_error_text(CURLcode code, const char* error_buffer);

/// Reads libcurl's header lines into an http_head. Each response (a 1xx, a
/// redirect followed) starts afresh with its status line.
class head_reader {
 public:
  /// Takes one line as libcurl gives it (with its CRLF); true when it is
  /// the blank line that ends the head of a final response (not a 1xx);
  /// once, so a chunked body's trailers are not taken for headers.
  /// May throw std::bad_alloc.
  bool take(std::string_view line);
  http_head& head() noexcept { return head_; }

 private:
  http_head head_;
  bool complete_ = false;  // the head has ended: trailers do not count
};

/// What a transfer's header and body callbacks keep alike: the head as it
/// arrives, the body cap, and a caller's callback that refuses or throws
/// (an exception must not unwind through libcurl's C frames: it is kept
/// here and rethrown by the caller once the transfer has ended). Each
/// method returns what libcurl's callback returns: `bytes` to go on,
/// anything else to abort the transfer (CURLE_WRITE_ERROR).
struct transfer_gate {
  head_reader reader;
  std::uint64_t max_body_bytes = 0;
  std::uint64_t body_bytes = 0;
  bool over_cap = false;
  bool receiver_stopped = false;  // `receive` returned false
  std::exception_ptr threw;

  /// One header line; once a final response's head has ended, `decide`
  /// (bool(http_head&)) says whether to go on to its body.
  template <class Decide>
  std::size_t header(const char* data, std::size_t bytes, Decide&& decide) {
    try {
      if (!reader.take(std::string_view(data, bytes))) return bytes;
      return decide(reader.head()) ? bytes : 0;
    } catch (...) {
      threw = std::current_exception();
      return 0;
    }
  }

  /// A piece of the body, counted against the cap, then given to `receive`
  /// (bool(const char*, std::size_t)).
  template <class Receive>
  std::size_t body(const char* data, std::size_t bytes, Receive&& receive) {
    if (bytes > max_body_bytes - body_bytes) {
      over_cap = true;
      return 0;
    }
    body_bytes += bytes;
    if (bytes == 0) return bytes;
    try {
      if (receive(data, bytes)) return bytes;
      receiver_stopped = true;
    } catch (...) {
      threw = std::current_exception();
    }
    return 0;
  }
};

/// The trace line of one request: "GET URL: 200, 1,234 bytes in 0.21 s",
/// with where redirects ended, or "failed: why".
std::string trace_line(std::string_view method, std::string_view url,
                       const http_response* answer, std::string_view error,
                       std::chrono::steady_clock::duration took);

}  // namespace sitemill::detail

#endif  // SITEMILL_NET_EASY_HANDLE_H
