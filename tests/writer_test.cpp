// sitemap_writer and index_writer: serialisation, exact byte accounting and
// rotation at both limits (docs/protocol.md checklist 3, 4, 11, 16, 17).
#include "sitemill/write/writer.h"

#include <gtest/gtest.h>

#include <deque>
#include <string>

namespace sitemill {
namespace {

// Files written to memory, kept after the writer drops their sinks.
struct memory_files {
  std::deque<std::string> data;
  sink_factory factory() {
    return [this](std::size_t part) -> result<std::unique_ptr<sink>> {
      EXPECT_EQ(part, data.size());
      data.emplace_back();
      return std::unique_ptr<sink>(std::make_unique<memory_sink>(&data.back()));
    };
  }
};

url_entry entry(std::string_view loc) {
  url_entry e;
  e.loc = loc;
  return e;
}

w3c_datetime parse(std::string_view text) {
  w3c_datetime d;
  EXPECT_EQ(parse_w3c_datetime(text, d), datetime_problem::ok) << text;
  return d;
}

std::size_t count(const std::string& s, std::string_view what) {
  std::size_t n = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + 1))
    ++n;
  return n;
}

TEST(SitemapWriter, WritesDeclarationNamespaceAndChildrenInXsdOrder) {
  memory_files files;
  sitemap_writer w({}, files.factory());
  url_entry e = entry("https://example.com/a?x=1&y='2'");
  e.lastmod = parse("2024-05-01T10:20:30+02:00");
  e.freq = changefreq::weekly;
  e.prio = priority::parse(".5");
  ASSERT_EQ(w.add(e), add_status::added);
  ASSERT_TRUE(w.finish());
  ASSERT_EQ(files.data.size(), 1u);
  EXPECT_EQ(files.data[0],
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
            "<url><loc>https://example.com/a?x=1&amp;y=&apos;2&apos;</loc>"
            "<lastmod>2024-05-01T10:20:30+02:00</lastmod><changefreq>weekly</"
            "changefreq>"
            "<priority>0.5</priority></url>\n"
            "</urlset>\n");
}

TEST(SitemapWriter, OmitsAbsentFieldsAndNeverInventsLastmod) {
  memory_files files;
  sitemap_writer w({}, files.factory());
  ASSERT_EQ(w.add(entry("https://example.com/")), add_status::added);
  ASSERT_TRUE(w.finish());
  EXPECT_NE(files.data[0].find("<url><loc>https://example.com/</loc></url>\n"),
            std::string::npos);
  EXPECT_EQ(files.data[0].find("lastmod"), std::string::npos);
  ASSERT_EQ(w.parts().size(), 1u);
  EXPECT_FALSE(w.parts()[0].newest.has_value());
}

TEST(SitemapWriter, WritesNoFileWhenNothingWasAdded) {
  memory_files files;
  sitemap_writer w({}, files.factory());
  ASSERT_TRUE(w.finish());
  EXPECT_TRUE(files.data.empty());
  EXPECT_TRUE(w.parts().empty());
}

TEST(SitemapWriter, AddsStylesheetInstruction) {
  memory_files files;
  writer_options o;
  o.xsl_href = "/style.xsl?a=1&b=2";
  sitemap_writer w(o, files.factory());
  ASSERT_EQ(w.add(entry("https://example.com/")), add_status::added);
  ASSERT_TRUE(w.finish());
  EXPECT_NE(files.data[0].find("<?xml-stylesheet type=\"text/xsl\" "
                               "href=\"/style.xsl?a=1&amp;b=2\"?>\n"
                               "<urlset xmlns=\"http://www.sitemaps.org/"
                               "schemas/sitemap/0.9\">\n"),
            std::string::npos)
      << files.data[0];
}

TEST(SitemapWriter, TextFormatIsOneUnescapedUrlPerLine) {
  memory_files files;
  writer_options o;
  o.type = document_type::text;
  sitemap_writer w(o, files.factory());
  ASSERT_EQ(w.add(entry("https://example.com/a?b=1&c=2")), add_status::added);
  ASSERT_EQ(w.add(entry("https://example.com/b")), add_status::added);
  ASSERT_TRUE(w.finish());
  EXPECT_EQ(files.data[0],
            "https://example.com/a?b=1&c=2\nhttps://example.com/b\n");
  EXPECT_EQ(w.parts()[0].bytes, files.data[0].size());
}

// Checklist 11: split on whichever limit comes first, counting every byte.
class UrlLimit : public testing::TestWithParam<std::size_t> {};

TEST_P(UrlLimit, RotatesExactlyAtMaxUrls) {
  const std::size_t n = GetParam();
  memory_files files;
  writer_options o;
  o.max_urls = 10;
  sitemap_writer w(o, files.factory());
  std::string loc;
  for (std::size_t i = 0; i < n; ++i) {
    loc = "https://example.com/" + std::to_string(i);
    ASSERT_EQ(w.add(entry(loc)), add_status::added);
  }
  ASSERT_TRUE(w.finish());
  const std::size_t expected_files = (n + 9) / 10;
  ASSERT_EQ(files.data.size(), expected_files);
  std::size_t total = 0;
  for (std::size_t i = 0; i < files.data.size(); ++i) {
    EXPECT_EQ(count(files.data[i], "<url>"), w.parts()[i].urls);
    EXPECT_LE(w.parts()[i].urls, 10u);
    EXPECT_EQ(w.parts()[i].bytes, files.data[i].size());
    EXPECT_EQ(files.data[i].rfind("</urlset>\n"), files.data[i].size() - 10);
    total += w.parts()[i].urls;
  }
  EXPECT_EQ(total, n);
}

INSTANTIATE_TEST_SUITE_P(AroundTheLimit, UrlLimit,
                         testing::Values(1, 9, 10, 11, 19, 20, 21));

TEST(SitemapWriter, RotatesAtTheFullProtocolLimitOf50000) {
  memory_files files;
  sitemap_writer w({}, files.factory());
  std::string loc;
  for (std::size_t i = 0; i < 50'001; ++i) {
    loc = "https://example.com/" + std::to_string(i);
    ASSERT_EQ(w.add(entry(loc)), add_status::added);
  }
  ASSERT_TRUE(w.finish());
  ASSERT_EQ(w.parts().size(), 2u);
  EXPECT_EQ(w.parts()[0].urls, 50'000u);
  EXPECT_EQ(w.parts()[1].urls, 1u);
}

// The byte limit, swept one byte at a time around the size of a file with
// exactly k entries: at that size k fit, one byte less and the k-th moves on.
TEST(SitemapWriter, RotatesAtMaxBytesCountingDeclarationAndClosingTag) {
  auto sizes_with = [](std::size_t max_bytes, std::size_t n) {
    memory_files files;
    writer_options o;
    o.max_bytes = max_bytes;
    sitemap_writer w(o, files.factory());
    std::string loc;
    for (std::size_t i = 0; i < n; ++i) {
      loc = "https://example.com/page-" + std::to_string(i % 10);
      EXPECT_EQ(w.add(entry(loc)), add_status::added);
    }
    EXPECT_TRUE(w.finish());
    std::vector<std::size_t> urls;
    for (std::size_t i = 0; i < files.data.size(); ++i) {
      EXPECT_LE(files.data[i].size(), max_bytes);
      EXPECT_EQ(files.data[i].size(), w.parts()[i].bytes);
      urls.push_back(w.parts()[i].urls);
    }
    return urls;
  };
  // Size of one file holding 3 entries, measured with no limit in the way.
  memory_files probe;
  sitemap_writer w({}, probe.factory());
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(w.add(entry("https://example.com/page-" + std::to_string(i))),
              add_status::added);
  ASSERT_TRUE(w.finish());
  const std::size_t three = probe.data[0].size();

  EXPECT_EQ(sizes_with(three, 6), (std::vector<std::size_t>{3, 3}));
  EXPECT_EQ(sizes_with(three - 1, 6), (std::vector<std::size_t>{2, 2, 2}));
  EXPECT_EQ(sizes_with(three + 1, 6), (std::vector<std::size_t>{3, 3}));
}

TEST(SitemapWriter, RefusesAnEntryThatCannotFitAnEmptyFile) {
  memory_files files;
  writer_options o;
  o.max_bytes = 200;
  sitemap_writer w(o, files.factory());
  std::string long_loc = "https://example.com/" + std::string(300, 'a');
  EXPECT_EQ(w.add(entry(long_loc)), add_status::too_large);
  EXPECT_EQ(w.add(entry("https://example.com/")), add_status::added);
  ASSERT_TRUE(w.finish());
  ASSERT_EQ(files.data.size(), 1u);
  EXPECT_EQ(files.data[0].find("aaaa"), std::string::npos);
  EXPECT_EQ(w.parts()[0].urls, 1u);
}

TEST(SitemapWriter, RecordsTheNewestLastmodOfEachFileByInstant) {
  memory_files files;
  writer_options o;
  o.max_urls = 2;
  sitemap_writer w(o, files.factory());
  url_entry a = entry("https://example.com/a"),
            b = entry("https://example.com/b");
  // 00:30+01:00 is 23:30Z the day before: earlier than midnight Z.
  a.lastmod = parse("2024-01-01T00:30:00+01:00");
  b.lastmod = parse("2024-01-01T00:00:00Z");
  ASSERT_EQ(w.add(a), add_status::added);
  ASSERT_EQ(w.add(b), add_status::added);
  ASSERT_EQ(w.add(entry("https://example.com/c")), add_status::added);
  ASSERT_TRUE(w.finish());
  ASSERT_EQ(w.parts().size(), 2u);
  ASSERT_TRUE(w.parts()[0].newest.has_value());
  EXPECT_EQ(w.parts()[0].newest->unix_seconds(), b.lastmod->unix_seconds());
  EXPECT_FALSE(w.parts()[1].newest.has_value());
}

// A sink that fails after a number of bytes, like a disk filling up.
class failing_sink : public sink {
 public:
  explicit failing_sink(std::size_t budget) : budget_(budget) {}
  status write(const char*, std::size_t size) override {
    if (size > budget_) return error{"No space left on device"};
    budget_ -= size;
    return {};
  }
  status close() override { return {}; }

 private:
  std::size_t budget_;
};

TEST(SitemapWriter, ReportsAFailingSinkAndAcceptsNothingAfterwards) {
  sitemap_writer w({}, [](std::size_t) -> result<std::unique_ptr<sink>> {
    return std::unique_ptr<sink>(std::make_unique<failing_sink>(1000));
  });
  add_status last = add_status::added;
  std::string loc;
  // The writer holds a file's first 4 MiB (or 50,000 URLs) before writing,
  // so keep adding until it flushes.
  for (int i = 0; i < 60'000 && last == add_status::added; ++i) {
    loc = "https://example.com/" + std::string(50, 'x') + std::to_string(i);
    last = w.add(entry(loc));
  }
  EXPECT_EQ(last, add_status::failed);
  EXPECT_EQ(w.error(), "No space left on device");
  EXPECT_EQ(w.add(entry("https://example.com/")), add_status::failed);
  EXPECT_FALSE(w.finish());
}

TEST(SitemapWriter, ReportsAFactoryThatCannotCreateAFile) {
  sitemap_writer w({}, [](std::size_t) -> result<std::unique_ptr<sink>> {
    return error{"cannot create out/x: Permission denied"};
  });
  EXPECT_EQ(w.add(entry("https://example.com/")), add_status::failed);
  EXPECT_EQ(w.error(), "cannot create out/x: Permission denied");
}

TEST(IndexWriter, ListsSitemapsWithLastmodAndNoOtherChildren) {
  memory_files files;
  index_writer w(files.factory());
  index_entry a{"https://example.com/sitemap-1.xml.gz", parse("2024-05-01")};
  index_entry b{"https://example.com/sitemap-2.xml.gz", std::nullopt};
  ASSERT_EQ(w.add(a), add_status::added);
  ASSERT_EQ(w.add(b), add_status::added);
  ASSERT_TRUE(w.finish());
  EXPECT_EQ(
      files.data[0],
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
      "<sitemap><loc>https://example.com/sitemap-1.xml.gz</loc>"
      "<lastmod>2024-05-01</lastmod></sitemap>\n"
      "<sitemap><loc>https://example.com/sitemap-2.xml.gz</loc></sitemap>\n"
      "</sitemapindex>\n");
  EXPECT_EQ(w.parts()[0].urls, 2u);
}

TEST(IndexWriter, RotatesAtMaxEntries) {
  memory_files files;
  index_writer w(files.factory(), 3);
  std::string loc;
  for (int i = 0; i < 7; ++i) {
    loc = "https://example.com/s" + std::to_string(i) + ".xml";
    ASSERT_EQ(w.add({loc, std::nullopt}), add_status::added);
  }
  ASSERT_TRUE(w.finish());
  ASSERT_EQ(w.parts().size(), 3u);
  EXPECT_EQ(w.parts()[0].urls, 3u);
  EXPECT_EQ(w.parts()[2].urls, 1u);
  for (const auto& f : files.data) EXPECT_EQ(count(f, "<sitemapindex"), 1u);
}

}  // namespace
}  // namespace sitemill
