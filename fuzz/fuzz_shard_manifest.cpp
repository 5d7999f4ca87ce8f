// Fuzzes the reader of a shard's manifest (shard.json,
// parse_shard_manifest()), which `merge` reads from shard directories that
// other jobs may write, and aborts when an invariant breaks, not only on a
// crash:
//  * a refusal names the file and says why;
//  * what it accepts is within the caps merge allocates by: a count from 1
//    to max_shards, an index below it, every number within its bound, an
//    http(s) base URL, plain and distinct file names;
//  * what it accepts, to_json() writes and the reader reads back, and
//    writing what was read again gives the same bytes (nothing is lost or
//    changed between the writer and the reader).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>

#include "generate/shard_manifest.h"
#include "sitemill/limits.h"

namespace {

void check(bool condition) {
  if (!condition) std::abort();
}

const std::string path = "shards/sitemap-0-of-1/shard.json";

void check_bounds(const sitemill::detail::shard_manifest& m) {
  using namespace sitemill;
  check(m.count >= 1 && m.count <= detail::max_shards);
  check(m.index < m.count);
  check(m.layout.base_url.starts_with("http://") ||
        m.layout.base_url.starts_with("https://"));
  check(m.layout.base_url.ends_with('/'));
  check(m.layout.max_index_entries >= 1 &&
        m.layout.max_index_entries <= max_sitemaps_per_index);
  for (std::uint64_t n : {m.records, m.written, m.duplicates, m.filtered,
                          m.rejected, m.warnings, m.skipped})
    check(n <= detail::max_shard_count_value);
  std::set<std::string> names;
  for (const auto& f : m.files) {
    check(!f.path.empty() && f.path.front() != '.');
    check(f.path.find('/') == std::string::npos);
    check(names.insert(f.path).second);
    check(f.group.empty() || f.group == "news");
    check(f.urls <= max_urls_per_sitemap);
    check(f.bytes <= max_bytes_per_sitemap);
    check(!f.size || *f.size <= 2 * max_bytes_per_sitemap);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto read = sitemill::detail::parse_shard_manifest(text, path);
  if (!read) {
    check(read.err().message.starts_with(path + " "));
    return 0;
  }
  check_bounds(*read);
  const std::string written = sitemill::detail::to_json(*read);
  const auto again = sitemill::detail::parse_shard_manifest(written, path);
  check(again.has_value());
  check(sitemill::detail::to_json(*again) == written);
  return 0;
}
