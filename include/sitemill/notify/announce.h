// sitemill: announcing a published set, the step after generate(): the
// set's entry and indexes as Sitemap: lines in robots.txt (docs/protocol.md 5),
// the URLs that changed to IndexNow (docs/protocol.md 4.2), and the entry and
// indexes submitted to Search Console and Bing Webmaster Tools (submit.h).
//
//   sitemill::announce_options a;
//   a.base_url = options.base_url;          // as given to generate()
//   a.robots_path = "public/robots.txt";
//   a.indexnow.key = key;                   // needs a run with a state_path
//   sitemill::http_client client;
//   sitemill::announcement done =
//       sitemill::announce_set(client, report.sets.front(), report.changes, a);
//
// A run with several base URLs publishes a set per base (generate_report::
// sets); announce_sets() announces each, robots.txt per host. Announcing
// takes what was published (set_report, publish.h) and what changed
// (state_changes, state_db.h), not a generate report: a set assembled by
// merge_shards(), or one an embedder published itself, is announced alike.
//
// The set is live before anything is announced, so a failure here takes
// nothing back: each step's outcome is in the announcement, for the caller
// to print and to carry in its report (write_generate_json()). Options that
// could never announce the run are refused before it by
// check_announce_options(), so that nothing is published for them.
//
// Thread-safety: no state is kept; the http_client is the caller's, one per
// thread (http.h).
#ifndef SITEMILL_NOTIFY_ANNOUNCE_H
#define SITEMILL_NOTIFY_ANNOUNCE_H

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/net/http.h"
#include "sitemill/notify/indexnow.h"
#include "sitemill/notify/submit.h"
#include "sitemill/publish/publish.h"
#include "sitemill/result.h"
#include "sitemill/robots/robots_edit.h"
#include "sitemill/source/state_db.h"

namespace sitemill {

struct announce_options {
  /// The URL of the directory the set is published at, as given to
  /// generate() (generate_options::base_url); a missing final '/' is added.
  std::string base_url;
  /// The robots.txt to list the entry and every index in, every other byte
  /// kept (update_robots()), and the lines an earlier run of the same set
  /// wrote removed when they name a file the set no longer has (its entry
  /// under another ending, NAME.xml.gz or NAME.txt, or an index NAME-index-K
  /// .xml); "" leaves robots.txt alone. For announce_sets(), "{host}" in it
  /// is replaced by each set's host as its directory names it
  /// (set_directory(): "www.example.com", "localhost_8080"), since each host
  /// has a robots.txt of its own.
  std::string robots_path;
  /// With a key, the URLs the report lists as added or changed are submitted
  /// (submit_indexnow()). An empty key, or a report without changes (a run
  /// without a state database), sends nothing.
  indexnow_options indexnow;
  /// With an engine (submits_anywhere()), the set's entry and every index,
  /// the URLs robots.txt lists, are submitted (submit_sitemaps()).
  submit_options submit;
};

/// What announce_set() did with robots.txt.
struct robots_announcement {
  std::string path;
  /// The URLs it was to list: the set's entry and every index, absolute.
  std::vector<std::string> sitemaps;
  std::optional<robots_update> update;  ///< what was done; empty on failure
  std::optional<error> failure;         ///< why robots.txt was not updated
};

/// What announce_set() did with IndexNow.
struct indexnow_announcement {
  /// Added, then changed (indexnow_urls()). Empty: nothing changed, and
  /// IndexNow was not called.
  std::vector<std::string> urls;
  /// The submission; empty when IndexNow was not called or refused.
  std::optional<indexnow_report> report;
  /// Why nothing was sent: submit_indexnow() refused the options (a bad key,
  /// endpoint or key location; error::field names which).
  std::optional<error> failure;
};

/// What announce_set() did with Search Console and Bing Webmaster Tools.
struct submit_announcement {
  /// The set's entry and every index, absolute (robots_sitemap_urls()).
  std::vector<std::string> sitemaps;
  /// The submission; empty when submit_sitemaps() refused the options.
  std::optional<submit_report> report;
  std::optional<error> failure;  ///< why nothing was sent
};

/// What announce_set() did; a step not asked for is empty.
struct announcement {
  std::optional<robots_announcement> robots;  ///< robots_path was given
  /// A key was given and the report has changes.
  std::optional<indexnow_announcement> indexnow;
  /// An engine was given to submit to.
  std::optional<submit_announcement> submit;
  /// Every step asked for succeeded: robots.txt is updated, IndexNow
  /// accepted every URL or had none to take, and every engine took every
  /// sitemap.
  bool ok() const noexcept;
};

/// The URLs IndexNow is told about: added, then changed. Removed URLs are
/// not: IndexNow asks engines to crawl, and a removed page is for robots.txt
/// or a 404 to tell.
std::vector<std::string> indexnow_urls(const state_changes& changes);

/// The URLs robots.txt lists for a published set: the URL its files are
/// served at (set.sitemaps_url; `base_url` when that is empty, a final '/'
/// added when missing) followed by the path of the entry and of each index.
std::vector<std::string> robots_sitemap_urls(const set_report& set,
                                             std::string_view base_url);

/// True when the set's sitemaps may list every URL of its base by the
/// protocol's location rule: they are served at or above the base
/// (sitemaps_url is a prefix of base_url). False for sitemaps kept in a
/// folder below the pages (https://www.example.com/sitemaps/ for
/// https://www.example.com/): search engines then take their URLs only
/// when the host's robots.txt names the entry in a Sitemap: line (a
/// cross-submission, docs/protocol.md 1.7), as robots_path makes it do.
bool sitemaps_cover_urls(const set_report& set);

/// Announces `set` (its entry and files, at set.sitemaps_url, else at
/// options.base_url): robots.txt
/// first, then IndexNow with the `changes` under options.base_url (every
/// change when it is empty), then the submission of the entry and indexes,
/// each as `options` asks. Each step is tried even when another failed
/// (they are independent). Call it once the set is
/// published; `changes` is empty for a run without a state database.
announcement announce_set(http_client& client, const set_report& set,
                          const std::optional<state_changes>& changes,
                          const announce_options& options);

/// Refuses options that cannot announce the sets of a run over `base_urls`
/// (generate_options::base_url, then more_base_urls); call it before the run,
/// so that a refusal comes before anything is published. error::field names
/// the option:
/// - `robots_path` must hold "{host}" when the bases are on several hosts:
///   each host has a robots.txt of its own, and a Sitemap: line in one host's
///   proves nothing for another (docs/hosts.md);
/// - an IndexNow `key` must be one (is_valid_indexnow_key()), and needs the
///   run's changes (`has_changes`: the run keeps a state database,
///   generate_options::state_path), so that only the URLs added or changed
///   since the last run are sent, as IndexNow asks;
/// - a submission to an engine must pass check_submit_options() (a key that
///   can sign, API roots, `site`).
/// announce_sets() keeps the robots.txt rule whether or not this was called;
/// announce_set() sends nothing to IndexNow without changes.
status check_announce_options(const announce_options& options,
                              std::span<const std::string> base_urls,
                              bool has_changes);

/// Announces every one of `sets` (generate_report::sets), in order, each at
/// its own base URL (options.base_url is not used; robots.txt names its
/// files at its sitemaps_url) with robots_path's
/// "{host}" replaced by the set's host, and IndexNow told the changes under
/// that base (one submission per host, as IndexNow requires). One
/// announcement per set. Sets on several hosts and a robots_path without
/// "{host}" leave robots.txt alone: each set's robots step fails with the
/// reason check_announce_options() gives.
std::vector<announcement> announce_sets(
    http_client& client, std::span<const set_report> sets,
    const std::optional<state_changes>& changes,
    const announce_options& options);

}  // namespace sitemill

#endif  // SITEMILL_NOTIFY_ANNOUNCE_H
