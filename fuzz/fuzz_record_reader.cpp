// Fuzzes the record readers: every input is read in every format, with and
// without a column list, with the default line cap and a tiny one, each time
// with a 64 KiB block and with a block of 1 to 8 bytes. Checks:
//  - reading ends, and stays ended;
//  - record lines are 1-based and strictly increase (a record starts on a
//    line of its own), and stay within the input's lines;
//  - a record with a problem has no fields; txt locs are trimmed, non-empty,
//    and not comments; no tsv or txt field spans a line break;
//  - extension values: none on a problem record, fields of the table, the
//    values of one item adjacent;
//  - the block size changes nothing: same records, notes and error;
//  - every byte of every view is readable (ASan checks the reads).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/source/record_reader.h"
#include "source/readers.h"

namespace {

using sitemill::column;
using sitemill::input_format;
using sitemill::input_record;
using sitemill::reader_options;
using sitemill::record_reader;

void check(bool ok) {
  if (!ok) std::abort();
}

struct run {
  std::vector<std::string> records;  // each record flattened, line included
  std::vector<std::string> notes;
  std::string error;
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

run read_all(std::string_view data, const reader_options& options,
             sitemill::detail::reader_tuning tuning, std::uint64_t max_lines,
             bool plain) {
  run out;
  auto made = sitemill::detail::make_reader(
      std::make_unique<sitemill::detail::memory_source>(data), "fuzz", options,
      tuning);
  check(made.has_value());
  record_reader& reader = **made;
  input_record r;
  std::uint64_t last = 0;
  while (reader.next(r)) {
    check(r.line > last);
    last = r.line;
    if (plain) check(r.line <= max_lines);
    check(out.records.size() < max_lines);
    const std::string_view fields[] = {r.loc, r.lastmod, r.changefreq,
                                       r.priority};
    std::string flat = std::to_string(r.line);
    for (const std::string_view f : fields) {
      if (!r.problem.empty()) check(f.empty());
      if (options.format == input_format::txt ||
          options.format == input_format::tsv) {
        check(f.find('\n') == std::string_view::npos);
      }
      flat.push_back('\x01');
      flat.append(f);  // reads every byte of the view
    }
    // Extension values: none with a problem; known fields; the values of
    // one item adjacent (item numbers never go back).
    if (!r.problem.empty()) check(r.extensions.empty());
    std::uint32_t item = 0;
    for (const auto& v : r.extensions) {
      check(v.field < sitemill::extension_fields().size());
      check(v.item >= item);
      item = v.item;
      flat.push_back('\x02');
      flat.append(std::to_string(v.field) + "/" + std::to_string(v.item) + "=");
      flat.append(v.text);
    }
    flat.push_back('\x01');
    flat.append(r.problem);
    if (options.format == input_format::txt && r.problem.empty()) {
      check(!r.loc.empty() && !is_space(r.loc.front()) &&
            !is_space(r.loc.back()) && r.loc.front() != '#');
    }
    out.records.push_back(std::move(flat));
  }
  check(!reader.next(r));
  for (const auto& n : reader.notes()) {
    check(n.line >= 1 && n.line <= max_lines);
    out.notes.push_back(std::to_string(n.line) + ":" + n.message);
  }
  out.error = reader.error();
  if (!out.error.empty()) check(out.error.rfind("fuzz:", 0) == 0);
  if (plain && options.format != input_format::tsv &&
      options.format != input_format::csv) {
    check(out.error.empty());  // from memory, only tsv/csv headers can fail
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const bool plain = size < 2 || data[0] != 0x1F || data[1] != 0x8B;
  std::uint64_t max_lines = 1;
  for (const char c : input) max_lines += c == '\n' ? 1 : 0;
  if (!plain) max_lines = UINT64_MAX;
  const std::size_t small_block = 1 + (size == 0 ? 0 : data[size - 1] % 8);

  const reader_options variants[] = {
      {input_format::txt, {}},
      {input_format::jsonl, {}},
      {input_format::tsv, {}},
      {input_format::csv, {}},
      {input_format::tsv,
       {column::ignored, column::priority, column::loc, column::lastmod,
        column::changefreq}},
      {input_format::csv, {column::loc, column::ignored, column::lastmod}},
      {input_format::csv,
       {column::loc, *sitemill::parse_column("image"),
        *sitemill::parse_column("alternate:de"),
        *sitemill::parse_column("image:caption"),
        *sitemill::parse_column("video:price@currency"),
        *sitemill::parse_column("video:price")}},
      // Columns by header name (--columns loc=url,image=img,...).
      {input_format::csv,
       {},
       {{"url", column::loc},
        {"img", *sitemill::parse_column("image")},
        {"de", *sitemill::parse_column("alternate:de")}}},
      {input_format::tsv, {}, {{"u", column::loc}, {"d", column::lastmod}}},
      {input_format::jsonl,
       {},
       {{"url", column::loc},
        {"img", *sitemill::parse_column("image")},
        {"live", *sitemill::parse_column("video:live")}}},
  };
  for (const auto& options : variants) {
    for (const std::size_t max_line : {std::size_t{1} << 20, std::size_t{24}}) {
      // 64 KiB holds any input the fuzzer makes in one block, and is cheaper
      // to allocate a dozen times per input than the default 1 MiB.
      const run big = read_all(input, options, {std::size_t{1} << 16, max_line},
                               max_lines, plain);
      const run small =
          read_all(input, options, {small_block, max_line}, max_lines, plain);
      check(big.records == small.records);
      check(big.notes == small.notes);
      check(big.error == small.error);
    }
  }
  return 0;
}
