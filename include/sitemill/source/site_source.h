// sitemill: the directory source of generate (--from-dir): walks a site's
// output directory and yields one record per page, its URL and lastmod.
//
//   sitemill::site_source_options o;
//   o.root = "public";
//   o.base_url = "https://www.example.com/";
//   auto reader = sitemill::open_site_source(o);  // a record_reader
//
// What is listed (docs/site-source.md has the whole story):
//   * regular files whose path the patterns include: by default *.html and
//     *.htm; --include and --exclude add ordered gitignore-like patterns;
//   * never hidden files or directories (a name starting with '.'), nor
//     the files of a set sitemill published in a directory (its manifest,
//     found as publish/bookkeeping.h says, lists them), nor anything but
//     regular files and directories;
//   * symbolic links are followed only when their target is inside the
//     root; a link out of it, or one that leads back into a directory being
//     walked (a loop), is reported as skipped and not followed.
// Pages the site asks crawlers to leave out are reported as skipped
// (input_record::skipped), with the reason: an error page (404.html,
// 500.html, 404/index.html: a name, or an index file's directory name, that
// is an HTTP status from 400 to 599), a site-verification file
// (google<hex>.html, BingSiteAuth.xml, ...), a <meta http-equiv="refresh">
// to another URL at once (0 s: a redirect stub; a delayed one is a page),
// <meta name="robots" content="noindex">, a
// <link rel="canonical"> to another URL, or a Disallow of the robots.txt
// in the root that applies to every crawler. A canonical that names the
// page itself in another spelling (about.html -> /about or /about/,
// a/index.html -> /a, x.html with clean_urls -> /x.html) is listed under
// the canonical URL instead.
// A page's <link rel="alternate" hreflang> become its alternates, and with
// `images` its content images are listed (docs/site-source.md).
//
// URLs: the path relative to the root is appended to the base URL, each
// UTF-8 name as is (the URL normaliser percent-encodes it later), but '%',
// '?', '#', control characters and bytes that are not UTF-8 percent-encoded
// here. An index file (index.html, index.htm) stands for its directory:
// a/index.html -> BASE/a/. With `clean_urls`, x.html and x.htm become
// BASE/x.
//
// Order: paths sorted by their bytes (a directory's path counting as
// "name/"), so reruns yield the same records in the same order. Memory: the
// sorted listings of the directories on the current path, never the whole
// tree.
#ifndef SITEMILL_SITE_SOURCE_H
#define SITEMILL_SITE_SOURCE_H

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/html/page_rules.h"
#include "sitemill/result.h"
#include "sitemill/source/record_reader.h"
#include "sitemill/source/record_source.h"

namespace sitemill {

class state_db;

/// Where a page's lastmod comes from (--lastmod).
enum class lastmod_policy : std::uint8_t {
  mtime,    ///< the file's modification time
  content,  ///< when the page's content last changed (needs a state_db)
  none,     ///< no lastmod
  /// The date the page states (html_page.h's stated dates, in
  /// stated_date_kind's order, the first that reads as a date and is not
  /// in the future). A page that states none: by content when there is a
  /// state_db, else no lastmod (one note counts such pages).
  page,
};

/// The policy named `name` ("mtime", "content", "none", "page").
std::optional<lastmod_policy> parse_lastmod_policy(
    std::string_view name) noexcept;

/// One --include or --exclude pattern (--include-regex, --exclude-regex
/// with `regex`).
struct site_pattern {
  std::string glob;  ///< the glob, or with `regex` an RE2 regular expression
  bool include = true;
  /// `glob` is an RE2 expression, searched for anywhere in the path (anchor
  /// it with ^ and $); a directory's path is given with a final '/'.
  bool regex = false;
};

/// *.html and *.htm, included.
std::vector<site_pattern> default_site_patterns();

/// Ordered include and exclude patterns, with gitignore's rules:
///   * the last pattern that matches a path decides; none: not listed;
///   * '*' matches any run of characters but '/', '?' one character but
///     '/', [abc], [a-z] and [!a] one character of a set, '\' quotes the
///     next character;
///   * '**' as a whole segment crosses directories: "**/x" (x at any
///     depth), "a/**" (everything below a), "a/**/b" (b anywhere below a);
///     elsewhere it is a '*';
///   * a pattern without '/' matches a name at any depth ("*.pdf",
///     "drafts"); one with a '/' at the start or in the middle matches the
///     path from the root ("/about.html", "blog/*.html");
///   * a pattern ending in '/' matches directories only;
///   * a directory whose last matching pattern excludes it is not entered,
///     so nothing below it can be included again (as in git);
///   * a regex pattern (site_pattern::regex) is searched for in the whole
///     path, a directory's with a final '/' ("^blog/", "\\.pdf$"); RE2
///     matches in time linear in the path, whatever the expression.
///   Patterns match paths relative to the root, without a leading '/'.
///   The same patterns filter URLs (generate_options::url_patterns) by
///   their path below the base URL, with keeps_url_path().
class site_patterns {
 public:
  /// Fails on an empty pattern, or one that is only '/'.
  static result<site_patterns> make(const std::vector<site_pattern>& patterns);

  enum class verdict : std::uint8_t { none, include, exclude };
  /// The decision for `path` ("a/b.html"), a directory when `is_dir`.
  verdict decide(std::string_view path, bool is_dir) const;

  /// For a file: listed or not.
  bool includes(std::string_view path) const {
    return decide(path, false) == verdict::include;
  }

  /// For a URL's path below the base URL ("blog/a.html", "blog/" for a
  /// directory URL, "" for the base itself; no query): true unless a
  /// directory above it is excluded, as a walk would not enter it, or its
  /// own last matching pattern excludes it. A path no pattern matches is
  /// kept: for URLs the implicit default includes everything.
  bool keeps_url_path(std::string_view path) const;

  /// For a URL's path below the base URL, as keeps_url_path() takes it:
  /// true when a pattern includes the path itself or a directory above it
  /// (each decided as decide() does), so "blog/" and "blog/**" both take
  /// everything below blog/. A section's glob is asked this
  /// (generate_options::sections).
  bool matches_url_path(std::string_view path) const;

 private:
  struct compiled;  // one pattern as tokens; defined in site_patterns.cpp
  // decide() with the text regexes see: `path`, or for a directory the
  // path with its final '/' ("a/b/"), which a URL's path already holds.
  verdict decide_in(std::string_view path, std::string_view regex_text,
                    bool is_dir) const;
  // Immutable once made, so copies share it.
  std::shared_ptr<const std::vector<compiled>> patterns_;
  bool has_regex_ = false;  // a directory's regex text must then be built
};

struct site_source_options {
  std::string root;      ///< the site's output directory
  std::string base_url;  ///< the directory URL the root is served at
  /// The bookkeeping directory of sets published in the root, when it is
  /// not the default one (generate's --manifest-dir); the files they list
  /// are not pages.
  std::string manifest_dir;
  std::vector<site_pattern> patterns = default_site_patterns();
  /// File names that stand for their directory's URL (matched exactly).
  std::vector<std::string> index_files = {"index.html", "index.htm"};
  /// False: index files keep their own URL (a/index.html).
  bool map_index_files = true;
  /// page by default: a site generator rewrites every file on every build
  /// (and a CI checkout gives every file one time), so a file's time is
  /// rarely when its page changed; a page's own date, or none, never lies.
  lastmod_policy lastmod = lastmod_policy::page;
  /// noindex, canonical and robots.txt, as the crawler applies them
  /// (nofollow changes nothing here).
  page_rules rules;
  /// Skip a page whose meta refresh sends a reader elsewhere at once (0 s):
  /// search engines take it for a redirect. A delayed refresh is a page,
  /// listed (and told to `trace`).
  bool honour_refresh = true;
  /// Skip error pages: 404.html, 500.htm and 404/index.html at the root or
  /// at a language root (de/404.html), and pages whose <title> says they
  /// are one ("404 Not Found"). docs/site-source.md has the rules.
  bool skip_error_pages = true;
  /// Pages the site serves as error pages, skipped whatever
  /// skip_error_pages says: paths relative to the root ("oops.html",
  /// "/errors/gone/" for errors/gone/index.html).
  std::vector<std::string> error_pages;
  /// List x.html and x.htm as BASE/x (hosts that serve them so); index
  /// files still stand for their directory.
  bool clean_urls = false;
  /// A page's <link rel="alternate" hreflang> in <head> become its
  /// hreflang alternates (docs/site-source.md).
  bool alternates = true;
  /// Also list a page's content images: <img> (srcset's largest),
  /// og:image (docs/site-source.md has the rules). Off by default: not
  /// every icon and badge of a page belongs in a sitemap.
  bool images = false;
  /// Required for lastmod_policy::content: the run must have been begun
  /// (state_db::begin_run()); the source asks it for every listed page's
  /// lastmod, keyed by the page's normalised URL. Not owned.
  state_db* state = nullptr;
  /// Told one line for a page listed although a reader might expect it
  /// skipped, and why ("public/blog/moved.html: listed: its meta refresh to
  /// https://www.example.com/new/ waits 5 s; only an instant one is a
  /// redirect"): the CLI's --verbose. Empty: nothing. Called on the
  /// reader's thread.
  std::function<void(std::string_view line)> trace;
};

/// A record_reader over the site. Each record is one page: `loc` the page's
/// URL, `lastmod` per the policy (YYYY-MM-DDThh:mm:ssZ, UTC, or the page's
/// own date as it states it), `source` the file (the root as given joined
/// with the relative path: "site/blog/a.html"; a directory's with a
/// trailing '/') and `line` 0 (the record is about that file as a whole), or
/// a page skipped on purpose (`skipped` says why, `loc` names it), or a file
/// or directory that could not be read (`problem`, naming its path). error()
/// is set only when the state database fails, which ends reading. A page's
/// `extensions` are its hreflang alternates and, when asked, its images
/// (src/html/page_links.h), viewed until the next call. Notes: a
/// canonical link, base URL or alternate that is not a usable URL (it is
/// ignored), an image that does not resolve, a page with more than 1,000
/// images, a stated date that is not one or is in the future; each names
/// its file (note::source). One note at the end counts the pages
/// lastmod_policy::page found no date in.
///
/// Fails when the root is not a readable directory, the base URL is not
/// usable, a pattern is invalid, or the content policy has no state_db.
result<std::unique_ptr<record_reader>> open_site_source(
    const site_source_options& options);

/// The directory source as a record_source. `options.base_url` and
/// `options.state` are the run's (source_context), so they need not be set;
/// `options.root` must be.
std::shared_ptr<const record_source> directory_source(
    site_source_options options);

/// The URL the directory `path` is served at when it lies inside the site
/// directory `root`, served at `base_url`, by the directory source's rule
/// (a file's URL is the base followed by its path from the root): root
/// "public", base https://www.example.com/ and path "public/sitemaps" give
/// https://www.example.com/sitemaps/. Both paths are made absolute with
/// symbolic links resolved as far as they exist (`path` need not exist
/// yet). Empty when `path` is the root itself, is not inside it, or
/// `base_url` is no usable URL.
std::string site_directory_url(std::string_view root, std::string_view base_url,
                               std::string_view path);

/// Seconds since the Unix epoch as a lastmod in UTC
/// ("2024-05-01T12:00:00Z"); "" outside years 1 to 9999.
std::string lastmod_from_unix_time(std::int64_t seconds);

}  // namespace sitemill

#endif  // SITEMILL_SITE_SOURCE_H
