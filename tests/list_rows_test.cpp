// A list's rows split and copied into the entry stage's batches in one
// piece: the stage copies a tsv or txt row once and places each field
// inside the copy. Checked against the plain reading of the same text
// (split at every tab with std::string_view::find; fields taken from the
// reader's own records), on generated rows with tabs at every offset, rows
// around 16-byte blocks, and the rows that carry text from elsewhere (a
// problem, an alternate:LANG column's fixed hreflang).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "generate/entry_stage.h"
#include "source/input_stream.h"
#include "source/readers.h"

namespace sitemill {
namespace {

using detail::entry_stage;
using detail::line_record_reader;
using detail::memory_source;
using detail::reader_tuning;
using detail::record_batch;

struct fields {
  std::string loc, lastmod, changefreq, priority, problem;
  std::vector<std::string> extensions;
  bool operator==(const fields&) const = default;
};

void PrintTo(const fields& f, std::ostream* os) {
  *os << "{\"" << f.loc << "\", \"" << f.lastmod << "\", \"" << f.changefreq
      << "\", \"" << f.priority << "\", problem \"" << f.problem << "\", "
      << f.extensions.size() << " extension values}";
}

std::vector<column> columns_of(std::initializer_list<std::string_view> names) {
  std::vector<column> out;
  for (std::string_view n : names) out.push_back(*parse_column(n));
  return out;
}

reader_options tsv_columns(std::initializer_list<std::string_view> names) {
  reader_options o;
  o.format = input_format::tsv;
  o.columns = columns_of(names);
  return o;
}

// Every record of `data`, each checked to lie in the row the reader names.
std::vector<fields> read_all(std::string_view data, const reader_options& o,
                             reader_tuning tuning = {}) {
  auto reader = detail::make_reader(std::make_unique<memory_source>(data), "in",
                                    o, tuning);
  EXPECT_TRUE(reader);
  if (!reader) return {};
  const auto* lines = dynamic_cast<const line_record_reader*>(reader->get());
  std::vector<fields> out;
  input_record r;
  while ((*reader)->next(r)) {
    fields f{std::string(r.loc),        std::string(r.lastmod),
             std::string(r.changefreq), std::string(r.priority),
             std::string(r.problem),    {}};
    for (const extension_value& v : r.extensions)
      f.extensions.emplace_back(v.text);
    out.push_back(std::move(f));
    if (lines == nullptr || lines->row().empty()) continue;
    const std::string_view row = lines->row();
    for (std::string_view v : {r.loc, r.lastmod, r.changefreq, r.priority}) {
      if (v.empty()) continue;
      EXPECT_GE(v.data(), row.data());
      EXPECT_LE(v.data() + v.size(), row.data() + row.size());
    }
  }
  EXPECT_EQ((*reader)->error(), "");
  return out;
}

// The plain reading of one row under --columns loc,lastmod,changefreq,priority:
// cell i is the text between tab i-1 and tab i.
fields plain_split(std::string_view row) {
  std::vector<std::string_view> cells;
  for (;;) {
    const std::size_t tab = row.find('\t');
    cells.push_back(row.substr(0, tab));
    if (tab == std::string_view::npos) break;
    row.remove_prefix(tab + 1);
  }
  auto cell = [&](std::size_t i) {
    return i < cells.size() ? std::string(cells[i]) : std::string();
  };
  return {cell(0), cell(1), cell(2), cell(3), "", {}};
}

// A row of `length` bytes with tabs where `rng` puts them (about one byte
// in `spread`), never blank, never starting as a header would.
std::string random_row(std::mt19937_64& rng, std::size_t length,
                       unsigned spread) {
  std::string row = "/";
  while (row.size() < length) {
    const auto r = rng();
    row += r % spread == 0 ? '\t' : static_cast<char>('a' + r / spread % 26);
  }
  return row;
}

TEST(TsvRows, SplitLikeThePlainReadingWithTabsAtEveryOffset) {
  std::mt19937_64 rng(31);
  std::string data;
  std::vector<fields> expected;
  // Every length through four blocks, tabs sparse and dense, and one tab
  // at each offset of rows around the block size.
  for (std::size_t length = 1; length <= 70; ++length)
    for (unsigned spread : {3u, 9u, 40u})
      for (int k = 0; k < 4; ++k) {
        const std::string row = random_row(rng, length, spread);
        data += row + "\n";
        expected.push_back(plain_split(row));
      }
  for (std::size_t length : {15u, 16u, 17u, 31u, 32u, 33u, 48u})
    for (std::size_t at = 1; at < length; ++at) {
      std::string row(length, 'x');
      row[0] = '/';
      row[at] = '\t';
      data += row + "\n";
      expected.push_back(plain_split(row));
    }
  const auto o = tsv_columns({"loc", "lastmod", "changefreq", "priority"});
  for (std::size_t block : {std::size_t{1} << 20, std::size_t{7},
                            std::size_t{16}, std::size_t{1}}) {
    reader_tuning tuning;
    tuning.block_size = block;
    EXPECT_EQ(read_all(data, o, tuning), expected) << "block " << block;
  }
}

TEST(TsvRows, ALongRowIsStillJudgedByTheCellsPastTheHeader) {
  const std::string header = "loc\tlastmod\n";
  // Cells past the header's two: empty ones are dropped, text is a problem,
  // wherever the tabs fall in the row's 16-byte blocks.
  for (std::size_t pad = 0; pad < 20; ++pad) {
    const std::string loc = "https://a.example/" + std::string(pad, 'p');
    reader_options o;
    o.format = input_format::tsv;
    const auto rows = read_all(header + loc + "\t2024-01-02\t\t\n" + loc +
                                   "\t2024-01-02\t\tx\n" + loc + "\n",
                               o);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].loc, loc);
    EXPECT_EQ(rows[0].lastmod, "2024-01-02");
    EXPECT_EQ(rows[0].problem, "");
    EXPECT_EQ(rows[1].loc, "");
    EXPECT_NE(rows[1].problem, "");
    EXPECT_EQ(rows[2].loc, loc);
    EXPECT_EQ(rows[2].lastmod, "");
  }
}

// Runs `data` through an entry stage and returns each record's fields as
// the batch holds them, in order.
std::vector<fields> through_stage(std::string data, reader_options o) {
  std::vector<entry_stage::input> inputs(1);
  inputs[0].open =
      [data = std::move(data),
       o](const std::atomic<bool>*) -> result<std::unique_ptr<record_reader>> {
    return detail::make_reader(std::make_unique<memory_source>(data), "in", o,
                               {});
  };
  entry_stage stage(std::move(inputs), url_normalizer{}, document_type::urlset,
                    2);
  std::vector<fields> out;
  while (record_batch* b = stage.next()) {
    for (const auto& r : b->records) {
      fields f{std::string(b->field(r, 0)), std::string(b->field(r, 1)),
               std::string(b->field(r, 2)), std::string(b->field(r, 3)),
               std::string(b->field(r, 4)), {}};
      for (std::uint32_t k = r.ext_begin; k < r.ext_end; ++k) {
        const auto& e = b->extensions[k];
        f.extensions.push_back(b->raw.substr(e.offset, e.length));
      }
      out.push_back(std::move(f));
    }
    stage.release(b);
  }
  EXPECT_EQ(stage.error(), "");
  return out;
}

TEST(ListRows, TheBatchHoldsEveryFieldAsTheReaderReadIt) {
  std::mt19937_64 rng(7);
  std::string data;
  for (int i = 0; i < 3000; ++i) {
    data += "https://www.example.com/p/" + std::to_string(rng() % 100000);
    data += i % 3 == 0 ? "\t\t" : "\t2024-05-0" + std::to_string(i % 9 + 1);
    data += i % 5 == 0 ? "\tdaily\t0.5" : "\t\t";
    data += i % 7 == 0 ? "\thttps://www.example.com/de/" : "\t";
    data += i % 11 == 0 ? "\t/img/a.png\n" : "\t\n";
    if (i % 500 == 0) data += std::string(3 * 1024 * 1024, 'x') + "\n";
  }
  // The alternate:de column's hreflang is the column's name, not row text:
  // it is copied on its own, beside the row.
  const auto o = tsv_columns(
      {"loc", "lastmod", "changefreq", "priority", "alternate:de", "image"});
  const auto stage_rows = through_stage(data, o);
  EXPECT_EQ(stage_rows, read_all(data, o));
  ASSERT_GT(stage_rows.size(), 3000u);
  EXPECT_NE(stage_rows[1].problem, "");  // the line over 1 MiB
  bool fixed = false;
  for (const auto& f : stage_rows)
    for (const auto& v : f.extensions) fixed = fixed || v == "de";
  EXPECT_TRUE(fixed);
}

TEST(ListRows, ATextListKeepsQuotedAndRefusedLinesApart) {
  const std::string data =
      "https://a.example/1\n"
      "  \"https://a.example/2\"  \n"
      "\"https://a.example/3\n"
      "https://a.example/4\tx\n"
      "\xEF\xBB\xBFhttps://a.example/5\n"
      "   https://a.example/6   \n";
  reader_options o;
  o.format = input_format::txt;
  const auto rows = through_stage(data, o);
  EXPECT_EQ(rows, read_all(data, o));
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[1].loc, "https://a.example/2");
  EXPECT_EQ(rows[5].loc, "https://a.example/6");
  EXPECT_NE(rows[2].problem, "");
  EXPECT_NE(rows[3].problem, "");
}

TEST(ListRows, ACsvListIsCopiedFieldByField) {
  // Unquoted cells are views of the line, quoted ones are not: the csv
  // reader names no row, and each field is copied on its own.
  const std::string data =
      "loc,lastmod\n"
      "https://a.example/1,2024-01-01\n"
      "\"https://a.example/2?a=1,2\",\"2024-01-02\"\n";
  reader_options o;
  o.format = input_format::csv;
  const auto rows = through_stage(data, o);
  EXPECT_EQ(rows, read_all(data, o));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].loc, "https://a.example/2?a=1,2");
}

TEST(ListRows, ABatchEstimatesTheRecordsOfAnInputLikeIt) {
  record_batch b;
  EXPECT_EQ(b.records_in(1000000), 0u);
  // 4 records of 99 bytes each (a line ending makes 100): 10,000 in 1 MB.
  b.records.resize(4);
  b.raw.assign(4 * 99, 'x');
  EXPECT_EQ(b.records_in(1000000), 10000u);
  EXPECT_EQ(b.records_in(0), 0u);
}

}  // namespace
}  // namespace sitemill
