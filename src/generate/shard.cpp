#include "sitemill/generate/shard.h"

#include <charconv>
#include <cstdlib>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "generate/shard_manifest.h"

namespace sitemill {
namespace {

using detail::max_shards;

std::optional<std::uint64_t> number(std::string_view text) {
  std::uint64_t n = 0;
  const char* end = text.data() + text.size();
  auto [at, ec] = std::from_chars(text.data(), end, n);
  if (text.empty() || ec != std::errc() || at != end) return std::nullopt;
  return n;
}

error shard_error(std::string message) {
  return error{"`shard`: " + std::move(message), "shard"};
}

// A variable's value as a number; an error naming it when it is unset or
// not one.
result<std::uint64_t> variable(const environment_lookup& env,
                               const char* name) {
  const std::optional<std::string> value = env(name);
  if (!value) return shard_error(std::string(name) + " is not set");
  const auto n = number(*value);
  if (!n)
    return shard_error(std::string(name) + " is \"" + *value +
                       "\", not a number");
  return *n;
}

result<shard_spec> checked(std::uint64_t index, std::uint64_t count,
                           std::string job) {
  if (count < 1 || count > max_shards)
    return shard_error("the count must be from 1 to " +
                       std::to_string(max_shards) + ", not " +
                       std::to_string(count));
  if (index >= count)
    return shard_error("the index must be from 0 to " +
                       std::to_string(count - 1) + ", not " +
                       std::to_string(index) +
                       " (shards are counted from 0, as Kubernetes does)");
  shard_spec s;
  s.index = static_cast<std::uint32_t>(index);
  s.count = static_cast<std::uint32_t>(count);
  s.job = std::move(job);
  return s;
}

// A Slurm job array's task: its id less the array's first id, of the
// array's task count. Arrays with steps (--array=0-15:4) number their
// tasks with gaps, which no index can be read from: refused by the count
// check when the ids pass it.
result<shard_spec> from_slurm(const environment_lookup& env,
                              std::optional<std::uint64_t> count) {
  auto id = variable(env, "SLURM_ARRAY_TASK_ID");
  if (!id) return id.err();
  auto min = variable(env, "SLURM_ARRAY_TASK_MIN");
  if (!min) return min.err();
  auto tasks = variable(env, "SLURM_ARRAY_TASK_COUNT");
  if (!tasks) return tasks.err();
  if (count && *count != *tasks)
    return shard_error("the count given is " + std::to_string(*count) +
                       " but the Slurm array has " + std::to_string(*tasks) +
                       " tasks");
  if (*id < *min) return shard_error("SLURM_ARRAY_TASK_ID is below _MIN");
  return checked(*id - *min, *tasks, env("SLURM_ARRAY_JOB_ID").value_or(""));
}

}  // namespace

std::uint32_t shard_of(std::string_view url, std::uint32_t count) noexcept {
  if (count <= 1) return 0;
  const XXH128_hash_t h = XXH3_128bits(url.data(), url.size());
  return static_cast<std::uint32_t>(h.high64 % count);
}

result<shard_spec> parse_shard(std::string_view text,
                               const environment_lookup& given) {
  const environment_lookup env =
      given ? given : [](const char* name) -> std::optional<std::string> {
    const char* v = std::getenv(name);
    if (v == nullptr) return std::nullopt;
    return std::string(v);
  };
  if (text == "auto") return from_slurm(env, std::nullopt);
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos)
    return shard_error("\"" + std::string(text) +
                       "\" is not I/N, auto or auto/N");
  const auto count = number(text.substr(slash + 1));
  if (!count)
    return shard_error("\"" + std::string(text) +
                       "\": the count after / is not a number");
  const std::string_view first = text.substr(0, slash);
  if (first != "auto") {
    const auto index = number(first);
    if (!index)
      return shard_error("\"" + std::string(text) +
                         "\": the index before / is not a number or auto");
    return checked(*index, *count, "");
  }
  if (env("JOB_COMPLETION_INDEX")) {
    auto index = variable(env, "JOB_COMPLETION_INDEX");
    if (!index) return index.err();
    return checked(*index, *count, "");
  }
  if (env("PARALLEL_SEQ")) {
    // {#}, the job's sequence number from 1: unique per job, where the
    // slot ({%}) is reused as soon as a job ends.
    auto seq = variable(env, "PARALLEL_SEQ");
    if (!seq) return seq.err();
    if (*seq == 0) return shard_error("PARALLEL_SEQ is 0 (it counts from 1)");
    return checked(*seq - 1, *count, "");
  }
  if (env("SLURM_ARRAY_TASK_ID")) return from_slurm(env, *count);
  return shard_error(
      "auto/N reads the index from JOB_COMPLETION_INDEX (a Kubernetes "
      "Indexed Job), PARALLEL_SEQ (GNU parallel) or SLURM_ARRAY_TASK_ID (a "
      "Slurm job array), and none is set; give I/N");
}

}  // namespace sitemill
