// Extensions survive a round trip: what the parser reads from a real
// sitemap is judged by the entry stage, written by the writer, read back by
// the parser and judged again, and nothing is lost or changed; the written
// files validate against the official schemas. Also the parser's side on
// its own: each item read as the one table names its fields, and what the
// table does not model is reported, never dropped silently.
#include <gtest/gtest.h>

#include <deque>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sitemill/entry/entry.h"
#include "sitemill/parse/sitemap_parser.h"
#include "sitemill/write/writer.h"

namespace sitemill {
namespace {

namespace fs = std::filesystem;

struct value_copy {
  std::string key;  // "image:loc", as extension_field_name says
  std::uint32_t item;
  std::string text;
  bool operator==(const value_copy&) const = default;
};

std::ostream& operator<<(std::ostream& os, const value_copy& v) {
  return os << v.item << ' ' << v.key << '=' << v.text;
}

struct entry_copy {
  std::string loc;
  std::vector<extension_value> raw;  // views into `text`
  std::deque<std::string> text;
};

// Everything a parse reports, extension values copied out.
struct reading final : parse_handler {
  std::deque<entry_copy> entries;  // never relocated: `raw` views `text`
  std::vector<diagnostic> diagnostics;
  void on_entry(const parsed_entry& e) override {
    entry_copy& c = entries.emplace_back();
    c.loc = std::string(e.loc.text);
    for (const auto& v : e.extensions)
      c.raw.push_back({v.field, v.item, c.text.emplace_back(v.text)});
  }
  void on_diagnostic(const diagnostic& d) override { diagnostics.push_back(d); }
  std::size_t count(std::string_view code) const {
    std::size_t n = 0;
    for (const auto& d : diagnostics) n += d.code == code;
    return n;
  }
};

std::vector<value_copy> copy(std::span<const extension_value> values) {
  std::vector<value_copy> out;
  for (const auto& v : values)
    out.push_back({extension_field_name(extension_fields()[v.field]), v.item,
                   std::string(v.text)});
  return out;
}

struct judged {
  std::vector<std::vector<value_copy>> values;  // per entry
  std::vector<std::string> warnings;
  std::string xml;  // the entries written into one urlset
  std::size_t raw_values = 0;
};

// Judges and writes every entry of `r` the way generate does.
judged judge_and_write(const reading& r) {
  judged j;
  entry_builder builder{url_normalizer{}};
  std::deque<std::string> files;
  sitemap_writer w({}, [&](std::size_t) -> result<std::unique_ptr<sink>> {
    files.emplace_back();
    return std::unique_ptr<sink>(std::make_unique<memory_sink>(&files.back()));
  });
  for (const auto& e : r.entries) {
    url_entry entry;
    if (builder.build_loc(e.loc, entry).problem != url_problem::ok) continue;
    std::vector<field_warning> warnings;
    builder.build_extensions(e.raw, entry, warnings);
    for (auto& warning : warnings) j.warnings.push_back(warning.message);
    j.raw_values += e.raw.size();
    j.values.push_back(copy(entry.extensions));
    EXPECT_EQ(w.add(entry), add_status::added);
  }
  EXPECT_TRUE(w.finish());
  EXPECT_LE(files.size(), 1u);
  if (!files.empty()) j.xml = files.front();
  return j;
}

reading parse(std::string_view bytes, bool schema_checks) {
  reading r;
  parse_options o;
  o.schema_checks = schema_checks;
  parse_bytes(bytes, r, o);
  return r;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

constexpr std::string_view head =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
    "xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\" "
    "xmlns:video=\"http://www.google.com/schemas/sitemap-video/1.1\" "
    "xmlns:news=\"http://www.google.com/schemas/sitemap-news/0.9\" "
    "xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n";

TEST(ExtensionCapture, ReadsEveryKindByTheTable) {
  const std::string xml =
      std::string(head) +
      "<url><loc>https://example.com/a</loc>"
      "<xhtml:link rel=\"alternate\" hreflang=\"de\" "
      "href=\"https://example.com/de/a\"/>"
      "<image:image><image:loc> https://example.com/a.jpg </image:loc>"
      "<image:caption>A &amp; B</image:caption></image:image>"
      "<video:video><video:thumbnail_loc>https://example.com/t.jpg"
      "</video:thumbnail_loc><video:title>T</video:title>"
      "<video:description>D</video:description>"
      "<video:player_loc allow_embed=\"yes\">https://example.com/p"
      "</video:player_loc>"
      "<video:price currency=\"EUR\">1.99</video:price>"
      "<video:tvshow><video:show_title>S</video:show_title>"
      "<video:video_type>full</video:video_type></video:tvshow>"
      "</video:video>"
      "<news:news><news:publication><news:name>P</news:name>"
      "<news:language>en</news:language></news:publication>"
      "<news:publication_date>2026-11-22</news:publication_date>"
      "<news:title>N</news:title></news:news>"
      "</url>\n</urlset>\n";
  const reading r = parse(xml, false);
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.count("extension-not-kept"), 0u);
  const std::vector<value_copy> expected = {
      {"xhtml:link hreflang", 0, "de"},
      {"xhtml:link href", 0, "https://example.com/de/a"},
      {"image:loc", 1, " https://example.com/a.jpg "},
      {"image:caption", 1, "A & B"},
      {"video:thumbnail_loc", 2, "https://example.com/t.jpg"},
      {"video:title", 2, "T"},
      {"video:description", 2, "D"},
      {"video:player_loc", 2, "https://example.com/p"},
      {"video:player_loc allow_embed", 2, "yes"},
      {"video:price", 2, "1.99"},
      {"video:price currency", 2, "EUR"},
      {"video:tvshow.show_title", 2, "S"},
      {"video:tvshow.video_type", 2, "full"},
      {"news:publication.name", 3, "P"},
      {"news:publication.language", 3, "en"},
      {"news:publication_date", 3, "2026-11-22"},
      {"news:title", 3, "N"},
  };
  EXPECT_EQ(copy(r.entries[0].raw), expected);
}

TEST(ExtensionCapture, AttributeReferencesAreResolvedOnceLeftToRight) {
  // libxml2 hands "&amp;#38;" back as "&#38;#38;"; read once, that is the
  // text "&#38;" (a copy that looped would make it "&").
  const std::string xml =
      std::string(head) +
      "<url><loc>https://example.com/a</loc><video:video>"
      "<video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc>"
      "<video:title>T</video:title><video:description>D</video:description>"
      "<video:player_loc autoplay=\"a=1&amp;#38;b&amp;c\">"
      "https://example.com/p</video:player_loc></video:video></url>\n"
      "</urlset>\n";
  const reading r = parse(xml, false);
  ASSERT_EQ(r.entries.size(), 1u);
  const auto values = copy(r.entries[0].raw);
  ASSERT_EQ(values.size(), 5u);
  EXPECT_EQ(values[4],
            (value_copy{"video:player_loc autoplay", 0, "a=1&#38;b&c"}));
}

TEST(ExtensionCapture, WhatTheTableDoesNotModelIsReportedWhenExtracting) {
  const std::string xml =
      std::string(head) +
      "<url><loc>https://example.com/a</loc>"
      "<xhtml:link rel=\"alternate\" hreflang=\"de\" "
      "href=\"https://example.com/de\" foo=\"x\"/>"
      "<image:image><image:loc>https://example.com/a.jpg</image:loc>"
      "<image:color>red</image:color></image:image>"
      "<image:photo/>"
      "</url>\n</urlset>\n";
  const reading extracting = parse(xml, false);
  ASSERT_EQ(extracting.entries.size(), 1u);
  EXPECT_EQ(extracting.count("extension-not-kept"), 3u);
  // The link and the image are kept without what is unknown.
  EXPECT_EQ(
      copy(extracting.entries[0].raw),
      (std::vector<value_copy>{{"xhtml:link hreflang", 0, "de"},
                               {"xhtml:link href", 0, "https://example.com/de"},
                               {"image:loc", 1, "https://example.com/a.jpg"}}));
  // check reports the same content through the schemas instead.
  const reading checking = parse(xml, true);
  EXPECT_EQ(checking.count("extension-not-kept"), 0u);
  EXPECT_GT(checking.count("xsd-extension"), 0u);
}

TEST(ExtensionCapture, AnUnknownNamespaceIsReportedWhenExtracting) {
  const std::string xml =
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
      "xmlns:m=\"http://www.google.com/schemas/sitemap-mobile/1.0\">"
      "<url><loc>https://example.com/a</loc><m:mobile/></url>"
      "<url><loc>https://example.com/b</loc><m:mobile/></url></urlset>";
  const reading r = parse(xml, false);
  EXPECT_EQ(r.count("extension-unknown-namespace"), 1u);
}

TEST(ExtensionRoundTrip, WrittenExtensionsReadBackIdenticalAndValidate) {
  const std::string xml =
      std::string(head) +
      "<url><loc>https://example.com/a</loc>"
      "<news:news><news:publication><news:name>P &lt;1&gt;</news:name>"
      "<news:language>zh-cn</news:language></news:publication>"
      "<news:genres>Blog, OpEd</news:genres>"
      "<news:publication_date>2026-11-22T08:00:00+01:00"
      "</news:publication_date><news:title>N \"q\"</news:title>"
      "<news:stock_tickers>NASDAQ:A, NYSE:B</news:stock_tickers>"
      "</news:news>"
      "<video:video><video:thumbnail_loc>https://example.com/t.jpg"
      "</video:thumbnail_loc><video:title>T</video:title>"
      "<video:description>D</video:description>"
      "<video:content_loc>https://example.com/v.mp4</video:content_loc>"
      "<video:duration>60</video:duration>"
      "<video:tag>a</video:tag><video:tag>b</video:tag>"
      "<video:restriction relationship=\"deny\">US CA</video:restriction>"
      "<video:uploader info=\"https://example.com/u\">U</video:uploader>"
      "<video:platform relationship=\"allow\">web tv</video:platform>"
      "<video:id type=\"url\">https://example.com/id</video:id>"
      "</video:video>"
      "<xhtml:link rel=\"alternate\" hreflang=\"x-default\" "
      "href=\"https://example.com/\"/>"
      "</url>\n</urlset>\n";
  const reading first = parse(xml, true);
  ASSERT_EQ(first.entries.size(), 1u);
  const judged once = judge_and_write(first);
  EXPECT_TRUE(once.warnings.empty()) << once.warnings.front();
  ASSERT_EQ(once.values.size(), 1u);
  EXPECT_EQ(once.values[0].size(), once.raw_values);

  parse_summary summary;
  reading again;
  summary = parse_bytes(once.xml, again);
  EXPECT_TRUE(summary.schema_valid) << once.xml;
  const judged twice = judge_and_write(again);
  EXPECT_EQ(twice.values, once.values);
  // Written again, the bytes are the same: the writer's form is stable.
  EXPECT_EQ(twice.xml, once.xml);
}

// Found by fuzz_roundtrip: CR in a value, and TAB, LF or CR in an attribute
// value, were written as they are, and XML reads them back as LF and spaces
// (XML 1.0 2.11, 3.3.3). fuzz/corpus/roundtrip/line_breaks_* keep the
// inputs.
TEST(ExtensionRoundTrip, LineBreaksAndTabsReadBackAsGiven) {
  const auto field = [](extension_kind kind, std::string_view key) {
    return *find_extension_field(kind, key);
  };
  using enum extension_kind;
  const std::vector<extension_value> raw = {
      {field(alternate, "@href"), 0, "https://example.com/m"},
      {field(alternate, "@media"), 0, "screen and\t(max-width:\n640px)\r"},
      {field(video, "thumbnail_loc"), 1, "https://example.com/t.jpg"},
      {field(video, "title"), 1, "a\rb"},
      {field(video, "description"), 1, "one\r\ntwo\nthree\tfour\r\rfive"},
      {field(video, "player_loc"), 1, "https://example.com/p"},
      {field(video, "player_loc@autoplay"), 1, "ap=1\r\n\t2"},
      {field(video, "gallery_loc"), 1, "https://example.com/g"},
      {field(video, "gallery_loc@title"), 1, "x\ty"},
  };
  entry_builder builder{url_normalizer{}};
  url_entry entry;
  ASSERT_EQ(builder.build_loc("https://example.com/a", entry).problem,
            url_problem::ok);
  std::vector<field_warning> warnings;
  builder.build_extensions(raw, entry, warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front().message;
  const std::vector<value_copy> written = copy(entry.extensions);
  ASSERT_EQ(written.size(), raw.size());

  std::string xml;
  sitemap_writer w({}, [&](std::size_t) -> result<std::unique_ptr<sink>> {
    return std::unique_ptr<sink>(std::make_unique<memory_sink>(&xml));
  });
  ASSERT_EQ(w.add(entry), add_status::added);
  ASSERT_TRUE(w.finish());
  EXPECT_NE(xml.find("<video:description>one&#13;\ntwo\nthree\tfour"
                     "&#13;&#13;five</video:description>"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("title=\"x&#9;y\""), std::string::npos) << xml;
  reading back;
  const parse_summary summary = parse_bytes(xml, back);
  EXPECT_TRUE(summary.complete && summary.schema_valid) << xml;
  ASSERT_EQ(back.entries.size(), 1u);
  EXPECT_EQ(copy(back.entries[0].raw), written);
}

// Every valid urlset among the shared real-world fixtures: no extension
// element is lost between reading and writing, and the output validates.
TEST(ExtensionRoundTrip, RealWorldSitemapsLoseNoExtensionData) {
  const fs::path local =
      fs::path(SITEMILL_SOURCE_DIR) / "tests/data/conformance";
  const fs::path shared =
      fs::path(SITEMILL_SOURCE_DIR) / "../shared/conformance";
  std::istringstream lines(slurp(local / "VALIDATION.txt"));
  std::size_t files = 0, values = 0;
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("./") || !line.ends_with(": VALID") ||
        line.find("root=urlset") == std::string::npos)
      continue;
    const std::string name = line.substr(2, line.find(" : ") - 2);
    fs::path path = local / name;
    if (!fs::exists(path)) path = shared / name;
    if (!fs::exists(path)) continue;  // counted below: the local copies stay
    SCOPED_TRACE(name);
    reading r;
    ASSERT_TRUE(parse_file(path.string(), r, [] {
      parse_options o;
      o.schema_checks = false;
      return o;
    }()));
    EXPECT_EQ(r.count("extension-not-kept"), 0u);
    const judged j = judge_and_write(r);
    for (const auto& w : j.warnings) ADD_FAILURE() << w;
    std::size_t kept = 0;
    for (const auto& v : j.values) kept += v.size();
    EXPECT_EQ(kept, j.raw_values);
    reading back;
    const parse_summary s = parse_bytes(j.xml, back);
    EXPECT_TRUE(s.schema_valid);
    const judged again = judge_and_write(back);
    EXPECT_EQ(again.values, j.values);
    ++files;
    values += kept;
  }
  // The MIT and Apache-2.0 fixtures are copied into tests/data: at least
  // those are always here, and they hold extension data.
  EXPECT_GE(files, 8u);
  EXPECT_GT(values, 50u);
}

}  // namespace
}  // namespace sitemill
