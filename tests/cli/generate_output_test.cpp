// End-to-end tests of what `sitemill generate` writes: file splitting at the
// protocol limits, gzip, the sitemap index, text sitemaps and stylesheets.
// Every published set is read back and validated against the bundled XSDs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

std::vector<std::uint64_t> urls_per_sitemap(const published_set& set) {
  std::vector<std::uint64_t> counts;
  for (const auto* f : set.sitemaps()) counts.push_back(f->urls);
  return counts;
}

// The index entry whose loc names `child`, or an empty entry.
xml_entry index_entry_for(const published_set& set, const std::string& base,
                          const std::string& child) {
  for (const auto* ix : set.indexes())
    for (auto& e : parse_entries(ix->content))
      if (e["loc"] == base + child) return e;
  ADD_FAILURE() << "no index entry for " << child;
  return {};
}

// The test helpers themselves must be able to fail, or every check built on
// them proves nothing.
TEST(GenerateCliSupport, ValidateXmlRefusesWhatTheSchemasForbid) {
  const std::string head =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">";
  EXPECT_EQ(
      validate_xml(head +
                   "<url><loc>https://www.example.com/</loc></url></urlset>"),
      "");
  EXPECT_NE(validate_xml(head + "<url><loc>https://www.example.com/</loc>"
                                "<lastmod>2024</lastmod></url></urlset>"),
            "");
  EXPECT_NE(validate_xml(head + "<url><loc>https://www.example.com/</loc>"
                                "<priority>1.5</priority></url></urlset>"),
            "");
  EXPECT_NE(validate_xml(head + "<url><loc>short</loc></url></urlset>"), "");
  EXPECT_NE(
      validate_xml(head +
                   "<url><loc>https://www.example.com/&</loc></url></urlset>"),
      "");
  EXPECT_NE(
      validate_xml(
          head + "<url><loc>https://www.example.com/</loc></url></urlset>",
          "sitemapindex"),
      "");
  // An external entity must neither load nor validate.
  EXPECT_NE(validate_xml(
                "<?xml version=\"1.0\"?><!DOCTYPE urlset [<!ENTITY e SYSTEM "
                "\"http://127.0.0.1:9/x\">]>"
                "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
                "<url><loc>https://www.example.com/&e;</loc></url></urlset>"),
            "");
  EXPECT_FALSE(is_uri_text("https://www.example.com/a b"));
  EXPECT_FALSE(is_uri_text("https://www.example.com/%zz"));
  EXPECT_TRUE(is_uri_text("https://www.example.com/a?b=1&c='d'%20"));
}

// --- splitting ---------------------------------------------------------------

// sitemaps.org: "no more than 50,000 URLs" per file; a new file starts before
// the limit would be crossed, never after.
TEST(GenerateCli, SplitsAt50000UrlsByDefault) {
  struct row {
    std::size_t urls;
    std::vector<std::uint64_t> files;
  };
  const row rows[] = {
      {49'999, {49'999}},
      {50'000, {50'000}},
      {50'001, {50'000, 1}},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(r.urls);
    temp_dir t;
    // Input order, cut where the limit falls (the stable layout's leaves:
    // stable_layout_generate_test.cpp).
    auto g = generate_and_check(t / "out", {"--layout", "sequential",
                                            shared_url_list(r.urls, "split")});
    EXPECT_EQ(urls_per_sitemap(g.set), r.files);
    EXPECT_EQ(g.report["written"], r.urls);
    EXPECT_EQ(g.set.entry, "sitemap.xml") << "the same name at every size";
    // Order is kept across the split.
    auto locs = all_locs(g.set);
    ASSERT_EQ(locs.size(), r.urls);
    EXPECT_EQ(locs.back(),
              "https://www.example.com/split/" + std::to_string(r.urls - 1));
  }
}

// The byte limit counts the exact uncompressed file, declaration, stylesheet
// instruction and closing tag included: a file of exactly --max-bytes is
// allowed, one byte less splits.
TEST(GenerateCli, SplitsBeforeMaxBytesWouldBeCrossed) {
  temp_dir t;
  std::string text;
  const std::uint64_t n = 20;
  for (std::uint64_t i = 10; i < 10 + n; ++i)
    text += "/bytes/" + std::to_string(i) + "?a=1&b=2\n";
  write_file(t / "urls.txt", text);

  const std::vector<std::vector<std::string>> variants = {
      {}, {"--xsl", "https://www.example.com/style.xsl"}, {"--format", "txt"}};
  for (const auto& variant : variants) {
    SCOPED_TRACE(variant.empty() ? "urlset" : variant.back());
    // The exact size of one file holding all n URLs, measured.
    temp_dir p;
    std::vector<std::string> args = variant;  // input order, cut at the limit
    args.insert(args.end(),
                {"--layout", "sequential", "--no-gzip", t / "urls.txt"});
    auto one = generate_and_check(p / "out", args);
    ASSERT_EQ(one.set.sitemaps().size(), 1u);
    const std::uint64_t size = one.set.sitemaps()[0]->raw.size();
    EXPECT_EQ(one.report["files"][0]["bytes"], size);

    struct row {
      std::uint64_t max_bytes;
      std::vector<std::uint64_t> files;
    };
    const row rows[] = {{size, {n}}, {size - 1, {n - 1, 1}}};
    for (const auto& r : rows) {
      for (bool gz : {false, true}) {
        SCOPED_TRACE("--max-bytes " + std::to_string(r.max_bytes) +
                     (gz ? " gzip" : " plain"));
        temp_dir o;
        args = variant;
        args.insert(args.end(), {"--layout", "sequential", "--max-bytes",
                                 std::to_string(r.max_bytes), t / "urls.txt"});
        if (!gz) args.insert(args.begin(), "--no-gzip");
        auto g = generate_and_check(o / "out", args);
        EXPECT_EQ(urls_per_sitemap(g.set), r.files);
        for (const auto* f : g.set.sitemaps()) {
          EXPECT_LE(f->bytes, r.max_bytes);
          EXPECT_EQ(f->bytes, f->content.size());
          if (!gz) {
            EXPECT_EQ(f->bytes, f->raw.size())
                << "--json bytes differ from the file size";
          }
        }
        if (r.files.size() == 1) {
          EXPECT_EQ(g.set.sitemaps()[0]->bytes, size);
        }
      }
    }
  }
}

TEST(GenerateCli, RejectsAUrlTooLargeForMaxBytesAndWritesTheRest) {
  temp_dir t;
  const std::string in = t / "urls.txt";
  write_file(in, "/short\n/" + std::string(300, 'x') + "\n/also-short\n");
  auto g = generate_and_check(t / "out", {"--max-bytes", "256", in});
  EXPECT_EQ(all_locs(g.set),
            (std::vector<std::string>{"https://www.example.com/short",
                                      "https://www.example.com/also-short"}));
  ASSERT_EQ(g.report["rejected"].size(), 1u);
  EXPECT_EQ(g.report["rejected"][0]["line"], 2);
  EXPECT_THAT(g.report["rejected"][0]["reason"].get<std::string>(),
              HasSubstr("--max-bytes"));
  for (const auto* f : g.set.sitemaps()) EXPECT_LE(f->bytes, 256u);
}

// --- gzip --------------------------------------------------------------------

// Checked by decompressing, never against golden compressed bytes.
TEST(GenerateCli, GzipFilesDecompressToThePlainOutputAtEveryLevel) {
  temp_dir t;
  std::string text;
  for (int i = 0; i < 250; ++i)
    text += "/z/" + std::to_string(i) + "?q=a&r=b\n";
  write_file(t / "urls.txt", text);
  auto plain = generate_and_check(
      t / "plain", {"--no-gzip", "--max-urls", "100", t / "urls.txt"});
  auto want = plain.set.sitemaps();
  ASSERT_GE(want.size(), 3u);
  for (const auto* f : want) EXPECT_TRUE(f->path.ends_with(".xml")) << f->path;

  const std::vector<std::vector<std::string>> levels = {
      {}, {"--compression", "fast"}, {"--fast"}, {"--compression", "best"}};
  for (const auto& level : levels) {
    SCOPED_TRACE(level.empty() ? "default" : level.back());
    temp_dir o;
    std::vector<std::string> args = level;
    args.insert(args.end(), {"--max-urls", "100", t / "urls.txt"});
    auto g =
        generate_and_check(o / "out", args);  // checks MTIME 0 and no FNAME
    auto got = g.set.sitemaps();
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      EXPECT_TRUE(got[i]->path.ends_with(".xml.gz")) << got[i]->path;
      EXPECT_TRUE(got[i]->content == want[i]->content)
          << "file " << i << " differs";
      EXPECT_EQ(got[i]->bytes, want[i]->bytes);
    }
    // The index stays plain XML, whatever the compression.
    ASSERT_EQ(g.set.indexes().size(), 1u);
    EXPECT_EQ(g.set.indexes()[0]->path, "sitemap.xml");
  }
}

TEST(GenerateCli, RerunsOnTheSameInputWriteByteIdenticalFiles) {
  const std::string& in = shared_url_list(120'000, "rerun");
  // --fast streams each file through the compressor while it is written:
  // its bytes must not depend on timing either.
  for (const std::vector<std::string>& mode :
       {std::vector<std::string>{}, std::vector<std::string>{"--fast"}}) {
    SCOPED_TRACE(mode.empty() ? "default compression" : "--fast");
    auto args = [&](std::vector<std::string> extra) {
      extra.insert(extra.end(), mode.begin(), mode.end());
      extra.push_back(in);
      return extra;
    };
    temp_dir a, b, c;
    auto first = generate_and_check(a / "out", args({}));
    auto second = generate_and_check(b / "out", args({}));
    // Thread count must not change a byte either.
    auto third = generate_and_check(c / "out", args({"--threads", "1"}));
    EXPECT_GE(first.set.sitemaps().size(), 3u);
    auto sa = snapshot(a / "out"), sb = snapshot(b / "out"),
         sc = snapshot(c / "out");
    std::vector<std::string> na, nb, nc;
    for (auto& [k, v] : sa) na.push_back(k);
    for (auto& [k, v] : sb) nb.push_back(k);
    for (auto& [k, v] : sc) nc.push_back(k);
    EXPECT_EQ(na, nb);
    EXPECT_EQ(na, nc);
    for (auto& [name, bytes] : sa) {
      EXPECT_TRUE(bytes == sb[name]) << name << " differs between reruns";
      EXPECT_TRUE(bytes == sc[name]) << name << " differs with --threads 1";
    }
  }
}

// --- the index ---------------------------------------------------------------

// sitemaps.org: <lastmod> of a <sitemap> is when that file was modified;
// sitemill uses the newest lastmod inside it, compared as instants across
// time zones, and omits it when the file has none (never inventing one).
TEST(GenerateCli, IndexLastmodIsTheNewestInsideEachFileAcrossTimeZones) {
  temp_dir t;
  write_file(t / "urls.tsv",
             "loc\tlastmod\n"
             "/f1a\t2024-01-01T23:00:00-05:00\n"  // 2024-01-02T04:00Z: newest
                                                  // of file 1
             "/f1b\t2024-01-02T03:00:00Z\n"
             "/f1c\t2024-01-02\n"
             "/f2a\t2023-06-01\n"
             "/f2b\t\n"
             "/f2c\t2023-05-31T23:30:00-01:00\n"  // 2023-06-01T00:30Z: newest
                                                  // of file 2
             "/f3a\t\n"
             "/f3b\t\n"
             "/f3c\t\n"
             "/f4a\t2024-12-31T23:59:59+14:00\n"  // 09:59:59Z
             "/f4b\t2024-12-31T10:00:00Z\n"       // newest of file 4
             "/f4c\t2025-13-01\n"  // invalid: dropped, must not count
             "/f5a\t2024\n");
  auto g = generate_and_check(t / "out", {"--layout", "sequential", "--max-urls",
                                          "3", t / "urls.tsv"});
  auto maps = g.set.sitemaps();  // input order: three URLs a file
  ASSERT_EQ(maps.size(), 5u);
  const char* want[] = {"2024-01-01T23:00:00-05:00",
                        "2023-05-31T23:30:00-01:00", nullptr,
                        "2024-12-31T10:00:00Z", "2024-01-01"};
  for (std::size_t i = 0; i < maps.size(); ++i) {
    SCOPED_TRACE(maps[i]->path);
    xml_entry e =
        index_entry_for(g.set, "https://www.example.com/", maps[i]->path);
    if (want[i] == nullptr) {
      EXPECT_EQ(e.count("lastmod"), 0u)
          << "a lastmod was invented: " << e["lastmod"];
    } else {
      EXPECT_EQ(e["lastmod"], want[i]);
    }
  }
}

TEST(GenerateCli, IndexAlwaysWritesAnIndexEvenForOneFile) {
  for (bool gz : {true, false}) {
    SCOPED_TRACE(gz ? "gzip" : "plain");
    temp_dir t;
    write_file(t / "urls.txt", "/one\n/two\n");
    std::vector<std::string> args = {"--index", "always", t / "urls.txt"};
    if (!gz) args.insert(args.begin(), "--no-gzip");
    auto g = generate_and_check(t / "out", args);
    EXPECT_EQ(g.set.entry, "sitemap.xml");
    ASSERT_EQ(g.set.indexes().size(), 1u);
    ASSERT_EQ(g.set.sitemaps().size(), 1u);
    EXPECT_TRUE(g.set.sitemaps()[0]->path.ends_with(gz ? ".xml.gz" : ".xml"));
    EXPECT_EQ(parse_entries(g.set.indexes()[0]->content).size(), 1u);
  }
}

TEST(GenerateCli, IndexListsAbsoluteUrlsUnderABaseWithAPath) {
  temp_dir t;
  write_file(t / "urls.txt", "/shop/a\n/shop/b\n/shop/c\n");
  set_expectations e;
  e.base_url = "https://www.example.com/shop/";
  auto g = generate_and_check(t / "out",
                              {"--base-url", "https://WWW.Example.com:443/shop",
                               "--max-urls", "1", t / "urls.txt"},
                              {}, e);
  ASSERT_EQ(g.set.sitemaps().size(), 3u);
  for (const auto& entry : parse_entries(g.set.indexes().at(0)->content))
    EXPECT_TRUE(
        entry.at("loc").starts_with("https://www.example.com/shop/sitemap-"))
        << entry.at("loc");
}

// A <loc> in the index must be a URL like any other: a --name that needs
// percent-encoding gets it there (the file on disk keeps the plain name).
// The stem becomes part of the index's URLs, so it is limited to characters
// that need no percent-encoding there (or in a web server's file system).
TEST(GenerateCli, RefusesANameThatWouldNeedEscapingInUrls) {
  temp_dir t;
  write_file(t / "urls.txt", "/a\n/b\n");
  for (const char* name :
       {"site map", "caf\xC3\xA9", "a/b", ".hidden", "x?y"}) {
    auto r = run_sitemill({"generate", "--base-url", "https://www.example.com/",
                           "--out", t / "out", "--name", name, t / "urls.txt"});
    EXPECT_EQ(r.exit_code, 2) << name;
    EXPECT_NE(r.err.find("--name may use only"), std::string::npos) << r.err;
  }
  EXPECT_TRUE(list_files(t / "out").empty());
}

// Two sets with different names share one directory without touching each
// other: each has its own manifest, so neither run removes the other's files.
TEST(GenerateCli, SetsWithDifferentNamesShareADirectory) {
  temp_dir t;
  write_file(t / "a.txt", "/a1\n/a2\n/a3\n");
  write_file(t / "b.txt", "/b1\n/b2\n/b3\n");
  auto a = run_sitemill({"generate", "--base-url", "https://www.example.com/",
                         "--out", t / "out", "--name", "products", "--max-urls",
                         "2", t / "a.txt"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  auto before = snapshot(t / "out");
  auto b = run_sitemill({"generate", "--base-url", "https://www.example.com/",
                         "--out", t / "out", "--name", "blog", t / "b.txt"});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  auto after = snapshot(t / "out");
  for (const auto& [name, bytes] : before) {
    ASSERT_TRUE(after.count(name))
        << name << " of the products set was removed";
    EXPECT_EQ(after.at(name), bytes) << name;
  }
  EXPECT_TRUE(after.count("blog.xml"));
  EXPECT_EQ(list_all(t / ".sitemill/out"),
            (std::vector<std::string>{"manifest-blog.json",
                                      "manifest-products.json"}));
}

// --- text sitemaps and stylesheets -------------------------------------------

TEST(GenerateCli, TextFormatWritesOneUrlPerLineWithoutEntities) {
  temp_dir t;
  write_file(t / "urls.txt", "/t?a=1&b=2\n/u\n/v\n/w\n/x'y\n");
  {
    temp_dir o;
    auto g = generate_and_check(o / "out", {"--format", "txt", t / "urls.txt"});
    // A text sitemap is listed by the index NAME.xml, the entry of every
    // set whatever its format.
    EXPECT_EQ(g.set.entry, "sitemap.xml");
    ASSERT_EQ(g.set.files.size(), 2u);
    EXPECT_EQ(g.set.files[0].type, "text");
    EXPECT_EQ(g.set.files[0].content,
              "https://www.example.com/t?a=1&b=2\nhttps://www.example.com/u\n"
              "https://www.example.com/v\nhttps://www.example.com/w\n"
              "https://www.example.com/x'y\n");
  }
  {
    temp_dir o;
    auto g = generate_and_check(
        o / "out", {"--format", "txt", "--no-gzip", t / "urls.txt"});
    EXPECT_EQ(g.set.entry, "sitemap.xml");
    ASSERT_EQ(g.set.sitemaps().size(), 1u);
    EXPECT_TRUE(g.set.sitemaps()[0]->path.ends_with(".txt"));
  }
  {
    temp_dir o;
    auto g = generate_and_check(o / "out", {"--layout", "sequential", "--format",
                                            "txt", "--max-urls", "2",
                                            t / "urls.txt"});  // input order
    EXPECT_EQ(urls_per_sitemap(g.set), (std::vector<std::uint64_t>{2, 2, 1}));
    EXPECT_EQ(g.set.entry, "sitemap.xml");
    for (const auto* m : g.set.sitemaps()) {
      EXPECT_EQ(m->type, "text");
      EXPECT_TRUE(m->path.ends_with(".txt.gz")) << m->path;
      EXPECT_EQ(m->content.find("&amp;"), std::string::npos);
    }
    EXPECT_THAT(g.set.sitemaps()[0]->content, HasSubstr("?a=1&b=2\n"));
  }
}

TEST(GenerateCli, XslAddsAStylesheetInstructionToEveryXmlFileAndStaysValid) {
  temp_dir t;
  write_file(t / "urls.txt", "/a\n/b\n/c\n");
  auto g = generate_and_check(
      t / "out", {"--xsl", "https://www.example.com/style.xsl?v=1&x=2",
                  "--max-urls", "2", t / "urls.txt"});
  ASSERT_EQ(g.set.files.size(), 3u);
  for (const auto& f : g.set.files) {
    SCOPED_TRACE(f.path);
    EXPECT_TRUE(f.content.starts_with(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<?xml-stylesheet type=\"text/xsl\" "
        "href=\"https://www.example.com/style.xsl?v=1&amp;x=2\"?>\n"))
        << f.content.substr(0, 200);
  }
  // Characters that would end the attribute or the instruction are escaped.
  temp_dir q;
  auto odd = generate_and_check(
      q / "out",
      {"--xsl", "https://www.example.com/s.xsl?a=\"<b>'?>", t / "urls.txt"});
  EXPECT_THAT(odd.set.files.at(0).content,
              HasSubstr("href=\"https://www.example.com/"
                        "s.xsl?a=&quot;&lt;b&gt;&apos;?&gt;\"?>\n"));
  // Text sitemaps have no place for one.
  temp_dir o;
  auto txt = generate_and_check(
      o / "out", {"--xsl", "/style.xsl", "--format", "txt", t / "urls.txt"});
  EXPECT_EQ(txt.set.files.at(0).content.find("xml-stylesheet"),
            std::string::npos);
}

}  // namespace
}  // namespace sitemill::testing
