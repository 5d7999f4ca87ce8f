#include "report/notify_objects.h"

namespace sitemill::detail {

ordered_json attempts_object(const std::vector<http_attempt>& attempts) {
  ordered_json list = ordered_json::array();
  for (const http_attempt& a : attempts)
    list.push_back({{"status", a.status},
                    {"error", a.error},
                    {"wait_ms", a.wait.count()}});
  return list;
}

ordered_json robots_object(const robots_announcement& robots) {
  ordered_json o = {{"path", robots.path}, {"sitemaps", robots.sitemaps}};
  if (robots.failure) {
    o["error"] = robots.failure->message;
    return o;
  }
  if (!robots.update) return o;
  const robots_update& u = *robots.update;
  ordered_json removed = ordered_json::array();
  for (const robots_removed_line& r : u.edit.removed)
    removed.push_back(
        {{"line", r.line}, {"text", r.text}, {"reason", r.reason}});
  o["added"] = u.edit.added;
  o["present"] = u.edit.present;
  o["removed"] = std::move(removed);
  o["notes"] = u.edit.notes;
  o["created"] = u.created;
  o["changed"] = u.edit.changed;
  o["written"] = u.written;
  return o;
}

ordered_json indexnow_object(const indexnow_announcement& indexnow) {
  ordered_json o = {{"urls", indexnow.urls.size()}};
  if (indexnow.failure) {
    o["error"] = indexnow.failure->message;
    return o;
  }
  if (!indexnow.report) return o;
  const indexnow_report& r = *indexnow.report;
  ordered_json rejected = ordered_json::array();
  for (const indexnow_rejection& x : r.rejected)
    rejected.push_back({{"url", x.url}, {"reason", x.reason}});
  ordered_json batches = ordered_json::array();
  for (const indexnow_batch& b : r.batches)
    batches.push_back({{"urls", b.urls},
                       {"outcome", to_string(b.outcome)},
                       {"status", b.status},
                       {"attempts", attempts_object(b.attempts)},
                       {"message", b.message}});
  o["endpoint"] = r.endpoint;
  o["host"] = r.host;
  o["key_location"] = r.key_location;
  o["sent"] = r.sent();
  o["accepted"] = r.accepted();
  o["duplicates"] = r.duplicates;
  o["rejected"] = std::move(rejected);
  o["batches"] = std::move(batches);
  return o;
}

ordered_json submit_object(const submit_announcement& submit) {
  ordered_json o = {{"sitemaps", submit.sitemaps}};
  if (submit.failure) {
    o["error"] = submit.failure->message;
    return o;
  }
  if (!submit.report) return o;
  const submit_report& r = *submit.report;
  if (const auto& t = r.token)
    o["token"] = {{"url", t->url},
                  {"client_email", t->client_email},
                  {"outcome", to_string(t->outcome)},
                  {"status", t->status},
                  {"attempts", attempts_object(t->attempts)},
                  {"message", t->message}};
  ordered_json requests = ordered_json::array();
  for (const submit_request& q : r.requests)
    requests.push_back({{"engine", to_string(q.engine)},
                        {"sitemap", q.sitemap},
                        {"site", q.site},
                        {"method", q.method},
                        {"url", q.url},
                        {"outcome", to_string(q.outcome)},
                        {"status", q.status},
                        {"attempts", attempts_object(q.attempts)},
                        {"message", q.message}});
  o["submitted"] = r.submitted();
  o["requests"] = std::move(requests);
  return o;
}

ordered_json ping_object(const ping_report& ping) {
  return {{"endpoint", ping.endpoint},
          {"request_url", ping.request_url},
          {"outcome", to_string(ping.outcome)},
          {"status", ping.status},
          {"attempts", attempts_object(ping.attempts)},
          {"message", ping.message}};
}

ordered_json sitemap_check_object(const sitemap_check& check, bool fetched) {
  return {{"url", check.url},
          {"ok", fetched ? ordered_json(check.ok) : ordered_json(nullptr)},
          {"status", check.status},
          {"attempts", attempts_object(check.attempts)},
          {"message", check.message}};
}

}  // namespace sitemill::detail
