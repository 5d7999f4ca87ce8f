// sitemill: the site audit as JSON, the object `sitemill audit --json`
// prints (docs/report-schema.md, "audit"): the site and its sitemaps, the
// totals, the three lists of findings, the notes and the verdict.
//
// Thread-safety: the function keeps no state.
#ifndef SITEMILL_REPORT_AUDIT_JSON_H
#define SITEMILL_REPORT_AUDIT_JSON_H

#include <span>

#include "sitemill/audit/audit.h"
#include "sitemill/result.h"
#include "sitemill/write/sink.h"

namespace sitemill {

/// Writes `report` as one JSON object on one line followed by "\n", with
/// its outcome as `fail_on` judges it (audit_outcome()); the sink is not
/// closed. Bytes that are not UTF-8 become U+FFFD. Fails when the sink
/// fails.
[[nodiscard]] status write_audit_json(sink& out, const audit_report& report,
                                      std::span<const audit_class> fail_on);

}  // namespace sitemill

#endif  // SITEMILL_REPORT_AUDIT_JSON_H
