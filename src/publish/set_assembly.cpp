#include "sitemill/publish/set_assembly.h"

#include <deque>
#include <map>
#include <memory>

#include "detail/text.h"
#include "sitemill/write/sink.h"
#include "sitemill/write/stylesheet.h"

namespace sitemill {

std::string section_name_problem(std::string_view name) {
  // The name becomes part of file names and of the index's URLs, so it
  // keeps to characters no file system or URL treats specially, and to one
  // case, so that two sections never differ by case alone.
  constexpr std::size_t max_length = 64;
  if (name.empty()) return "a section name cannot be empty";
  if (name.size() > max_length)
    return "a section name is at most 64 characters";
  for (const char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
          c == '_'))
      return "a section name uses only lowercase letters a-z, digits, '-' "
             "and '_'";
  return {};
}

namespace {

// Digits of the content hash in a child's name: 48 bits make a collision
// between two files of one set vanishingly unlikely, and the name stays
// short enough to read.
constexpr int name_hash_digits = 12;

// Writes the index files for `files` (the sitemaps, already named) and
// appends them to `out`.
status write_index(publisher& pub, const set_layout& layout,
                   const std::vector<finished_sitemap>& sitemaps,
                   assembled_set& out) {
  std::deque<file_digest> digests;  // stable addresses: sinks report into them
  std::vector<std::string> temps;
  index_writer index(
      [&](std::size_t part) -> result<std::unique_ptr<sink>> {
        std::string path = pub.temp_path("index-" + std::to_string(part));
        auto file = file_sink::create(path);
        if (!file) return file.err();
        digests.emplace_back();
        (*file)->report_to(&digests.back());
        temps.push_back(std::move(path));
        return std::unique_ptr<sink>(std::move(*file));
      },
      layout.max_index_entries, max_bytes_per_index, layout.xsl_href);

  std::string loc;
  for (std::size_t i = 0; i < sitemaps.size(); ++i) {
    loc.assign(layout.base_url);
    loc += out.files[i].file.path;
    if (index.add({loc, sitemaps[i].part.newest}) != add_status::added)
      return error{"cannot write the sitemap index: " + index.error()};
  }
  if (status s = index.finish(); !s) return s;

  const auto& parts = index.parts();
  for (std::size_t k = 0; k < parts.size(); ++k) {
    std::string name = parts.size() == 1 ? layout.name + ".xml"
                                         : layout.name + "-index-" +
                                               std::to_string(k + 1) + ".xml";
    if (k == 0) out.entry = name;
    out.files.push_back({temps[k],
                         {std::move(name), document_type::sitemapindex,
                          parts[k].urls, parts[k].bytes, digests[k].xxh3}});
  }
  return {};
}

// The bundled stylesheet, staged like any other file of the set, so it is
// published (and removed) with it.
result<staged_file> stage_stylesheet(publisher& pub, const set_layout& layout) {
  return stage_file(pub, "stylesheet", bundled_stylesheet_name(layout.name),
                    document_type::stylesheet, bundled_stylesheet());
}

result<assembled_set> assemble(publisher& pub, const set_layout& layout,
                               std::vector<finished_sitemap> sitemaps) {
  if (sitemaps.empty()) return error{"a set needs at least one sitemap"};
  assembled_set out;
  auto add = [&](const finished_sitemap& s, std::string name) {
    published_file file{std::move(name), layout.type, s.part.urls,
                        s.part.bytes, s.digest};
    // The manifest says which section a file holds, so `stats` need not
    // guess it from a name that can read two ways ("dept-1-<hash>": the
    // root file of section dept-1, or leaf 1 of section dept).
    if (s.group.empty()) file.section = s.section;
    out.files.push_back({s.temp_path, std::move(file)});
  };

  // The entry is always NAME.xml, so the URL that robots.txt and Search
  // Console point at never changes as the site grows: it is the sitemap
  // itself only while the set is one plain XML urlset, and an index
  // otherwise (a .xml.gz or .txt entry would be renamed the day a second
  // file is needed).
  if (sitemaps.size() == 1 && sitemaps.front().group.empty() &&
      sitemaps.front().section.empty() &&
      layout.index == index_mode::automatic &&
      layout.type == document_type::urlset && layout.extension == ".xml") {
    out.entry = layout.name + layout.extension;
    add(sitemaps.front(), out.entry);
    return out;
  }
  // Numbered per stem, so no two files can share a name whatever their
  // groups and sections are called.
  std::map<std::string, std::size_t> numbers;
  for (const finished_sitemap& s : sitemaps) {
    const std::string& kind = s.group.empty() ? s.section : s.group;
    const std::string stem =
        kind.empty() ? layout.name : layout.name + "-" + kind;
    add(s, s.label ? child_file_name(stem, *s.label, s.digest,
                                     layout.extension)
                   : child_file_name(stem, ++numbers[stem], s.digest,
                                     layout.extension));
  }
  if (status s = write_index(pub, layout, sitemaps, out); !s) return s.err();
  return out;
}

}  // namespace

std::string child_file_name(std::string_view stem, std::size_t number,
                            std::uint64_t digest, std::string_view extension) {
  std::string name(stem);
  ((name += '-') += std::to_string(number)) += '-';
  name += detail::to_hex(digest, name_hash_digits);
  name += extension;
  return name;
}

std::string child_file_name(std::string_view stem, std::string_view label,
                            std::uint64_t digest, std::string_view extension) {
  std::string name(stem);
  if (!label.empty()) (name += '-') += label;
  name += '-';
  name += detail::to_hex(digest, name_hash_digits);
  name += extension;
  return name;
}

result<staged_file> stage_file(publisher& pub, std::string_view what,
                               std::string name, document_type type,
                               std::string_view bytes) {
  std::string path = pub.temp_path(what);
  auto file = file_sink::create(path);
  if (!file) return file.err();
  file_digest digest;
  (*file)->report_to(&digest);
  if (status s = (*file)->write(bytes.data(), bytes.size()); !s) return s.err();
  if (status s = (*file)->close(); !s) return s.err();
  return staged_file{std::move(path),
                     {std::move(name), type, 0, bytes.size(), digest.xxh3}};
}

result<assembled_set> assemble_set(publisher& pub, const set_layout& layout,
                                   std::vector<finished_sitemap> sitemaps) {
  auto out = assemble(pub, layout, std::move(sitemaps));
  if (!out || !layout.bundled_stylesheet) return out;
  auto xsl = stage_stylesheet(pub, layout);
  if (!xsl) return xsl.err();
  out->files.push_back(std::move(*xsl));
  return out;
}

}  // namespace sitemill
