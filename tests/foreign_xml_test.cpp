// Elements of namespaces sitemill has no schema for (docs/protocol.md 1.8
// "Extending", checklist 39): the parser re-serialises each one inside a
// <url> (parsed_entry::foreign_xml), and the writer writes it back after
// the known extensions, counting its bytes like any other (checklist 16).
#include <gtest/gtest.h>
#include <libxml/parser.h>

#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/parse/sitemap_parser.h"
#include "sitemill/write/writer.h"

namespace sitemill {
namespace {

constexpr std::string_view head =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"\n"
    "  xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\"\n"
    "  xmlns:v=\"https://vendor.example/ns\">\n";

struct read_back {
  std::vector<std::string> foreign;  // per entry
  std::vector<diagnostic> diagnostics;
  parse_summary summary;
  bool has(std::string_view code) const {
    for (const auto& d : diagnostics)
      if (d.code == code) return true;
    return false;
  }
  std::string describe() const {
    std::string s;
    for (const auto& d : diagnostics) s += d.code + ": " + d.message + "\n";
    return s;
  }
};

read_back parse(std::string_view doc, bool checks = false) {
  struct handler final : parse_handler {
    read_back* out;
    void on_entry(const parsed_entry& e) override {
      out->foreign.emplace_back(e.foreign_xml);
    }
    void on_diagnostic(const diagnostic& d) override {
      out->diagnostics.push_back(d);
    }
  } h;
  read_back r;
  h.out = &r;
  parse_options o;
  o.schema_checks = checks;
  r.summary = parse_bytes(doc, h, o);
  return r;
}

std::string urlset_of(std::string_view urls) {
  return std::string(head) + std::string(urls) + "</urlset>\n";
}

std::string url_with(std::string_view inside) {
  return "<url><loc>https://www.example.com/a</loc>" + std::string(inside) +
         "</url>\n";
}

// The fragment as the writer places it: in a <url> of a <urlset> whose root
// declares only the sitemap namespace. Well-formed for libxml2, and read
// back by sitemill to the very same fragment (namespaces and text kept).
void expect_writes_back(const std::string& fragment) {
  const std::string doc =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
      "<url><loc>https://www.example.com/a</loc>" +
      fragment + "</url>\n</urlset>\n";
  xmlDocPtr d = xmlReadMemory(doc.data(), static_cast<int>(doc.size()), nullptr,
                              nullptr, XML_PARSE_NONET);
  EXPECT_NE(d, nullptr) << "not well-formed:\n" << doc;
  if (d != nullptr) xmlFreeDoc(d);
  const read_back again = parse(doc);
  ASSERT_EQ(again.foreign.size(), 1u) << again.describe();
  EXPECT_EQ(again.foreign[0], fragment) << "not the same when read again";
}

TEST(ForeignXml, KeepsAPageMapWithItsDefaultNamespace) {
  const read_back r = parse(urlset_of(url_with(
      "\n<PageMap xmlns=\"http://www.google.com/schemas/sitemap-pagemap/1.0\">"
      "<DataObject type=\"document\" id=\"hibachi\">"
      "<Attribute name=\"name\">Dragon &amp; Tiger</Attribute>"
      "<Attribute name=\"review\">3.5</Attribute>"
      "</DataObject></PageMap>\n")));
  ASSERT_EQ(r.foreign.size(), 1u);
  EXPECT_EQ(r.foreign[0],
            "<PageMap xmlns=\"http://www.google.com/schemas/sitemap-pagemap/"
            "1.0\"><DataObject type=\"document\" id=\"hibachi\">"
            "<Attribute name=\"name\">Dragon &amp; Tiger</Attribute>"
            "<Attribute name=\"review\">3.5</Attribute>"
            "</DataObject></PageMap>");
  expect_writes_back(r.foreign[0]);
}

TEST(ForeignXml, EscapesAVendorElementsAttributesAndTextAgain) {
  const read_back r = parse(urlset_of(url_with(
      "<v:note lang='de' title=\"a &quot;b&quot; &lt;c&gt; &amp; it's\">"
      "x &lt; y &amp;&amp; z &gt; w&#13;\ttab &#x263A;</v:note>"
      "<v:empty/>")));
  ASSERT_EQ(r.foreign.size(), 1u);
  EXPECT_EQ(r.foreign[0],
            "<v:note xmlns:v=\"https://vendor.example/ns\" lang=\"de\" "
            "title=\"a &quot;b&quot; &lt;c&gt; &amp; it&apos;s\">"
            "x &lt; y &amp;&amp; z &gt; w&#13;\ttab \xE2\x98\xBA</v:note>"
            "<v:empty xmlns:v=\"https://vendor.example/ns\"/>");
  expect_writes_back(r.foreign[0]);
}

TEST(ForeignXml, WritesACdataSectionAsEscapedText) {
  const read_back r = parse(urlset_of(
      url_with("<v:html><![CDATA[<b>bold</b> & <i>more</i> ]]]]><![CDATA[>]]>"
               "</v:html>")));
  ASSERT_EQ(r.foreign.size(), 1u);
  EXPECT_EQ(r.foreign[0],
            "<v:html xmlns:v=\"https://vendor.example/ns\">&lt;b&gt;bold&lt;/"
            "b&gt; &amp; &lt;i&gt;more&lt;/i&gt; ]]&gt;</v:html>");
  expect_writes_back(r.foreign[0]);
}

TEST(ForeignXml, DeclaresWhatNestedElementsUseWhereTheyUseIt) {
  const read_back r = parse(urlset_of(url_with(
      "<v:a v:kind=\"outer\"><v:b><w:c xmlns:w=\"urn:w\" w:x=\"1\"/></v:b>"
      "<plain xmlns=\"\">no namespace</plain>"
      "<loc>the sitemap's own namespace, by default</loc>"
      "<v:d xml:lang=\"fr\">texte</v:d></v:a>")));
  ASSERT_EQ(r.foreign.size(), 1u);
  EXPECT_EQ(r.foreign[0],
            "<v:a xmlns:v=\"https://vendor.example/ns\" v:kind=\"outer\">"
            "<v:b><w:c xmlns:w=\"urn:w\" w:x=\"1\"/></v:b>"
            "<plain xmlns=\"\">no namespace</plain>"
            "<loc>the sitemap&apos;s own namespace, by default</loc>"
            "<v:d xml:lang=\"fr\">texte</v:d></v:a>");
  expect_writes_back(r.foreign[0]);
}

// The input binds `image` to a vendor's namespace inside one <url>, where
// the writer's root binds it to Google's: the vendor's element is renamed,
// so every image: of the output is Google's.
TEST(ForeignXml, RenamesAPrefixTheWritersBindToAnExtension) {
  const read_back r = parse(urlset_of(url_with(
      "<image:image><image:loc>https://www.example.com/a.jpg</image:loc>"
      "</image:image>"
      "<image:caption xmlns:image=\"https://vendor.example/img\" "
      "image:lang=\"en\">A vendor's caption"
      "<image:loc>not an image</image:loc></image:caption>"
      "<v:box><news:news xmlns:news=\"https://vendor.example/news\">"
      "<news:news>inner</news:news></news:news></v:box>")));
  ASSERT_EQ(r.foreign.size(), 1u);
  EXPECT_EQ(r.foreign[0],
            "<image1:caption xmlns:image1=\"https://vendor.example/img\" "
            "image1:lang=\"en\">A vendor&apos;s caption"
            "<image1:loc>not an image</image1:loc></image1:caption>"
            "<v:box xmlns:v=\"https://vendor.example/ns\">"
            "<news1:news xmlns:news1=\"https://vendor.example/news\">"
            "<news1:news>inner</news1:news></news1:news></v:box>");
  EXPECT_EQ(r.foreign[0].find("<image:"), std::string::npos);
  EXPECT_EQ(r.foreign[0].find("<news:"), std::string::npos);
  expect_writes_back(r.foreign[0]);
}

// A generated name never takes a prefix the element itself uses.
TEST(ForeignXml, ARenamedPrefixAvoidsTheElementsOwnPrefixes) {
  const read_back r = parse(urlset_of(
      url_with("<video:a xmlns:video=\"urn:one\" xmlns:video1=\"urn:two\" "
               "video1:x=\"1\" video:y=\"2\"/>")));
  ASSERT_EQ(r.foreign.size(), 1u);
  EXPECT_EQ(r.foreign[0],
            "<video2:a xmlns:video2=\"urn:one\" xmlns:video1=\"urn:two\" "
            "video1:x=\"1\" video2:y=\"2\"/>");
  expect_writes_back(r.foreign[0]);
}

// What a hostile sitemap could try, to make the writer emit markup of its
// choosing: it all comes out as text or not at all.
TEST(ForeignXml, AHostileFragmentCannotBreakOut) {
  const read_back r = parse(urlset_of(
      url_with("<v:x a=\"&quot;/&gt;&lt;evil/&gt;\">"
               "]]&gt; &lt;!-- &lt;/v:x&gt;&lt;/url&gt;&lt;url&gt; --&gt;"
               "<!-- </v:x></url><evil/> -->"
               "<?pi </v:x><evil/>?>"
               "<![CDATA[</v:x></url></urlset><evil/><!--]]>"
               "&#60;script&#62; &amp;amp; &#x26;lt;"
               "</v:x>")));
  ASSERT_EQ(r.foreign.size(), 1u) << r.describe();
  const std::string& f = r.foreign[0];
  EXPECT_EQ(f,
            "<v:x xmlns:v=\"https://vendor.example/ns\" "
            "a=\"&quot;/&gt;&lt;evil/&gt;\">"
            "]]&gt; &lt;!-- &lt;/v:x&gt;&lt;/url&gt;&lt;url&gt; --&gt;"
            "&lt;/v:x&gt;&lt;/url&gt;&lt;/urlset&gt;&lt;evil/&gt;&lt;!--"
            "&lt;script&gt; &amp;amp; &amp;lt;</v:x>");
  EXPECT_EQ(f.find("<evil"), std::string::npos);
  EXPECT_EQ(f.find("<!--"), std::string::npos);
  EXPECT_EQ(f.find("<?"), std::string::npos);
  expect_writes_back(f);
}

TEST(ForeignXml, KeepsElementsOfEachUrlApart) {
  const read_back r = parse(urlset_of(
      url_with("<v:one/>") + "<url><loc>https://www.example.com/b</loc></url>" +
      url_with("<v:two/>")));
  ASSERT_EQ(r.foreign.size(), 3u);
  EXPECT_EQ(r.foreign[0], "<v:one xmlns:v=\"https://vendor.example/ns\"/>");
  EXPECT_EQ(r.foreign[1], "");
  EXPECT_EQ(r.foreign[2], "<v:two xmlns:v=\"https://vendor.example/ns\"/>");
}

// Neither a typo of a known namespace (search engines ignore it: the author
// means the real one) nor anything outside a <url> is kept.
TEST(ForeignXml, KeepsNeitherANearNamespaceNorWhatIsOutsideAUrl) {
  const std::string doc =
      std::string(head) + "<v:top/>\n" +
      url_with(
          "<i:image xmlns:i=\"http://www.google.com/schemas/"
          "sitemap-image/1.0\"><i:loc>https://www.example.com/a.jpg"
          "</i:loc></i:image>") +
      "</urlset>\n";
  const read_back r = parse(doc);
  ASSERT_EQ(r.foreign.size(), 1u);
  EXPECT_EQ(r.foreign[0], "");
  EXPECT_TRUE(r.has("extension-namespace-wrong")) << r.describe();
}

TEST(ForeignXml, SaysItIsKeptWhenReadToBeWrittenAgainOnly) {
  const std::string doc = urlset_of(url_with("<v:x/>"));
  const read_back gen = parse(doc, false);
  ASSERT_EQ(gen.diagnostics.size(), 1u) << gen.describe();
  EXPECT_EQ(gen.diagnostics[0].code, "extension-unknown-namespace");
  EXPECT_NE(gen.diagnostics[0].message.find(
                "its elements are kept as written and written back into their "
                "<url>"),
            std::string::npos)
      << gen.diagnostics[0].message;
  // check says what it said before.
  const read_back check = parse(doc, true);
  ASSERT_EQ(check.diagnostics.size(), 1u) << check.describe();
  EXPECT_EQ(check.diagnostics[0].code, "extension-unknown-namespace");
  EXPECT_EQ(check.diagnostics[0].level, severity::info);
  EXPECT_EQ(check.diagnostics[0].message.find("kept"), std::string::npos);
  EXPECT_TRUE(check.summary.valid_but_unknown_namespaces);
}

// 64 KiB per <url> (65,536 bytes of fragment): an element that would go
// past it is dropped and named; what came before, and a smaller one after,
// are kept; an element of exactly the cap is kept.
TEST(ForeignXml, DropsAnElementPastTheCapWithAWarning) {
  constexpr std::size_t cap = 64 * 1024;
  const std::string big(40 * 1024, 'x');
  const std::string open = "<v:alone xmlns:v=\"https://vendor.example/ns\">";
  const std::string close = "</v:alone>";
  const std::size_t fits = cap - open.size() - close.size();
  const read_back r = parse(urlset_of(
      url_with("<v:first>" + big + "</v:first><v:second>" + big +
               "</v:second><v:third>small</v:third>") +
      url_with("<v:alone>" + std::string(fits, 'y') + "</v:alone>") +
      url_with("<v:alone>" + std::string(fits + 1, 'z') + "</v:alone>")));
  ASSERT_EQ(r.foreign.size(), 3u) << r.describe();
  EXPECT_EQ(r.foreign[0],
            "<v:first xmlns:v=\"https://vendor.example/ns\">" + big +
                "</v:first><v:third xmlns:v=\"https://vendor.example/ns\">"
                "small</v:third>");
  EXPECT_EQ(r.foreign[1], open + std::string(fits, 'y') + close);
  EXPECT_EQ(r.foreign[1].size(), cap);
  EXPECT_EQ(r.foreign[2], "");
  std::vector<const diagnostic*> dropped;
  for (const auto& d : r.diagnostics)
    if (d.code == "extension-not-kept") dropped.push_back(&d);
  ASSERT_EQ(dropped.size(), 2u) << r.describe();
  EXPECT_EQ(dropped[0]->level, severity::warning);
  EXPECT_NE(dropped[0]->message.find("<v:second>"), std::string::npos)
      << dropped[0]->message;
  EXPECT_NE(dropped[0]->message.find("65,536 bytes"), std::string::npos);
  EXPECT_NE(dropped[1]->message.find("<v:alone>"), std::string::npos);
  // check writes nothing, so it says nothing of the cap.
  const read_back check =
      parse(urlset_of(url_with("<v:alone>" + std::string(fits + 1, 'z') +
                               "</v:alone>")),
            true);
  for (const auto& d : check.diagnostics)
    EXPECT_NE(d.code, "extension-not-kept") << d.message;
}

// --- the writer
// ----------------------------------------------------------------

struct memory_files {
  std::deque<std::string> data;
  sink_factory factory() {
    return [this](std::size_t) -> result<std::unique_ptr<sink>> {
      data.emplace_back();
      return std::unique_ptr<sink>(std::make_unique<memory_sink>(&data.back()));
    };
  }
};

TEST(ForeignXmlWriter, WritesTheFragmentAfterTheKnownExtensions) {
  memory_files files;
  sitemap_writer w({}, files.factory());
  url_entry e;
  e.loc = "https://www.example.com/a";
  const extension_value image[] = {
      {*find_extension_field(extension_kind::image, "loc"), 0,
       "https://www.example.com/a.jpg"}};
  e.extensions = image;
  e.foreign_xml = "<v:x xmlns:v=\"urn:v\"/>";
  ASSERT_EQ(w.add(e), add_status::added);
  ASSERT_TRUE(w.finish());
  ASSERT_EQ(files.data.size(), 1u);
  EXPECT_NE(
      files.data[0].find("<url><loc>https://www.example.com/a</loc>"
                         "<image:image><image:loc>https://www.example.com/"
                         "a.jpg</image:loc></image:image>"
                         "<v:x xmlns:v=\"urn:v\"/></url>\n"),
      std::string::npos)
      << files.data[0];
  EXPECT_EQ(w.parts()[0].bytes, files.data[0].size());
  // A text sitemap carries URLs only.
  std::string text;
  append_entry(text, e, document_type::text);
  EXPECT_EQ(text, "https://www.example.com/a\n");
}

// At the protocol's 52,428,800 bytes, with entries that are mostly
// fragment: every file is exactly as large as the writer counted, none is
// over, and each is full (the next entry would not have fitted).
TEST(ForeignXmlWriter, CountsFragmentBytesAtTheFiftyMebibyteLimit) {
  memory_files files;
  sitemap_writer w({}, files.factory());
  const std::string fragment =
      "<v:blob xmlns:v=\"urn:v\">" + std::string(60'000, 'b') + "</v:blob>";
  std::vector<std::string> locs;
  constexpr int n = 1'800;  // about 2.06 files' worth
  std::size_t entry_size = 0;
  for (int i = 0; i < n; ++i) {
    const std::string loc =
        "https://www.example.com/p/" + std::to_string(100'000 + i);
    url_entry e;
    e.loc = loc;
    e.foreign_xml = fragment;
    std::string one;
    append_entry(one, e, document_type::urlset);
    entry_size = one.size();
    ASSERT_EQ(w.add(e), add_status::added) << i;
  }
  ASSERT_TRUE(w.finish());
  ASSERT_EQ(files.data.size(), 3u);
  ASSERT_EQ(w.parts().size(), 3u);
  std::size_t urls = 0;
  for (std::size_t i = 0; i < files.data.size(); ++i) {
    EXPECT_EQ(w.parts()[i].bytes, files.data[i].size()) << i;
    EXPECT_LE(files.data[i].size(), max_bytes_per_sitemap) << i;
    if (i + 1 < files.data.size()) {
      EXPECT_GT(files.data[i].size() + entry_size, max_bytes_per_sitemap) << i;
    }
    urls += w.parts()[i].urls;
  }
  EXPECT_EQ(urls, static_cast<std::size_t>(n));
}

// An entry whose fragment alone cannot fit a file is refused, not split.
TEST(ForeignXmlWriter, RefusesAnEntryTooLargeForAnyFile) {
  memory_files files;
  writer_options o;
  o.max_bytes = 1'000;
  sitemap_writer w(o, files.factory());
  url_entry e;
  e.loc = "https://www.example.com/a";
  const std::string fragment =
      "<v:blob xmlns:v=\"urn:v\">" + std::string(1'000, 'b') + "</v:blob>";
  e.foreign_xml = fragment;
  EXPECT_EQ(w.add(e), add_status::too_large);
  e.foreign_xml = {};
  EXPECT_EQ(w.add(e), add_status::added);
  ASSERT_TRUE(w.finish());
}

}  // namespace
}  // namespace sitemill
