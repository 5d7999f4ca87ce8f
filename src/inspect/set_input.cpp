#include "sitemill/inspect/set_input.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <vector>

#include "sitemill/url/url.h"

namespace sitemill {
namespace {

bool is_directory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}
bool is_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string joined(const std::string& dir, std::string_view name) {
  std::string p = dir;
  if (!p.empty() && p.back() != '/') p += '/';
  p += name;
  return p;
}

result<set_input> from_manifest(set_input in, const std::string& dir,
                                const std::string& manifest_path) {
  auto m = read_manifest(manifest_path);
  if (!m) return m.err();
  if (m->entry.empty()) return error{manifest_path + " names no entry file"};
  in.directory = dir;
  in.target = joined(dir, m->entry);
  in.manifest = std::move(*m);
  return in;
}

}  // namespace

result<set_input> resolve_set_input(const std::string& given,
                                    std::string_view set_name) {
  set_input in;
  in.given = given;
  if (has_http_scheme(given) || given == "-") {
    in.target = given;
    return in;
  }
  if (is_directory(given)) {
    const std::vector<set_manifest_file> sets = find_set_manifests(given);
    auto named = [&](std::string_view name) {
      return std::find_if(
          sets.begin(), sets.end(),
          [&](const set_manifest_file& m) { return m.set == name; });
    };
    auto chosen = sets.end();
    if (!set_name.empty()) {
      chosen = named(set_name);
      if (chosen == sets.end())
        return error{given + " has no set named " + std::string(set_name) +
                         " (no " + manifest_file_name(set_name) + " in " +
                         bookkeeping_dir_of(given) + ")",
                     "set_name"};
    } else if (sets.size() == 1) {
      chosen = sets.begin();
    } else if (named("sitemap") != sets.end()) {
      chosen = named("sitemap");
    } else if (sets.size() > 1) {
      std::string list;
      for (const auto& m : sets) list += (list.empty() ? "" : ", ") + m.set;
      return error{given + " holds several sets (" + list +
                       "); choose one with `set_name`",
                   "set_name"};
    }
    if (chosen != sets.end())
      return from_manifest(std::move(in), given, chosen->path);
    for (std::string_view entry : {"sitemap.xml", "sitemap.xml.gz"}) {
      const std::string p = joined(given, entry);
      if (is_file(p)) {
        in.directory = given;
        in.target = p;
        return in;
      }
    }
    return error{given + " holds no published set: no manifest in " +
                 bookkeeping_dir_of(given) +
                 ", no sitemap.xml or sitemap.xml.gz"};
  }
  if (auto dir = set_dir_of_manifest(given))
    return from_manifest(std::move(in), *dir, given);
  in.target = given;
  return in;
}

}  // namespace sitemill
