// sitemill: IndexNow (docs/protocol.md 4.2, checklist item 45): changed URLs
// POSTed in batches of at most 10,000, one host per run, with the engine's
// answer explained.
//
// Requests go through an http_client the caller configures; 429 and 5xx are
// retried under a retry_policy (http.h) whose sleep is injectable, so tests
// prove the backoff without waiting. plan_indexnow() and the dry-run form
// build exactly what would be sent and send nothing.
//
// Thread-safety: the functions keep no state; an http_client is not
// thread-safe, so give each thread its own.
#ifndef SITEMILL_NOTIFY_INDEXNOW_H
#define SITEMILL_NOTIFY_INDEXNOW_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/net/http.h"
#include "sitemill/result.h"

namespace sitemill {

/// The shared endpoint; participating engines pass submissions on.
inline constexpr std::string_view indexnow_default_endpoint =
    "https://api.indexnow.org/indexnow";
/// "You can submit up to 10,000 URLs per post" (IndexNow documentation).
inline constexpr std::size_t indexnow_max_urls_per_post = 10'000;

/// True when `key` matches ^[A-Za-z0-9-]{8,128}$ (the protocol's character
/// list, which is wider than the "hexadecimal" its prose says).
bool is_valid_indexnow_key(std::string_view key) noexcept;

/// A fresh key: 32 lowercase hexadecimal characters from the system's
/// random source.
std::string generate_indexnow_key();

/// Writes the key file `<dir>/<key>.txt`, whose body is exactly the key
/// (UTF-8, no line end), atomically; `dir` must exist. Returns the path.
/// With `dry_run`, checks and returns the path but writes nothing.
result<std::string> write_indexnow_key(const std::string& dir,
                                       std::string_view key,
                                       bool dry_run = false);

struct indexnow_options {
  std::string endpoint{indexnow_default_endpoint};
  std::string key;
  /// Absolute URL of the key file; "" means https://<host>/<key>.txt, and
  /// "keyLocation" is then left out of the request. When given, it fixes
  /// the host, and only URLs in its directory (or below) may be submitted.
  std::string key_location;
  /// URLs per POST, 1 to 10,000.
  std::size_t batch_size = indexnow_max_urls_per_post;
  retry_policy retry;
  bool dry_run = false;
};

enum class indexnow_outcome : std::uint8_t {
  not_sent,     ///< an earlier batch failed for good, or planning only
  dry_run,      ///< not sent on purpose
  accepted,     ///< 200: received
  pending,      ///< 202: received, key validation pending
  refused,      ///< 400, 403, 422 or another status retrying does not change
  gave_up,      ///< 429 or 5xx until the retries ran out
  unreachable,  ///< no HTTP answer (DNS, connection, timeout)
  cancelled,    ///< the retry sleep was interrupted
};

/// "accepted", "pending", "refused", ...
std::string_view to_string(indexnow_outcome outcome) noexcept;

/// A URL left out of every request, and why.
struct indexnow_rejection {
  std::string url;  ///< as given
  std::string reason;
};

/// One POST.
struct indexnow_batch {
  std::size_t urls = 0;
  std::string body;  ///< the JSON object sent (or that would be)
  indexnow_outcome outcome = indexnow_outcome::not_sent;
  long status = 0;  ///< the last answer's status; 0 when none
  std::vector<http_attempt> attempts;
  std::string message;  ///< what the status means, in words
  bool ok() const noexcept {
    return outcome == indexnow_outcome::accepted ||
           outcome == indexnow_outcome::pending;
  }
};

/// A submission: what was planned, and what each batch got.
struct indexnow_report {
  std::string endpoint;        ///< normalised
  std::string host;            ///< the "host" sent: host[:port] of the URLs
  std::string key_location;    ///< the key file's URL (sent only when given)
  std::size_t urls = 0;        ///< URLs given
  std::size_t duplicates = 0;  ///< URLs given again (same normalised form)
  std::vector<indexnow_rejection> rejected;
  std::vector<indexnow_batch> batches;

  std::size_t sent() const noexcept;      ///< URLs in batches that were sent
  std::size_t accepted() const noexcept;  ///< URLs in batches answered 200/202
  /// True when every batch was accepted (or it was a dry run) and no URL
  /// was rejected.
  bool ok() const noexcept;
};

/// Checks the options and splits `urls` into POST bodies without sending:
/// the key must be valid, the endpoint and any key location absolute
/// http(s) URLs. URLs are normalised (url.h) and deduplicated; the host is
/// the key location's, or else the first valid URL's; a URL on another
/// host (or port), or outside the key location's directory, is rejected.
/// http and https URLs of the host may be mixed, as the protocol allows.
/// Each body is {"host","key","keyLocation"?,"urlList"} in that order.
/// Fails only on bad options.
result<indexnow_report> plan_indexnow(const std::vector<std::string>& urls,
                                      const indexnow_options& options);

/// Plans, then (unless options.dry_run) POSTs each batch with Content-Type
/// "application/json; charset=utf-8". 200 and 202 are success; 429 and 5xx
/// are retried under options.retry; 400, 403 and 422 are explained (bad
/// format / key not found at its location / URLs not matching the host or
/// key) and not retried. A batch that fails for good stops the run: the
/// rest would fail the same way and look like spam to the engine.
result<indexnow_report> submit_indexnow(http_client& client,
                                        const std::vector<std::string>& urls,
                                        const indexnow_options& options);

}  // namespace sitemill

#endif  // SITEMILL_NOTIFY_INDEXNOW_H
