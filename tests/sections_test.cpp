// Sections (generate_options::sections): which section a URL goes to, the
// names a section may have, how its files are named in a set, and how
// stats tells a file's section from its name.
#include "generate/sections.h"

#include <gtest/gtest.h>

#include <fstream>

#include "generate/entry_spool.h"
#include "sitemill/inspect/stats.h"
#include "sitemill/publish/set_assembly.h"
#include "support/run.h"

namespace sitemill {
namespace {

using testing::temp_dir;

generate_options with_rules(std::vector<section_rule> rules,
                            bool first_segment = false, bool news = false) {
  generate_options o;
  o.sections = std::move(rules);
  o.sections_from_first_segment = first_segment;
  o.news = news;
  return o;
}

detail::section_rules rules_of(const generate_options& o) {
  auto made = detail::section_rules::make(o);
  EXPECT_TRUE(made) << made.err().message;
  return std::move(*made);
}

TEST(Sections, NamesAreLowercaseLettersDigitsDashAndUnderscore) {
  for (const char* ok : {"blog", "help-center", "v2", "a_b", "0"})
    EXPECT_EQ(section_name_problem(ok), "") << ok;
  for (const char* bad : {"", "Blog", "a b", "a.b", "a/b", "blög", "%7e"})
    EXPECT_NE(section_name_problem(bad), "") << bad;
  EXPECT_EQ(section_name_problem(std::string(64, 'a')), "");
  EXPECT_NE(section_name_problem(std::string(65, 'a')), "");
}

TEST(Sections, RulesAreCheckedWhenMade) {
  auto bad_name = detail::section_rules::make(with_rules({{"Blog", "blog/"}}));
  ASSERT_FALSE(bad_name);
  EXPECT_EQ(bad_name.err().field, "sections");
  EXPECT_NE(bad_name.err().message.find("\"Blog\""), std::string::npos);
  auto twice = detail::section_rules::make(
      with_rules({{"blog", "blog/"}, {"blog", "news/"}}));
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.err().message.find("given twice"), std::string::npos);
  auto empty_glob = detail::section_rules::make(with_rules({{"blog", ""}}));
  EXPECT_FALSE(empty_glob);
  EXPECT_TRUE(detail::section_rules::make(with_rules({{"news", "news/"}})));
  EXPECT_FALSE(detail::section_rules::make(
      with_rules({{"news", "news/"}}, false, /*news=*/true)));
}

// One line per case: field, path, the section picked.
TEST(Sections, TheFieldThenTheFirstMatchingGlobThenTheFirstSegment) {
  const auto rules = rules_of(with_rules({{"manuals", "help/manuals/**"},
                                          {"help", "help/"},
                                          {"pdf", "*.pdf"},
                                          {"about", "/about.html"}},
                                         /*first_segment=*/true));
  const struct {
    const char* field;
    const char* path;
    const char* section;
  } cases[] = {
      {"", "help/manuals/a.html", "manuals"},
      {"", "help/faq", "help"},
      {"", "help/", "help"},
      {"", "help", ""},  // a page named help at the root, not the directory
      {"", "x/y/doc.pdf", "pdf"},
      {"", "about.html", "about"},
      {"", "blog/about.html", "blog"},  // /about.html is from the base only
      {"", "blog/", "blog"},
      {"", "shop/a/b", "shop"},
      {"", "index.html", ""},
      {"", "", ""},
      {" catalog ", "help/faq", "catalog"},  // the field wins, trimmed
      {"Bad Name", "help/faq", "help"},      // ignored: the globs decide
  };
  for (const auto& c : cases) {
    const auto got = rules.pick(c.field, c.path);
    EXPECT_EQ(got.name, c.section) << c.field << " " << c.path;
  }
  EXPECT_EQ(rules.pick("Bad Name", "x").bad_field, "Bad Name");
  EXPECT_EQ(rules.pick("", "Legacy/a.html").bad_segment, "Legacy");
  EXPECT_EQ(rules.pick("", "Legacy/a.html").name, "");
}

TEST(Sections, WithoutFirstSegmentsAnUnmatchedUrlIsInTheDefaultSection) {
  const auto rules = rules_of(with_rules({{"blog", "blog/**"}}));
  EXPECT_EQ(rules.pick("", "shop/a").name, "");
  EXPECT_EQ(rules.pick("", "shop/a").bad_segment, "");
  EXPECT_EQ(rules.pick("", "blog/a").name, "blog");
}

TEST(Sections, TheTableNumbersNamesAndStopsAtTheCap) {
  detail::section_table t;
  EXPECT_EQ(*t.id_of(""), detail::default_section);
  EXPECT_EQ(*t.id_of("b"), 1u);
  EXPECT_EQ(*t.id_of("a"), 2u);
  EXPECT_EQ(*t.id_of("b"), 1u);
  EXPECT_EQ(t.name(2), "a");
  for (std::size_t i = t.size(); i <= generate_options::max_sections; ++i)
    ASSERT_TRUE(t.id_of("s" + std::to_string(i)));
  EXPECT_EQ(t.size(), generate_options::max_sections + 1);  // with ""
  auto over = t.id_of("one-more");
  ASSERT_FALSE(over);
  EXPECT_EQ(over.err().field, "sections");
  EXPECT_TRUE(t.id_of("s5")) << "a known name is still found";
}

TEST(Sections, AGlobMatchesAUrlPathOrADirectoryAboveIt) {
  auto p = site_patterns::make({site_pattern{"blog/"}});
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->matches_url_path("blog/a.html"));
  EXPECT_TRUE(p->matches_url_path("blog/2026/a.html"));
  EXPECT_TRUE(p->matches_url_path("blog/"));
  EXPECT_FALSE(p->matches_url_path("blog"));  // a file, not the directory
  EXPECT_FALSE(p->matches_url_path("blogs/a"));
  EXPECT_FALSE(p->matches_url_path(""));
  auto any = site_patterns::make({site_pattern{"**"}});
  ASSERT_TRUE(any);
  EXPECT_TRUE(any->matches_url_path("a"));
  EXPECT_TRUE(any->matches_url_path("a/b/"));
  auto regex = site_patterns::make({site_pattern{"^shop/", true, true}});
  ASSERT_TRUE(regex);
  EXPECT_TRUE(regex->matches_url_path("shop/x"));
  EXPECT_FALSE(regex->matches_url_path("x/shop/y"));
}

finished_sitemap finished(publisher& pub, std::string section,
                          std::uint64_t digest, std::string group = "") {
  finished_sitemap s;
  s.temp_path = pub.temp_path("part");
  std::ofstream(s.temp_path, std::ios::binary) << "x";
  s.part.urls = 1;
  s.part.bytes = 1;
  s.digest = digest;
  s.section = std::move(section);
  s.group = std::move(group);
  return s;
}

TEST(Sections, EachSectionsFilesAreNamedForItAndNumberedOnTheirOwn) {
  temp_dir d;
  auto pub = publisher::open(d / "out");
  ASSERT_TRUE(pub);
  set_layout l;
  l.base_url = "https://example.com/";
  l.extension = ".xml";
  auto set = assemble_set(**pub, l,
                          {finished(**pub, "", 0x111111111111),
                           finished(**pub, "blog", 0x222222222222),
                           finished(**pub, "blog", 0x333333333333),
                           finished(**pub, "shop", 0x444444444444),
                           finished(**pub, "", 0x555555555555, "news")});
  ASSERT_TRUE(set) << set.err().message;
  std::vector<std::string> names;
  for (const staged_file& f : set->files) names.push_back(f.file.path);
  EXPECT_EQ(
      names,
      (std::vector<std::string>{
          "sitemap-1-111111111111.xml", "sitemap-blog-1-222222222222.xml",
          "sitemap-blog-2-333333333333.xml", "sitemap-shop-1-444444444444.xml",
          "sitemap-news-1-555555555555.xml", "sitemap.xml"}));

  // One plain sitemap of a section is indexed all the same: the entry is
  // NAME.xml, an index, whether or not sections come later.
  auto one = assemble_set(**pub, l, {finished(**pub, "blog", 0x666666666666)});
  ASSERT_TRUE(one);
  ASSERT_EQ(one->files.size(), 2u);
  EXPECT_EQ(one->files[0].file.path, "sitemap-blog-1-666666666666.xml");
  EXPECT_EQ(one->entry, "sitemap.xml");
  EXPECT_EQ(one->files[1].file.type, document_type::sitemapindex);
}

TEST(Sections, StatsTellsAFilesSectionFromItsName) {
  const struct {
    const char* name;
    const char* stem;
    std::optional<std::string> section;
  } cases[] = {
      {"sitemap-1-0123456789ab.xml.gz", "sitemap", ""},
      {"out/sitemap-blog-2-0123456789ab.xml.gz", "sitemap", "blog"},
      {"https://x.example/m/sitemap-help-center-10-0123456789ab.xml", "sitemap",
       "help-center"},
      {"sitemap-news-1-0123456789ab.xml", "sitemap", "news"},
      {"site.map-a_b-1-0123456789ab.txt", "site.map", "a_b"},
      {"sitemap-blog-x-0123456789ab.xml", "sitemap", std::nullopt},
      {"sitemap-blog-1-0123456789a.xml", "sitemap", std::nullopt},
      {"sitemap-blog-1-0123456789AB.xml", "sitemap", std::nullopt},
      {"sitemap.xml", "sitemap", std::nullopt},
      {"other-1-0123456789ab.xml", "sitemap", std::nullopt},
      {"sitemaps-1-0123456789ab.xml", "sitemap", std::nullopt},
  };
  for (const auto& c : cases)
    EXPECT_EQ(section_of_file(c.name, c.stem), c.section) << c.name;
}

TEST(Sections, ASpooledEntryKeepsItsSection) {
  temp_dir d;
  auto spool = detail::entry_spool::create(d / "spool");
  ASSERT_TRUE(spool);
  detail::spooled_entry e;
  e.xml = "<url><loc>https://example.com/a</loc></url>\n";
  e.set = 2;
  e.section = 7;
  ASSERT_TRUE(spool->add(e));
  e.section = 0;
  ASSERT_TRUE(spool->add(e));
  ASSERT_TRUE(spool->rewind());
  auto a = spool->next();
  ASSERT_TRUE(a);
  EXPECT_EQ(a->section, 7u);
  EXPECT_EQ(a->set, 2u);
  auto b = spool->next();
  ASSERT_TRUE(b);
  EXPECT_EQ(b->section, 0u);
}

}  // namespace
}  // namespace sitemill
