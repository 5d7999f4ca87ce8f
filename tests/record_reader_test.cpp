// Tests for the record readers (txt, tsv, csv, jsonl): splitting, line numbers,
// problems and errors, gzip, and block boundaries crossed with tiny buffers.
#include "sitemill/source/record_reader.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "source/readers.h"
#include "support/run.h"  // gzip()

namespace sitemill {
namespace {

using detail::reader_tuning;
using testing::gzip;

// A record copied out of the reader's buffer, so it outlives next().
struct rec {
  std::uint64_t line = 0;
  std::string loc, lastmod, changefreq, priority, problem;
  bool operator==(const rec&) const = default;
};

void PrintTo(const rec& r, std::ostream* os) {
  *os << "{line " << r.line << ", loc \"" << r.loc << "\", lastmod \""
      << r.lastmod << "\", changefreq \"" << r.changefreq << "\", priority \""
      << r.priority << "\", problem \"" << r.problem << "\"}";
}

rec url(std::uint64_t line, std::string loc, std::string lastmod = "",
        std::string changefreq = "", std::string priority = "") {
  return rec{line,
             std::move(loc),
             std::move(lastmod),
             std::move(changefreq),
             std::move(priority),
             ""};
}

rec bad(std::uint64_t line, std::string problem) {
  return rec{line, "", "", "", "", std::move(problem)};
}

struct outcome {
  std::vector<rec> records;
  std::string error;
  std::vector<record_reader::note> notes;
};

outcome drain(record_reader& reader) {
  outcome o;
  input_record r;
  while (reader.next(r)) {
    o.records.push_back({r.line, std::string(r.loc), std::string(r.lastmod),
                         std::string(r.changefreq), std::string(r.priority),
                         std::string(r.problem)});
  }
  // Reading stays finished.
  EXPECT_FALSE(reader.next(r));
  o.error = reader.error();
  o.notes = reader.notes();
  return o;
}

outcome read_with(std::string_view data, const reader_options& options,
                  reader_tuning tuning = {}) {
  auto reader = detail::make_reader(
      std::make_unique<detail::memory_source>(data), "in", options, tuning);
  EXPECT_TRUE(reader.has_value()) << (reader ? "" : reader.err().message);
  if (!reader) return {};
  return drain(**reader);
}

outcome read(std::string_view data, input_format format,
             std::vector<column> columns = {}) {
  reader_options options;
  options.format = format;
  options.columns = std::move(columns);
  return read_with(data, options);
}

// A file in a fresh temporary directory, removed with the fixture.
class temp_dir {
 public:
  temp_dir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "record_reader_test.XXXXXX")
            .string();
    if (mkdtemp(pattern.data()) == nullptr) std::abort();
    path_ = pattern;
  }
  ~temp_dir() { std::filesystem::remove_all(path_); }
  std::string write(const std::string& name, std::string_view bytes) const {
    const std::string path = (path_ / name).string();
    std::ofstream(path, std::ios::binary)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return path;
  }
  std::string path(const std::string& name) const {
    return (path_ / name).string();
  }

 private:
  std::filesystem::path path_;
};

outcome read_file(const std::string& path, input_format format) {
  reader_options options;
  options.format = format;
  auto reader = record_reader::open(path, options);
  EXPECT_TRUE(reader.has_value()) << (reader ? "" : reader.err().message);
  if (!reader) return {};
  return drain(**reader);
}

// --- format names

TEST(RecordReader, ParsesFormatNames) {
  const struct {
    std::string_view name;
    std::optional<input_format> format;
  } cases[] = {
      {"txt", input_format::txt},      {"tsv", input_format::tsv},
      {"csv", input_format::csv},      {"jsonl", input_format::jsonl},
      {"ndjson", input_format::jsonl}, {"TSV", input_format::tsv},
      {"json", std::nullopt},          {"", std::nullopt},
      {"tsv ", std::nullopt},          {"xml", std::nullopt},
  };
  for (const auto& c : cases)
    EXPECT_EQ(parse_input_format(c.name), c.format) << c.name;
}

TEST(RecordReader, FormatFromPathUsesTheExtensionAndSeesThroughGz) {
  const struct {
    std::string_view path;
    std::optional<input_format> format;
  } cases[] = {
      {"urls.txt", input_format::txt},
      {"a/b/urls.tsv", input_format::tsv},
      {"urls.csv.gz", input_format::csv},
      {"urls.jsonl", input_format::jsonl},
      {"urls.ndjson.gz", input_format::jsonl},
      {"URLS.TSV.GZ", input_format::tsv},
      {"urls.tar.gz", std::nullopt},
      {"urls", std::nullopt},
      {"urls.gz", std::nullopt},
      {"-", std::nullopt},
      {"dir.tsv/urls", std::nullopt},
      {".tsv", std::nullopt},
      {"urls.xml", std::nullopt},
  };
  for (const auto& c : cases)
    EXPECT_EQ(format_from_path(c.path), c.format) << c.path;
}

// --- txt

TEST(RecordReader, TxtSkipsBlankAndCommentLinesAndTrims) {
  const outcome o = read(
      "# a comment\n"
      "https://a.example/\n"
      "\n"
      "   \t \n"
      "  # indented comment\n"
      " \thttps://b.example/x y \t\n"
      "https://c.example/#fragment\n",
      input_format::txt);
  EXPECT_EQ(o.error, "");
  EXPECT_EQ(o.records,
            (std::vector<rec>{url(2, "https://a.example/"),
                              url(6, "https://b.example/x y"),
                              url(7, "https://c.example/#fragment")}));
}

// A TSV export saved as .txt: each row is rejected saying what it is,
// rather than for a control character in a URL.
TEST(RecordReader, TxtSaysATabSeparatedRowIsNotAUrl) {
  const outcome o =
      read("https://a.example/\t2024-05-01\n\thttps://b.example/\t\n",
           input_format::txt);
  ASSERT_EQ(o.records.size(), 2u);
  EXPECT_EQ(o.records[0].line, 1u);
  EXPECT_NE(o.records[0].problem.find("looks like tab-separated columns"),
            std::string::npos)
      << o.records[0].problem;
  EXPECT_EQ(o.records[1], url(2, "https://b.example/"))
      << "tabs around a URL are blanks";
}

TEST(RecordReader, TxtKeepsALoneCrInsideALine) {
  // A CR inside a line is not a line ending; the entry stage rejects it.
  const outcome o =
      read("https://a.example/\rb\r\nhttps://c.example/\n", input_format::txt);
  EXPECT_EQ(o.records, (std::vector<rec>{url(1, "https://a.example/\rb"),
                                         url(2, "https://c.example/")}));
}

TEST(RecordReader, EmptyInputHasNoRecords) {
  for (const auto format : {input_format::txt, input_format::tsv,
                            input_format::csv, input_format::jsonl}) {
    for (const std::string_view data : {"", "\xEF\xBB\xBF", "\n\n", "\r\n"}) {
      const outcome o = read(data, format);
      EXPECT_TRUE(o.records.empty());
      EXPECT_EQ(o.error, "");
    }
  }
}

// --- what every format shares: BOM, CRLF, no final newline

struct format_case {
  input_format format;
  std::string_view
      data;  // two records: https://a.example/ and https://b.example/
};

const format_case two_urls[] = {
    {input_format::txt, "https://a.example/\nhttps://b.example/\n"},
    {input_format::tsv,
     "loc\tpriority\nhttps://a.example/\t0.5\nhttps://b.example/\t0.5\n"},
    {input_format::csv,
     "loc,priority\nhttps://a.example/,0.5\n\"https://b.example/\",0.5\n"},
    {input_format::jsonl,
     "{\"loc\":\"https://a.example/\",\"priority\":0.5}\n"
     "{\"loc\":\"https://b.example/\",\"priority\":\"0.5\"}\n"},
};

std::vector<std::string> locs(const outcome& o) {
  std::vector<std::string> out;
  for (const rec& r : o.records)
    out.push_back(r.problem.empty() ? r.loc : "!" + r.problem);
  return out;
}

std::string replace_all(std::string s, std::string_view from,
                        std::string_view to) {
  for (std::size_t at = 0; (at = s.find(from, at)) != std::string::npos;
       at += to.size()) {
    s.replace(at, from.size(), to);
  }
  return s;
}

TEST(RecordReader, EveryFormatSkipsAUtf8Bom) {
  for (const auto& c : two_urls) {
    const outcome o = read("\xEF\xBB\xBF" + std::string(c.data), c.format);
    EXPECT_EQ(locs(o), (std::vector<std::string>{"https://a.example/",
                                                 "https://b.example/"}))
        << c.data;
    EXPECT_TRUE(o.notes.empty())
        << "a BOM must not spoil the first header name";
  }
}

// Only the first line's BOM is the file's; a later one (files joined with
// cat) is not dropped silently: the line is a problem, never a URL.
TEST(RecordReader, ABomIsSkippedOnlyAtTheStart) {
  const outcome o = read(
      "a\n\xEF\xBB\xBF"
      "b\n",
      input_format::txt);
  ASSERT_EQ(o.records.size(), 2u);
  EXPECT_EQ(o.records[0].loc, "a");
  EXPECT_EQ(o.records[1].loc, "");
  EXPECT_NE(o.records[1].problem.find("starts with a byte-order mark"),
            std::string::npos);
}

TEST(RecordReader, EveryFormatReadsCrlfLines) {
  for (const auto& c : two_urls) {
    const outcome o =
        read(replace_all(std::string(c.data), "\n", "\r\n"), c.format);
    EXPECT_EQ(locs(o), (std::vector<std::string>{"https://a.example/",
                                                 "https://b.example/"}))
        << c.data;
    for (const rec& r : o.records) {
      EXPECT_EQ(r.priority.find('\r'), std::string::npos);
      EXPECT_EQ(r.loc.find('\r'), std::string::npos);
    }
  }
}

TEST(RecordReader, EveryFormatReadsALastLineWithoutNewline) {
  for (const auto& c : two_urls) {
    std::string data(c.data);
    data.pop_back();
    const outcome o = read(data, c.format);
    EXPECT_EQ(locs(o), (std::vector<std::string>{"https://a.example/",
                                                 "https://b.example/"}))
        << c.data;
    const outcome crlf = read(replace_all(data, "\n", "\r\n") + "\r", c.format);
    EXPECT_EQ(locs(crlf), locs(o)) << "a last line ending in a bare CR";
  }
}

// --- tsv

TEST(RecordReader, TsvHeaderInAnyOrderAndCase) {
  const outcome o = read(
      " Priority \tLASTMOD\tloc\tChangeFreq\n"
      "0.8\t2024-01-02\thttps://a.example/\tdaily\n",
      input_format::tsv);
  EXPECT_EQ(o.error, "");
  EXPECT_TRUE(o.notes.empty());
  EXPECT_EQ(o.records, (std::vector<rec>{url(2, "https://a.example/",
                                             "2024-01-02", "daily", "0.8")}));
}

TEST(RecordReader, TsvColumnsGivenMeanNoHeader) {
  const outcome o =
      read("https://a.example/\tx\t2024-01-02\n", input_format::tsv,
           {column::loc, column::ignored, column::lastmod});
  EXPECT_EQ(o.records,
            (std::vector<rec>{url(1, "https://a.example/", "2024-01-02")}));
}

// A row with text past the header's cells is rejected (tests/
// hostile_lists_test.cpp): a tab inside a cell moved the cells after it.
TEST(RecordReader, TsvShortRowsLeaveFieldsEmptyAndLongRowsAreRejected) {
  const outcome o = read(
      "loc\tlastmod\tpriority\n"
      "https://a.example/\n"
      "https://b.example/\t2024-01-02\n"
      "https://c.example/\t\t0.1\textra\tmore\n"
      "\t2024-01-02\n"
      "https://d.example/\t\t0.2\t\n",
      input_format::tsv);
  EXPECT_EQ(o.records,
            (std::vector<rec>{
                url(2, "https://a.example/"),
                url(3, "https://b.example/", "2024-01-02"),
                bad(4, "row has 5 cells where the header has 3, and the 2 "
                       "past it hold text (\"extra\", \"more\"): a tab "
                       "inside a cell shifts every cell after it, so the row "
                       "is not read (TSV cannot quote a tab: take it out of "
                       "the cell, or export the file as CSV)"),
                url(5, "", "2024-01-02"),
                url(6, "https://d.example/", "", "", "0.2")}));
}

// The tsv splitter scans 16 bytes at a time: fields of every length, tabs in
// every lane, rows short and long, against the obvious split.
TEST(RecordReader, TsvSplitsLikeTheObviousLoopAtEveryFieldLength) {
  std::mt19937 rng(99);
  const std::vector<column> columns = {column::lastmod, column::ignored,
                                       column::loc, column::priority};
  std::string data;
  std::vector<rec> want;
  for (std::uint64_t line = 1; line <= 3'000; ++line) {
    const std::size_t count = 1 + rng() % 6;  // fields on this row
    std::vector<std::string> fields;
    for (std::size_t f = 0; f < count; ++f) {
      // The first field is never empty, so no row is blank (and skipped).
      std::string text((f == 0 ? 1 : 0) + rng() % 40, 'a');
      for (char& c : text) c = static_cast<char>('a' + rng() % 26);
      fields.push_back(text);
      data += text;
      data += f + 1 < count ? "\t" : "\n";
    }
    auto at = [&](std::size_t i) {
      return i < fields.size() ? fields[i] : std::string();
    };
    // The last column read (priority) runs to the next tab, like the rest.
    rec r = url(line, at(2), at(0), "", at(3));
    want.push_back(r);
  }
  const outcome o = read(data, input_format::tsv, columns);
  ASSERT_EQ(o.records.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    ASSERT_EQ(o.records[i], want[i]) << "row " << i + 1;
}

TEST(RecordReader, TsvKeepsSpacesInFieldsAndSkipsBlankLines) {
  // Values are trimmed by the entry stage, not here.
  const outcome o =
      read("loc\tpriority\n\n \t \n https://a.example/ \t 0.5 \r\n",
           input_format::tsv);
  EXPECT_EQ(
      o.records,
      (std::vector<rec>{url(4, " https://a.example/ ", "", "", " 0.5 ")}));
}

TEST(RecordReader, TsvUnknownColumnsAreOneNoteOnTheHeaderLine) {
  const outcome o =
      read("\ntitle\tloc\tweight\tloc\nT\thttps://a.example/\t3\tx\n",
           input_format::tsv);
  EXPECT_EQ(o.error, "");
  EXPECT_EQ(o.records, (std::vector<rec>{url(3, "https://a.example/")}));
  ASSERT_EQ(o.notes.size(), 2u);
  EXPECT_EQ(o.notes[0].line, 2u);
  EXPECT_EQ(o.notes[0].message,
            "column loc appears twice; only the first is read");
  EXPECT_EQ(o.notes[1].line, 2u);
  EXPECT_EQ(o.notes[1].message,
            "unknown columns \"title\", \"weight\" ignored");
}

TEST(RecordReader, HeaderWithoutLocIsAnErrorNamingFileAndLine) {
  for (const auto format : {input_format::tsv, input_format::csv}) {
    const outcome o = read("\nlastmod\n2024-01-01\n", format);
    EXPECT_TRUE(o.records.empty());
    EXPECT_EQ(o.error,
              std::string("in:2: header has no loc column; its columns, ") +
                  (format == input_format::tsv
                       ? "split at tabs, are "
                       : "split at ',' (the delimiter the header has most "
                         "of), are ") +
                  "\"lastmod\"; to read a column as loc, map it by name: "
                  "`columns` loc=NAME");
  }
  const outcome headerless =
      read("https://a.example/\t2024-01-01\n", input_format::tsv);
  EXPECT_EQ(headerless.error.rfind(
                "in:1: header has no loc column (the first row looks", 0),
            0u)
      << headerless.error;
}

TEST(RecordReader, ColumnListMustNameLocOnce) {
  reader_options options;
  options.format = input_format::tsv;
  options.columns = {column::lastmod};
  auto r = detail::make_reader(std::make_unique<detail::memory_source>(""),
                               "in", options, {});
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.err().message, "in: the column list has no loc column");
  options.columns = {column::loc, column::priority, column::priority};
  auto twice = detail::make_reader(std::make_unique<detail::memory_source>(""),
                                   "in", options, {});
  ASSERT_FALSE(twice.has_value());
  EXPECT_EQ(twice.err().message, "in: the column list names priority twice");
}

// --- csv (RFC 4180)

TEST(RecordReader, CsvQuotesEscapesAndEmbeddedCommas) {
  const outcome o = read(
      "\"loc\",\"Last\"\"mod\",lastmod,priority\n"
      "\"https://a.example/?q=1,2\",x,2024-01-02,\"0.5\"\n"
      "\"https://b.example/\"\"q\"\"\",,,\n"
      "https://c.example/a\"b,,\"\",\n"
      ",,,\n",
      input_format::csv);
  EXPECT_EQ(o.error, "");
  EXPECT_EQ(o.records,
            (std::vector<rec>{
                url(2, "https://a.example/?q=1,2", "2024-01-02", "", "0.5"),
                url(3, "https://b.example/\"q\""),
                url(4, "https://c.example/a\"b"), url(5, "")}));
  ASSERT_EQ(o.notes.size(), 1u);
  EXPECT_EQ(o.notes[0].message, "unknown column \"Last\"mod\" ignored");
}

TEST(RecordReader, CsvQuotedFieldSpansLines) {
  const outcome o = read(
      "loc,lastmod\n"
      "https://a.example/,\"2024\n"
      "-01\r\n"
      "-02\"\n"
      "https://b.example/,\"x\"\"\n"
      "\"\n"
      "https://c.example/,\n",
      input_format::csv);
  EXPECT_EQ(o.error, "");
  EXPECT_EQ(o.records,
            (std::vector<rec>{url(2, "https://a.example/", "2024\n-01\r\n-02"),
                              url(5, "https://b.example/", "x\"\n"),
                              url(7, "https://c.example/")}));
}

TEST(RecordReader, CsvFieldsBeforeAMultiLineFieldSurviveTheNextRead) {
  // The first fields are views into a line the reader has moved past: they
  // must be copied before the buffer is reused (tiny blocks force reuse).
  reader_options options;
  options.format = input_format::csv;
  const std::string data =
      "loc,changefreq,lastmod\nhttps://a.example/,daily,\"2024\n\n-01\"\n";
  for (std::size_t block = 1; block <= 8; ++block) {
    const outcome o = read_with(data, options, {block, 1 << 20});
    EXPECT_EQ(o.records, (std::vector<rec>{url(2, "https://a.example/",
                                               "2024\n\n-01", "daily")}))
        << "block " << block;
  }
}

TEST(RecordReader, CsvUnterminatedQuoteIsAProblemAtTheRecordStart) {
  const outcome o = read(
      "loc\nhttps://a.example/\n\"https://b.example/\nhttps://c.example/\n",
      input_format::csv);
  EXPECT_EQ(o.error, "");
  // The rows the quote took are named: they are not read.
  EXPECT_EQ(o.records,
            (std::vector<rec>{
                url(2, "https://a.example/"),
                bad(3,
                    "unterminated quoted field: the quote runs to the end of "
                    "the input; the quoted field opened on this line took the "
                    "line after it (to line 4), whose rows are not read")}));
}

TEST(RecordReader, CsvTextAfterAClosingQuoteIsAProblemAndReadingGoesOn) {
  const outcome o =
      read("loc,lastmod\n\"https://a.example/\"x,\"y\nhttps://b.example/,\n",
           input_format::csv);
  EXPECT_EQ(o.records, (std::vector<rec>{
                           bad(2, "unexpected character after a closing quote"),
                           url(3, "https://b.example/")}));
}

TEST(RecordReader, CsvBadHeaderIsAnError) {
  const outcome o = read("\"loc\nhttps://a.example/\n", input_format::csv);
  EXPECT_TRUE(o.records.empty());
  EXPECT_EQ(o.error,
            "in:1: header: unterminated quoted field: the quote runs to the "
            "end of the input; the quoted field opened on this line took the "
            "line after it (to line 2), whose rows are not read");
}

TEST(RecordReader, CsvRecordLongerThanTheCapIsOneProblem) {
  reader_options options;
  options.format = input_format::csv;
  const std::string data = "loc\n\"" + std::string(30, 'a') + "\n" +
                           std::string(30, 'b') + "\"\nhttps://c.example/\n";
  const outcome o = read_with(data, options, {4, 40});
  EXPECT_EQ(o.records,
            (std::vector<rec>{
                bad(2,
                    "record longer than 40 bytes; the quoted field opened on "
                    "this line took the line after it (to line 3), whose rows "
                    "are not read"),
                url(4, "https://c.example/")}));
}

TEST(RecordReader, CsvOverlongRecordDoesNotTouchEarlierRecords) {
  // Found by fuzzing: past the cap, the field slots of the previous record
  // (views into a buffer since freed) must not be copied.
  reader_options options;
  options.format = input_format::csv;
  const std::string data = "loc,lastmod\nhttps://a/,2024\n\"" +
                           std::string(30, '1') + "\n" + std::string(20, '2') +
                           "\",\"x\ny\"\nhttps://c/,\n";
  for (std::size_t block = 1; block <= 7; ++block) {
    EXPECT_EQ(read_with(data, options, {block, 40}).records,
              (std::vector<rec>{
                  url(2, "https://a/", "2024"),
                  bad(3,
                      "record longer than 40 bytes; the quoted field opened "
                      "on this line took the 2 lines after it (to line 5), "
                      "whose rows are not read"),
                  url(6, "https://c/")}))
        << "block " << block;
  }
}

// --- jsonl

TEST(RecordReader, JsonlValues) {
  const struct {
    std::string_view line;
    rec want;  // line 1
  } cases[] = {
      {R"({"loc":"https://a.example/","lastmod":"2024-01-02","changefreq":"daily","priority":0.80})",
       url(1, "https://a.example/", "2024-01-02", "daily", "0.80")},
      {R"( { "priority" : "0.5" , "loc" : "x" } )", url(1, "x", "", "", "0.5")},
      {R"({"loc":"x","priority":1})", url(1, "x", "", "", "1")},
      {R"({"loc":"x","priority":-1.5e+3})", url(1, "x", "", "", "-1.5e+3")},
      {R"({"loc":"x","lastmod":null,"priority":null})", url(1, "x")},
      {R"({"loc":"x","title":{"a":[1,2.5,true,false,null,"s\"",{}],"b":[]},"n":-0})",
       url(1, "x")},
      {R"({})", url(1, "")},
      {R"({"loc":"a\"b\\c\/d\b\f\n\r\t"})", url(1, "a\"b\\c/d\b\f\n\r\t")},
      {R"({"loc":"caf\u00e9 \u20AC \ud83d\ude00 \u0041"})",
       url(1, "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 A")},
      {"{\"loc\":\"raw \xC3\xA9 bytes\"}", url(1, "raw \xC3\xA9 bytes")},
      {R"({"loc":"https://a.example/"})"
       "\r",
       url(1, "https://a.example/")},
      {R"({"loc":5})", bad(1, "field loc must be a string")},
      {R"({"loc":"x","lastmod":true})",
       bad(1, "field lastmod must be a string")},
      {R"({"loc":"x","changefreq":["daily"]})",
       bad(1, "field changefreq must be a string")},
      {R"({"loc":"x","priority":{"v":1}})",
       bad(1, "field priority must be a number or a string")},
      {R"({"loc":"x","loc":"y"})", bad(1, "duplicate key loc")},
      {R"({"loc":true,"x":})",
       bad(1, "invalid JSON: unexpected character at column 17")},
      {R"(["https://a.example/"])",
       bad(1, "invalid JSON: the line is not a JSON object")},
      {R"("https://a.example/")",
       bad(1, "invalid JSON: the line is not a JSON object")},
      {R"(https://a.example/)",
       bad(1, "invalid JSON: the line is not a JSON object")},
      {R"({"loc":"x"})"
       " x",
       bad(1, "invalid JSON: unexpected text after the object at column 13")},
      {R"({"loc":"x",})",
       bad(1, "invalid JSON: expected a string key at column 12")},
      {R"({"loc" "x"})",
       bad(1, "invalid JSON: expected ':' after a key at column 8")},
      {R"({"loc":"x")",
       bad(1, "invalid JSON: expected ',' or '}' at column 11")},
      {R"({"loc":"x)",
       bad(1, "invalid JSON: unterminated string at column 10")},
      {"{\"loc\":\"a\tb\"}",
       bad(1, "invalid JSON: control character in a string at column 10")},
      {R"({"loc":"\x"})",
       bad(1, "invalid JSON: invalid escape in a string at column 10")},
      {R"({"loc":"\u12G4"})",
       bad(1, "invalid JSON: invalid \\u escape at column 13")},
      {R"({"loc":"\ud83d"})",
       bad(1, "invalid JSON: unpaired surrogate in \\u escape at column 15")},
      {R"({"loc":"\ude00"})",
       bad(1, "invalid JSON: unpaired surrogate in \\u escape at column 15")},
      {R"({"loc":"\ud83d\u0041"})",
       bad(1, "invalid JSON: unpaired surrogate in \\u escape at column 21")},
      {R"({"priority":01})",
       bad(1, "invalid JSON: expected ',' or '}' at column 14")},
      {R"({"priority":1.})",
       bad(1, "invalid JSON: invalid number at column 15")},
      {R"({"priority":-})",
       bad(1, "invalid JSON: invalid number at column 14")},
      {R"({"loc":nul})", bad(1, "invalid JSON: invalid literal at column 8")},
      {R"({"loc":'x'})",
       bad(1, "invalid JSON: unexpected character at column 8")},
  };
  for (const auto& c : cases) {
    const outcome o = read(std::string(c.line) + "\n", input_format::jsonl);
    EXPECT_EQ(o.error, "");
    EXPECT_EQ(o.records, std::vector<rec>{c.want}) << c.line;
  }
}

TEST(RecordReader, JsonlStringsEndAtTheSameByteAtEveryLength) {
  // Strings are scanned 16 bytes at a time: put what ends a plain run at
  // every offset across two blocks, and bytes that do not end one (0x20,
  // DEL, UTF-8) beside it.
  for (std::size_t n = 0; n < 40; ++n) {
    SCOPED_TRACE(n);
    const std::string a(n, 'a');
    const std::string lines = "{\"loc\":\"" + a + "\"}\n" +                   //
                              "{\"loc\":\"" + a + "\\\"x\"}\n" +              //
                              "{\"loc\":\"" + a + "\\\\\"}\n" +               //
                              "{\"loc\":\"" + a + "\x1F\"}\n" +               //
                              "{\"loc\":\"" + a + " \x7F\xC3\xA9\x1E\"}\n" +  //
                              "{\"loc\":\"" + a + "\n";
    const std::string column = std::to_string(n + 9);
    const outcome o = read(lines, input_format::jsonl);
    EXPECT_EQ(
        o.records,
        (std::vector<rec>{
            url(1, a), url(2, a + "\"x"), url(3, a + "\\"),
            bad(4,
                "invalid JSON: control character in a string at "
                "column " +
                    column),
            bad(5,
                "invalid JSON: control character in a string at "
                "column " +
                    std::to_string(n + 13)),
            bad(6, "invalid JSON: unterminated string at column " + column)}));
  }
}

TEST(RecordReader, JsonlDeepNestingIsAProblemNotACrash) {
  const std::string deep = "{\"x\":" + std::string(100000, '[') +
                           std::string(100000, ']') + "}\n{\"loc\":\"y\"}\n";
  const outcome o = read(deep, input_format::jsonl);
  ASSERT_EQ(o.records.size(), 2u);
  EXPECT_EQ(
      o.records[0].problem.rfind("invalid JSON: values nested too deeply", 0),
      0u);
  EXPECT_EQ(o.records[1], url(2, "y"));
}

TEST(RecordReader, JsonlSkipsBlankLinesAndCountsThem) {
  const outcome o =
      read("\n  \n{\"loc\":\"a\"}\n\r\n{\"loc\":\"b\"}", input_format::jsonl);
  EXPECT_EQ(o.records, (std::vector<rec>{url(3, "a"), url(5, "b")}));
}

// --- long lines

TEST(RecordReader, LineLongerThanOneMibIsOneProblemAndNothingElseIsLost) {
  constexpr std::size_t mib = std::size_t{1} << 20;
  const std::string at_cap = "https://a.example/" + std::string(mib - 18, 'a');
  const std::string over = "https://b.example/" + std::string(mib - 17, 'b');
  ASSERT_EQ(at_cap.size(), mib);
  for (const auto format :
       {input_format::txt, input_format::tsv, input_format::csv}) {
    const std::string header = format == input_format::txt ? "" : "loc\n";
    const outcome o =
        read(header + at_cap + "\r\n" + over + "\nhttps://c.example/\n" + over,
             format);
    const std::uint64_t first = header.empty() ? 1 : 2;
    EXPECT_EQ(o.error, "");
    EXPECT_EQ(o.records,
              (std::vector<rec>{url(first, at_cap),
                                bad(first + 1, "line longer than 1 MiB"),
                                url(first + 2, "https://c.example/"),
                                bad(first + 3, "line longer than 1 MiB")}));
  }
}

TEST(RecordReader, LineCapHoldsAtEveryBlockSize) {
  // Lines of 9, 10 (the cap) and 11 bytes, with and without CR, at EOF too.
  const std::string data =
      "123456789\n1234567890\r\n12345678901\n#"
      "2345678901234\nabc\n1234567890\r\n12345678901";
  const std::vector<rec> want = {url(1, "123456789"),
                                 url(2, "1234567890"),
                                 bad(3, "line longer than 10 bytes"),
                                 url(5, "abc"),
                                 url(6, "1234567890"),
                                 bad(7, "line longer than 10 bytes")};
  reader_options options;
  options.format = input_format::txt;
  for (std::size_t block = 1; block <= 25; ++block) {
    EXPECT_EQ(read_with(data, options, {block, 10}).records, want)
        << "block " << block;
  }
}

TEST(RecordReader, OverlongHeaderIsAnError) {
  reader_options options;
  options.format = input_format::tsv;
  const outcome o = read_with("loc\tlastmod\tpriority\nhttps://a.example/\n",
                              options, {4, 8});
  EXPECT_EQ(o.error, "in:1: header line longer than 8 bytes");
}

// --- block boundaries

TEST(RecordReader, BlockSizesOneToSevenGiveTheSameRecords) {
  const format_case inputs[] = {
      {input_format::txt,
       "\xEF\xBB\xBF# c\r\nhttps://a.example/\r\n\n  b  \nlast"},
      {input_format::tsv,
       "\xEF\xBB\xBFpriority\tLOC\tx\r\n0.5\thttps://a.example/"
       "\t1\r\n\r\n\thttps://b/\n0.1"},
      {input_format::csv,
       "\xEF\xBB\xBF\"loc\",lastmod\r\n\"a,\"\"b\"\"\",\"1\r\n2\"\r\nc,"
       "\"x\"y\n\"d\"\n\"e"},
      {input_format::jsonl,
       "\xEF\xBB\xBF{\"loc\":\"\\ud83d\\ude00\",\"priority\":0.10}\r\n\n[1]\n{"
       "\"loc\":\"\\u00e9\"}"},
  };
  for (const auto& c : inputs) {
    reader_options options;
    options.format = c.format;
    const outcome whole = read_with(c.data, options);
    EXPECT_EQ(whole.error, "");
    EXPECT_GE(whole.records.size(), 3u) << c.data;
    const std::string gz = gzip(c.data);
    for (std::size_t block = 1; block <= 7; ++block) {
      const outcome small = read_with(c.data, options, {block, 1 << 20});
      EXPECT_EQ(small.records, whole.records)
          << "block " << block << ": " << c.data;
      EXPECT_EQ(small.notes.size(), whole.notes.size());
      const outcome zipped = read_with(gz, options, {block, 1 << 20});
      EXPECT_EQ(zipped.records, whole.records) << "gzip, block " << block;
      EXPECT_EQ(zipped.error, "");
    }
  }
}

// --- files, gzip and errors

TEST(RecordReader, ReadsAGzipFile) {
  temp_dir dir;
  const std::string path = dir.write(
      "urls.tsv.gz", gzip("loc\nhttps://a.example/\nhttps://b.example/"));
  const outcome o = read_file(path, input_format::tsv);
  EXPECT_EQ(o.error, "");
  EXPECT_EQ(o.records, (std::vector<rec>{url(2, "https://a.example/"),
                                         url(3, "https://b.example/")}));
}

TEST(RecordReader, ReadsConcatenatedGzipMembers) {
  temp_dir dir;
  const std::string path =
      dir.write("urls.txt.gz",
                gzip("https://a.example/\nhttps://b") + gzip(".example/\n"));
  const outcome o = read_file(path, input_format::txt);
  EXPECT_EQ(o.error, "");
  EXPECT_EQ(locs(o), (std::vector<std::string>{"https://a.example/",
                                               "https://b.example/"}));
}

TEST(RecordReader, TruncatedGzipIsAnErrorNamingTheFile) {
  temp_dir dir;
  std::string lines;
  for (int i = 0; i < 2000; ++i)
    lines += "https://a.example/" + std::to_string(i * 7919) + "\n";
  const std::string gz = gzip(lines);
  const std::string path =
      dir.write("urls.txt.gz", gz.substr(0, gz.size() / 2));
  const outcome o = read_file(path, input_format::txt);
  EXPECT_EQ(o.error.rfind(path + ":", 0), 0u) << o.error;
  EXPECT_NE(o.error.find("gzip data is truncated"), std::string::npos)
      << o.error;
  EXPECT_GT(o.records.size(), 0u);
  EXPECT_LT(o.records.size(), 2000u);
  // The line the data broke off in is not passed on as if it were whole.
  for (const rec& r : o.records) {
    EXPECT_EQ(r.loc,
              "https://a.example/" + std::to_string((r.line - 1) * 7919));
  }
  EXPECT_NE(o.error.find(":" + std::to_string(o.records.size() + 1) + ": "),
            std::string::npos)
      << o.error;
}

TEST(RecordReader, CorruptOrTrailingGzipDataIsAnError) {
  std::string gz = gzip("https://a.example/\n");
  reader_options options;
  const outcome trailing = read_with(gz + "junk", options);
  EXPECT_EQ(trailing.error,
            "in:2: unexpected data after the end of the gzip data");
  EXPECT_EQ(locs(trailing), std::vector<std::string>{"https://a.example/"});
  // The one inflater's rule: what follows a member and is not another one
  // is trailing data, even when it starts with the magic bytes.
  for (const std::string& tail :
       {std::string("\n"), std::string("\x1F\x8Bnot a member")}) {
    const outcome o = read_with(gz + tail, options);
    EXPECT_EQ(o.error, "in:2: unexpected data after the end of the gzip data")
        << tail;
  }
  gz[gz.size() - 5] ^= 0x55;  // the stored length
  const outcome corrupt = read_with(gz, options);
  EXPECT_EQ(corrupt.error.rfind("in:", 0), 0u);
  EXPECT_NE(corrupt.error.find("invalid gzip data"), std::string::npos)
      << corrupt.error;
}

TEST(RecordReader, TwoBytesAreNeededForGzip) {
  const outcome o = read("\x1F", input_format::txt);
  EXPECT_EQ(locs(o), std::vector<std::string>{"\x1F"});
}

TEST(RecordReader, MissingFileIsAnOpenError) {
  temp_dir dir;
  const std::string path = dir.path("missing.txt");
  auto r = record_reader::open(path, reader_options{});
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.err().message,
            "cannot open " + path + ": No such file or directory");
  auto d = record_reader::open(dir.path(""), reader_options{});
  ASSERT_FALSE(d.has_value());
  EXPECT_EQ(d.err().message,
            "cannot open " + dir.path("") + ": Is a directory");
}

// A source whose read fails with EIO after some bytes.
class failing_source final : public detail::byte_source {
 public:
  explicit failing_source(std::string_view data) : data_(data) {}
  std::size_t read(char* dst, std::size_t n, int& err) override {
    if (data_.empty()) {
      err = EIO;
      return 0;
    }
    const std::size_t got = std::min(n, data_.size());
    std::copy_n(data_.data(), got, dst);
    data_.remove_prefix(got);
    return got;
  }

 private:
  std::string_view data_;
};

TEST(RecordReader, ReadErrorStopsReadingAndNamesFileAndLine) {
  reader_options options;
  auto reader =
      detail::make_reader(std::make_unique<failing_source>("a\nb\nhalf-a-l"),
                          "list.txt", options, {3, 1 << 20});
  ASSERT_TRUE(reader.has_value());
  const outcome o = drain(**reader);
  EXPECT_EQ(locs(o), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(o.error, "list.txt:3: read error: Input/output error");
}

TEST(RecordReader, ReadsAPlainFileByPath) {
  temp_dir dir;
  const std::string path =
      dir.write("urls.jsonl", "{\"loc\":\"https://a.example/\"}\n");
  const outcome o = read_file(path, input_format::jsonl);
  EXPECT_EQ(o.records, std::vector<rec>{url(1, "https://a.example/")});
}

}  // namespace
}  // namespace sitemill
