// sitemill: the check report as JSON, the object `sitemill check --json`
// prints (its shape is in the README: documents, each with its diagnostics,
// then the totals).
//
// A check report is bounded (diagnostics beyond
// check_options::max_listed_per_code are counted, not kept), so it is
// rendered in one piece.
//
// Thread-safety: the function keeps no state.
#ifndef SITEMILL_REPORT_CHECK_JSON_H
#define SITEMILL_REPORT_CHECK_JSON_H

#include "sitemill/check/check.h"
#include "sitemill/result.h"
#include "sitemill/write/sink.h"

namespace sitemill {

/// Writes `report` as one JSON object on one line followed by "\n"; the sink
/// is not closed. Bytes that are not UTF-8 (messages quote their input)
/// become U+FFFD. Fails when the sink fails.
[[nodiscard]] status write_check_json(sink& out, const check_report& report);

}  // namespace sitemill

#endif  // SITEMILL_REPORT_CHECK_JSON_H
