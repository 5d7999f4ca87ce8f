// The exact bytes append_entry() writes for one <url> (sitemaps.org XML
// tag definitions: loc, lastmod, changefreq, priority, in that order), every
// combination of the optional fields, each field at its longest, and where
// it says the extensions start.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sitemill/entry/entry.h"
#include "sitemill/entry/extensions.h"
#include "sitemill/write/writer.h"

namespace sitemill {
namespace {

w3c_datetime date(std::string_view text) {
  w3c_datetime d;
  EXPECT_EQ(parse_w3c_datetime(text, d), datetime_problem::ok) << text;
  return d;
}

struct row {
  std::string_view lastmod;  // "" for none
  changefreq freq;
  std::string_view prio;  // "" for none
  std::string_view core;  // expected, between </loc> and </url>
};

TEST(WriterEntryBytes, EveryCombinationOfTheOptionalFields) {
  const row rows[] = {
      {"", changefreq::unset, "", ""},
      {"2026-11-28", changefreq::unset, "", "<lastmod>2026-11-28</lastmod>"},
      {"", changefreq::daily, "", "<changefreq>daily</changefreq>"},
      {"", changefreq::unset, "0.8", "<priority>0.8</priority>"},
      {"2026-11-28T06:17:00Z", changefreq::hourly, "",
       "<lastmod>2026-11-28T06:17:00Z</lastmod>"
       "<changefreq>hourly</changefreq>"},
      {"2026-11-28", changefreq::unset, "1",
       "<lastmod>2026-11-28</lastmod>"
       "<priority>1.0</priority>"},
      {"", changefreq::never, ".5",
       "<changefreq>never</changefreq><priority>0.5</priority>"},
      // Every field at its longest: the 35-byte lastmod, "monthly" and ten
      // fraction digits of priority.
      {"2024-02-29T23:59:59.123456789-14:00", changefreq::monthly,
       "0.1234567891",
       "<lastmod>2024-02-29T23:59:59.123456789-14:00</lastmod>"
       "<changefreq>monthly</changefreq><priority>0.1234567891</priority>"},
  };
  for (const row& r : rows) {
    url_entry e;
    e.loc = "https://example.com/a?b=1&c='d'";
    if (!r.lastmod.empty()) e.lastmod = date(r.lastmod);
    e.freq = r.freq;
    if (!r.prio.empty()) e.prio = priority::parse(r.prio);
    std::string out = "before";
    std::size_t extensions_at = 0;
    append_entry(out, e, document_type::urlset, &extensions_at);
    const std::string head =
        "before<url><loc>https://example.com/a?b=1&amp;c=&apos;d&apos;</loc>";
    EXPECT_EQ(out, head + std::string(r.core) + "</url>\n") << r.core;
    EXPECT_EQ(extensions_at, head.size() + r.core.size()) << r.core;
  }
}

TEST(WriterEntryBytes, ExtensionsAndForeignXmlFollowTheCoreFields) {
  const extension_field_id image_loc =
      *find_extension_field(extension_kind::image, "loc");
  const std::vector<extension_value> image = {
      {image_loc, 0, "https://example.com/i.png"}};
  std::string image_xml;
  append_extensions(image_xml, image);
  ASSERT_FALSE(image_xml.empty());

  url_entry e;
  e.loc = "https://example.com/p";
  e.prio = priority::parse("0.3");
  const std::string core =
      "<url><loc>https://example.com/p</loc><priority>0.3</priority>";
  for (int with_image = 0; with_image < 2; ++with_image) {
    for (std::string_view foreign : {"", "<x:rating>5</x:rating>"}) {
      e.extensions = with_image != 0 ? std::span<const extension_value>(image)
                                     : std::span<const extension_value>();
      e.foreign_xml = foreign;
      std::string out;
      std::size_t extensions_at = 0;
      append_entry(out, e, document_type::urlset, &extensions_at);
      EXPECT_EQ(out, core + (with_image != 0 ? image_xml : "") +
                         std::string(foreign) + "</url>\n");
      EXPECT_EQ(extensions_at, core.size());
    }
  }
}

TEST(WriterEntryBytes, ATextSitemapCarriesTheUrlAlone) {
  url_entry e;
  e.loc = "https://example.com/a?b=1&c=2";
  e.lastmod = date("2026-11-28");
  e.freq = changefreq::daily;
  e.prio = priority::parse("0.5");
  std::string out;
  append_entry(out, e, document_type::text);
  EXPECT_EQ(out, "https://example.com/a?b=1&c=2\n");
}

}  // namespace
}  // namespace sitemill
