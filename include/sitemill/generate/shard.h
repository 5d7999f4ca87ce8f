// sitemill: one shard of a sharded generate run (docs/scaling.md).
//
// A site too large for one process is generated as N shards, run as the
// tasks of an array job of a batch engine (Slurm, a Kubernetes Indexed Job,
// GNU parallel). Shard I keeps exactly the URLs whose normalised text hashes
// to I (shard_of()), so a URL and all its duplicates meet in one shard and
// duplicate detection stays exact; it writes its sitemaps and a shard
// manifest beside the output directory and publishes no entry. Once every
// shard is done, merge_shards() (merge.h) checks that they agree and
// publishes the set atomically.
#ifndef SITEMILL_GENERATE_SHARD_H
#define SITEMILL_GENERATE_SHARD_H

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "sitemill/result.h"

namespace sitemill {

/// Which shard a run is.
struct shard_spec {
  std::uint32_t index = 0;  ///< 0 to count - 1
  std::uint32_t count = 0;  ///< 0: not a sharded run
  /// The inputs hold only this shard's URLs (an export already split by
  /// shard_of()): every record is judged here, none filtered out. Without
  /// it every shard reads all inputs and keeps its own URLs.
  bool presplit = false;
  /// The batch engine's id of the array job (SLURM_ARRAY_JOB_ID), when
  /// known: merge refuses shards of different jobs.
  std::string job;
};

/// The shard a normalised URL belongs to among `count`: the high 64 bits of
/// XXH3-128 of its bytes (as written in <loc>, before XML escaping), modulo
/// count. Stable across versions and machines; an export may be split by it
/// ahead of time (xxhash's xxh3_128 in Python, ClickHouse's xxh3 ...).
std::uint32_t shard_of(std::string_view url, std::uint32_t count) noexcept;

/// The environment's value of a variable; std::nullopt when unset.
using environment_lookup =
    std::function<std::optional<std::string>(const char* name)>;

/// Reads a --shard value: "I/N" (I from 0 to N - 1), "auto" (a Slurm job
/// array: SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN of
/// SLURM_ARRAY_TASK_COUNT), or "auto/N" (the index from a Kubernetes Indexed
/// Job's JOB_COMPLETION_INDEX, else GNU parallel's PARALLEL_SEQ - 1, else
/// Slurm's as above; the count N given). An error says what is missing or
/// out of range. `env` defaults to the process environment.
result<shard_spec> parse_shard(std::string_view text,
                               const environment_lookup& env = {});

}  // namespace sitemill

#endif  // SITEMILL_GENERATE_SHARD_H
