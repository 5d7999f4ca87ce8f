// sitemill: submitting sitemap URLs through the search engines' own APIs,
// now that the ping endpoints are retired (docs/notify.md, "sitemill
// submit"):
//   * Google Search Console's sitemaps.submit: a service account's key file
//     signs a JWT (RS256) that the key's token_uri exchanges for an access
//     token with the `webmasters` scope, then
//     PUT {google_api_url}/webmasters/v3/sites/{site}/sitemaps/{sitemap};
//   * Bing Webmaster Tools' SubmitFeed:
//     POST {bing_api_url}/webmaster/api.svc/json/SubmitFeed?apikey=KEY with
//     {"siteUrl","feedUrl"}.
//
//   sitemill::submit_options o;
//   auto key = sitemill::read_google_key("/run/secrets/search-console.json");
//   if (!key) { /* key.err().message names the file and the problem */ }
//   o.google = std::move(*key);
//   sitemill::http_client client;
//   auto done = sitemill::submit_sitemaps(
//       client, {"https://www.example.com/sitemap.xml"}, o);
//   // done->requests[i].outcome, .message; done->token for Google's token
//
// Secrets (the private key, the signed JWT, the access token, Bing's API
// key) never appear in a report, a message or an error this API returns:
// request URLs hold "apikey=[hidden]", and every message passes through
// hide_secrets(). The http_client's trace sees the real request URL, so a
// caller that traces gives it hide_secrets() too (the CLI's -v does).
//
// Requests go through the caller's http_client, one at a time; 429 and 5xx
// are retried under options.retry, whose sleep is injectable.
//
// Thread-safety: the functions keep no state; an http_client is not
// thread-safe, so give each thread its own.
#ifndef SITEMILL_NOTIFY_SUBMIT_H
#define SITEMILL_NOTIFY_SUBMIT_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/net/http.h"
#include "sitemill/result.h"

namespace sitemill {

/// Search Console's API root (www.googleapis.com serves webmasters/v3).
inline constexpr std::string_view google_default_api_url =
    "https://www.googleapis.com";
/// Bing Webmaster Tools' API root.
inline constexpr std::string_view bing_default_api_url = "https://ssl.bing.com";
/// The OAuth scope sitemaps.submit needs (read and write; the read-only
/// webmasters.readonly cannot submit).
inline constexpr std::string_view google_webmasters_scope =
    "https://www.googleapis.com/auth/webmasters";

/// The fields of a Google service account's JSON key file that sitemill
/// uses. `private_key` is a secret: never printed.
struct google_service_account {
  std::string client_email;    ///< the JWT's "iss"; not a secret
  std::string private_key;     ///< PEM (PKCS#8), as the key file holds it
  std::string private_key_id;  ///< the JWT header's "kid"
  std::string token_uri;       ///< where the JWT is exchanged (its "aud")
};

/// Reads a service account's key file (JSON, as Google Cloud's console
/// downloads it): "client_email", "private_key", "private_key_id" and
/// "token_uri" must be strings, "type" (when present) "service_account",
/// `token_uri` an absolute http(s) URL, and the private key a PEM RSA key.
/// An error names the file, and the line of a JSON error; it never quotes
/// the private key.
result<google_service_account> read_google_key(const std::string& path);

/// read_google_key() on a text already read; `name` is what errors call it.
result<google_service_account> parse_google_key(std::string_view json,
                                                std::string_view name);

struct submit_options {
  /// Submit to Search Console with this account; empty: not to Google.
  std::optional<google_service_account> google;
  /// The API root the PUT goes to ("https://www.googleapis.com"); a proxy's
  /// or a test's. The token URL is the key's token_uri.
  std::string google_api_url{google_default_api_url};
  /// Submit to Bing Webmaster Tools with this API key; "": not to Bing.
  /// A secret: never printed.
  std::string bing_api_key;
  std::string bing_api_url{bing_default_api_url};
  /// The Search Console property: a URL-prefix property
  /// ("https://www.example.com/") or a Domain property
  /// ("sc-domain:example.com"). "": each sitemap's origin followed by "/".
  /// Bing's siteUrl is the same URL; for an sc-domain: property, which Bing
  /// does not have, each sitemap's origin followed by "/".
  std::string site;
  retry_policy retry;
  /// Check the options, read and sign with the key, and send nothing.
  bool dry_run = false;
};

/// Whether an engine is asked: Google with an account, Bing with a key.
bool submits_anywhere(const submit_options& options) noexcept;

enum class search_engine : std::uint8_t { google, bing };

/// "google", "bing".
std::string_view to_string(search_engine engine) noexcept;

enum class submit_outcome : std::uint8_t {
  not_sent,     ///< an earlier step failed (no access token)
  dry_run,      ///< not sent on purpose
  submitted,    ///< 2xx: the engine took it (which is not a crawl promise)
  refused,      ///< 4xx but 429: the engine's reason is in the message
  gave_up,      ///< 429 or 5xx until the retries ran out
  unreachable,  ///< no HTTP answer (DNS, connection, timeout)
  cancelled,    ///< the retry sleep was interrupted
};

/// "submitted", "refused", "not sent", ...
std::string_view to_string(submit_outcome outcome) noexcept;

/// Google's token exchange: the signed JWT for an access token.
struct google_token_step {
  std::string url;           ///< the key's token_uri
  std::string client_email;  ///< the account the token is for
  /// submitted: a token came back; dry_run: the JWT was signed, not sent.
  submit_outcome outcome = submit_outcome::not_sent;
  long status = 0;
  std::vector<http_attempt> attempts;
  std::string message;
  bool ok() const noexcept {
    return outcome == submit_outcome::submitted ||
           outcome == submit_outcome::dry_run;
  }
};

/// One sitemap submitted to one engine.
struct submit_request {
  search_engine engine = search_engine::google;
  std::string sitemap;  ///< normalised
  std::string site;     ///< the property (Google) or siteUrl (Bing)
  std::string method;   ///< "PUT" (Google), "POST" (Bing)
  /// The request URL, Bing's key shown as "apikey=[hidden]".
  std::string url;
  submit_outcome outcome = submit_outcome::not_sent;
  long status = 0;  ///< the last answer's; 0 when none
  std::vector<http_attempt> attempts;
  /// What the answer means: Google's {"error":{"code","message","status"}}
  /// or Bing's {"ErrorCode","Message"} in words, with what to do.
  std::string message;
  bool ok() const noexcept {
    return outcome == submit_outcome::submitted ||
           outcome == submit_outcome::dry_run;
  }
};

/// What a submission did.
struct submit_report {
  std::vector<std::string> sitemaps;       ///< normalised, without repeats
  std::optional<google_token_step> token;  ///< when Google was asked
  /// Google's for every sitemap, then Bing's, in the sitemaps' order.
  std::vector<submit_request> requests;
  std::size_t submitted() const noexcept;  ///< requests answered 2xx
  /// Every request was submitted (or it was a dry run).
  bool ok() const noexcept;
};

/// Refuses options that cannot submit: no engine, an API root that is not
/// an absolute http(s) URL, a `site` that is neither such a URL nor
/// "sc-domain:HOST", an account without its fields or whose private key is
/// not a PEM RSA key, a Bing key with characters a query cannot carry.
/// error::field names the option (`google`, `google_api_url`,
/// `bing_api_key`, `bing_api_url`, `site`).
status check_submit_options(const submit_options& options);

/// Checks the options and builds the requests without sending (each
/// not_sent): sitemaps are normalised (url.h) and repeats dropped; a
/// sitemap that is not an absolute http(s) URL fails the plan.
result<submit_report> plan_submit(const std::vector<std::string>& sitemaps,
                                  const submit_options& options);

/// Plans, then submits: Google first (one token for the run; when it cannot
/// be had, Google's requests are not sent and say why), then Bing. 2xx is
/// success; 429 and 5xx are retried under options.retry; other answers are
/// explained from the engine's JSON error. Every request is tried, also
/// after another failed: each sitemap and engine stands alone. A dry run
/// signs the JWT (so a key that cannot sign fails now) and sends nothing.
result<submit_report> submit_sitemaps(http_client& client,
                                      const std::vector<std::string>& sitemaps,
                                      const submit_options& options);

/// `text` with every secret of `options` (Bing's key, as given and
/// percent-encoded) replaced by "[hidden]": for a trace or a message the
/// caller makes.
std::string hide_secrets(std::string_view text, const submit_options& options);

}  // namespace sitemill

#endif  // SITEMILL_NOTIFY_SUBMIT_H
