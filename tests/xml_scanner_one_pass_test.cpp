// The scanner's one-pass paths (src/parse/xml_scanner.cpp) against libxml2:
// text read in one pass with its line ends counted there, tags that are '<'
// and a name placed without reading their bytes again, a cut token completed
// from the front of the next block, and names found through their recent
// slot. Each document is read by the scanner whole (no second reading) and
// tells exactly what libxml2 tells: entries, diagnostics with their lines and
// columns, and the summary.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "../fuzz/parse_transcript.h"
#include "parse/document_parser.h"
#include "sitemill/parse/sitemap_parser.h"

namespace sitemill {
namespace {

using fuzzing::transcript;

parse_options pinned() {
  parse_options o;
  o.now = std::chrono::system_clock::time_point(
      std::chrono::seconds(1'790'000'000));
  return o;
}

std::string describe(const parse_summary& s) {
  return std::string(to_string(s.kind)) +
         " entries=" + std::to_string(s.entries) +
         " wf=" + std::to_string(s.well_formed) +
         " valid=" + std::to_string(s.schema_valid) +
         " e/w/i=" + std::to_string(s.errors) + "/" +
         std::to_string(s.warnings) + "/" + std::to_string(s.infos);
}

struct outcome {
  std::vector<std::string> events;
  std::string summary;
  int rereads = 0;
};

// The document fed in blocks that end at `cuts` (offsets, ascending).
outcome scanned(std::string_view bytes, std::vector<std::size_t> cuts) {
  outcome out;
  transcript t;
  detail::document_parser parser(t, pinned(), [&](const auto& sink) {
    ++out.rereads;
    return sink(bytes.data(), bytes.size()), true;
  });
  cuts.push_back(bytes.size());
  std::size_t from = 0;
  for (const std::size_t cut : cuts) {
    if (!parser.feed(bytes.data() + from, cut - from)) break;
    from = cut;
  }
  out.summary = describe(parser.finish());
  out.events = std::move(t.events);
  return out;
}

outcome libxml2(std::string_view bytes) {
  outcome out;
  transcript t;
  out.summary = describe(parse_bytes(bytes, t, pinned()));
  out.events = std::move(t.events);
  return out;
}

// Read whole by the scanner, cut as given, and told as libxml2 tells it.
void expect_scanned_as_libxml2(std::string_view doc,
                               const std::vector<std::size_t>& cuts) {
  const outcome want = libxml2(doc);
  const outcome got = scanned(doc, cuts);
  EXPECT_EQ(got.rereads, 0) << "handed over to libxml2";
  EXPECT_EQ(want.summary, got.summary);
  EXPECT_EQ(want.events, got.events);
  EXPECT_FALSE(want.events.empty());
}

constexpr std::string_view head =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"\n"
    "        xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n";

// Positions after text with line ends, tabs and non-ASCII characters, after
// a tag with attributes on two lines, a comment and a CDATA section: each
// entry and each finding (bad values) is placed as libxml2 places it.
TEST(XmlScannerOnePass, PlacesTagsAfterEveryKindOfText) {
  std::string doc(head);
  doc +=
      "<url><loc>https://example.com/caf\xC3\xA9/\xE2\x82\xAC</loc>"
      "<lastmod>2024-13-45</lastmod></url>\n"
      "\t<url>\n\t\t<loc>https://example.com/a</loc>\t<changefreq>often"
      "</changefreq>\n</url>\n"
      "<url><loc>\n  https://example.com/b\n</loc><priority>2.0</priority>"
      "</url><!-- a\ncomment \xC3\xA9 --><url><loc><![CDATA[https://"
      "example.com/c]]></loc><priority>x</priority></url>\n"
      "<url><loc>https://example.com/d</loc><xhtml:link rel=\"alternate\"\n"
      "  hreflang=\"d\xC3\xA9\" href=\"https://example.com/d\"/>"
      "<lastmod>yesterday</lastmod></url>\n"
      "<url><loc>\n\xC2\xA0https://example.com/e</loc><lastmod>2024</lastmod>"
      "</url>\n"
      "<url><loc>https://example.com/\xC3\xA9&amp;x=1</loc>"
      "<changefreq>\xC3\xA9</changefreq></url>\n"
      "</urlset>\n";
  expect_scanned_as_libxml2(doc, {});
  // And cut at every byte of its second half, one cut at a time.
  for (std::size_t cut = doc.size() / 2; cut < doc.size(); ++cut)
    expect_scanned_as_libxml2(doc, {cut});
}

// A text cut early and completed only far into a large next block: the
// piece the scanner takes from its front grows until the token ends.
TEST(XmlScannerOnePass, CompletesACutTokenFromALargeNextBlock) {
  std::string doc(head);
  doc += "<url><loc>https://example.com/";
  const std::size_t cut = doc.size() - 5;
  doc += std::string(40'000, 'a');  // longer than a 4 KiB piece, doubled
  doc += "</loc><lastmod>2024-01-0</lastmod></url>\n";
  for (int i = 0; i < 200; ++i)
    doc += "<url><loc>https://example.com/" + std::to_string(i) +
           "</loc><priority>1.5</priority></url>\n";
  doc += "</urlset>\n";
  expect_scanned_as_libxml2(doc, {cut});
  // A tag cut in its name, and a cut just before a LF in text.
  const std::size_t in_name = doc.find("<priority>", cut + 40'000) + 3;
  const std::size_t before_lf = doc.find("</url>\n", in_name) + 6;
  expect_scanned_as_libxml2(doc, {in_name, before_lf});
}

// Names that share a recent slot (same length, first and last byte) and
// alternate: each is still its own name.
TEST(XmlScannerOnePass, TellsApartNamesThatShareASlot) {
  std::string doc =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"\n"
      "        xmlns:x=\"https://example.com/ns\">\n";
  for (int i = 0; i < 20; ++i)
    doc += "<url><loc>https://example.com/" + std::to_string(i) +
           "</loc><x:lab>1</x:lab><x:lob>2</x:lob><x:lab/><x:lcb>3</x:lcb>"
           "<x:lob/></url>\n";
  doc += "</urlset>\n";
  expect_scanned_as_libxml2(doc, {});
}

// Character references and ']' in text go over as libxml2 splits them.
TEST(XmlScannerOnePass, SplitsTextAtReferencesAsLibxml2Does) {
  std::string doc(head);
  doc +=
      "<url><loc>https://example.com/a?b=1&amp;c=]2&#38;d=&#x41;]</loc>"
      "<changefreq>&lt;daily&gt;</changefreq></url>\n</urlset>\n";
  expect_scanned_as_libxml2(doc, {});
  for (std::size_t cut = head.size(); cut < doc.size(); ++cut)
    expect_scanned_as_libxml2(doc, {cut});
}

}  // namespace
}  // namespace sitemill
