// Tests for the extension values the list readers give (issue 11): JSONL
// nested keys and tsv/csv column names, both named by the one extension
// table. Readers only split: values come out as written, for the entry
// stage to judge.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <ostream>
#include <string>
#include <vector>

#include "sitemill/entry/entry.h"
#include "sitemill/source/record_reader.h"
#include "source/readers.h"

namespace sitemill {
namespace {

// One record as text: its loc and its extension values as
// "ITEM prefix:key=text" (extension_field_name), or its problem.
struct rec {
  std::string loc;
  std::vector<std::string> values;
  std::string problem;
  bool operator==(const rec&) const = default;
};

void PrintTo(const rec& r, std::ostream* os) {
  *os << "{loc \"" << r.loc << "\", problem \"" << r.problem << "\", values";
  for (const auto& v : r.values) *os << " [" << v << "]";
  *os << "}";
}

struct outcome {
  std::vector<rec> records;
  std::vector<std::string> notes;  // "LINE: message"
  std::string error;
};

outcome read(std::string_view data, input_format format,
             std::vector<column> columns = {}, std::size_t block = 1 << 16) {
  reader_options options;
  options.format = format;
  options.columns = std::move(columns);
  auto reader =
      detail::make_reader(std::make_unique<detail::memory_source>(data), "in",
                          options, {block, std::size_t{1} << 20});
  EXPECT_TRUE(reader.has_value()) << (reader ? "" : reader.err().message);
  outcome o;
  if (!reader) return o;
  input_record r;
  while ((*reader)->next(r)) {
    rec& c = o.records.emplace_back();
    c.loc = std::string(r.loc);
    c.problem = std::string(r.problem);
    for (const auto& v : r.extensions) {
      c.values.push_back(std::to_string(v.item) + " " +
                         extension_field_name(extension_fields()[v.field]) +
                         "=" + std::string(v.text));
    }
  }
  for (const auto& n : (*reader)->notes())
    o.notes.push_back(std::to_string(n.line) + ": " + n.message);
  o.error = (*reader)->error();
  return o;
}

std::vector<std::string> values_of(std::string_view line) {
  const outcome o = read(line, input_format::jsonl);
  EXPECT_EQ(o.records.size(), 1u) << line;
  if (o.records.size() != 1) return {};
  EXPECT_EQ(o.records[0].problem, "") << line;
  EXPECT_EQ(o.records[0].loc, "https://a.example/") << line;
  return o.records[0].values;
}

using values = std::vector<std::string>;

// --- JSONL: the shapes of each extension

TEST(RecordReaderJsonl, ReadsEachExtensionShape) {
  const struct {
    std::string_view json;  // the object's members after "loc"
    values want;
  } cases[] = {
      // Images: URL strings, or objects of the image fields.
      {R"("images": ["https://a.example/1.jpg", "https://a.example/2.jpg"])",
       {"0 image:loc=https://a.example/1.jpg",
        "1 image:loc=https://a.example/2.jpg"}},
      {R"("image": "https://a.example/1.jpg")",
       {"0 image:loc=https://a.example/1.jpg"}},
      {R"("images": [{"loc": "https://a.example/1.jpg", "caption": "A cat",
          "title": "Cat", "geo_location": "Rome", "license": "https://l/"}])",
       {"0 image:loc=https://a.example/1.jpg", "0 image:caption=A cat",
        "0 image:title=Cat", "0 image:geo_location=Rome",
        "0 image:license=https://l/"}},
      // Alternates: an object of hreflang to href ...
      {R"("alternates": {"de": "https://a.example/de/", "x-default":
          "https://a.example/"})",
       {"0 xhtml:link hreflang=de", "0 xhtml:link href=https://a.example/de/",
        "1 xhtml:link hreflang=x-default",
        "1 xhtml:link href=https://a.example/"}},
      // ... whose value may be an object with the link's other attributes,
      {R"("alternates": {"de": {"href": "https://a.example/de/",
          "media": "only screen"}})",
       {"0 xhtml:link hreflang=de", "0 xhtml:link href=https://a.example/de/",
        "0 xhtml:link media=only screen"}},
      // ... or a list of link objects, attributes with or without '@'.
      {R"("alternates": [{"hreflang": "fr", "href": "https://a.example/fr/"},
          {"@rel": "amphtml", "@href": "https://a.example/amp/"}])",
       {"0 xhtml:link hreflang=fr", "0 xhtml:link href=https://a.example/fr/",
        "1 xhtml:link rel=amphtml",
        "1 xhtml:link href=https://a.example/amp/"}},
      // News: one object, publication nested as in the XML.
      {R"("news": {"publication": {"name": "Daily", "language": "en"},
          "publication_date": "2026-11-23", "title": "T",
          "keywords": "a, b"})",
       {"0 news:publication.name=Daily", "0 news:publication.language=en",
        "0 news:publication_date=2026-11-23", "0 news:title=T",
        "0 news:keywords=a, b"}},
      // Flat keys of the table work as well.
      {R"("news": {"publication.name": "Daily", "title": "T"})",
       {"0 news:publication.name=Daily", "0 news:title=T"}},
  };
  for (const auto& c : cases) {
    const std::string line =
        R"({"loc": "https://a.example/", )" + std::string(c.json) + "}\n";
    std::string flat = line;
    for (char& ch : flat)
      if (ch == '\n') ch = ' ';
    flat.back() = '\n';
    EXPECT_EQ(values_of(flat), c.want) << flat;
  }
}

TEST(RecordReaderJsonl, ReadsAVideoWithNestedRepeatedAndAttributeFields) {
  const values got = values_of(
      R"({"loc": "https://a.example/", "videos": [{)"
      R"("thumbnail_loc": "https://a.example/t.jpg", "title": "Grill",)"
      R"( "description": "How to", "duration": 600, "rating": 4.5,)"
      R"( "family_friendly": true, "live": false,)"
      R"( "player_loc": {"value": "https://a.example/p", "allow_embed": true},)"
      R"( "restriction": {"relationship": "allow", "value": "IE GB"},)"
      R"( "tag": ["steak", "meat"],)"
      R"( "price": [{"value": "1.99", "currency": "EUR", "type": "rent"},)"
      R"( {"currency": "USD", "value": "2.99"}],)"
      R"( "tvshow": {"show_title": "Cooking", "season_number": 2},)"
      R"( "uploader": "Ann", "uploader@info": "https://a.example/ann"}]})"
      "\n");
  EXPECT_EQ(got, (values{
                     "0 video:thumbnail_loc=https://a.example/t.jpg",
                     "0 video:title=Grill",
                     "0 video:description=How to",
                     "0 video:duration=600",
                     "0 video:rating=4.5",
                     "0 video:family_friendly=yes",
                     "0 video:live=no",
                     "0 video:player_loc=https://a.example/p",
                     "0 video:player_loc allow_embed=yes",
                     // The element's text goes first, whatever the key order.
                     "0 video:restriction=IE GB",
                     "0 video:restriction relationship=allow",
                     "0 video:tag=steak",
                     "0 video:tag=meat",
                     "0 video:price=1.99",
                     "0 video:price currency=EUR",
                     "0 video:price type=rent",
                     "0 video:price=2.99",
                     "0 video:price currency=USD",
                     "0 video:tvshow.show_title=Cooking",
                     "0 video:tvshow.season_number=2",
                     "0 video:uploader=Ann",
                     "0 video:uploader info=https://a.example/ann",
                 }));
}

TEST(RecordReaderJsonl, FlatAttributeKeysFollowTheirElement) {
  // "price@currency" before its price, and after another field: each goes
  // behind its element, where the entry stage looks for it.
  EXPECT_EQ(
      values_of(R"({"loc": "https://a.example/", "video": {)"
                R"("price@currency": "EUR", "price": "1.99",)"
                R"( "tag": "x", "uploader": "Ann",)"
                R"( "restriction": "US", "tag": "y",)"
                R"( "restriction@relationship": "deny"}})"
                "\n"),
      (values{"0 video:price=1.99", "0 video:price currency=EUR",
              "0 video:tag=x", "0 video:uploader=Ann", "0 video:restriction=US",
              "0 video:restriction relationship=deny", "0 video:tag=y"}));
}

TEST(RecordReaderJsonl, ItemsAreNumberedAcrossExtensionsInInputOrder) {
  EXPECT_EQ(
      values_of(R"({"news": {"title": "T"}, "loc": "https://a.example/",)"
                R"( "images": ["https://a.example/1.jpg", {},)"
                R"( null, "https://a.example/2.jpg"],)"
                R"( "alternates": {"de": "https://a.example/de/"}})"
                "\n"),
      (values{"0 news:title=T", "1 image:loc=https://a.example/1.jpg",
              "2 image:loc=https://a.example/2.jpg", "3 xhtml:link hreflang=de",
              "3 xhtml:link href=https://a.example/de/"}));
}

TEST(RecordReaderJsonl, EscapedTextIsDecodedAndStaysValid) {
  // Several decoded values on one line: each keeps its own text.
  EXPECT_EQ(
      values_of(R"({"loc": "https://a.example/", "images": [)"
                R"({"loc": "https://a.example/\u00e9.jpg",)"
                R"( "caption": "say \"hi\"", "title": "a\/b"}],)"
                R"( "alternates": {"d\u0065": "https://a.example/\u0064e/"}})"
                "\n"),
      (values{"0 image:loc=https://a.example/\xC3\xA9.jpg",
              "0 image:caption=say \"hi\"", "0 image:title=a/b",
              "1 xhtml:link hreflang=de",
              "1 xhtml:link href=https://a.example/de/"}));
}

TEST(RecordReaderJsonl, ValuesAreNotJudged) {
  // A bad URL, an unknown language and a number out of range pass through:
  // the entry stage judges them, with the URL's line.
  EXPECT_EQ(values_of(R"({"loc": "https://a.example/", "images": ["ftp://x"],)"
                      R"( "video": {"duration": -5, "title": ""},)"
                      R"( "alternates": {"zz-top": "nope"}})"
                      "\n"),
            (values{"0 image:loc=ftp://x", "1 video:duration=-5",
                    "1 video:title=", "2 xhtml:link hreflang=zz-top",
                    "2 xhtml:link href=nope"}));
}

TEST(RecordReaderJsonl, RecordsWithoutExtensionsHaveNone) {
  const outcome o = read(
      "{\"loc\": \"https://a.example/\", \"images\": [], \"news\": null}\n"
      "{\"loc\": \"https://b.example/\", \"image\": \"https://b.example/1\"}\n"
      "{\"loc\": \"https://c.example/\"}\n"
      "{\"loc\": \"https://d.example/\", \"image\": "
      "\"https://d.example/\u0031\"}\n",
      input_format::jsonl);
  ASSERT_EQ(o.records.size(), 4u);
  EXPECT_TRUE(o.records[0].values.empty());
  EXPECT_EQ(o.records[1].values, (values{"0 image:loc=https://b.example/1"}));
  EXPECT_TRUE(o.records[2].values.empty()) << "nothing left from line 2";
  EXPECT_EQ(o.records[3].values, (values{"0 image:loc=https://d.example/1"}));
  EXPECT_TRUE(o.notes.empty());
}

// --- JSONL: unknown keys and values of the wrong type

TEST(RecordReaderJsonl, UnknownKeysAreNotedOncePerInput) {
  const outcome o = read(
      "{\"loc\": \"https://a.example/\", \"title\": \"A\"}\n"
      "{\"loc\": \"https://b.example/\", \"title\": \"B\", \"weight\": 2}\n"
      "{\"loc\": \"https://c.example/\", \"video\": {\"colour\": 1,"
      " \"price\": {\"value\": \"1\", \"tax\": \"0\"}}}\n"
      "{\"loc\": \"https://d.example/\", \"video\": {\"colour\": 2}}\n"
      "{\"loc\": \"https://e.example/\", \"videos\": {\"tvshow\": "
      "{\"rating\": 2}}}\n",
      input_format::jsonl);
  ASSERT_EQ(o.records.size(), 5u);
  for (const auto& r : o.records) EXPECT_EQ(r.problem, "");
  EXPECT_EQ(o.notes, (std::vector<std::string>{
                         "1: unknown key \"title\" ignored",
                         "2: unknown key \"weight\" ignored",
                         "3: unknown video key \"colour\" ignored",
                         "3: unknown video key \"price@tax\" ignored",
                         "5: unknown video key \"tvshow.rating\" ignored",
                     }));
  EXPECT_EQ(o.records[2].values, (values{"0 video:price=1"}));
}

TEST(RecordReaderJsonl, AValueOfTheWrongTypeIsNotedAndDroppedNotTheUrl) {
  // A number is text as written, for the entry stage to judge ("5" is no
  // URL); true and false are yes and no only where the field is yes/no.
  const outcome o = read(
      "{\"loc\": \"https://a.example/\", \"images\": true}\n"
      "{\"loc\": \"https://b.example/\", \"images\": [\"https://b.example/1\","
      " 7, [\"x\"]]}\n"
      "{\"loc\": \"https://c.example/\", \"video\": {\"title\": {\"x\": 1},"
      " \"duration\": true, \"tag\": [\"a\", [\"b\"]], \"tvshow\": \"x\","
      " \"description\": \"D\"}}\n"
      "{\"loc\": \"https://d.example/\", \"alternates\": {\"de\": false,"
      " \"fr\": [1]}}\n"
      "{\"loc\": \"https://e.example/\", \"news\": \"Daily\"}\n",
      input_format::jsonl);
  ASSERT_EQ(o.records.size(), 5u);
  for (const auto& r : o.records) EXPECT_EQ(r.problem, "");
  EXPECT_EQ(o.records[0].loc, "https://a.example/");
  EXPECT_TRUE(o.records[0].values.empty());
  EXPECT_EQ(o.records[1].values,
            (values{"0 image:loc=https://b.example/1", "1 image:loc=7"}));
  EXPECT_EQ(o.records[2].values,
            (values{"0 video:tag=a", "0 video:description=D"}));
  EXPECT_TRUE(o.records[3].values.empty());
  EXPECT_TRUE(o.records[4].values.empty());
  EXPECT_EQ(o.notes,
            (std::vector<std::string>{
                "1: image:loc dropped: true or false where a string or a "
                "number was expected",
                "2: \"images\" item dropped: a list where a URL or an object "
                "was expected",
                "3: video:title dropped: an object where a string or a number "
                "was expected",
                "3: video:duration dropped: true or false where a string or a "
                "number was expected",
                "3: video:tag dropped: a list where a string or a number was "
                "expected",
                "3: video \"tvshow\" dropped: a string where an object was "
                "expected",
                "4: xhtml:link href dropped: true or false where a string or a "
                "number was expected",
                "4: xhtml:link href dropped: a list where a string or a number "
                "was expected",
                "5: \"news\" item dropped: a string where an object was "
                "expected",
            }));
}

TEST(RecordReaderJsonl, WrongTypeNotesStopAfterAHundredThenOneCountsThemAll) {
  std::string data;
  for (int i = 0; i < 150; ++i)
    data += "{\"loc\": \"https://a.example/\", \"news\": 1}\n";
  const outcome o = read(data, input_format::jsonl);
  EXPECT_EQ(o.records.size(), 150u);
  ASSERT_EQ(o.notes.size(), 101u);
  EXPECT_EQ(o.notes.back(),
            "150: 150 extension values in all were of the wrong JSON type "
            "(lines 1 to 150); they were dropped; only the first 100 are "
            "noted");
}

TEST(RecordReaderJsonl, InvalidJsonInsideAnExtensionIsALineProblem) {
  const outcome o = read(
      "{\"loc\": \"https://a.example/\", \"extra\": 1, \"images\": [\"x\" }\n"
      "{\"loc\": \"https://b.example/\", \"video\": {\"title\": tru}}\n"
      "{\"loc\": \"https://c.example/\", \"extra\": 2}\n",
      input_format::jsonl);
  ASSERT_EQ(o.records.size(), 3u);
  EXPECT_EQ(o.records[0].problem,
            "invalid JSON: expected ',' or ']' at column 58");
  EXPECT_EQ(o.records[1].problem, "invalid JSON: invalid literal at column 50");
  EXPECT_TRUE(o.records[0].values.empty());
  // The unknown key of a line that did not parse is noted where it next
  // appears on a line that did.
  EXPECT_EQ(o.notes,
            (std::vector<std::string>{"3: unknown key \"extra\" ignored"}));
}

TEST(RecordReaderJsonl, ExtensionsReadTheSameAcrossBlockBoundaries) {
  std::string data;
  for (int i = 0; i < 40; ++i) {
    data += "{\"loc\": \"https://a.example/" + std::to_string(i) +
            "\", \"images\": [{\"loc\": \"https://a.example/\\u0069.jpg\","
            " \"caption\": \"c" +
            std::to_string(i) + "\"}]}\n";
  }
  const outcome whole = read(data, input_format::jsonl);
  const outcome small = read(data, input_format::jsonl, {}, 3);
  ASSERT_EQ(whole.records.size(), 40u);
  EXPECT_EQ(small.records, whole.records);
  EXPECT_EQ(
      whole.records[7].values,
      (values{"0 image:loc=https://a.example/i.jpg", "0 image:caption=c7"}));
}

// --- column names

TEST(RecordReaderColumns, NamesFromTheExtensionTable) {
  const struct {
    std::string_view name;
    std::string_view canonical;  // column_name(); "" when unknown
  } cases[] = {
      {"loc", "loc"},
      {" LastMod ", "lastmod"},
      {"image", "image:loc"},
      {"Image2", "image2:loc"},
      {"image:caption", "image:caption"},
      {"image3:title", "image3:title"},
      {"image:license", "image:license"},
      {"alternate:de", "alternate:de"},
      {"alternate:x-default", "alternate:x-default"},
      {"alternate:de-CH", "alternate:de-CH"},
      {"hreflang:fr", "alternate:fr"},
      {"alternate2:href", "alternate2:href"},
      {"alternate:hreflang", "alternate:hreflang"},
      {"alternate:media", "alternate:media"},
      {"news:title", "news:title"},
      {"news:publication.name", "news:publication.name"},
      {"news:name", "news:publication.name"},
      {"news:language", "news:publication.language"},
      {"news:publication_date", "news:publication_date"},
      {"video:thumbnail_loc", "video:thumbnail_loc"},
      {"VIDEO:Title", "video:title"},
      {"video:show_title", "video:tvshow.show_title"},
      {"video:price@currency", "video:price@currency"},
      {"video2:tag", "video2:tag"},
      {"title", ""},
      {"image0", ""},
      {"image02", ""},
      {"image:", ""},
      {"image:cat", ""},
      {"video", ""},
      {"alternate", ""},
      {"alternate2:de", ""},
      {"alternate:d e", ""},
      {"news:date", ""},
      {"video:relationship", ""},
  };
  for (const auto& c : cases) {
    const auto col = parse_column(c.name);
    if (c.canonical.empty()) {
      EXPECT_FALSE(col.has_value()) << c.name;
      continue;
    }
    ASSERT_TRUE(col.has_value()) << c.name;
    EXPECT_EQ(column_name(*col), c.canonical) << c.name;
    EXPECT_EQ(parse_column(column_name(*col)), col) << c.name;
  }
}

// --- csv and tsv

TEST(RecordReaderCsv, ColumnsFillItemsAndEmptyCellsAreAbsent) {
  const outcome o = read(
      "loc,image,image:caption,image2,image2:title,alternate:de,"
      "alternate:x-default,news:title,news:name,news:language,"
      "news:publication_date\n"
      "https://a.example/,https://a.example/1.jpg,\"A, cat\","
      "https://a.example/2.jpg,Two,https://a.example/de/,https://a.example/,"
      "T,Daily,en,2026-11-23\n"
      "https://b.example/,,,https://b.example/2.jpg,,,  ,,,,\n"
      "https://c.example/" + std::string(10, ',') + "\n",
      input_format::csv);
  EXPECT_EQ(o.error, "");
  EXPECT_TRUE(o.notes.empty());
  ASSERT_EQ(o.records.size(), 3u);
  EXPECT_EQ(
      o.records[0].values,
      (values{"0 xhtml:link hreflang=de",
              "0 xhtml:link href=https://a.example/de/",
              "1 xhtml:link hreflang=x-default",
              "1 xhtml:link href=https://a.example/",
              "2 image:loc=https://a.example/1.jpg", "2 image:caption=A, cat",
              "3 image:loc=https://a.example/2.jpg", "3 image:title=Two",
              "4 news:publication.name=Daily", "4 news:publication.language=en",
              "4 news:publication_date=2026-11-23", "4 news:title=T"}));
  // A row without the first image has only the second; blank is empty.
  EXPECT_EQ(o.records[1].values,
            (values{"0 image:loc=https://b.example/2.jpg"}));
  EXPECT_TRUE(o.records[2].values.empty());
}

TEST(RecordReaderCsv, TsvReadsTheSameColumns) {
  const outcome o = read(
      "loc\tvideo:title\tvideo:thumbnail_loc\tvideo:description\t"
      "video:content_loc\n"
      "https://a.example/\tGrill\thttps://a.example/t.jpg\tHow to\t"
      "https://a.example/v.mp4\n",
      input_format::tsv);
  ASSERT_EQ(o.records.size(), 1u);
  EXPECT_EQ(o.records[0].values,
            (values{"0 video:thumbnail_loc=https://a.example/t.jpg",
                    "0 video:title=Grill", "0 video:description=How to",
                    "0 video:content_loc=https://a.example/v.mp4"}));
}

TEST(RecordReaderCsv, RepeatableFieldsTakeSeveralColumnsPairedWithAttributes) {
  const outcome o = read(
      "video:price@currency,loc,video:price,video:tag,video:price,"
      "video:price@currency,video:tag\n"
      "EUR,https://a.example/,1.99,a,2.99,USD,b\n",
      input_format::csv);
  EXPECT_TRUE(o.notes.empty());
  ASSERT_EQ(o.records.size(), 1u);
  EXPECT_EQ(o.records[0].values,
            (values{"0 video:tag=a", "0 video:tag=b", "0 video:price=1.99",
                    "0 video:price currency=EUR", "0 video:price=2.99",
                    "0 video:price currency=USD"}));
}

TEST(RecordReaderCsv, RepeatedAndUnknownColumnsAreNotedOnce) {
  const outcome o = read(
      "loc,image,Image,alternate:de,alternate:DE,title,image:cat\n"
      "https://a.example/,https://a.example/1.jpg,x,https://a.example/de/,y,"
      "T,z\n"
      "https://b.example/,,x,,y,T,z\n",
      input_format::csv);
  EXPECT_EQ(o.notes,
            (std::vector<std::string>{
                "1: column image:loc appears twice; only the first is read",
                "1: column alternate:DE appears twice; only the first is read",
                "1: unknown columns \"title\", \"image:cat\" ignored"}));
  ASSERT_EQ(o.records.size(), 2u);
  EXPECT_EQ(o.records[0].values,
            (values{"0 xhtml:link hreflang=de",
                    "0 xhtml:link href=https://a.example/de/",
                    "1 image:loc=https://a.example/1.jpg"}));
  EXPECT_TRUE(o.records[1].values.empty());
}

TEST(RecordReaderCsv, ColumnListNamesExtensionColumns) {
  const outcome o = read(
      "https://a.example/,https://a.example/1.jpg,Cat\n", input_format::csv,
      {column::loc, *parse_column("image"), *parse_column("image:caption")});
  ASSERT_EQ(o.records.size(), 1u);
  EXPECT_EQ(o.records[0].values, (values{"0 image:loc=https://a.example/1.jpg",
                                         "0 image:caption=Cat"}));

  reader_options options;
  options.format = input_format::csv;
  options.columns = {column::loc, *parse_column("image2"),
                     *parse_column("IMAGE2:loc")};
  auto twice = detail::make_reader(std::make_unique<detail::memory_source>(""),
                                   "in", options, {});
  ASSERT_FALSE(twice.has_value());
  EXPECT_EQ(twice.err().message, "in: the column list names image2:loc twice");
  options.columns = {column::loc, *parse_column("video:tag"),
                     *parse_column("video:tag")};
  EXPECT_TRUE(detail::make_reader(std::make_unique<detail::memory_source>(""),
                                  "in", options, {})
                  .has_value())
      << "a repeatable field may have several columns";
}

TEST(RecordReaderCsv, QuotedMultiLineCellsKeepTheirExtensionText) {
  const outcome o = read(
      "loc,image,image:caption\n"
      "https://a.example/,https://a.example/1.jpg,\"two\nlines\"\n"
      "https://b.example/,https://b.example/1.jpg,\"say \"\"hi\"\"\"\n",
      input_format::csv, {}, 5);
  ASSERT_EQ(o.records.size(), 2u);
  EXPECT_EQ(o.records[0].values, (values{"0 image:loc=https://a.example/1.jpg",
                                         "0 image:caption=two\nlines"}));
  EXPECT_EQ(o.records[1].values, (values{"0 image:loc=https://b.example/1.jpg",
                                         "0 image:caption=say \"hi\""}));
}

// --- docs

TEST(RecordReaderDocs, InputsGuideNamesEveryFieldOfTheTable) {
  std::ifstream in(std::string(SITEMILL_SOURCE_DIR) + "/docs/inputs.md");
  const std::string doc{std::istreambuf_iterator<char>(in), {}};
  ASSERT_FALSE(doc.empty());
  for (const extension_field& f : extension_fields()) {
    std::string_view key = f.key;
    if (key.front() == '@') key.remove_prefix(1);
    const std::size_t at = key.find('@');
    const bool named =
        doc.find("`" + std::string(key) + "`") != std::string::npos ||
        (at != std::string_view::npos &&
         doc.find("`" + std::string(key.substr(at)) + "`") !=
             std::string::npos);
    EXPECT_TRUE(named) << f.key << " is not in docs/inputs.md";
  }
}

}  // namespace
}  // namespace sitemill
