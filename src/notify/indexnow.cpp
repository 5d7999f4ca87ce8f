// sitemill: IndexNow submission (docs/protocol.md 4.2, checklist item 45).
//
// Choices where the protocol leaves room:
//   * One host per run. A key file proves ownership of one host (Yandex:
//     "use a separate key for each subdomain"), so URLs of any other host
//     are rejected before anything is sent rather than sent under a key that
//     cannot vouch for them.
//   * "host" is the URLs' authority as normalised: the host name, with a
//     port only when it is not the scheme's default. http and https URLs of
//     that host may share a request, as the protocol allows.
//   * A batch refused for good (400, 403, 422) or still throttled after the
//     retries ends the run: the next batches would get the same answer, and
//     engines treat repeated bad submissions as spam.
#include "sitemill/notify/indexnow.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "detail/text.h"
#include "sitemill/atomic_file.h"
#include "net/exchange.h"
#include "sitemill/url/url.h"

namespace sitemill {
namespace {

using json = nlohmann::ordered_json;

std::string in_quotes(std::string_view s) {
  std::string out = "\"";
  detail::append_printable(out, s);
  out.push_back('"');
  return out;
}

std::string make_body(const indexnow_report& report, const std::string& key,
                      bool send_key_location,
                      const std::vector<std::string>& urls, std::size_t begin,
                      std::size_t end) {
  json body;
  body["host"] = report.host;
  body["key"] = key;
  if (send_key_location) body["keyLocation"] = report.key_location;
  json list = json::array();
  for (std::size_t i = begin; i < end; ++i) list.push_back(urls[i]);
  body["urlList"] = std::move(list);
  return body.dump();
}

void interpret(indexnow_batch& batch, const detail::exchange_result& r,
               const indexnow_report& report) {
  const std::string status = detail::status_text(r.status);
  const std::string said = detail::quote_body(r.body);
  if (r.cancelled) {
    batch.outcome = indexnow_outcome::cancelled;
    batch.message =
        "interrupted while waiting to retry (last answer " + status + ")";
  } else if (r.status == 0) {
    batch.outcome = indexnow_outcome::unreachable;
    batch.message = "no answer: " + r.error;
  } else if (r.status == 202) {
    batch.outcome = indexnow_outcome::pending;
    batch.message =
        status + ": received; the engine has not validated the key yet";
  } else if (r.status >= 200 && r.status <= 299) {
    batch.outcome = indexnow_outcome::accepted;
    batch.message = status + ": received (which is not a promise to crawl)";
  } else if (r.status == 400) {
    batch.outcome = indexnow_outcome::refused;
    batch.message = status +
                    ": the engine says the request is not in IndexNow's "
                    "format" +
                    said;
  } else if (r.status == 403) {
    batch.outcome = indexnow_outcome::refused;
    batch.message = status + ": the key was not found at " +
                    report.key_location +
                    ", or that file does not hold exactly the key; publish "
                    "it there (`write_indexnow_key`) and try again" +
                    said;
  } else if (r.status == 422) {
    batch.outcome = indexnow_outcome::refused;
    batch.message = status + ": the URLs do not belong to host " + report.host +
                    " or to the key's directory, or the key does not match "
                    "the protocol's format" +
                    said;
  } else if (detail::is_retryable(r.status)) {
    batch.outcome = indexnow_outcome::gave_up;
    batch.message =
        (r.status == 429 ? "the engine throttled the submission (429 Too Many "
                           "Requests); gave up "
                         : "gave up ") +
        detail::tries_text(r) + said;
  } else {
    batch.outcome = indexnow_outcome::refused;
    batch.message = status +
                    ": not an answer IndexNow defines; check that `endpoint` "
                    "is an IndexNow endpoint (e.g. " +
                    std::string(indexnow_default_endpoint) + ")" + said;
  }
}

}  // namespace

bool is_valid_indexnow_key(std::string_view key) noexcept {
  if (key.size() < 8 || key.size() > 128) return false;
  for (const char c : key) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string generate_indexnow_key() {
  std::random_device random;
  std::string key;
  for (int i = 0; i < 4; ++i) key += detail::to_hex(random(), 8);
  return key;
}

result<std::string> write_indexnow_key(const std::string& dir,
                                       std::string_view key, bool dry_run) {
  if (!is_valid_indexnow_key(key)) {
    return error{"IndexNow key " + in_quotes(key) +
                     " is not 8 to 128 characters of a-z, A-Z, 0-9 and '-'",
                 "key"};
  }
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    return error{dir + ": " + std::strerror(errno)};
  }
  if (!S_ISDIR(st.st_mode)) return error{dir + ": not a directory"};
  std::string path = dir;
  if (!path.ends_with('/')) path.push_back('/');
  path.append(key);
  path.append(".txt");
  if (dry_run) return path;
  if (status s = write_file_atomically(path, key); !s) return s.err();
  return path;
}

std::string_view to_string(indexnow_outcome outcome) noexcept {
  switch (outcome) {
    case indexnow_outcome::not_sent:
      return "not sent";
    case indexnow_outcome::dry_run:
      return "dry run";
    case indexnow_outcome::accepted:
      return "accepted";
    case indexnow_outcome::pending:
      return "pending";
    case indexnow_outcome::refused:
      return "refused";
    case indexnow_outcome::gave_up:
      return "gave up";
    case indexnow_outcome::unreachable:
      return "unreachable";
    case indexnow_outcome::cancelled:
      return "cancelled";
  }
  return "unknown";
}

std::size_t indexnow_report::sent() const noexcept {
  std::size_t n = 0;
  for (const auto& b : batches) {
    if (b.outcome != indexnow_outcome::not_sent &&
        b.outcome != indexnow_outcome::dry_run) {
      n += b.urls;
    }
  }
  return n;
}

std::size_t indexnow_report::accepted() const noexcept {
  std::size_t n = 0;
  for (const auto& b : batches) {
    if (b.ok()) n += b.urls;
  }
  return n;
}

bool indexnow_report::ok() const noexcept {
  if (!rejected.empty()) return false;
  for (const auto& b : batches) {
    if (!b.ok() && b.outcome != indexnow_outcome::dry_run) return false;
  }
  return true;
}

result<indexnow_report> plan_indexnow(const std::vector<std::string>& urls,
                                      const indexnow_options& options) {
  if (!is_valid_indexnow_key(options.key)) {
    return error{options.key.empty()
                     ? "no IndexNow key; give `key` (8 to 128 characters of "
                       "a-z, A-Z, 0-9 and '-'), or create one with "
                       "`generate_indexnow_key`"
                     : "IndexNow key " + in_quotes(options.key) +
                           " is not 8 to 128 characters of a-z, A-Z, 0-9 "
                           "and '-'",
                 "key"};
  }
  if (options.batch_size < 1 ||
      options.batch_size > indexnow_max_urls_per_post) {
    return error{"batch size " + std::to_string(options.batch_size) +
                     " is not between 1 and 10,000 (IndexNow's limit per POST)",
                 "batch_size"};
  }
  indexnow_report report;
  if (const url_problem p = normalize_url(options.endpoint, report.endpoint);
      p != url_problem::ok) {
    return error{"IndexNow endpoint " + in_quotes(options.endpoint) + ": " +
                     std::string(describe(p)),
                 "endpoint"};
  }
  std::string key_dir;  // the key location's directory path, "/" when none
  const bool has_key_location = !options.key_location.empty();
  if (has_key_location) {
    normalized_url key_url;
    if (const url_problem p = normalize_url(options.key_location, key_url);
        p != url_problem::ok) {
      return error{"key location " + in_quotes(options.key_location) + ": " +
                       std::string(describe(p)),
                   "key_location"};
    }
    report.key_location = key_url.href();
    report.host = std::string(key_url.authority());
    key_dir =
        std::string(key_url.scope_directory().substr(key_url.origin().size()));
  }

  report.urls = urls.size();
  std::vector<std::string> accepted;
  std::unordered_set<std::string> seen;
  normalized_url url;
  std::string origin;  // of the first URL, where the key file is
  for (const std::string& given : urls) {
    const url_problem p = normalize_url(given, url);
    if (p != url_problem::ok) {
      report.rejected.push_back({given, std::string(describe(p))});
      continue;
    }
    if (report.host.empty()) {
      report.host = std::string(url.authority());
      origin = url.origin();
    }
    if (url.authority() != report.host) {
      report.rejected.push_back(
          {given, "on host " + std::string(url.authority()) + ", not " +
                      report.host +
                      ": one submission names one host, the one its key "
                      "vouches for"});
      continue;
    }
    if (has_key_location && !url.path().starts_with(key_dir)) {
      report.rejected.push_back(
          {given, "outside " + key_dir +
                      ", the directory of the key location " +
                      report.key_location +
                      "; a key vouches only for URLs "
                      "in its own directory and below"});
      continue;
    }
    if (!seen.emplace(url.href()).second) {
      ++report.duplicates;
      continue;
    }
    accepted.emplace_back(url.href());
  }
  if (!has_key_location && !report.host.empty()) {
    report.key_location = origin + "/" + options.key + ".txt";
  }

  for (std::size_t begin = 0; begin < accepted.size();
       begin += options.batch_size) {
    const std::size_t end =
        std::min(accepted.size(), begin + options.batch_size);
    indexnow_batch batch;
    batch.urls = end - begin;
    batch.body =
        make_body(report, options.key, has_key_location, accepted, begin, end);
    report.batches.push_back(std::move(batch));
  }
  return report;
}

result<indexnow_report> submit_indexnow(http_client& client,
                                        const std::vector<std::string>& urls,
                                        const indexnow_options& options) {
  auto planned = plan_indexnow(urls, options);
  if (!planned) return planned;
  indexnow_report& report = *planned;
  if (options.dry_run) {
    for (auto& batch : report.batches) {
      batch.outcome = indexnow_outcome::dry_run;
      batch.message = "would POST " + std::to_string(batch.urls) + " URLs to " +
                      report.endpoint;
    }
    return planned;
  }
  http_request request;
  request.method = "POST";
  request.url = report.endpoint;
  request.headers = {{"Content-Type", "application/json; charset=utf-8"}};
  for (auto& batch : report.batches) {
    request.body = batch.body;
    detail::exchange_result r =
        detail::send_with_retries(client, request, options.retry);
    batch.status = r.status;
    interpret(batch, r, report);
    batch.attempts = std::move(r.attempts);
    if (!batch.ok()) break;
  }
  return planned;
}

}  // namespace sitemill
