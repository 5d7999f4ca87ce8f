// Fuzzes the writer -> parser round trip. The input is an options byte, then
// records, one per line, as TAB-separated loc, lastmod, changefreq and
// priority, then any number of extension values "prefix:key=text"
// ("image:loc=...", "video:price@currency=EUR", "xhtml:@hreflang=de",
// "news:publication.name=..."): a value starts a new item when its prefix
// differs from the one before or it starts with '+'; in its text the bytes
// 1F and 1E stand for TAB and LF, which the record format cannot hold. A
// first line "base=URL" sets a base URL. The options byte picks the document
// (bits 0-1: urlset, text, sitemapindex, urlset), gzip (bit 2) and the
// entries per file (bits 3-5: 1 to 22, so files rotate often).
// Every record goes through entry_builder (its extensions through
// build_extensions); each one it accepts is added to the writer, and the
// files are parsed back. Checks:
//  - the writer accepts every entry entry_builder accepts;
//  - each file parses complete, of the right kind, schema-valid (with the
//    bundled extension schemas) when XML, without a diagnostic of severity
//    error, and as many bytes and entries as the writer counted;
//  - the entries read back are the ones written, in order, field by field
//    (lastmod as format_lastmod() writes it), extensions included: the same
//    values, items and texts in the same order (a urlset's; text and index
//    files carry none), but an explicit rel="alternate", which is the
//    default and reads back as absent;
//  - a loc read back normalises to itself (normalising twice = once).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/entry/entry.h"
#include "sitemill/entry/extensions.h"
#include "sitemill/parse/sitemap_parser.h"
#include "sitemill/write/sink.h"
#include "sitemill/write/writer.h"

namespace {

using namespace sitemill;

void check(bool ok) {
  if (!ok) std::abort();
}

// One extension value as text: "field item text".
std::string flat(const extension_value& v) {
  return std::to_string(v.field) + " " + std::to_string(v.item) + " " +
         std::string(v.text);
}

// An entry's fields as text; absent fields are empty, and "present" ones
// must be non-empty (a writer never writes an empty field).
struct fields {
  std::string loc, lastmod, changefreq, priority;
  std::vector<std::string> extensions;  // flat()
  bool operator==(const fields&) const = default;
};

struct reader final : parse_handler {
  std::vector<fields> entries;
  bool error = false;
  void on_entry(const parsed_entry& e) override {
    check(e.loc.present);
    check(!e.lastmod.present || !e.lastmod.text.empty());
    check(!e.changefreq.present || !e.changefreq.text.empty());
    check(!e.priority.present || !e.priority.text.empty());
    fields f{std::string(e.loc.text),
             std::string(e.lastmod.text),
             std::string(e.changefreq.text),
             std::string(e.priority.text),
             {}};
    for (const extension_value& v : e.extensions)
      f.extensions.push_back(flat(v));
    entries.push_back(std::move(f));
  }
  void on_diagnostic(const diagnostic& d) override {
    error = error || d.level == severity::error;
  }
};

std::string_view next_field(std::string_view& line) {
  const std::size_t tab = line.find('\t');
  const std::string_view field = line.substr(0, tab);
  line.remove_prefix(tab == std::string_view::npos ? line.size() : tab + 1);
  return field;
}

// Reads the extension values "prefix:key=text" of a record's remaining
// fields into `raw`, their texts into `texts` (stable: a deque).
void read_extensions(std::string_view line, std::deque<std::string>& texts,
                     std::vector<extension_value>& raw) {
  raw.clear();
  std::uint32_t item = 0;
  const extension_namespace* last = nullptr;
  while (!line.empty()) {
    std::string_view spec = next_field(line);
    const bool new_item = spec.starts_with('+');
    if (new_item) spec.remove_prefix(1);
    const std::size_t colon = spec.find(':');
    const std::size_t eq = spec.find('=');
    if (colon == std::string_view::npos || eq == std::string_view::npos ||
        eq < colon)
      continue;
    const std::string_view prefix = spec.substr(0, colon);
    const extension_namespace* ns = nullptr;
    for (std::size_t k = 0; k < extension_kind_count; ++k) {
      const extension_namespace& n =
          namespace_of(static_cast<extension_kind>(k));
      if (n.prefix == prefix) ns = &n;
    }
    if (ns == nullptr) continue;
    const auto field =
        find_extension_field(ns->kind, spec.substr(colon + 1, eq - colon - 1));
    if (!field) continue;
    if (last != nullptr && (ns != last || new_item)) ++item;
    last = ns;
    std::string& text = texts.emplace_back(spec.substr(eq + 1));
    for (char& c : text) {
      if (c == '\x1F') c = '\t';
      if (c == '\x1E') c = '\n';
    }
    raw.push_back({*field, item, text});
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t opts = data[0];
  std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  const int kind = opts & 3;
  const document_type type = kind == 1   ? document_type::text
                             : kind == 2 ? document_type::sitemapindex
                                         : document_type::urlset;
  const bool gzip = (opts & 4) != 0;
  const std::size_t per_file = 1 + ((opts >> 3) & 7) * 3;

  url_normalizer normalizer;
  if (input.starts_with("base=")) {
    const std::size_t nl = input.find('\n');
    if (auto base = url_normalizer::with_base(input.substr(5, nl - 5)))
      normalizer = std::move(*base);
    input.remove_prefix(nl == std::string_view::npos ? input.size() : nl + 1);
  }

  std::deque<std::string> files;
  const sink_factory factory =
      [&files, gzip](std::size_t part) -> result<std::unique_ptr<sink>> {
    check(part == files.size());
    files.emplace_back();
    std::unique_ptr<sink> s = std::make_unique<memory_sink>(&files.back());
    if (gzip) s = std::make_unique<gzip_sink>(std::move(s), compression::fast);
    return s;
  };
  std::optional<sitemap_writer> urls;
  std::optional<index_writer> index;
  if (type == document_type::sitemapindex) {
    index.emplace(factory, per_file);
  } else {
    writer_options o;
    o.type = type;
    o.max_urls = per_file;
    urls.emplace(std::move(o), factory);
  }

  entry_builder builder(normalizer);
  url_entry e;
  std::vector<field_warning> warnings;
  std::vector<fields> written;
  std::deque<std::string> texts;
  std::vector<extension_value> raw;
  const auto table = extension_fields();
  while (!input.empty()) {
    const std::size_t nl = input.find('\n');
    std::string_view line = input.substr(0, nl);
    input.remove_prefix(nl == std::string_view::npos ? input.size() : nl + 1);
    const std::string_view loc = next_field(line);
    const std::string_view lastmod = next_field(line);
    const std::string_view freq = next_field(line);
    const std::string_view prio = next_field(line);
    if (builder.build(loc, lastmod, freq, prio, e, warnings).problem !=
        url_problem::ok)
      continue;
    read_extensions(line, texts, raw);
    builder.build_extensions(raw, e, warnings);
    fields f{std::string(e.loc), {}, {}, {}, {}};
    if (type != document_type::text && e.lastmod) {
      char buf[max_lastmod_length];
      f.lastmod.assign(buf, format_lastmod(*e.lastmod, buf));
    }
    if (type == document_type::urlset) {
      f.changefreq = to_string(e.freq);
      if (e.prio) f.priority = e.prio->text();
      for (const extension_value& v : e.extensions) {
        const extension_field& field = table[v.field];
        if (field.kind == extension_kind::alternate && field.key == "@rel" &&
            v.text == "alternate")
          continue;
        f.extensions.push_back(flat(v));
      }
    }
    check((index ? index->add({e.loc, e.lastmod}) : urls->add(e)) ==
          add_status::added);
    written.push_back(std::move(f));
  }
  check(index ? bool(index->finish()) : bool(urls->finish()));
  const std::vector<part_info>& parts = index ? index->parts() : urls->parts();
  check(parts.size() == files.size());

  const document_kind kind_read = type == document_type::text
                                      ? document_kind::text
                                  : index ? document_kind::sitemapindex
                                          : document_kind::urlset;
  std::vector<fields> read;
  std::string again;
  for (std::size_t i = 0; i < files.size(); ++i) {
    reader r;
    const parse_summary s = parse_bytes(files[i], r);
    check(!r.error);
    check(s.complete && s.kind == kind_read && s.gzipped == gzip);
    check(type == document_type::text || s.schema_valid);
    check(s.bytes == parts[i].bytes);
    check(r.entries.size() == parts[i].urls);
    for (auto& f : r.entries) {
      check(normalizer.normalize(f.loc, again) == url_problem::ok &&
            again == f.loc);
      read.push_back(std::move(f));
    }
  }
  check(read == written);
  return 0;
}
