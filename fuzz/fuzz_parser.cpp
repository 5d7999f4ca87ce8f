// Fuzzes sitemap_parser. Every input is parsed three times: in one feed, in
// chunks of pseudo-random sizes (seeded by the input), and with
// schema_checks off. Checks:
//  - the split of the bytes changes nothing: same kind, entries,
//    diagnostics and summary;
//  - schema_checks changes the diagnostics, never the entries;
//  - the summary counts what the handler saw: entries numbered 0, 1, ...,
//    errors, warnings and infos per severity;
//  - every diagnostic has a known code with its fixed severity, a message
//    in valid UTF-8, and (for input that is not gzip) a line within the
//    input's lines; so do the entries;
//  - a schema-valid document is a complete urlset or sitemapindex;
//  - no more bytes are read than parse_options::max_bytes;
//  - delivered locs carry no surrounding whitespace;
//  - an entry's foreign_xml (elements of unknown namespaces, re-serialised)
//    is at most 64 KiB, holds no comment, CDATA or processing instruction,
//    and written into a <url> reads back without an error as itself.
// ASan and UBSan (libFuzzer builds) catch the rest: leaks, overruns.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "parse/codes.h"
#include "parse/value_checks.h"
#include "sitemill/date/w3c_datetime.h"
#include "sitemill/parse/sitemap_parser.h"

namespace {

using sitemill::diagnostic;
using sitemill::document_kind;
using sitemill::parse_handler;
using sitemill::parse_options;
using sitemill::parse_summary;
using sitemill::parsed_entry;
using sitemill::parsed_field;
using sitemill::severity;
using sitemill::sitemap_parser;
namespace detail = sitemill::detail;

void check(bool ok) {
  if (!ok) std::abort();
}

bool valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80                 ? 1
                    : c >= 0xC2 && c <= 0xDF ? 2
                    : c >= 0xE0 && c <= 0xEF ? 3
                    : c >= 0xF0 && c <= 0xF4 ? 4
                                             : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += n;
  }
  return true;
}

struct record : parse_handler {
  std::vector<document_kind> kinds;
  std::vector<std::string> entries;  // each entry flattened
  std::vector<std::string> foreign;  // non-empty foreign_xml, checked after
  std::vector<diagnostic> diagnostics;
  std::uint64_t next_index = 0;
  std::uint64_t max_line = 0;

  void on_document(document_kind k) override {
    check(kinds.empty());
    check(k != document_kind::unknown);
    kinds.push_back(k);
  }
  void on_entry(const parsed_entry& e) override {
    check(e.index == next_index++);
    check(e.loc.present);
    check(e.line <= max_line && e.loc.line <= max_line);
    const std::string_view loc = e.loc.text;
    check(loc == detail::trim_xml(loc));
    std::string flat = std::to_string(e.line) + ":" + std::to_string(e.column);
    for (const parsed_field* f :
         {&e.loc, &e.lastmod, &e.changefreq, &e.priority}) {
      flat += '\x01';
      if (!f->present) continue;
      check(f->line <= max_line);
      flat += std::to_string(f->line) + ":" + std::to_string(f->column) + "=";
      flat.append(f->text);  // reads every byte of the view
    }
    flat += '\x01';
    flat.append(e.foreign_xml);
    if (!e.foreign_xml.empty()) foreign.emplace_back(e.foreign_xml);
    entries.push_back(std::move(flat));
  }
  void on_diagnostic(const diagnostic& d) override {
    const auto* known = detail::find_document_code(d.code);
    check(known != nullptr);
    check(known->level == d.level);
    check(!d.message.empty() && valid_utf8(d.message));
    check(d.line <= max_line);
    diagnostics.push_back(d);
  }
};

struct parse_result {
  record handler;
  parse_summary summary;
};

void run(std::string_view data, std::size_t chunk_seed, bool checks,
         std::uint64_t max_line, parse_result& out) {
  out.handler.max_line = max_line;
  parse_options options;
  options.schema_checks = checks;
  sitemap_parser parser(out.handler, options);
  if (chunk_seed == 0) {
    parser.feed(data.data(), data.size());
  } else {
    std::uint64_t state = chunk_seed;
    for (std::size_t i = 0; i < data.size();) {
      state = state * 6364136223846793005u + 1442695040888963407u;
      const std::size_t n =
          std::min<std::size_t>(1 + (state >> 33) % 5000, data.size() - i);
      parser.feed(data.data() + i, n);
      i += n;
    }
  }
  out.summary = parser.finish();
  // The summary agrees with what the handler saw.
  const parse_summary& s = out.summary;
  check(s.entries == out.handler.entries.size());
  std::uint64_t errors = 0, warnings = 0, infos = 0;
  for (const auto& d : out.handler.diagnostics) {
    errors += d.level == severity::error;
    warnings += d.level == severity::warning;
    infos += d.level == severity::info;
  }
  check(s.errors == errors && s.warnings == warnings && s.infos == infos);
  check(s.bytes <= options.max_bytes);
  if (s.schema_valid) {
    check(checks && s.complete);
    check(s.kind == document_kind::urlset ||
          s.kind == document_kind::sitemapindex);
  }
  if (!out.handler.kinds.empty()) check(out.handler.kinds.front() == s.kind);
}

// What the writer would write: the fragment in a <url>, read back whole,
// without an error, as the same fragment.
void check_foreign(const std::string& f) {
  check(f.size() <= 64 * 1024);
  check(f.find("<!--") == std::string::npos &&
        f.find("<?") == std::string::npos &&
        f.find("<![CDATA[") == std::string::npos);
  struct again final : parse_handler {
    std::string got;
    int entries = 0;
    void on_entry(const parsed_entry& e) override {
      got.assign(e.foreign_xml);
      ++entries;
    }
  } h;
  const std::string doc =
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url>"
      "<loc>https://a.example/</loc>" +
      f + "</url></urlset>";
  parse_options o;
  o.schema_checks = false;
  const parse_summary s = sitemill::parse_bytes(doc, h, o);
  check(s.complete && s.errors == 0 && h.entries == 1 && h.got == f);
}

bool same(const parse_result& a, const parse_result& b, bool diagnostics) {
  if (a.handler.kinds != b.handler.kinds ||
      a.handler.entries != b.handler.entries)
    return false;
  const parse_summary& x = a.summary;
  const parse_summary& y = b.summary;
  if (x.kind != y.kind || x.entries != y.entries || x.bytes != y.bytes ||
      x.gzipped != y.gzipped || x.complete != y.complete)
    return false;
  if (!diagnostics) return true;
  if (x.schema_valid != y.schema_valid || x.errors != y.errors ||
      x.warnings != y.warnings || x.infos != y.infos)
    return false;
  const auto& p = a.handler.diagnostics;
  const auto& q = b.handler.diagnostics;
  if (p.size() != q.size()) return false;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p[i].code != q[i].code || p[i].line != q[i].line ||
        p[i].column != q[i].column || p[i].message != q[i].message)
      return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const bool gzip = size >= 2 && data[0] == 0x1F && data[1] == 0x8B;
  std::uint64_t max_line = 1;
  for (const char c : input) max_line += c == '\n';
  if (gzip) max_line = UINT64_MAX;  // lines of what it inflates to
  std::size_t seed = 1469598103934665603u;
  for (const char c : input.substr(0, 64))
    seed = (seed ^ static_cast<unsigned char>(c)) * 1099511628211u;
  if (seed == 0) seed = 1;

  // The lastmod shortcut agrees with the XSD predicate on any first line.
  {
    const std::string_view line =
        input.substr(0, std::min<std::size_t>(input.find('\n'), 64));
    sitemill::w3c_datetime dt;
    const auto problem =
        sitemill::parse_w3c_datetime(detail::trim_xml(line), dt);
    check(detail::lastmod_xsd_verdict(line, problem, dt.form) ==
          sitemill::xsd_accepts_lastmod(line));
  }

  parse_result whole, chunked, unchecked;
  run(input, 0, true, max_line, whole);
  run(input, seed, true, max_line, chunked);
  run(input, 0, false, max_line, unchecked);
  check(same(whole, chunked, true));
  check(same(whole, unchecked, false));
  check(!unchecked.summary.schema_valid);
  for (const std::string& f : unchecked.handler.foreign) check_foreign(f);
  return 0;
}
