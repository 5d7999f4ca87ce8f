// sitemill: announcing a sitemap set (PROTOCOL.md 1.9, 4 and 5).
//
// Three ways, in the order they matter today:
//   * robots.txt: edit_robots_txt() makes a file list exactly the given
//     sitemaps as "Sitemap:" lines and leaves every other byte alone;
//     update_robots() does it to a file, atomically.
//   * IndexNow: submit_indexnow() POSTs changed URLs in batches of at most
//     10,000, one host per run, and explains the engine's answer.
//   * The legacy ping: ping_sitemap() GETs <endpoint>?sitemap=<encoded URL>.
//     Google (404, 2023) and Bing (410, 2022) retired theirs, so there is no
//     default endpoint and 404/410 are reported as "retired".
//
// Network calls go through an http_client the caller configures (timeouts,
// User-Agent); 429 and 5xx answers are retried under a retry_policy whose
// sleep is injectable, so tests can prove the backoff without waiting.
// Every sender has a dry-run form that builds exactly what would be sent and
// sends nothing.
//
// Thread-safety: the functions keep no state; an http_client is not
// thread-safe, so give each thread its own.
#ifndef SITEMILL_NOTIFY_H
#define SITEMILL_NOTIFY_H

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/net/http.h"
#include "sitemill/publish/atomic_file.h"
#include "sitemill/result.h"

namespace sitemill {

// ---------------------------------------------------------------------------
// robots.txt

struct robots_edit_options {
  /// Remove every Sitemap record that names none of the given URLs
  /// (relative and unparsable values included).
  bool replace = false;
  /// update_robots() only: compute the edit, write nothing.
  bool dry_run = false;
};

/// A line edit_robots_txt() removed.
struct robots_removed_line {
  std::uint64_t line = 0;  ///< 1-based, in the original text
  std::string text;        ///< the line as it was, without its line end
  /// "repeats line 3", "names a sitemap not asked for, and `replace` was
  /// given"
  std::string reason;
};

/// What edit_robots_txt() did.
struct robots_edit {
  std::string text;                ///< the whole new file
  std::vector<std::string> added;  ///< URLs appended as new lines, in order
  std::vector<std::string>
      present;  ///< wanted URLs already listed, kept in place
  std::vector<robots_removed_line> removed;
  /// Things worth a warning that were left alone (a relative Sitemap value
  /// without `replace`, new lines past crawlers' 500 KiB parsing limit).
  std::vector<std::string> notes;
  bool changed = false;  ///< text differs from the input
};

/// Makes `robots_txt` list each of `sitemaps` exactly once as a
/// "Sitemap: <URL>" line (PROTOCOL.md 5, checklist item 46).
///
/// The wanted URLs must be absolute http(s) URLs; they are normalised as
/// every <loc> is (url.h) and deduplicated. A record matches a wanted URL
/// when its field name is "sitemap" in any case and its value normalises to
/// the same URL (so scheme and host case do not matter, path case does). The
/// first such "Sitemap:" line stays where it is, byte for byte; later ones,
/// and misspelled forms ("Site-map:", "Sitemap" without a colon) of a
/// wanted URL, are removed as duplicates. Wanted URLs not yet listed are
/// appended at the end in the given order, with the file's own line end
/// (the first one it uses; "\n" for a file without one), after a line end
/// added to an unterminated last line, and after one blank line when the
/// file's last line is text other than a Sitemap record. With `replace`,
/// every other Sitemap record is removed too. Nothing else changes: a UTF-8
/// BOM, comments, groups, blank lines and line ends stay as they were.
///
/// Fails (changing nothing) when a wanted URL is relative or invalid, or the
/// text is UTF-16, which RFC 9309 does not allow and bytes cannot edit.
result<robots_edit> edit_robots_txt(std::string_view robots_txt,
                                    const std::vector<std::string>& sitemaps,
                                    const robots_edit_options& options = {});

/// What update_robots() did to the file.
struct robots_update {
  robots_edit edit;
  bool created =
      false;  ///< the file did not exist (and now does, unless dry run)
  bool written =
      false;  ///< false when the file already said it all, or dry run
};

/// edit_robots_txt() applied to the file at `path`, which is created when
/// missing (its directory must exist). An unchanged file is not rewritten.
/// The new file replaces the old one atomically (write_file_atomically), so
/// a crawler never reads half a robots.txt; a symbolic link is followed and
/// its target replaced. Errors name the file.
result<robots_update> update_robots(const std::string& path,
                                    const std::vector<std::string>& sitemaps,
                                    const robots_edit_options& options = {});


// ---------------------------------------------------------------------------
// Retries

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

// ---------------------------------------------------------------------------
// The legacy ping (PROTOCOL.md 1.9 and 4.1, checklist item 44)

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

// ---------------------------------------------------------------------------
// IndexNow (PROTOCOL.md 4.2, checklist item 45)

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

/// The URLs a generate report lists as added or changed, in that order:
/// the "changes" of the JSON report (read_generate_json_file(),
/// report/generate_json.h; docs/report-schema.md). Fails, naming the file,
/// when it cannot be read, is not a report, or has no "changes" (a run
/// without a state database does not know what changed).
result<std::vector<std::string>> read_manifest_changes(const std::string& path);

}  // namespace sitemill

#endif  // SITEMILL_NOTIFY_H
