// sitemill internals: check --audit, the URLs a run's sitemaps list,
// fetched once every document is read (check_options::audit); and
// judge_urls(), the fetching and reading of listed URLs that it shares with
// the site audit (audit/audit.h).
#ifndef SITEMILL_CHECK_AUDIT_H
#define SITEMILL_CHECK_AUDIT_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/net/http.h"

namespace sitemill::detail {

/// What a search engine finds at one listed URL.
struct url_verdict {
  /// robots.txt disallows it: the rule ("Disallow: /private/"); not fetched.
  std::string robots_rule;
  std::string fetch_error;      ///< the request failed before a status
  http_head head;               ///< its answer; status 0 when none came
  bool noindex = false;         ///< robots meta or X-Robots-Tag
  bool header_noindex = false;  ///< ... by X-Robots-Tag
  std::string canonical;        ///< a canonical link to another URL
};

/// How judge_urls() fetches.
struct url_judging {
  /// Timeouts, user agent (whose product token robots.txt is read for),
  /// resolve pins, trace, cancel flag.
  http_options http;
  unsigned concurrency = 4;  ///< transfers at once, per host too
  std::uint64_t max_page_bytes = 1024 * 1024;  ///< of a page's body read
  const fetch_scope* scope = nullptr;          ///< addresses connected to
  std::function<bool()> cancelled;             ///< asked while it waits
};

/// Fetches `urls` (absolute http(s), normalised) the way the crawler does
/// (net/fetcher.h: each origin's robots.txt first and its Crawl-delay, 429
/// and 5xx asked again) and reads each answer the way it reads pages
/// (scan_html, page_links, page_answer.h), on the calling thread. `judged`
/// is told each URL disallowed by robots.txt or fetched, by its index, as
/// the answers come; `unreadable` once per origin whose robots.txt cannot
/// be read (a status other than 2xx or 4xx, a failed fetch: `why`), whose
/// `count` URLs, the first at index `first`, are then not fetched (RFC 9309
/// 2.3.1.4). False when cancelled.
bool judge_urls(
    const std::vector<std::string>& urls, const url_judging& how,
    const std::function<void(std::size_t i, const url_verdict& v)>& judged,
    const std::function<void(const std::string& origin, std::size_t first,
                             std::size_t count, const std::string& why)>&
        unreadable);

/// One URL to audit, and where its <url> is.
struct audit_entry {
  std::size_t slot = 0;  ///< its document's report in check_report
  std::uint64_t line = 0, column = 0;
  std::string loc;
  std::string lastmod;  ///< as written; "" when none
};

/// The URLs of the run, in reading order, up to a cap.
class audit_list {
 public:
  explicit audit_list(std::size_t max) : max_(max) {}
  /// False once the cap is reached, the first time only (the caller says
  /// so once); later ones are dropped without a word.
  bool add(std::size_t slot, std::string_view loc, std::string_view lastmod,
           std::uint64_t line, std::uint64_t column);
  /// A report withdrawn from slot `slot`: its URLs go, and later slots
  /// move down by one, as check_report::documents does.
  void withdraw(std::size_t slot);
  /// The URL whose host and port the URLs of slot `slot` may be fetched
  /// on (walker.h, "Fetch scope"): the sitemap's URL after redirects, or
  /// the site whose robots.txt cross-submits it. Never set: any host (the
  /// user's own file, whose URL is not known).
  void set_scope(std::size_t slot, std::string url);
  /// The scope set for `slot`; "" when none.
  std::string_view scope(std::size_t slot) const;
  std::vector<audit_entry>& entries() noexcept { return entries_; }

 private:
  std::size_t max_;
  bool told_full_ = false;
  std::vector<audit_entry> entries_;
  std::map<std::size_t, std::string> scopes_;  // by slot
};

}  // namespace sitemill::detail

#endif  // SITEMILL_CHECK_AUDIT_H
