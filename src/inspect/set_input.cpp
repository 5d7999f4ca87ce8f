#include "sitemill/inspect/set_input.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <vector>

#include "sitemill/url/url.h"

namespace sitemill {
namespace {

constexpr std::string_view manifest_prefix = ".sitemill-manifest-";
constexpr std::string_view manifest_suffix = ".json";

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

// The <set> names of the manifests in `dir`, sorted.
std::vector<std::string> set_names_in(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* dp = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(dp)) {
      std::string_view n = e->d_name;
      if (n.size() > manifest_prefix.size() + manifest_suffix.size() &&
          n.starts_with(manifest_prefix) && n.ends_with(manifest_suffix))
        names.emplace_back(n.substr(
            manifest_prefix.size(),
            n.size() - manifest_prefix.size() - manifest_suffix.size()));
    }
    ::closedir(dp);
  }
  std::sort(names.begin(), names.end());
  return names;
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
    std::vector<std::string> sets = set_names_in(given);
    std::string chosen(set_name);
    if (chosen.empty()) {
      if (sets.size() == 1)
        chosen = sets[0];
      else if (std::find(sets.begin(), sets.end(), "sitemap") != sets.end())
        chosen = "sitemap";
      else if (sets.size() > 1) {
        std::string list;
        for (const auto& s : sets) list += (list.empty() ? "" : ", ") + s;
        return error{given + " holds several sets (" + list +
                         "); choose one with `set_name`",
                     "set_name"};
      }
    }
    if (!chosen.empty()) {
      const std::string m = joined(given, manifest_file_name(chosen));
      if (!is_file(m))
        return error{given + " has no set named " + chosen + " (no " +
                         manifest_file_name(chosen) + ")",
                     "set_name"};
      return from_manifest(std::move(in), given, m);
    }
    for (std::string_view entry : {"sitemap.xml", "sitemap.xml.gz"}) {
      const std::string p = joined(given, entry);
      if (is_file(p)) {
        in.directory = given;
        in.target = p;
        return in;
      }
    }
    return error{given +
                 " holds no published set: no .sitemill-manifest-*.json, "
                 "sitemap.xml or sitemap.xml.gz"};
  }
  const std::size_t slash = given.rfind('/');
  const std::string_view base = slash == std::string::npos
                                    ? std::string_view(given)
                                    : std::string_view(given).substr(slash + 1);
  if (base.starts_with(manifest_prefix) && base.ends_with(manifest_suffix)) {
    const std::string dir =
        slash == std::string::npos ? "." : given.substr(0, slash + 1);
    return from_manifest(std::move(in), dir, given);
  }
  in.target = given;
  return in;
}

}  // namespace sitemill
