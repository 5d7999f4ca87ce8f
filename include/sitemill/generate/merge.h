// sitemill: publishing the set a sharded generate run made (shard.h,
// docs/scaling.md).
//
//   sitemill::merge_options o;
//   o.out_dir = "public";          // the shards' --out
//   sitemill::merge_report r = sitemill::merge_shards(o);
//   if (r.outcome == sitemill::merge_outcome::published) use(r.entry_url);
//
// Every shard's manifest is read and checked first: one count N, each index
// from 0 to N-1 exactly once, the same layout, options and job. Shard
// directories may sit on storage other jobs write, so every shard file is
// untrusted input: a manifest is a regular file within its caps (counts,
// sizes, an http(s) base URL), and each sitemap a regular file, opened
// without following a symbolic link, whose size and digest match the
// manifest; anything else refuses the merge, naming the file. Then the
// output directory's lock is taken, the shards' sitemaps are copied into it
// under temporary names (checked while copied: what was checked is what is
// published), indexed in shard order by the same rule a one-process run uses
// (assemble_set()), and published by the same publisher: the index last,
// the previous set's files removed only after, the previous set intact if
// anything fails (docs/publishing.md). The shards' own directories are left
// as they are, so a merge can be run again.
#ifndef SITEMILL_GENERATE_MERGE_H
#define SITEMILL_GENERATE_MERGE_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sitemill/publish/bucket.h"
#include "sitemill/publish/publish.h"

namespace sitemill {

struct merge_options {
  std::string out_dir;  ///< the shards' out_dir, where the set is published
  std::string name = "sitemap";  ///< the set's name (generate's `name`)
  /// The bookkeeping directory of out_dir, when generate was given one
  /// (generate_options::manifest_dir); empty: the default beside out_dir.
  std::string manifest_dir;
  /// Shard manifests (shard.json) to merge; empty: every shard of `name`
  /// found in the bookkeeping directory's shards/.
  std::vector<std::string> manifests;
  /// Asked between files and before the commit; true stops the merge
  /// (nothing is published).
  std::function<bool()> cancelled;
  /// With an out_dir "s3://BUCKET/PREFIX/": how the set's objects are
  /// stored (bucket.h). The shards are then found in manifest_dir, which
  /// is required: the local directory the shards were given as theirs.
  bucket_options bucket;
};

enum class merge_outcome : std::uint8_t {
  published,      ///< the merged set is live
  no_valid_urls,  ///< the shards hold no URL between them
  refused,    ///< the shards do not make one set, or a shard file is not what
              ///< its manifest says: see message
  cancelled,  ///< `cancelled` said so; nothing was published
  failed,     ///< the output could not be written: see message
};

struct merge_report {
  merge_outcome outcome = merge_outcome::failed;
  std::string message;  ///< why, when not published
  std::string entry;    ///< the file to submit, in out_dir
  std::string entry_url;
  std::vector<published_file> files;  ///< the published set, entry included
  std::uint32_t shards = 0;           ///< merged
  /// The shards' counts added up.
  std::uint64_t records = 0, written = 0, duplicates = 0, filtered = 0,
                rejected = 0, warnings = 0, skipped = 0;
};

/// Merges and publishes. Never throws for bad input or I/O failures.
merge_report merge_shards(const merge_options& options);

}  // namespace sitemill

#endif  // SITEMILL_GENERATE_MERGE_H
