// sitemill: a diff as JSON, the object `sitemill diff --json` prints (its
// keys are listed in docs/stats-diff.md):
//   {"old": ..., "new": ..., "files": [...], "urls": [...], "summary": {...}}
// Differences are written as they are told, so memory stays flat however
// many there are; the summary comes last, once it is known.
//
// Not thread-safe: one writer per output.
#ifndef SITEMILL_REPORT_DIFF_JSON_H
#define SITEMILL_REPORT_DIFF_JSON_H

#include <string>
#include <vector>

#include "sitemill/inspect/diff.h"
#include "sitemill/result.h"
#include "sitemill/write/sink.h"

namespace sitemill {

class diff_json_writer {
 public:
  /// Writes the opening, naming the inputs as given.
  diff_json_writer(sink& out, const std::string& old_input,
                   const std::string& new_input);
  /// One file difference; all of them come before the first URL.
  void file(const file_difference& d);
  /// One URL difference.
  void url(const url_difference& d);
  /// Closes the lists and writes the summary and the guards' verdicts
  /// (sentence and whether each tripped); then the status of every write.
  [[nodiscard]] status finish(const diff_summary& s,
                              const std::vector<guard_verdict>& guards);

 private:
  void write(const std::string& text);
  void start_urls();

  sink& out_;
  status status_;
  bool any_file_ = false, in_urls_ = false, any_url_ = false;
};

/// "2026-11-24T10:00:00Z": seconds since 1970 as a UTC W3C datetime.
std::string utc_datetime(std::int64_t unix_seconds);

}  // namespace sitemill

#endif  // SITEMILL_REPORT_DIFF_JSON_H
