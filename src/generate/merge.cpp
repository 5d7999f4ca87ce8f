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

#include "detail/text.h"
#include "generate/shard_manifest.h"
#include "generate/testing.h"
#include "publish/testing.h"
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
    if (fs::is_regular_file(manifest, ec)) found.push_back(manifest.string());
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

// `from` under the temporary name `to`: a hard link, which costs nothing
// and leaves the shard's file as it was; a copy (synced) when the shards
// live on another file system.
status take_file(const std::string& from, const std::string& to) {
  if (::link(from.c_str(), to.c_str()) == 0) return {};
  if (errno != EXDEV && errno != EPERM && errno != EMLINK)
    return error{"cannot link " + from + " to " + to + ": " +
                 std::strerror(errno)};
  std::error_code ec;
  if (!fs::copy_file(from, to, ec))
    return error{"cannot copy " + from + " to " + to + ": " + ec.message()};
  const int fd = ::open(to.c_str(), O_RDONLY | O_CLOEXEC);
  const bool synced = fd >= 0 && ::fsync(fd) == 0;
  if (fd >= 0) ::close(fd);
  if (!synced) return error{"cannot sync " + to + ": " + std::strerror(errno)};
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

  auto pub = publisher::open(o.out_dir, o.name, o.manifest_dir);
  if (!pub) return stop(merge_outcome::failed, pub.err().message);
  detail::publisher_testing::set_after_step(**pub, hook);
  // The order a one-process run writes: every shard's sitemaps, then
  // every shard's news sitemaps.
  std::vector<finished_sitemap> sitemaps;
  for (const bool news : {false, true})
    for (const shard& s : *shards)
      for (const detail::shard_file& f : s.manifest.files) {
        if (f.group.empty() == news) continue;
        if (o.cancelled && o.cancelled())
          return stop(merge_outcome::cancelled,
                      "interrupted; nothing was published");
        std::string temp = (*pub)->temp_path(f.path);
        if (status t = take_file(s.dir + "/" + f.path, temp); !t)
          return stop(merge_outcome::failed, t.message());
        finished_sitemap one;
        one.temp_path = std::move(temp);
        one.part.urls = f.urls;
        one.part.bytes = f.bytes;
        one.part.newest = f.newest;
        one.digest = f.digest;
        one.group = f.group;
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
  if (status s = (*pub)->publish(std::move(set->files), set->entry); !s)
    return stop(merge_outcome::failed, s.message());
  r.outcome = merge_outcome::published;
  return r;
}

merge_report merge_shards(const merge_options& options) {
  return detail::merge_shards(options, {});
}

}  // namespace sitemill
