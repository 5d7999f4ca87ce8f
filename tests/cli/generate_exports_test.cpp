// generate from the exports shops and CMSs write (issue 30, "Exports"):
// relative image, video and hreflang URLs, ;-separated spreadsheets,
// duplicates and short rows reported with their lines, dates in several
// formats. Each input is what such a tool writes, not a minimal example.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;

const std::string base = "https://shop.example.com/";

// What the published set is checked against: a set at `base_url`.
set_expectations at(const std::string& base_url) {
  set_expectations e;
  e.base_url = base_url;
  return e;
}

// The <url> of `loc` in the set's sitemaps, as XML text.
std::string url_xml(const published_set& set, const std::string& loc) {
  for (const set_file* f : set.sitemaps()) {
    const std::string needle = "<loc>" + loc + "</loc>";
    const std::size_t at = f->content.find(needle);
    if (at == std::string::npos) continue;
    const std::size_t begin = f->content.rfind("<url>", at);
    const std::size_t end = f->content.find("</url>", at);
    return f->content.substr(begin, end + 6 - begin);
  }
  return {};
}

// A shop's product export (WooCommerce-like): image paths relative to the
// site, one image given as the CDN's absolute URL, hreflang links to the
// German shop as site paths.
TEST(GenerateExports, RelativeImageAndHreflangUrlsOfACsvResolveAgainstTheBase) {
  temp_dir t;
  write_file(t / "products.csv",
             "loc,lastmod,image,image:caption,image2,alternate:en,"
             "alternate:de\n"
             "/en/products/oak-table,2026-10-01,/media/oak-table.jpg,"
             "\"Oak table, oiled\",https://cdn.example.net/oak-2.jpg,"
             "/en/products/oak-table,/de/produkte/eichentisch\n"
             "/de/produkte/eichentisch,2026-10-01,media/oak-table.jpg,,,"
             "/en/products/oak-table,/de/produkte/eichentisch\n");
  auto g = generate_and_check(t / "out", {"--no-gzip", "--base-url", base,
                                          t / "products.csv"},
                              {}, at(base));
  EXPECT_THAT(g.report["warnings"], ::testing::IsEmpty())
      << g.report["warnings"].dump();
  const std::string en = url_xml(g.set, base + "en/products/oak-table");
  EXPECT_THAT(en, HasSubstr("<image:loc>" + base +
                            "media/oak-table.jpg</image:loc>"));
  EXPECT_THAT(en, HasSubstr("<image:loc>https://cdn.example.net/oak-2.jpg"));
  EXPECT_THAT(en, HasSubstr("hreflang=\"de\" href=\"" + base +
                            "de/produkte/eichentisch\""));
  const std::string de = url_xml(g.set, base + "de/produkte/eichentisch");
  // "media/..." is relative to the base's directory, as a relative loc is.
  EXPECT_THAT(de, HasSubstr("<image:loc>" + base +
                            "media/oak-table.jpg</image:loc>"));
  EXPECT_THAT(de, HasSubstr("hreflang=\"en\" href=\"" + base +
                            "en/products/oak-table\""));
}

// A CMS export (JSONL) under a base below the host's root: a video's
// thumbnail and file as site paths, a relative player URL, an alternate as
// a protocol-relative URL.
TEST(GenerateExports, RelativeVideoAndAlternateUrlsOfJsonlResolveAgainstTheBase) {
  temp_dir t;
  const std::string blog = "https://www.example.org/blog/";
  write_file(
      t / "posts.jsonl",
      "{\"loc\": \"grilling\", \"lastmod\": \"2026-09-30T08:00:00Z\", "
      "\"alternates\": {\"en\": \"grilling\", \"fr\": "
      "\"//www.example.org/blog/fr/grillades\"}, \"videos\": [{"
      "\"thumbnail_loc\": \"/uploads/grill-thumb.jpg\", \"title\": "
      "\"Grilling\", \"description\": \"How to grill.\", \"content_loc\": "
      "\"../uploads/grill.mp4\", \"player_loc\": \"player?v=7\"}]}\n"
      "{\"loc\": \"fr/grillades\", \"alternates\": {\"en\": "
      "\"grilling\", \"fr\": \"fr/grillades\"}}\n");
  auto g = generate_and_check(
      t / "out", {"--no-gzip", "--base-url", blog, t / "posts.jsonl"}, {},
      at(blog));
  EXPECT_THAT(g.report["warnings"], ::testing::IsEmpty())
      << g.report["warnings"].dump();
  const std::string post = url_xml(g.set, blog + "grilling");
  EXPECT_THAT(post, HasSubstr("<video:thumbnail_loc>https://www.example.org/"
                              "uploads/grill-thumb.jpg</video:thumbnail_loc>"));
  EXPECT_THAT(post, HasSubstr("<video:content_loc>https://www.example.org/"
                              "uploads/grill.mp4</video:content_loc>"));
  EXPECT_THAT(post, HasSubstr("<video:player_loc>" + blog +
                              "player?v=7</video:player_loc>"));
  EXPECT_THAT(post, HasSubstr("hreflang=\"fr\" href=\"" + blog +
                              "fr/grillades\""));
}


// A German shop's export as LibreOffice writes it: ';' between cells,
// decimal commas, a quoted description holding ';' and a line break,
// CRLF line ends. Read by sniffing, and by --delimiter.
const std::string semicolon_export =
    "Artikelnummer;loc;lastmod;image;image:caption;Preis\r\n"
    "1001;/de/eichentisch;2026-10-01;/media/eichentisch.jpg;\"Eichentisch; "
    "geölt\r\n(2 m)\";\"1.299,00\"\r\n"
    "1002;/de/stuhl;2026-10-02;/media/stuhl.jpg;Stuhl;89,90\r\n";

TEST(GenerateExports, ASemicolonSeparatedExportIsSniffedOrGiven) {
  for (const std::vector<std::string>& flag :
       {std::vector<std::string>{}, {"--delimiter", ";"}}) {
    temp_dir t;
    write_file(t / "artikel.csv", semicolon_export);
    std::vector<std::string> args{"--no-gzip", "--base-url", base,
                                  t / "artikel.csv"};
    args.insert(args.end(), flag.begin(), flag.end());
    auto g = generate_and_check(t / "out", args, {}, at(base));
    EXPECT_EQ(g.report["written"], 2);
    // Only the column sitemill does not know is noted.
    ASSERT_EQ(g.report["warnings"].size(), 1u) << g.report["warnings"].dump();
    EXPECT_THAT(g.report["warnings"][0]["reason"].get<std::string>(),
                HasSubstr("\"Artikelnummer\", \"Preis\" ignored"));
    const std::string tisch = url_xml(g.set, base + "de/eichentisch");
    // The caption's CRLF kept, its CR as a character reference.
    EXPECT_THAT(tisch, HasSubstr("<image:caption>Eichentisch; geölt&#13;\n"
                                 "(2 m)</image:caption>"));
    EXPECT_THAT(tisch, HasSubstr("<lastmod>2026-10-01</lastmod>"));
  }
}

TEST(GenerateExports, AWrongDelimiterIsNamedInTheErrorInTheCliWords) {
  temp_dir t;
  write_file(t / "artikel.csv", semicolon_export);
  const run_result r = run_sitemill({"generate", "--base-url", base, "--out",
                                     t / "out", "--delimiter", ",",
                                     t / "artikel.csv"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("artikel.csv:1: header has no loc column; its "
                               "columns, split at ',' (--delimiter), are"));
  EXPECT_THAT(r.err, HasSubstr("it is one cell holding ';': to split it "
                               "there, give --delimiter ;"));
  const run_result bad = run_sitemill({"generate", "--base-url", base, "--out",
                                       t / "out", "--delimiter", "semicolon",
                                       t / "artikel.csv"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--delimiter takes one character, tab or "
                                 "auto, not \"semicolon\""));
}

// A CMS export cut short by hand: rows lacking cells are written, each with
// a warning naming what it lacks; a quote left open is rejected at its line
// with the rows it took, and the rows after it are still read.
TEST(GenerateExports, ShortRowsAndAnOpenQuoteAreReportedWithTheirLines) {
  temp_dir t;
  write_file(t / "pages.csv",
             "loc,lastmod,changefreq,image,image:caption\n"
             "/about,2026-09-01,monthly,/img/team.jpg,The team\n"
             "/contact,2026-09-02\n"
             "/blog,2026-09-03,daily,/img/blog.jpg,\"Our blog, new\n"
             "/blog/one,2026-09-04,never,/img/1.jpg,\"One\"\n"
             "/blog/two,2026-09-05,never,/img/2.jpg,Two\n");
  auto g = generate_and_check(t / "out", {"--no-gzip", "--base-url", base,
                                          t / "pages.csv"},
                              {}, at(base));
  EXPECT_EQ(g.report["written"], 3);
  ASSERT_EQ(g.report["rejected"].size(), 1u);
  EXPECT_EQ(g.report["rejected"][0]["line"], 4);
  EXPECT_THAT(g.report["rejected"][0]["reason"].get<std::string>(),
              HasSubstr("took the line after it (to line 5), whose rows are "
                        "not read"));
  ASSERT_EQ(g.report["warnings"].size(), 1u) << g.report["warnings"].dump();
  EXPECT_EQ(g.report["warnings"][0]["line"], 3);
  EXPECT_EQ(g.report["warnings"][0]["reason"],
            "row has 2 cells where the header has 5; \"changefreq\", "
            "\"image\", \"image:caption\" are read as empty");
}

// A shop export whose dates come from two systems: "14.05.2026" from the
// ERP, W3C datetimes from the CMS, one in SQL's form.
TEST(GenerateExports, SeveralDateFormatsAreTriedInOrderWithAutoLast) {
  temp_dir t;
  write_file(t / "products.csv",
             "loc,lastmod\n"
             "/a,14.05.2026\n"
             "/b,14.05.2026 09:30\n"
             "/c,2026-05-14T09:30:00+02:00\n"
             "/d,2026-05-14 09:30:00\n"
             "/e,31.02.2026\n"
             "/f,yesterday\n");
  auto g = generate_and_check(
      t / "out",
      {"--no-gzip", "--base-url", base, "--timezone", "+02:00",
       "--date-format", "%d.%m.%Y", "--date-format", "%d.%m.%Y %H:%M",
       "--date-format", "auto", t / "products.csv"},
      {}, at(base));
  EXPECT_THAT(url_xml(g.set, base + "a"), HasSubstr("<lastmod>2026-05-14<"));
  EXPECT_THAT(url_xml(g.set, base + "b"),
              HasSubstr("<lastmod>2026-05-14T09:30:00+02:00<"));
  EXPECT_THAT(url_xml(g.set, base + "c"),
              HasSubstr("<lastmod>2026-05-14T09:30:00+02:00<"));
  EXPECT_THAT(url_xml(g.set, base + "d"),
              HasSubstr("<lastmod>2026-05-14T09:30:00+02:00<"));
  ASSERT_EQ(g.report["warnings"].size(), 2u) << g.report["warnings"].dump();
  EXPECT_EQ(g.report["warnings"][0]["line"], 6);
  EXPECT_THAT(g.report["warnings"][0]["reason"].get<std::string>(),
              HasSubstr("\"31.02.2026\" dropped"));
  EXPECT_EQ(g.report["warnings"][1]["line"], 7);
  EXPECT_THAT(g.report["warnings"][1]["reason"].get<std::string>(),
              HasSubstr("matches none of the --date-format formats"));
}

TEST(GenerateExports, DateFormatsAreCheckedEachAndTogether) {
  temp_dir t;
  write_file(t / "urls.csv", "loc,lastmod\n/a,14.05.2026\n");
  const run_result twice = run_sitemill(
      {"generate", "--base-url", base, "--out", t / "out", "--date-format",
       "auto", "--date-format", "auto", t / "urls.csv"});
  EXPECT_NE(twice.exit_code, 0);
  EXPECT_THAT(twice.err, HasSubstr("--date-format names \"auto\" twice"));
  const run_result bad = run_sitemill(
      {"generate", "--base-url", base, "--out", t / "out", "--date-format",
       "%d.%m.%Y", "--date-format", "%d.%m", t / "urls.csv"});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_THAT(bad.err, HasSubstr("--date-format \"%d.%m\" must name a whole "
                                 "date"));
}

// A shop export lists a product once per category it is in, and a CMS
// export lists a page under its old path too: each duplicate is named with
// its line and the line it repeats, in --json and under -v, in memory and
// past the memory budget (where they are judged on disk).
const std::string category_export =
    "loc,lastmod,category\n"
    "/p/oak-table,2026-10-01,Tables\n"                  // 2
    "/p/oak-chair,2026-10-01,Chairs\n"                  // 3
    "/p/oak-table,2026-10-01,Oak\n"                     // 4: repeats 2
    "https://shop.example.com/p/oak-chair#x,,Sale\n"    // 5: repeats 3
    "/p/lamp,2026-10-02,Lamps\n"                        // 6
    "/p/oak-table,2026-10-01,Sale\n";                   // 7: repeats 2

TEST(GenerateExports, DuplicatesAreListedWithTheLineTheyRepeat) {
  for (const std::string budget : {"16MiB", "0"}) {
    SCOPED_TRACE(budget);
    temp_dir t;
    write_file(t / "products.csv", category_export);
    write_file(t / "more.csv", "loc\n/p/lamp\n");
    auto g = generate_and_check(
        t / "out",
        {"--no-gzip", "--base-url", base, "--memory-budget", budget,
         t / "products.csv", t / "more.csv"},
        {}, at(base));
    EXPECT_EQ(g.report["duplicates"], 4);
    // In input order, except that past the budget those found on disk come
    // after the inputs are read (line 5 repeats a deferred URL; lines 4 and
    // 7 the first, judged in memory).
    nlohmann::json d = g.report["duplicate_records"];
    ASSERT_EQ(d.size(), 4u) << g.report.dump();
    if (budget == "0") std::swap(d[1], d[2]);
    const std::string products = t / "products.csv";
    const std::string more = t / "more.csv";
    const struct {
      std::string input;
      int line;
      std::string url, first_input;
      int first_line;
    } want[] = {
        {products, 4, base + "p/oak-table", products, 2},
        {products, 5, base + "p/oak-chair", products, 3},
        {products, 7, base + "p/oak-table", products, 2},
        {more, 2, base + "p/lamp", products, 6},
    };
    for (std::size_t i = 0; i < 4; ++i) {
      SCOPED_TRACE(i);
      EXPECT_EQ(d[i]["input"], want[i].input);
      EXPECT_EQ(d[i]["line"], want[i].line);
      EXPECT_EQ(d[i]["url"], want[i].url);
      EXPECT_EQ(d[i]["first_input"], want[i].first_input);
      EXPECT_EQ(d[i]["first_line"], want[i].first_line);
    }
  }
}

TEST(GenerateExports, DuplicatesArePrintedUnderVerboseOnly) {
  temp_dir t;
  write_file(t / "products.csv", category_export);
  const std::string products = t / "products.csv";
  const run_result plain = run_sitemill(
      {"generate", "--base-url", base, "--out", t / "a", products});
  EXPECT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_THAT(plain.err, ::testing::Not(HasSubstr("duplicate:")));
  EXPECT_THAT(plain.err, HasSubstr("3 duplicates"));
  const run_result verbose = run_sitemill(
      {"-v", "generate", "--base-url", base, "--out", t / "b", products});
  EXPECT_EQ(verbose.exit_code, 0) << verbose.err;
  EXPECT_THAT(verbose.err,
              HasSubstr(products + ":4: duplicate: " + base +
                        "p/oak-table repeats line 2\n"));
  EXPECT_THAT(verbose.err,
              HasSubstr(products + ":5: duplicate: " + base +
                        "p/oak-chair repeats line 3\n"));
  EXPECT_THAT(verbose.err,
              HasSubstr(products + ":7: duplicate: " + base +
                        "p/oak-table repeats line 2\n"));
}

// The same options from sitemill.toml, as any generate option is read.
TEST(GenerateExports, DelimiterAndDateFormatsComeFromTheConfigFile) {
  temp_dir t;
  write_file(t / "artikel.csv",
             "loc;lastmod\n/de/tisch;14.05.2026\n/de/stuhl;2026-10-02\n");
  write_file(t / "sitemill.toml",
             "[generate]\nbase-url = \"" + base +
                 "\"\nout = \"out\"\nno-gzip = true\ndelimiter = \";\"\n"
                 "date-format = [\"%d.%m.%Y\", \"auto\"]\n");
  run_options in_dir;
  in_dir.cwd = t.path();
  const run_result r = run_sitemill({"generate", "--json", "artikel.csv"}, in_dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr(", 0 warnings,"));
  const std::string xml = read_file(t / "out/sitemap.xml");
  EXPECT_THAT(xml, HasSubstr("<loc>" + base +
                             "de/tisch</loc><lastmod>2026-05-14</lastmod>"));
  EXPECT_THAT(xml, HasSubstr("<loc>" + base +
                             "de/stuhl</loc><lastmod>2026-10-02</lastmod>"));
}

}  // namespace
}  // namespace sitemill::testing
