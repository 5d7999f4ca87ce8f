// sitemill generate's last words: what was published (or sharded), the
// lastmods it could not read, and what announcing the set did, on stderr.
#ifndef SITEMILL_CLI_GENERATE_SUMMARY_H
#define SITEMILL_CLI_GENERATE_SUMMARY_H

#include <string>
#include <vector>

#include "sitemill/generate/generate.h"
#include "sitemill/notify/announce.h"

namespace sitemill::cli {

/// "published 3 files to DIR (entry URL): 10 URLs written, ...", a line per
/// set for a run over several hosts, and what a reader would wonder about
/// (several indexes to submit, an index without lastmod).
void print_summary(const generate_report& r);

/// One line for what a million warnings would say a million times: how many
/// lastmods were dropped (with the first few), and how many read as UTC.
void print_lastmod_summary(const generate_report& r);

/// A shard's line: what it kept, where it went, and what comes next.
void print_shard_summary(const generate_report& r, const shard_spec& shard,
                         const std::string& out_dir);

/// A dry run's last line: what --robots, --indexnow-key and --submit would
/// have done
/// after a publish, which it did not do. Nothing when neither was given.
void print_dry_run_announcing(const announce_options& asked);

/// Where the set's files are served, when that is not its base URL: that
/// --sitemaps-url was inferred (`inferred_from`, the --from-dir --out lies
/// in), and a warning when its URLs lie outside that folder and nothing
/// vouches for them (no --robots, and the robots.txt of the --from-dir
/// served at the host's root does not name the entry): search engines would
/// drop them by the protocol's location rule.
void print_sitemaps_location(const generate_report& r,
                             const std::string& robots_path,
                             const std::vector<std::string>& from_dirs,
                             const std::string& inferred_from,
                             const std::string& out_dir, bool quiet);

/// A warning when the set's bookkeeping (lock, manifest, journal: kept
/// beside `out_dir` unless `manifest_dir` names a place) lies inside one of
/// `from_dirs`, the site a deploy serves: it would be served too
/// (`--out public/sitemaps` keeps it in `public/.sitemill/`).
void print_bookkeeping_location(const generate_report& r,
                                const std::vector<std::string>& from_dirs,
                                const std::string& out_dir,
                                const std::string& manifest_dir, bool quiet);

/// What announcing one set did, unless `quiet` and fine; the exit code it
/// asks for. The set is already live, so a failure takes nothing back: 2 for
/// robots.txt or refused IndexNow or submit options, 1 for a URL or batch
/// IndexNow did not take, or a sitemap an engine did not.
int print_announcement(const announcement& done, bool quiet);

}  // namespace sitemill::cli

#endif  // SITEMILL_CLI_GENERATE_SUMMARY_H
