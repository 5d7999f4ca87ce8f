// One set of a generate run made ready to publish: its sitemaps named and
// indexed (assemble_set(), the step a merge of shards shares) and, with
// generate_options::html_view, its HTML view staged beside them; the set's
// report filled as it will be published.
#ifndef SITEMILL_GENERATE_SET_STAGING_H
#define SITEMILL_GENERATE_SET_STAGING_H

#include "generate/set_writers.h"
#include "publish/set_outputs.h"
#include "sitemill/generate/generate.h"
#include "sitemill/publish/set_assembly.h"

namespace sitemill::detail {

/// The files `writers` finished for `out` (a directory's set), staged in
/// its publisher as `layout` names them; out.report filled.
result<assembled_set> stage_set(const generate_options& o,
                                const set_layout& layout, set_output& out,
                                const set_writers& writers);

}  // namespace sitemill::detail

#endif  // SITEMILL_GENERATE_SET_STAGING_H
