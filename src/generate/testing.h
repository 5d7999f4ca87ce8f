// What only tests change in a generate run or a merge of shards, kept out of
// the public option structs: an embedder has no use for them. The tests and
// the CLI's crash-test switch (SITEMILL_TEST_KILL_AT, docs/publishing.md)
// include this header; nothing else should.
#ifndef SITEMILL_GENERATE_TESTING_H
#define SITEMILL_GENERATE_TESTING_H

#include <cstddef>
#include <functional>

#include "sitemill/generate/generate.h"
#include "sitemill/generate/merge.h"
#include "sitemill/limits.h"
#include "sitemill/publish/publish.h"

namespace sitemill::detail {

struct generate_testing {
  /// Called at each publish_step the run reaches, on the thread that
  /// reaches it: crash tests end the process there.
  std::function<void(publish_step)> hook;
  /// Sitemaps per index file (1 to the protocol's 50,000), lowered so that
  /// a test crosses into several index files with a few sitemaps.
  std::size_t max_index_entries = max_sitemaps_per_index;
};

/// generate() with what tests change.
generate_report generate(const generate_options& options,
                         generate_observer& observer,
                         const generate_testing& testing);

/// merge_shards() with a crash test's hook, as generate_testing::hook.
merge_report merge_shards(const merge_options& options,
                          const std::function<void(publish_step)>& hook);

}  // namespace sitemill::detail

#endif  // SITEMILL_GENERATE_TESTING_H
