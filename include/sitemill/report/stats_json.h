// sitemill: the numbers of a set as JSON, the object `sitemill stats
// --json` prints (its keys are listed in docs/stats-diff.md).
//
// set_stats are bounded (tables are capped; see stats.h), so they are
// rendered in one piece.
//
// Thread-safety: the function keeps no state.
#ifndef SITEMILL_REPORT_STATS_JSON_H
#define SITEMILL_REPORT_STATS_JSON_H

#include "sitemill/inspect/stats.h"
#include "sitemill/result.h"
#include "sitemill/write/sink.h"

namespace sitemill {

/// Writes `s` as one JSON object on one line followed by "\n"; the sink is
/// not closed. Bytes that are not UTF-8 become U+FFFD. Fails when the sink
/// fails.
[[nodiscard]] status write_stats_json(sink& out, const set_stats& s);

}  // namespace sitemill

#endif  // SITEMILL_REPORT_STATS_JSON_H
