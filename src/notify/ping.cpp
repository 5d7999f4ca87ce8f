// sitemill: the legacy sitemap ping (docs/protocol.md 1.9 and 4.1) and the
// check that a sitemap answers before it is announced.
#include "sitemill/notify/ping.h"

#include <string>
#include <string_view>
#include <utility>

#include "detail/text.h"
#include "net/exchange.h"
#include "sitemill/net/http.h"
#include "sitemill/url/url.h"

namespace sitemill {
namespace {

constexpr bool is_unreserved(unsigned char c) noexcept {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
         (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
}

std::string in_quotes(std::string_view s) {
  std::string out = "\"";
  detail::append_printable(out, s);
  out.push_back('"');
  return out;
}

// The alternatives every "retired" message names (docs/protocol.md 4.1).
constexpr std::string_view kModernWays =
    "announce sitemaps with a robots.txt Sitemap: line (sitemill robots) "
    "and changed URLs with IndexNow (sitemill indexnow); Google retired its "
    "ping in 2023 (404) and Bing in 2022 (410)";

}  // namespace

std::string encode_query_value(std::string_view value) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(value.size() * 3 / 2);
  for (const char ch : value) {
    const auto c = static_cast<unsigned char>(ch);
    if (is_unreserved(c)) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 0xF]);
    }
  }
  return out;
}

result<std::string> ping_request_url(std::string_view endpoint,
                                     std::string_view sitemap_url) {
  normalized_url endpoint_url;
  if (const url_problem p = normalize_url(endpoint, endpoint_url);
      p != url_problem::ok) {
    return error{"ping endpoint " + in_quotes(endpoint) + ": " +
                 std::string(describe(p))};
  }
  std::string sitemap;
  if (const url_problem p = normalize_url(sitemap_url, sitemap);
      p != url_problem::ok) {
    return error{"sitemap URL " + in_quotes(sitemap_url) + ": " +
                 std::string(describe(p))};
  }
  // An endpoint whose query ends in '?' or '&' is ready for the next
  // parameter already.
  std::string request(endpoint_url.href());
  const std::string_view query = endpoint_url.query();
  if (query.empty()) {
    request.push_back('?');
  } else if (!query.ends_with('?') && !query.ends_with('&')) {
    request.push_back('&');
  }
  request.append("sitemap=");
  request.append(encode_query_value(sitemap));
  return request;
}

std::string_view to_string(ping_outcome outcome) noexcept {
  switch (outcome) {
    case ping_outcome::accepted:
      return "accepted";
    case ping_outcome::dry_run:
      return "dry run";
    case ping_outcome::retired:
      return "retired";
    case ping_outcome::refused:
      return "refused";
    case ping_outcome::gave_up:
      return "gave up";
    case ping_outcome::unreachable:
      return "unreachable";
    case ping_outcome::cancelled:
      return "cancelled";
  }
  return "unknown";
}

result<ping_report> ping_sitemap(http_client& client, std::string_view endpoint,
                                 std::string_view sitemap_url,
                                 const ping_options& options) {
  auto url = ping_request_url(endpoint, sitemap_url);
  if (!url) return std::move(url).err();
  ping_report report;
  report.endpoint = std::string(endpoint);
  report.request_url = std::move(url).value();
  if (options.dry_run) {
    report.outcome = ping_outcome::dry_run;
    report.message = "would GET " + report.request_url;
    return report;
  }

  http_request request;
  request.url = report.request_url;
  detail::exchange_result r =
      detail::send_with_retries(client, request, options.retry);
  report.status = r.status;
  const std::string status = detail::status_text(r.status);
  if (r.cancelled) {
    report.outcome = ping_outcome::cancelled;
    report.message =
        "interrupted while waiting to retry (last answer " + status + ")";
  } else if (r.status == 0) {
    report.outcome = ping_outcome::unreachable;
    report.message = "no answer: " + r.error;
  } else if (r.status >= 200 && r.status <= 299) {
    report.outcome = ping_outcome::accepted;
    // docs/protocol.md 1.9: a 200 only means the request was received.
    report.message = status +
                     ": the ping was received (which says nothing "
                     "about whether the sitemap is valid)";
  } else if (r.status == 404 || r.status == 410) {
    report.outcome = ping_outcome::retired;
    report.message = status + ": this endpoint has been retired; " +
                     std::string(kModernWays);
  } else if (detail::is_retryable(r.status)) {
    report.outcome = ping_outcome::gave_up;
    report.message =
        "gave up " + detail::tries_text(r) + detail::quote_body(r.body);
  } else {
    report.outcome = ping_outcome::refused;
    report.message =
        status + ": the endpoint refused the ping" + detail::quote_body(r.body);
  }
  report.attempts = std::move(r.attempts);
  return report;
}

sitemap_check verify_sitemap(http_client& client, std::string_view sitemap_url,
                             const retry_policy& retry) {
  sitemap_check check;
  if (const url_problem p = normalize_url(sitemap_url, check.url);
      p != url_problem::ok) {
    check.url = std::string(sitemap_url);
    check.message = "sitemap URL " + in_quotes(sitemap_url) + ": " +
                    std::string(describe(p));
    return check;
  }
  http_request request;
  request.url = check.url;
  detail::exchange_result r = detail::send_with_retries(client, request, retry);
  check.status = r.status;
  if (r.cancelled) {
    check.message = "interrupted while waiting to retry";
  } else if (r.status == 0) {
    check.message = "no answer: " + r.error;
  } else if (r.status == 200) {
    check.ok = true;
    check.message = "answers 200 OK";
  } else {
    check.message =
        "answers " + detail::status_text(r.status) +
        (detail::is_retryable(r.status) ? " (" + detail::tries_text(r) + ")"
                                        : std::string()) +
        ", not 200; a search engine could not read it, so it is not "
        "announced";
  }
  check.attempts = std::move(r.attempts);
  return check;
}

}  // namespace sitemill
