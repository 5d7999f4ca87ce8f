// sitemill: sitemaps submitted through Search Console's and Bing Webmaster
// Tools' APIs (docs/notify.md, "sitemill submit").
//
// Choices where the APIs leave room:
//   * One access token per run: Google's last an hour, longer than any run
//     of a few sitemaps.
//   * Every request is tried whatever another answered: unlike IndexNow's
//     batches, two sitemaps (or two engines) share nothing a refusal could
//     predict, but Google's requests wait for the token and are not sent
//     without one.
//   * A URL-prefix property always ends in '/', as Search Console lists
//     them; one given without is completed.
#include "sitemill/notify/submit.h"

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "detail/text.h"
#include "net/exchange.h"
#include "notify/submit_jwt.h"
#include "sitemill/notify/ping.h"
#include "sitemill/url/url.h"

namespace sitemill {
namespace {

constexpr std::string_view kHidden = "[hidden]";
constexpr std::string_view kDomainPrefix = "sc-domain:";

// Both APIs take their parameters percent-encoded with every reserved
// character escaped ("https%3A%2F%2F..." in a path segment), which is what
// a query value's encoding does.
std::string encode_segment(std::string_view s) { return encode_query_value(s); }

void replace_all(std::string& text, std::string_view what,
                 std::string_view with) {
  if (what.empty()) return;
  for (std::size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + with.size()))
    text.replace(at, what.size(), with);
}

// An API root without its final '/': "https://www.googleapis.com".
result<std::string> api_root(std::string_view given, const char* field) {
  std::string root;
  if (const url_problem p = normalize_url(given, root); p != url_problem::ok)
    return error{"`" + std::string(field) + "` " +
                     detail::quoted_printable(given) + ": " +
                     std::string(describe(p)),
                 field};
  if (root.find('?') != std::string::npos)
    return error{"`" + std::string(field) + "` " +
                     detail::quoted_printable(given) +
                     ": an API root has no query",
                 field};
  while (root.ends_with('/')) root.pop_back();
  return root;
}

// The property as Search Console names it, or an error.
result<std::string> property_of(std::string_view site) {
  if (site.starts_with(kDomainPrefix)) {
    const std::string_view host = site.substr(kDomainPrefix.size());
    normalized_url u;
    if (host.empty() || host.find_first_of("/:?#@ ") != std::string::npos ||
        normalize_url("https://" + std::string(host) + "/", u) !=
            url_problem::ok)
      return error{"`site` " + detail::quoted_printable(site) +
                       ": a Domain property is sc-domain: and a host name "
                       "(sc-domain:example.com)",
                   "site"};
    return std::string(kDomainPrefix) + std::string(u.host());
  }
  std::string url;
  if (normalize_url(site, url) != url_problem::ok)
    return error{"`site` " + detail::quoted_printable(site) +
                     ": a property is a URL prefix "
                     "(https://www.example.com/) or sc-domain:HOST",
                 "site"};
  if (!url.ends_with('/')) url.push_back('/');
  return url;
}

// The parts of a Search Console error body: "PERMISSION_DENIED: User does
// not have sufficient permission ..." (Google's {"error":{"code","message",
// "status"}}), or the OAuth form {"error","error_description"}; "" when the
// body says neither.
std::string google_said(std::string_view body) {
  auto m = detail::flat_json_object(body);
  if (!m) return {};
  std::string out;
  auto add = [&out](std::string_view part) {
    if (part.empty()) return;
    if (!out.empty()) out += ": ";
    detail::append_printable(out, part, 300);
  };
  if (!detail::member(*m, "error.message").empty()) {
    add(detail::member(*m, "error.status"));
    add(detail::member(*m, "error.message"));
  } else {
    add(detail::member(*m, "error"));
    add(detail::member(*m, "error_description"));
  }
  return out;
}

// Bing's ApiErrorCode names (Microsoft.Bing.Webmaster.Api).
std::string_view bing_code_name(std::string_view code) {
  static constexpr std::string_view names[] = {"None",
                                               "InternalError",
                                               "UnknownError",
                                               "InvalidApiKey",
                                               "ThrottleUser",
                                               "ThrottleHost",
                                               "UserBlocked",
                                               "InvalidUrl",
                                               "InvalidParameter",
                                               "TooManySites",
                                               "UserNotFound",
                                               "NotFound",
                                               "AlreadyExists",
                                               "NotAllowed",
                                               "NotAuthorized",
                                               "UnexpectedState",
                                               "Deprecated"};
  std::size_t n = 0;
  if (code.empty() || code.size() > 2) return {};
  for (const char c : code) {
    if (!detail::is_ascii_digit(c)) return {};
    n = n * 10 + static_cast<std::size_t>(c - '0');
  }
  return n < std::size(names) ? names[n] : std::string_view{};
}

// "InvalidApiKey (3): ERROR!!! Invalid API key" from Bing's {"ErrorCode",
// "Message"}; the code alone tells what to do, so it comes first.
std::string bing_said(std::string_view body, std::string_view& code_name) {
  auto m = detail::flat_json_object(body);
  if (!m) return {};
  const std::string_view code = detail::member(*m, "ErrorCode");
  const std::string_view message = detail::member(*m, "Message");
  code_name = bing_code_name(code);
  std::string out;
  if (!code.empty())
    out = code_name.empty()
              ? "ErrorCode " + std::string(code)
              : std::string(code_name) + " (" + std::string(code) + ")";
  if (!message.empty()) {
    if (!out.empty()) out += ": ";
    detail::append_printable(out, message, 300);
  }
  return out;
}

// What every answer shares: no answer, cancelled, retried in vain, 2xx.
// Returns false when the caller must explain a refusal itself.
template <class Step>
bool common_outcome(Step& step, const detail::exchange_result& r,
                    std::string_view said) {
  step.status = r.status;
  const std::string quoted =
      said.empty() ? detail::quote_body(r.body)
                   : " (the server said: " + std::string(said) + ")";
  if (r.cancelled) {
    step.outcome = submit_outcome::cancelled;
    step.message = "interrupted while waiting to retry (last answer " +
                   detail::status_text(r.status) + ")";
  } else if (r.status == 0) {
    step.outcome = submit_outcome::unreachable;
    step.message = "no answer: " + r.error;
  } else if (r.status >= 200 && r.status <= 299) {
    step.outcome = submit_outcome::submitted;
  } else if (detail::is_retryable(r.status)) {
    step.outcome = submit_outcome::gave_up;
    step.message = "gave up " + detail::tries_text(r) + quoted;
  } else {
    step.outcome = submit_outcome::refused;
    return false;
  }
  return true;
}

// Everything a message may hold that must not be printed.
struct secrets {
  const submit_options& options;
  std::string jwt;
  std::string token;
  void hide(std::string& text) const {
    text = hide_secrets(text, options);
    replace_all(text, jwt, kHidden);
    replace_all(text, token, kHidden);
  }
};

void get_token(http_client& client, const google_service_account& account,
               const submit_options& options, google_token_step& step,
               secrets& hidden) {
  const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  auto jwt = detail::google_jwt(account, now);
  if (!jwt) {
    step.outcome = submit_outcome::refused;
    step.message = "cannot sign the JWT: " + jwt.err().message;
    return;
  }
  hidden.jwt = *jwt;
  if (options.dry_run) {
    step.outcome = submit_outcome::dry_run;
    step.message = "signed a JWT for " + account.client_email +
                   "; would POST it to " + step.url + " for an access token";
    return;
  }
  http_request request;
  request.method = "POST";
  request.url = step.url;
  request.headers = {{"Content-Type", "application/x-www-form-urlencoded"}};
  request.body = "grant_type=" +
                 encode_segment("urn:ietf:params:oauth:grant-type:jwt-bearer") +
                 "&assertion=" + encode_segment(*jwt);
  detail::exchange_result r = detail::send_with_retries(
      client, request, options.retry, /*read_success=*/true);
  const std::string said = google_said(r.body);
  step.attempts = std::move(r.attempts);
  if (common_outcome(step, r, said)) {
    if (step.outcome != submit_outcome::submitted) return;
    auto m = detail::flat_json_object(r.body);
    const std::string_view token =
        m ? detail::member(*m, "access_token") : std::string_view{};
    const std::string_view type =
        m ? detail::member(*m, "token_type") : std::string_view{};
    if (token.empty() || (!type.empty() && !detail::iequals(type, "Bearer"))) {
      // What the answer held instead: an OAuth error in a 200, an HTML
      // page, JSON cut at the bytes kept.
      step.outcome = submit_outcome::refused;
      step.message = detail::status_text(r.status) + " from " + step.url +
                     ": the answer holds no Bearer \"access_token\"" +
                     (said.empty() ? m ? std::string()
                                       : "; it is not a JSON object" +
                                             detail::quote_body(r.body)
                                   : " (the server said: " + said + ")") +
                     "; is the key's token_uri Google's token endpoint?";
      return;
    }
    hidden.token = std::string(token);
    step.message = detail::status_text(r.status) + ": an access token for " +
                   account.client_email;
    return;
  }
  step.message = detail::status_text(r.status) + ": the token endpoint " +
                 "refused the service account " + account.client_email +
                 (said.empty() ? detail::quote_body(r.body) : ": " + said);
  if (said.find("invalid_grant") != std::string::npos)
    step.message +=
        "; the key may be deleted or disabled in Google Cloud's console, or "
        "this machine's clock is off (the JWT's iat and exp)";
}

// A 2xx whose body is an error object (a proxy's, or an API's that answers
// every call 200): refused, for the sitemap was not taken.
bool error_in_success(submit_request& req, const detail::exchange_result& r,
                      const std::string& said) {
  if (req.outcome != submit_outcome::submitted || said.empty()) return false;
  req.outcome = submit_outcome::refused;
  req.message =
      detail::status_text(r.status) + ", but the answer is an error: " + said;
  return true;
}

void explain_google(submit_request& req, const detail::exchange_result& r,
                    const google_service_account& account) {
  const std::string said = google_said(r.body);
  if (common_outcome(req, r, said)) {
    if (error_in_success(req, r, said)) return;
    if (req.outcome == submit_outcome::submitted)
      req.message = detail::status_text(r.status) +
                    ": Search Console took the sitemap; it reads it later, "
                    "and its Sitemaps report says how that went";
    return;
  }
  req.message = detail::status_text(r.status) +
                (said.empty() ? detail::quote_body(r.body) : ": " + said);
  if (r.status == 401) {
    req.message += "; the access token was refused";
  } else if (r.status == 403) {
    req.message += "; add " + account.client_email +
                   " as an Owner of the property " + req.site +
                   " in Search Console (Settings > Users and permissions), "
                   "spelled as Search Console lists it (`site`: a URL "
                   "prefix with its final '/', or sc-domain:HOST), and "
                   "enable the Search Console API in the key's Google "
                   "Cloud project";
  } else if (r.status == 404) {
    req.message += "; Search Console has no property " + req.site +
                   " that this account may use (`site`)";
  } else if (r.status == 400) {
    req.message +=
        "; the sitemap must lie inside the property " + req.site + " (`site`)";
  }
}

void explain_bing(submit_request& req, const detail::exchange_result& r) {
  std::string_view code;
  const std::string said = bing_said(r.body, code);
  if (common_outcome(req, r, said)) {
    if (error_in_success(req, r, said)) return;
    if (req.outcome == submit_outcome::submitted)
      req.message = detail::status_text(r.status) +
                    ": Bing Webmaster Tools took the sitemap";
    return;
  }
  req.message = detail::status_text(r.status) +
                (said.empty() ? detail::quote_body(r.body) : ": " + said);
  if (code == "InvalidApiKey") {
    req.message +=
        "; check `bing_api_key` (Bing Webmaster Tools > Settings > API "
        "access)";
  } else if (code == "NotAuthorized" || code == "UserNotFound" ||
             code == "NotFound") {
    req.message += "; the site " + req.site +
                   " must be verified in Bing Webmaster Tools by the user "
                   "whose API key this is (`site`)";
  } else if (code == "InvalidUrl" || code == "InvalidParameter") {
    req.message += "; the sitemap must lie on the site " + req.site +
                   " as Bing Webmaster Tools lists it (`site`)";
  }
}

}  // namespace

bool submits_anywhere(const submit_options& options) noexcept {
  return options.google.has_value() || !options.bing_api_key.empty();
}

std::string_view to_string(search_engine engine) noexcept {
  return engine == search_engine::google ? "google" : "bing";
}

std::string_view to_string(submit_outcome outcome) noexcept {
  switch (outcome) {
    case submit_outcome::not_sent:
      return "not sent";
    case submit_outcome::dry_run:
      return "dry run";
    case submit_outcome::submitted:
      return "submitted";
    case submit_outcome::refused:
      return "refused";
    case submit_outcome::gave_up:
      return "gave up";
    case submit_outcome::unreachable:
      return "unreachable";
    case submit_outcome::cancelled:
      return "cancelled";
  }
  return "unknown";
}

std::size_t submit_report::submitted() const noexcept {
  std::size_t n = 0;
  for (const auto& r : requests) n += r.outcome == submit_outcome::submitted;
  return n;
}

bool submit_report::ok() const noexcept {
  if (token && !token->ok()) return false;
  for (const auto& r : requests)
    if (!r.ok()) return false;
  return true;
}

std::string hide_secrets(std::string_view text, const submit_options& options) {
  std::string out(text);
  if (!options.bing_api_key.empty()) {
    replace_all(out, options.bing_api_key, kHidden);
    replace_all(out, encode_segment(options.bing_api_key), kHidden);
  }
  return out;
}

status check_submit_options(const submit_options& options) {
  if (!submits_anywhere(options))
    return error{
        "no engine to submit to: give `google` (a service account's key) "
        "or `bing_api_key`",
        "google"};
  if (options.google) {
    const google_service_account& g = *options.google;
    if (g.client_email.empty() || g.private_key_id.empty() ||
        g.token_uri.empty())
      return error{
          "`google`: the account needs client_email, private_key_id and "
          "token_uri (read_google_key() fills them from the key file)",
          "google"};
    std::string token_uri;
    if (normalize_url(g.token_uri, token_uri) != url_problem::ok)
      return error{"`google`: token_uri " +
                       detail::quoted_printable(g.token_uri) +
                       " is not an absolute http(s) URL",
                   "google"};
    if (!detail::is_rsa_private_key(g.private_key))
      return error{"`google`: the private key is not a PEM RSA private key",
                   "google"};
    if (auto root = api_root(options.google_api_url, "google_api_url"); !root)
      return root.err();
  }
  if (!options.bing_api_key.empty()) {
    for (const char c : options.bing_api_key)
      if (static_cast<unsigned char>(c) <= ' ' || c == 0x7F)
        return error{
            "`bing_api_key` holds a space or a control character; an API "
            "key is one word",
            "bing_api_key"};
    if (auto root = api_root(options.bing_api_url, "bing_api_url"); !root)
      return root.err();
  }
  if (!options.site.empty())
    if (auto p = property_of(options.site); !p) return p.err();
  return {};
}

result<submit_report> plan_submit(const std::vector<std::string>& sitemaps,
                                  const submit_options& options) {
  if (status s = check_submit_options(options); !s) return s.err();
  const std::string property =
      options.site.empty() ? std::string() : *property_of(options.site);
  submit_report report;
  std::unordered_set<std::string> seen;
  std::vector<normalized_url> urls;
  for (const std::string& given : sitemaps) {
    normalized_url u;
    if (const url_problem p = normalize_url(given, u); p != url_problem::ok)
      return error{"sitemap " + detail::quoted_printable(given) + ": " +
                   std::string(describe(p))};
    if (seen.emplace(u.href()).second) {
      report.sitemaps.emplace_back(u.href());
      urls.push_back(std::move(u));
    }
  }
  if (report.sitemaps.empty())
    return error{"no sitemap to submit: give the URL of each sitemap"};
  if (options.google) {
    const std::string root = *api_root(options.google_api_url, "");
    google_token_step& token = report.token.emplace();
    (void)normalize_url(options.google->token_uri, token.url);
    token.client_email = options.google->client_email;
    for (const normalized_url& u : urls) {
      submit_request& req = report.requests.emplace_back();
      req.engine = search_engine::google;
      req.sitemap = u.href();
      req.site = property.empty() ? std::string(u.origin()) + "/" : property;
      req.method = "PUT";
      req.url = root + "/webmasters/v3/sites/" + encode_segment(req.site) +
                "/sitemaps/" + encode_segment(req.sitemap);
    }
  }
  if (!options.bing_api_key.empty()) {
    const std::string root = *api_root(options.bing_api_url, "");
    for (const normalized_url& u : urls) {
      submit_request& req = report.requests.emplace_back();
      req.engine = search_engine::bing;
      req.sitemap = u.href();
      req.site = property.empty() || property.starts_with(kDomainPrefix)
                     ? std::string(u.origin()) + "/"
                     : property;
      req.method = "POST";
      req.url = root + "/webmaster/api.svc/json/SubmitFeed?apikey=" +
                std::string(kHidden);
    }
  }
  return report;
}

result<submit_report> submit_sitemaps(http_client& client,
                                      const std::vector<std::string>& sitemaps,
                                      const submit_options& options) {
  auto planned = plan_submit(sitemaps, options);
  if (!planned) return planned;
  submit_report& report = *planned;
  secrets hidden{options, {}, {}};
  if (report.token) {
    get_token(client, *options.google, options, *report.token, hidden);
    hidden.hide(report.token->message);
  }
  for (submit_request& req : report.requests) {
    const bool google = req.engine == search_engine::google;
    if (options.dry_run) {
      req.outcome = submit_outcome::dry_run;
      req.message = "would " + req.method + " " + req.url;
      continue;
    }
    if (google && !report.token->ok()) {
      req.message = "no access token (the token exchange: " +
                    std::string(to_string(report.token->outcome)) + ")";
      continue;
    }
    http_request request;
    request.method = req.method;
    if (google) {
      request.url = req.url;
      // Google's front end answers 411 to a PUT that states no length.
      request.headers = {{"Authorization", "Bearer " + hidden.token},
                         {"Content-Length", "0"}};
    } else {
      request.url = req.url.substr(0, req.url.size() - kHidden.size()) +
                    encode_segment(options.bing_api_key);
      request.headers = {{"Content-Type", "application/json; charset=utf-8"}};
      request.body = nlohmann::ordered_json{
          {"siteUrl", req.site},
          {"feedUrl",
           req.sitemap}}.dump();
    }
    // A success's body is read too (its first few KiB): an error object in
    // a 200 is a refusal.
    detail::exchange_result r = detail::send_with_retries(
        client, request, options.retry, /*read_success=*/true);
    for (http_attempt& a : r.attempts) hidden.hide(a.error);
    hidden.hide(r.error);
    if (google)
      explain_google(req, r, *options.google);
    else
      explain_bing(req, r);
    req.attempts = std::move(r.attempts);
    hidden.hide(req.message);
  }
  if (report.token)
    for (http_attempt& a : report.token->attempts) hidden.hide(a.error);
  return planned;
}

}  // namespace sitemill
