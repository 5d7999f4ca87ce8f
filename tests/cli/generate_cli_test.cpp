// End-to-end tests of `sitemill generate`: inputs, URL normalisation and
// rejection, escaping, fields, duplicates, reporting and exit codes. Every
// published set is read back and validated against the bundled XSDs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

constexpr std::string_view utf8_bom = "\xEF\xBB\xBF";

// The diagnostic lines of a run's stderr: FILE:LINE: rejected|warning: reason.
std::vector<std::string> diagnostics(const std::string& err) {
  static const std::regex re(R"(^.+:\d+: (rejected|warning): .*$)");
  std::vector<std::string> out;
  for (auto& line : split_lines(err))
    if (std::regex_match(line, re)) out.push_back(line);
  return out;
}

bool has_line_starting(const std::string& text, const std::string& prefix) {
  for (const auto& line : split_lines(text))
    if (line.starts_with(prefix)) return true;
  return false;
}

// The first rejected/warnings entry of a report for `line`, or null.
const json* issue_at(const json& report, const char* kind, std::uint64_t line) {
  for (const auto& j : report[kind])
    if (j.value("line", std::uint64_t{0}) == line) return &j;
  return nullptr;
}

// --- inputs ------------------------------------------------------------------

TEST(GenerateCli, ReadsTxtSkippingCommentsAndBlankLines) {
  temp_dir t;
  write_file(t / "urls.txt",
             "# the shop\n"
             "\n"
             "https://www.example.com/a\n"
             "   \n"
             "# more\n"
             "/b\n"
             "\n");
  auto g = generate_and_check(t / "out", {t / "urls.txt"});
  EXPECT_EQ(all_locs(g.set),
            (std::vector<std::string>{"https://www.example.com/a",
                                      "https://www.example.com/b"}));
  EXPECT_EQ(g.report["records"], 2)
      << "comments and blank lines are not records";
  EXPECT_TRUE(g.report["rejected"].empty());
  EXPECT_TRUE(g.report["warnings"].empty());
}

TEST(GenerateCli, ReadsTsvWithTheHeaderColumnsInAnyOrder) {
  struct row {
    const char* header;
    const char* data;
  };
  const row rows[] = {
      {"loc\tlastmod\tchangefreq\tpriority", "/x\t2024-05-06\tweekly\t0.8"},
      {"priority\tchangefreq\tlastmod\tloc", "0.8\tweekly\t2024-05-06\t/x"},
      {"lastmod\tloc\tpriority\tchangefreq", "2024-05-06\t/x\t0.8\tweekly"},
      {"CHANGEFREQ\tPriority\tLoc\tLastMod", "weekly\t0.8\t/x\t2024-05-06"},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(r.header);
    temp_dir t;
    write_file(t / "urls.tsv", std::string(r.header) + "\n" + r.data + "\n");
    auto g = generate_and_check(t / "out", {t / "urls.tsv"});
    auto entries = all_entries(g.set);
    ASSERT_EQ(entries.size(), 1u);
    EXPECT_EQ(entries[0], (xml_entry{{"loc", "https://www.example.com/x"},
                                     {"lastmod", "2024-05-06"},
                                     {"changefreq", "weekly"},
                                     {"priority", "0.8"}}));
  }
}

TEST(GenerateCli, ReadsCsvWithQuotedFieldsAndCountsLinesOfMultiLineRecords) {
  temp_dir t;
  const std::string in = t / "urls.csv";
  write_file(in,
             "loc,lastmod\n"
             "\"https://www.example.com/a,b\",2024-01-01\n"
             "\"https://www.example.com/q?x=\"\"y\"\"\",\n"
             "\"/multi\nline\",\n"  // lines 4-5: one record
             "ftp://www.example.com/f,\n");
  auto g = generate_and_check(t / "out", {in});
  auto entries = all_entries(g.set);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0], (xml_entry{{"loc", "https://www.example.com/a,b"},
                                   {"lastmod", "2024-01-01"}}));
  EXPECT_EQ(entries[1]["loc"], "https://www.example.com/q?x=%22y%22");
  // The record starting on line 4 spans two lines, so the ftp URL is on line 6.
  ASSERT_EQ(g.report["rejected"].size(), 2u);
  EXPECT_EQ(g.report["rejected"][0]["line"], 4);
  EXPECT_EQ(g.report["rejected"][1]["line"], 6);
  EXPECT_TRUE(has_line_starting(g.run.err, in + ":6: rejected: "));
}

TEST(GenerateCli, ReadsHeaderlessTsvAndCsvWhenColumnsAreNamed) {
  temp_dir t;
  write_file(t / "h.tsv",
             "https://www.example.com/a\t2024-01-01\n/b\t2024-01-02\n");
  write_file(t / "h.csv", "ignored,\"/c\",weekly\n");
  // Without --columns the first row is taken for a header and has no loc.
  auto plain =
      run_sitemill({"generate", "--base-url", "https://www.example.com/",
                    "--out", t / "none", t / "h.tsv"});
  EXPECT_EQ(plain.exit_code, 2);
  EXPECT_THAT(plain.err, HasSubstr("--columns"));
  EXPECT_TRUE(list_files(t / "none").empty());

  auto tsv =
      generate_and_check(t / "tsv", {"--columns", "loc,lastmod", t / "h.tsv"});
  auto entries = all_entries(tsv.set);
  ASSERT_EQ(entries.size(), 2u) << "the first row is data";
  EXPECT_EQ(entries[0], (xml_entry{{"loc", "https://www.example.com/a"},
                                   {"lastmod", "2024-01-01"}}));
  auto csv = generate_and_check(t / "csv",
                                {"--columns", "-,loc,changefreq", t / "h.csv"});
  entries = all_entries(csv.set);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0], (xml_entry{{"loc", "https://www.example.com/c"},
                                   {"changefreq", "weekly"}}));
}

TEST(GenerateCli, ReadsJsonlAndNdjson) {
  for (const char* name : {"urls.jsonl", "urls.ndjson"}) {
    SCOPED_TRACE(name);
    temp_dir t;
    const std::string in = t / name;
    write_file(
        in,
        "{\"loc\":\"/j1\",\"lastmod\":\"2024-05-05\",\"priority\":\"0.3\"}\n"
        "\n"
        "{\"changefreq\":\"daily\",\"loc\":\"https://www.example.com/j2\"}\n"
        "{not json\n"
        "{\"loc\":\"/j3\",\"extra\":[1,2]}\n");
    auto g = generate_and_check(t / "out", {in});
    auto entries = all_entries(g.set);
    ASSERT_EQ(entries.size(), 3u);
    EXPECT_EQ(entries[0], (xml_entry{{"loc", "https://www.example.com/j1"},
                                     {"lastmod", "2024-05-05"},
                                     {"priority", "0.3"}}));
    EXPECT_EQ(entries[1], (xml_entry{{"loc", "https://www.example.com/j2"},
                                     {"changefreq", "daily"}}));
    EXPECT_EQ(entries[2]["loc"], "https://www.example.com/j3");
    ASSERT_EQ(g.report["rejected"].size(), 1u);
    EXPECT_EQ(g.report["rejected"][0]["line"], 4);
    EXPECT_EQ(g.report["rejected"][0]["input"], in);
  }
}

TEST(GenerateCli, ReadsStdinGivenAsDash) {
  {
    temp_dir t;
    run_options o;
    o.stdin_data = "https://www.example.com/s1\nftp://x.example.com/\n/s2\n";
    auto g = generate_and_check(t / "out", {"-"}, o);
    EXPECT_EQ(all_locs(g.set),
              (std::vector<std::string>{"https://www.example.com/s1",
                                        "https://www.example.com/s2"}));
    // Diagnostics name stdin in a way a user recognises.
    EXPECT_TRUE(has_line_starting(g.run.err, "<stdin>:2: rejected: "))
        << g.run.err;
    ASSERT_EQ(g.report["rejected"].size(), 1u);
    EXPECT_EQ(g.report["rejected"][0]["input"], "<stdin>");
  }
  {
    temp_dir t;
    run_options o;
    o.stdin_data = "{\"loc\":\"/j\",\"changefreq\":\"never\"}\n";
    auto g = generate_and_check(t / "out", {"--input-format", "jsonl", "-"}, o);
    auto entries = all_entries(g.set);
    ASSERT_EQ(entries.size(), 1u);
    EXPECT_EQ(entries[0], (xml_entry{{"loc", "https://www.example.com/j"},
                                     {"changefreq", "never"}}));
  }
}

TEST(GenerateCli, AcceptsBomCrlfAndAMissingFinalNewlineInEveryFormat) {
  struct row {
    const char* name;
    std::string text;  // BOM, CRLF, the last line unterminated
  };
  const row rows[] = {
      {"u.txt", std::string(utf8_bom) + "https://www.example.com/a\r\n/b"},
      {"u.tsv",
       std::string(utf8_bom) + "loc\tlastmod\r\n/a\t\r\n/b\t2024-01-02"},
      {"u.csv",
       std::string(utf8_bom) + "loc,lastmod\r\n/a,\r\n\"/b\",2024-01-02"},
      {"u.jsonl",
       std::string(utf8_bom) +
           "{\"loc\":\"/a\"}\r\n{\"loc\":\"/b\",\"lastmod\":\"2024-01-02\"}"},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(r.name);
    temp_dir t;
    write_file(t / r.name, r.text);
    auto g = generate_and_check(t / "out", {t / r.name});
    auto entries = all_entries(g.set);
    ASSERT_EQ(entries.size(), 2u);
    // A BOM kept would be percent-encoded into the first loc, a CR kept would
    // reject the URL or spoil the lastmod on the last line.
    EXPECT_EQ(entries[0]["loc"], "https://www.example.com/a");
    EXPECT_EQ(entries[1]["loc"], "https://www.example.com/b");
    if (std::string_view(r.name) != "u.txt") {
      EXPECT_EQ(entries[1]["lastmod"], "2024-01-02");
    }
    EXPECT_TRUE(g.report["rejected"].empty()) << g.run.err;
    EXPECT_TRUE(g.report["warnings"].empty()) << g.run.err;
  }
}

TEST(GenerateCli, InputFormatOverridesTheExtension) {
  temp_dir t;
  write_file(t / "urls.list", "https://www.example.com/l\n");
  auto unknown =
      run_sitemill({"generate", "--base-url", "https://www.example.com/",
                    "--out", t / "out", t / "urls.list"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_THAT(unknown.err, HasSubstr("--input-format"));
  EXPECT_TRUE(list_files(t / "out").empty());

  auto txt =
      generate_and_check(t / "out", {"--input-format", "txt", t / "urls.list"});
  EXPECT_EQ(all_locs(txt.set),
            (std::vector<std::string>{"https://www.example.com/l"}));

  // A .txt file that holds CSV is read as CSV when told so.
  temp_dir t2;
  write_file(t2 / "export.txt", "lastmod,loc\n2024-03-04,/c\n");
  auto csv = generate_and_check(t2 / "out",
                                {"--input-format", "csv", t2 / "export.txt"});
  auto entries = all_entries(csv.set);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0], (xml_entry{{"loc", "https://www.example.com/c"},
                                   {"lastmod", "2024-03-04"}}));
}

TEST(GenerateCli, ReadsGzippedInputs) {
  temp_dir t;
  write_file(t / "a.txt.gz", gzip("https://www.example.com/g1\n/g2\n"));
  // Detected by the magic bytes, not the name.
  write_file(t / "b.jsonl", gzip("{\"loc\":\"/g3\",\"priority\":\"1\"}\n"));
  auto g = generate_and_check(t / "out", {t / "a.txt.gz", t / "b.jsonl"});
  auto entries = all_entries(g.set);
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0]["loc"], "https://www.example.com/g1");
  EXPECT_EQ(entries[1]["loc"], "https://www.example.com/g2");
  EXPECT_EQ(entries[2], (xml_entry{{"loc", "https://www.example.com/g3"},
                                   {"priority", "1.0"}}));

  temp_dir t2;
  run_options o;
  o.stdin_data = gzip("/from-stdin\n");
  auto s = generate_and_check(t2 / "out", {"-"}, o);
  EXPECT_EQ(all_locs(s.set),
            (std::vector<std::string>{"https://www.example.com/from-stdin"}));
}

// --- normalisation and rejection ---------------------------------------------

// RFC 3986 section 6 normalisation, end to end (one input line per case).
TEST(GenerateCli, NormalisesUrlsBeforeWritingThem) {
  struct row {
    std::string in;
    std::string want;
  };
  const std::vector<row> rows = {
      {"/rel/a", "https://www.example.com/rel/a"},
      {"rel/b", "https://www.example.com/rel/b"},
      {"HTTPS://WWW.EXAMPLE.COM/Case", "https://www.example.com/Case"},
      {"https://www.example.com:443/port", "https://www.example.com/port"},
      {"https://www.example.com:/empty-port",
       "https://www.example.com/empty-port"},
      {"https://www.example.com/d/./e/../f", "https://www.example.com/d/f"},
      {"/g/h/../../i", "https://www.example.com/i"},
      {"https://www.example.com/../above-root",
       "https://www.example.com/above-root"},
      {"https://www.example.com/j/k/..", "https://www.example.com/j/"},
      {"https://www.example.com/\xC3\xBC"
       "ber stra\xC3\x9F"
       "e",
       "https://www.example.com/%C3%BCber%20stra%C3%9Fe"},
      {"https://www.example.com/q?x=\"<a>\"",
       "https://www.example.com/q?x=%22%3Ca%3E%22"},
      {"https://www.example.com/already%20encoded",
       "https://www.example.com/already%20encoded"},
      {"https://www.example.com/lower%c3%a4",
       "https://www.example.com/lower%C3%A4"},
      {"https://www.example.com/%41%7e", "https://www.example.com/A~"},
      {"https://www.example.com/100%", "https://www.example.com/100%25"},
      {"  https://www.example.com/trimmed  ",
       "https://www.example.com/trimmed"},
      {"https://www.example.com/frag#section", "https://www.example.com/frag"},
      {"https://www.example.com?query", "https://www.example.com/?query"},
  };
  temp_dir t;
  std::string text;
  std::vector<std::string> want;
  for (const auto& r : rows) {
    text += r.in + "\n";
    want.push_back(r.want);
  }
  write_file(t / "urls.txt", text);
  auto g = generate_and_check(t / "out", {t / "urls.txt"});
  EXPECT_EQ(all_locs(g.set), want);
  EXPECT_TRUE(g.report["rejected"].empty()) << g.run.err;
}

TEST(GenerateCli, ConvertsInternationalHostsToPunycode) {
  temp_dir t;
  write_file(t / "urls.txt",
             "https://B\xC3\x9C"
             "CHER.example/k\n"
             "/rel\n"
             "https://xn--bcher-kva.example/already\n");
  set_expectations e;
  e.base_url = "https://xn--bcher-kva.example/";
  auto g = generate_and_check(t / "out",
                              {"--base-url",
                               "https://b\xC3\xBC"
                               "cher.example/",
                               t / "urls.txt"},
                              {}, e);
  EXPECT_EQ(all_locs(g.set), (std::vector<std::string>{
                                 "https://xn--bcher-kva.example/k",
                                 "https://xn--bcher-kva.example/rel",
                                 "https://xn--bcher-kva.example/already"}));
}

// Each class of refused URL, with the FILE:LINE diagnostic on stderr and the
// same in --json. The base has a path so the location rule has a directory.
TEST(GenerateCli, RejectsEachBadUrlClassNamingFileAndLine) {
  const std::string base = "https://www.example.com/shop/";
  struct row {
    std::string in;
    const char* reason;  // a part of the reason that names the class
  };
  const std::string at_limit = base + std::string(2047 - base.size(), 'a');
  const std::vector<row> rows = {
      {"ftp://www.example.com/shop/f", "not http or https"},
      {"mailto:someone@example.com", "not http or https"},
      {"javascript:alert(1)", "not http or https"},
      {base + std::string(2048 - base.size(), 'a'), "2,048 characters"},
      // 2,046 characters as given, 2,048 once the space is %20.
      {base + std::string(2047 - base.size() - 3, 'b') + " x",
       "2,048 characters"},
      {base + std::string(400, '\xC3'), "UTF-8"},
      {base + "tab\there", "looks like tab-separated columns"},
      {base + "bell\x07", "control character"},
      {base + "del\x7F", "control character"},
      {"https://other.example.com/shop/x", "location rule"},
      {"http://www.example.com/shop/x", "location rule"},
      {"https://www.example.com:8443/shop/x", "location rule"},
      {"https://www.example.com/other/x", "location rule"},
      {"/other/x", "location rule"},
      {"https://www.example.com/shopping", "location rule"},
      {"../x", "location rule"},
      // Percent-encoded dots must not climb out of the base either.
      {"/shop/%2e%2e/secret", "location rule"},
      {"/shop/.%2E/secret", "location rule"},
      {"https://user:pw@www.example.com/shop/x", "user name or password"},
      {"https://www.example.com:99999/shop/x", "port"},
  };
  temp_dir t;
  const std::string in = t / "urls.txt";
  // A valid URL first and last, and one at exactly 2,047 characters.
  std::string text = base + "ok\n";
  for (const auto& r : rows) text += r.in + "\n";
  text += at_limit + "\n";
  write_file(in, text);
  set_expectations e;
  e.base_url = base;
  auto g = generate_and_check(t / "out", {"--base-url", base, in}, {}, e);
  auto locs = all_locs(g.set);
  ASSERT_EQ(locs.size(), 2u) << "only the first and the last line are valid";
  EXPECT_EQ(locs[0], base + "ok");
  EXPECT_TRUE(locs[1] == at_limit)
      << "the 2,047-character URL is not written as given";
  ASSERT_EQ(g.report["rejected"].size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::uint64_t line = i + 2;
    SCOPED_TRACE("line " + std::to_string(line) + ": " +
                 rows[i].in.substr(0, 60));
    const json* j = issue_at(g.report, "rejected", line);
    ASSERT_NE(j, nullptr);
    EXPECT_EQ((*j)["input"], in);
    EXPECT_THAT((*j)["reason"].get<std::string>(), HasSubstr(rows[i].reason));
    const std::string prefix = in + ":" + std::to_string(line) + ": rejected: ";
    bool found = false;
    for (const auto& l : split_lines(g.run.err))
      if (l.starts_with(prefix)) {
        found = true;
        EXPECT_THAT(l, HasSubstr(rows[i].reason));
      }
    EXPECT_TRUE(found) << "no stderr line starting " << prefix;
  }
}

// --- escaping ----------------------------------------------------------------

TEST(GenerateCli, EscapesXmlSpecialCharactersAndParsesBackToTheUrl) {
  temp_dir t;
  write_file(t / "urls.txt",
             "https://www.example.com/a?b=1&c=2\n"
             "https://www.example.com/it's\n"
             "https://www.example.com/q?x=\"<y>\"&z='w'\n");
  auto g = generate_and_check(t / "out", {"--no-gzip", t / "urls.txt"});
  const std::vector<std::string> want = {
      "https://www.example.com/a?b=1&c=2",
      "https://www.example.com/it's",
      "https://www.example.com/q?x=%22%3Cy%3E%22&z='w'",
  };
  EXPECT_EQ(all_locs(g.set), want);
  const std::string& xml = g.set.files.at(0).content;
  EXPECT_THAT(xml,
              HasSubstr("<loc>https://www.example.com/a?b=1&amp;c=2</loc>"));
  EXPECT_THAT(xml, HasSubstr("<loc>https://www.example.com/it&apos;s</loc>"));
  EXPECT_THAT(xml, HasSubstr("%22%3Cy%3E%22&amp;z=&apos;w&apos;</loc>"));
  // No raw special character survives inside any <loc>.
  static const std::regex loc_re("<loc>([^<]*)</loc>");
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), loc_re);
       it != std::sregex_iterator(); ++it) {
    std::string body = (*it)[1];
    EXPECT_EQ(body.find_first_of("'\"<>"), std::string::npos) << body;
    for (std::size_t p = body.find('&'); p != std::string::npos;
         p = body.find('&', p + 1))
      EXPECT_TRUE(body.compare(p, 5, "&amp;") == 0 ||
                  body.compare(p, 6, "&apos;") == 0)
          << body;
  }
}

// --- fields ------------------------------------------------------------------

TEST(GenerateCli, DropsInvalidFieldsWithAWarningAndStillWritesTheUrl) {
  struct row {
    const char* lastmod;
    const char* changefreq;
    const char* priority;
    const char* warned;  // the field the warning names
  };
  const row rows[] = {
      {"2024-02-30", "daily", "0.5", "lastmod"},
      {"yesterday", "", "", "lastmod"},
      // (A time without a zone, and second 60, are read by --date-format
      // auto: generate_dates_test.cpp.)
      {"2024-13-01", "", "", "lastmod"},
      {"2024-01-01T24:00:00Z", "", "", "lastmod"},
      {"2023-02-29", "", "", "lastmod"},
      {"2024-01-01T00:00:00+14:30", "", "", "lastmod"},
      {"", "sometimes", "0.5", "changefreq"},
      {"", "", "1.5", "priority"},
      {"", "", "high", "priority"},
      {"", "", "-0.1", "priority"},
      {"", "", "0.5e-1", "priority"},
  };
  temp_dir t;
  const std::string in = t / "urls.tsv";
  std::string text = "loc\tlastmod\tchangefreq\tpriority\n";
  for (std::size_t i = 0; i < std::size(rows); ++i)
    text += "/p" + std::to_string(i) + "\t" + rows[i].lastmod + "\t" +
            rows[i].changefreq + "\t" + rows[i].priority + "\n";
  write_file(in, text);
  auto g = generate_and_check(t / "out", {in});
  auto entries = all_entries(g.set);
  ASSERT_EQ(entries.size(), std::size(rows)) << "every URL is still written";
  EXPECT_TRUE(g.report["rejected"].empty());
  for (std::size_t i = 0; i < std::size(rows); ++i) {
    const auto& r = rows[i];
    const std::uint64_t line = i + 2;
    SCOPED_TRACE("line " + std::to_string(line));
    auto& e = entries[i];
    EXPECT_EQ(e["loc"], "https://www.example.com/p" + std::to_string(i));
    const std::string warned = r.warned;
    EXPECT_EQ(e.count("lastmod"), 0u)
        << "an invalid or absent lastmod must not be written";
    EXPECT_EQ(e.count("changefreq"),
              (warned != "changefreq" && *r.changefreq) ? 1u : 0u);
    EXPECT_EQ(e.count("priority"),
              (warned != "priority" && *r.priority) ? 1u : 0u);
    const json* j = issue_at(g.report, "warnings", line);
    ASSERT_NE(j, nullptr) << "no warning in --json";
    EXPECT_EQ((*j)["input"], in);
    EXPECT_THAT((*j)["reason"].get<std::string>(), HasSubstr(warned));
    EXPECT_TRUE(has_line_starting(
        g.run.err, in + ":" + std::to_string(line) + ": warning: " + warned))
        << g.run.err;
  }
  EXPECT_EQ(g.report["warnings"].size(), std::size(rows));
}

// sitemaps.org: lastmod in W3C Datetime; sitemill writes only the forms both
// the W3C profile and sitemap.xsd accept, and never one the input lacked.
TEST(GenerateCli, WritesLastmodOnlyAsADateOrAFullTimeWithZone) {
  struct row {
    const char* in;
    const char* want;  // nullptr: no <lastmod> at all
  };
  const row rows[] = {
      {"2024-03-05", "2024-03-05"},
      {"2024", "2024-01-01"},
      {"2024-03", "2024-03-01"},
      {"2024-03-05T10:20+01:00", "2024-03-05T10:20:00+01:00"},
      {"2024-03-05T10:20:30Z", "2024-03-05T10:20:30Z"},
      {"2024-03-05T10:20:30.25-05:30", "2024-03-05T10:20:30.25-05:30"},
      {" 2024-03-05 ", "2024-03-05"},
      {"2024-02-29", "2024-02-29"},
      {"0001-01-01", "0001-01-01"},
      {"2024-03-05T10:20:30-00:00", "2024-03-05T10:20:30-00:00"},
      {"2024-03-05T10:20:30+14:00", "2024-03-05T10:20:30+14:00"},
      {"", nullptr},
  };
  temp_dir t;
  std::string text = "loc,lastmod\n";
  for (std::size_t i = 0; i < std::size(rows); ++i)
    text += "/m" + std::to_string(i) + "," + rows[i].in + "\n";
  write_file(t / "urls.csv", text);
  auto g = generate_and_check(t / "out", {t / "urls.csv"});
  auto entries = all_entries(g.set);
  ASSERT_EQ(entries.size(), std::size(rows));
  for (std::size_t i = 0; i < std::size(rows); ++i) {
    SCOPED_TRACE(rows[i].in);
    if (rows[i].want == nullptr) {
      EXPECT_EQ(entries[i].count("lastmod"), 0u)
          << "sitemill must not invent a lastmod";
    } else {
      EXPECT_EQ(entries[i]["lastmod"], rows[i].want);
    }
  }
  EXPECT_TRUE(g.report["warnings"].empty()) << g.run.err;
}

TEST(GenerateCli, StrictExitsOneOnABadFieldOrRecordButNotOnDuplicates) {
  struct row {
    const char* text;
    int code;
  };
  const row rows[] = {
      // An invalid field.
      {"loc,priority\n/a,0.5\n/b,2\n", 1},
      // A rejected record.
      {"loc,priority\n/a,0.5\nftp://x.example.com/,\n", 1},
      // Duplicates only: nothing is wrong with the data.
      {"loc,priority\n/a,0.5\n/a,0.5\nhttps://www.example.com/a,\n", 0},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(r.text);
    temp_dir t;
    write_file(t / "urls.csv", r.text);
    auto run = run_sitemill({"generate", "--strict", "--json", "--base-url",
                             "https://www.example.com/", "--out", t / "out",
                             t / "urls.csv"});
    EXPECT_EQ(run.exit_code, r.code) << run.err;
    json j = parse_report(run);
    if (r.code == 0) {
      set_expectations e;
      e.report = &j;
      expect_valid_set(t / "out", e);
    } else {
      EXPECT_TRUE(j["files"].empty());
      EXPECT_EQ(j["entry"], "");
      EXPECT_THAT(run.err, HasSubstr("--strict"));
      EXPECT_TRUE(list_files(t / "out").empty())
          << "--strict failed but files were published";
    }
  }
}

TEST(GenerateCli, NoValidUrlExitsOneAndPublishesNothing) {
  struct row {
    const char* name;
    const char* text;
  };
  const row rows[] = {
      {"all-bad.txt", "ftp://x.example.com/\nhttps://elsewhere.example.com/\n"},
      {"empty.txt", ""},
      {"comments.txt", "# nothing here\n\n"},
      {"header-only.csv", "loc,lastmod\n"},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(r.name);
    temp_dir t;
    write_file(t / r.name, r.text);
    auto run = run_sitemill({"generate", "--json", "--base-url",
                             "https://www.example.com/", "--out", t / "out",
                             t / r.name});
    EXPECT_EQ(run.exit_code, 1) << run.err;
    EXPECT_THAT(run.err, HasSubstr("no valid URL"));
    EXPECT_TRUE(list_files(t / "out").empty());
    json j = parse_report(run);
    EXPECT_TRUE(j["files"].empty());
    EXPECT_EQ(j["written"], 0);
  }
}

// --- duplicates --------------------------------------------------------------

TEST(GenerateCli,
     WritesDuplicatesOnceAndCountsThemEvenWhenOnlyNormalisationMakesThemEqual) {
  temp_dir t;
  write_file(t / "a.csv",
             "loc,lastmod\n"
             "https://www.example.com/a,2024-01-01\n"
             "https://www.example.com/a,2024-02-02\n"
             "HTTPS://WWW.EXAMPLE.COM:443/a,\n"
             "/a,\n"
             "https://www.example.com/./x/../a,\n"
             "https://www.example.com/%61,\n"
             "https://www.example.com/b,\n");
  write_file(t / "b.txt", "https://www.example.com/a#top\n/b\n/c\n");
  auto g = generate_and_check(t / "out", {t / "a.csv", t / "b.txt"});
  auto entries = all_entries(g.set);
  ASSERT_EQ(entries.size(), 3u);
  // The first occurrence wins, fields included.
  EXPECT_EQ(entries[0], (xml_entry{{"loc", "https://www.example.com/a"},
                                   {"lastmod", "2024-01-01"}}));
  EXPECT_EQ(entries[1]["loc"], "https://www.example.com/b");
  EXPECT_EQ(entries[2]["loc"], "https://www.example.com/c");
  EXPECT_EQ(g.report["records"], 10);
  EXPECT_EQ(g.report["written"], 3);
  EXPECT_EQ(g.report["duplicates"], 7);
  EXPECT_THAT(g.run.err, HasSubstr("7 duplicates"));
}

// --- reporting ---------------------------------------------------------------

TEST(GenerateCli,
     PrintsTheFirst200DiagnosticsThenHowManyMoreWhileJsonListsAll) {
  temp_dir t;
  const std::string in = t / "urls.txt";
  std::string text = "/good\n";
  for (int i = 0; i < 230; ++i)
    text += "ftp://x.example.com/" + std::to_string(i) + "\n";
  text += "loc-with-fragment#x\n";  // a warning after the cut is counted too
  write_file(in, text);

  for (bool with_json : {false, true}) {
    SCOPED_TRACE(with_json ? "--json" : "plain");
    std::vector<std::string> args = {
        "generate", "--base-url", "https://www.example.com/",
        "--out",    t / "out",    in};
    if (with_json) args.insert(args.begin() + 1, "--json");
    auto run = run_sitemill(args);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    auto lines = diagnostics(run.err);
    ASSERT_EQ(lines.size(), 200u);
    EXPECT_EQ(lines.front(),
              in + ":2: rejected: URL is not http or https; only http:// and "
                   "https:// URLs can be listed: ftp://x.example.com/0");
    EXPECT_TRUE(lines.back().starts_with(in + ":201: rejected: "))
        << lines.back();
    EXPECT_THAT(run.err,
                HasSubstr("31 more rejected records and warnings not shown"));
    if (with_json) {
      json j = parse_report(run);
      EXPECT_EQ(j["rejected"].size(), 230u);
      EXPECT_EQ(j["warnings"].size(), 1u);
      EXPECT_EQ(j["rejected"].back()["line"], 231);
      set_expectations e;
      e.report = &j;
      expect_valid_set(t / "out", e);
    } else {
      EXPECT_THAT(run.err, HasSubstr("--json lists them all"));
      EXPECT_EQ(run.out, "");
    }
  }
}

TEST(GenerateCli,
     EndsWithOneSummaryLineAndDrawsNoProgressWhenStderrIsNotATerminal) {
  temp_dir t;
  write_file(t / "urls.txt", "/a\n/a\nftp://x.example.com/\n/b#f\n");
  auto run = run_sitemill({"generate", "--base-url", "https://www.example.com/",
                           "--out", t / "out", t / "urls.txt"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto lines = split_lines(run.err);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back(),
            "sitemill: published 2 files to " + (t / "out") +
                " (entry https://www.example.com/sitemap.xml): 2 URLs "
                "written, 1 duplicate, "
                "1 rejected, 1 warning, from 4 records; no URL has a "
                "lastmod, so neither has the index");
  EXPECT_EQ(lines.size(), 3u)
      << run.err;  // the rejection, the warning, the summary
  EXPECT_EQ(run.err.find('\r'), std::string::npos)
      << "progress drawn on a pipe";
  EXPECT_EQ(run.err.find('\x1b'), std::string::npos)
      << "terminal escapes on a pipe";
  EXPECT_EQ(run.out, "") << "results go to stdout only with --json";
  expect_valid_set(t / "out");
}

TEST(GenerateCli, QuietPrintsOnlyRejections) {
  temp_dir t;
  write_file(t / "urls.txt", "/a\nftp://x.example.com/\n/b#f\n");
  auto run =
      run_sitemill({"generate", "-q", "--base-url", "https://www.example.com/",
                    "--out", t / "out", t / "urls.txt"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(split_lines(run.err).size(), 1u) << run.err;
  EXPECT_TRUE(has_line_starting(run.err, (t / "urls.txt") + ":2: rejected: "));
  expect_valid_set(t / "out");
}

TEST(GenerateCli, JsonIsExactlyOneObjectWhoseCountsAddUp) {
  temp_dir t;
  write_file(t / "urls.csv",
             "loc,priority\n/a,0.5\n/a,0.5\n/b,9\nftp://x.example.com/"
             ",\n\"unterminated\n");
  auto g = generate_and_check(t / "out", {t / "urls.csv"});
  const json& j = g.report;
  // Exactly the documented keys, and nothing else on stdout.
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  std::sort(keys.begin(), keys.end());
  // duplicate_records: the input has one.
  EXPECT_EQ(keys, (std::vector<std::string>{"duplicate_records", "duplicates",
                                            "entry", "entry_url",
                                            "files", "filtered", "lastmods",
                                            "records", "rejected", "sets",
                                            "skipped", "spill_bytes", "spilled",
                                            "warnings", "written"}));
  ASSERT_EQ(j["sets"].size(), 1u) << "one base, one set: the report's own";
  EXPECT_EQ(j["sets"][0]["entry_url"], j["entry_url"]);
  EXPECT_EQ(j["sets"][0]["files"], j["files"]);
  EXPECT_EQ(j["sets"][0]["out_dir"], t / "out");
  EXPECT_EQ(g.run.out.find('\n'), g.run.out.size() - 1)
      << "one line, one object";
  EXPECT_EQ(j["written"], 2);
  EXPECT_EQ(j["duplicates"], 1);
  EXPECT_EQ(j["rejected"].size(), 2u);
  EXPECT_EQ(j["warnings"].size(), 1u);
  EXPECT_EQ(j["records"], 5);
  for (const auto& r : j["rejected"]) {
    EXPECT_TRUE(r["input"].is_string());
    EXPECT_TRUE(r["line"].is_number_unsigned());
    EXPECT_TRUE(r["reason"].is_string());
  }
  ASSERT_EQ(j["files"].size(), 2u);
  EXPECT_EQ(j["files"][0]["type"], "urlset");
  EXPECT_EQ(j["files"][1]["type"], "sitemapindex");
  EXPECT_EQ(j["files"][1]["path"], "sitemap.xml");
  EXPECT_EQ(j["entry"], "sitemap.xml");
  EXPECT_EQ(j["entry_url"], "https://www.example.com/sitemap.xml");
}

// --- exit codes --------------------------------------------------------------

TEST(GenerateCli, UsageErrorsExitTwoWithAMessage) {
  temp_dir t;
  write_file(t / "urls.txt", "/a\n");
  const std::string in = t / "urls.txt", out = t / "out";
  const std::string base = "https://www.example.com/";
  struct row {
    std::vector<std::string> args;
    std::string message;  // part of what stderr must say
  };
  const std::vector<row> rows = {
      {{"generate", "--base-url", base, in}, "--out"},
      {{"generate", "--out", out, in}, "--base-url"},
      {{"generate", "--base-url", base, "--out", out},
       "no input: give list files (or - for stdin), --from-dir, "
       "--from-sitemap or --from-log"},
      {{"generate", "--base-url", base, "--out", out, "--max-urls", "50001",
        in},
       "--max-urls"},
      {{"generate", "--base-url", base, "--out", out, "--max-urls", "0", in},
       "--max-urls"},
      {{"generate", "--base-url", base, "--out", out, "--max-bytes", "52428801",
        in},
       "--max-bytes"},
      {{"generate", "--base-url", base, "--out", out, "--frobnicate", in},
       "frobnicate"},
      {{"generate", "--base-url", base, "--out", out, "--input-format", "xml",
        in},
       "--input-format"},
      {{"generate", "--base-url", base, "--out", out, "--format", "html", in},
       "--format"},
      {{"generate", "--base-url", base, "--out", out, "--columns", "loc,title",
        in},
       "--columns"},
      {{"generate", "--base-url", base, "--out", out, "--name", "../up", in},
       "--name may use only"},
      {{"generate", "--base-url", base, "--out", out, "--from-sitemap", ""},
       "--from-sitemap needs a path or URL"},
      {{"generate", "--base-url", "ftp://www.example.com/", "--out", out, in},
       "sitemill generate: --base-url: "},
      {{"generate", "--base-url", "/relative/", "--out", out, in},
       "--base-url"},
      {{"generate", "--base-url", base, "--out", in, in},
       "--out " + in + " is not a directory"},
  };
  for (const auto& r : rows) {
    std::string shown;
    for (const auto& a : r.args) shown += a + " ";
    SCOPED_TRACE(shown);
    auto run = run_sitemill(r.args);
    EXPECT_EQ(run.exit_code, 2) << run.err;
    EXPECT_THAT(run.err, HasSubstr(r.message));
    EXPECT_TRUE(list_files(out).empty());
  }
}

TEST(GenerateCli, UnreadableInputExitsTwo) {
  temp_dir t;
  write_file(t / "ok.txt", "/a\n");
  std::filesystem::create_directory(t / "dir.txt");
  std::string many;
  for (int i = 0; i < 3000; ++i) many += "/t/" + std::to_string(i) + "\n";
  const std::string gz = gzip(many);
  write_file(t / "truncated.txt.gz", gz.substr(0, gz.size() / 2));
  for (const std::string& bad :
       {t / "missing.txt", t / "dir.txt", t / "truncated.txt.gz"}) {
    SCOPED_TRACE(bad);
    auto run =
        run_sitemill({"generate", "--base-url", "https://www.example.com/",
                      "--out", t / "out", t / "ok.txt", bad});
    EXPECT_EQ(run.exit_code, 2) << run.err;
    EXPECT_THAT(run.err, HasSubstr(bad));
    EXPECT_TRUE(list_files(t / "out").empty());
  }
}

}  // namespace
}  // namespace sitemill::testing
