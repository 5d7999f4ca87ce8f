// The sitemap extensions end to end inside the library: the one table
// (extensions.h), entry_builder::build_extensions judging raw values, the
// XML the writer emits for them and the namespaces each file declares.
#include "sitemill/entry/extensions.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <set>
#include <span>
#include <string>

#include "sitemill/entry/entry.h"
#include "sitemill/write/writer.h"

namespace sitemill {
namespace {

extension_field_id field(extension_kind kind, std::string_view key) {
  auto id = find_extension_field(kind, key);
  EXPECT_TRUE(id) << key;
  return id.value_or(0);
}

// Raw values as a reader gives them: {kind, key, item, text}.
struct raw_value {
  extension_kind kind;
  std::string_view key;
  std::uint32_t item;
  std::string_view text;
};

// A kept value with its own copy of the text (the builder's views end with
// it).
struct kept_copy {
  extension_field_id field;
  std::uint32_t item;
  std::string text;
};

struct built {
  std::vector<kept_copy> values;
  std::vector<std::string> warnings;
  std::string xml;  // append_extensions of the kept values
};

built build(std::span<const raw_value> raw) {
  std::vector<extension_value> values;
  for (const auto& r : raw)
    values.push_back({field(r.kind, r.key), r.item, r.text});
  entry_builder builder{url_normalizer{}};
  url_entry e;
  std::vector<field_warning> warnings;
  builder.build_extensions(values, e, warnings);
  built b;
  for (const auto& v : e.extensions)
    b.values.push_back({v.field, v.item, std::string(v.text)});
  for (auto& w : warnings) b.warnings.push_back(w.message);
  append_extensions(b.xml, e.extensions);
  return b;
}
built build(std::initializer_list<raw_value> raw) {
  return build(std::span<const raw_value>(raw.begin(), raw.size()));
}

using enum extension_kind;

TEST(ExtensionTable, EachKindIsOneRunOfUniqueKeysWithAttributesAfterElements) {
  const auto fields = extension_fields();
  for (std::size_t k = 0; k < extension_kind_count; ++k) {
    const auto kind = static_cast<extension_kind>(k);
    const field_range r = fields_of(kind);
    ASSERT_LT(r.first, r.last) << k;
    std::set<std::string_view> keys;
    for (auto id = r.first; id < r.last; ++id) {
      const extension_field& f = fields[id];
      EXPECT_EQ(f.kind, kind);
      EXPECT_TRUE(keys.insert(f.key).second) << f.key;
      const auto at = f.key.find('@');
      if (at != std::string_view::npos && at > 0) {
        EXPECT_TRUE(keys.count(f.key.substr(0, at)))
            << f.key << " comes before its element";
      }
      EXPECT_EQ(find_extension_field(kind, f.key), id);
    }
  }
}

TEST(ExtensionTable, NamespacesAndLookups) {
  EXPECT_EQ(namespace_of(image).uri,
            "http://www.google.com/schemas/sitemap-image/1.1");
  EXPECT_EQ(namespace_for_uri("http://www.w3.org/1999/xhtml")->kind, alternate);
  EXPECT_EQ(
      namespace_for_uri("http://www.google.com/schemas/sitemap-image/2.0"),
      nullptr);
  // An attribute of the item element may be named without its '@'.
  EXPECT_EQ(find_extension_field(alternate, "hreflang"),
            find_extension_field(alternate, "@hreflang"));
  EXPECT_FALSE(find_extension_field(image, "Loc"));
  EXPECT_FALSE(find_extension_field(image, "hreflang"));
  const auto& price = extension_fields()[field(video, "price@currency")];
  EXPECT_EQ(element_of(price), "price");
  EXPECT_TRUE(is_attribute(price));
  EXPECT_EQ(element_of(extension_fields()[field(news, "publication.name")]),
            "name");
  EXPECT_EQ(extension_field_name(price), "video:price currency");
  EXPECT_EQ(extension_field_name(extension_fields()[field(alternate, "href")]),
            "xhtml:link href");
}

TEST(BuildExtensions, AnImageIsWrittenWithItsUrlNormalised) {
  auto b = build({{image, "loc", 0, " https://cdn.example.net/a b.jpg "},
                  {image, "caption", 0, "Tom & Jerry"}});
  EXPECT_TRUE(b.warnings.empty());
  EXPECT_EQ(b.xml,
            "<image:image><image:loc>https://cdn.example.net/a%20b.jpg"
            "</image:loc><image:caption>Tom &amp; Jerry</image:caption>"
            "</image:image>");
}

TEST(BuildExtensions, InvalidValuesAndIncompleteItemsAreDroppedWithWarnings) {
  auto b = build({{image, "loc", 0, "ftp://example.com/a.jpg"},
                  {image, "loc", 1, "https://example.com/b.jpg"},
                  {image, "license", 1, "not a url"}});
  ASSERT_EQ(b.warnings.size(), 3u);
  EXPECT_NE(b.warnings[0].find("image:loc \"ftp://example.com/a.jpg\" dropped"),
            std::string::npos)
      << b.warnings[0];
  EXPECT_NE(
      b.warnings[1].find("image:image dropped: it has no valid image:loc"),
      std::string::npos)
      << b.warnings[1];
  EXPECT_NE(b.warnings[2].find("image:license \"not a url\" dropped"),
            std::string::npos)
      << b.warnings[2];
  // The second image survives, renumbered as the entry's first item.
  ASSERT_EQ(b.values.size(), 1u);
  EXPECT_EQ(b.values[0].item, 0u);
  EXPECT_EQ(b.values[0].text, "https://example.com/b.jpg");
}

// Found by fuzz_roundtrip: text XML cannot carry at all (XML 1.0 2.2: C0
// controls but TAB, LF and CR; U+FFFE, U+FFFF) was kept and written, and the
// sitemap was not well-formed. Such a value is dropped like any invalid one
// (fuzz/corpus/roundtrip/control_character_in_caption).
TEST(BuildExtensions, TextXmlCannotCarryIsDropped) {
  struct row {
    extension_kind kind;
    std::string_view key, text;
    bool kept;
  };
  const row rows[] = {
      {image, "caption",
       "a\x01"
       "b",
       false},
      {image, "caption", "a\x1F", false},
      {image, "caption", std::string_view("a\0b", 3), false},
      {image, "caption", "\x0B", false},
      {image, "caption", "a\xEF\xBF\xBE", false},  // U+FFFE
      {image, "caption", "\xEF\xBF\xBFz", false},  // U+FFFF
      {image, "caption", "a\x7F\xC2\x85\xEF\xBF\xBD\xF0\x9F\x98\x80", true},
      {image, "caption", "tab\tlf\ncr\r.", true},
      {alternate, "href", "android-app://com.example/\xEF\xBF\xBF", false},
      {alternate, "href", "android-app://com.example/\xFF", false},
      {alternate, "href", "android-app://com.example/\xC3\xBC", true},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(testing::PrintToString(std::string(r.text)));
    const std::string_view required = r.kind == image ? "loc" : "hreflang";
    const std::string_view required_text =
        r.kind == image ? "https://example.com/a.jpg" : "de";
    auto b = build(
        {{r.kind, required, 0, required_text}, {r.kind, r.key, 0, r.text}});
    // An image keeps its loc; a link without its href is dropped whole.
    EXPECT_EQ(b.values.size(), r.kept ? 2u : r.kind == image ? 1u : 0u);
    if (!r.kept) {
      ASSERT_FALSE(b.warnings.empty());
      EXPECT_NE(b.warnings[0].find("dropped"), std::string::npos);
    } else {
      EXPECT_TRUE(b.warnings.empty()) << b.warnings.front();
    }
  }
}

// An alternate's href is any absolute URI the schema accepts: an http(s)
// one is a URL (normalised, or dropped), another scheme keeps what xs:anyURI
// keeps (found by fuzz_roundtrip: "https:[//x" was written and failed the
// schema).
TEST(BuildExtensions, AnAlternatesHrefIsAUriTheSchemaAccepts) {
  struct row {
    std::string_view href, written;  // written "" when dropped
  };
  const row rows[] = {
      {"https:[//x.example/", ""},
      {"HTTPS://Example.com/a", "https://example.com/a"},
      {"http:relative", ""},
      {"android-app://com.example/p/&><'\"", "android-app://com.example/p/&><'\""},
      {"android-app://com.example/[x]", ""},
      {"ios-app://1/a#b#c", ""},
      {"ios-app://1/a#b", "ios-app://1/a#b"},
      {"android-app://com.example/%4", ""},
      {"android-app://com.example/%41%zz", ""},
      {"android-app://com.example/%41", "android-app://com.example/%41"},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(std::string(r.href));
    auto b = build({{alternate, "hreflang", 0, "de"}, {alternate, "href", 0, r.href}});
    if (r.written.empty()) {
      EXPECT_TRUE(b.values.empty());
      ASSERT_FALSE(b.warnings.empty());
      EXPECT_NE(b.warnings[0].find("dropped"), std::string::npos) << b.warnings[0];
    } else {
      ASSERT_EQ(b.values.size(), 2u);
      EXPECT_EQ(b.values[1].text, r.written);
      EXPECT_TRUE(b.warnings.empty()) << b.warnings.front();
    }
  }
}

TEST(BuildExtensions, AVideoNeedsItsRequiredFieldsAndAContentOrPlayerLoc) {
  auto missing_title =
      build({{video, "thumbnail_loc", 0, "https://example.com/t.jpg"},
             {video, "description", 0, "d"},
             {video, "content_loc", 0, "https://example.com/v.mp4"}});
  EXPECT_TRUE(missing_title.values.empty());
  ASSERT_EQ(missing_title.warnings.size(), 1u);
  EXPECT_NE(missing_title.warnings[0].find("no valid video:title"),
            std::string::npos);

  auto no_media = build({{video, "thumbnail_loc", 0, "https://example.com/t"},
                         {video, "title", 0, "t"},
                         {video, "description", 0, "d"}});
  EXPECT_TRUE(no_media.values.empty());
  ASSERT_EQ(no_media.warnings.size(), 1u);
  EXPECT_NE(no_media.warnings[0].find("neither video:content_loc nor"),
            std::string::npos);
}

TEST(BuildExtensions, AVideoIsWrittenInSchemaOrderWithAttributes) {
  // Given out of schema order; prices keep their own attributes.
  auto b = build({{video, "player_loc", 0, "https://example.com/p"},
                  {video, "player_loc@autoplay", 0, "ap=1"},
                  {video, "price", 0, "1.99"},
                  {video, "price@currency", 0, "EUR"},
                  {video, "description", 0, "d"},
                  {video, "title", 0, "<t>"},
                  {video, "price", 0, "2.50"},
                  {video, "price@currency", 0, "USD"},
                  {video, "thumbnail_loc", 0, "https://example.com/t.jpg"},
                  {video, "duration", 0, "600"}});
  EXPECT_TRUE(b.warnings.empty()) << b.warnings[0];
  EXPECT_EQ(b.xml,
            "<video:video><video:thumbnail_loc>https://example.com/t.jpg"
            "</video:thumbnail_loc><video:title>&lt;t&gt;</video:title>"
            "<video:description>d</video:description>"
            "<video:player_loc autoplay=\"ap=1\">https://example.com/p"
            "</video:player_loc><video:duration>600</video:duration>"
            "<video:price currency=\"EUR\">1.99</video:price>"
            "<video:price currency=\"USD\">2.50</video:price></video:video>");
}

TEST(BuildExtensions, RangesListsAndChoicesAreChecked) {
  auto b = build({{video, "thumbnail_loc", 0, "https://example.com/t.jpg"},
                  {video, "title", 0, "t"},
                  {video, "description", 0, "d"},
                  {video, "content_loc", 0, "https://example.com/v.mp4"},
                  {video, "duration", 0, "28801"},
                  {video, "rating", 0, "4.5"},
                  {video, "family_friendly", 0, "maybe"},
                  {video, "restriction", 0, "US CA"},
                  {video, "restriction@relationship", 0, "allow"},
                  {video, "platform", 0, "web phone"}});
  ASSERT_EQ(b.warnings.size(), 3u);
  EXPECT_NE(b.warnings[0].find("video:duration \"28801\" dropped: above"),
            std::string::npos)
      << b.warnings[0];
  EXPECT_NE(b.warnings[1].find("video:family_friendly"), std::string::npos);
  EXPECT_NE(b.warnings[2].find("video:platform"), std::string::npos);
  EXPECT_NE(b.xml.find("<video:rating>4.5</video:rating>"), std::string::npos);
  EXPECT_NE(b.xml.find("<video:restriction relationship=\"allow\">US CA"
                       "</video:restriction>"),
            std::string::npos)
      << b.xml;
}

TEST(BuildExtensions, ARequiredAttributeIsRequiredOnlyWithItsElement) {
  auto b = build({{video, "thumbnail_loc", 0, "https://example.com/t.jpg"},
                  {video, "title", 0, "t"},
                  {video, "description", 0, "d"},
                  {video, "content_loc", 0, "https://example.com/v.mp4"},
                  {video, "restriction", 0, "US"}});
  ASSERT_EQ(b.warnings.size(), 1u);
  EXPECT_NE(b.warnings[0].find("no valid video:restriction relationship"),
            std::string::npos)
      << b.warnings[0];
}

// Found by fuzz_roundtrip: a video:tvshow without its video_type was written,
// and sitemap-video.xsd rejects it (fuzz/corpus/roundtrip/tvshow_without_
// video_type). The group goes; the video and a complete group stay.
TEST(BuildExtensions, ATvshowNeedsItsTitleAndTypeButMayBeAbsent) {
  auto video_with = [](std::initializer_list<raw_value> tvshow) {
    std::vector<raw_value> raw = {
        {video, "thumbnail_loc", 0, "https://example.com/t.jpg"},
        {video, "title", 0, "t"},
        {video, "description", 0, "d"},
        {video, "content_loc", 0, "https://example.com/v.mp4"}};
    raw.insert(raw.end(), tvshow);
    return build(raw);
  };
  const auto none = video_with({});
  EXPECT_TRUE(none.warnings.empty());
  EXPECT_EQ(none.xml.find("tvshow"), std::string::npos);

  const auto whole = video_with({{video, "tvshow.show_title", 0, "S"},
                                 {video, "tvshow.video_type", 0, "full"},
                                 {video, "tvshow.season_number", 0, "2"}});
  EXPECT_TRUE(whole.warnings.empty());
  EXPECT_NE(whole.xml.find("<video:tvshow><video:show_title>S"
                             "</video:show_title><video:video_type>full"
                             "</video:video_type><video:season_number>2"
                             "</video:season_number></video:tvshow>"),
            std::string::npos)
      << whole.xml;

  for (const auto& lacking :
       {video_with({{video, "tvshow.show_title", 0, "S"},
                    {video, "tvshow.season_number", 0, "1"}}),
        video_with({{video, "tvshow.video_type", 0, "clip"}}),
        video_with({{video, "tvshow.show_title", 0, "S"},
                    {video, "tvshow.video_type", 0, "bad"}})}) {
    EXPECT_EQ(lacking.xml.find("tvshow"), std::string::npos) << lacking.xml;
    EXPECT_NE(lacking.xml.find("<video:content_loc>"), std::string::npos);
    ASSERT_FALSE(lacking.warnings.empty());
    EXPECT_NE(lacking.warnings.back().find(
                  "video:tvshow dropped: it has no valid video:tvshow."),
              std::string::npos)
        << lacking.warnings.back();
  }
}

TEST(BuildExtensions, NewsIsWrittenWithItsPublicationGroup) {
  auto b = build({{news, "title", 0, "Headline"},
                  {news, "publication_date", 0, "2026-11-22T10:00:00Z"},
                  {news, "publication.language", 0, "en"},
                  {news, "publication.name", 0, "The Daily"}});
  EXPECT_TRUE(b.warnings.empty());
  EXPECT_EQ(b.xml,
            "<news:news><news:publication><news:name>The Daily</news:name>"
            "<news:language>en</news:language></news:publication>"
            "<news:publication_date>2026-11-22T10:00:00Z"
            "</news:publication_date><news:title>Headline</news:title>"
            "</news:news>");
  auto bad = build({{news, "title", 0, "Headline"},
                    {news, "publication_date", 0, "2026-11-22"},
                    {news, "publication.language", 0, "en-US"},
                    {news, "publication.name", 0, "The Daily"}});
  EXPECT_TRUE(bad.values.empty());
  ASSERT_EQ(bad.warnings.size(), 2u);
  EXPECT_NE(bad.warnings[0].find("news:publication.language \"en-US\""),
            std::string::npos);
}

TEST(BuildExtensions, AnAlternateIsOneEmptyLinkElement) {
  auto b = build({{alternate, "hreflang", 0, "de-AT"},
                  {alternate, "href", 0, "https://example.com/de/"}});
  EXPECT_TRUE(b.warnings.empty());
  EXPECT_EQ(b.xml,
            "<xhtml:link rel=\"alternate\" hreflang=\"de-AT\" "
            "href=\"https://example.com/de/\"/>");
  auto underscore = build({{alternate, "hreflang", 0, "de_AT"},
                           {alternate, "href", 0, "https://example.com/de/"}});
  EXPECT_TRUE(underscore.values.empty());
  ASSERT_EQ(underscore.warnings.size(), 2u);
  EXPECT_NE(underscore.warnings[0].find("xhtml:link hreflang \"de_AT\""),
            std::string::npos);
}

TEST(BuildExtensions, ItemsAreOrderedByKindAndCapped) {
  std::vector<extension_value> values;
  std::vector<std::string> urls;
  for (int i = 0; i < 1001; ++i)
    urls.push_back("https://example.com/" + std::to_string(i) + ".jpg");
  const auto loc = field(image, "loc");
  for (std::uint32_t i = 0; i < 1001; ++i) values.push_back({loc, i, urls[i]});
  values.push_back({field(alternate, "hreflang"), 1001, "en"});
  values.push_back({field(alternate, "href"), 1001, "https://example.com/"});
  entry_builder builder{url_normalizer{}};
  url_entry e;
  std::vector<field_warning> warnings;
  builder.build_extensions(values, e, warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].message.find("at most 1,000"), std::string::npos);
  ASSERT_EQ(e.extensions.size(), 1002u);
  // The alternate comes first (extension_kind order), then images in order.
  EXPECT_EQ(extension_fields()[e.extensions[0].field].kind, alternate);
  EXPECT_EQ(e.extensions[2].text, "https://example.com/0.jpg");
  EXPECT_EQ(e.extensions.back().item, 1000u);
}

// --- the writer's namespace declarations ------------------------------------

struct memory_files {
  std::deque<std::string> data;
  sink_factory factory() {
    return [this](std::size_t) -> result<std::unique_ptr<sink>> {
      data.emplace_back();
      return std::unique_ptr<sink>(std::make_unique<memory_sink>(&data.back()));
    };
  }
};

constexpr std::string_view plain_root =
    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">";
constexpr std::string_view image_decl =
    " xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\"";
constexpr std::string_view xhtml_decl =
    " xmlns:xhtml=\"http://www.w3.org/1999/xhtml\"";

TEST(WriterNamespaces, AFileDeclaresExactlyTheExtensionsItsEntriesUse) {
  const std::vector<extension_value> img = {
      {field(image, "loc"), 0, "https://example.com/a.jpg"}};
  const std::vector<extension_value> alt = {
      {field(alternate, "hreflang"), 0, "en"},
      {field(alternate, "href"), 0, "https://example.com/a"}};
  memory_files files;
  writer_options o;
  o.max_urls = 2;
  sitemap_writer w(o, files.factory());
  url_entry e;
  e.loc = "https://example.com/a";
  e.extensions = alt;
  ASSERT_EQ(w.add(e), add_status::added);
  e.loc = "https://example.com/b";
  e.extensions = img;
  ASSERT_EQ(w.add(e), add_status::added);
  e.loc = "https://example.com/c";
  e.extensions = {};
  ASSERT_EQ(w.add(e), add_status::added);
  ASSERT_TRUE(w.finish());
  ASSERT_EQ(files.data.size(), 2u);
  // Declared in extension_kind order, whatever order the entries came in.
  EXPECT_NE(
      files.data[0].find(
          "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"" +
          std::string(xhtml_decl) + std::string(image_decl) + ">\n"),
      std::string::npos)
      << files.data[0];
  EXPECT_NE(files.data[1].find(std::string(plain_root) + "\n"),
            std::string::npos)
      << files.data[1];
  // The byte accounting includes the declarations.
  EXPECT_EQ(w.parts()[0].bytes, files.data[0].size());
  EXPECT_EQ(w.parts()[1].bytes, files.data[1].size());
}

// https://example.com/with-image, with one image.
void add_an_image_entry(sitemap_writer& w) {
  url_entry e;
  const std::vector<extension_value> img = {
      {field(image, "loc"), 0, "https://example.com/a.jpg"}};
  e.loc = "https://example.com/with-image";
  e.extensions = img;
  ASSERT_EQ(w.add(e), add_status::added);
}

// 2,200 entries of about 2 KB (past the 4 MiB a writer may hold back),
// then one with an image, and the end.
void add_long_entries_then_an_image(sitemap_writer& w) {
  const std::string long_path(2000, 'a');
  url_entry e;
  std::vector<std::string> locs;
  for (int i = 0; i < 2200; ++i)
    locs.push_back("https://example.com/" + std::to_string(i) + long_path);
  for (const auto& loc : locs) {
    e.loc = loc;
    ASSERT_EQ(w.add(e), add_status::added);
  }
  add_an_image_entry(w);
  ASSERT_TRUE(w.finish());
}

TEST(WriterNamespaces, ANamespaceFirstNeededAfterTheHeldBytesStartsAFile) {
  // Long URLs fill the 4 MiB the writer holds back before the header is
  // final; an image after that cannot be declared in the first file.
  memory_files files;
  sitemap_writer w({}, files.factory());
  add_long_entries_then_an_image(w);
  ASSERT_EQ(files.data.size(), 2u);
  EXPECT_EQ(w.parts()[0].urls, 2200u);
  EXPECT_EQ(files.data[0].find("xmlns:image"), std::string::npos);
  EXPECT_NE(files.data[1].find(image_decl), std::string::npos);
  EXPECT_EQ(w.parts()[1].bytes, files.data[1].size());
}

// A caller that parked its entries knows what they use (expect_uses()): the
// file declares it at once, and its bytes go to the sink as they come
// instead of after the first 4 MiB, so the image met late is in the same
// file (where the test above needs a second one).
TEST(WriterNamespaces, APromiseDeclaresAtOnceAndHoldsNothingBack) {
  struct largest_write_sink final : sink {
    std::string* out;
    std::size_t* largest;
    largest_write_sink(std::string* o, std::size_t* l) : out(o), largest(l) {}
    status write(const char* data, std::size_t size) override {
      *largest = std::max(*largest, size);
      out->append(data, size);
      return {};
    }
    status close() override { return {}; }
  };
  std::deque<std::string> files;
  std::size_t largest = 0;
  sitemap_writer w({}, [&](std::size_t) -> result<std::unique_ptr<sink>> {
    files.emplace_back();
    return std::unique_ptr<sink>(
        std::make_unique<largest_write_sink>(&files.back(), &largest));
  });
  w.expect_uses(mask_of(extension_kind::image));
  add_long_entries_then_an_image(w);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(w.parts()[0].urls, 2201u);
  EXPECT_EQ(files[0].find(std::string(plain_root).substr(
                              0, plain_root.size() - 1) +
                          std::string(image_decl) + ">\n"),
            files[0].find("<urlset"));
  EXPECT_EQ(w.parts()[0].bytes, files[0].size());
  // Written every 256 KiB and an entry, not held to 4 MiB.
  EXPECT_LT(largest, std::size_t{300 * 1024});
}

// A promise broken is still a valid set: the entry that needs more starts
// a file that declares it, and the first file declares only what it was
// promised.
TEST(WriterNamespaces, AnEntryBeyondThePromiseStartsAFileThatDeclaresIt) {
  memory_files files;
  sitemap_writer w({}, files.factory());
  w.expect_uses(0);
  url_entry e;
  e.loc = "https://example.com/plain";
  ASSERT_EQ(w.add(e), add_status::added);
  add_an_image_entry(w);
  ASSERT_TRUE(w.finish());
  ASSERT_EQ(files.data.size(), 2u);
  EXPECT_NE(files.data[0].find(std::string(plain_root) + "\n"),
            std::string::npos);
  EXPECT_NE(files.data[1].find(image_decl), std::string::npos);
  for (std::size_t i = 0; i < 2; ++i)
    EXPECT_EQ(w.parts()[i].bytes, files.data[i].size());
}

TEST(WriterNamespaces, DeclarationsCountTowardTheByteLimit) {
  const std::vector<extension_value> img = {
      {field(image, "loc"), 0, "https://example.com/a.jpg"}};
  // The plain entry is longer than the declaration, so the image entry
  // fits a file of its own.
  const std::string long_loc = "https://example.com/" + std::string(100, 'p');
  url_entry plain;
  plain.loc = long_loc;
  url_entry with_image;
  with_image.loc = "https://example.com/i";
  with_image.extensions = img;
  // Size one file to hold exactly the two entries without a declaration.
  std::string sizes;
  append_entry(sizes, plain, document_type::urlset);
  append_entry(sizes, with_image, document_type::urlset);
  const std::size_t header =
      std::string_view("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n").size() +
      plain_root.size() + 1;
  writer_options o;
  o.max_bytes = header + sizes.size() + std::string_view("</urlset>\n").size();
  memory_files files;
  sitemap_writer w(o, files.factory());
  ASSERT_EQ(w.add(plain), add_status::added);
  ASSERT_EQ(w.add(with_image), add_status::added);
  ASSERT_TRUE(w.finish());
  // The declaration does not fit beside both, so the image starts a file.
  ASSERT_EQ(files.data.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_LE(files.data[i].size(), o.max_bytes);
    EXPECT_EQ(w.parts()[i].bytes, files.data[i].size());
  }
}

}  // namespace
}  // namespace sitemill
