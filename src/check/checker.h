// sitemill internals: check() as the sitemap walker's observer. The walker
// (walk/walker.h) reads, follows and caps; the checker turns what it tells
// into reports. Split by concern:
//   check.cpp      the run and its targets (files, stdin, sitemap URLs)
//   site.cpp       a site target: its robots.txt and the sitemaps it names
//   documents.cpp  one document: the context rules, redirects, Content-Type
//   report.cpp     the reports: one per document, and each document the
//                  walker did not read reported where it was named
//   hreflang.cpp   the cross-set hreflang findings, after the last document
//   audit.cpp      check --audit: the listed URLs fetched, after that
#ifndef SITEMILL_CHECK_CHECKER_H
#define SITEMILL_CHECK_CHECKER_H

#include <cstddef>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "check/audit.h"
#include "check/context.h"
#include "detail/text.h"
#include "sitemill/check/check.h"
#include "sitemill/url/url.h"
#include "sitemill/walk/walker.h"

namespace sitemill::detail {

class checker final : public walk_observer {
 public:
  checker(const check_options& options, check_observer& observer);

  /// Checks every target in turn until the walk stops.
  check_report run(const std::vector<std::string>& targets);

 private:
  // A document being read, or a robots.txt whose sitemaps are being
  // walked: its report's slot and where its findings go.
  struct open_document {
    std::size_t slot = 0;
    std::unique_ptr<context_checker> context;  // a sitemap
    std::unique_ptr<diagnostic_list> robots;   // a robots.txt
    /// The robots.txt named no sitemap, so /sitemap.xml is walked instead.
    bool fallback = false;
    /// A sitemap its host's robots.txt names (or an index above it names):
    /// held to the site's root, and so are its children (vouching.cpp).
    bool vouched = false;
    /// The URL it is served at (after redirects); empty when unknown.
    std::string url;
    diagnostic_list& diagnostics() {
      return context ? context->diagnostics() : *robots;
    }
  };

  // check.cpp
  void check_target(const std::string& target);

  // site.cpp
  void check_site(const std::string& target, const normalized_url& site);

  // documents.cpp: the walk's events.
  parse_handler& on_open(const walk_document& doc) override;
  void on_read(const walk_document& doc, const walk_read& read) override;
  void on_done(const walk_document& doc, const walk_read& read) override;
  void on_failed(const walk_document& doc, const walk_skip& why) override;
  void on_skip(const walk_document& doc, const walk_skip& why) override;
  bool cancelled() override;
  void recheck_location(const std::string& final_url, context_checker& ctx,
                        const parse_summary& first);
  void note_content_type(const walk_read& read, context_checker& ctx);

  // vouching.cpp: a sitemap in a folder of its site, which a Sitemap: line
  // of the host's robots.txt vouches for (docs/protocol.md 1.7).
  /// True when the index listing `doc` was vouched for, or it is a
  /// same-host sitemap the site target's robots.txt names.
  bool vouched_by_lister(const walk_document& doc) const;
  /// After `doc` was read with entries outside its directory: reads its
  /// host's robots.txt (once per host) and vouches for it when a Sitemap:
  /// line names it or an index above it.
  void vouch_if_named(const walk_document& doc, const walk_read& read,
                      open_document& d);
  /// Remembers the sitemaps a site target's robots.txt names.
  void remember_robots(const std::string& origin,
                       const std::vector<walk_link>& links);
  const std::set<std::string>* robots_named(const walk_document& doc,
                                            const std::string& origin);
  /// Adds the error that ends the run inside a document (a time cap; a
  /// cancel is told by check_report::cancelled alone).
  void stopped_inside(walk_stop stop, diagnostic_list& diags);

  // report.cpp
  std::size_t open_report(const walk_document& doc);
  /// Reports a document the walker did not read, where it was named.
  void not_read(const walk_document& doc, const walk_skip& why);
  void report(const walk_document& doc, std::string code, std::string message,
              bool unreadable);
  void already_checked(const walk_document& doc, const std::string& what);
  /// Closes a report: its diagnostics in, and the observer told.
  void finish(std::size_t slot, diagnostic_list& diags);

  // hreflang.cpp: the cross-set hreflang findings, once every document is
  // read, with the URLs they name read again from their documents.
  void report_hreflang();
  /// Reads document `doc` again through `handler` (extraction only);
  /// false when it cannot be (stdin) or the read fails.
  bool reread(std::uint32_t doc, parse_handler& handler);

  // audit.cpp: check_options::audit, once every document is read and the
  // hreflang findings are in.
  void report_audit();

  const check_options& options_;
  check_observer& observer_;
  sitemap_walker walker_;
  hreflang_set hreflang_;
  // The documents whose entries went to hreflang_, by their id there.
  struct hreflang_source {
    std::size_t slot = 0;  // in report_.documents
    std::string path;      // local file; "-" for stdin
    std::string url;       // fetched from (after redirects)
    bool withdrawn = false;
  };
  std::vector<hreflang_source> hreflang_docs_;
  audit_list audits_;
  check_report report_;
  std::vector<open_document> open_;  // innermost last
  bool bad_sitemap_url_ = false;
  // The sitemaps each host's robots.txt names, by origin; empty when it
  // names none or cannot be read.
  std::map<std::string, std::set<std::string>, std::less<>> robots_named_;
};

/// `s` in quotes, non-printable bytes escaped, cut at 300 bytes: a whole
/// URL named in a finding.
inline std::string quote_text(std::string_view s) {
  return quoted_printable(s, 300);
}

}  // namespace sitemill::detail

#endif  // SITEMILL_CHECK_CHECKER_H
