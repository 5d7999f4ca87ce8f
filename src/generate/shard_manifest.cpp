#include "generate/shard_manifest.h"

#include <charconv>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "detail/text.h"

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

std::string shard_options_line(const generate_options& o) {
  return "max_urls=" + std::to_string(o.max_urls) +
         " max_bytes=" + std::to_string(o.max_bytes) + " gzip=" +
         (!o.gzip                        ? "off"
          : o.level == compression::fast ? "fast"
          : o.level == compression::best ? "best"
                                         : "normal") +
         " news=" + (o.news ? "on" : "off") +
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
  std::map<std::string, std::size_t> numbers;  // per group
  for (const finished_sitemap& f : sitemaps) {
    std::string name =
        child_file_name(f.group.empty() ? "part" : f.group, ++numbers[f.group],
                        f.digest, m.layout.extension);
    files.push_back(
        {f.temp_path,
         {name, m.layout.type, f.part.urls, f.part.bytes, f.digest}});
    m.files.push_back({std::move(name), f.group, f.part.urls, f.part.bytes,
                       f.digest, f.part.newest});
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
    json one = {{"path", f.path},
                {"group", f.group},
                {"urls", f.urls},
                {"bytes", f.bytes},
                {"digest", to_hex(f.digest)}};
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
  std::ifstream in(path, std::ios::binary);
  if (!in) return error{"cannot read " + path};
  std::stringstream text;
  text << in.rdbuf();
  const json j = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  auto bad = [&](const std::string& why) {
    return error{path + " is not a shard manifest sitemill can read: " + why};
  };
  if (j.is_discarded() || !j.is_object() || !j.contains("sitemill_shard"))
    return bad("not a sitemill shard manifest");
  try {
    shard_manifest m;
    m.index = j.at("index").get<std::uint32_t>();
    m.count = j.at("count").get<std::uint32_t>();
    m.job = j.at("job").get<std::string>();
    m.presplit = j.at("presplit").get<bool>();
    const json& l = j.at("layout");
    m.layout.name = l.at("name").get<std::string>();
    m.layout.extension = l.at("extension").get<std::string>();
    m.layout.type = l.at("type").get<std::string>() == "text"
                        ? document_type::text
                        : document_type::urlset;
    m.layout.base_url = l.at("base_url").get<std::string>();
    m.layout.index = l.at("index").get<std::string>() == "always"
                         ? index_mode::always
                         : index_mode::automatic;
    m.layout.max_index_entries = l.at("max_index_entries").get<std::size_t>();
    m.layout.xsl_href = l.at("xsl_href").get<std::string>();
    m.layout.bundled_stylesheet = l.at("bundled_stylesheet").get<bool>();
    m.options = j.at("options").get<std::string>();
    const json& c = j.at("counts");
    m.records = c.at("records").get<std::uint64_t>();
    m.written = c.at("written").get<std::uint64_t>();
    m.duplicates = c.at("duplicates").get<std::uint64_t>();
    m.filtered = c.at("filtered").get<std::uint64_t>();
    m.rejected = c.at("rejected").get<std::uint64_t>();
    m.warnings = c.at("warnings").get<std::uint64_t>();
    m.skipped = c.at("skipped").get<std::uint64_t>();
    for (const json& f : j.at("files")) {
      shard_file one;
      one.path = f.at("path").get<std::string>();
      if (!plain_name(one.path)) return bad("a file is not a plain name");
      one.group = f.at("group").get<std::string>();
      one.urls = f.at("urls").get<std::size_t>();
      one.bytes = f.at("bytes").get<std::uint64_t>();
      const std::string digest = f.at("digest").get<std::string>();
      auto [at, ec] = std::from_chars(
          digest.data(), digest.data() + digest.size(), one.digest, 16);
      if (ec != std::errc() || at != digest.data() + digest.size())
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
    if (m.count == 0 || m.index >= m.count)
      return bad("its index is not below its count");
    return m;
  } catch (const json::exception& e) {
    return bad(e.what());
  }
}

}  // namespace sitemill::detail
