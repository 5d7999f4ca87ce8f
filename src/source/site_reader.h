// sitemill internals: the directory source's reader (site_source.h says
// what it lists), shared by its two files: site_walk.cpp walks the tree (the
// listing, the order, symbolic links, sitemill's own output left out) and
// site_page.cpp judges a file found there (the page rules, the URL it is
// listed at, its lastmod).
#ifndef SITEMILL_SOURCE_SITE_READER_H
#define SITEMILL_SOURCE_SITE_READER_H

#include <sys/stat.h>
#include <sys/types.h>

#include <cstdint>
#include <ctime>
#include <string>
#include <string_view>
#include <vector>

#include "html/page_links.h"
#include "sitemill/html/html_page.h"
#include "sitemill/robots/robots_rules.h"
#include "sitemill/source/site_source.h"
#include "sitemill/url/url.h"

namespace sitemill::detail {

class site_reader final : public record_reader {
 public:
  site_reader(const site_source_options& options, url_normalizer normalizer,
              site_patterns patterns, std::string root, std::string root_real)
      : options_(options),
        normalizer_(std::move(normalizer)),
        patterns_(std::move(patterns)),
        root_(std::move(root)),
        root_real_(std::move(root_real)) {}

  // Reads robots.txt and lists the root. Fails when the root cannot be
  // listed.
  status start();

  bool next(input_record& out) override;

  const std::string& error() const noexcept override { return error_; }
  const std::vector<note>& notes() const noexcept override { return notes_; }

 private:
  struct entry {
    std::string key;  // the name, with '/' appended for a directory: sorts
                      // like the full path would
    bool dir = false;
    std::string_view name() const noexcept {
      return dir ? std::string_view(key).substr(0, key.size() - 1)
                 : std::string_view(key);
    }
  };

  // One directory on the current path of the walk.
  struct frame {
    std::string rel;  // "" for the root, else "a/b/"
    std::vector<entry> entries;
    std::size_t next = 0;
    dev_t dev = 0;
    ino_t ino = 0;
    std::vector<std::string> outputs;  // sorted names sitemill published here
    bool has_bookkeeping = false;      // it holds a .sitemill/ directory
  };

  std::string path_of(std::string_view rel) const;

  bool inside_root(std::string_view real) const noexcept;

  void read_robots();

  // Lists directory `rel` ("" or "a/b/") and pushes it. Returns the
  // reason when it cannot be read.
  std::string push_directory(std::string rel, const struct stat& st);

  // Adds the files the manifest at `path` lists to `names`.
  static void read_outputs(const std::string& path,
                           std::vector<std::string>& names);

  bool on_current_path(const struct stat& st) const noexcept;

  static std::string with_count(std::uint64_t pages);

  // Starts a record for the file or directory `rel`: names it as the
  // record's source (the path as a user would type it: "site/blog/a.html")
  // and sets loc to the URL of `url_rel` (a directory's with a trailing
  // '/'). `line` stays 0: the record is about the file as a whole.
  void begin_record(input_record& out, std::string_view rel,
                    std::string_view url_rel, bool dir);
  void begin_record(input_record& out, std::string_view rel, bool dir);

  // A note about the current record's file.
  void note_here(std::string message);

  bool skip(input_record& out, std::string reason);

  bool fail(input_record& out, std::string problem);

  // Handles one entry of a listing. True when `out` holds a record.
  bool visit(const std::string& rel, std::string_view name, input_record& out);

  bool is_index(std::string_view name) const;

  // Why the file at `rel` is an error page by where it stands, "" when it
  // is not: a page error_pages names, or the conventional ones (404.html,
  // 404/index.html) at the site's root or at a language root (de/404.html).
  // A 404.html deeper down is judged by its title (is_error_title()).
  std::string is_error_page(const std::string& rel, std::string_view name);

  // True when the page at `rel` stands at the site's root or a language
  // root (index.html, oops.html, de/oops/index.html), where a title of a
  // bare status ("404", "500 | Example") makes it an error page.
  bool stands_at_a_root(const std::string& rel, std::string_view name) const;

  // True when error_pages names the file at `rel`; each name that does is
  // marked used (an unused one is reported at the end).
  bool named_error_page(std::string_view rel, std::string_view name);

  // True when `canonical` names the page at `rel` itself, under another of
  // its spellings: the file's own path, that path without .html or .htm,
  // with or without a trailing '/', or for an index file its directory with
  // or without the '/'. What a host with clean URLs serves, and what
  // Jekyll's `permalink: /about` writes (about.html, canonical /about).
  bool names_itself(const normalized_url& canonical, const std::string& rel,
                    std::string_view name);

  // For a URL under the base: "" when a file of the tree serves it by the
  // clean-URL rules (docs/site-source.md), else the files looked for
  // ("x/index.html or x/index.htm"). "" for a URL of another site.
  std::string unserved(const normalized_url& url) const;

  // Counts a listed page's lastmod, to tell at the end when every page got
  // the same one.
  void count_listed(std::string_view lastmod);

  // The notes of the end of the walk: undated pages, one lastmod for all,
  // error pages named for no file.
  void finish();

  // The robots.txt rule that disallows `url`, or "" when it is allowed.
  std::string disallowed(const normalized_url& url) const;

  // The first date the page states that reads as one and is not in the
  // future, formatted as a lastmod; "" when none. Notes those passed over.
  std::string stated_lastmod(const html_facts& facts);

  bool page(const std::string& rel, std::string_view name,
            const std::string& path, const struct stat& st, input_record& out);

  const site_source_options options_;  // a copy: the caller's may go
  url_normalizer normalizer_;
  site_patterns patterns_;
  std::string root_;       // as given, without trailing '/'
  std::string root_real_;  // realpath of the root
  std::string root_book_;  // the root's bookkeeping directory
  bool root_book_exists_ = false;
  robots_rules robots_;
  std::vector<frame> stack_;
  std::int64_t now_ = static_cast<std::int64_t>(std::time(nullptr));
  std::uint64_t undated_ = 0;  // listed pages --lastmod page found no date in
  // Listed pages, those with a lastmod, and whether all of those have the
  // first one; stated_ counts the lastmods a page stated itself.
  std::uint64_t listed_ = 0, dated_ = 0, stated_ = 0;
  std::string first_lastmod_;
  bool one_lastmod_ = true;
  bool stated_now_ = false;  // the current page's lastmod is its own date
  std::vector<bool> error_page_used_;  // per options_.error_pages
  bool finished_ = false;
  // The current record's text (input_record holds views into these).
  std::string source_, loc_, lastmod_, skipped_, problem_, bytes_, form_;
  normalized_url url_, scratch_url_;
  detail::page_links links_;  // the current page's; out.extensions views it
  std::string error_;
  std::vector<note> notes_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_SOURCE_SITE_READER_H
