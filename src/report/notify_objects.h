// sitemill internals: the JSON objects for what announcing did, each written
// by one function so that `generate --json` (its "announce") and the robots,
// ping and indexnow commands' --json spell them the same way
// (docs/report-schema.md).
//
// nlohmann::json stays out of the public headers: the public writers are in
// sitemill/report/notify_json.h and sitemill/report/generate_json.h.
#ifndef SITEMILL_REPORT_NOTIFY_OBJECTS_H
#define SITEMILL_REPORT_NOTIFY_OBJECTS_H

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "detail/json_text.h"
#include "sitemill/net/http.h"
#include "sitemill/notify/announce.h"
#include "sitemill/notify/ping.h"

namespace sitemill::detail {

using ordered_json = nlohmann::ordered_json;

/// [{"status","error","wait_ms"}...]: every try of a request, in order.
ordered_json attempts_object(const std::vector<http_attempt>& attempts);

/// {"path","sitemaps", then "added","present","removed","notes","created",
/// "changed","written", or "error" instead of them when the edit failed}.
ordered_json robots_object(const robots_announcement& robots);

/// {"urls", then "endpoint","host","key_location","sent","accepted",
/// "duplicates","rejected","batches", or "error" when the options were
/// refused; "urls" alone when there was nothing to send}. The bodies are
/// left out: their URLs are the input, counted per batch.
ordered_json indexnow_object(const indexnow_announcement& indexnow);

/// {"sitemaps", then "token" (Google's exchange: "url","client_email",
/// "outcome","status","attempts","message"; when Google was asked),
/// "submitted","requests" (each "engine","sitemap","site","method","url",
/// "outcome","status","attempts","message"), or "error" when the options
/// were refused}. Holds no secret: request URLs show Bing's key as
/// "[hidden]", and the token and JWT are never in a report.
ordered_json submit_object(const submit_announcement& submit);

/// {"endpoint","request_url","outcome","status","attempts","message"}.
ordered_json ping_object(const ping_report& ping);

/// {"url","ok","status","attempts","message"}; `fetched` false (a dry run)
/// writes "ok" as null and no attempts.
ordered_json sitemap_check_object(const sitemap_check& check, bool fetched);

}  // namespace sitemill::detail

#endif  // SITEMILL_REPORT_NOTIFY_OBJECTS_H
