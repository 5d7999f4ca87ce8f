// End-to-end tests of the browser view of a set (docs/browser-view.md):
// generate --xsl default (the bundled stylesheet, checked with xsltproc and
// in headless Chromium served over loopback HTTP) and generate --html (the
// paged HTML view, opened in headless Chromium). Chromium is a test
// dependency (scripts/install-deps.sh): when it is missing these tests fail.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "support/browser.h"
#include "support/http_server.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* xsltproc = "/usr/bin/xsltproc";

// Five URLs, one with characters that must be escaped, in sitemaps of at
// most three, with HTML pages of at most two: two sitemaps, three pages.
std::string five_urls(const temp_dir& t) {
  write_file(t / "urls.csv",
             "loc,lastmod,changefreq,priority\n"
             "/a,2025-01-02,daily,0.5\n"
             "/b?x=1&y=2,2025-03-01,,\n"
             "/c,,,\n"
             "/d,2024-12-01,weekly,1.0\n"
             "/e,,,\n");
  return t / "urls.csv";
}

const std::vector<std::string> small_set_flags = {
    "--xsl",      "default", "--html",           "--no-gzip",
    "--max-urls", "3",       "--html-page-urls", "2"};

std::vector<std::string> with(std::vector<std::string> a,
                              const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::size_t rows_in(std::string_view html, std::string_view table_id) {
  return table_rows(html, table_id);
}

const set_file* only_of_type(const published_set& set, std::string_view type) {
  const set_file* found = nullptr;
  for (const auto& f : set.files)
    if (f.type == type) {
      EXPECT_EQ(found, nullptr) << "several files of type " << type;
      found = &f;
    }
  return found;
}

// xsltproc applies the file's own <?xml-stylesheet?> (--noout would not
// show the result): the stylesheet must be valid XSLT 1.0 and render.
std::string xslt(const std::string& xml_path) {
  if (::access(xsltproc, X_OK) != 0) {
    ADD_FAILURE() << xsltproc
                  << " is missing: run scripts/install-deps.sh (xsltproc)";
    return "";
  }
  run_result r = run_program(xsltproc, {"--nonet", xml_path});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

TEST(GenerateCli, XslDefaultWritesTheBundledStylesheetAndEveryXmlFileNamesIt) {
  temp_dir t;
  auto g = generate_and_check(t / "out", {"--xsl", "default", "--no-gzip",
                                          "--max-urls", "3", five_urls(t)});
  const set_file* xsl = only_of_type(g.set, "stylesheet");
  ASSERT_NE(xsl, nullptr);
  EXPECT_TRUE(
      std::regex_match(xsl->path, std::regex("sitemap-[0-9a-f]{12}\\.xsl")))
      << xsl->path;
  EXPECT_THAT(xsl->content, HasSubstr("<xsl:stylesheet version=\"1.0\""));
  const std::string instruction =
      "<?xml-stylesheet type=\"text/xsl\" href=\"" + xsl->path + "\"?>\n";
  std::size_t xml_files = 0;
  for (const auto& f : g.set.files) {
    if (f.type != "urlset" && f.type != "sitemapindex") continue;
    SCOPED_TRACE(f.path);
    ++xml_files;
    EXPECT_THAT(f.content, HasSubstr(instruction)) << "a relative href";
    const std::string html = xslt(t / "out/" + f.path);
    if (f.type == "sitemapindex") {
      EXPECT_EQ(rows_in(html, "sitemaps"), f.urls);
    } else {
      EXPECT_EQ(rows_in(html, "urls"), f.urls);
      EXPECT_THAT(html, HasSubstr("<th>Change frequency</th>"));
    }
  }
  EXPECT_GE(g.set.sitemaps().size(), 2u);
  EXPECT_EQ(xml_files, g.set.sitemaps().size() + 1)
      << "the sitemaps and the index";

  // A rerun publishes the same stylesheet again (same name, same bytes); a
  // run without the flag removes it with the rest of the old set.
  generate_and_check(t / "out", {"--xsl", "default", "--no-gzip", "--max-urls",
                                 "3", five_urls(t)});
  auto plain = generate_and_check(t / "out", {"--no-gzip", five_urls(t)});
  EXPECT_EQ(only_of_type(plain.set, "stylesheet"), nullptr);
  for (const auto& name : list_files(t / "out"))
    EXPECT_FALSE(name.ends_with(".xsl")) << name << " left behind";
}

TEST(GenerateCli, XslDefaultStylesheetCountsImages) {
  temp_dir t;
  write_file(t / "urls.jsonl",
             R"({"loc":"/a","images":["https://cdn.example.com/1.png",)"
             R"("https://cdn.example.com/2.png"]})"
             "\n"
             R"({"loc":"/b"})"
             "\n");
  auto g = generate_and_check(
      t / "out", {"--xsl", "default", "--no-gzip", t / "urls.jsonl"});
  ASSERT_EQ(g.set.entry, "sitemap.xml");
  const std::string html = xslt(t / "out/sitemap.xml");
  EXPECT_EQ(rows_in(html, "urls"), 2u);
  EXPECT_THAT(html, HasSubstr("<th class=\"num\">Images</th>"));
  EXPECT_THAT(html, HasSubstr("</span> URLs, 2 images."));
}

TEST(GenerateCli, HtmlWritesAPagedViewPublishedWithTheSet) {
  temp_dir t;
  // Input-order files (3 + 2 URLs), so the pages' ranges are known.
  auto g = generate_and_check(
      t / "out",
      with({"--layout", "sequential", five_urls(t)}, small_set_flags));
  const set_file* front = g.set.find("sitemap.html");
  ASSERT_NE(front, nullptr) << "the front page is in the manifest";
  EXPECT_EQ(front->type, "html");
  std::vector<const set_file*> pages;
  for (const auto& f : g.set.files)
    if (f.type == "html" && f.path != "sitemap.html") {
      EXPECT_TRUE(std::regex_match(
          f.path, std::regex("sitemap-html-[1-3]-[0-9a-f]{12}\\.html")))
          << f.path;
      pages.push_back(&f);
    }
  ASSERT_EQ(pages.size(), 3u) << "3 + 2 URLs at 2 a page";
  EXPECT_EQ(rows_in(front->content, "files"), 2u);
  EXPECT_THAT(front->content, HasSubstr("<span id=\"url-count\">5</span>"));
  std::size_t rows = 0;
  for (const auto* p : pages) {
    rows += rows_in(p->content, "urls");
    EXPECT_THAT(front->content, HasSubstr("href=\"" + p->path + "\""));
    EXPECT_THAT(p->content, HasSubstr("<a href=\"sitemap.html\">"));
    EXPECT_THAT(p->content, Not(HasSubstr("<script")));
  }
  EXPECT_EQ(rows, 5u);
  // The loc is escaped in the link and in the text.
  bool seen = false;
  for (const auto* p : pages)
    seen = seen || p->content.find(
                       "/b?x=1&amp;y=2\">https://www.example.com/"
                       "b?x=1&amp;y=2</a>") != std::string::npos;
  EXPECT_TRUE(seen);

  // Another set replaces the view; without --html it goes with the old set.
  write_file(t / "more.txt", "/f\n/g\n");
  auto more = generate_and_check(
      t / "out", with({five_urls(t), t / "more.txt"}, small_set_flags));
  EXPECT_THAT(more.set.find("sitemap.html")->content,
              HasSubstr("<span id=\"url-count\">7</span>"));
  auto plain = generate_and_check(t / "out", {five_urls(t)});
  for (const auto& name : list_files(t / "out"))
    EXPECT_FALSE(name.ends_with(".html")) << name << " left behind";
}

TEST(GenerateCli, HtmlNeverReplacesAPageSitemillDidNotWrite) {
  temp_dir t;
  std::filesystem::create_directory(t / "out");
  write_file(t / "out/sitemap.html", "<p>the site's own sitemap page</p>");
  auto r = run_sitemill({"generate", "--base-url", "https://www.example.com/",
                         "--out", t / "out", "--html", five_urls(t)});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("refusing to replace"));
  EXPECT_THAT(r.err, HasSubstr("--name"));
  EXPECT_EQ(read_raw(t / "out/sitemap.html"),
            "<p>the site's own sitemap page</p>");
  EXPECT_EQ(list_files(t / "out"), std::vector<std::string>{"sitemap.html"})
      << "nothing published";
}

TEST(GenerateCli, HtmlPageUrlsIsCheckedAndNamedAsAFlag) {
  temp_dir t;
  auto r = run_sitemill({"generate", "--base-url", "https://www.example.com/",
                         "--out", t / "out", "--html", "--html-page-urls", "0",
                         five_urls(t)});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("--html-page-urls"));
}

// One small set for the browser tests, generated once (each Chromium start
// costs a second or two).
class BrowserView : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<temp_dir>();
    // Input-order files (3 + 2 URLs): the pages' counts are known.
    set_ = std::make_unique<generate_run>(generate_and_check(
        *dir_ / "out",
        with({"--layout", "sequential", five_urls(*dir_)}, small_set_flags)));
  }
  static void TearDownTestSuite() {
    set_.reset();
    dir_.reset();
  }
  static std::string out() { return *dir_ / "out"; }

  static std::unique_ptr<temp_dir> dir_;
  static std::unique_ptr<generate_run> set_;
};
std::unique_ptr<temp_dir> BrowserView::dir_;
std::unique_ptr<generate_run> BrowserView::set_;

TEST_F(BrowserView, ChromiumAppliesTheStylesheetToTheIndexAndItsSitemaps) {
  http_server server;
  serve_directory(server, out());
  const std::string index = browser_dom(server.url("/sitemap.xml"));
  EXPECT_EQ(table_rows(index, "sitemaps"), 2u) << index;
  EXPECT_EQ(element_text(index, "sitemap-count"), "2");
  browser_screenshot(server.url("/sitemap.xml"),
                     screenshot_path("xsl-index.png"));

  std::size_t urls = 0;
  for (const auto* f : set_->set.sitemaps()) {
    const std::string dom = browser_dom(server.url("/" + f->path));
    EXPECT_EQ(table_rows(dom, "urls"), f->urls) << f->path;
    EXPECT_EQ(element_text(dom, "url-count"), std::to_string(f->urls));
    urls += table_rows(dom, "urls");
  }
  EXPECT_EQ(urls, 5u);
  const set_file* xsl = only_of_type(set_->set, "stylesheet");
  ASSERT_NE(xsl, nullptr);
  EXPECT_GE(server.count("/" + xsl->path), 1u) << "fetched relatively";
}

// Headless Chromium's --dump-dom and --screenshot need scripts themselves
// (scriptEnabled=false makes them print nothing), so "works without
// scripts" is proved on the bytes: the pages hold no script at all.
TEST_F(BrowserView, ChromiumShowsTheHtmlViewWhichHoldsNoScript) {
  for (const auto& f : set_->set.files)
    if (f.type == "html") {
      EXPECT_THAT(f.content, Not(HasSubstr("<script"))) << f.path;
      EXPECT_FALSE(std::regex_search(f.content, std::regex(" on[a-z]+=")))
          << f.path << ": an event handler attribute";
      EXPECT_THAT(f.content, Not(HasSubstr("src="))) << f.path;
    }
  const std::string front = browser_dom("file://" + out() + "/sitemap.html");
  EXPECT_EQ(table_rows(front, "files"), 2u) << front;
  EXPECT_EQ(element_text(front, "url-count"), "5");
  EXPECT_EQ(element_text(front, "file-count"), "2");
  browser_screenshot("file://" + out() + "/sitemap.html",
                     screenshot_path("html-front-page.png"));
  const set_file* page = nullptr;
  for (const auto& f : set_->set.files)
    if (f.path.starts_with("sitemap-html-1-")) page = &f;
  ASSERT_NE(page, nullptr);
  const std::string dom = browser_dom("file://" + out() + "/" + page->path);
  EXPECT_EQ(table_rows(dom, "urls"), 2u) << dom;
  EXPECT_THAT(dom, HasSubstr("https://www.example.com/a"));
  browser_screenshot("file://" + out() + "/" + page->path,
                     screenshot_path("html-page.png"));
}

}  // namespace
}  // namespace sitemill::testing
