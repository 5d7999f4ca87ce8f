// generate --from-sitemap keeps the elements of namespaces sitemill has no
// schema for (a PageMap, a vendor's <mobile:mobile/>) and writes them back
// into their <url> (issue 30): through a plain run, the hreflang cluster
// spool, duplicate detection on disk, the byte limit, a text sitemap and
// an old news block; the output stays well-formed (xmllint) and passes
// check.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/run.h"

namespace sitemill::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using json = nlohmann::json;

const std::string base = "https://www.example.com/";
constexpr std::string_view pagemap_ns =
    "http://www.google.com/schemas/sitemap-pagemap/1.0";

const std::string decl = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
const std::string root =
    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"\n"
    "  xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\"\n"
    "  xmlns:xhtml=\"http://www.w3.org/1999/xhtml\"\n"
    "  xmlns:news=\"http://www.google.com/schemas/sitemap-news/0.9\"\n"
    "  xmlns:mobile=\"http://www.google.com/schemas/sitemap-mobile/1.0\"\n"
    "  xmlns:v=\"https://vendor.example/ns\">\n";

// A PageMap as Google documents it, with a value that needs escaping.
const std::string pagemap =
    "<PageMap xmlns=\"http://www.google.com/schemas/sitemap-pagemap/1.0\">"
    "<DataObject type=\"document\" id=\"hibachi\">"
    "<Attribute name=\"name\">Dragon &amp; Tiger</Attribute>"
    "<Attribute name=\"review\">3.5</Attribute>"
    "</DataObject></PageMap>";

// Every sitemap of a set in `dir` (not the index), concatenated.
std::string sitemaps_in(const std::string& dir) {
  std::string all;
  for (const std::string& name : list_files(dir)) {
    if (!name.ends_with(".xml") && !name.ends_with(".xml.gz")) continue;
    const std::string body = read_file(dir + "/" + name);
    if (body.find("<urlset") != std::string::npos) all += body;
  }
  return all;
}

std::string the_index_or_sitemap(const std::string& dir) {
  return dir + "/sitemap.xml";
}

// xmllint (libxml2's, offline) finds every XML file of `dir` well-formed
// (it reads .gz files through zlib).
void expect_well_formed(const std::string& dir) {
  for (const std::string& name : list_files(dir)) {
    if (!name.ends_with(".xml") && !name.ends_with(".xml.gz")) continue;
    const run_result r = run_program("/usr/bin/xmllint",
                                     {"--noout", "--nonet", dir + "/" + name});
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
  }
}

// check finds nothing wrong: elements of unknown namespaces are infos.
void expect_check_passes(const std::string& dir) {
  const run_result r =
      run_sitemill({"check", "--json", "--sitemap-url", base + "sitemap.xml",
                    the_index_or_sitemap(dir)});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const json j = parse_report(r);
  EXPECT_EQ(j["errors"], 0) << j.dump(2);
  EXPECT_EQ(j["warnings"], 0) << j.dump(2);
}

std::size_t count(const std::string& s, std::string_view what) {
  std::size_t n = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + 1))
    ++n;
  return n;
}

TEST(ForeignXmlCli, RoundTripsElementsOfNamespacesWithoutASchema) {
  temp_dir t;
  write_file(
      t / "in.xml",
      decl + root +
          "<url><loc>https://www.example.com/restaurant</loc>"
          "<image:image><image:loc>https://www.example.com/hibachi.jpg"
          "</image:loc></image:image>\n" +
          pagemap +
          "<mobile:mobile/></url>\n"
          "<url><loc>https://www.example.com/vendor</loc>"
          "<v:note lang='de' title=\"a &quot;b&quot; &lt;c&gt;\">x &lt; y "
          "&amp;&amp; z</v:note>"
          "<v:html><![CDATA[<b>bold</b> & more]]></v:html>"
          "<v:a><v:b><w:c xmlns:w=\"urn:w\" w:x=\"1\"/></v:b></v:a>"
          // The input rebinds image inside this <url>: a prefix clash.
          "<image:caption xmlns:image=\"https://vendor.example/img\">"
          "not Google's</image:caption>"
          "</url>\n"
          "<url><loc>https://www.example.com/plain</loc></url>\n"
          "</urlset>\n");
  const run_result gen =
      run_sitemill({"generate", "--base-url", base, "--out", t / "out",
                    "--from-sitemap", t / "in.xml"});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  EXPECT_THAT(gen.err, HasSubstr("is in the namespace \"" +
                                 std::string(pagemap_ns) + "\""));
  EXPECT_THAT(gen.err, HasSubstr("its elements are kept as written and "
                                 "written back into their <url>"));
  EXPECT_THAT(gen.err, Not(HasSubstr("not kept"))) << gen.err;

  const std::string out = sitemaps_in(t / "out");
  EXPECT_THAT(out, HasSubstr("<url><loc>https://www.example.com/restaurant"
                             "</loc><image:image><image:loc>https://"
                             "www.example.com/hibachi.jpg</image:loc>"
                             "</image:image>" +
                             pagemap +
                             "<mobile:mobile xmlns:mobile=\"http://"
                             "www.google.com/schemas/sitemap-mobile/1.0\"/>"
                             "</url>\n"));
  EXPECT_THAT(out, HasSubstr("<v:note xmlns:v=\"https://vendor.example/ns\" "
                             "lang=\"de\" title=\"a &quot;b&quot; &lt;c&gt;\">"
                             "x &lt; y &amp;&amp; z</v:note>"
                             "<v:html xmlns:v=\"https://vendor.example/ns\">"
                             "&lt;b&gt;bold&lt;/b&gt; &amp; more</v:html>"
                             "<v:a xmlns:v=\"https://vendor.example/ns\"><v:b>"
                             "<w:c xmlns:w=\"urn:w\" w:x=\"1\"/></v:b></v:a>"
                             "<image1:caption xmlns:image1=\"https://"
                             "vendor.example/img\">not Google&apos;s"
                             "</image1:caption></url>\n"));
  EXPECT_THAT(out, HasSubstr("<url><loc>https://www.example.com/plain</loc>"
                             "</url>\n"));
  expect_well_formed(t / "out");
  expect_check_passes(t / "out");

  // Read again, the output gives itself back byte for byte.
  const run_result again =
      run_sitemill({"generate", "--base-url", base, "--out", t / "again",
                    "--from-sitemap", t / "out/sitemap.xml"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(sitemaps_in(t / "again"), out);
}

// What a hostile sitemap puts in a vendor element comes out as text.
TEST(ForeignXmlCli, AHostileElementCannotInjectMarkup) {
  temp_dir t;
  write_file(t / "in.xml",
             decl + root +
                 "<url><loc>https://www.example.com/a</loc>"
                 "<v:x a=\"&quot;/&gt;&lt;/url&gt;&lt;evil/&gt;\">"
                 "]]&gt; &lt;!-- &lt;/v:x&gt;&lt;/url&gt;"
                 "<!-- </v:x></url><evil/> -->"
                 "<![CDATA[</v:x></url></urlset><evil/><!--]]>"
                 "&#60;evil/&#62; &amp;lt;</v:x></url>\n"
                 "<url><loc>https://www.example.com/b</loc></url>\n"
                 "</urlset>\n");
  const run_result gen =
      run_sitemill({"generate", "--base-url", base, "--out", t / "out",
                    "--from-sitemap", t / "in.xml"});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  const std::string out = sitemaps_in(t / "out");
  EXPECT_EQ(count(out, "<evil"), 0u) << out;
  EXPECT_EQ(count(out, "<!--"), 0u) << out;
  EXPECT_EQ(count(out, "<url>"), 2u) << out;
  EXPECT_EQ(count(out, "</url>"), 2u) << out;
  expect_well_formed(t / "out");
  expect_check_passes(t / "out");
}

TEST(ForeignXmlCli, DropsWhatPassesTheCapPerUrlWithAWarning) {
  temp_dir t;
  write_file(t / "in.xml",
             decl + root +
                 "<url><loc>https://www.example.com/a</loc><v:small/>"
                 "<v:huge>" +
                 std::string(70 * 1024, 'h') +
                 "</v:huge></url>\n"
                 "</urlset>\n");
  const run_result gen =
      run_sitemill({"generate", "--base-url", base, "--out", t / "out",
                    "--from-sitemap", t / "in.xml"});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  EXPECT_THAT(gen.err, HasSubstr("<v:huge> (a namespace without a schema) "
                                 "takes its <url> past 65,536 bytes"));
  const std::string out = sitemaps_in(t / "out");
  EXPECT_THAT(out, HasSubstr("<loc>https://www.example.com/a</loc>"
                             "<v:small xmlns:v=\"https://vendor.example/ns\"/>"
                             "</url>"));
  EXPECT_EQ(count(out, "hhhh"), 0u);
}

// Parked entries are kept as written: an hreflang cluster that starts after
// some pages were written (they are read back from the file and parked),
// and duplicate detection on disk (--memory-budget 0 parks every URL).
TEST(ForeignXmlCli, SurvivesTheClusterSpoolAndDuplicatesOnDisk) {
  temp_dir t;
  auto url = [](std::string_view path, std::string_view inside) {
    return "<url><loc>https://www.example.com/" + std::string(path) + "</loc>" +
           std::string(inside) + "</url>\n";
  };
  auto alt = [](std::string_view lang, std::string_view path) {
    return "<xhtml:link rel=\"alternate\" hreflang=\"" + std::string(lang) +
           "\" href=\"https://www.example.com/" + std::string(path) + "\"/>";
  };
  write_file(
      t / "in.xml",
      decl + root + url("first", "<v:m n=\"1\"/>") +
          url("en/", alt("en", "en/") + alt("de", "de/") + "<v:m n=\"2\"/>") +
          url("de/", alt("de", "de/") + alt("en", "en/") + "<v:m n=\"3\"/>") +
          url("first", "<v:m n=\"repeat\"/>") + url("last", "<v:m n=\"4\"/>") +
          "</urlset>\n");
  for (const std::string budget : {"16MiB", "0"}) {
    SCOPED_TRACE(budget);
    const std::string dir = t / ("out-" + budget);
    const run_result gen = run_sitemill(
        {"generate", "--base-url", base, "--out", dir, "--memory-budget",
         budget, "--from-sitemap", t / "in.xml"});
    ASSERT_EQ(gen.exit_code, 0) << gen.err;
    const std::string out = sitemaps_in(dir);
    for (const std::string n : {"1", "2", "3", "4"})
      EXPECT_EQ(count(out, "<v:m xmlns:v=\"https://vendor.example/ns\" n=\"" +
                               n + "\"/></url>"),
                1u)
          << n << "\n"
          << out;
    EXPECT_EQ(count(out, "repeat"), 0u) << "the repeat is not written";
    EXPECT_EQ(count(out, "<url>"), 4u);
    expect_well_formed(dir);
    expect_check_passes(dir);
  }
}

// The byte limit counts fragments like any byte: with --max-bytes lowered,
// every file stays under it and the set passes check.
TEST(ForeignXmlCli, CountsFragmentsTowardTheByteLimit) {
  temp_dir t;
  std::string body = decl + root;
  const std::string blob(900, 'b');
  for (int i = 0; i < 40; ++i)
    body += "<url><loc>https://www.example.com/p/" + std::to_string(i) +
            "</loc><v:blob>" + blob + "</v:blob></url>\n";
  body += "</urlset>\n";
  write_file(t / "in.xml", body);
  constexpr std::size_t max = 10'000;
  const run_result gen = run_sitemill(
      {"generate", "--base-url", base, "--out", t / "out", "--max-bytes",
       std::to_string(max), "--from-sitemap", t / "in.xml"});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  std::size_t files = 0, blobs = 0;
  for (const std::string& name : list_files(t / "out")) {
    const std::string b = read_file(t / "out" + "/" + name);
    if (b.find("<urlset") == std::string::npos) continue;
    ++files;
    EXPECT_LE(b.size(), max) << name;
    // Full: one more entry would not have fitted (the last file aside).
    blobs += count(b, "</v:blob>");
  }
  EXPECT_EQ(blobs, 40u);
  EXPECT_GE(files, 4u);
  expect_well_formed(t / "out");
  expect_check_passes(t / "out");
}

TEST(ForeignXmlCli, ATextSitemapDropsThemWithAWarning) {
  temp_dir t;
  write_file(t / "in.xml", decl + root +
                               "<url><loc>https://www.example.com/a</loc>" +
                               pagemap + "</url>\n</urlset>\n");
  const run_result gen =
      run_sitemill({"generate", "--base-url", base, "--out", t / "out",
                    "--format", "txt", "--from-sitemap", t / "in.xml"});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  EXPECT_THAT(gen.err, HasSubstr("elements of namespaces without a schema "
                                 "dropped: a text sitemap carries URLs only"));
}

// An old news block is removed (Google: older articles lose their
// <news:news>), and what follows it in the <url> stays.
TEST(ForeignXmlCli, RemovingAnOldNewsBlockKeepsWhatFollowsIt) {
  temp_dir t;
  write_file(t / "in.xml",
             decl + root +
                 "<url><loc>https://www.example.com/old-story</loc>"
                 "<news:news><news:publication><news:name>The Paper</news:name>"
                 "<news:language>en</news:language></news:publication>"
                 "<news:publication_date>2020-01-01</news:publication_date>"
                 "<news:title>Old</news:title></news:news>"
                 "<v:tag>kept</v:tag></url>\n</urlset>\n");
  const run_result gen =
      run_sitemill({"generate", "--base-url", base, "--out", t / "out",
                    "--news", "--from-sitemap", t / "in.xml"});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  const std::string out = sitemaps_in(t / "out");
  EXPECT_EQ(count(out, "<news:news>"), 0u) << out;
  EXPECT_THAT(out, HasSubstr("<loc>https://www.example.com/old-story</loc>"
                             "<v:tag xmlns:v=\"https://vendor.example/ns\">"
                             "kept</v:tag></url>\n"));
  expect_well_formed(t / "out");
}

}  // namespace
}  // namespace sitemill::testing
