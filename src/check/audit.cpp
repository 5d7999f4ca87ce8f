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

// One host of the audit: its robots.txt's rules, then its URLs.
struct audit_host {
  std::string origin;
  std::vector<std::size_t> entries;  // in audit_list order
  robots_rules rules;
  bool robots_read = false;
};

class audit_run final : public fetch_handler {
 public:
  audit_run(const check_options& o, audit_list& audits, fetcher& f)
      : o_(o),
        entries_(audits.entries()),
        fetcher_(f),
        token_(robots_product_token(o.http.user_agent.empty()
                                        ? default_user_agent()
                                        : o.http.user_agent)) {
    std::map<std::string, std::size_t> by_origin;
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      normalized_url u;
      if (normalize_url(entries_[i].loc, u) != url_problem::ok)
        continue;  // the parser has said so already
      if (!in_scope(entries_[i], u, audits.scope(entries_[i].slot))) continue;
      auto [it, fresh] =
          by_origin.try_emplace(std::string(u.origin()), hosts_.size());
      if (fresh) hosts_.push_back({std::string(u.origin()), {}, {}, false});
      hosts_[it->second].entries.push_back(i);
    }
    pages_.resize(entries_.size());
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
    if (body.size() + size > o_.audit_max_page_bytes) return true;  // enough
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

  /// The findings, by report slot.
  std::map<std::size_t, diagnostic_list>& findings() { return findings_; }

 private:
  static constexpr std::uint64_t robots_tag = std::uint64_t{1} << 62;

  struct page {
    http_head head;
    std::string body;
    bool header_noindex = false, header_nofollow = false;
    bool drained = false;  // a body not wanted, read and dropped
  };

  // The walker's scope for a child, applied to a listed URL: on the host
  // and port of its sitemap's `scope` (walker.h, "Fetch scope"), so a
  // sitemap cannot point the audit at another server; else told.
  bool in_scope(const audit_entry& e, const normalized_url& u,
                std::string_view scope) {
    normalized_url at;
    if (scope.empty() || normalize_url(scope, at) != url_problem::ok ||
        same_host(u, at))
      return true;
    add(e, severity::warning, "audit-off-site",
        "is not on " + std::string(at.authority()) +
            ", the host and port its sitemap was read from (or the site "
            "whose robots.txt names it), so it was not fetched: a sitemap "
            "does not send the audit to other servers");
    return false;
  }

  diagnostic_list& list(std::size_t slot) {
    return findings_.try_emplace(slot, o_.max_listed_per_code).first->second;
  }
  void add(const audit_entry& e, severity level, const char* code,
           std::string message) {
    list(e.slot).add(level, code, e.line, e.column,
                     quote_text(e.loc) + " " + std::move(message));
  }

  // robots.txt: 2xx read, 4xx none (everything allowed); otherwise the site
  // cannot say what it allows, and its URLs are not fetched (RFC 9309
  // 2.3.1.4), said once in the first document that lists one.
  void robots_done(std::size_t h, const fetch_outcome& outcome) {
    audit_host& host = hosts_[h];
    const long status = outcome.head.status;
    std::string& body = robots_body_[h];
    if (outcome.ok() && status >= 200 && status < 300) {
      host.rules = parse_robots_rules(body, token_);
      if (auto delay = host.rules.crawl_delay())
        fetcher_.set_host_delay(
            host.origin,
            std::chrono::milliseconds(static_cast<long long>(*delay * 1000)));
    } else if (!(outcome.ok() && status >= 400 && status < 500)) {
      const audit_entry& first = entries_[host.entries.front()];
      list(first.slot)
          .add(severity::warning, "audit-robots-unreadable", first.line,
               first.column,
               host.origin + "/robots.txt could not be read (" +
                   (outcome.ok() ? "status " + std::to_string(status)
                                 : outcome.error) +
                   "), so the " + std::to_string(host.entries.size()) +
                   " URL(s) of this host were not audited: crawlers crawl "
                   "nothing of a site whose robots.txt is unreachable "
                   "(RFC 9309 2.3.1.4)");
      body.clear();
      return;
    }
    body.clear();
    for (std::size_t i : host.entries) {
      const audit_entry& e = entries_[i];
      normalized_url u;
      (void)normalize_url(e.loc, u);
      if (!host.rules.allowed(u.path_and_query())) {
        add(e, severity::error, "audit-robots",
            "is disallowed by its site's robots.txt (" +
                host.rules.matching_rule(u.path_and_query()) +
                "): search engines will not crawl it; list only URLs they "
                "may fetch, or allow it");
        continue;
      }
      fetcher_.submit({std::string(u.href()), {}, fetch_method::get, i});
    }
  }

  void judge(std::size_t i, const fetch_outcome& outcome) {
    const audit_entry& e = entries_[i];
    page& p = pages_[i];
    const std::string body = std::move(p.body);
    p.body = std::string();
    if (!outcome.ok() && outcome.head.status == 0) {
      add(e, severity::error, "audit-fetch-failed",
          "could not be fetched: " + outcome.error);
      return;
    }
    const long status = p.head.status;
    if (status >= 300 && status < 400 && !p.head.location.empty()) {
      add(e, severity::warning, "audit-redirect",
          "answers " + std::to_string(status) + " with a redirect to " +
              quote_text(p.head.location) +
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
    bool noindex = p.header_noindex;
    std::string canonical;
    if (is_html_media_type(p.head.content_type)) {
      html_scan_options scan;
      const html_facts facts = scan_html(body, scan);
      noindex = noindex || facts.noindex;
      normalized_url url;
      if (normalize_url(e.loc, url) == url_problem::ok) {
        page_link_options want;
        want.refresh = false;
        want.alternates = false;
        links_.resolve(url, facts, want);
        if (!links_.canonical().empty() &&
            links_.canonical().href() != url.href())
          canonical = std::string(links_.canonical().href());
      }
    }
    if (noindex) {
      add(e, severity::error, "audit-noindex",
          std::string("is marked noindex (") +
              (p.header_noindex ? "X-Robots-Tag header" : "robots meta") +
              "): search engines will not index it; take it out of the "
              "sitemap, or drop the noindex");
    }
    if (!canonical.empty()) {
      add(e, severity::warning, "audit-canonical",
          "names " + quote_text(canonical) +
              " as its canonical URL: search engines index that one; list "
              "it instead");
    }
    if (!e.lastmod.empty() && !p.head.last_modified.empty()) {
      const auto listed = w3c_time(e.lastmod);
      const auto served = http_time(p.head.last_modified);
      if (listed && served && *listed < *served) {
        add(e, severity::warning, "audit-lastmod",
            "has lastmod " + e.lastmod +
                ", older than the Last-Modified its server sends (" +
                p.head.last_modified +
                "): search engines may not come back for the change; "
                "generate lastmod from the pages");
      }
    }
  }

  const check_options& o_;
  std::vector<audit_entry>& entries_;
  fetcher& fetcher_;
  std::string token_;
  std::vector<audit_host> hosts_;
  std::map<std::size_t, std::string> robots_body_;
  std::vector<page> pages_;
  page_links links_;
  std::map<std::size_t, diagnostic_list> findings_;
};

}  // namespace

void checker::report_audit() {
  std::vector<audit_entry>& entries = audits_.entries();
  if (entries.empty()) return;
  fetch_options f;
  f.http = options_.http;
  f.http.max_body_bytes = options_.audit_max_page_bytes + 1;
  f.concurrency = std::max(1u, options_.audit_concurrency);
  f.per_host = f.concurrency;
  f.retry.max_attempts = 3;
  f.retry.first_wait = std::chrono::milliseconds(500);
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
  f.scope = &scope;
  // The pages' servers may say nothing for as long as the timeout allows:
  // the observer's cancel is asked while the fetcher waits, as the walker
  // asks it for the documents.
  f.cancelled = [this] { return observer_.cancelled(); };
  fetcher fx(f);
  audit_run run(options_, audits_, fx);
  run.start();
  if (!fx.run(run)) report_.cancelled = true;
  for (auto& [slot, list] : run.findings())
    list.add_into(report_.documents[slot]);
  entries.clear();
}

}  // namespace sitemill::detail
