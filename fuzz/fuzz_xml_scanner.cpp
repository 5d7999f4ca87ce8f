// Fuzzes xml_scanner against libxml2. Checks:
//  - detail::document_parser with a reread_function (the scanner, handing over
//  to
//    libxml2 from the first byte where it stops) tells the handler exactly
//    what it tells without one (libxml2 alone): the same kind, entries with
//    positions, extensions and foreign XML, diagnostics (code, line, column,
//    message) and summary, fed in one block or in blocks of a size seeded
//    by the input, plain or gzipped;
//  - the reader fed in two pieces (cut where the input's hash says) tells
//    what libxml2's reader tells of the whole, or when the scanner hands
//    over, the beginning of it: what the second reading mutes;
//  - the scanner's own calls do not depend on where the bytes are cut.
// ASan and UBSan (libFuzzer builds) catch the rest.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "parse/context.h"
#include "parse/document_parser.h"
#include "parse/xml_reader.h"
#include "parse/xml_scanner.h"
#include "sitemill/parse/sitemap_parser.h"
#include "parse_transcript.h"

namespace {

using namespace sitemill;

void check(bool ok) {
  if (!ok) std::abort();
}

using fuzzing::transcript;

bool same(const parse_summary& x, const parse_summary& y) {
  return x.kind == y.kind && x.entries == y.entries && x.bytes == y.bytes &&
         x.gzipped == y.gzipped && x.complete == y.complete &&
         x.well_formed == y.well_formed && x.schema_valid == y.schema_valid &&
         x.valid_but_unknown_namespaces == y.valid_but_unknown_namespaces &&
         x.errors == y.errors && x.warnings == y.warnings && x.infos == y.infos;
}

parse_options pinned() {
  parse_options o;
  o.now = std::chrono::system_clock::time_point(
      std::chrono::seconds(1'790'000'000));
  return o;
}

void parser_paths_agree(std::string_view bytes, std::size_t block) {
  transcript a;
  const parse_summary sa = parse_bytes(bytes, a, pinned());
  transcript b;
  int rereads = 0;
  detail::document_parser parser(b, pinned(), [&](const auto& sink) {
    ++rereads;
    for (std::size_t i = 0; i < bytes.size(); i += block)
      if (!sink(bytes.data() + i, std::min(block, bytes.size() - i))) break;
    return true;
  });
  for (std::size_t i = 0; i < bytes.size(); i += block)
    if (!parser.feed(bytes.data() + i, std::min(block, bytes.size() - i)))
      break;
  const parse_summary sb = parser.finish();
  check(rereads <= 1);
  check(same(sa, sb));
  check(a.events == b.events);
}

void reader_split_agrees(std::string_view bytes, std::size_t cut) {
  const auto run = [&](bool scan, std::size_t at, bool& handed_over) {
    transcript t;
    const parse_options o = pinned();
    parse_summary s;
    detail::doc_context doc(t, o, s, 1'790'000'000);
    detail::xml_reader reader(doc, {1, 1}, false, scan);
    if (reader.feed(bytes.data(), at))
      reader.feed(bytes.data() + at, bytes.size() - at);
    reader.finish();
    handed_over = reader.handed_over();
    return t.events;
  };
  bool unused = false, handed_over = false;
  const auto whole = run(false, bytes.size(), unused);
  const auto scanned = run(true, cut, handed_over);
  if (!handed_over) {
    check(whole == scanned);
  } else {
    check(scanned.size() <= whole.size());
    check(std::equal(scanned.begin(), scanned.end(), whole.begin()));
  }
}

struct scan_log final : detail::xml_scanner::sink {
  std::string log;
  void on_start(const unsigned char* local, const unsigned char*,
                const unsigned char* uri, int n,
                const unsigned char** a) override {
    log += '<';
    log += reinterpret_cast<const char*>(local);
    if (uri != nullptr) log += reinterpret_cast<const char*>(uri);
    for (int i = 0; i < n; ++i)
      log.append(reinterpret_cast<const char*>(a[5 * i + 3]),
                 reinterpret_cast<const char*>(a[5 * i + 4]));
    log += '>';
  }
  void on_end() override { log += "</>"; }
  void on_characters(const unsigned char* t, int len, bool) override {
    log.append(reinterpret_cast<const char*>(t), static_cast<std::size_t>(len));
  }
};

void scanner_splits_agree(std::string_view bytes, std::size_t cut) {
  scan_log once, split;
  detail::xml_scanner a(once), b(split);
  a.feed(bytes.data(), bytes.size());
  const bool whole_a = a.finish();
  b.feed(bytes.data(), cut);
  b.feed(bytes.data() + cut, bytes.size() - cut);
  const bool whole_b = b.finish();
  check(whole_a == whole_b);
  if (whole_a) check(once.log == split.log);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  if (size > 256 * 1024) return 0;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::uint64_t seed = 1469598103934665603u;
  for (const char c : input.substr(0, 64))
    seed = (seed ^ static_cast<unsigned char>(c)) * 1099511628211u;
  const std::size_t cut = size == 0 ? 0 : seed % (size + 1);
  parser_paths_agree(input, 256 * 1024);
  parser_paths_agree(input, 1 + seed % 97);
  reader_split_agrees(input, cut);
  scanner_splits_agree(input, cut);
  return 0;
}
