// sitemill: what `sitemill robots`, `sitemill ping`, `sitemill indexnow` and
// `sitemill submit` did, as the JSON object each prints with --json
// (docs/report-schema.md).
//
// The robots edit and the IndexNow submission inside them are the objects
// `generate --json` carries in its "announce" (write_generate_json()),
// written by the same code, so a script reads both the same way.
//
// Every run here is bounded (a few sitemaps and endpoints; IndexNow batches
// of 10,000 URLs are counted, not listed), so each is rendered in one piece.
//
// Thread-safety: the functions keep no state.
#ifndef SITEMILL_REPORT_NOTIFY_JSON_H
#define SITEMILL_REPORT_NOTIFY_JSON_H

#include <optional>
#include <string>
#include <vector>

#include "sitemill/notify/announce.h"
#include "sitemill/notify/ping.h"
#include "sitemill/result.h"
#include "sitemill/write/sink.h"

namespace sitemill {

/// What `sitemill robots` did: the edit (or why it failed) of one file.
struct robots_run {
  bool dry_run = false;
  robots_announcement robots;
};

/// One sitemap of a ping run, with what --verify found and each ping.
struct pinged_sitemap {
  std::string url;  ///< normalised
  /// --verify's GET; empty without --verify, or in a dry run (nothing is
  /// fetched).
  std::optional<sitemap_check> verified;
  /// One per endpoint, in the order given; none when --verify failed, and
  /// fewer when the run was interrupted.
  std::vector<ping_report> pings;
};

/// What `sitemill ping` did.
struct ping_run {
  bool dry_run = false;
  bool verify = false;                   ///< --verify was given
  std::vector<pinged_sitemap> sitemaps;  ///< in the order given
};

/// The key file `sitemill indexnow --write-key` wrote (or would write).
struct indexnow_key_file {
  std::string path;
  /// What the file holds. Not a secret: IndexNow has it served on the site.
  std::string key;
  /// sitemill made the key up (--key was not given): the user needs it for
  /// --key from then on.
  bool generated = false;
};

/// What `sitemill indexnow` did.
struct indexnow_run {
  bool dry_run = false;
  std::optional<indexnow_key_file> key_file;  ///< --write-key was given
  /// The submission; empty when only a key file was asked for.
  std::optional<indexnow_announcement> submission;
};

/// What `sitemill submit` did.
struct submit_run {
  bool dry_run = false;
  submit_announcement submission;
};

/// Writes `run` as one JSON object on one line followed by "\n":
/// {"dry_run","robots"} and, in a dry run with an edit, "text", the whole
/// file as it would be written. The sink is not closed; bytes that are not
/// UTF-8 become U+FFFD. Fails when the sink fails.
[[nodiscard]] status write_robots_json(sink& out, const robots_run& run);

/// Writes `run` as one JSON object on one line followed by "\n":
/// {"dry_run","sitemaps":[{"url","verify","pings"}]}, "verify" null without
/// --verify. The sink is not closed. Fails when the sink fails.
[[nodiscard]] status write_ping_json(sink& out, const ping_run& run);

/// Writes `run` as one JSON object on one line followed by "\n":
/// {"dry_run","key_file"?,"indexnow"?}, each there when it was asked for.
/// The request bodies are left out: their URLs are the input, up to 10,000
/// a batch, and each batch counts them. The sink is not closed. Fails when
/// the sink fails.
[[nodiscard]] status write_indexnow_json(sink& out, const indexnow_run& run);

/// Writes `run` as one JSON object on one line followed by "\n":
/// {"dry_run","submit"}, "submit" as generate's "announce" carries it. No
/// secret is written. The sink is not closed. Fails when the sink fails.
[[nodiscard]] status write_submit_json(sink& out, const submit_run& run);

}  // namespace sitemill

#endif  // SITEMILL_REPORT_NOTIFY_JSON_H
