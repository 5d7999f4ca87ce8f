// sitemill: the legacy sitemap ping (docs/protocol.md 1.9 and 4.1, checklist
// item 44): GET <endpoint>?sitemap=<encoded URL>. Google (404, 2023) and Bing
// (410, 2022) retired theirs, so there is no default endpoint and 404/410
// are reported as "retired", naming robots.txt and IndexNow instead.
//
// Requests go through an http_client the caller configures (timeouts,
// User-Agent); 429 and 5xx are retried under a retry_policy (http.h) whose
// sleep is injectable. The dry-run form builds exactly what would be sent.
//
// Thread-safety: the functions keep no state; an http_client is not
// thread-safe, so give each thread its own.
#ifndef SITEMILL_NOTIFY_PING_H
#define SITEMILL_NOTIFY_PING_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/net/http.h"
#include "sitemill/result.h"

namespace sitemill {

/// `value` percent-encoded as a URI query value: every byte but the
/// unreserved A-Z a-z 0-9 - . _ ~ becomes %XX, so "%" becomes "%25".
std::string encode_query_value(std::string_view value);

/// The ping request for `sitemap_url`: `endpoint` (an absolute http(s) URL,
/// normalised) followed by "?sitemap=", or "&sitemap=" when it has a query
/// already, and the sitemap URL, normalised like every <loc> (a space
/// becomes %20, "ü" %C3%BC) and then encoded with encode_query_value().
/// Fails, saying which argument, when either URL is unusable.
result<std::string> ping_request_url(std::string_view endpoint,
                                     std::string_view sitemap_url);

enum class ping_outcome : std::uint8_t {
  accepted,     ///< a 2xx answer
  dry_run,      ///< not sent
  retired,      ///< 404 or 410: the engine no longer takes pings
  refused,      ///< another status that retrying does not change
  gave_up,      ///< 429 or 5xx until the retries ran out
  unreachable,  ///< no HTTP answer (DNS, connection, timeout)
  cancelled,    ///< the retry sleep was interrupted
};

/// "accepted", "dry run", "retired", ...
std::string_view to_string(ping_outcome outcome) noexcept;

struct ping_options {
  retry_policy retry;
  bool dry_run = false;
};

/// What one ping did.
struct ping_report {
  std::string endpoint;
  std::string request_url;  ///< what was (or would be) requested
  ping_outcome outcome = ping_outcome::dry_run;
  long status = 0;  ///< the last answer's status; 0 when none
  std::vector<http_attempt> attempts;
  std::string message;  ///< one or two sentences for people
  bool ok() const noexcept {
    return outcome == ping_outcome::accepted ||
           outcome == ping_outcome::dry_run;
  }
};

/// Pings `endpoint` about `sitemap_url` (see ping_request_url()). A 404 or
/// 410 says the endpoint has been retired and names robots.txt and IndexNow
/// instead; 429 and 5xx are retried under options.retry (honouring
/// Retry-After). Fails only when the URLs are unusable; every HTTP outcome is
/// in the report.
result<ping_report> ping_sitemap(http_client& client, std::string_view endpoint,
                                 std::string_view sitemap_url,
                                 const ping_options& options = {});

/// Whether a sitemap URL answers 200 before it is announced (ping --verify).
struct sitemap_check {
  bool ok = false;
  std::string url;  ///< normalised
  long status = 0;  ///< 0 when there was no answer
  std::vector<http_attempt> attempts;
  std::string message;
};

/// GETs `sitemap_url` (normalised; the body is read and discarded) and
/// requires a 200 after redirects; 429 and 5xx are retried under `retry`.
sitemap_check verify_sitemap(http_client& client, std::string_view sitemap_url,
                             const retry_policy& retry = {});

}  // namespace sitemill

#endif  // SITEMILL_NOTIFY_PING_H
