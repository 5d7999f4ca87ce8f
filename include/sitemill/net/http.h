// sitemill: HTTP for everything that fetches or sends (check, generate
// --from-sitemap, ping, IndexNow), on libcurl.
//
// Everything fetched is untrusted: http and https only (redirects too), a
// bounded number of redirects, connect and total timeouts, a cap on body
// bytes, and a User-Agent that names sitemill so site owners can tell who
// is asking. A request that fetches what a document names (the walker's)
// also carries a fetch_scope: where its redirects may lead and which
// addresses it may connect to, checked by the client on every hop.
#ifndef SITEMILL_HTTP_H
#define SITEMILL_HTTP_H

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sitemill/result.h"

namespace sitemill {

/// An IP address in 16 bytes: IPv6, or IPv4 as its mapped form
/// ::ffff:a.b.c.d, so that one comparison covers both spellings.
using ip_address = std::array<std::uint8_t, 16>;

/// "127.0.0.1", "::1", "[::1]" (as a URL's host writes it), "::ffff:10.0.0.1";
/// std::nullopt for anything else (a host name).
std::optional<ip_address> parse_ip_address(std::string_view text);

/// "127.0.0.1", "::1": IPv4 (and IPv4-mapped IPv6) in dotted form.
std::string to_string(const ip_address& address);

/// What makes `address` one a fetch must not reach by default: "loopback"
/// (127/8, ::1), "private" (10/8, 172.16/12, 192.168/16), "shared" (100.64/10,
/// RFC 6598: carrier NAT, and some clouds' metadata service), "link-local"
/// (169.254/16, fe80::/10: the usual cloud metadata address),
/// "unique local" (fc00::/7) or "unspecified" (0/8, ::: Linux connects
/// them to the machine itself); "" for any other. IPv4 inside IPv6
/// (::ffff:0:0/96, the NAT64 prefix 64:ff9b::/96) is judged as the IPv4.
std::string_view private_address_kind(const ip_address& address) noexcept;

/// Where a request may go, checked by http_client on every hop before
/// anything is sent there. Without one (http_request::scope), a request
/// may be redirected to any http(s) URL and connect to any address: what a
/// caller configures itself (a ping or IndexNow endpoint) needs no more.
struct fetch_scope {
  /// Follow a redirect only to the host and port of the URL requested
  /// (same_host(), url.h: http and https on their default ports count as
  /// one); another is an error naming where it led, and is not requested.
  bool same_host = true;
  /// Connect to any address; off, never to one private_address_kind()
  /// names, unless it is in `allowed`. Checked on the address libcurl
  /// connects to, after DNS, so a name that resolves to 127.0.0.1 is
  /// refused too. Through a proxy, the address checked is the proxy's.
  bool allow_private = false;
  /// Private addresses that may be reached all the same: those the user's
  /// own targets name.
  std::vector<ip_address> allowed;

  /// Whether a connection to `address` is in the scope.
  bool may_connect(const ip_address& address) const;

  /// Adds to `allowed` the private addresses a host the user named as a
  /// target stands for: an IP address as written ("10.0.0.7", "[::1]"),
  /// or the loopback for "localhost" and names under ".localhost" (RFC
  /// 6761 6.3; libcurl resolves them so, without DNS). A trailing dot is
  /// ignored; other names add nothing.
  void allow_target_host(std::string_view host);
};

struct http_options {
  std::chrono::milliseconds connect_timeout{10'000};
  std::chrono::milliseconds total_timeout{60'000};
  int max_redirects = 5;  ///< 0 refuses any redirect; negative counts as 0
  /// Body bytes accepted at most (after any Content-Encoding is undone);
  /// the transfer stops with an error beyond it.
  std::uint64_t max_body_bytes = 64ull * 1024 * 1024;
  /// Sent on every request; the default names sitemill and its version.
  std::string user_agent;
  /// Polled during a transfer at least every http_cancel_step, in every
  /// phase (a connect that hangs, a server that sends nothing): once it is
  /// true the request ends with the error "cancelled". Not owned; nullptr:
  /// never.
  const std::atomic<bool>* cancel = nullptr;
  /// Host names pinned to addresses, as curl's --resolve:
  /// "host:port:address" ("staging.example.com:443:10.0.0.7"): a server
  /// before its DNS is live, or a test's name for the loopback server.
  /// The fetch scope still judges the address.
  std::vector<std::string> resolve;
  /// Told one line per request sent, with its answer or why it failed
  /// ("GET https://example.com/sitemap.xml: 200, 12,345 bytes in 0.21 s"):
  /// the CLI's --verbose. Empty: nothing. Called on the sending thread.
  std::function<void(std::string_view line)> trace;
  /// Headers for one request, asked with the URL it goes to before every
  /// try and every hop of a redirect, and sent after the request's own:
  /// what belongs to one origin only (a crawl's cookies and login,
  /// credential_headers::hook() in net/credentials.h), so that a redirect
  /// elsewhere goes without them. Called on the sending thread. Empty:
  /// none.
  std::function<void(std::string_view url,
                     std::vector<std::pair<std::string, std::string>>& headers)>
      headers_for;
};

/// How long a transfer may go on before the cancel flag is looked at: the
/// bound on how late a Ctrl-C is seen (the issue asks for a second).
inline constexpr std::chrono::milliseconds http_cancel_step{200};

struct http_request {
  std::string method = "GET";
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;  ///< name, value
  std::string body;
  /// Where the request may go (see fetch_scope); not owned, and read only
  /// during send(). nullptr: any http(s) redirect, any address.
  const fetch_scope* scope = nullptr;
  /// Asked on the sending thread with http_options::cancel, as often: a
  /// caller whose stop is a question rather than a flag (a walk's
  /// observer) ends the request the same way. Empty: never.
  std::function<bool()> cancelled;
};

/// What a response says before its body: the status line and the headers
/// sitemill acts on, as sent (trimmed). Filled as the headers arrive, so a
/// caller can decide whether the body is worth reading (head_receiver).
struct http_head {
  long status = 0;  ///< 0 when no response came
  /// The URL that answered: after the redirects http_client followed, or
  /// the URL requested (the fetcher follows none).
  std::string effective_url;
  std::string content_type;
  /// Content-Length when the response states one (a HEAD's too).
  std::optional<std::uint64_t> content_length;
  std::string location;  ///< the Location header as sent; "" when none
  std::string last_modified;
  std::string etag;
  /// Every X-Robots-Tag header's value, in order: a response may send
  /// several, each naming other directives or another user agent.
  std::vector<std::string> x_robots_tag;
  std::optional<std::string> retry_after;  ///< Retry-After, as sent
};

/// A finished exchange: the final response's head and what was received.
struct http_response : http_head {
  std::uint64_t body_bytes = 0;  ///< decoded body bytes received
  int redirects = 0;
  /// The head_receiver refused the body: the transfer ended after the
  /// headers, and body_bytes is 0. Not an error.
  bool body_skipped = false;
  /// Set when send() failed because a hop left the request's fetch_scope:
  /// the redirect's target URL, or the address refused ("127.0.0.1").
  std::string out_of_scope;
};

/// Receives the body as it arrives; return false to stop the transfer (the
/// request then ends with an error saying the receiver stopped it).
using body_receiver = std::function<bool(const char* data, std::size_t size)>;

/// Sees the final response's head as soon as its headers are in, before
/// any of its body; returns whether to read the body. False ends the
/// transfer at once (an error page or a file that is not wanted is never
/// downloaded), and send() returns the response with body_skipped set.
using head_receiver = std::function<bool(const http_head& head)>;

/// One libcurl easy handle, reused across requests (keeps connections),
/// driven through a private multi handle so that the cancel flag is seen
/// within http_cancel_step in every phase: DNS, connect, TLS, waiting for
/// the answer, reading the body. Not thread-safe; one client per thread.
class http_client {
 public:
  explicit http_client(http_options options = {});
  ~http_client();
  http_client(const http_client&) = delete;
  http_client& operator=(const http_client&) = delete;

  /// Sends `request`, streaming the body to `receive` (or discarding it when
  /// empty). An error for transport failures (DNS, connect, TLS, timeout,
  /// redirect limit, a scheme other than http(s), the byte cap, a hop
  /// outside request.scope: last_response().out_of_scope says which),
  /// naming the URL; any HTTP status, 404 and 500 included, is a response.
  ///
  /// Methods: "GET", "HEAD" (no body read), "POST" (`body` sent with its
  /// size), anything else as a custom method (with `body` when not empty).
  /// Redirects (301, 302, 303, 307, 308 with a Location) are followed up to
  /// max_redirects (0: any redirect is an error), each checked against
  /// request.scope before it is requested; a 303, and a 301/302 answer to
  /// a POST, is followed with a GET, as browsers do (RFC 9110 15.4). `receive`
  /// is called only for the final response's body. An exception thrown by
  /// `receive` stops the transfer and is rethrown from send(). Proxies come
  /// from the usual environment variables, except for loopback addresses, which
  /// are always reached directly.
  ///
  /// `head`, when given, is called once with the final response's head
  /// (never a redirect's that is followed, never a 1xx) before its body;
  /// an exception it throws is rethrown from send() as `receive`'s is.
  result<http_response> send(const http_request& request,
                             const body_receiver& receive = {},
                             const head_receiver& head = {});

  /// Convenience: GET `url`, body collected in memory (up to the cap).
  result<std::pair<http_response, std::string>> get(const std::string& url);

  /// What is known of the last send()'s final response, also when it ended
  /// in an error after its headers came (the byte cap, a receiver that
  /// stopped, a cancel): status, Content-Type, Retry-After and the bytes
  /// received, as they arrived; `status` 0 when no response came.
  const http_response& last_response() const noexcept;

  const http_options& options() const noexcept { return options_; }

 private:
  result<http_response> send_once(const http_request& request,
                                  const body_receiver& receive,
                                  const head_receiver& head);

  http_options options_;
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// The default User-Agent: "sitemill/<version>
/// (+https://github.com/sitemill/sitemill)".
std::string default_user_agent();

// ---------------------------------------------------------------------------
// Retries, shared by everything that sends (ping, IndexNow, verification)

/// How a request answered with 429 or 5xx is retried. Other answers, and
/// transport failures (connection refused, timeout), are not retried: they
/// do not get better by asking again at once.
struct retry_policy {
  /// Tries in all, the first included; values under 1 count as 1.
  int max_attempts = 4;
  /// Wait before the second try; doubled for each further one.
  std::chrono::milliseconds first_wait{1'000};
  /// No single wait is longer, a Retry-After included, so a server asking
  /// for an hour cannot hang a deploy script.
  std::chrono::milliseconds max_wait{60'000};
  /// Waits `d`; returns false to stop retrying (an interrupt). Empty: the
  /// calling thread sleeps.
  std::function<bool(std::chrono::milliseconds d)> sleep;
};

/// A Retry-After value (RFC 9110 10.2.3) as a wait from `now`: delta-seconds
/// ("120") or an HTTP-date in any of its three forms (parse_http_date(): "Wed,
/// 21 Oct 2015 07:28:00 GMT", "Wednesday, 21-Oct-15 07:28:00 GMT", "Wed Oct
/// 21 07:28:00 2015"; a past date is 0). std::nullopt when it is neither.
std::optional<std::chrono::milliseconds> parse_retry_after(
    std::string_view value, std::chrono::system_clock::time_point now =
                                std::chrono::system_clock::now());

/// One try of a request.
struct http_attempt {
  long status = 0;    ///< 0 when the transfer failed
  std::string error;  ///< why the transfer failed; "" when it did not
  /// Waited after this try before the next one; 0 for the last.
  std::chrono::milliseconds wait{0};
};

}  // namespace sitemill

#endif  // SITEMILL_HTTP_H
