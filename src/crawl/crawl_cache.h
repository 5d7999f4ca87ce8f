// sitemill internals: what a crawl with --state remembers of each page, in
// an SQLite file beside the state database (STATE-crawl), so that
//   * a crawl that was interrupted (Ctrl-C, kill -9) resumes: a page its
//     unfinished crawl already judged is judged again from here, without a
//     request (one a 304 confirmed as it was is asked again: not writing
//     those keeps an unchanged re-crawl from rewriting every row);
//   * a re-crawl asks each page known from an earlier crawl conditionally
//     (If-None-Match, If-Modified-Since), and a 304 takes the verdict, the
//     links and the extensions from here, without a body to parse.
//
// Unlike the state database, which changes only when a set is published,
// this file is written as the crawl goes (a transaction per batch of pages),
// because resuming needs what was fetched before the interruption. It is a
// cache: deleting it costs one full crawl, never a wrong set.
//
// What a page says depends on more than its URL: a rendered page has the
// links its scripts made, a logged-in page what members see, and a site may
// answer another user agent otherwise. So each crawl is of a kind
// (crawl_kind: rendering on or off, the user agent, a digest of the
// credentials, never the credentials themselves), each page row holds the
// kind of the crawl that judged it, and a page of another kind is not known
// to this crawl: it is fetched in full, unconditionally, and its row
// replaced. A crawl of a start URL whose last crawl was of another kind
// neither resumes it nor asks conditionally; begin() says what differs.
//
// Schema (application_id "SMCR", user_version 2; a version 1 file gets the
// two kind columns, its rows of no kind):
//   crawls(start TEXT PRIMARY KEY, id INTEGER, finished INTEGER, kind TEXT)
//   pages(url TEXT PRIMARY KEY, crawl INTEGER, etag TEXT, last_modified TEXT,
//         verdict TEXT, lastmod TEXT, hash BLOB, found TEXT, extensions TEXT,
//         kind TEXT)
//
// Not thread-safe: the crawl thread alone uses it.
#ifndef SITEMILL_CRAWL_CACHE_H
#define SITEMILL_CRAWL_CACHE_H

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/crawl/crawl_source.h"
#include "sitemill/entry/extensions.h"
#include "sitemill/html/html_page.h"
#include "sitemill/result.h"

struct sqlite3;
struct sqlite3_stmt;

namespace sitemill::detail {

/// What a crawl made of one page, wherever that came from: its answer, a
/// judge thread reading its HTML, or this cache.
struct page_outcome {
  std::string verdict;  ///< "" listed, else the skip reason
  std::string lastmod;
  std::optional<content_hash> hash;  ///< of a listed page's content
  struct link {
    std::string href;
    bool same_depth = false;  ///< a redirect's target: crawled at its depth
  };
  std::vector<link> found;  ///< the links to follow, in document order
  struct value {
    extension_field_id field = 0;
    std::uint32_t item = 0;
    std::string text;
  };
  std::vector<value> extensions;  ///< a listed page's hreflang and images
  /// A redirect's target or a canonical link's URL, for those verdicts;
  /// not cached (a page judged from the cache has none).
  std::string target;
  /// What makes the page look built by its scripts (looks_script_built(),
  /// page_judges.h: "2 scripts, no links, 14 bytes of text"); "" for a
  /// page that does not. Not cached: a page read from the cache is not
  /// read again.
  std::string script_built;
};

/// What, besides a page's URL, changes what a crawl makes of it.
struct crawl_kind {
  bool render = false;
  std::string user_agent;  ///< as sent (crawl_user_agent())
  /// PBKDF2-HMAC-SHA-256 (hex, 100,000 rounds) of the credentials sent
  /// (their headers, cookies and login; not a cookie's expiry), "" with
  /// none: never the secret itself, and slow to guess a weak password from
  /// should the state file be copied where the netrc is not.
  std::string credentials;

  /// The kind of a crawl with `o`.
  static crawl_kind of(const crawl_options& o);
  /// As stored in the crawls table (no secret in it).
  std::string text() const;
  /// The inverse of text(); a kind of nothing for "" or damaged text.
  static crawl_kind from_text(std::string_view text);
  /// What differs from `before`, in words ("rendering was off, is on; other
  /// credentials"); "" when nothing does.
  std::string changes_since(const crawl_kind& before) const;
  bool operator==(const crawl_kind&) const = default;
};

/// One page as a crawl judged it.
struct cached_page {
  std::uint64_t crawl = 0;          ///< the crawl that last judged it
  std::string etag, last_modified;  ///< the answer's validators
  page_outcome outcome;
};

class crawl_cache {
 public:
  /// Opens (creating it when missing) the cache at `path`.
  static result<std::unique_ptr<crawl_cache>> open(const std::string& path);
  ~crawl_cache();
  crawl_cache(const crawl_cache&) = delete;
  crawl_cache& operator=(const crawl_cache&) = delete;

  /// Begins the crawl of `start`, of `kind`: the id of its unfinished crawl
  /// when the last one was interrupted and was of the same kind (resuming),
  /// else a new id. `changed` is set to what differs from the last crawl of
  /// `start` when that was of another kind (crawl_kind::changes_since()),
  /// else "".
  result<std::uint64_t> begin(std::string_view start, const crawl_kind& kind,
                              bool& resuming, std::string& changed);
  /// What is known of `url` from a crawl of begin()'s kind, or
  /// std::nullopt.
  result<std::optional<cached_page>> find(std::string_view url);
  /// Records `page` for `url` (written with the next flush).
  status put(std::string_view url, const cached_page& page);
  /// Makes what was put so far durable.
  status flush();
  /// Marks the crawl of `start` finished (and flushes).
  status finish(std::string_view start);

  const std::string& path() const noexcept { return path_; }

 private:
  crawl_cache(std::string path, sqlite3* db)
      : path_(std::move(path)), db_(db) {}
  status exec(const char* sql);
  error db_error(std::string_view what) const;

  std::string path_;
  sqlite3* db_ = nullptr;
  sqlite3_stmt* find_ = nullptr;
  sqlite3_stmt* put_ = nullptr;
  std::string kind_;  // the key of begin()'s kind, as pages hold it
  bool in_batch_ = false;
  std::size_t batched_ = 0;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_CRAWL_CACHE_H
