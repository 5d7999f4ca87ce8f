// What one shard of a sharded generate run leaves for the merge: its
// sitemaps (in its shard directory, beside the output directory) and
// shard.json, which says which shard it is, how its set is laid out, what
// it counted, and each file with what the index needs of it. The shard
// publishes shard.json as its entry, so a merge sees a shard's last
// complete output or none, never a half-written one.
//
// Layout (bookkeeping.h): <bookkeeping of --out>/shards/<name>-<I>-of-<N>/
// holds the files and shard.json; the shard's own lock and manifest are
// beside that directory, as for any published directory.
#ifndef SITEMILL_GENERATE_SHARD_MANIFEST_H
#define SITEMILL_GENERATE_SHARD_MANIFEST_H

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sitemill/date/w3c_datetime.h"
#include "sitemill/generate/generate.h"
#include "sitemill/publish/set_assembly.h"
#include "sitemill/result.h"

namespace sitemill::detail {

inline constexpr std::string_view shard_manifest_name = "shard.json";

/// More shards than this is a typing mistake, not a cluster: each writes
/// files of its own, and merge lists every one in the index. A manifest
/// counting more is refused before anything is allocated for it.
inline constexpr std::uint32_t max_shards = 100'000;
/// A shard manifest larger than this is not one sitemill wrote: 50,000
/// files (an index's worth) take about 12 MB of it.
inline constexpr std::uint64_t max_shard_manifest_bytes = 64ull << 20;
/// What any one count of a shard manifest may say: a trillion records per
/// shard, so that 100,000 shards' counts still add up without overflow.
inline constexpr std::uint64_t max_shard_count_value = 1'000'000'000'000;

/// One sitemap a shard wrote.
struct shard_file {
  std::string path;   ///< a plain name in the shard directory
  std::string group;  ///< "" or "news" (finished_sitemap::group)
  std::string section;  ///< "" or a section's name (finished_sitemap)
  /// Its stable layout label (finished_sitemap::label): binary digits,
  /// then "-K" when its leaf needed K files; none under the sequential
  /// layout and in manifests of earlier builds.
  std::optional<std::string> label;
  std::size_t urls = 0;
  std::uint64_t bytes = 0;   ///< uncompressed
  std::uint64_t digest = 0;  ///< XXH3-64 of the bytes on disk
  /// Bytes on disk (compressed when gzip); manifests of earlier builds do
  /// not record it (nullopt): the digest alone is checked then.
  std::optional<std::uint64_t> size;
  std::optional<w3c_datetime> newest;
};

struct shard_manifest {
  std::uint32_t index = 0, count = 0;
  std::string job;    ///< the batch engine's array job id, or ""
  set_layout layout;  ///< how the merged set is named and indexed
  /// The other options every shard must share to make one set (limits,
  /// compression, news), as one comparable line.
  std::string options;
  bool presplit = false;
  std::uint64_t records = 0, written = 0, duplicates = 0, filtered = 0,
                rejected = 0, warnings = 0, skipped = 0;
  std::vector<shard_file> files;
};

/// The shard directory of shard `index` of `count` of the set `name`, below
/// `bookkeeping` (the output directory's bookkeeping directory).
std::string shard_directory(const std::string& bookkeeping,
                            const std::string& name, std::uint32_t index,
                            std::uint32_t count);
/// Where a set's shard directories are: `bookkeeping`/shards.
std::string shards_root(const std::string& bookkeeping);

/// Whether `label` is one the stable layout makes: "", binary digits, and
/// optionally "-K" (K a file number from 2), or K alone for the root.
bool valid_layout_label(std::string_view label);

/// The options every shard must share to make one set, as shard_manifest's
/// options line. An option that changes a set's files goes here, so that
/// merge_shards() refuses shards that differ in it.
std::string shard_options_line(const generate_options& o);

/// The manifest of shard o.shard, with the run's counts (`r`) and its
/// set's `layout`; its files are added by publish_shard().
shard_manifest shard_manifest_of(const generate_options& o,
                                 const generate_report& r, set_layout layout);

/// Where shard o.shard of a run writes: its shard_directory() below the
/// bookkeeping directory of out_dir (manifest_dir, or the default beside
/// out_dir). Errors name `out_dir`.
result<std::string> shard_output_dir(const generate_options& o);

/// Publishes a shard's output in `pub` (its shard directory): `sitemaps`
/// named after their content, and its manifest (`m`, whose files this
/// fills) as the entry, so the directory holds the shard's last complete
/// output, which merge_shards() takes. `cancelled` is asked last before the
/// commit; true publishes nothing.
[[nodiscard]] status publish_shard(
    publisher& pub, shard_manifest& m,
    const std::vector<finished_sitemap>& sitemaps,
    const std::function<bool()>& cancelled);

std::string to_json(const shard_manifest& m);
/// Reads a shard.json, as untrusted input (shard directories may sit on
/// storage other jobs write): a regular file, not a symbolic link, of at
/// most max_shard_manifest_bytes, through parse_shard_manifest(). An error
/// naming `path` and the problem otherwise.
result<shard_manifest> read_shard_manifest(const std::string& path);
/// A shard manifest's text, checked before anything is allocated from it:
/// index below count, count at most max_shards, every number within the
/// protocol's limits (a file's URLs and bytes) or max_shard_count_value, an
/// http(s) base URL in normal form ending in '/', a known type, extension
/// and index mode, a plain set name, plain and distinct file names, a
/// group of "" or "news". Errors name `path` and the problem.
result<shard_manifest> parse_shard_manifest(std::string_view text,
                                            const std::string& path);

}  // namespace sitemill::detail

#endif  // SITEMILL_GENERATE_SHARD_MANIFEST_H
