// The site audit (audit/audit.h): the sitemaps through the one walker, the
// site through the crawler, the URLs only the sitemaps lead to through
// check --audit's fetching (check/audit.h); then the three lists.
#include "sitemill/audit/audit.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "check/audit.h"
#include "crawl/crawl_http.h"
#include "crawl/crawl_frontier.h"
#include "sitemill/crawl/crawl_pages.h"
#include "sitemill/numbers.h"
#include "sitemill/url/url.h"
#include "sitemill/walk/site.h"

namespace sitemill {
namespace {

// A sitemap URL, and what became of it.
struct listed_url {
  std::string url;
  std::uint32_t sitemap = 0;  // index into audit_report::sitemaps_read
  enum class state : std::uint8_t {
    unreached,
    judged,
    to_fetch
  } what = state::unreached;
  std::string linked_from;  // for to_fetch: the page that links to it
};

// A finding about a sitemap URL, with its place in the sitemaps, so the
// fetched ones (which come back in any order) are told in sitemap order.
struct placed_finding {
  std::size_t at = 0;
  audit_finding f;
};

// The sitemap URLs, in the order first listed, found by their text.
class sitemap_urls {
 public:
  explicit sitemap_urls(std::size_t max) : max_(max) {}

  void add(std::string_view loc, std::uint32_t sitemap) {
    normalized_url u;
    if (normalize_url(loc, u) != url_problem::ok) return;  // check says so
    detail::strip_session_ids(u);
    if (index_.contains(u.href())) return;
    if (urls_.size() >= max_) {
      ++dropped_;
      return;
    }
    listed_url l;
    l.url = std::string(u.href());
    l.sitemap = sitemap;
    urls_.push_back(std::move(l));
    index_.emplace(urls_.back().url, urls_.size() - 1);
  }
  listed_url* find(std::string_view url) {
    const auto it = index_.find(url);
    return it == index_.end() ? nullptr : &urls_[it->second];
  }
  std::size_t at(const listed_url& l) const { return index_.at(l.url); }
  std::deque<listed_url>& all() { return urls_; }
  std::uint64_t dropped() const { return dropped_; }

 private:
  std::size_t max_;
  std::deque<listed_url> urls_;  // stable: index_ views their text
  std::unordered_map<std::string_view, std::size_t> index_;
  std::uint64_t dropped_ = 0;
};

// The sitemaps' walk: their <loc>s into `urls`, what was not read into the
// report's notes.
class sitemap_reader final : public walk_observer, public parse_handler {
 public:
  sitemap_reader(sitemap_urls& urls, audit_report& report,
                 std::vector<std::string>& names, const std::atomic<bool>* stop)
      : urls_(urls), report_(report), names_(names), stop_(stop) {}

  parse_handler& on_open(const walk_document& doc) override {
    current_ = static_cast<std::uint32_t>(names_.size());
    names_.push_back(doc.url.empty() ? doc.source : doc.url);
    return *this;
  }
  void on_read(const walk_document&, const walk_read&) override {
    ++report_.sitemap_documents;
  }
  void on_failed(const walk_document& doc, const walk_skip& why) override {
    note(doc, why);
  }
  void on_skip(const walk_document& doc, const walk_skip& why) override {
    if (why.reason == walk_skip_reason::already_read ||
        why.reason == walk_skip_reason::repeated)
      return;  // read once, which is all a comparison needs
    note(doc, why);
  }
  bool cancelled() override { return stop_ != nullptr && stop_->load(); }

  void on_document(document_kind kind) override {
    index_ = kind == document_kind::sitemapindex;
  }
  void on_entry(const parsed_entry& e) override {
    if (!index_) urls_.add(e.loc.text, current_);
  }

 private:
  void note(const walk_document& doc, const walk_skip& why) {
    report_.notes.push_back(
        "sitemap " + (doc.url.empty() ? doc.source : doc.url) +
        " not read: " + describe(why) + "; the URLs it lists are not compared");
  }

  sitemap_urls& urls_;
  audit_report& report_;
  std::vector<std::string>& names_;
  const std::atomic<bool>* stop_;
  std::uint32_t current_ = 0;
  bool index_ = false;
};

// The HTTP settings of the audit's own requests (the sitemaps' walk, the
// URLs the crawl did not judge): the crawl's (crawl_http_options()), so
// every request of one audit is alike, the crawl's credentials going with
// those to the site's origin and with no other.
http_options crawl_http(const audit_options& o, const normalized_url& site) {
  return detail::crawl_http_options(o.crawl, site, o.stop);
}

// Reads the site's sitemaps; false when the audit cannot go on.
bool read_sitemaps(const audit_options& o, const normalized_url& site,
                   sitemap_urls& urls, std::vector<std::string>& names,
                   audit_report& report) {
  walk_options w;
  static_cast<walk_caps&>(w) = o.walk;
  w.parse.schema_checks = false;
  w.http = crawl_http(o, site);
  w.allow_private = o.crawl.allow_private;
  sitemap_reader reader(urls, report, names, o.stop);
  sitemap_walker walker(std::move(w), reader);
  const walk_document robots = site_robots_document(site);
  if (auto why = walker.admit(robots)) {
    report.error = robots.url + " " + describe(*why);
    return false;
  }
  site_sitemaps found = find_site_sitemaps(walker, site, site.href());
  if (found.robots.stop == walk_stop::cancelled || walker.cancelled()) {
    report.cancelled = true;
    return false;
  }
  if (found.unreadable || !found.robots.response) {
    report.error = found.diagnostics.empty()
                       ? robots.url + " could not be read"
                       : found.diagnostics.front().message;
    return false;
  }
  for (const diagnostic& d : found.diagnostics)
    if (d.level != severity::info) report.notes.push_back(d.message);
  report.discovered = found.fallback;
  for (const walk_link& l : found.links) report.sitemaps.push_back(l.url);
  walker.walk_listed(robots, found.links);
  if (walker.cancelled()) report.cancelled = true;
  return !report.cancelled;
}

audit_finding finding(const listed_url& l, std::string reason,
                      std::string message,
                      const std::vector<std::string>& names) {
  audit_finding f;
  f.url = l.url;
  f.reason = std::move(reason);
  f.message = std::move(message);
  f.linked_from = l.linked_from;
  f.sitemap = l.sitemap < names.size() ? names[l.sitemap] : std::string();
  return f;
}

// The crawl's verdict on a sitemap URL as a reason and its words; false
// when the crawl did not judge it (it is fetched instead) or found it
// indexable ("" reason).
bool crawl_judged(const crawled_url& c, std::string& reason,
                  std::string& message) {
  const std::string_view v = c.skipped;
  const std::string target(c.target);
  if (v.empty() || v == "not html") return true;  // a 200 search engines take
  if (v == "redirect") {
    reason = "redirect";
    message = target.empty() ? "redirects" : "redirects to " + target;
  } else if (v.starts_with("status ")) {
    reason = "status";
    message = "answers " + std::string(v.substr(7));
  } else if (v == "noindex") {
    reason = "noindex";
    message = "is marked noindex";
  } else if (v == "canonical") {
    reason = "canonical";
    message = target.empty() ? "names another URL as its canonical URL"
                             : "names " + target + " as its canonical URL";
  } else if (v == "robots") {
    reason = "robots";
    message = "is disallowed by robots.txt";
  } else if (v.starts_with("fetch failed")) {
    reason = "fetch_failed";
    message = "could not be fetched" +
              std::string(v.substr(std::string_view("fetch failed").size()));
  } else {
    return false;  // max pages, max depth, trap cap, too large, excluded
  }
  return true;
}

// A fetched URL's verdict as a reason and its words; "" when indexable.
void fetch_judged(const detail::url_verdict& v, std::string& reason,
                  std::string& message) {
  const long status = v.head.status;
  if (!v.robots_rule.empty()) {
    reason = "robots";
    message = "is disallowed by robots.txt (" + v.robots_rule + ")";
  } else if (!v.fetch_error.empty()) {
    reason = "fetch_failed";
    message = "could not be fetched: " + v.fetch_error;
  } else if (status >= 300 && status < 400 && !v.head.location.empty()) {
    reason = "redirect";
    message = "answers " + std::to_string(status) + " with a redirect to " +
              v.head.location;
  } else if (status != 200) {
    reason = "status";
    message = "answers " + std::to_string(status);
  } else if (v.noindex) {
    reason = "noindex";
    message = v.header_noindex ? "is marked noindex (X-Robots-Tag header)"
                               : "is marked noindex (robots meta)";
  } else if (!v.canonical.empty()) {
    reason = "canonical";
    message = "names " + v.canonical + " as its canonical URL";
  }
}

}  // namespace

std::string_view to_string(audit_class c) noexcept {
  return c == audit_class::orphan    ? "orphans"
         : c == audit_class::missing ? "missing"
                                     : "not_indexable";
}

std::string_view audit_outcome(const audit_report& report,
                               std::span<const audit_class> fail_on) noexcept {
  if (report.cancelled) return "cancelled";
  if (!report.error.empty()) return "unreadable";
  for (audit_class c : fail_on)
    if (report.count(c) > 0) return "failed";
  return "passed";
}

audit_report audit_site(const audit_options& o) {
  audit_report report;
  normalized_url site;
  if (!names_site(o.site_url, site)) {
    report.error = "`site_url` " + o.site_url +
                   ": not a site's root URL (an http(s) URL whose path is /)";
    return report;
  }
  report.site = std::string(site.href());

  sitemap_urls urls(o.max_sitemap_urls);
  std::vector<std::string> names;  // every document opened, by index
  if (!read_sitemaps(o, site, urls, names, report)) return report;
  report.sitemap_urls = urls.all().size();
  report.sitemap_urls_dropped = urls.dropped();
  if (report.sitemap_urls_dropped > 0)
    report.notes.push_back(
        counted(report.sitemap_urls_dropped, "sitemap URL", "sitemap URLs") +
        " past the first " + with_commas(o.max_sitemap_urls) +
        " (`max_sitemap_urls`) were not compared");

  // The crawl: links only, no seeds, so that what it reaches is linked.
  crawl_options c = o.crawl;
  c.start_url = report.site;
  c.seed_sitemaps = false;
  std::vector<placed_finding> bad;
  std::uint64_t past_max_pages = 0, past_max_depth = 0;
  const crawl_urls_result crawled = crawl_urls(
      c,
      [&](const crawled_url& u) {
        ++report.crawled_urls;
        if (u.skipped.empty()) ++report.indexable_pages;
        if (u.skipped == "max pages") ++past_max_pages;
        if (u.skipped == "max depth") ++past_max_depth;
        listed_url* l = urls.find(u.url);
        if (l == nullptr) {
          if (u.skipped.empty())
            report.missing.push_back({std::string(u.url), "not_in_sitemap",
                                      "is not in any sitemap",
                                      std::string(u.referrer), "", ""});
          return;
        }
        if (l->what != listed_url::state::unreached) return;
        std::string reason, message;
        if (!crawl_judged(u, reason, message)) {
          l->what = listed_url::state::to_fetch;  // kept until it is fetched
          l->linked_from = std::string(u.referrer);
          return;
        }
        l->what = listed_url::state::judged;
        if (reason.empty()) return;
        audit_finding f =
            finding(*l, std::move(reason), std::move(message), names);
        f.linked_from = std::string(u.referrer);
        f.judged_by = "crawl";
        bad.push_back({urls.at(*l), std::move(f)});
      },
      o.stop);
  if (crawled.error == "cancelled" || (o.stop != nullptr && o.stop->load())) {
    report.cancelled = true;
    return report;
  }
  if (!crawled.error.empty()) {
    report.error = "crawl: " + crawled.error;
    return report;
  }
  if (past_max_pages > 0)
    report.notes.push_back(
        "the crawl stopped at `max_pages`: " +
        counted(past_max_pages, "URL was", "URLs were") +
        " found and not fetched, and the links of those pages are not "
        "known, so some orphans may be linked from them");
  if (past_max_depth > 0)
    report.notes.push_back(
        counted(past_max_depth, "URL was", "URLs were") +
        " found only deeper than `max_depth` and not fetched");
  if (crawled.dropped_links > 0)
    report.notes.push_back(
        counted(crawled.dropped_links, "link", "links") +
        " found past the crawl frontier's bound (`max_frontier_urls`) were "
        "counted, not kept: an orphan may be linked by one of them");

  // Orphans in sitemap order; what the crawl did not judge is fetched.
  std::vector<std::string> to_fetch;
  std::vector<std::size_t> fetched_at;  // by index into to_fetch
  std::deque<listed_url>& all = urls.all();
  for (std::size_t i = 0; i < all.size(); ++i) {
    listed_url& l = all[i];
    if (l.what == listed_url::state::judged) continue;
    normalized_url u;
    (void)normalize_url(l.url, u);
    if (!within_scope(u, site)) {
      audit_finding f = finding(
          l, "off_site",
          "is not on " + std::string(site.origin()) +
              ": not fetched; search engines take a sitemap's URLs only "
              "on its site",
          names);
      bad.push_back({i, std::move(f)});
      continue;
    }
    if (l.what == listed_url::state::unreached)
      report.orphans.push_back(
          finding(l, "not_linked", "no crawled page links to it", names));
    to_fetch.push_back(l.url);
    fetched_at.push_back(i);
  }

  detail::url_judging how;
  how.http = crawl_http(o, site);
  how.concurrency = o.crawl.concurrency;
  how.max_page_bytes = o.crawl.max_page_bytes;
  fetch_scope scope;
  scope.allow_private = o.crawl.allow_private;
  scope.allow_target_host(site.host());
  how.scope = &scope;
  const bool done = detail::judge_urls(
      to_fetch, how,
      [&](std::size_t i, const detail::url_verdict& v) {
        if (v.robots_rule.empty()) ++report.fetched;
        std::string reason, message;
        fetch_judged(v, reason, message);
        if (reason.empty()) return;
        audit_finding f = finding(all[fetched_at[i]], std::move(reason),
                                  std::move(message), names);
        f.judged_by = "fetch";
        bad.push_back({fetched_at[i], std::move(f)});
      },
      [&](const std::string& origin, std::size_t, std::size_t,
          const std::string& why) {
        // One origin: every URL fetched is on the site's.
        for (std::size_t i = 0; i < to_fetch.size(); ++i) {
          audit_finding f =
              finding(all[fetched_at[i]], "robots_unreadable",
                      "not fetched: " + origin +
                          "/robots.txt could not be read (" + why +
                          "), and crawlers crawl nothing of such a site (RFC "
                          "9309 2.3.1.4)",
                      names);
          f.judged_by = "fetch";
          bad.push_back({fetched_at[i], std::move(f)});
        }
      });
  if (!done) {
    report.cancelled = true;
    return report;
  }
  std::stable_sort(bad.begin(), bad.end(),
                   [](const placed_finding& a, const placed_finding& b) {
                     return a.at < b.at;
                   });
  for (placed_finding& p : bad) report.not_indexable.push_back(std::move(p.f));
  return report;
}

}  // namespace sitemill
