// hreflang clusters made complete by generate: every page of a cluster lists
// every page of it, itself included, whatever the input said; conflicts and
// links that cannot be returned are reported. Read through --from-sitemap,
// which carries <xhtml:link> alternates today.
#include "generate/hreflang_clusters.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>

#include "sitemill/generate/generate.h"
#include "sitemill/parse/sitemap_parser.h"
#include "sitemill/source/sitemap_source.h"
#include "support/run.h"

namespace sitemill {
namespace {

using testing::read_file;
using testing::temp_dir;

constexpr std::string_view head =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
    "xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n";

std::string link(std::string_view lang, std::string_view href) {
  return "<xhtml:link rel=\"alternate\" hreflang=\"" + std::string(lang) +
         "\" href=\"" + std::string(href) + "\"/>";
}

std::string url(std::string_view loc, std::string links = "") {
  return "<url><loc>" + std::string(loc) + "</loc>" + links + "</url>\n";
}

struct collecting_observer : generate_observer {
  std::vector<record_issue> rejects, warns;
  void rejected(const record_issue& r) override { rejects.push_back(r); }
  void warning(const record_issue& r) override { warns.push_back(r); }
};

// Each written page's hreflang -> href links, read back with the parser.
struct written_set {
  std::map<std::string, std::map<std::string, std::string>> links;
  std::vector<std::string> order;  // locs in file order
  bool schema_valid = false;
  std::string bytes;
};

written_set read_back(const std::string& path) {
  struct collect final : parse_handler {
    written_set* out;
    void on_entry(const parsed_entry& e) override {
      const std::string loc(e.loc.text);
      out->order.push_back(loc);
      auto& m = out->links[loc];
      std::string lang;
      for (const auto& v : e.extensions) {
        const auto& f = extension_fields()[v.field];
        if (f.key == "@hreflang") lang = v.text;
        if (f.key == "@href") m[lang] = v.text;
      }
    }
  } handler;
  written_set w;
  handler.out = &w;
  w.bytes = read_file(path);
  w.schema_valid = parse_bytes(w.bytes, handler).schema_valid;
  return w;
}

struct run_result {
  generate_report report;
  collecting_observer obs;
  written_set set;
};

run_result run(const temp_dir& d, const std::string& body,
               std::string out_name = "out", bool gzip = false,
               std::size_t max_urls = max_urls_per_sitemap) {
  const std::string in = d / "in.xml";
  std::ofstream(in) << head << body << "</urlset>\n";
  generate_options o;
  sitemap_source_options s;
  s.location = in;
  o.sources.push_back(sitemap_source(s));
  o.base_url = "https://example.com/";
  o.out_dir = d / out_name;
  o.gzip = gzip;
  o.max_urls = max_urls;
  o.layout = file_layout::sequential;  // the tests read files in input order
  run_result r;
  r.report = generate(o, r.obs);
  if (r.report.outcome != generate_outcome::published) return r;
  // Every sitemap of the set (the entry may be an index).
  r.set.schema_valid = true;
  for (const auto& f : r.report.files) {
    if (f.type != document_type::urlset) continue;
    written_set part = read_back(o.out_dir + "/" + f.path);
    r.set.schema_valid = r.set.schema_valid && part.schema_valid;
    r.set.bytes += part.bytes;
    r.set.order.insert(r.set.order.end(), part.order.begin(), part.order.end());
    r.set.links.merge(part.links);
  }
  return r;
}

const std::map<std::string, std::string> full_cluster = {
    {"de", "https://example.com/de/"},
    {"en", "https://example.com/en/"},
    {"fr", "https://example.com/fr/"}};

TEST(HreflangClusters, EveryMemberListsTheWholeClusterIncludingItself) {
  temp_dir d;
  // /de/ names nothing and comes first (written before any alternate is
  // seen); /en/ names /de/; /fr/ names only itself and /en/.
  auto r = run(d, url("https://example.com/de/") +
                      url("https://example.com/en/",
                          link("en", "https://example.com/en/") +
                              link("de", "https://example.com/de/")) +
                      url("https://example.com/fr/",
                          link("fr", "https://example.com/fr/") +
                              link("en", "https://example.com/en/")) +
                      url("https://example.com/other"));
  ASSERT_EQ(r.report.outcome, generate_outcome::published) << r.report.message;
  EXPECT_TRUE(r.obs.warns.empty()) << r.obs.warns.front().reason;
  EXPECT_EQ(r.report.written, 4u);
  EXPECT_TRUE(r.set.schema_valid) << r.set.bytes;
  EXPECT_EQ(r.set.order,
            (std::vector<std::string>{
                "https://example.com/de/", "https://example.com/en/",
                "https://example.com/fr/", "https://example.com/other"}));
  for (const auto& page : {"https://example.com/de/", "https://example.com/en/",
                           "https://example.com/fr/"})
    EXPECT_EQ(r.set.links[page], full_cluster) << page;
  EXPECT_TRUE(r.set.links["https://example.com/other"].empty());
  // Sorted by hreflang in the file.
  EXPECT_NE(
      r.set.bytes.find("hreflang=\"de\" href=\"https://example.com/de/\"/>"
                       "<xhtml:link rel=\"alternate\" hreflang=\"en\""),
      std::string::npos);
}

TEST(HreflangClusters, PagesWrittenBeforeTheFirstAlternateAreReadBack) {
  // Five gzipped files of two URLs are written before the last page names
  // the first: they are read back, and the set comes out whole.
  temp_dir d;
  std::string body;
  for (int i = 0; i < 9; ++i)
    body += url("https://example.com/p" + std::to_string(i));
  body += url("https://example.com/de/p0",
              link("de", "https://example.com/de/p0") +
                  link("en", "https://example.com/p0"));
  auto r = run(d, body, "out", true, 2);
  ASSERT_EQ(r.report.outcome, generate_outcome::published) << r.report.message;
  EXPECT_TRUE(r.obs.warns.empty()) << r.obs.warns.front().reason;
  EXPECT_TRUE(r.set.schema_valid);
  ASSERT_EQ(r.set.order.size(), 10u);
  EXPECT_EQ(r.set.order.front(), "https://example.com/p0");
  EXPECT_EQ(r.set.order.back(), "https://example.com/de/p0");
  const std::map<std::string, std::string> pair = {
      {"de", "https://example.com/de/p0"}, {"en", "https://example.com/p0"}};
  EXPECT_EQ(r.set.links["https://example.com/p0"], pair);
  EXPECT_EQ(r.set.links["https://example.com/de/p0"], pair);
  EXPECT_TRUE(r.set.links["https://example.com/p1"].empty());
  // Only the set is left in the directory: no spool, no first attempt.
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(d / "out"))
    files += !e.path().filename().string().starts_with(".sitemill");
  EXPECT_EQ(files, r.report.files.size());
}

TEST(HreflangClusters, TheSameInputGivesTheSameBytes) {
  temp_dir d;
  const std::string body = url("https://example.com/a",
                               link("x-default", "https://example.com/a") +
                                   link("en", "https://example.com/a") +
                                   link("es-419", "https://example.com/b")) +
                           url("https://example.com/b");
  auto first = run(d, body, "one");
  auto second = run(d, body, "two");
  ASSERT_EQ(first.report.outcome, generate_outcome::published);
  EXPECT_EQ(first.set.bytes, second.set.bytes);
  // x-default comes last; one URL may hold two languages.
  EXPECT_NE(first.set.bytes.find("hreflang=\"es-419\" href=\"https://example."
                                 "com/b\"/><xhtml:link rel=\"alternate\" "
                                 "hreflang=\"x-default\""),
            std::string::npos)
      << first.set.bytes;
  EXPECT_EQ(first.set.links["https://example.com/b"].size(), 3u);
}

TEST(HreflangClusters, TwoUrlsForOneLanguageAreReportedAndTheFirstKept) {
  temp_dir d;
  auto r = run(
      d, url("https://example.com/a", link("en", "https://example.com/a") +
                                          link("de", "https://example.com/b")) +
             url("https://example.com/b") +
             url("https://example.com/c",
                 link("de", "https://example.com/c") +
                     link("en", "https://example.com/a")));
  ASSERT_EQ(r.report.outcome, generate_outcome::published);
  ASSERT_EQ(r.obs.warns.size(), 2u);
  EXPECT_NE(r.obs.warns[0].reason.find(
                "hreflang \"de\" names both https://example.com/b and "
                "https://example.com/c"),
            std::string::npos)
      << r.obs.warns[0].reason;
  EXPECT_EQ(r.obs.warns[0].line, 5u);
  // c lost its language to b: it is told so, and still gets the others.
  EXPECT_NE(r.obs.warns[1].reason.find("https://example.com/c is in an "
                                       "hreflang cluster but no link names "
                                       "its own language"),
            std::string::npos)
      << r.obs.warns[1].reason;
  EXPECT_EQ(r.set.links["https://example.com/c"].at("de"),
            "https://example.com/b");
}

TEST(HreflangClusters, LinksThatCannotBeReturnedAreReported) {
  temp_dir d;
  auto r = run(d, url("https://example.com/a",
                      link("en", "https://example.com/a") +
                          link("de", "https://example.de/a") +
                          link("fr", "https://example.com/fr/a")));
  ASSERT_EQ(r.report.outcome, generate_outcome::published);
  ASSERT_EQ(r.obs.warns.size(), 2u);
  EXPECT_NE(r.obs.warns[0].reason.find("https://example.de/a is outside the "
                                       "base URL"),
            std::string::npos)
      << r.obs.warns[0].reason;
  EXPECT_NE(r.obs.warns[1].reason.find("https://example.com/fr/a is not in "
                                       "the input"),
            std::string::npos)
      << r.obs.warns[1].reason;
  // The page still lists them all: they are its alternates.
  EXPECT_EQ(r.set.links["https://example.com/a"].size(), 3u);
}

TEST(HreflangClusters, OtherLinksStayWithTheirPage) {
  temp_dir d;
  auto r = run(d, url("https://example.com/a",
                      "<xhtml:link rel=\"amphtml\" "
                      "href=\"https://example.com/a.amp\"/>" +
                          link("en", "https://example.com/a")));
  ASSERT_EQ(r.report.outcome, generate_outcome::published);
  EXPECT_NE(r.set.bytes.find("rel=\"amphtml\""), std::string::npos);
  EXPECT_NE(r.set.bytes.find("hreflang=\"en\""), std::string::npos);
}

// The cluster table on its own: what generate relies on, at sizes that
// cross its chunks and grow its fingerprint table.
using detail::hreflang_clusters;

std::vector<std::string> issues_at(hreflang_clusters& c,
                                   hreflang_clusters::page_number page) {
  std::vector<std::string> out;
  c.report_issues(page, [&](std::string m) { out.push_back(std::move(m)); });
  return out;
}

std::string links_of(hreflang_clusters& c, std::string_view loc) {
  std::string out;
  c.append_links(loc, out);
  return out;
}

const url_normalizer& example_base() {
  static const url_normalizer base = [] {
    auto n = url_normalizer::with_base("https://example.com/");
    EXPECT_TRUE(n);
    return *n;
  }();
  return base;
}

TEST(HreflangClusterTable, RepeatedLinksAreRecordedOnce) {
  hreflang_clusters c;
  const std::vector<hreflang_clusters::link> all = {
      {"en", "https://example.com/en"},
      {"de", "https://example.com/de"},
      {"fr", "https://example.com/fr"}};
  c.add_page("https://example.com/en", all, 0);
  c.add_page("https://example.com/de", all, 1);
  c.add_page("https://example.com/fr", all, 2);
  EXPECT_EQ(c.pages(), 3u);
  EXPECT_EQ(c.links(), 3u);  // nine links name three (URL, language) pairs
  c.resolve(example_base(), [](std::string_view) { return true; });
  const std::string expected = link("de", "https://example.com/de") +
                               link("en", "https://example.com/en") +
                               link("fr", "https://example.com/fr");
  for (const char* page : {"https://example.com/de", "https://example.com/en",
                           "https://example.com/fr"})
    EXPECT_EQ(links_of(c, page), expected) << page;
  EXPECT_EQ(links_of(c, "https://example.com/other"), "");
  for (hreflang_clusters::page_number p = 0; p < 3; ++p)
    EXPECT_TRUE(issues_at(c, p).empty()) << p;
}

TEST(HreflangClusterTable, LanguagesCompareWithoutCaseAndKeepTheirSpelling) {
  hreflang_clusters c;
  const std::vector<hreflang_clusters::link> a = {
      {"en-US", "https://example.com/a"},
      {"X-Default", "https://example.com/a"},
      {"de", "https://example.com/b"}};
  const std::vector<hreflang_clusters::link> b = {
      {"en-us", "https://example.com/b"}, {"DE", "https://example.com/b"}};
  c.add_page("https://example.com/a", a, 0);
  c.add_page("https://example.com/b", b, 1);
  c.resolve(example_base(), [](std::string_view) { return true; });
  // "DE" is "de" said again; "en-us" for b loses to a's "en-US". The first
  // spelling is written, x-default last, one URL holding two languages.
  EXPECT_EQ(links_of(c, "https://example.com/b"),
            link("de", "https://example.com/b") +
                link("en-US", "https://example.com/a") +
                link("X-Default", "https://example.com/a"));
  EXPECT_TRUE(issues_at(c, 0).empty());
  const auto at_b = issues_at(c, 1);
  ASSERT_EQ(at_b.size(), 1u);
  EXPECT_NE(at_b[0].find("hreflang \"en-us\" names both "
                         "https://example.com/a and https://example.com/b"),
            std::string::npos)
      << at_b[0];
}

TEST(HreflangClusterTable, IssuesComeOutAtTheirPageOnlyOnce) {
  hreflang_clusters c;
  // Page 0 names an alternate the input lacks and one on another site;
  // page 2 lists a link but none to itself.
  const std::vector<hreflang_clusters::link> first = {
      {"en", "https://example.com/a"},
      {"de", "https://example.com/de/a"},
      {"fr", "https://example.fr/a"}};
  const std::vector<hreflang_clusters::link> third = {
      {"en", "https://example.com/a"}};
  c.add_page("https://example.com/a", first, 0);
  c.add_page("https://example.com/c", third, 2);
  c.resolve(example_base(), [](std::string_view url) {
    return url == "https://example.com/a";
  });
  const auto at0 = issues_at(c, 0);
  ASSERT_EQ(at0.size(), 2u);
  EXPECT_NE(at0[0].find("https://example.com/de/a is not in the input"),
            std::string::npos)
      << at0[0];
  EXPECT_NE(at0[1].find("https://example.fr/a is outside the base URL"),
            std::string::npos)
      << at0[1];
  EXPECT_TRUE(issues_at(c, 1).empty());
  const auto at2 = issues_at(c, 2);
  ASSERT_EQ(at2.size(), 1u);
  EXPECT_NE(at2[0].find("page https://example.com/c is in an hreflang cluster "
                        "but no link names its own language"),
            std::string::npos)
      << at2[0];
  EXPECT_TRUE(issues_at(c, 2).empty());  // said once
}

TEST(HreflangClusterTable, ManyClustersStayApart) {
  // 50,000 four-page clusters: 200,000 URLs, past the node chunks (65,536)
  // and through many growths of the fingerprint table.
  hreflang_clusters c;
  const std::vector<std::string> langs = {"en", "de", "fr", "es"};
  auto page_url = [](int cluster, const std::string& lang) {
    return "https://example.com/" + lang + "/item-" + std::to_string(cluster);
  };
  hreflang_clusters::page_number page = 0;
  std::vector<std::string> hrefs(langs.size());
  std::vector<hreflang_clusters::link> links(langs.size());
  constexpr int clusters = 50'000;
  // Pages by language, as exports often come: a cluster's pages far apart.
  for (const auto& self : langs) {
    for (int k = 0; k < clusters; ++k) {
      for (std::size_t l = 0; l < langs.size(); ++l) {
        hrefs[l] = page_url(k, langs[l]);
        links[l] = {langs[l], hrefs[l]};
      }
      c.add_page(page_url(k, self), links, page++);
    }
  }
  EXPECT_EQ(c.pages(), 200'000u);
  EXPECT_EQ(c.links(), 200'000u);
  c.resolve(example_base(), [](std::string_view) { return true; });
  // The cost the header states once resolved: a 32-byte node, up to 23
  // bytes of table, 12 for the cluster's list, and the path (about 14
  // bytes here), with the slack of the last node and text chunks.
  const double per_url =
      static_cast<double>(c.memory_bytes()) / static_cast<double>(c.pages());
  EXPECT_LE(per_url, 32 + 23 + 12 + 14 + 40) << per_url;
  std::printf("hreflang clusters: %.1f bytes per URL\n", per_url);
  // Nodes are made four per cluster on the first pass: cluster 16,384's
  // are the first of the second node chunk.
  for (int k : {0, 1, 16'383, 16'384, 49'999}) {
    std::string expected;
    for (const char* l : {"de", "en", "es", "fr"})
      expected += link(l, page_url(k, l));
    for (const auto& self : langs)
      EXPECT_EQ(links_of(c, page_url(k, self)), expected) << k << self;
  }
  for (hreflang_clusters::page_number p = 0; p < page; p += 997)
    EXPECT_TRUE(issues_at(c, p).empty()) << p;
}

TEST(HreflangClusterTable, UrlsOnThousandsOfHostsAreWrittenWhole) {
  // Origins are numbered, up to 4,095 of them; URLs on further hosts are
  // kept whole. Either way they come back as they went in.
  hreflang_clusters c;
  auto page_url = [](int host, std::string_view lang) {
    return "https://h" + std::to_string(host) + ".example.com/" +
           std::string(lang) + "/p";
  };
  constexpr int hosts = 5'000;
  for (int h = 0; h < hosts; ++h) {
    const std::string en = page_url(h, "en"), de = page_url(h, "de");
    const std::vector<hreflang_clusters::link> links = {{"en", en}, {"de", de}};
    c.add_page(en, links, static_cast<hreflang_clusters::page_number>(h));
  }
  c.resolve(example_base(), [](std::string_view) { return true; });
  for (int h : {0, 4'094, 4'095, 4'999}) {
    const std::string expected =
        link("de", page_url(h, "de")) + link("en", page_url(h, "en"));
    EXPECT_EQ(links_of(c, page_url(h, "en")), expected) << h;
    EXPECT_EQ(links_of(c, page_url(h, "de")), expected) << h;
  }
}

TEST(HreflangClusterTable, AnXDefaultOnEveryClustersFirstPageIsKeptOnce) {
  // The common pattern: "x-default" names the English page, in every
  // cluster, said again by each page: one extra language per cluster.
  hreflang_clusters c;
  constexpr int clusters = 20'000;
  auto page_url = [](int k, std::string_view lang) {
    return "https://example.com/" + std::string(lang) + "/" + std::to_string(k);
  };
  hreflang_clusters::page_number page = 0;
  for (const char* self : {"en", "de"}) {
    for (int k = 0; k < clusters; ++k) {
      const std::string en = page_url(k, "en"), de = page_url(k, "de");
      const std::vector<hreflang_clusters::link> links = {
          {"en", en}, {"de", de}, {"x-default", en}};
      c.add_page(page_url(k, self), links, page++);
    }
  }
  EXPECT_EQ(c.pages(), 2u * clusters);
  EXPECT_EQ(c.links(), 3u * clusters);
  c.resolve(example_base(), [](std::string_view) { return true; });
  for (int k : {0, 12'345, clusters - 1}) {
    const std::string expected = link("de", page_url(k, "de")) +
                                 link("en", page_url(k, "en")) +
                                 link("x-default", page_url(k, "en"));
    EXPECT_EQ(links_of(c, page_url(k, "en")), expected) << k;
    EXPECT_EQ(links_of(c, page_url(k, "de")), expected) << k;
  }
}

}  // namespace
}  // namespace sitemill
