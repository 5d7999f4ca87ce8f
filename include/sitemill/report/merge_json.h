// sitemill: what `sitemill merge` did, as the JSON object it prints with
// --json (docs/report-schema.md).
//
// Thread-safety: the function keeps no state.
#ifndef SITEMILL_REPORT_MERGE_JSON_H
#define SITEMILL_REPORT_MERGE_JSON_H

#include "sitemill/generate/merge.h"
#include "sitemill/result.h"
#include "sitemill/write/sink.h"

namespace sitemill {

/// One line: outcome, message, entry, entry_url, files (as generate's),
/// shards and the shards' counts added up.
status write_merge_json(sink& out, const merge_report& report);

}  // namespace sitemill

#endif  // SITEMILL_REPORT_MERGE_JSON_H
