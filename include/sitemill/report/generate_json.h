// sitemill: the generate report as JSON, the one writer and the one reader.
//
// The schema is docs/report-schema.md: the object `sitemill generate --json`
// prints, which `sitemill indexnow --from-manifest` reads back for the URLs
// that changed. Keys and values are kept stable for scripts; readers should
// ignore keys they do not know, as read_generate_json() does.
//
// Memory stays flat for a report of millions of issues: the writer streams
// them from an issue_spool (issue_spool.h) straight to the sink, and the
// reader can count them without keeping them.
//
// Thread-safety: the functions keep no state.
#ifndef SITEMILL_REPORT_GENERATE_JSON_H
#define SITEMILL_REPORT_GENERATE_JSON_H

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/generate/generate.h"
#include "sitemill/notify/announce.h"
#include "sitemill/report/issue_spool.h"
#include "sitemill/result.h"
#include "sitemill/write/sink.h"

namespace sitemill {

/// Writes `report` with the issues `issues` kept and what was announced, as
/// one JSON object on one line followed by "\n" (docs/report-schema.md);
/// the sink is not closed. `announced` holds one announcement per set of
/// report.sets (announce_sets()), or one for the report's set
/// (announce_set()); each that asked for anything is written with its set,
/// the first also at the top. Bytes that are not UTF-8 in strings (a path, a
/// rejected line) become U+FFFD. Fails when the sink fails, or when the
/// spool could not keep every issue (issue_spool::state(); the JSON is still
/// whole, the lists short).
[[nodiscard]] status write_generate_json(
    sink& out, const generate_report& report, const issue_spool& issues,
    std::span<const announcement> announced = {});

/// What a generate report in JSON holds.
struct generate_json_contents {
  /// entry, files, sets, the counts and changes as written. outcome is
  /// published when the report names an entry, failed otherwise (the JSON does
  /// not say why: message and field stay ""); rejected, warnings and skipped
  /// are the lengths of their lists; files' digests are 0.
  generate_report report;
  /// The lists themselves, in order; empty unless asked for.
  std::vector<record_issue> rejected, warnings, skipped;
  /// What was announced for the first set, when the report says (each
  /// set's own, in "sets", is not read back). IndexNow's URLs are the
  /// changes' (indexnow_urls()); a report keeps the batches' attempts but
  /// not their bodies (their URLs are the changes).
  std::optional<announcement> announced;
};

struct generate_json_read_options {
  /// Keep the rejected, warnings and skipped lists; off, their elements are
  /// only counted (not checked either), so that a report of millions of
  /// issues reads in little memory.
  bool issues = true;
};

/// Reads a report written by write_generate_json(). Missing keys read as
/// empty, so a hand-written {"changes": {...}} is a report too; unknown keys
/// are ignored. A list of changes may hold {"loc": URL} objects as well as
/// URL strings. Fails, saying where, on text that is not a JSON object or a
/// key whose value has the wrong type.
result<generate_json_contents> read_generate_json(
    std::string_view json, const generate_json_read_options& options = {});

/// read_generate_json() of the file at `path`; every error names the file.
result<generate_json_contents> read_generate_json_file(
    const std::string& path, const generate_json_read_options& options = {});

/// The URLs a generate report lists as added or changed, in that order:
/// the "changes" of the JSON report (read_generate_json_file();
/// docs/report-schema.md), as indexnow_urls() (announce.h) takes them. Fails, naming the file,
/// when it cannot be read, is not a report, or has no "changes" (a run
/// without a state database does not know what changed).
result<std::vector<std::string>> read_manifest_changes(const std::string& path);

}  // namespace sitemill

#endif  // SITEMILL_REPORT_GENERATE_JSON_H
