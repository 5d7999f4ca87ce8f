// check --audit: every URL the checked sitemaps list, fetched the way the
// crawler fetches (net/fetcher.h; robots.txt first, its Crawl-delay, 429
// and 5xx asked again) and read the way it reads pages (scan_html,
// page_links, page_answer.h), reported in the document that lists it, at
// its <url>. What Search Console calls "submitted URL not found", "...
// marked noindex", "... blocked by robots.txt" are errors; a redirect, a
// canonical elsewhere and a stale lastmod are warnings.
#include "check/audit.h"

#include <chrono>
#include <map>
#include <memory>
#include <optional>

#include "check/checker.h"
#include "html/page_answer.h"
#include "html/page_links.h"
#include "sitemill/date/dates.h"
#include "sitemill/date/w3c_datetime.h"
#include "sitemill/html/html_page.h"
#include "sitemill/net/fetcher.h"
#include "sitemill/robots/robots_rules.h"

namespace sitemill::detail {

bool audit_list::add(std::size_t slot, std::string_view loc,
                     std::string_view lastmod, std::uint64_t line,
                     std::uint64_t column) {
  if (entries_.size() >= max_) {
    if (told_full_) return true;
    told_full_ = true;
    return false;
  }
  entries_.push_back(
      {slot, line, column, std::string(loc), std::string(lastmod)});
  return true;
}

void audit_list::withdraw(std::size_t slot) {
  std::erase_if(entries_, [&](const audit_entry& e) { return e.slot == slot; });
  for (audit_entry& e : entries_)
    if (e.slot > slot) --e.slot;
  std::map<std::size_t, std::string> moved;
  for (auto& [s, url] : scopes_)
    if (s != slot) moved.emplace(s > slot ? s - 1 : s, std::move(url));
  scopes_ = std::move(moved);
}

void audit_list::set_scope(std::size_t slot, std::string url) {
  scopes_[slot] = std::move(url);
}

std::string_view audit_list::scope(std::size_t slot) const {
  const auto it = scopes_.find(slot);
  return it == scopes_.end() ? std::string_view() : it->second;
}

namespace {

std::optional<std::chrono::sys_seconds> http_time(std::string_view text) {
  parsed_date d;
  if (parse_http_date(trim(text), 2000, d) != date_problem::ok)
    return std::nullopt;
  return to_time_point(d.value);
}

std::optional<std::chrono::sys_seconds> w3c_time(std::string_view text) {
  w3c_datetime d;
  if (parse_w3c_datetime(text, d) != datetime_problem::ok) return std::nullopt;
  return to_time_point(d);
}

// One origin of the URLs judged: its robots.txt's rules, then its URLs.
struct judged_host {
  std::string origin;
  std::vector<std::size_t> urls;  // indexes, in the order given
  robots_rules rules;
};

class judge_run final : public fetch_handler {
 public:
  judge_run(
      const std::vector<std::string>& urls, const url_judging& how, fetcher& f,
      const std::function<void(std::size_t, const url_verdict&)>& judged,
      const std::function<void(const std::string&, std::size_t, std::size_t,
                               const std::string&)>& unreadable)
      : urls_(urls),
        how_(how),
        fetcher_(f),
        judged_(judged),
        unreadable_(unreadable),
        token_(robots_product_token(how.http.user_agent.empty()
                                        ? default_user_agent()
                                        : how.http.user_agent)) {
    std::map<std::string, std::size_t> by_origin;
    for (std::size_t i = 0; i < urls_.size(); ++i) {
      normalized_url u;
      if (normalize_url(urls_[i], u) != url_problem::ok) continue;
      auto [it, fresh] =
          by_origin.try_emplace(std::string(u.origin()), hosts_.size());
      if (fresh) hosts_.push_back({std::string(u.origin()), {}, {}});
      hosts_[it->second].urls.push_back(i);
    }
    pages_.resize(urls_.size());
  }

  void start() {
    for (std::size_t h = 0; h < hosts_.size(); ++h)
      fetcher_.submit({hosts_[h].origin + "/robots.txt",
                       {},
                       fetch_method::get,
                       robots_tag + h});
  }

  bool on_head(std::uint64_t tag, const http_head& head) override {
    if (tag >= robots_tag) return head.status >= 200 && head.status < 300;
    page& p = pages_[tag];
    p.head = head;
    for (const std::string& v : head.x_robots_tag)
      read_x_robots_tag(v, token_, p.header_noindex, p.header_nofollow);
    if (head.status == 200 && is_html_media_type(head.content_type))
      return true;
    p.drained = true;
    return drain_unwanted_body(head);
  }

  bool on_body(std::uint64_t tag, const char* data, std::size_t size) override {
    if (tag < robots_tag && pages_[tag].drained) return true;  // dropped
    std::string& body =
        tag >= robots_tag ? robots_body_[tag - robots_tag] : pages_[tag].body;
    if (body.size() + size > how_.max_page_bytes) return true;  // enough
    body.append(data, size);
    return true;
  }

  void on_done(std::uint64_t tag, const fetch_outcome& outcome) override {
    if (tag >= robots_tag) {
      robots_done(tag - robots_tag, outcome);
      return;
    }
    judge(tag, outcome);
  }

 private:
  static constexpr std::uint64_t robots_tag = std::uint64_t{1} << 62;

  struct page {
    http_head head;
    std::string body;
    bool header_noindex = false, header_nofollow = false;
    bool drained = false;  // a body not wanted, read and dropped
  };

  // robots.txt: 2xx read, 4xx none (everything allowed); otherwise the site
  // cannot say what it allows, and its URLs are not fetched (RFC 9309
  // 2.3.1.4).
  void robots_done(std::size_t h, const fetch_outcome& outcome) {
    judged_host& host = hosts_[h];
    const long status = outcome.head.status;
    std::string& body = robots_body_[h];
    if (outcome.ok() && status >= 200 && status < 300) {
      host.rules = parse_robots_rules(body, token_);
      if (auto delay = host.rules.crawl_delay())
        fetcher_.set_host_delay(
            host.origin,
            std::chrono::milliseconds(static_cast<long long>(*delay * 1000)));
    } else if (!(outcome.ok() && status >= 400 && status < 500)) {
      unreadable_(
          host.origin, host.urls.front(), host.urls.size(),
          outcome.ok() ? "status " + std::to_string(status) : outcome.error);
      body.clear();
      return;
    }
    body.clear();
    for (std::size_t i : host.urls) {
      normalized_url u;
      (void)normalize_url(urls_[i], u);
      if (!host.rules.allowed(u.path_and_query())) {
        url_verdict v;
        v.robots_rule = host.rules.matching_rule(u.path_and_query());
        judged_(i, v);
        continue;
      }
      fetcher_.submit({std::string(u.href()), {}, fetch_method::get, i});
    }
  }

  void judge(std::size_t i, const fetch_outcome& outcome) {
    page& p = pages_[i];
    const std::string body = std::move(p.body);
    p.body = std::string();
    url_verdict v;
    if (!outcome.ok() && outcome.head.status == 0) {
      v.fetch_error = outcome.error;
      judged_(i, v);
      return;
    }
    v.head = std::move(p.head);
    v.header_noindex = p.header_noindex;
    v.noindex = p.header_noindex;
    if (v.head.status == 200 && is_html_media_type(v.head.content_type)) {
      html_scan_options scan;
      const html_facts facts = scan_html(body, scan);
      v.noindex = v.noindex || facts.noindex;
      normalized_url url;
      if (normalize_url(urls_[i], url) == url_problem::ok) {
        page_link_options want;
        want.refresh = false;
        want.alternates = false;
        links_.resolve(url, facts, want);
        if (!links_.canonical().empty() &&
            links_.canonical().href() != url.href())
          v.canonical = std::string(links_.canonical().href());
      }
    }
    judged_(i, v);
  }

  const std::vector<std::string>& urls_;
  const url_judging& how_;
  fetcher& fetcher_;
  const std::function<void(std::size_t, const url_verdict&)>& judged_;
  const std::function<void(const std::string&, std::size_t, std::size_t,
                           const std::string&)>& unreadable_;
  std::string token_;
  std::vector<judged_host> hosts_;
  std::map<std::size_t, std::string> robots_body_;
  std::vector<page> pages_;
  page_links links_;
};

// check's findings from the verdicts: what Search Console calls "submitted
// URL not found", "... marked noindex", "... blocked by robots.txt" are
// errors; a redirect, a canonical elsewhere and a stale lastmod warnings.
class audit_findings {
 public:
  explicit audit_findings(const check_options& o) : o_(o) {}

  // The walker's scope for a child, applied to a listed URL: on the host
  // and port of its sitemap's `scope` (walker.h, "Fetch scope"), so a
  // sitemap cannot point the audit at another server; else told.
  bool in_scope(const audit_entry& e, std::string_view scope) {
    normalized_url u, at;
    if (scope.empty() || normalize_url(scope, at) != url_problem::ok ||
        normalize_url(e.loc, u) != url_problem::ok || same_host(u, at))
      return true;
    add(e, severity::warning, "audit-off-site",
        "is not on " + std::string(at.authority()) +
            ", the host and port its sitemap was read from (or the site "
            "whose robots.txt names it), so it was not fetched: a sitemap "
            "does not send the audit to other servers");
    return false;
  }

  void unreadable(const std::string& origin, const audit_entry& first,
                  std::size_t count, const std::string& why) {
    list(first.slot)
        .add(severity::warning, "audit-robots-unreadable", first.line,
             first.column,
             origin + "/robots.txt could not be read (" + why + "), so the " +
                 std::to_string(count) +
                 " URL(s) of this host were not audited: crawlers crawl "
                 "nothing of a site whose robots.txt is unreachable "
                 "(RFC 9309 2.3.1.4)");
  }

  void judged(const audit_entry& e, const url_verdict& v) {
    if (!v.robots_rule.empty()) {
      add(e, severity::error, "audit-robots",
          "is disallowed by its site's robots.txt (" + v.robots_rule +
              "): search engines will not crawl it; list only URLs they "
              "may fetch, or allow it");
      return;
    }
    if (!v.fetch_error.empty()) {
      add(e, severity::error, "audit-fetch-failed",
          "could not be fetched: " + v.fetch_error);
      return;
    }
    const long status = v.head.status;
    if (status >= 300 && status < 400 && !v.head.location.empty()) {
      add(e, severity::warning, "audit-redirect",
          "answers " + std::to_string(status) + " with a redirect to " +
              quote_text(v.head.location) +
              ": list the URL it leads to, which search engines index "
              "instead");
      return;
    }
    if (status != 200) {
      add(e, severity::error, "audit-status",
          "answers " + std::to_string(status) +
              ": search engines drop listed URLs that do not answer 200");
      return;
    }
    if (v.noindex) {
      add(e, severity::error, "audit-noindex",
          std::string("is marked noindex (") +
              (v.header_noindex ? "X-Robots-Tag header" : "robots meta") +
              "): search engines will not index it; take it out of the "
              "sitemap, or drop the noindex");
    }
    if (!v.canonical.empty()) {
      add(e, severity::warning, "audit-canonical",
          "names " + quote_text(v.canonical) +
              " as its canonical URL: search engines index that one; list "
              "it instead");
    }
    if (!e.lastmod.empty() && !v.head.last_modified.empty()) {
      const auto listed = w3c_time(e.lastmod);
      const auto served = http_time(v.head.last_modified);
      if (listed && served && *listed < *served) {
        add(e, severity::warning, "audit-lastmod",
            "has lastmod " + e.lastmod +
                ", older than the Last-Modified its server sends (" +
                v.head.last_modified +
                "): search engines may not come back for the change; "
                "generate lastmod from the pages");
      }
    }
  }

  /// The findings, by report slot.
  std::map<std::size_t, diagnostic_list>& findings() { return findings_; }

 private:
  diagnostic_list& list(std::size_t slot) {
    return findings_.try_emplace(slot, o_.max_listed_per_code).first->second;
  }
  void add(const audit_entry& e, severity level, const char* code,
           std::string message) {
    list(e.slot).add(level, code, e.line, e.column,
                     quote_text(e.loc) + " " + std::move(message));
  }

  const check_options& o_;
  std::map<std::size_t, diagnostic_list> findings_;
};

}  // namespace

bool judge_urls(
    const std::vector<std::string>& urls, const url_judging& how,
    const std::function<void(std::size_t, const url_verdict&)>& judged,
    const std::function<void(const std::string&, std::size_t, std::size_t,
                             const std::string&)>& unreadable) {
  if (urls.empty()) return true;
  fetch_options f;
  f.http = how.http;
  f.http.max_body_bytes = how.max_page_bytes + 1;
  f.concurrency = std::max(1u, how.concurrency);
  f.per_host = f.concurrency;
  f.retry.max_attempts = 3;
  f.retry.first_wait = std::chrono::milliseconds(500);
  f.scope = how.scope;
  f.cancelled = how.cancelled;
  fetcher fx(f);
  judge_run run(urls, how, fx, judged, unreadable);
  run.start();
  return fx.run(run);
}

void checker::report_audit() {
  std::vector<audit_entry>& entries = audits_.entries();
  if (entries.empty()) return;
  audit_findings findings(options_);
  std::vector<std::string> urls;
  std::vector<std::size_t> entry_of;  // by index into urls
  for (std::size_t i = 0; i < entries.size(); ++i) {
    normalized_url u;
    if (normalize_url(entries[i].loc, u) != url_problem::ok)
      continue;  // the parser has said so already
    if (!findings.in_scope(entries[i], audits_.scope(entries[i].slot)))
      continue;
    urls.emplace_back(u.href());
    entry_of.push_back(i);
  }
  url_judging how;
  how.http = options_.http;
  how.concurrency = options_.audit_concurrency;
  how.max_page_bytes = options_.audit_max_page_bytes;
  // The listed URLs are the documents' word, not the user's: private
  // addresses only where a checked document was fetched from one (or with
  // allow_private), as the walker holds children.
  fetch_scope scope;
  scope.allow_private = options_.allow_private;
  for (const document_report& d : report_.documents) {
    normalized_url u;
    if (normalize_url(d.source, u) == url_problem::ok)
      scope.allow_target_host(u.host());
  }
  how.scope = &scope;
  // The pages' servers may say nothing for as long as the timeout allows:
  // the observer's cancel is asked while the fetcher waits, as the walker
  // asks it for the documents.
  how.cancelled = [this] { return observer_.cancelled(); };
  const bool done = judge_urls(
      urls, how,
      [&](std::size_t i, const url_verdict& v) {
        findings.judged(entries[entry_of[i]], v);
      },
      [&](const std::string& origin, std::size_t first, std::size_t count,
          const std::string& why) {
        findings.unreadable(origin, entries[entry_of[first]], count, why);
      });
  if (!done) report_.cancelled = true;
  for (auto& [slot, list] : findings.findings())
    list.add_into(report_.documents[slot]);
  entries.clear();
}

}  // namespace sitemill::detail
