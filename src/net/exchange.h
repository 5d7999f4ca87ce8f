// sitemill: one HTTP exchange with bounded retries, shared by the ping, the
// sitemap check and IndexNow.
#ifndef SITEMILL_NOTIFY_EXCHANGE_H
#define SITEMILL_NOTIFY_EXCHANGE_H

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/net/http.h"

namespace sitemill::detail {

/// How an exchange ended.
struct exchange_result {
  long status = 0;    ///< the last answer's status; 0 when none
  std::string error;  ///< the last try's transport failure, or ""
  /// The start of the last answer's body (a few KiB): a refusal's always, a
  /// success's only when it states a length that small.
  std::string body;
  std::vector<http_attempt> attempts;
  bool cancelled = false;  ///< the retry sleep said stop
};

/// 429 and every 5xx: answers that may differ when asked again later.
constexpr bool is_retryable(long status) noexcept {
  return status == 429 || (status >= 500 && status <= 599);
}

/// How long to wait after try number `attempt` (1 for the first) answered
/// 429 or 5xx: the answer's Retry-After when it has one, else first_wait
/// doubled for each earlier try; never more than max_wait.
std::chrono::milliseconds retry_wait(
    const retry_policy& policy, int attempt,
    const std::optional<std::string>& retry_after);

/// Sends `request`, retrying 429 and 5xx answers under `policy`. With
/// `read_success`, a success's body is kept too (its first few KiB), stated
/// length or not: an answer the caller reads (an OAuth token).
exchange_result send_with_retries(http_client& client,
                                  const http_request& request,
                                  const retry_policy& policy,
                                  bool read_success = false);

/// "404 Not Found", "429 Too Many Requests", "599".
std::string status_text(long status);

/// " (the server said: ...)" from the start of a body, or "" when it holds
/// no text worth quoting.
std::string quote_body(std::string_view body);

/// "after 4 tries, the last answered 503 Service Unavailable".
std::string tries_text(const exchange_result& r);

}  // namespace sitemill::detail

#endif  // SITEMILL_NOTIFY_EXCHANGE_H
