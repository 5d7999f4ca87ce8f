#include "generate/shard_manifest.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "detail/text.h"
#include "sitemill/limits.h"
#include "sitemill/url/url.h"

namespace sitemill::detail {
namespace {

using json = nlohmann::ordered_json;

std::string_view type_name(document_type t) {
  return t == document_type::text ? "text" : "urlset";
}

bool plain_name(const std::string& name) {
  return !name.empty() && name != "." && name != ".." &&
         name.find('/') == std::string::npos &&
         name.find('\0') == std::string::npos;
}

// The sections' rules in order (the first match wins, so order counts),
// and whether first segments name sections: shards that differ would file
// a URL in different sections.
std::string sections_line(const generate_options& o) {
  std::string line;
  if (o.sections_from_first_segment) line += " sections_from_first_segment=on";
  for (const section_rule& r : o.sections) {
    line += " section=";
    line += r.name;
    line += '=';
    append_printable(line, r.glob);
  }
  return line;
}

}  // namespace

std::string shards_root(const std::string& bookkeeping) {
  return bookkeeping + (bookkeeping.ends_with('/') ? "" : "/") + "shards";
}

std::string shard_directory(const std::string& bookkeeping,
                            const std::string& name, std::uint32_t index,
                            std::uint32_t count) {
  return shards_root(bookkeeping) + "/" + name + "-" + std::to_string(index) +
         "-of-" + std::to_string(count);
}

bool valid_layout_label(std::string_view label) {
  // At most 64 digits: a fingerprint has 64 bits.
  const std::size_t dash = label.find('-');
  const std::string_view path =
      dash == std::string_view::npos ? label : label.substr(0, dash);
  std::string_view number =
      dash == std::string_view::npos ? "" : label.substr(dash + 1);
  if (path.size() > 64) return false;
  if (dash == std::string_view::npos && !path.empty() &&
      path.find_first_not_of("01") != std::string_view::npos) {
    number = path;  // the root leaf's second file and on: "2"
  } else if (path.find_first_not_of("01") != std::string_view::npos ||
             (dash != std::string_view::npos && path.empty())) {
    return false;
  }
  if (number.empty()) return dash == std::string_view::npos;
  if (number.size() > 9 || number.front() == '0' ||
      number.find_first_not_of("0123456789") != std::string_view::npos)
    return false;
  return number != "1";
}

std::string shard_options_line(const generate_options& o) {
  return "max_urls=" + std::to_string(o.max_urls) +
         " max_bytes=" + std::to_string(o.max_bytes) + " gzip=" +
         (!o.gzip                        ? "off"
          : o.level == compression::fast ? "fast"
          : o.level == compression::best ? "best"
                                         : "normal") +
         " news=" + (o.news ? "on" : "off") + sections_line(o) +
         " layout=" +
         (o.layout == file_layout::stable ? "stable" : "sequential") +
         // The layout holds where the files are served; the pages' own base
         // must agree too when that is elsewhere.
         (o.sitemaps_url.empty() ? "" : " base_url=" + o.base_url);
}

shard_manifest shard_manifest_of(const generate_options& o,
                                 const generate_report& r, set_layout layout) {
  shard_manifest m;
  m.index = o.shard.index;
  m.count = o.shard.count;
  m.job = o.shard.job;
  m.presplit = o.shard.presplit;
  m.layout = std::move(layout);
  m.options = shard_options_line(o);
  m.records = r.records;
  m.written = r.written;
  m.duplicates = r.duplicates;
  m.filtered = r.filtered;
  m.rejected = r.rejected;
  m.warnings = r.warnings;
  m.skipped = r.skipped;
  return m;
}

result<std::string> shard_output_dir(const generate_options& o) {
  std::string bookkeeping = o.manifest_dir;
  if (bookkeeping.empty()) {
    auto beside = default_bookkeeping_dir(o.out_dir);
    if (!beside) return error{"`out_dir` " + beside.err().message, "out_dir"};
    bookkeeping = std::move(*beside);
  }
  return shard_directory(bookkeeping, o.name, o.shard.index, o.shard.count);
}

status publish_shard(publisher& pub, shard_manifest& m,
                     const std::vector<finished_sitemap>& sitemaps,
                     const std::function<bool()>& cancelled) {
  std::vector<staged_file> files;
  std::map<std::string, std::size_t> numbers;  // per stem
  for (const finished_sitemap& f : sitemaps) {
    const std::string stem = !f.group.empty()    ? f.group
                             : f.section.empty() ? "part"
                                                 : "part-" + f.section;
    std::string name =
        f.label ? child_file_name(stem, *f.label, f.digest, m.layout.extension)
                : child_file_name(stem, ++numbers[stem], f.digest,
                                  m.layout.extension);
    // What merge checks the file against, with the digest: its size on disk.
    struct stat st;
    if (::stat(f.temp_path.c_str(), &st) != 0)
      return error{"cannot read " + f.temp_path + ": " + std::strerror(errno)};
    files.push_back(
        {f.temp_path,
         {name, m.layout.type, f.part.urls, f.part.bytes, f.digest}});
    m.files.push_back({std::move(name), f.group, f.section, f.label,
                       f.part.urls,
                       f.part.bytes, f.digest,
                       static_cast<std::uint64_t>(st.st_size), f.part.newest});
  }
  // Recorded in the shard's own manifest as an index: it is the file that
  // names the others.
  const std::string entry(shard_manifest_name);
  auto manifest =
      stage_file(pub, "shard", entry, document_type::sitemapindex, to_json(m));
  if (!manifest) return manifest.err();
  manifest->file.urls = m.files.size();
  files.push_back(std::move(*manifest));
  if (cancelled()) return {};
  return pub.publish(std::move(files), entry);
}

std::string to_json(const shard_manifest& m) {
  json j;
  j["sitemill_shard"] = 1;
  j["index"] = m.index;
  j["count"] = m.count;
  j["job"] = m.job;
  j["presplit"] = m.presplit;
  const set_layout& l = m.layout;
  j["layout"] = {{"name", l.name},
                 {"extension", l.extension},
                 {"type", type_name(l.type)},
                 {"base_url", l.base_url},
                 {"index", l.index == index_mode::always ? "always" : "auto"},
                 {"max_index_entries", l.max_index_entries},
                 {"xsl_href", l.xsl_href},
                 {"bundled_stylesheet", l.bundled_stylesheet}};
  j["options"] = m.options;
  j["counts"] = {{"records", m.records},       {"written", m.written},
                 {"duplicates", m.duplicates}, {"filtered", m.filtered},
                 {"rejected", m.rejected},     {"warnings", m.warnings},
                 {"skipped", m.skipped}};
  json files = json::array();
  for (const shard_file& f : m.files) {
    json one = {{"path", f.path},       {"group", f.group},
                {"section", f.section}, {"urls", f.urls},
                {"bytes", f.bytes},     {"digest", to_hex(f.digest)}};
    if (f.size) one["size"] = *f.size;
    if (f.label) one["label"] = *f.label;
    if (f.newest) {
      char text[max_lastmod_length];
      one["newest"] = std::string(text, format_lastmod(*f.newest, text));
    }
    files.push_back(std::move(one));
  }
  j["files"] = std::move(files);
  return j.dump(1) + "\n";
}

result<shard_manifest> read_shard_manifest(const std::string& path) {
  // O_NONBLOCK: a FIFO put in its place must not hang the merge; O_NOFOLLOW:
  // a symbolic link is refused, not followed to wherever it points.
  const int fd =
      ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) {
    const int err = errno;
    if (err == ELOOP)
      return error{path +
                   " is a symbolic link: a shard manifest must be a regular "
                   "file the shard wrote"};
    return error{"cannot read " + path + ": " + std::strerror(err)};
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return error{path +
                 " is not a regular file: a shard manifest must be "
                 "one the shard wrote"};
  }
  if (static_cast<std::uint64_t>(st.st_size) > max_shard_manifest_bytes) {
    ::close(fd);
    return error{path + " is " + std::to_string(st.st_size) +
                 " bytes, more than a shard manifest can be (" +
                 std::to_string(max_shard_manifest_bytes) + ")"};
  }
  std::string text;
  char block[65536];
  for (;;) {
    const ssize_t n = ::read(fd, block, sizeof block);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return error{"cannot read " + path + ": " + std::strerror(err)};
    }
    if (n == 0) break;
    text.append(block, static_cast<std::size_t>(n));
    if (text.size() > max_shard_manifest_bytes) {  // it grew while read
      ::close(fd);
      return error{path + " is more than a shard manifest can be (" +
                   std::to_string(max_shard_manifest_bytes) + " bytes)"};
    }
  }
  ::close(fd);
  return parse_shard_manifest(text, path);
}

namespace {

// A JSON number that is a whole number from 0 to `max`; nullopt otherwise
// (negative, fractional, a string, too large).
std::optional<std::uint64_t> bounded(const json& j, std::uint64_t max) {
  if (!j.is_number_unsigned()) return std::nullopt;
  const std::uint64_t n = j.get<std::uint64_t>();
  if (n > max) return std::nullopt;
  return n;
}

bool known_extension(std::string_view e, document_type type) {
  return type == document_type::text ? e == ".txt" || e == ".txt.gz"
                                     : e == ".xml" || e == ".xml.gz";
}

// generate's rule for `name` (options_check.cpp): it becomes part of every
// file name and URL.
bool set_name_ok(const std::string& name) {
  return !name.empty() && name.front() != '.' &&
         name.find_first_not_of(
             "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
             "0123456789._-") == std::string::npos;
}

bool base_url_ok(const std::string& base) {
  normalized_url u;
  return normalize_url(base, u) == url_problem::ok && u.href() == base &&
         base.ends_with('/') && u.query().empty();
}

}  // namespace

result<shard_manifest> parse_shard_manifest(std::string_view text,
                                            const std::string& path) {
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  auto bad = [&](const std::string& why) {
    return error{path + " is not a shard manifest sitemill can read: " + why};
  };
  if (j.is_discarded() || !j.is_object() || !j.contains("sitemill_shard"))
    return bad("not a sitemill shard manifest");
  try {
    shard_manifest m;
    const auto count = bounded(j.at("count"), max_shards);
    if (!count || *count == 0)
      return bad("its count is not a number of shards from 1 to " +
                 std::to_string(max_shards));
    const auto index = bounded(j.at("index"), *count - 1);
    if (!index) return bad("its index is not below its count");
    m.count = static_cast<std::uint32_t>(*count);
    m.index = static_cast<std::uint32_t>(*index);
    m.job = j.at("job").get<std::string>();
    m.presplit = j.at("presplit").get<bool>();
    const json& l = j.at("layout");
    m.layout.name = l.at("name").get<std::string>();
    if (!set_name_ok(m.layout.name))
      return bad("its set name \"" + m.layout.name +
                 "\" is not a plain name of letters, digits, '.', '_', '-'");
    const std::string type = l.at("type").get<std::string>();
    if (type != "text" && type != "urlset")
      return bad("its type \"" + type + "\" is neither text nor urlset");
    m.layout.type =
        type == "text" ? document_type::text : document_type::urlset;
    m.layout.extension = l.at("extension").get<std::string>();
    if (!known_extension(m.layout.extension, m.layout.type))
      return bad("its extension \"" + m.layout.extension + "\" is not one a " +
                 type + " set has");
    m.layout.base_url = l.at("base_url").get<std::string>();
    if (!base_url_ok(m.layout.base_url))
      return bad("its base URL \"" + m.layout.base_url +
                 "\" is not a normalised http(s) URL ending in '/'");
    const std::string index_mode_text = l.at("index").get<std::string>();
    if (index_mode_text != "always" && index_mode_text != "auto")
      return bad("its index mode \"" + index_mode_text +
                 "\" is neither always nor auto");
    m.layout.index = index_mode_text == "always" ? index_mode::always
                                                 : index_mode::automatic;
    const auto entries =
        bounded(l.at("max_index_entries"), max_sitemaps_per_index);
    if (!entries || *entries == 0)
      return bad("its max_index_entries is not from 1 to 50,000");
    m.layout.max_index_entries = static_cast<std::size_t>(*entries);
    m.layout.xsl_href = l.at("xsl_href").get<std::string>();
    if (m.layout.xsl_href.size() > max_loc_length ||
        std::any_of(m.layout.xsl_href.begin(), m.layout.xsl_href.end(),
                    [](char c) {
                      return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
                    }))
      return bad(
          "its xsl_href is longer than a URL may be or holds control "
          "characters");
    m.layout.bundled_stylesheet = l.at("bundled_stylesheet").get<bool>();
    m.options = j.at("options").get<std::string>();
    const json& c = j.at("counts");
    const std::pair<const char*, std::uint64_t*> counts[] = {
        {"records", &m.records},       {"written", &m.written},
        {"duplicates", &m.duplicates}, {"filtered", &m.filtered},
        {"rejected", &m.rejected},     {"warnings", &m.warnings},
        {"skipped", &m.skipped}};
    for (const auto& [key, to] : counts) {
      const auto n = bounded(c.at(key), max_shard_count_value);
      if (!n)
        return bad(std::string("its count of ") + key +
                   " is not a number from 0 to " +
                   std::to_string(max_shard_count_value));
      *to = *n;
    }
    const json& files = j.at("files");
    if (!files.is_array()) return bad("its files are not a list");
    std::set<std::string> names;
    for (const json& f : files) {
      shard_file one;
      one.path = f.at("path").get<std::string>();
      if (!plain_name(one.path) || one.path.front() == '.')
        return bad("a file is not a plain name");
      if (!names.insert(one.path).second)
        return bad("it names the file " + one.path + " twice");
      one.group = f.at("group").get<std::string>();
      if (!one.group.empty() && one.group != "news")
        return bad("a file's group \"" + one.group +
                   "\" is neither \"\" nor news");
      // Manifests of earlier builds have no sections.
      if (f.contains("section"))
        one.section = f.at("section").get<std::string>();
      if (!one.section.empty() &&
          (!one.group.empty() || !section_name_problem(one.section).empty()))
        return bad("a file's section " + quoted_printable(one.section) +
                   " is not a section name");
      if (f.contains("label")) {
        one.label = f.at("label").get<std::string>();
        if (!valid_layout_label(*one.label) || !one.group.empty())
          return bad("a file's label " + quoted_printable(*one.label) +
                     " is not a stable layout's label");
      }
      const auto urls = bounded(f.at("urls"), max_urls_per_sitemap);
      if (!urls) return bad(one.path + ": its URLs are not from 0 to 50,000");
      one.urls = static_cast<std::size_t>(*urls);
      const auto bytes = bounded(f.at("bytes"), max_bytes_per_sitemap);
      if (!bytes)
        return bad(one.path + ": its bytes are not from 0 to 52,428,800");
      one.bytes = *bytes;
      if (f.contains("size")) {
        // Compressed, a sitemap may come out a little larger than it went
        // in; never twice as large.
        one.size = bounded(f.at("size"), 2 * max_bytes_per_sitemap);
        if (!one.size)
          return bad(one.path + ": its size is not a sitemap's size");
      }
      const std::string digest = f.at("digest").get<std::string>();
      auto [at, ec] = std::from_chars(
          digest.data(), digest.data() + digest.size(), one.digest, 16);
      if (digest.empty() || ec != std::errc() ||
          at != digest.data() + digest.size())
        return bad("a digest is not hexadecimal");
      if (f.contains("newest")) {
        w3c_datetime newest;
        if (parse_w3c_datetime(f.at("newest").get<std::string>(), newest) !=
            datetime_problem::ok)
          return bad("a file's newest lastmod is not a W3C datetime");
        one.newest = newest;
      }
      m.files.push_back(std::move(one));
    }
    return m;
  } catch (const json::exception& e) {
    return bad(e.what());
  }
}

}  // namespace sitemill::detail
