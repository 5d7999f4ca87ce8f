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
// Schema (application_id "SMCR", user_version 1):
//   crawls(start TEXT PRIMARY KEY, id INTEGER, finished INTEGER)
//   pages(url TEXT PRIMARY KEY, crawl INTEGER, etag TEXT, last_modified TEXT,
//         verdict TEXT, lastmod TEXT, hash BLOB, found TEXT, extensions TEXT)
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

  /// Begins the crawl of `start`: the id of its unfinished crawl when the
  /// last one was interrupted (resuming), else a new id.
  result<std::uint64_t> begin(std::string_view start, bool& resuming);
  /// What is known of `url`, or std::nullopt.
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
  bool in_batch_ = false;
  std::size_t batched_ = 0;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_CRAWL_CACHE_H
