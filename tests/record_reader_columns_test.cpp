// Tests for the columns of a list input (issue 13): a --columns list parsed
// in order or by header name, tsv/csv header cells read by name, JSONL keys
// read by name, and the header row detected under a column list in order,
// so that a header is never read as a URL.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "sitemill/entry/entry.h"
#include "sitemill/source/record_reader.h"
#include "source/readers.h"

namespace sitemill {
namespace {

using detail::reader_tuning;

// A record copied out of the reader, its extension values as "ITEM FIELD=TEXT".
struct rec {
  std::uint64_t line = 0;
  std::string loc, lastmod, problem;
  std::vector<std::string> values;
  bool operator==(const rec&) const = default;
};

void PrintTo(const rec& r, std::ostream* os) {
  *os << "{line " << r.line << ", loc \"" << r.loc << "\", lastmod \""
      << r.lastmod << "\", problem \"" << r.problem << "\", values";
  for (const auto& v : r.values) *os << " [" << v << "]";
  *os << "}";
}

rec url(std::uint64_t line, std::string loc, std::string lastmod = "",
        std::vector<std::string> values = {}) {
  return rec{line, std::move(loc), std::move(lastmod), "", std::move(values)};
}

struct outcome {
  std::vector<rec> records;
  std::vector<std::string> notes;  // "LINE: message"
  std::string error;
};

outcome read_with(std::string_view data, const reader_options& options,
                  reader_tuning tuning = {}) {
  auto reader = detail::make_reader(
      std::make_unique<detail::memory_source>(data), "in", options, tuning);
  EXPECT_TRUE(reader.has_value()) << (reader ? "" : reader.err().message);
  outcome o;
  if (!reader) return o;
  input_record r;
  while ((*reader)->next(r)) {
    rec& c = o.records.emplace_back();
    c.line = r.line;
    c.loc = std::string(r.loc);
    c.lastmod = std::string(r.lastmod);
    c.problem = std::string(r.problem);
    for (const auto& v : r.extensions) {
      c.values.push_back(std::to_string(v.item) + " " +
                         extension_field_name(extension_fields()[v.field]) +
                         "=" + std::string(v.text));
    }
  }
  EXPECT_FALSE((*reader)->next(r)) << "reading stays finished";
  for (const auto& n : (*reader)->notes())
    o.notes.push_back(std::to_string(n.line) + ": " + n.message);
  o.error = (*reader)->error();
  return o;
}

reader_options options_for(input_format format) {
  reader_options options;
  options.format = format;
  return options;
}

// Reads `data` with the --columns text `spec`.
outcome read(std::string_view data, input_format format, std::string_view spec,
             reader_tuning tuning = {}) {
  auto list = parse_column_list(spec);
  EXPECT_TRUE(list.has_value()) << (list ? "" : list.err().message);
  reader_options options;
  options.format = format;
  if (list) {
    options.columns = list->in_order;
    options.named_columns = list->by_name;
  }
  return read_with(data, options, tuning);
}

// The error make_reader gives for `spec` (which parse_column_list accepts).
std::string open_error(input_format format, std::string_view spec) {
  auto list = parse_column_list(spec);
  EXPECT_TRUE(list.has_value()) << spec;
  if (!list) return {};
  reader_options options;
  options.format = format;
  options.columns = list->in_order;
  options.named_columns = list->by_name;
  auto r = detail::make_reader(std::make_unique<detail::memory_source>(""),
                               "in", options, {});
  return r ? "" : r.err().message;
}

constexpr input_format delimited[] = {input_format::tsv, input_format::csv};

// The same text as tsv (tabs) or csv (commas): tests write commas.
std::string as(input_format format, std::string text) {
  if (format == input_format::tsv)
    for (char& c : text)
      if (c == ',') c = '\t';
  return text;
}

// How a header's error says it was split: at tabs, or at the comma the
// csv sniffer found.
std::string columns_are(input_format format) {
  return format == input_format::tsv
             ? "its columns, split at tabs, are "
             : "its columns, split at ',' (the delimiter the header has most "
               "of), are ";
}

// --- parse_column_list

TEST(ColumnList, ReadsColumnsInOrderWithGaps) {
  auto list = parse_column_list("loc, lastmod,-,,image2:caption");
  ASSERT_TRUE(list.has_value()) << list.err().message;
  EXPECT_TRUE(list->by_name.empty());
  EXPECT_EQ(
      list->in_order,
      (std::vector<column>{column::loc, column::lastmod, column::ignored,
                           column::ignored, *parse_column("image2:caption")}));
}

TEST(ColumnList, ReadsColumnsByHeaderName) {
  auto list = parse_column_list(
      "loc=url, lastmod = Updated At,image2:caption=alt_text,"
      "alternate:de=url_de,image=image_url");
  ASSERT_TRUE(list.has_value()) << list.err().message;
  EXPECT_TRUE(list->in_order.empty());
  EXPECT_EQ(list->by_name, (std::vector<named_column>{
                               {"url", column::loc},
                               {"Updated At", column::lastmod},
                               {"alt_text", *parse_column("image2:caption")},
                               {"url_de", *parse_column("alternate:de")},
                               {"image_url", *parse_column("image")}}));
}

TEST(ColumnList, RefusesUnknownColumnsEmptyNamesAndMixedForms) {
  const struct {
    std::string_view spec;
    std::string_view message_start;
  } rows[] = {
      {"loc,title", "unknown column \"title\""},
      {"loc=url,title=name", "unknown column \"title\""},
      {"loc=", "\"loc=\" names no header column after the ="},
      {"loc=url,lastmod", "a column list is either in order"},
      {"loc,lastmod=updated_at", "a column list is either in order"},
      {"loc=url,-", "a column list is either in order"},
      {"loc=url,", "a column list is either in order"},
  };
  for (const auto& r : rows) {
    auto list = parse_column_list(r.spec);
    ASSERT_FALSE(list.has_value()) << r.spec;
    EXPECT_TRUE(list.err().message.starts_with(r.message_start))
        << r.spec << ": " << list.err().message;
  }
}

TEST(ColumnList, OpenRefusesListsWithoutLocOrWithRepeats) {
  for (const auto format : delimited) {
    EXPECT_EQ(open_error(format, "lastmod=updated_at"),
              "in: the column list has no loc column");
    EXPECT_EQ(open_error(format, "loc=url,loc=link"),
              "in: the column list names loc twice");
    EXPECT_EQ(open_error(format, "loc=url,image=URL"),
              "in: the column list reads \"URL\" twice");
    EXPECT_EQ(open_error(format, "loc=url,image=image_url"), "");
  }
  reader_options both;
  both.format = input_format::csv;
  both.columns = {column::loc};
  both.named_columns = {{"url", column::loc}};
  auto r = detail::make_reader(std::make_unique<detail::memory_source>(""),
                               "in", both, {});
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.err().message,
            "in: the columns are given both in order and by header name");
}

// --- header cells by name

TEST(ColumnsByName, ReadsAnExportsOwnHeaderNamesInAnyOrder) {
  for (const auto format : delimited) {
    const outcome o = read(
        as(format,
           "id,Image_URL , UPDATED_AT,url,title\n"
           "1,https://cdn.example/1.jpg,2024-01-01,https://a.example/1,One\n"
           "2,,2024-01-02,https://a.example/2,Two\n"),
        format, "loc=url,lastmod=updated_at,image=image_url");
    EXPECT_EQ(o.error, "");
    EXPECT_EQ(o.records,
              (std::vector<rec>{url(2, "https://a.example/1", "2024-01-01",
                                    {"0 image:loc=https://cdn.example/1.jpg"}),
                                url(3, "https://a.example/2", "2024-01-02")}));
    EXPECT_TRUE(o.notes.empty())
        << "unmapped columns are ignored quietly: " << o.notes.front();
  }
}

TEST(ColumnsByName, ExtensionColumnsByNameKeepTheirItems) {
  const outcome o = read(
      "alt,link,pic2,pic,de\n"
      "Second,https://a.example/,https://c.example/2.jpg,"
      "https://c.example/1.jpg,https://a.example/de/\n",
      input_format::csv,
      "loc=link,image=pic,image2=pic2,image2:caption=alt,alternate:de=de");
  EXPECT_EQ(o.error, "");
  EXPECT_EQ(o.records,
            (std::vector<rec>{url(2, "https://a.example/", "",
                                  {"0 xhtml:link hreflang=de",
                                   "0 xhtml:link href=https://a.example/de/",
                                   "1 image:loc=https://c.example/1.jpg",
                                   "2 image:loc=https://c.example/2.jpg",
                                   "2 image:caption=Second"})}));
}

TEST(ColumnsByName, AMissingNameEndsReadingNamingTheHeadersCells) {
  for (const auto format : delimited) {
    const outcome o =
        read(as(format, "\nlink,updated_at\nhttps://a.example/,2024-01-01\n"),
             format, "loc=url,lastmod=updated_at,image=image_url");
    EXPECT_TRUE(o.records.empty());
    EXPECT_EQ(o.error,
              "in:2: header has no columns \"url\" (for loc), \"image_url\" "
              "(for image:loc); " +
                  columns_are(format) + "\"link\", \"updated_at\"");
  }
}

TEST(ColumnsByName, JsonlKeysAreReadByName) {
  const outcome o = read(
      "{\"url\": \"https://a.example/1\", \"updated_at\": \"2024-01-01\", "
      "\"title\": \"One\"}\n"
      "{\"url\": \"https://a.example/2\", \"loc\": \"ignored\"}\n"
      "{\"url\": 5}\n"
      "{\"url\": \"https://a.example/3\", \"url\": \"https://a.example/4\"}\n",
      input_format::jsonl, "loc=url,lastmod=updated_at");
  EXPECT_EQ(o.error, "");
  EXPECT_EQ(o.records,
            (std::vector<rec>{
                url(1, "https://a.example/1", "2024-01-01"),
                url(2, "https://a.example/2"),
                {3, "", "", "field \"url\" (read as loc) must be a string", {}},
                {4, "", "", "duplicate key \"url\"", {}},
            }));
  EXPECT_TRUE(o.notes.empty())
      << "other keys are ignored quietly: " << o.notes.front();
}

TEST(ColumnsByName, JsonlKeysCanFeedExtensionFields) {
  const outcome o = read(
      "{\"url\": \"https://a.example/1\", \"image_url\": "
      "\"https://c.example/1.jpg\", \"alt\": \"A \\\"grill\\\"\", "
      "\"images\": [\"https://c.example/0.jpg\"], \"live\": true}\n"
      "{\"url\": \"https://a.example/2\", \"image_url\": null, \"alt\": "
      "\"no image\"}\n"
      "{\"url\": \"https://a.example/3\", \"image_url\": "
      "{\"x\": 1}}\n",
      input_format::jsonl,
      "loc=url,image=image_url,image:caption=alt,video:live=live");
  EXPECT_EQ(o.error, "");
  EXPECT_EQ(o.records,
            (std::vector<rec>{
                url(1, "https://a.example/1", "",
                    {"0 image:loc=https://c.example/0.jpg",
                     "1 image:loc=https://c.example/1.jpg",
                     "1 image:caption=A \"grill\"", "2 video:live=yes"}),
                // A caption alone is an item for the entry stage to refuse,
                // as a CSV row's would be.
                url(2, "https://a.example/2", "", {"0 image:caption=no image"}),
                url(3, "https://a.example/3")}));
  EXPECT_EQ(o.notes,
            (std::vector<std::string>{"3: image:loc dropped: an object where "
                                      "a string or a number was expected"}));
}

// --- a header row under a column list in order

TEST(HeaderDetection, AHeaderWordInTheLocCellIsAHeader) {
  for (const auto format : delimited) {
    for (const std::string_view word :
         {"url", "URL", " Link ", "loc", "href", "permalink", "address"}) {
      const outcome o =
          read(as(format, "id," + std::string(word) + ",x\n1,product/1,y\n"),
               format, "-,loc");
      EXPECT_EQ(o.records, (std::vector<rec>{url(2, "product/1")})) << word;
      ASSERT_EQ(o.notes.size(), 1u) << word;
      EXPECT_EQ(o.notes[0],
                "1: first row taken as a header row, not a URL "
                "(its loc cell is \"" +
                    std::string(detail::trim(word)) + "\")");
    }
  }
}

TEST(HeaderDetection, ATextLocCellAboveAUrlIsAHeader) {
  for (const auto format : delimited) {
    const outcome o = read(as(format,
                              "sku,product link,updated\n"
                              "\n"
                              "1,https://a.example/1,2024-01-01\n"
                              "2,/2,2024-01-02\n"),
                           format, "-,loc,lastmod");
    EXPECT_EQ(o.records,
              (std::vector<rec>{url(3, "https://a.example/1", "2024-01-01"),
                                url(4, "/2", "2024-01-02")}));
    EXPECT_EQ(o.notes,
              (std::vector<std::string>{
                  "1: first row taken as a header row, not a URL (its loc "
                  "cell is \"product link\")"}));
  }
}

TEST(HeaderDetection, FirstRowsThatAreDataStayRecords) {
  const struct {
    std::string_view text;
    std::vector<rec> records;
  } rows[] = {
      // A URL in row 1: data, decided at once.
      {"https://a.example/1,x\nhttps://a.example/2,y\n",
       {url(1, "https://a.example/1"), url(2, "https://a.example/2")}},
      {"/1,x\n", {url(1, "/1")}},
      // Relative paths on both rows: nothing says row 1 is a header.
      {"a.html,x\nb.html,y\n", {url(1, "a.html"), url(2, "b.html")}},
      // Row 1 undecided and alone.
      {"a.html,x\n", {url(1, "a.html")}},
      // A scheme needs "://" and a letter first.
      {"mailto:x,1\n1http://a.example/,2\n",
       {url(1, "mailto:x"), url(2, "1http://a.example/")}},
  };
  for (const auto format : delimited) {
    for (const auto& r : rows) {
      const outcome o = read(as(format, std::string(r.text)), format, "loc");
      EXPECT_EQ(o.records, r.records) << r.text;
      EXPECT_TRUE(o.notes.empty()) << r.text;
      EXPECT_EQ(o.error, "");
    }
  }
}

TEST(HeaderDetection, HoldsRowOneAcrossEveryBlockBoundary) {
  // Row 1 is copied while row 2 is read; tiny blocks make sure neither
  // row's text depends on the buffer it was read from.
  const std::string csv =
      "\"a, \"\"quoted\"\"\nfirst\",https://c.example/1.jpg\n"
      "b.html,https://c.example/2.jpg\n"
      "\"c\nthird\",\n"
      "https://a.example/4,https://c.example/4.jpg\n";
  const std::vector<rec> expected = {
      url(1, "a, \"quoted\"\nfirst", "",
          {"0 image:loc=https://c.example/1.jpg"}),
      url(3, "b.html", "", {"0 image:loc=https://c.example/2.jpg"}),
      url(4, "c\nthird"),
      url(6, "https://a.example/4", "",
          {"0 image:loc=https://c.example/4.jpg"}),
  };
  for (std::size_t block = 1; block <= 24; ++block) {
    const outcome o =
        read(csv, input_format::csv, "loc,image", reader_tuning{block, 64});
    EXPECT_EQ(o.records, expected) << "block " << block;
    EXPECT_TRUE(o.notes.empty());
    const outcome tsv =
        read("name\tpic\nb.html\thttps://c.example/2.jpg\n", input_format::tsv,
             "loc,image", reader_tuning{block, 64});
    EXPECT_EQ(tsv.records,
              (std::vector<rec>{url(1, "name", "", {"0 image:loc=pic"}),
                                url(2, "b.html", "",
                                    {"0 image:loc=https://c.example/2.jpg"})}))
        << "block " << block;
    const outcome header =
        read("name,pic\n\"https://a.example/\",https://c.example/2.jpg\n",
             input_format::csv, "loc,image", reader_tuning{block, 64});
    EXPECT_EQ(header.records,
              (std::vector<rec>{url(2, "https://a.example/", "",
                                    {"0 image:loc=https://c.example/2.jpg"})}))
        << "block " << block;
    EXPECT_EQ(header.notes.size(), 1u);
  }
}

TEST(HeaderDetection, ARowTwoProblemLeavesRowOneARecord) {
  const outcome o = read("name,x\n\"https://a.example/\"oops\n/3\n",
                         input_format::csv, "loc");
  EXPECT_EQ(o.records,
            (std::vector<rec>{
                url(1, "name"),
                {2, "", "", "unexpected character after a closing quote", {}},
                url(3, "/3")}));
  EXPECT_TRUE(o.notes.empty());
}

// --- the error for a header without loc

TEST(HeaderWithoutLoc, SuggestsTheColumnToMapByName) {
  for (const auto format : delimited) {
    // A usual name wins ...
    outcome o = read_with(
        as(format, "sku,url,updated_at\n1,https://a.example/1,2024-01-01\n"),
        options_for(format));
    EXPECT_EQ(o.error,
              "in:1: header has no loc column; " + columns_are(format) +
                  "\"sku\", "
              "\"url\", \"updated_at\"; to read \"url\" as loc, map it by "
              "name: `columns` loc=url");
    // ... else the first column whose next value is a URL.
    o = read_with(as(format, "sku,product_link\n1,https://a.example/1\n"),
                  options_for(format));
    EXPECT_EQ(o.error,
              "in:1: header has no loc column; " + columns_are(format) +
                  "\"sku\", "
              "\"product_link\"; to read \"product_link\" as loc, map it by "
              "name: `columns` loc=product_link");
    // A name with a space is quoted for the shell.
    o = read_with(as(format, "sku,Product Link\n1,https://a.example/1\n"),
                  options_for(format));
    EXPECT_EQ(o.error,
              "in:1: header has no loc column; " + columns_are(format) +
                  "\"sku\", "
              "\"Product Link\"; to read \"Product Link\" as loc, map it by "
              "name: `columns` 'loc=Product Link'");
    // ... and without either, how to name one.
    o = read_with(as(format, "sku,name\n1,x\n"), options_for(format));
    EXPECT_EQ(o.error,
              "in:1: header has no loc column; " + columns_are(format) +
                  "\"sku\", "
              "\"name\"; to read a column as loc, map it by name: `columns` "
              "loc=NAME");
  }
}

}  // namespace
}  // namespace sitemill
