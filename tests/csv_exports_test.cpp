// The csv reader on spreadsheets' and shops' exports (issue 30): the
// delimiter sniffed from the header row or given, short rows noted with the
// columns they lack, and a quote left open reported at its line with the
// rows it took.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sitemill/source/record_reader.h"
#include "source/readers.h"

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
  std::vector<std::string> images;  // image:loc values, in order
  std::string error;
  std::vector<std::string> notes;  // "LINE: message"
};

read_result read(std::string_view data, char delimiter = 0,
                 input_format format = input_format::csv,
                 std::vector<column> columns = {}) {
  reader_options options;
  options.format = format;
  options.delimiter = delimiter;
  options.columns = std::move(columns);
  auto reader = detail::make_reader(
      std::make_unique<detail::memory_source>(data), "in", options, {});
  read_result out;
  if (!reader) {
    out.error = reader.err().message;
    return out;
  }
  input_record r;
  while ((*reader)->next(r)) {
    out.rows.push_back({r.line, std::string(r.loc), std::string(r.lastmod),
                        std::string(r.problem)});
    for (const extension_value& v : r.extensions) out.images.emplace_back(v.text);
  }
  EXPECT_FALSE((*reader)->next(r));  // reading stays finished
  out.error = (*reader)->error();
  for (const auto& n : (*reader)->notes())
    out.notes.push_back(std::to_string(n.line) + ": " + n.message);
  return out;
}

TEST(SniffDelimiter, TheMostFrequentOutsideQuotesTiesToTheEarlier) {
  const struct {
    std::string_view header;
    char delimiter;
  } rows[] = {
      {"loc,lastmod,image", ','},
      {"loc;lastmod;image", ';'},
      {"loc\tlastmod\timage", '\t'},
      {"loc|lastmod|image", '|'},
      {"loc", ','},  // none: comma, as RFC 4180
      {"", ','},
      // A quoted cell's delimiters do not count.
      {"\"Artikel, Name\";loc;\"Preis, EUR\"", ';'},
      {"\"a;b;c;d\",loc", ','},
      {"\"say \"\"x;y\"\"\",loc", ','},
      // Ties go in the order , ; tab |.
      {"a,b;c", ','},
      {"a;b\tc", ';'},
      {"a\tb|c", '\t'},
      // Counted on this line: an open quote hides the rest of it.
      {"loc;\"Beschreibung, lang", ';'},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(std::string(r.header));
    EXPECT_EQ(detail::sniff_delimiter(r.header), r.delimiter);
  }
}

// What LibreOffice and Excel write where the decimal mark is a comma.
TEST(CsvDelimiter, ASemicolonExportIsReadBySniffingItsHeader) {
  const read_result r = read(
      "loc;lastmod;image;Preis\r\n"
      "https://shop.example.de/tisch;2026-10-01;/media/tisch.jpg;\"1.299,00\"\r\n"
      "https://shop.example.de/stuhl;2026-10-02;;89,90\r\n");
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.rows,
            (std::vector<row>{{2, "https://shop.example.de/tisch", "2026-10-01", ""},
                              {3, "https://shop.example.de/stuhl", "2026-10-02", ""}}));
  EXPECT_EQ(r.images, std::vector<std::string>{"/media/tisch.jpg"});
  // The unknown column is noted as always, and nothing else.
  EXPECT_EQ(r.notes, std::vector<std::string>{"1: unknown column \"Preis\" ignored"});
}

TEST(CsvDelimiter, AQuotedHeaderCellHoldingCommasDoesNotFoolTheSniffer) {
  const read_result r = read(
      "\"Name, intern\";loc;\"Kategorie, Pfad\"\n"
      "\"Eiche, geölt\";https://shop.example.de/a;\"Möbel, Tische\"\n");
  EXPECT_EQ(r.error, "");
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].loc, "https://shop.example.de/a");
}

TEST(CsvDelimiter, TabAndPipeSeparatedCsvAreSniffedToo) {
  EXPECT_EQ(read("loc\tlastmod\n\"https://a.example/x\"\t2026-01-01\n").rows,
            (std::vector<row>{{2, "https://a.example/x", "2026-01-01", ""}}));
  EXPECT_EQ(read("loc|lastmod\nhttps://a.example/x|2026-01-01\n").rows,
            (std::vector<row>{{2, "https://a.example/x", "2026-01-01", ""}}));
}

TEST(CsvDelimiter, AGivenDelimiterIsUsedAsGiven) {
  // The header has more commas, but the user said ';'.
  const read_result r =
      read("loc;lastmod;x,y,z,w\nhttps://a.example/;2026-01-01;z\n", ';');
  EXPECT_EQ(r.error, "");
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].lastmod, "2026-01-01");
}

TEST(CsvDelimiter, AHeaderlessFileIsSniffedFromItsFirstRecord) {
  const read_result r =
      read("https://a.example/x;2026-01-01\nhttps://a.example/y;2026-01-02\n", 0,
           input_format::csv, {column::loc, column::lastmod});
  EXPECT_EQ(r.rows,
            (std::vector<row>{{1, "https://a.example/x", "2026-01-01", ""},
                              {2, "https://a.example/y", "2026-01-02", ""}}));
}

TEST(CsvDelimiter, WhatCannotSeparateCellsIsRefused) {
  EXPECT_EQ(read("loc\n", '"').error,
            "in: '\"' cannot separate cells (a quote or a line break)");
  EXPECT_EQ(read("loc\n", ';', input_format::tsv).error,
            "in: a tsv input is tab-separated; to read one separated by ';', "
            "read it as csv (`format` csv)");
}

TEST(CsvDelimiter, AHeaderWithoutLocNamesTheDelimiterThatSplitIt) {
  // Sniffed: said so.
  EXPECT_EQ(read("sku;url\n1;https://a.example/\n").error,
            "in:1: header has no loc column; its columns, split at ';' (the "
            "delimiter the header has most of), are \"sku\", \"url\"; to read "
            "\"url\" as loc, map it by name: `columns` loc=url");
  // Given, and wrong: the one cell holds the right one.
  EXPECT_EQ(read("loc;lastmod\nhttps://a.example/;2026-01-01\n", ',').error,
            "in:1: header has no loc column; its columns, split at ',' "
            "(`delimiter`), are \"loc;lastmod\"; it is one cell holding ';': "
            "to split it there, give `delimiter` ;");
  // A .tsv that is a csv.
  EXPECT_EQ(read("loc,lastmod\nhttps://a.example/,2026-01-01\n", 0,
                 input_format::tsv)
                .error,
            "in:1: header has no loc column; its columns, split at tabs, are "
            "\"loc,lastmod\"; it is one cell holding ',': to split it there, "
            "read the file as csv (`format` csv)");
  EXPECT_EQ(read("loc;lastmod\nhttps://a.example/;2026-01-01\n", 0,
                 input_format::tsv)
                .error,
            "in:1: header has no loc column; its columns, split at tabs, are "
            "\"loc;lastmod\"; it is one cell holding ';': to split it there, "
            "read the file as csv (`format` csv, `delimiter` ;)");
}

TEST(ShortRows, ARowWithFewerCellsThanTheHeaderIsNotedWithWhatItLacks) {
  for (const input_format format : {input_format::csv, input_format::tsv}) {
    SCOPED_TRACE(format == input_format::csv ? "csv" : "tsv");
    const char d = format == input_format::csv ? ',' : '\t';
    auto line = [d](std::vector<std::string> cells) {
      std::string s;
      for (std::size_t i = 0; i < cells.size(); ++i)
        (s += i == 0 ? "" : std::string(1, d)) += cells[i];
      return s + "\n";
    };
    const read_result r =
        read(line({"loc", "lastmod", "image", "note", "Preis"}) +
                 line({"https://a.example/1", "2026-01-01", "/1.jpg", "", ""}) +
                 line({"https://a.example/2", "2026-01-02"}) +
                 line({"https://a.example/3", "2026-01-03", "/3.jpg", "x"}) +
                 line({"https://a.example/4"}),
             0, format);
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(r.rows.size(), 4u);
    EXPECT_EQ(
        r.notes,
        (std::vector<std::string>{
            "1: unknown columns \"note\", \"Preis\" ignored",
            "3: row has 2 cells where the header has 5; \"image\", \"note\", "
            "\"Preis\" are read as empty",
            "4: row has 4 cells where the header has 5; \"Preis\" is read as "
            "empty",
            "5: row has 1 cell where the header has 5; \"lastmod\", \"image\", "
            "\"note\", \"Preis\" are read as empty"}));
  }
}

TEST(ShortRows, PastAHundredTheRestAreCountedInOneNote) {
  std::string csv = "loc,lastmod\n";
  for (int i = 0; i < 250; ++i) csv += "https://a.example/" + std::to_string(i) + "\n";
  const read_result r = read(csv);
  EXPECT_EQ(r.rows.size(), 250u);
  ASSERT_EQ(r.notes.size(), 101u);
  EXPECT_EQ(r.notes[99],
            "101: row has 1 cell where the header has 2; \"lastmod\" is read "
            "as empty");
  EXPECT_EQ(r.notes[100],
            "251: 250 rows in all have fewer cells than the header (lines 2 "
            "to 251); only the first 100 are noted");
}

TEST(OpenQuote, AQuoteThatRunsToTheEndSaysWhichRowsItTook) {
  const read_result r = read(
      "loc,image:caption\n"
      "https://a.example/1,\"Oak table, oiled\n"
      "https://a.example/2,Chair\n"
      "https://a.example/3,Lamp\n"
      "https://a.example/4,Shelf\n");
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.rows,
            (std::vector<row>{
                {2, "", "",
                 "unterminated quoted field: the quote runs to the end of the "
                 "input; the quoted field opened on this line took the 3 "
                 "lines after it (to line 5), whose rows are not read"}}));
}

TEST(OpenQuote, AQuoteClosedRowsLaterByAnotherStrayOneSaysSoToo) {
  const read_result r = read(
      "loc,image:caption\n"
      "https://a.example/1,\"Oak table, oiled\n"
      "https://a.example/2,Chair\n"
      "https://a.example/3,\"Lamp\", brass\n"
      "https://a.example/4,Shelf\n");
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.rows[0],
            (row{2, "", "",
                 "unexpected character after a closing quote on line 4; the "
                 "quoted field opened on this line took the 2 lines after it "
                 "(to line 4), whose rows are not read"}));
  EXPECT_EQ(r.rows[1], (row{5, "https://a.example/4", "", ""}));
  // On one line, the message is as it was.
  EXPECT_EQ(read("loc\n\"https://a.example/\"x\n").rows.at(0).problem,
            "unexpected character after a closing quote");
  // A caption over two lines, closed as it should be, is no problem.
  const read_result fine =
      read("loc,image,image:caption\nhttps://a.example/1,/1.jpg,\"Two\nlines\"\n");
  ASSERT_EQ(fine.rows.size(), 1u);
  EXPECT_EQ(fine.rows[0].problem, "");
}

}  // namespace
}  // namespace sitemill
