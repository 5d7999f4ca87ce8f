#include "sitemill/inspect/set_input.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <vector>

#include "publish/bucket_publisher.h"
#include "sitemill/url/url.h"
#include "store/s3_client.h"

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

// The set to read among `sets` (their names): `set_name` when given (an
// error saying `missing()` when it is not there), the only one, else
// "sitemap"; "" when there is none.
template <typename Missing>
result<std::string> choose_set(const std::string& given,
                               const std::vector<std::string>& sets,
                               std::string_view set_name, Missing missing) {
  auto has = [&](std::string_view name) {
    return std::find(sets.begin(), sets.end(), name) != sets.end();
  };
  if (!set_name.empty()) {
    if (!has(set_name))
      return error{given + " has no set named " + std::string(set_name) + " (" +
                       missing() + ")",
                   "set_name"};
    return std::string(set_name);
  }
  if (sets.size() == 1) return sets.front();
  if (has("sitemap")) return std::string("sitemap");
  if (sets.size() > 1) {
    std::string list;
    for (const auto& name : sets) list += (list.empty() ? "" : ", ") + name;
    return error{given + " holds several sets (" + list +
                     "); choose one with `set_name`",
                 "set_name"};
  }
  return std::string();
}

// Manifests beside one prefix: a few per set name, never thousands; a
// listing past this is not a set's bookkeeping.
constexpr std::size_t max_bucket_manifests = 1'000;
// A manifest names at most 50,000 children in some 150 bytes each.
constexpr std::uint64_t max_manifest_bytes = 32ull * 1024 * 1024;

result<set_input> resolve_bucket_input(set_input in, std::string_view set_name,
                                       const http_options& http) {
  const std::string& given = in.given;
  if (!store::names_s3_prefix(given)) {
    auto object = store::parse_s3_object(given);
    if (!object) return object.err();
    in.target = "s3://" + object->bucket + "/" + object->key;
    return in;
  }
  auto where = store::parse_s3_prefix(given);
  if (!where) return where.err();
  auto config = store::resolve_s3_config();
  if (!config) return error{given + ": " + config.err().message};
  http_options h = http;
  if (h.user_agent.empty()) h.user_agent = default_user_agent();
  h.max_body_bytes = std::min(h.max_body_bytes, max_manifest_bytes);
  store::s3_client client(std::move(*config), *where, std::move(h));
  const std::string book = detail::bucket_bookkeeping_prefix(where->prefix);
  const std::string listed = book + "manifest-";
  auto objects = client.list(listed, max_bucket_manifests);
  if (!objects)
    return error{given +
                 ": cannot list its manifests: " + objects.err().message};
  std::vector<std::string> names;
  for (const auto& o : *objects) {
    std::string_view name = std::string_view(o.key).substr(listed.size());
    if (!name.ends_with(".json")) continue;
    name.remove_suffix(5);
    if (!name.empty() && name.find('/') == std::string_view::npos)
      names.emplace_back(name);
  }
  const std::string shown_book = client.url_of(book);
  auto chosen = choose_set(given, names, set_name, [&] {
    return "no " + manifest_file_name(set_name) + " in " + shown_book;
  });
  if (!chosen) return chosen.err();
  in.directory = "s3://" + where->bucket + "/" + where->prefix;
  if (!chosen->empty()) {
    const std::string key = book + manifest_file_name(*chosen);
    auto text = client.get(key);
    if (!text)
      return error{given + ": cannot read its manifest: " + text.err().message};
    if (!text->has_value())
      return error{given + ": " + client.url_of(key) +
                   " was listed, then not found"};
    auto m = parse_manifest(**text, client.url_of(key));
    if (!m) return m.err();
    if (m->entry.empty() || m->entry.find('/') != std::string::npos)
      return error{client.url_of(key) + " names no entry object"};
    in.target = in.directory + m->entry;
    if (auto ok = store::parse_s3_object(in.target); !ok) return ok.err();
    in.manifest = std::move(*m);
    return in;
  }
  for (std::string_view entry : {"sitemap.xml", "sitemap.xml.gz"}) {
    const std::string key = where->prefix + std::string(entry);
    auto found = client.head(key);
    if (!found) return error{given + ": " + found.err().message};
    if (found->has_value()) {
      in.target = in.directory + std::string(entry);
      return in;
    }
  }
  return error{given + " holds no published set: no manifest in " + shown_book +
               ", no sitemap.xml or sitemap.xml.gz"};
}

}  // namespace

result<set_input> resolve_set_input(const std::string& given,
                                    std::string_view set_name,
                                    const http_options& http) {
  set_input in;
  in.given = given;
  if (store::is_s3_url(given))
    return resolve_bucket_input(std::move(in), set_name, http);
  if (has_http_scheme(given) || given == "-") {
    in.target = given;
    return in;
  }
  if (is_directory(given)) {
    const std::vector<set_manifest_file> sets = find_set_manifests(given);
    std::vector<std::string> names;
    for (const auto& m : sets) names.push_back(m.set);
    auto chosen = choose_set(given, names, set_name, [&] {
      return "no " + manifest_file_name(set_name) + " in " +
             bookkeeping_dir_of(given);
    });
    if (!chosen) return chosen.err();
    if (!chosen->empty())
      for (const auto& m : sets)
        if (m.set == *chosen)
          return from_manifest(std::move(in), given, m.path);
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
