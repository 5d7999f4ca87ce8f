// What changed between two sets (inspect/diff.h): every class, and guards.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "inspect_support.h"
#include "sitemill/inspect/diff.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

const std::string site = "https://www.example.com/";

// URL -> its classes, and files told.
struct recording_observer final : diff_observer {
  void on_file(const file_difference& d) override {
    files.push_back(std::string(to_string(d.kind)) + " " + d.old_path + "|" +
                    d.new_path);
  }
  void on_url(const url_difference& d) override {
    urls[std::string(d.url)] |= d.classes;
    ++told;
  }
  std::map<std::string, diff_classes> urls;
  std::vector<std::string> files;
  int told = 0;
};

struct diffed {
  diff_summary s;
  recording_observer o;
};

void run_diff(const std::string& a, const std::string& b, diffed& out) {
  auto old_set = resolve_set_input(a);
  auto new_set = resolve_set_input(b);
  ASSERT_TRUE(old_set && new_set);
  auto s = diff_sets(*old_set, *new_set, inspect_options{}, out.o);
  ASSERT_TRUE(s) << s.err().message;
  out.s = *s;
}

TEST(InspectDiff, SameSetsHaveNoDifference) {
  temp_dir t;
  const std::string x = urlset_xml({{site + "a", lastmod("2026-01-01")}});
  write_file(t / "old.xml", x);
  write_file(t / "new.xml", x);
  diffed d;
  run_diff(t / "old.xml", t / "new.xml", d);
  EXPECT_TRUE(d.s.same());
  EXPECT_EQ(d.o.told, 0);
  EXPECT_EQ(d.s.old_urls, 1u);
  EXPECT_EQ(d.s.new_urls, 1u);
}

TEST(InspectDiff, TellsEveryUrlClass) {
  temp_dir t;
  write_file(
      t / "old.xml",
      urlset_xml({{site + "same", lastmod("2026-01-01")},
                  {site + "gone", lastmod("2026-01-01")},
                  {site + "fwd", lastmod("2026-01-01")},
                  {site + "back", lastmod("2026-05-01")},
                  {site + "gain", ""},
                  {site + "lose", lastmod("2026-01-01")},
                  // The same instant written two ways is no move.
                  {site + "instant", lastmod("2026-01-01")},
                  {site + "cf", "<changefreq>daily</changefreq>"},
                  {site + "prio", "<priority>0.5</priority>"},
                  {site + "img", "<image:image><image:loc>" + site +
                                     "1.png</image:loc></image:image>"}}));
  write_file(
      t / "new.xml",
      urlset_xml({{site + "same", lastmod("2026-01-01")},
                  {site + "new", ""},
                  {site + "new", ""},  // told once
                  {site + "fwd", lastmod("2026-02-01")},
                  {site + "back", lastmod("2026-04-01")},
                  {site + "gain", lastmod("2026-01-01")},
                  {site + "lose", ""},
                  {site + "instant", lastmod("2026-01-01T00:00:00Z")},
                  {site + "cf", "<changefreq>weekly</changefreq>"},
                  {site + "prio", "<priority>0.8</priority>"},
                  {site + "img", "<image:image><image:loc>" + site +
                                     "2.png</image:loc></image:image>"}}));
  diffed d;
  run_diff(t / "old.xml", t / "new.xml", d);
  const auto& u = d.o.urls;
  EXPECT_EQ(u.size(), 9u);
  EXPECT_EQ(u.at(site + "new"), bit(diff_class::added));
  EXPECT_EQ(u.at(site + "gone"), bit(diff_class::removed));
  EXPECT_EQ(u.at(site + "fwd"), bit(diff_class::lastmod_forward));
  EXPECT_EQ(u.at(site + "back"), bit(diff_class::lastmod_backward));
  EXPECT_EQ(u.at(site + "gain"), bit(diff_class::lastmod_gained));
  EXPECT_EQ(u.at(site + "lose"), bit(diff_class::lastmod_lost));
  EXPECT_EQ(u.at(site + "cf"), bit(diff_class::changefreq));
  EXPECT_EQ(u.at(site + "prio"), bit(diff_class::priority));
  EXPECT_EQ(u.at(site + "img"), bit(diff_class::extensions));
  EXPECT_FALSE(u.contains(site + "same"));
  EXPECT_FALSE(u.contains(site + "instant"));
  EXPECT_EQ(d.o.told, 9);
  EXPECT_EQ(d.s.count(diff_class::added), 1u);
  EXPECT_EQ(d.s.count(diff_class::removed), 1u);
  EXPECT_EQ(d.s.changed_urls, 7u);
  EXPECT_EQ(d.s.old_urls, 10u);
  EXPECT_EQ(d.s.new_urls, 10u);
  EXPECT_FALSE(d.s.same());
}

TEST(InspectDiff, ComparesNormalisedUrls) {
  temp_dir t;
  write_file(t / "old.xml",
             urlset_xml({{"HTTPS://WWW.Example.com:443/a", ""}}));
  write_file(t / "new.xml", urlset_xml({{site + "a", ""}}));
  diffed d;
  run_diff(t / "old.xml", t / "new.xml", d);
  EXPECT_TRUE(d.s.same());
}

TEST(InspectDiff, ComparesManifestFiles) {
  temp_dir t;
  const std::string body = urlset_xml({{site + "a", ""}});
  for (const char* dir : {"old", "new"}) {
    std::filesystem::create_directories(t / dir);
    write_file(t / dir + "/sitemap.xml", body);
  }
  auto manifest =
      [](const std::vector<std::pair<std::string, std::string>>& files) {
        std::string s =
            R"({"sitemill_manifest":1,"entry":"sitemap.xml","files":[)";
        bool first = true;
        for (const auto& [path, digest] : files) {
          s += std::string(first ? "" : ",") + R"({"path":")" + path +
               R"(","digest":")" + digest + R"("})";
          first = false;
        }
        return s + "]}";
      };
  // The old set's manifest is where earlier builds put it (in the set's
  // directory), the new one's beside its directory: both are read.
  write_file(t / "old/.sitemill-manifest-sitemap.json",
             manifest({{"sitemap.xml", "1"},
                       {"s-1-aaa.xml", "a"},
                       {"s-2-bbb.xml", "b"},
                       {"s-3-ccc.xml", "c"}}));
  std::filesystem::create_directories(t / ".sitemill/new");
  write_file(t / ".sitemill/new/manifest-sitemap.json",
             manifest({{"sitemap.xml", "2"},
                       {"s-1-aaa.xml", "a"},
                       {"s-2-renamed.xml", "b"},
                       {"s-4-ddd.xml", "d"}}));
  diffed d;
  run_diff(t / "old", t / "new", d);
  EXPECT_TRUE(d.s.files_compared);
  EXPECT_EQ(d.s.count(diff_class::files_changed), 1u);
  EXPECT_EQ(d.s.count(diff_class::files_renamed), 1u);
  EXPECT_EQ(d.s.count(diff_class::files_added), 1u);
  EXPECT_EQ(d.s.count(diff_class::files_removed), 1u);
  EXPECT_EQ(d.o.files,
            (std::vector<std::string>{
                "files-changed sitemap.xml|sitemap.xml",
                "files-renamed s-2-bbb.xml|s-2-renamed.xml",
                "files-added |s-4-ddd.xml", "files-removed s-3-ccc.xml|"}));
  EXPECT_TRUE(d.o.urls.empty());
}

TEST(InspectDiff, ASetNotReadWholeIsAnError) {
  temp_dir t;
  write_file(t / "old.xml", urlset_xml({{site + "a", ""}}));
  write_file(t / "i.xml", index_xml({site + "missing.xml"}));
  auto a = resolve_set_input(t / "old.xml");
  auto b = resolve_set_input(t / "i.xml");
  ASSERT_TRUE(a && b);
  recording_observer o;
  auto s = diff_sets(*a, *b, inspect_options{}, o);
  ASSERT_FALSE(s);
  EXPECT_NE(s.err().message.find("not read whole"), std::string::npos);
  write_file(t / "page.html", "<html><body>hi</body></html>");
  auto c = resolve_set_input(t / "page.html");
  ASSERT_TRUE(c);
  auto s2 = diff_sets(*a, *c, inspect_options{}, o);
  ASSERT_FALSE(s2);
  EXPECT_NE(s2.err().message.find("not a sitemap"), std::string::npos);
}

TEST(InspectDiffGuards, ParsesTheGrammar) {
  auto g = parse_diff_guards("removed>10%, lastmod-backward>0,any>5,changed>2");
  ASSERT_TRUE(g) << g.err().message;
  ASSERT_EQ(g->size(), 4u);
  EXPECT_EQ((*g)[0].of, diff_class::removed);
  EXPECT_TRUE((*g)[0].percent);
  EXPECT_DOUBLE_EQ((*g)[0].limit, 10.0);
  EXPECT_EQ((*g)[1].of, diff_class::lastmod_backward);
  EXPECT_FALSE((*g)[1].percent);
  EXPECT_FALSE((*g)[2].of.has_value());
  EXPECT_FALSE((*g)[2].changed);
  EXPECT_TRUE((*g)[3].changed);
  for (const char* bad : {"removed", "removed>", "removed>-1", "gone>1",
                          "removed>1e3", "removed>10%%", ""}) {
    auto r = parse_diff_guards(bad);
    EXPECT_FALSE(r) << bad;
    if (!r) {
      EXPECT_EQ(r.err().field, "fail_on") << bad;
    }
  }
}

TEST(InspectDiffGuards, JudgesCountsAndShares) {
  diff_summary s;
  s.old_urls = 300;
  s.old_manifest_files = 4;
  s.counts[static_cast<std::size_t>(diff_class::removed)] = 100;
  s.counts[static_cast<std::size_t>(diff_class::files_removed)] = 1;
  s.changed_urls = 3;
  auto one = [&](const char* text) {
    auto g = parse_diff_guards(text);
    EXPECT_TRUE(g) << text;
    return judge(g->at(0), s);
  };
  EXPECT_TRUE(one("removed>33%").tripped);
  EXPECT_FALSE(one("removed>34%").tripped);
  EXPECT_TRUE(one("removed>99").tripped);
  EXPECT_FALSE(one("removed>100").tripped);
  EXPECT_FALSE(one("added>0").tripped);
  EXPECT_TRUE(one("changed>2").tripped);
  EXPECT_TRUE(one("any>102").tripped);
  EXPECT_FALSE(one("any>103").tripped);
  EXPECT_TRUE(one("files-removed>20%").tripped);  // 1 of 4 files
  EXPECT_FALSE(one("files-removed>25%").tripped);
  const guard_verdict v = one("removed>10%");
  EXPECT_NE(v.sentence.find("33.3% of OLD's 300"), std::string::npos)
      << v.sentence;
}

}  // namespace
}  // namespace sitemill::testing
