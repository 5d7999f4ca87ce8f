#include "publish/publish_files.h"

#include <unordered_map>

#include <fcntl.h>

#include <cstring>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "detail/text.h"
#include "sitemill/publish/set_assembly.h"

namespace sitemill {
namespace detail {

std::string sys_error(std::string_view what, const std::string& path, int err) {
  return std::string(what) + " " + path + ": " + std::strerror(err);
}

bool is_safe_name(std::string_view name) noexcept {
  if (name.empty() || name.front() == '.') return false;
  for (char c : name)
    if (c == '/' || c == '\0') return false;
  return true;
}

result<const staged_file*> check_staged_files(
    const std::vector<staged_file>& files, const std::string& entry,
    const std::vector<published_file>& current) {
  const staged_file* entry_file = nullptr;
  for (const auto& f : files) {
    if (!is_safe_name(f.file.path))
      return error{"refusing to publish unsafe name " + f.file.path};
    if (f.file.path == entry) entry_file = &f;
  }
  if (entry_file == nullptr)
    return error{"entry " + entry + " is not among the files"};
  std::unordered_map<std::string_view, const published_file*> old;
  for (const auto& f : current) old[f.path] = &f;
  for (const auto& f : files) {
    auto it = old.find(f.file.path);
    if (f.file.path != entry && !f.fixed_name && it != old.end() &&
        it->second->digest != f.file.digest)
      return error{"file name collision on " + f.file.path +
                   " (same name, other bytes)"};
  }
  return entry_file;
}

json file_to_json(const published_file& f) {
  json j = {{"path", f.path},
            {"type", std::string(to_string(f.type))},
            {"urls", f.urls},
            {"bytes", f.bytes},
            {"digest", detail::to_hex(f.digest)}};
  if (f.section) j["section"] = *f.section;
  return j;
}

namespace {

std::optional<published_file> file_from_json(const json& j) {
  if (!j.is_object() || !j.contains("path") || !j["path"].is_string())
    return std::nullopt;
  published_file f;
  f.path = j["path"].get<std::string>();
  if (!is_safe_name(f.path)) return std::nullopt;
  std::string type = j.value("type", "urlset");
  f.type = document_type::urlset;
  for (document_type t : {document_type::sitemapindex, document_type::text,
                          document_type::stylesheet, document_type::html})
    if (type == to_string(t)) f.type = t;
  f.urls = j.value("urls", std::size_t{0});
  f.bytes = j.value("bytes", std::uint64_t{0});
  f.digest =
      std::strtoull(j.value("digest", std::string("0")).c_str(), nullptr, 16);
  // A section no run could have written (a manifest is read as untrusted)
  // is left out, and the file's name is read instead.
  if (auto it = j.find("section"); it != j.end() && it->is_string()) {
    const std::string& section = it->get_ref<const std::string&>();
    if (section.empty() || section_name_problem(section).empty())
      f.section = section;
  }
  return f;
}

}  // namespace

result<std::vector<published_file>> files_from_json(const json& arr) {
  std::vector<published_file> out;
  if (!arr.is_array()) return error{"\"files\" is not a list"};
  for (const auto& j : arr) {
    auto f = file_from_json(j);
    if (!f)
      return error{
          "a file entry is malformed or names a path outside the directory"};
    out.push_back(std::move(*f));
  }
  return out;
}

// The small file open on `fd` (a manifest or journal), whole.
result<std::string> read_and_close(int fd, const std::string& path) {
  std::string text;
  std::vector<char> buffer(65536);
  if (status s = read_and_close(fd, path, buffer,
                                [&](const char* p, std::size_t n) {
                                  text.append(p, n);
                                  return status{};
                                });
      !s)
    return s.err();
  return text;
}

json manifest_json(const std::string& entry,
                   const std::vector<published_file>& files) {
  json arr = json::array();
  for (const auto& f : files) arr.push_back(file_to_json(f));
  return {
      {"sitemill_manifest", 1}, {"entry", entry}, {"files", std::move(arr)}};
}

}  // namespace detail

using detail::files_from_json;
using detail::json;
using detail::read_and_close;
using detail::sys_error;

result<published_manifest> read_manifest(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return error{sys_error("cannot open", path, errno)};
  auto text = read_and_close(fd, path);
  if (!text) return text.err();
  return parse_manifest(*text, path);
}

result<published_manifest> parse_manifest(std::string_view text,
                                          const std::string& where) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object() || !j.contains("sitemill_manifest"))
    return error{where + " is not a sitemill manifest"};
  auto files = files_from_json(j["files"]);
  if (!files) return error{where + ": " + files.err().message};
  return published_manifest{j.value("entry", std::string()), std::move(*files)};
}

result<std::uint64_t> file_digest_of(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return error{sys_error("cannot open", path, errno)};
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  std::vector<char> buffer(1 << 20);
  if (status s = read_and_close(fd, path, buffer,
                                [&](const char* p, std::size_t n) {
                                  XXH3_64bits_update(&state, p, n);
                                  return status{};
                                });
      !s)
    return s.err();
  return XXH3_64bits_digest(&state);
}

}  // namespace sitemill
