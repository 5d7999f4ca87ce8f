// End-to-end runs on sitemaps other tools wrote (issue 30): a multilingual
// root index with its children in language folders, an index whose children
// are not where it says, what --from-sitemap recovers (and check still
// reports), extension data carried through a round trip, and findings that
// count one problem once.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/campaign.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using json = nlohmann::json;

const std::string base = "https://www.example.com/";

std::string page(std::string_view title) {
  return "<!doctype html><html><head><title>" + std::string(title) +
         "</title></head><body><p>" + std::string(title) +
         "</p></body></html>\n";
}

// The codes of every finding of a `check --json` report, in order.
std::vector<std::string> codes(const json& report) {
  std::vector<std::string> out;
  for (const json& d : report["documents"])
    for (const json& f : d["diagnostics"]) out.push_back(f["code"]);
  return out;
}

std::size_t count(const std::vector<std::string>& v, std::string_view s) {
  return static_cast<std::size_t>(std::count(v.begin(), v.end(), s));
}

// --- where a local index's children are --------------------------------------

// A Hugo multilingual build: public/sitemap.xml names each language's
// sitemap in its folder. xmllint finds it valid; so must check.
TEST(ExistingSitemaps, ChecksAMultilingualRootIndexWithoutFalseFindings) {
  temp_dir t;
  const std::string pub = t / "public";
  fs::create_directories(pub);
  write_file(pub + "/index.html",
             "<!doctype html><html><head><meta http-equiv=\"refresh\" "
             "content=\"0; url=https://www.example.com/en/\"></head></html>\n");
  std::vector<std::string> children;
  for (const std::string lang : {"en", "de", "fr"}) {
    fs::create_directories(pub + "/" + lang + "/about");
    write_file(pub + "/" + lang + "/index.html", page("Home " + lang));
    write_file(pub + "/" + lang + "/about/index.html", page("About " + lang));
    write_file(pub + "/" + lang + "/sitemap.xml",
               urlset({base + lang + "/", base + lang + "/about/"}));
    children.push_back(base + lang + "/sitemap.xml");
  }
  write_file(pub + "/sitemap.xml", sitemapindex(children));
  EXPECT_EQ(validate_xml(read_raw(pub + "/sitemap.xml"), "sitemapindex"), "");

  run_result r = run_sitemill({"check", "--json", pub + "/sitemap.xml"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const json j = parse_report(r);
  EXPECT_EQ(j["documents"].size(), 4u) << j.dump(2);
  EXPECT_EQ(j["errors"], 0) << j.dump(2);
  // The same rule reads it as a source: every language's URLs.
  generate_run g =
      generate_and_check(t / "out", {"--from-sitemap", pub + "/sitemap.xml"});
  EXPECT_EQ(g.set.urls, 6u);
}

// A site whose sitemaps went to public/sitemaps with no word of where they
// are served: the index lists its children at the site's root.
void build_site(const std::string& pub) {
  for (const char* dir : {"", "/about", "/blog", "/blog/first-post",
                          "/blog/second-post", "/contact"}) {
    fs::create_directories(pub + dir);
    write_file(pub + dir + "/index.html", page(dir[0] ? dir + 1 : "Home"));
  }
}

TEST(ExistingSitemaps, ReportsAnIndexWhoseChildrenAreNotWhereItSays) {
  temp_dir t;
  const std::string pub = t / "public";
  build_site(pub);
  // generate now infers where --out is served; a --sitemaps-url naming the
  // site's root makes the index every tool before it wrote.
  run_result gen =
      run_sitemill({"generate", "--from-dir", pub, "--out", pub + "/sitemaps",
                    "--base-url", base, "--sitemaps-url", base, "--max-urls",
                    "2", "--layout", "sequential"});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  const std::string index = pub + "/sitemaps/sitemap.xml";
  const std::string listed = read_file(index);
  ASSERT_THAT(listed, HasSubstr("<loc>https://www.example.com/sitemap-"))
      << "the case: children listed at the site's root";

  run_result r = run_sitemill({"check", index});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("[child-misplaced]"));
  EXPECT_THAT(r.out, HasSubstr("is not where this index says: " + pub +
                               "/ is the site's root (it holds index.html)"));
  EXPECT_THAT(
      r.out,
      HasSubstr("is served at https://www.example.com/sitemaps/sitemap-"));
  EXPECT_THAT(r.out, Not(HasSubstr("[index-cycle]")));
  const json j = parse_report(run_sitemill({"check", "--json", index}));
  const std::vector<std::string> c = codes(j);
  EXPECT_EQ(count(c, "child-misplaced"), 3u) << j.dump(2);  // 6 pages, 2 each
  EXPECT_EQ(j["documents"].size(), 4u) << "the children are still checked";
  // Read as a source, nothing is lost, and the run says the same.
  run_result from = run_sitemill({"generate", "--layout", "sequential", "--base-url", base, "--out",
                                  t / "copy", "--from-sitemap", index});
  EXPECT_EQ(from.exit_code, 0) << from.err;
  EXPECT_EQ(expect_valid_set(t / "copy").urls, 6u);
  EXPECT_THAT(from.err, HasSubstr(index + ":3: warning: sitemap "
                                          "https://www.example.com/sitemap-"));
  EXPECT_THAT(from.err,
              HasSubstr("beside the index, which " + pub +
                        "/ (the site's root: it holds index.html) "
                        "serves at https://www.example.com/sitemaps/"));

  // Listed where the site serves them, the children are where the index
  // says; what is left is true of sitemaps in /sitemaps/: the location rule
  // keeps them from listing the pages above it.
  std::string fixed = listed;
  for (std::size_t p;
       (p = fixed.find("<loc>https://www.example.com/sitemap-")) !=
       std::string::npos;)
    fixed.replace(p, 29, "<loc>https://www.example.com/sitemaps/");
  write_file(index, fixed);
  const json again = parse_report(run_sitemill({"check", "--json", index}));
  const std::vector<std::string> left = codes(again);
  EXPECT_EQ(count(left, "child-misplaced"), 0u) << again.dump(2);
  EXPECT_EQ(count(left, "outside-location"), left.size()) << again.dump(2);
  EXPECT_EQ(left.size(), 6u) << again.dump(2);
}

// --- leniency: recovered by --from-sitemap, still reported by check ---------

struct lenient_case {
  std::string name;
  std::string xml;
  std::string warning;  // what --from-sitemap says; "" when nothing
  std::string code;     // what check reports; "" when it is valid
};

std::vector<lenient_case> lenient_cases() {
  const std::string decl = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  const std::string ns = "http://www.sitemaps.org/schemas/sitemap/0.9";
  const std::string urls =
      "<url><loc>https://www.example.com/a</loc></url>\n"
      "<url><loc>https://www.example.com/b</loc></url>\n";
  return {
      {"a comment before the declaration",
       "<!-- generated by SomeCMS 4.2 on 2024-05-01 -->\n" + decl +
           "<urlset xmlns=\"" + ns + "\">\n" + urls + "</urlset>\n",
       "a comment comes before the XML declaration",
       "xml-declaration-not-first"},
      {"whitespace before the declaration",
       "\n\n  " + decl + "<urlset xmlns=\"" + ns + "\">\n" + urls +
           "</urlset>\n",
       "whitespace comes before the XML declaration",
       "xml-declaration-not-first"},
      {"an entry that undeclares the namespace",
       decl + "<urlset xmlns=\"" + ns + "\">\n" +
           "<url xmlns=\"\"><loc>https://www.example.com/a</loc>"
           "<lastmod>2024-05-01</lastmod></url>\n"
           "<url><loc>https://www.example.com/b</loc></url>\n</urlset>\n",
       "<url> is in no namespace", "entry-no-namespace"},
      {"a prefix bound to the sitemap namespace",
       decl + "<urlset xmlns=\"" + ns + "\" xmlns:x=\"" + ns + "\">\n" +
           "<url><x:loc>https://www.example.com/a</x:loc></url>\n"
           "<x:url><x:loc>https://www.example.com/b</x:loc></x:url>\n"
           "</urlset>\n",
       "", ""},
  };
}

TEST(ExistingSitemaps, FromSitemapRecoversWhatCheckStillReports) {
  for (const lenient_case& c : lenient_cases()) {
    SCOPED_TRACE(c.name);
    temp_dir t;
    write_file(t / "in.xml", c.xml);
    run_result gen = run_sitemill({"generate", "--layout", "sequential", "--base-url", base, "--out",
                                   t / "out", "--from-sitemap", t / "in.xml"});
    EXPECT_EQ(gen.exit_code, 0) << gen.err;
    const published_set set = expect_valid_set(t / "out");
    EXPECT_EQ(all_locs(set),
              (std::vector<std::string>{base + "a", base + "b"}));
    if (c.warning.empty()) {
      EXPECT_THAT(gen.err, Not(HasSubstr(": warning:"))) << gen.err;
    } else {
      EXPECT_THAT(gen.err, HasSubstr(t / "in.xml"));
      EXPECT_THAT(gen.err, HasSubstr(c.warning)) << gen.err;
    }

    const json j =
        parse_report(run_sitemill({"check", "--json", t / "in.xml"}));
    const std::vector<std::string> found = codes(j);
    if (c.code.empty()) {
      EXPECT_EQ(j["errors"], 0) << j.dump(2);
      EXPECT_EQ(j["warnings"], 0) << j.dump(2);
      EXPECT_EQ(validate_xml(c.xml, "urlset"), "") << "xmllint agrees";
    } else {
      EXPECT_EQ(count(found, c.code), 1u) << j.dump(2);
      EXPECT_NE(validate_xml(c.xml), "") << "xmllint agrees";
    }
  }
}

// --- extension data through a round trip -------------------------------------

TEST(ExistingSitemaps, ResolvesARelativeAlternateAgainstItsPage) {
  temp_dir t;
  write_file(
      t / "in.xml",
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"\n"
      "  xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n"
      "<url><loc>https://www.example.com/en/shop/</loc>\n"
      "<xhtml:link rel=\"alternate\" hreflang=\"en\" "
      "href=\"https://www.example.com/en/shop/\"/>\n"
      "<xhtml:link rel=\"alternate\" hreflang=\"de\" "
      "href=\"../../de/laden/\"/>\n"
      "</url>\n"
      "<url><loc>https://www.example.com/de/laden/</loc>\n"
      "<xhtml:link rel=\"alternate\" hreflang=\"en\" href=\"/en/shop/\"/>\n"
      "<xhtml:link rel=\"alternate\" hreflang=\"de\" "
      "href=\"https://www.example.com/de/laden/\"/>\n"
      "</url>\n</urlset>\n");
  run_result gen = run_sitemill({"generate", "--layout", "sequential", "--base-url", base, "--out",
                                 t / "out", "--from-sitemap", t / "in.xml"});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  EXPECT_THAT(gen.err,
              HasSubstr(t / "in.xml" + ":4: warning: xhtml:link href "
                                       "\"../../de/laden/\" is relative: read "
                                       "as https://www.example.com/de/laden/"));
  EXPECT_THAT(gen.err, HasSubstr(t / "in.xml" + ":8: warning: xhtml:link href "
                                                "\"/en/shop/\" is relative"));
  const published_set set = expect_valid_set(t / "out");
  std::string out;
  for (const set_file* f : set.sitemaps()) out += f->content;
  EXPECT_THAT(
      out,
      HasSubstr("hreflang=\"de\" href=\"https://www.example.com/de/laden/\""));
  EXPECT_THAT(
      out,
      HasSubstr("hreflang=\"en\" href=\"https://www.example.com/en/shop/\""));
  // Both pages keep both links: nothing was dropped.
  std::size_t links = 0;
  for (std::size_t p = out.find("<xhtml:link"); p != std::string::npos;
       p = out.find("<xhtml:link", p + 1))
    ++links;
  EXPECT_EQ(links, 4u) << out;
}

// --- one problem, one finding ----------------------------------------------

TEST(ExistingSitemaps, CountsEachProblemOnce) {
  temp_dir t;
  const std::string decl = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  const std::string open =
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
      "xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n";

  // A raw '&' in a query string.
  write_file(t / "amp.xml", decl + open +
                                "<url><loc>https://www.example.com/search?q=a&"
                                "page=2</loc></url>\n</urlset>\n");
  json j = parse_report(run_sitemill({"check", "--json", t / "amp.xml"}));
  EXPECT_EQ(j["errors"], 1) << j.dump(2);
  EXPECT_EQ(codes(j), (std::vector<std::string>{"not-well-formed"}));

  // A gzip file cut short in transfer.
  std::string body = decl + open;
  for (int i = 0; i < 400; ++i)
    body += "<url><loc>https://www.example.com/p/" + std::to_string(i) +
            "</loc></url>\n";
  body += "</urlset>\n";
  const std::string gz = gzip(body);
  write_file(t / "cut.xml.gz", gz.substr(0, gz.size() / 2));
  j = parse_report(run_sitemill({"check", "--json", t / "cut.xml.gz"}));
  EXPECT_EQ(j["errors"], 1) << j.dump(2);
  EXPECT_EQ(codes(j), (std::vector<std::string>{"gzip-truncated"}));

  // An alternate without href, beside one that has it.
  write_file(t / "href.xml",
             decl + open +
                 "<url><loc>https://www.example.com/en/</loc>"
                 "<xhtml:link rel=\"alternate\" hreflang=\"en\" "
                 "href=\"https://www.example.com/en/\"/>"
                 "<xhtml:link rel=\"alternate\" hreflang=\"de\" "
                 "href=\"https://www.example.com/de/\"/>"
                 "<xhtml:link rel=\"alternate\" hreflang=\"de\"/>"
                 "</url>\n</urlset>\n");
  j = parse_report(run_sitemill({"check", "--json", t / "href.xml"}));
  const std::vector<std::string> c = codes(j);
  EXPECT_EQ(count(c, "hreflang-missing-href"), 1u) << j.dump(2);
  EXPECT_EQ(count(c, "hreflang-duplicate-language"), 0u) << j.dump(2);
  EXPECT_THAT(j.dump(), Not(HasSubstr("\\\"\\\"")))
      << "no finding names an empty URL";
}

}  // namespace
}  // namespace sitemill::testing
