#include "sitemill/generate/merge.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "detail/scratch_directory.h"
#include "detail/text.h"
#include "generate/shard_manifest.h"
#include "generate/testing.h"
#include "publish/bucket_publisher.h"
#include "publish/testing.h"
#include "sitemill/limits.h"
#include "sitemill/publish/set_assembly.h"

namespace sitemill {
namespace {

namespace fs = std::filesystem;

struct shard {
  std::string path;  // its shard.json
  std::string dir;   // where its files are
  detail::shard_manifest manifest;
};

// "<name>-<I>-of-<N>": a shard directory of the set `name`.
bool is_shard_directory(const std::string& entry, const std::string& name) {
  if (!entry.starts_with(name + "-")) return false;
  const std::string_view rest = std::string_view(entry).substr(name.size() + 1);
  const std::size_t of = rest.find("-of-");
  if (of == 0 || of == std::string_view::npos || of + 4 == rest.size())
    return false;
  auto digits = [](std::string_view s) {
    return std::all_of(s.begin(), s.end(),
                       [](char c) { return c >= '0' && c <= '9'; });
  };
  return digits(rest.substr(0, of)) && digits(rest.substr(of + 4));
}

// The shard manifests of `name` below `book`, sorted.
std::vector<std::string> find_shards(const std::string& book,
                                     const std::string& name) {
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(detail::shards_root(book), ec)) {
    const std::string entry = e.path().filename().string();
    if (!is_shard_directory(entry, name)) continue;
    const fs::path manifest =
        e.path() / std::string(detail::shard_manifest_name);
    // Anything under the manifest's name counts, links and FIFOs included:
    // read_shards() refuses what is not a regular file by name, where
    // skipping it would report the shard as missing and hide why.
    if (fs::exists(fs::symlink_status(manifest, ec)))
      found.push_back(manifest.string());
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) (out += out.empty() ? "" : ", ") += i;
  return out;
}

// What makes two shards parts of different sets, as a sentence; "" when
// they agree.
std::string disagreement(const detail::shard_manifest& a,
                         const detail::shard_manifest& b) {
  const set_layout &x = a.layout, &y = b.layout;
  if (x.base_url != y.base_url)
    return "the sitemaps' URL " + x.base_url + " against " + y.base_url;
  if (x.name != y.name || x.extension != y.extension || x.type != y.type ||
      x.index != y.index || x.max_index_entries != y.max_index_entries ||
      x.xsl_href != y.xsl_href || x.bundled_stylesheet != y.bundled_stylesheet)
    return "the set's format (name, gzip, text or XML, index, stylesheet)";
  if (a.options != b.options) return a.options + " against " + b.options;
  if (a.presplit != b.presplit)
    return "one read its own partition (`presplit`), the other all inputs";
  if (a.job != b.job) return "batch job " + a.job + " against " + b.job;
  return {};
}

// Reads and checks the shards: one count, each index once, one set.
result<std::vector<shard>> read_shards(const std::vector<std::string>& paths) {
  std::vector<shard> shards;
  for (const std::string& path : paths) {
    auto m = detail::read_shard_manifest(path);
    if (!m) return m.err();
    std::string dir = fs::path(path).parent_path().string();
    if (dir.empty()) dir = ".";  // a manifest named in the working directory
    shards.push_back({path, std::move(dir), std::move(*m)});
  }
  std::map<std::uint32_t, std::vector<std::string>> by_count;
  for (const shard& s : shards) by_count[s.manifest.count].push_back(s.path);
  if (by_count.size() > 1) {
    std::string runs;
    for (const auto& [count, list] : by_count)
      (runs += runs.empty() ? "" : "; ") +=
          std::to_string(count) + " shards: " + join(list);
    return error{
        "the shards come from runs with different shard counts (" + runs +
        "): remove the older run's shard directories, or name the manifests "
        "to merge"};
  }
  const std::uint32_t count = shards.front().manifest.count;
  std::vector<std::vector<std::string>> at(count);
  for (const shard& s : shards) at[s.manifest.index].push_back(s.path);
  std::vector<std::string> missing;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (at[i].size() > 1)
      return error{"shard " + std::to_string(i) + " of " +
                   std::to_string(count) + " is given more than once (" +
                   join(at[i]) + "): merge one run of it"};
    if (at[i].empty()) missing.push_back(std::to_string(i));
  }
  if (!missing.empty())
    return error{"shard" + std::string(missing.size() > 1 ? "s " : " ") +
                 join(missing) + " of " + std::to_string(count) +
                 (missing.size() > 1 ? " are missing: run them"
                                     : " is missing: run it") +
                 " (`shard` I/" + std::to_string(count) +
                 ") before the merge; nothing was published"};
  for (const shard& s : shards)
    if (std::string why = disagreement(shards.front().manifest, s.manifest);
        !why.empty())
      return error{shards.front().path + " and " + s.path +
                   " are not shards of one set: " + why};
  std::sort(shards.begin(), shards.end(), [](const shard& a, const shard& b) {
    return a.manifest.index < b.manifest.index;
  });
  return shards;
}

// Closes a descriptor when it goes out of scope.
struct closes {
  int fd;
  ~closes() { ::close(fd); }
};

// The shard's file `f`, in `dir`, copied to the temporary `to` while its
// size and digest are checked against the shard manifest. Shard
// directories may sit on storage other jobs write, so the file is untrusted
// input: opened without following a symbolic link (or waiting on a FIFO),
// a regular file only, never read past the size it should have, and a copy
// rather than a hard link, so that what was checked is what is published
// and nothing written to the shard's file later reaches the set.
// `refused` tells a file that is not what the manifest says from an I/O
// error.
status take_file(const std::string& dir, const detail::shard_file& f,
                 const std::string& to, bool& refused) {
  const std::string from = dir + "/" + f.path;
  auto refuse = [&](const std::string& why) {
    refused = true;
    return error{"the shard file " + from + " " + why +
                 "; nothing was published"};
  };
  const int in =
      ::open(from.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (in < 0) {
    const int err = errno;
    if (err == ELOOP)
      return refuse("is a symbolic link, not the regular file the shard wrote");
    return error{"cannot open " + from + ": " + std::strerror(err)};
  }
  const closes in_closed{in};
  struct stat st;
  if (::fstat(in, &st) != 0)
    return error{"cannot read " + from + ": " + std::strerror(errno)};
  if (!S_ISREG(st.st_mode))
    return refuse("is not a regular file, not the sitemap the shard wrote");
  const auto on_disk = static_cast<std::uint64_t>(st.st_size);
  // Compressed, a sitemap may come out a little larger than it went in;
  // never twice as large.
  const std::uint64_t limit = f.size.value_or(2 * max_bytes_per_sitemap);
  if (f.size && on_disk != *f.size)
    return refuse("is " + std::to_string(on_disk) +
                  " bytes; its shard manifest says " + std::to_string(*f.size) +
                  ": it changed after the shard wrote it");
  if (on_disk > limit)
    return refuse("is " + std::to_string(on_disk) +
                  " bytes, more than a sitemap can be");
  const int out =
      ::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (out < 0)
    return error{"cannot create " + to + ": " + std::strerror(errno)};
  const closes out_closed{out};
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  std::vector<char> block(1 << 20);
  std::uint64_t total = 0;
  for (;;) {
    const ssize_t n = ::read(in, block.data(), block.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      return error{"cannot read " + from + ": " + std::strerror(errno)};
    if (n == 0) break;
    total += static_cast<std::uint64_t>(n);
    if (total > limit)
      return refuse("grew past " + std::to_string(limit) +
                    " bytes while it was copied");
    XXH3_64bits_update(&state, block.data(), static_cast<std::size_t>(n));
    for (ssize_t done = 0; done < n;) {
      const ssize_t w =
          ::write(out, block.data() + done, static_cast<std::size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w < 0)
        return error{"cannot write " + to + ": " + std::strerror(errno)};
      done += w;
    }
  }
  if (f.size && total != *f.size)
    return refuse("is " + std::to_string(total) +
                  " bytes; its shard manifest says " + std::to_string(*f.size));
  if (const std::uint64_t digest = XXH3_64bits_digest(&state);
      digest != f.digest)
    return refuse("does not hold the bytes its shard manifest names (digest " +
                  detail::to_hex(digest) + ", the manifest says " +
                  detail::to_hex(f.digest) +
                  "): it changed after the shard wrote it");
  if (::fsync(out) != 0)
    return error{"cannot sync " + to + ": " + std::strerror(errno)};
  return {};
}

}  // namespace

merge_report detail::merge_shards(
    const merge_options& o, const std::function<void(publish_step)>& hook) {
  merge_report r;
  auto stop = [&r](merge_outcome outcome, std::string message) {
    r.outcome = outcome;
    r.message = std::move(message);
    r.files.clear();
    r.entry.clear();
    r.entry_url.clear();
    return r;
  };
  if (o.out_dir.empty())
    return stop(merge_outcome::failed, "`out_dir` is required");
  const bool to_bucket = store::is_s3_url(o.out_dir);
  if (to_bucket && o.manifest_dir.empty())
    return stop(merge_outcome::failed,
                "`manifest_dir`: the shards of a bucket's set are kept in a "
                "local directory; give the one the shards were given");
  std::string book = o.manifest_dir;
  if (book.empty()) {
    auto beside = default_bookkeeping_dir(o.out_dir);
    if (!beside) return stop(merge_outcome::failed, beside.err().message);
    book = std::move(*beside);
  }
  std::vector<std::string> paths = o.manifests;
  if (paths.empty()) paths = find_shards(book, o.name);
  if (paths.empty())
    return stop(merge_outcome::refused,
                "no shard of the set \"" + o.name + "\" in " +
                    detail::shards_root(book) +
                    ": run each shard with `shard` I/N and `out_dir` " +
                    o.out_dir + " first");
  auto shards = read_shards(paths);
  if (!shards) return stop(merge_outcome::refused, shards.err().message);
  for (const shard& s : *shards) {
    const detail::shard_manifest& m = s.manifest;
    r.records += m.records;
    r.written += m.written;
    r.duplicates += m.duplicates;
    r.filtered += m.filtered;
    r.rejected += m.rejected;
    r.warnings += m.warnings;
    r.skipped += m.skipped;
  }
  r.shards = static_cast<std::uint32_t>(shards->size());
  if (r.written == 0)
    return stop(merge_outcome::no_valid_urls,
                "the shards hold no valid URL between them; nothing was "
                "published");

  // A bucket's set is assembled in a scratch directory and uploaded from
  // there (publish/bucket_publisher.h); the bucket's lock is taken first.
  detail::scratch_directory scratch;
  std::unique_ptr<detail::bucket_publisher> bucket;
  if (to_bucket) {
    if (status s = scratch.make("sitemill-merge-"); !s)
      return stop(merge_outcome::failed, s.message());
    auto b = detail::bucket_publisher::open(o.out_dir, o.name, o.bucket, hook);
    if (!b) return stop(merge_outcome::failed, b.err().message);
    bucket = std::move(*b);
  }
  auto pub = to_bucket ? publisher::open(scratch.path() + "/set", o.name,
                                         scratch.path() + "/set.book")
                       : publisher::open(o.out_dir, o.name, o.manifest_dir);
  if (!pub) return stop(merge_outcome::failed, pub.err().message);
  detail::publisher_testing::set_after_step(**pub, hook);
  // The order a one-process run writes: the sections by name (the
  // default one first), each with every shard's sitemaps of it in shard
  // order, then every shard's news sitemaps.
  std::vector<std::pair<const shard*, const detail::shard_file*>> order;
  for (const shard& s : *shards)
    for (const detail::shard_file& f : s.manifest.files)
      order.emplace_back(&s, &f);
  std::stable_sort(order.begin(), order.end(), [](auto a, auto b) {
    return std::pair(!a.second->group.empty(), a.second->section) <
           std::pair(!b.second->group.empty(), b.second->section);
  });
  std::vector<finished_sitemap> sitemaps;
  for (const auto& [s_at, f_at] : order) {
    const shard& s = *s_at;
    const detail::shard_file& f = *f_at;
    if (o.cancelled && o.cancelled())
      return stop(merge_outcome::cancelled,
                  "interrupted; nothing was published");
    std::string temp = (*pub)->temp_path(f.path);
    bool refused = false;
    if (status t = take_file(s.dir, f, temp, refused); !t)
      return stop(refused ? merge_outcome::refused : merge_outcome::failed,
                  t.message());
    finished_sitemap one;
    one.temp_path = std::move(temp);
    one.part.urls = f.urls;
    one.part.bytes = f.bytes;
    one.part.newest = f.newest;
    one.digest = f.digest;
    one.group = f.group;
    one.section = f.section;
    // Under the stable layout each shard's files are the leaves of its
    // own trie: the shard's number keeps two shards' leaves apart (one
    // shard alone is named as one run). '_' joins them: no section name
    // ends in it, so stats reads "1_0110" as one file number.
    if (f.label && s.manifest.count == 1)
      one.label = f.label;
    else if (f.label)
      one.label = std::to_string(s.manifest.index) +
                  (f.label->empty() ? "" : "_" + *f.label);
    sitemaps.push_back(std::move(one));
  }
  const set_layout& layout = shards->front().manifest.layout;
  auto set = assemble_set(**pub, layout, std::move(sitemaps));
  if (!set) return stop(merge_outcome::failed, set.err().message);
  if (o.cancelled && o.cancelled())
    return stop(merge_outcome::cancelled, "interrupted; nothing was published");
  for (const auto& f : set->files) r.files.push_back(f.file);
  r.entry = set->entry;
  r.entry_url = layout.base_url + set->entry;
  if (status s = bucket ? bucket->publish(std::move(set->files), set->entry)
                        : (*pub)->publish(std::move(set->files), set->entry);
      !s)
    return stop(merge_outcome::failed, s.message());
  r.outcome = merge_outcome::published;
  return r;
}

merge_report merge_shards(const merge_options& options) {
  return detail::merge_shards(options, {});
}

}  // namespace sitemill
