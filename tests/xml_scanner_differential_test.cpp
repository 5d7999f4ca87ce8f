// The scanner against libxml2 (src/parse/xml_scanner.h): every document
// read through detail::document_parser with a reread_function (the scanner,
// handing over to libxml2 where it stops) gives exactly what the parser without
// one (libxml2 from the start) gives: the same kind, entries (positions,
// extensions, foreign XML), diagnostics (code, line, column, message) and
// summary. Inputs: the shared conformance files (skipped, visibly, without
// ../shared), the repository's test data and fuzz corpora, and documents
// made here. Small ones are also fed to the reader split at every byte,
// where whatever the scanner told before handing over must be what libxml2
// tells first (what the second reading mutes).
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "parse/context.h"
#include "parse/document_parser.h"
#include "parse/xml_reader.h"
#include "parse/xml_scanner.h"
#include "sitemill/parse/sitemap_parser.h"
#include "../fuzz/parse_transcript.h"
#include "support/run.h"  // gzip()

namespace sitemill {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

using fuzzing::transcript;

std::string describe(const parse_summary& s) {
  return std::string(to_string(s.kind)) +
         " entries=" + std::to_string(s.entries) +
         " bytes=" + std::to_string(s.bytes) +
         " gz=" + std::to_string(s.gzipped) +
         " complete=" + std::to_string(s.complete) +
         " wf=" + std::to_string(s.well_formed) +
         " valid=" + std::to_string(s.schema_valid) +
         " unknown_ns=" + std::to_string(s.valid_but_unknown_namespaces) +
         " e/w/i=" + std::to_string(s.errors) + "/" +
         std::to_string(s.warnings) + "/" + std::to_string(s.infos);
}

struct outcome {
  std::vector<std::string> events;
  std::string summary;
  int rereads = 0;  // 1: the scanner handed over
};

parse_options pinned() {
  parse_options o;
  o.now = std::chrono::system_clock::time_point(
      std::chrono::seconds(1'790'000'000));
  return o;
}

outcome libxml2_path(std::string_view bytes) {
  outcome out;
  transcript t;
  out.summary = describe(parse_bytes(bytes, t, pinned()));
  out.events = std::move(t.events);
  return out;
}

outcome scanner_path(std::string_view bytes, std::size_t block) {
  outcome out;
  transcript t;
  detail::document_parser parser(t, pinned(), [&](const auto& sink) {
    ++out.rereads;
    for (std::size_t i = 0; i < bytes.size(); i += block)
      if (!sink(bytes.data() + i, std::min(block, bytes.size() - i))) break;
    return true;
  });
  for (std::size_t i = 0; i < bytes.size(); i += block)
    if (!parser.feed(bytes.data() + i, std::min(block, bytes.size() - i)))
      break;
  out.summary = describe(parser.finish());
  out.events = std::move(t.events);
  return out;
}

// Both paths agree; true when the scanner read the document whole.
bool agree(std::string_view bytes, const std::string& name) {
  const outcome a = libxml2_path(bytes);
  const outcome b = scanner_path(bytes, 256 * 1024);
  EXPECT_LE(b.rereads, 1) << name;
  EXPECT_EQ(a.summary, b.summary) << name;
  EXPECT_EQ(a.events, b.events) << name;
  return b.rereads == 0;
}

// The reader on its own, fed in two pieces: what the scanner tells is what
// libxml2 tells whole, or its beginning when the scanner hands over.
void reader_split_agrees(std::string_view bytes, std::size_t split,
                         const std::string& name) {
  const auto run = [&](bool scan, std::size_t cut, bool& handed_over) {
    transcript t;
    const parse_options o = pinned();
    parse_summary s;
    detail::doc_context doc(t, o, s, 1'790'000'000);
    detail::xml_reader reader(doc, {1, 1}, false, scan);
    if (reader.feed(bytes.data(), cut))
      reader.feed(bytes.data() + cut, bytes.size() - cut);
    reader.finish();
    handed_over = reader.handed_over();
    return t.events;
  };
  bool unused = false, handed_over = false;
  const auto whole = run(false, bytes.size(), unused);
  const auto scanned = run(true, split, handed_over);
  if (!handed_over) {
    EXPECT_EQ(whole, scanned) << name << " split at " << split;
  } else {
    ASSERT_LE(scanned.size(), whole.size()) << name << " split at " << split;
    EXPECT_TRUE(std::equal(scanned.begin(), scanned.end(), whole.begin()))
        << name << " split at " << split;
  }
}

void every_split(std::string_view bytes, const std::string& name) {
  for (std::size_t i = 0; i <= bytes.size(); ++i) {
    reader_split_agrees(bytes, i, name);
    if (::testing::Test::HasFailure()) return;
  }
}

constexpr std::string_view head =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
constexpr std::string_view urlset_open =
    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"\n"
    "        xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\"\n"
    "        xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n";

// Documents the scanner takes whole, each with what it exercises.
std::vector<std::pair<std::string, std::string>> taken() {
  std::vector<std::pair<std::string, std::string>> v;
  const std::string h(head), u(urlset_open);
  v.emplace_back("plain", h + u +
                              "  <url>\n    <loc>https://example.com/</loc>\n"
                              "    <lastmod>2026-01-02</lastmod>\n"
                              "    <changefreq>daily</changefreq>\n"
                              "    <priority>0.8</priority>\n  </url>\n"
                              "</urlset>\n");
  v.emplace_back(
      "entities",
      h + u +
          "<url><loc>https://example.com/?a=1&amp;b=2&#38;c&#x3C;</loc></url>"
          "<url><loc>https://example.com/caf\xC3\xA9/&#233;&#x1F600;</loc></"
          "url>"
          "</urlset>");
  v.emplace_back("extensions",
                 h + u +
                     "<url><loc>https://example.com/a</loc>\n"
                     "<image:image><image:loc>https://example.com/a.jpg</"
                     "image:loc></image:image>\n"
                     "<xhtml:link rel=\"alternate\" hreflang=\"de\" "
                     "href=\"https://example.com/de?x=1&amp;y=\xC3\xBC\"/>\n"
                     "<xhtml:link rel='alternate' hreflang='en'\n"
                     "   href='https://example.com/en'/>\n"
                     "</url></urlset>\n");
  v.emplace_back(
      "comments_pis_cdata",
      "<!-- generated -->\n<?xml-stylesheet type=\"text/xsl\" "
      "href=\"s.xsl\"?>\n" +
          u +
          "<!-- a <url> "
          "-->\n<url><loc><![CDATA[https://example.com/c?a=1&b=2]]></loc>"
          "<?pi data?></url></urlset>\n<!-- end -->\n");
  // libxml2 counts a CDATA section's columns in bytes.
  v.emplace_back(
      "cdata_wide_then_tag",
      h + u +
          "<url><loc><![CDATA[https://example.com/\xC3\xA9\xE2\x82\xAC]]>"
          "</loc><lastmod>2026-01-01</lastmod></url><url><loc>"
          "<![CDATA[a\n\xC3\xA9]]></loc><lastmod>2026-01-01</lastmod>"
          "</url></urlset>");
  v.emplace_back(
      "prefixed",
      h + "<sm:urlset xmlns:sm=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
          "<sm:url><sm:loc>https://example.com/p</sm:loc></sm:url></"
          "sm:urlset>");
  v.emplace_back(
      "index",
      h + "<sitemapindex "
          "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
          "\t<sitemap>\t<loc>https://example.com/s1.xml</loc>\t</sitemap>\n"
          "</sitemapindex>");
  v.emplace_back(
      "no_declaration_bad_values",
      u + "<url><loc> https://example.com/x </loc><lastmod>yesterday</lastmod>"
          "<priority>2</priority><changefreq>sometimes</changefreq></url>"
          "<url><lastmod>2026-01-01</lastmod></url></urlset>");
  v.emplace_back(
      "unknown_namespace",
      h + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
          "xmlns:m=\"urn:example:mobile\" xml:lang=\"en\">"
          "<url><loc>https://example.com/m</loc><m:mobile a=\"1\" "
          "m:b=\"2\">t&lt;x</m:mobile></url>"
          "</urlset>");
  v.emplace_back("rss",
                 h + "<rss version=\"2.0\"><channel><title>t</title><item>"
                     "<link>https://example.com/r</link><pubDate>Mon, 02 Jan "
                     "2026 10:00:00 GMT</pubDate>"
                     "</item></channel></rss>");
  v.emplace_back("atom",
                 h + "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry>"
                     "<link "
                     "href=\"https://example.com/a\"/"
                     "><updated>2026-01-02T10:00:00Z</updated>"
                     "</entry></feed>");
  v.emplace_back(
      "long_line_tags",
      h + u + "<url><loc>https://example.com/" + std::string(300, 'a') +
          "</loc></url><url><loc>https://example.com/b</loc></url>"
          "<url>\n<loc>https://example.com/\xE2\x82\xAC</loc></url></urlset>");
  return v;
}

// Documents libxml2 must read (the scanner hands over), each with what it
// has that the scanner leaves alone.
std::vector<std::pair<std::string, std::string>> handed() {
  std::vector<std::pair<std::string, std::string>> v;
  const std::string h(head), u(urlset_open);
  const std::string one = "<url><loc>https://example.com/1</loc></url>\n";
  v.emplace_back("doctype", h + "<!DOCTYPE urlset>\n" + u + one + "</urlset>");
  v.emplace_back("entity_decl", h + "<!DOCTYPE urlset [<!ENTITY x \"y\">]>\n" +
                                    u + one + "</urlset>");
  v.emplace_back(
      "latin1",
      "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n" + u +
          "<url><loc>https://example.com/caf\xE9</loc></url></urlset>");
  v.emplace_back(
      "crlf",
      h + u + one +
          "<url>\r\n<loc>https://example.com/2</loc></url>\r\n</urlset>\r\n");
  v.emplace_back("mismatch",
                 h + u + one + one + "<url><loc>x</lo></url></urlset>");
  v.emplace_back("truncated", h + u + one + one + "<url><loc>https://exa");
  v.emplace_back(
      "raw_ampersand",
      h + u + one + "<url><loc>https://example.com/?a&b</loc></url></urlset>");
  v.emplace_back(
      "html_entity",
      h + u + one +
          "<url><loc>https://example.com/&nbsp;</loc></url></urlset>");
  v.emplace_back(
      "undeclared_prefix",
      h + u + one +
          "<url><loc>https://example.com/3</loc><q:x/></url></urlset>");
  v.emplace_back("text_in_urlset",
                 h + u + one + "stray words\n" + one + "</urlset>");
  v.emplace_back("text_in_url", h + u + "<url>https://example.com/bare</url>" +
                                    one + "</urlset>");
  v.emplace_back(
      "bad_utf8",
      h + u + one + "<url><loc>https://example.com/\xC3(</loc></url></urlset>");
  v.emplace_back(
      "control_char",
      h + u + one + "<url><loc>https://example.com/\x01</loc></url></urlset>");
  v.emplace_back("after_root", h + u + one + "</urlset>\n<urlset/>");
  v.emplace_back(
      "duplicate_attribute",
      h + u + one + "<url><xhtml:link rel=\"a\" rel=\"b\"/></url></urlset>");
  v.emplace_back("relative_default_ns",
                 h + "<urlset xmlns=\"sitemap\">" + one + "</urlset>");
  v.emplace_back("version_1_1",
                 "<?xml version=\"1.1\"?>\n" + u + one + "</urlset>");
  v.emplace_back("xml_pi_later", u + one + "<?xml version=\"1.0\"?></urlset>");
  v.emplace_back("double_hyphen",
                 h + u + one + "<!-- a -- b -->" + one + "</urlset>");
  v.emplace_back(
      "deep", h + u + "<url>" + [] {
        std::string s;
        for (int i = 0; i < 200; ++i) s += "<d>";
        for (int i = 0; i < 200; ++i) s += "</d>";
        return s;
      }() + "<loc>https://example.com/d</loc></url></urlset>");
  v.emplace_back("huge_field", h + u + one + "<url><loc>https://example.com/" +
                                   std::string(70'000, 'z') +
                                   "</loc></url></urlset>");
  v.emplace_back("empty", "");
  v.emplace_back("only_comment", "<!-- nothing -->");
  return v;
}

TEST(XmlScannerDifferential, TakesSitemapsWholeAndAgreesWithLibxml2) {
  for (const auto& [name, doc] : taken()) {
    EXPECT_TRUE(agree(doc, name)) << name << " was handed over to libxml2";
    EXPECT_TRUE(agree(testing::gzip(doc), name + ".gz"))
        << name << ".gz was handed over";
  }
}

TEST(XmlScannerDifferential, HandsOverWhatItLeavesToLibxml2AndTellsItOnce) {
  for (const auto& [name, doc] : handed()) {
    if (name == "empty" || name == "only_comment") {
      agree(doc, name);
      continue;
    }
    EXPECT_FALSE(agree(doc, name)) << name << " was not handed over";
    EXPECT_FALSE(agree(testing::gzip(doc), name + ".gz")) << name;
  }
}

TEST(XmlScannerDifferential, AgreesOnEverySplitOfSmallDocuments) {
  for (const auto& list : {taken(), handed()})
    for (const auto& [name, doc] : list)
      if (doc.size() <= 1500) every_split(doc, name);
}

TEST(XmlScannerDifferential, AgreesAcrossManyBlocks) {
  // 3,000 URLs with extensions: the tokens cut by the 64 KiB blocks the
  // parser feeds, and by the 1-byte, 7-byte and 4 KiB feeds of the caller.
  std::string doc(head);
  doc += urlset_open;
  for (int i = 0; i < 3000; ++i) {
    doc += "<url><loc>https://example.com/p/" + std::to_string(i) +
           "?q=\xC3\xA9&amp;r</loc><lastmod>2026-01-0" +
           std::to_string(1 + i % 9) + "</lastmod>";
    if (i % 3 == 0)
      doc +=
          "\n  <xhtml:link rel=\"alternate\" hreflang=\"fr\"\n "
          "href=\"https://example.com/fr/" +
          std::to_string(i) + "\"/>";
    doc += "<!-- " + std::to_string(i) + " --></url>\n";
  }
  doc += "</urlset>\n";
  EXPECT_TRUE(agree(doc, "many"));
  const outcome a = libxml2_path(doc);
  for (const std::size_t block :
       {std::size_t{1}, std::size_t{7}, std::size_t{4096}}) {
    const outcome b = scanner_path(doc, block);
    EXPECT_EQ(b.rereads, 0) << block;
    EXPECT_EQ(a.events, b.events) << block;
    EXPECT_EQ(a.summary, b.summary) << block;
  }
  // Broken at the end: the second reading mutes 3,000 entries.
  const std::string broken = doc.substr(0, doc.size() - 4) + "</urlsex>";
  EXPECT_FALSE(agree(broken, "broken at the end"));
}

void agree_on_tree(const fs::path& dir, int& files, int& taken_whole) {
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string bytes = read_file(e.path());
    if (bytes.size() > 8 * 1024 * 1024) continue;
    ++files;
    taken_whole += agree(bytes, e.path().string());
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(XmlScannerDifferential, AgreesOnTheRepositorysTestDataAndFuzzCorpora) {
  int files = 0, whole = 0;
  const fs::path root(SITEMILL_SOURCE_DIR);
  agree_on_tree(root / "tests/data", files, whole);
  agree_on_tree(root / "fuzz/corpus/parser", files, whole);
  agree_on_tree(root / "fuzz/corpus/xml_scanner", files, whole);
  EXPECT_GT(files, 100);
  EXPECT_GT(whole, 20);  // the scanner is not handing everything over
  std::printf("%d files, %d read whole by the scanner\n", files, whole);
}

TEST(XmlScannerDifferential, AgreesOnTheSharedConformanceFiles) {
  const fs::path shared =
      fs::path(SITEMILL_SOURCE_DIR) / "../shared/conformance";
  if (!fs::exists(shared))
    GTEST_SKIP() << shared.lexically_normal()
                 << " is absent: the shared conformance files were not read";
  int files = 0, whole = 0;
  agree_on_tree(shared, files, whole);
  EXPECT_GT(files, 0);
  std::printf("%d files, %d read whole by the scanner\n", files, whole);
}

// What the scanner calls, as text, to compare feeds split anywhere.
struct scan_log final : detail::xml_scanner::sink {
  detail::xml_scanner* scanner = nullptr;
  std::string log;
  void on_start(const unsigned char* local, const unsigned char* prefix,
                const unsigned char* uri, int n,
                const unsigned char** a) override {
    const auto s = [](const unsigned char* p) {
      return p == nullptr ? std::string("-")
                          : std::string(reinterpret_cast<const char*>(p));
    };
    const auto at = scanner->tag_pos();
    log += "<" + s(prefix) + ":" + s(local) + "{" + s(uri) + "}@" +
           std::to_string(at.line) + ":" + std::to_string(at.column);
    for (int i = 0; i < n; ++i) {
      const unsigned char* const* x = a + 5 * i;
      log += " " + s(x[1]) + ":" + s(x[0]) + "{" + s(x[2]) + "}=" +
             std::string(reinterpret_cast<const char*>(x[3]),
                         reinterpret_cast<const char*>(x[4])) +
             (*x[4] == 0 ? "\\0" : "");
    }
    log += ">";
  }
  void on_end() override { log += "</>"; }
  void on_characters(const unsigned char* t, int len, bool cdata) override {
    if (cdata) log += "[C]";
    log.append(reinterpret_cast<const char*>(t), static_cast<std::size_t>(len));
  }
};

std::string scan_split(std::string_view doc, std::size_t cut, bool& whole) {
  scan_log log;
  detail::xml_scanner scanner(log);
  log.scanner = &scanner;
  scanner.feed(doc.data(), cut);
  scanner.feed(doc.data() + cut, doc.size() - cut);
  whole = scanner.finish();
  return log.log;
}

TEST(XmlScanner, SplitsChangeNothing) {
  for (const auto& [name, doc] : taken()) {
    bool whole = false;
    const std::string once = scan_split(doc, doc.size(), whole);
    EXPECT_TRUE(whole) << name;
    for (std::size_t i = 0; i < doc.size(); ++i) {
      bool split_whole = false;
      EXPECT_EQ(once, scan_split(doc, i, split_whole)) << name << " at " << i;
      EXPECT_TRUE(split_whole) << name << " at " << i;
    }
  }
}

TEST(XmlScanner, GivesValuesInLibxml2sLayout) {
  bool whole = false;
  const std::string log = scan_split(
      "<r xmlns='urn:a' xmlns:p='urn:p' a='x' p:b='1&amp;2' c='t\tu\xC3\xA9' "
      "xml:lang='en'><p:e/></r>",
      0, whole);
  EXPECT_TRUE(whole);
  EXPECT_EQ(
      log,
      "<-:r{urn:a}@1:1 -:a{-}=x p:b{urn:p}=1&#38;2\\0 -:c{-}=t u\xC3\xA9\\0 "
      "xml:lang{http://www.w3.org/XML/1998/namespace}=en>"
      "<p:e{urn:p}@1:77></></>");  // columns count characters
}

TEST(XmlScanner, StopsAtItsCaps) {
  // Fed in 64 KiB blocks, as the parser feeds it.
  const auto stops = [](const std::string& doc) {
    scan_log log;
    detail::xml_scanner scanner(log);
    log.scanner = &scanner;
    for (std::size_t i = 0; i < doc.size(); i += 65536)
      scanner.feed(doc.data() + i,
                   std::min<std::size_t>(65536, doc.size() - i));
    return !scanner.finish();
  };
  std::string attrs = "<r";
  for (int i = 0; i < 65; ++i) attrs += " a" + std::to_string(i) + "='1'";
  EXPECT_TRUE(stops(attrs + "/>"));
  EXPECT_TRUE(stops("<" + std::string(600, 'n') + "/>"));
  EXPECT_TRUE(stops("<r><!--" + std::string(2 * 1024 * 1024, 'c') + "--></r>"));
  EXPECT_FALSE(stops("<r><!--" + std::string(1000 * 1000, 'c') + "--></r>"));
  EXPECT_FALSE(stops("<r>" + std::string(200, '\n') + "<a\n" +
                     std::string(200, ' ') + "/></r>"));
  EXPECT_TRUE(stops("<r>" + std::string(100, ' ') +
                    "<a\n/></r>"));  // column: libxml2's
  const auto deep = [](int n) {
    std::string d;
    for (int i = 0; i < n; ++i) d += "<d>";
    for (int i = 0; i < n; ++i) d += "</d>";
    return d;
  };
  EXPECT_FALSE(stops(deep(128)));
  EXPECT_TRUE(stops(deep(129)));
  EXPECT_TRUE(stops("<r>&#0;</r>"));
  EXPECT_TRUE(stops("<r>&#x110000;</r>"));
  EXPECT_FALSE(stops("<r>&#x10FFFF;</r>"));
}

}  // namespace
}  // namespace sitemill
