// The list readers on what real exports get wrong: rows with more cells than
// the header (an unquoted delimiter inside a cell), and notes of one kind
// capped the same way by every reader (capped_notes). Every input record is
// either read or reported: no row goes without one or the other.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sitemill/source/record_reader.h"
#include "source/capped_notes.h"
#include "source/readers.h"
#include "support/campaign.h"

namespace sitemill {
namespace {

struct row {
  std::uint64_t line;
  std::string loc, lastmod, problem;
  bool operator==(const row&) const = default;
};

void PrintTo(const row& r, std::ostream* os) {
  *os << "{" << r.line << ", \"" << r.loc << "\", \"" << r.lastmod << "\", \""
      << r.problem << "\"}";
}

struct read_result {
  std::vector<row> rows;
  std::vector<std::string> values;  // extension values' text, in order
  std::string error;
  std::vector<std::string> notes;  // "LINE: message"
};

read_result read(std::string_view data, input_format format,
                 reader_options options = {},
                 detail::reader_tuning tuning = {}) {
  options.format = format;
  auto reader = detail::make_reader(
      std::make_unique<detail::memory_source>(data), "in", options, tuning);
  read_result out;
  if (!reader) {
    out.error = reader.err().message;
    return out;
  }
  input_record r;
  while ((*reader)->next(r)) {
    out.rows.push_back({r.line, std::string(r.loc), std::string(r.lastmod),
                        std::string(r.problem)});
    for (const extension_value& v : r.extensions)
      out.values.emplace_back(v.text);
  }
  EXPECT_FALSE((*reader)->next(r));  // reading stays finished
  out.error = (*reader)->error();
  for (const auto& n : (*reader)->notes())
    out.notes.push_back(std::to_string(n.line) + ": " + n.message);
  return out;
}

// The rows of `cells`, joined by `d`.
std::string rows_of(char d, const std::vector<std::vector<std::string>>& rows) {
  std::string s;
  for (const auto& cells : rows) {
    for (std::size_t i = 0; i < cells.size(); ++i)
      (s += i == 0 ? "" : std::string(1, d)) += cells[i];
    s += "\n";
  }
  return s;
}

constexpr std::string_view csv_cause =
    "an unquoted ',' inside a cell shifts every cell after it, so the row is "
    "not read (put that cell in double quotes)";
constexpr std::string_view tsv_cause =
    "a tab inside a cell shifts every cell after it, so the row is not read "
    "(TSV cannot quote a tab: take it out of the cell, or export the file as "
    "CSV)";

// A shop export whose caption holds the delimiter, unquoted: every cell after
// it moved one column right, so the row's lastmod would be "oiled" and its
// image the date. Written, it would publish wrong values without a word.
TEST(LongRows, TextPastTheHeadersCellsRejectsTheRowNamingIt) {
  for (const input_format format : {input_format::csv, input_format::tsv}) {
    const bool csv = format == input_format::csv;
    SCOPED_TRACE(csv ? "csv" : "tsv");
    const char d = csv ? ',' : '\t';
    const read_result r = read(
        rows_of(d, {{"loc", "image:caption", "lastmod", "image"},
                    {"https://a.example/1", "Chair", "2026-01-01", "/1.jpg"},
                    {"https://a.example/2", "Oak table", " oiled", "2026-01-02",
                     "/2.jpg"},
                    {"https://a.example/3", "Lamp", "2026-01-03", "/3.jpg"}}),
        format);
    test::campaign_tally(test::campaign_kind::hostile_input, 1);
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(r.rows,
              (std::vector<row>{
                  {2, "https://a.example/1", "2026-01-01", ""},
                  {3, "", "",
                   "row has 5 cells where the header has 4, and the 1 past "
                   "it holds text (\"/2.jpg\"): " +
                       std::string(csv ? csv_cause : tsv_cause)},
                  {4, "https://a.example/3", "2026-01-03", ""}}));
    // The rejected row gives no values: neither its caption nor its image.
    EXPECT_EQ(r.values,
              (std::vector<std::string>{"/1.jpg", "Chair", "/3.jpg", "Lamp"}));
    EXPECT_TRUE(r.notes.empty()) << r.notes[0];
  }
}

TEST(LongRows, EmptyCellsPastTheHeadersAreIgnoredWithANote) {
  for (const input_format format : {input_format::csv, input_format::tsv}) {
    const bool csv = format == input_format::csv;
    SCOPED_TRACE(csv ? "csv" : "tsv");
    const char d = csv ? ',' : '\t';
    const read_result r =
        read(rows_of(d, {{"loc", "lastmod"},
                         {"https://a.example/1", "2026-01-01", ""},
                         {"https://a.example/2", "2026-01-02", " ", "\r"},
                         {"https://a.example/3", "2026-01-03"}}),
             format);
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(r.rows,
              (std::vector<row>{{2, "https://a.example/1", "2026-01-01", ""},
                                {3, "https://a.example/2", "2026-01-02", ""},
                                {4, "https://a.example/3", "2026-01-03", ""}}));
    EXPECT_EQ(r.notes,
              (std::vector<std::string>{
                  "2: row has 3 cells where the header has 2; the 1 past it "
                  "is empty and ignored",
                  "3: row has 4 cells where the header has 2; the 2 past it "
                  "are empty and ignored"}));
  }
}

// Read by name, the header's other cells are ignored: a row is too long
// only past the header's last cell, whichever cells are read.
TEST(LongRows, CountsPastTheHeaderNotPastTheColumnsRead) {
  for (const input_format format : {input_format::csv, input_format::tsv}) {
    const bool csv = format == input_format::csv;
    SCOPED_TRACE(csv ? "csv" : "tsv");
    const char d = csv ? ',' : '\t';
    reader_options options;
    options.named_columns = {{"url", column::loc}};
    const read_result r = read(
        rows_of(d, {{"id", "url", "title", "notes"},
                    {"1", "https://a.example/1", "Chair", ""},
                    {"2", "https://a.example/2", "Oak", "oiled", "x", "y", "z",
                     "w"},
                    {"3", "https://a.example/3", "Lamp", "", ""},
                    {"4", "https://a.example/4", "Desk", "a", "b", "", "c"}}),
        format, options);
    test::campaign_tally(test::campaign_kind::hostile_input, 1);
    ASSERT_EQ(r.rows.size(), 4u);
    EXPECT_EQ(r.rows[0].loc, "https://a.example/1");
    EXPECT_EQ(r.rows[1].problem,
              "row has 8 cells where the header has 4, and the 4 past it "
              "hold text (\"x\", \"y\", \"z\", ...): " +
                  std::string(csv ? csv_cause : tsv_cause));
    EXPECT_EQ(r.rows[2].loc, "https://a.example/3");
    EXPECT_EQ(r.rows[3].problem,
              "row has 7 cells where the header has 4, and the 3 past it "
              "hold text (\"b\", \"c\"): " +
                  std::string(csv ? csv_cause : tsv_cause));
    EXPECT_EQ(r.notes, (std::vector<std::string>{
                           "4: row has 5 cells where the header has 4; the 1 "
                           "past it is empty and ignored"}));
  }
}

// A quoted cell past the header's that holds a delimiter and a line break is
// still one cell: the row is one record, rejected at the line it starts on,
// and the next row is read.
TEST(LongRows, AQuotedCellPastTheHeaderSpanningLinesIsOneRejectedRow) {
  const read_result r = read(
      "loc,lastmod\n"
      "https://a.example/1,2026-01-01,\"two\nlines, one cell\"\n"
      "https://a.example/2,2026-01-02,\"\"\n",
      input_format::csv);
  test::campaign_tally(test::campaign_kind::hostile_input, 1);
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.rows,
            (std::vector<row>{
                {2, "", "",
                 "row has 3 cells where the header has 2, and the 1 past it "
                 "holds text (\"two\\x0Alines, one cell\"): " +
                     std::string(csv_cause)},
                {4, "https://a.example/2", "2026-01-02", ""}}));
  EXPECT_EQ(r.notes, (std::vector<std::string>{
                         "4: row has 3 cells where the header has 2; the 1 "
                         "past it is empty and ignored"}));
}

// Without a header row (a column list in order) there is nothing to be
// longer than: the list names the cells it reads, and an export's other
// columns are simply not read.
TEST(LongRows, UnderAColumnListInOrderMoreCellsAreNotAProblem) {
  for (const input_format format : {input_format::csv, input_format::tsv}) {
    const char d = format == input_format::csv ? ',' : '\t';
    reader_options options;
    options.columns = {column::loc, column::lastmod};
    const read_result r =
        read(rows_of(d, {{"https://a.example/1", "2026-01-01", "x", "y"},
                         {"https://a.example/2", "2026-01-02", "z"}}),
             format, options);
    EXPECT_EQ(r.rows,
              (std::vector<row>{{1, "https://a.example/1", "2026-01-01", ""},
                                {2, "https://a.example/2", "2026-01-02", ""}}));
    EXPECT_TRUE(r.notes.empty());
  }
}

// Every record is read or reported: a file of rows of every length gives
// exactly one record per row, each either with its URL or with a problem.
TEST(LongRows, EveryRowIsReadOrReported) {
  for (const input_format format : {input_format::csv, input_format::tsv}) {
    const char d = format == input_format::csv ? ',' : '\t';
    std::string data = "loc" + std::string(1, d) + "lastmod\n";
    std::size_t rejected = 0;
    for (int i = 0; i < 300; ++i) {
      data += "https://a.example/" + std::to_string(i);
      for (int c = 0; c < i % 4; ++c)
        data += d + std::string(c == 2 ? "t" : "");
      rejected += i % 4 == 3;
      data += "\n";
    }
    const read_result r = read(data, format);
    ASSERT_EQ(r.rows.size(), 300u);
    std::size_t problems = 0;
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
      EXPECT_EQ(r.rows[i].line, i + 2);
      problems += !r.rows[i].problem.empty();
      EXPECT_NE(r.rows[i].loc.empty(), r.rows[i].problem.empty()) << i;
    }
    EXPECT_EQ(problems, rejected);
    // 75 short rows and 75 with one empty cell too many: each kind noted.
    EXPECT_EQ(r.notes.size(), 150u);
  }
}

TEST(LongRows, PastAHundredTheEmptyOnesAreCountedInOneNote) {
  std::string csv = "loc,lastmod\n";
  for (int i = 0; i < 250; ++i)
    csv += "https://a.example/" + std::to_string(i) + ",2026-01-01,\n";
  const read_result r = read(csv, input_format::csv);
  EXPECT_EQ(r.rows.size(), 250u);
  ASSERT_EQ(r.notes.size(), 101u);
  EXPECT_EQ(r.notes[100],
            "251: 250 rows in all have more cells than the header, all empty "
            "(lines 2 to 251); the empty cells were ignored; only the first "
            "100 are noted");
}

// capped_notes: the one way the readers bound notes of one kind.
TEST(CappedNotes, KeepsTheFirstThenCountsAllInOneClosingNote) {
  std::vector<record_reader::note> notes;
  detail::capped_notes cap(2, "row", "rows", "were odd", "they were read");
  int built = 0;
  for (std::uint64_t line : {3, 5, 8, 13, 21})
    cap.add(line, notes, [&] {
      ++built;
      return "odd row";
    });
  EXPECT_EQ(built, 2);  // past the limit no message is made
  EXPECT_EQ(cap.count(), 5u);
  cap.finish(notes);
  cap.finish(notes);  // said once
  ASSERT_EQ(notes.size(), 3u);
  EXPECT_EQ(notes[0].line, 3u);
  EXPECT_EQ(notes[1].line, 5u);
  EXPECT_EQ(notes[2].line, 21u);
  EXPECT_EQ(notes[2].message,
            "5 rows in all were odd (lines 3 to 21); they were read; only the "
            "first 2 are noted");
}

TEST(CappedNotes, UnderTheLimitThereIsNoClosingNote) {
  std::vector<record_reader::note> notes;
  detail::capped_notes cap(1, "line", "lines", "were odd", {}, true);
  cap.add(7, notes, [] { return std::string("odd"); });
  cap.finish(notes);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_TRUE(notes[0].dropped_value);
  cap.add(9, notes, [] { return std::string("odd"); });
  cap.add(1'234'567, notes, [] { return std::string("odd"); });
  cap.finish(notes);
  ASSERT_EQ(notes.size(), 3u);
  EXPECT_EQ(notes[2].message,
            "2 lines in all were odd (lines 9 to 1234567); only the first is "
            "noted");
  EXPECT_TRUE(notes[2].dropped_value);
}

// The three readers' capped kinds end the same way: the first notes one by
// one, then one that counts them all with the first and last line.
TEST(CappedNotes, EveryReaderClosesACappedKindWithACountAndItsLines) {
  std::string txt, csv = "loc,lastmod\n", jsonl;
  for (int i = 0; i < 120; ++i) {
    const std::string url = "https://a.example/" + std::to_string(i);
    txt += "\"" + url + "\"\n";
    csv += url + "\n";
    jsonl += "{\"loc\": \"" + url + "\", \"news\": 7}\n";
  }
  const read_result t = read(txt, input_format::txt);
  ASSERT_EQ(t.notes.size(), 2u);
  EXPECT_EQ(t.notes[1],
            "120: 120 lines in all held a URL in double quotes (lines 1 to "
            "120); their quotes were dropped; only the first is noted");
  const read_result c = read(csv, input_format::csv);
  ASSERT_EQ(c.notes.size(), 101u);
  EXPECT_EQ(c.notes[100],
            "121: 120 rows in all have fewer cells than the header (lines 2 "
            "to 121); only the first 100 are noted");
  const read_result j = read(jsonl, input_format::jsonl);
  ASSERT_EQ(j.notes.size(), 101u);
  EXPECT_EQ(j.notes[100],
            "120: 120 extension values in all were of the wrong JSON type "
            "(lines 1 to 120); they were dropped; only the first 100 are "
            "noted");
}

}  // namespace
}  // namespace sitemill
