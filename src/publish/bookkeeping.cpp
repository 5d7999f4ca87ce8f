#include "sitemill/publish/bookkeeping.h"

#include <dirent.h>

#include <algorithm>
#include <filesystem>

namespace sitemill {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view manifest_prefix = "manifest-";
constexpr std::string_view legacy_manifest_prefix = ".sitemill-manifest-";
constexpr std::string_view json_suffix = ".json";

// The <set> of "<prefix><set>.json"; empty for any other name.
std::string_view set_name_after(std::string_view name,
                                std::string_view prefix) noexcept {
  if (name.size() <= prefix.size() + json_suffix.size() ||
      !name.starts_with(prefix) || !name.ends_with(json_suffix))
    return {};
  return name.substr(prefix.size(),
                     name.size() - prefix.size() - json_suffix.size());
}

// The manifests named "<prefix><set>.json" in `dir`.
void add_manifests_in(const std::string& dir, std::string_view prefix,
                      std::vector<set_manifest_file>& found) {
  DIR* dp = ::opendir(dir.c_str());
  if (dp == nullptr) return;
  while (const dirent* e = ::readdir(dp)) {
    const std::string_view set = set_name_after(e->d_name, prefix);
    if (set.empty()) continue;
    const bool known =
        std::any_of(found.begin(), found.end(),
                    [&](const set_manifest_file& f) { return f.set == set; });
    if (!known) found.push_back({std::string(set), dir + "/" + e->d_name});
  }
  ::closedir(dp);
}

// `p` without a trailing separator ("public/" -> "public").
fs::path without_trailing_separator(fs::path p) {
  if (!p.has_filename() && p.has_parent_path() && p != p.root_path())
    p = p.parent_path();
  return p;
}

}  // namespace

std::string manifest_file_name(std::string_view set) {
  return std::string(manifest_prefix) + std::string(set) +
         std::string(json_suffix);
}

std::string journal_file_name(std::string_view set) {
  return "journal-" + std::string(set) + std::string(json_suffix);
}

namespace legacy_bookkeeping {
std::string manifest_file_name(std::string_view set) {
  return std::string(legacy_manifest_prefix) + std::string(set) +
         std::string(json_suffix);
}
std::string journal_file_name(std::string_view set) {
  return ".sitemill-journal-" + std::string(set) + std::string(json_suffix);
}
}  // namespace legacy_bookkeeping

result<std::string> default_bookkeeping_dir(std::string_view set_dir) {
  fs::path p = without_trailing_separator(
      fs::path(set_dir.empty() ? std::string_view(".") : set_dir)
          .lexically_normal());
  // "." and ".." have no name of their own to file the bookkeeping under.
  if (p.filename() == "." || p.filename() == "..") {
    std::error_code ec;
    fs::path absolute = fs::absolute(p, ec);
    if (ec)
      return error{"cannot name the directory " + std::string(set_dir) + ": " +
                   ec.message()};
    p = without_trailing_separator(absolute.lexically_normal());
  }
  // A symbolic link in the path (`--out link` to `real`): the directory it
  // leads to, so that every spelling of one directory takes one lock and
  // keeps one manifest. Spellings without a link keep their own form.
  {
    std::error_code real_ec, spelled_ec;
    const fs::path real =
        without_trailing_separator(fs::weakly_canonical(p, real_ec));
    const fs::path spelled = without_trailing_separator(
        fs::absolute(p, spelled_ec).lexically_normal());
    if (!real_ec && !spelled_ec && real != spelled) p = real;
  }
  if (!p.has_filename() || p == p.root_path())
    return error{std::string(set_dir) +
                 " is the root of the file system: it has no parent to hold "
                 "sitemill's bookkeeping; choose a directory for it "
                 "(`manifest_dir`)"};
  return (p.parent_path() / bookkeeping_dir_name / p.filename())
      .generic_string();
}

std::string bookkeeping_dir_of(const std::string& set_dir) {
  auto beside = default_bookkeeping_dir(set_dir);
  if (!beside) return {};
  std::error_code ec;
  if (fs::is_directory(*beside, ec)) return *beside;
  // A set below another directory generate published into (a run with
  // several base URLs: OUT/<host>/...) keeps its bookkeeping below that
  // directory's: .sitemill/OUT/<host>/... The nearest one wins.
  fs::path dir = without_trailing_separator(
      fs::absolute(fs::path(set_dir.empty() ? "." : set_dir), ec)
          .lexically_normal());
  if (ec) return *beside;
  // Through symbolic links, as default_bookkeeping_dir() places it.
  std::error_code real_ec;
  if (fs::path real = fs::weakly_canonical(dir, real_ec); !real_ec)
    dir = without_trailing_separator(std::move(real));
  fs::path below;
  while (dir.has_parent_path() && dir != dir.root_path()) {
    below = below.empty() ? dir.filename() : dir.filename() / below;
    dir = dir.parent_path();
    if (dir == dir.root_path()) break;
    const fs::path candidate =
        dir.parent_path() / bookkeeping_dir_name / dir.filename() / below;
    if (fs::is_directory(candidate, ec)) return candidate.generic_string();
  }
  return *beside;
}

std::vector<set_manifest_file> find_set_manifests(
    const std::string& set_dir, const std::string& bookkeeping_dir,
    bool legacy) {
  std::vector<set_manifest_file> found;
  add_manifests_in(
      bookkeeping_dir.empty() ? bookkeeping_dir_of(set_dir) : bookkeeping_dir,
      manifest_prefix, found);
  if (legacy)
    add_manifests_in(set_dir.empty() ? "." : set_dir, legacy_manifest_prefix,
                     found);
  std::sort(found.begin(), found.end(),
            [](const set_manifest_file& a, const set_manifest_file& b) {
              return a.set < b.set;
            });
  return found;
}

std::optional<std::string> set_dir_of_manifest(const std::string& path) {
  const fs::path p(path);
  const std::string name = p.filename().string();
  auto spelled = [](const fs::path& dir) {
    return dir.empty() ? std::string(".") : dir.generic_string();
  };
  if (!set_name_after(name, legacy_manifest_prefix).empty())
    return spelled(p.parent_path());
  if (set_name_after(name, manifest_prefix).empty()) return std::nullopt;
  // X/.sitemill/<name>[/<below>...]/manifest-S.json describes X/<name>/...
  fs::path below;
  for (fs::path dir = p.parent_path(); dir.has_filename();
       dir = dir.parent_path()) {
    if (dir.filename() == std::string(bookkeeping_dir_name))
      return below.empty() ? std::nullopt
                           : std::optional(spelled(dir.parent_path() / below));
    below = below.empty() ? dir.filename() : dir.filename() / below;
  }
  return std::nullopt;
}

std::string host_directory(const normalized_url& base) {
  std::string dir(base.host());
  if (base.has_port()) (dir += '_') += std::to_string(base.port());
  return dir;
}

std::string set_directory(const normalized_url& base) {
  std::string dir = host_directory(base);
  std::string_view path = base.path();  // "/" or "/de/"
  path.remove_prefix(1);
  while (path.ends_with('/')) path.remove_suffix(1);
  if (!path.empty()) (dir += '/') += path;
  return dir;
}

}  // namespace sitemill
