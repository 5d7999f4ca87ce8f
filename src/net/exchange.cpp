// sitemill: bounded retries with exponential backoff and Retry-After.
#include "net/exchange.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <string>
#include <thread>
#include <utility>

#include "detail/text.h"
#include "sitemill/date/dates.h"

namespace sitemill {
namespace {

using std::chrono::milliseconds;

// Enough of a body to quote an engine's explanation (Yandex answers 422
// with a JSON message); the rest is read and dropped.
constexpr std::size_t kBodyKept = 4096;

// Only a refusal's body is quoted (quote_body()). A success's is read only
// when it is small, so the connection stays open for the next request; a
// large one (the sitemap verify_sitemap() asks for) is never downloaded.
bool worth_reading(const http_head& head) {
  const bool success = head.status >= 200 && head.status <= 299;
  return !success || (head.content_length && *head.content_length <= kBodyKept);
}

// A Retry-After longer than three years is as good as "forever"; the
// policy's max_wait caps it anyway.
constexpr std::int64_t max_delay_seconds = 100'000'000;

template <class T>
bool parse_number(std::string_view s, T& out) {
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

std::optional<milliseconds> parse_retry_after(
    std::string_view value, std::chrono::system_clock::time_point now) {
  value = detail::trim(value);
  if (!value.empty() &&
      value.find_first_not_of("0123456789") == std::string_view::npos) {
    std::int64_t seconds = 0;
    // A delta too large for the number type is as good as the largest.
    if (!parse_number(value, seconds) || seconds > max_delay_seconds) {
      seconds = max_delay_seconds;
    }
    return milliseconds(static_cast<milliseconds::rep>(seconds) * 1000);
  }
  const std::chrono::year_month_day today{
      std::chrono::floor<std::chrono::days>(now)};
  parsed_date when;
  if (parse_http_date(value, static_cast<int>(today.year()), when) !=
      date_problem::ok)
    return std::nullopt;
  // In milliseconds counted from the epoch: system_clock's nanosecond ticks
  // end in 2262, and an HTTP date may say 9999.
  const std::int64_t wait =
      std::chrono::duration_cast<milliseconds>(
          to_time_point(when.value).time_since_epoch())
          .count() -
      std::chrono::floor<milliseconds>(now).time_since_epoch().count();
  if (wait <= 0) return milliseconds(0);
  return milliseconds(std::min<std::int64_t>(wait, max_delay_seconds * 1000));
}

namespace detail {

milliseconds retry_wait(const retry_policy& policy, int attempt,
                        const std::optional<std::string>& retry_after) {
  // Exponential from first_wait: 1 s, 2 s, 4 s, ... unless the server
  // named its own wait. Either way no longer than max_wait.
  milliseconds wait = policy.first_wait;
  for (int i = 1; i < attempt && wait < policy.max_wait; ++i) wait *= 2;
  if (retry_after) {
    if (auto asked = parse_retry_after(*retry_after)) wait = *asked;
  }
  return std::clamp(wait, milliseconds(0), policy.max_wait);
}

exchange_result send_with_retries(http_client& client,
                                  const http_request& request,
                                  const retry_policy& policy,
                                  bool read_success) {
  exchange_result out;
  const int max_attempts = std::max(policy.max_attempts, 1);
  for (int attempt = 1;; ++attempt) {
    std::string body;
    bool kept_all = false;
    auto response = client.send(
        request,
        [&body, &kept_all](const char* data, std::size_t size) {
          body.append(data, std::min(size, kBodyKept - body.size()));
          // The rest is not wanted: a huge answer is cut here, not read on
          // to the client's byte cap, whose error would hide its status.
          kept_all = body.size() == kBodyKept;
          return !kept_all;
        },
        [read_success](const http_head& head) {
          return read_success || worth_reading(head);
        });
    if (!response && kept_all) response = client.last_response();
    http_attempt tried;
    std::optional<std::string> retry_after;
    if (response) {
      tried.status = response->status;
      retry_after = response->retry_after;
      out.status = response->status;
      out.error.clear();
    } else {
      tried.error = response.err().message;
      out.status = 0;
      out.error = tried.error;
    }
    out.body = std::move(body);
    out.attempts.push_back(std::move(tried));
    if (!response || !is_retryable(out.status) || attempt >= max_attempts) {
      return out;
    }

    const milliseconds wait = retry_wait(policy, attempt, retry_after);
    out.attempts.back().wait = wait;
    const bool go_on = policy.sleep ? policy.sleep(wait)
                                    : (std::this_thread::sleep_for(wait), true);
    if (!go_on) {
      out.cancelled = true;
      return out;
    }
  }
}

std::string status_text(long status) {
  std::string_view reason;
  switch (status) {
    case 200:
      reason = "OK";
      break;
    case 202:
      reason = "Accepted";
      break;
    case 204:
      reason = "No Content";
      break;
    case 400:
      reason = "Bad Request";
      break;
    case 401:
      reason = "Unauthorized";
      break;
    case 403:
      reason = "Forbidden";
      break;
    case 404:
      reason = "Not Found";
      break;
    case 405:
      reason = "Method Not Allowed";
      break;
    case 410:
      reason = "Gone";
      break;
    case 413:
      reason = "Content Too Large";
      break;
    case 422:
      reason = "Unprocessable Entity";
      break;
    case 429:
      reason = "Too Many Requests";
      break;
    case 500:
      reason = "Internal Server Error";
      break;
    case 502:
      reason = "Bad Gateway";
      break;
    case 503:
      reason = "Service Unavailable";
      break;
    case 504:
      reason = "Gateway Timeout";
      break;
    default:
      break;
  }
  std::string out = std::to_string(status);
  if (!reason.empty()) {
    out.push_back(' ');
    out.append(reason);
  }
  return out;
}

std::string quote_body(std::string_view body) {
  std::string text;
  bool space = false;
  for (const char c : detail::trim(body)) {
    if (is_ascii_space(c)) {
      space = true;
      continue;
    }
    if (space) text.push_back(' ');
    space = false;
    text.push_back(c);
  }
  // An HTML error page says nothing the status does not.
  if (text.empty() || text.front() == '<') return {};
  std::string out = " (the server said: ";
  append_printable(out, text, 200);
  out.push_back(')');
  return out;
}

std::string tries_text(const exchange_result& r) {
  std::string out = "after " + std::to_string(r.attempts.size()) +
                    (r.attempts.size() == 1 ? " try" : " tries");
  if (r.status != 0) out += ", the last answered " + status_text(r.status);
  return out;
}

}  // namespace detail
}  // namespace sitemill
