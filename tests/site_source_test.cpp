// Tests for the directory source (--from-dir): a generated site tree with
// index files, noindex, canonical links, robots.txt, unicode and invalid
// file names, hidden files, symlink loops and links out of the tree; the
// include/exclude patterns; and the content lastmod policy across reruns,
// edits and a run killed before its commit.
#include "sitemill/source/site_source.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include "sitemill/source/state_db.h"
#include "sitemill/url/url.h"

namespace sitemill {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view base = "https://www.example.com/";

// A record copied out of the reader: `file` is its source relative to the
// root (the reader names it with the root, and gives every record line 0).
struct rec {
  std::string file, loc, lastmod, skipped, problem;
  bool operator==(const rec&) const = default;
};

void PrintTo(const rec& r, std::ostream* os) {
  *os << "{" << r.file << ", \"" << r.loc << "\", lastmod \"" << r.lastmod
      << "\", skipped \"" << r.skipped << "\", problem \"" << r.problem
      << "\"}";
}

// The URL path of `file`: an index.html stands for its directory.
std::string url_path_of(std::string file) {
  if (file == "index.html") return "";
  if (file.ends_with("/index.html")) file.resize(file.size() - 10);
  return file;
}

// A listed page whose URL path is its file's (url_path_of()).
rec page(std::string file, std::string lastmod = "") {
  std::string path = url_path_of(file);
  return rec{std::move(file), std::string(base) + path, std::move(lastmod), "",
             ""};
}

// A listed page whose URL path is spelled differently from its file.
rec page_at(std::string file, std::string path) {
  return rec{std::move(file), std::string(base) + path, "", "", ""};
}

rec skipped(std::string file, std::string reason) {
  std::string path = url_path_of(file);
  return rec{std::move(file), std::string(base) + path, "", std::move(reason),
             ""};
}

struct outcome {
  std::vector<rec> records;
  /// Each record's extension values as "key=text", in order.
  std::vector<std::vector<std::string>> extensions;
  std::string error;
  std::vector<record_reader::note> notes;
};

outcome read_site(const site_source_options& options) {
  outcome o;
  auto reader = open_site_source(options);
  EXPECT_TRUE(reader.has_value()) << (reader ? "" : reader.err().message);
  if (!reader) return o;
  input_record r;
  while ((*reader)->next(r)) {
    EXPECT_EQ(r.line, 0u) << r.loc;
    std::string_view file = r.source;
    EXPECT_TRUE(file.starts_with(options.root + "/")) << file;
    file.remove_prefix(std::min(file.size(), options.root.size() + 1));
    o.records.push_back(rec{std::string(file), std::string(r.loc),
                            std::string(r.lastmod), std::string(r.skipped),
                            std::string(r.problem)});
    auto& ext = o.extensions.emplace_back();
    for (const extension_value& v : r.extensions) {
      ext.push_back(std::string(extension_fields()[v.field].key) + "=" +
                    std::string(v.text));
    }
  }
  EXPECT_FALSE((*reader)->next(r));  // reading stays finished
  o.error = (*reader)->error();
  o.notes = (*reader)->notes();
  return o;
}

std::vector<std::string> locs(const outcome& o) {
  std::vector<std::string> out;
  for (const rec& r : o.records) {
    if (r.skipped.empty() && r.problem.empty()) out.push_back(r.loc);
  }
  return out;
}

std::string html(std::string_view head, std::string_view body) {
  return "<!DOCTYPE html><html><head><title>t</title>" + std::string(head) +
         "</head><body>" + std::string(body) + "</body></html>\n";
}

void write(const fs::path& path, std::string_view text) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

void set_mtime(const fs::path& path, std::time_t seconds) {
  const timespec times[2] = {{seconds, 0}, {seconds, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0) << path;
}

class SiteSource : public testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "sitemill-site-XXXXXX");
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    tmp_ = tmpl;
    root_ = tmp_ / "public";
    fs::create_directories(root_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(root_ / "locked.html", fs::perms::owner_all, ec);
    fs::remove_all(tmp_);
  }

  site_source_options options() const {
    site_source_options o;
    o.root = root_.string();
    o.base_url = std::string(base);
    o.lastmod = lastmod_policy::none;
    return o;
  }

  // The site most tests read.
  void make_site() {
    write(root_ / "index.html",
          html(R"(<link rel="canonical" href="https://WWW.example.com/">)",
               "home"));
    write(root_ / "about.html",
          html(R"(<link rel="canonical" href="ftp://example.com/about">)",
               "about"));
    write(root_ / "100%.html", html("", "percent"));
    write(root_ / "a?b#c.html", html("", "query and fragment characters"));
    write(root_ / "bad\xFFname.html", html("", "not UTF-8"));
    write(root_ / "café" / "naïve résumé.html", html("", "unicode"));
    write(root_ / "blog" / "index.html", html("", "blog"));
    write(root_ / "blog" / "post-1.html", html("", "post"));
    write(root_ / "blog" / "draft.html",
          html(R"(<meta name="robots" content="noindex, follow">)", "draft"));
    write(root_ / "blog" / "copy.html",
          html(R"(<link rel="canonical" href="/blog/post-1.html">)", "copy"));
    write(root_ / "blog" / "self.html",
          html(R"(<link rel="canonical" href="self.html#top">)", "self"));
    write(root_ / "private" / "secret.html", html("", "secret"));
    write(root_ / "robots.txt", "User-agent: *\nDisallow: /private/\n");
    write(root_ / "doc.pdf", "%PDF-1.4");
    write(root_ / "style.css", "body{}");
    write(root_ / ".hidden.html", html("", "hidden"));
    write(root_ / ".git" / "page.html", html("", "hidden dir"));
    write(root_ / "sitemap.xml", "<urlset/>");
    write(root_ / "feed.xml", "<rss/>");
    // sitemill's own sets: one an earlier build published (its manifest in
    // the directory), one published since (its manifest beside the root),
    // and one in a subdirectory (its manifest beside that directory).
    write(root_ / ".sitemill-manifest-sitemap.json",
          R"({"sitemill_manifest":1,"entry":"sitemap.xml",)"
          R"("files":[{"path":"sitemap.xml","type":"urlset"}]})");
    write(root_ / "news.xml", "<urlset/>");
    write(tmp_ / ".sitemill" / "public" / "manifest-news.json",
          R"({"sitemill_manifest":1,"entry":"news.xml",)"
          R"("files":[{"path":"news.xml","type":"urlset"}]})");
    write(root_ / "maps" / "sitemap.xml", "<urlset/>");
    write(root_ / ".sitemill" / "maps" / "manifest-sitemap.json",
          R"({"sitemill_manifest":1,"entry":"sitemap.xml",)"
          R"("files":[{"path":"sitemap.xml","type":"urlset"}]})");
    write(tmp_ / "elsewhere" / "x.html", html("", "outside"));
    fs::create_symlink(".", root_ / "loop");
    fs::create_symlink("..", root_ / "blog" / "up");
    fs::create_symlink("../elsewhere", root_ / "outside");
    fs::create_symlink("../elsewhere/x.html", root_ / "outside.html");
    fs::create_symlink("about.html", root_ / "inside-link.html");
    fs::create_symlink("missing.html", root_ / "dangling.html");
    ASSERT_EQ(::mkfifo((root_ / "pipe.html").c_str(), 0600), 0);
  }

  fs::path tmp_, root_;
};

const std::string loop_reason =
    "symbolic link loop (leads back to a directory above it); not followed";
const std::string outside_reason =
    "symbolic link to outside the site directory; not followed";

TEST_F(SiteSource, ListsPagesInPathOrderAndSaysWhySomeAreSkipped) {
  make_site();
  const outcome o = read_site(options());
  EXPECT_EQ(o.error, "");
  const std::vector<rec> want = {
      page_at("100%.html", "100%25.html"),
      page_at("a?b#c.html", "a%3Fb%23c.html"),
      page("about.html"),
      page_at("bad\xFFname.html", "bad%FFname.html"),
      skipped("blog/copy.html",
              "canonical points to https://www.example.com/blog/post-1.html"),
      skipped("blog/draft.html", "noindex (meta robots)"),
      page("blog/index.html"),
      page("blog/post-1.html"),
      page("blog/self.html"),
      skipped("blog/up/", loop_reason),
      page("café/naïve résumé.html"),
      page("index.html"),
      page("inside-link.html"),
      skipped("loop/", loop_reason),
      skipped("outside.html", outside_reason),
      skipped("outside/", outside_reason),
      skipped("private/secret.html",
              "disallowed by robots.txt (Disallow: /private/)"),
  };
  EXPECT_EQ(o.records, want);
  // about.html's canonical link is no http(s) URL: ignored, with a note,
  // for the page and for the link to it.
  ASSERT_EQ(o.notes.size(), 2U);
  EXPECT_EQ(o.notes[0].source, root_ / "about.html");
  EXPECT_EQ(o.notes[1].source, root_ / "inside-link.html");
  EXPECT_EQ(o.notes[0].message,
            "canonical link \"ftp://example.com/about\" ignored: " +
                std::string(describe(url_problem::not_http)));
}

TEST_F(SiteSource, GivesTheSameRecordsOnEveryRun) {
  make_site();
  EXPECT_EQ(read_site(options()).records, read_site(options()).records);
}

TEST_F(SiteSource, ProducesLocsTheNormaliserAcceptsAndEncodes) {
  make_site();
  auto normalizer = url_normalizer::with_base(base);
  ASSERT_TRUE(normalizer.has_value());
  const std::vector<std::string> want = {
      "https://www.example.com/100%25.html",
      "https://www.example.com/a%3Fb%23c.html",
      "https://www.example.com/about.html",
      "https://www.example.com/bad%FFname.html",
      "https://www.example.com/blog/",
      "https://www.example.com/blog/post-1.html",
      "https://www.example.com/blog/self.html",
      "https://www.example.com/caf%C3%A9/na%C3%AFve%20r%C3%A9sum%C3%A9.html",
      "https://www.example.com/",
      "https://www.example.com/inside-link.html",
  };
  std::vector<std::string> got;
  for (const std::string& loc : locs(read_site(options()))) {
    std::string out;
    EXPECT_EQ(normalizer->normalize(loc, out), url_problem::ok) << loc;
    got.push_back(out);
  }
  EXPECT_EQ(got, want);
}

TEST_F(SiteSource, EachSkipRuleCanBeSwitchedOff) {
  make_site();
  const struct {
    std::string_view name;
    bool page_rules::*flag;
    std::string path;  // listed once the rule is off
  } cases[] = {
      {"noindex", &page_rules::honour_noindex, "blog/draft.html"},
      {"canonical", &page_rules::honour_canonical, "blog/copy.html"},
      {"robots", &page_rules::honour_robots, "private/secret.html"},
  };
  for (const auto& c : cases) {
    site_source_options o = options();
    const std::string url = std::string(base) + c.path;
    auto listed = locs(read_site(o));
    EXPECT_EQ(std::count(listed.begin(), listed.end(), url), 0) << c.name;
    o.rules.*c.flag = false;
    listed = locs(read_site(o));
    EXPECT_EQ(std::count(listed.begin(), listed.end(), url), 1) << c.name;
  }
}

// The extension values of the record for `path`, which must be listed.
std::vector<std::string> extensions_of(const outcome& o,
                                       std::string_view path) {
  for (std::size_t i = 0; i < o.records.size(); ++i) {
    if (o.records[i].loc == std::string(base) + std::string(path)) {
      EXPECT_EQ(o.records[i].skipped, "") << path;
      return o.extensions[i];
    }
  }
  ADD_FAILURE() << path << " not listed";
  return {};
}

using strings = std::vector<std::string>;

TEST_F(SiteSource, GivesAPagesHreflangAlternatesResolvedAgainstItsUrl) {
  write(root_ / "en" / "index.html",
        html(R"(<link rel="alternate" hreflang="en" href="./">)"
             R"(<link rel="alternate" hreflang="de" href="../de/">)"
             R"(<link rel="alternate" hreflang="fr" )"
             R"(href="https://example.fr/">)",
             R"(<link rel="alternate" hreflang="it" href="/it/">)"));
  write(root_ / "de" / "index.html", html("", "kein Link"));
  const outcome o = read_site(options());
  EXPECT_EQ(extensions_of(o, "en/"),
            (strings{"@hreflang=en", "@href=https://www.example.com/en/",
                     "@hreflang=de", "@href=https://www.example.com/de/",
                     "@hreflang=fr", "@href=https://example.fr/"}));
  EXPECT_EQ(extensions_of(o, "de/"), strings{});
  EXPECT_TRUE(o.notes.empty());
}

TEST_F(SiteSource, ListsImagesOnlyWithTheImagesOption) {
  write(
      root_ / "p.html",
      html(
          R"(<base href="/media/">)"
          R"(<meta property="og:image" content="https://cdn.example.net/og.jpg">)",
          R"(<img src="a.jpg" srcset="a-1x.jpg 1x, a-2x.jpg 2x">)"
          R"(<img src="/t.gif" width="1" height="1">)"
          R"(<img src="data:image/png;base64,AAAA">)"
          R"(<img src="https://www.example.com/media/a-2x.jpg">)"));
  site_source_options o = options();
  EXPECT_EQ(extensions_of(read_site(o), "p.html"), strings{});
  o.images = true;
  EXPECT_EQ(extensions_of(read_site(o), "p.html"),
            (strings{"loc=https://cdn.example.net/og.jpg",
                     "loc=https://www.example.com/media/a-2x.jpg"}));
}

// With every skip rule off and lastmod from the file time, nothing else
// needs the page read: its alternates still do.
TEST_F(SiteSource, ReadsAlternatesWhenNoSkipRuleNeedsThePage) {
  write(root_ / "a.html",
        html(R"(<link rel="alternate" hreflang="de" href="/de.html">)", "a"));
  site_source_options o = options();
  o.rules.honour_noindex = o.rules.honour_canonical = o.rules.honour_robots =
      false;
  o.lastmod = lastmod_policy::mtime;
  EXPECT_EQ(extensions_of(read_site(o), "a.html"),
            (strings{"@hreflang=de", "@href=https://www.example.com/de.html"}));
  o.alternates = false;
  EXPECT_EQ(extensions_of(read_site(o), "a.html"), strings{});
}

TEST_F(SiteSource, NotesLinksThatAreNoUsableUrlsAtTheirPage) {
  write(root_ / "a.html",
        html(R"(<link rel="alternate" hreflang="de" href="http://[x/">)", "a"));
  // A page skipped as a copy says nothing about its links.
  write(root_ / "b.html",
        html(R"(<link rel="canonical" href="/a.html">)"
             R"(<link rel="alternate" hreflang="de" href="http://[x/">)",
             "b"));
  const outcome o = read_site(options());
  ASSERT_EQ(o.notes.size(), 1u);
  EXPECT_EQ(o.notes[0].source, root_ / "a.html");
  EXPECT_EQ(o.notes[0].message.find("hreflang alternate \"http://[x/\""), 0u)
      << o.notes[0].message;
}

TEST_F(SiteSource, KeepsIndexFilesAsFilesWhenAsked) {
  make_site();
  site_source_options o = options();
  o.map_index_files = false;
  const auto listed = locs(read_site(o));
  EXPECT_EQ(std::count(listed.begin(), listed.end(),
                       std::string(base) + "blog/index.html"),
            1);
  EXPECT_EQ(
      std::count(listed.begin(), listed.end(), std::string(base) + "blog/"), 0);
}

TEST_F(SiteSource, MapsConfiguredIndexNames) {
  write(root_ / "docs" / "default.htm", html("", "d"));
  write(root_ / "docs" / "index.html", html("", "i"));
  site_source_options o = options();
  o.index_files = {"default.htm"};
  EXPECT_EQ(locs(read_site(o)),
            (std::vector<std::string>{std::string(base) + "docs/",
                                      std::string(base) + "docs/index.html"}));
}

TEST_F(SiteSource, ListsOtherTypesByPatternButNeverItsOwnOutputs) {
  make_site();
  site_source_options o = options();
  o.patterns.push_back({"*.pdf", true});
  o.patterns.push_back({"*.xml", true});
  o.patterns.push_back({"blog/", false});
  o.patterns.push_back({"blog/post-1.html", true});  // blog/ is not entered
  o.patterns.push_back({"/index.html", false});
  const std::vector<std::string> want = {
      std::string(base) + "100%25.html",
      std::string(base) + "a%3Fb%23c.html",
      std::string(base) + "about.html",
      std::string(base) + "bad%FFname.html",
      std::string(base) + "café/naïve résumé.html",
      std::string(base) + "doc.pdf",
      std::string(base) + "feed.xml",  // sitemap.xml, news.xml and
                                       // maps/sitemap.xml are sitemill's
      std::string(base) + "inside-link.html",
  };
  EXPECT_EQ(locs(read_site(o)), want);
}

TEST_F(SiteSource, GivesTheModificationTimeAsLastmod) {
  write(root_ / "a.html", html("", "a"));
  write(root_ / "b.pdf", "pdf");
  set_mtime(root_ / "a.html", 1614834367);  // 2021-03-04T05:06:07Z
  set_mtime(root_ / "b.pdf", 0);
  site_source_options o = options();
  o.lastmod = lastmod_policy::mtime;
  o.patterns.push_back({"*.pdf", true});
  const std::vector<rec> want = {page("a.html", "2021-03-04T05:06:07Z"),
                                 page("b.pdf", "1970-01-01T00:00:00Z")};
  EXPECT_EQ(read_site(o).records, want);
}

TEST_F(SiteSource, ReportsUnreadableFilesAsProblems) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads any file";
  write(root_ / "locked.html", html("", "x"));
  write(root_ / "ok.html", html("", "y"));
  fs::permissions(root_ / "locked.html", fs::perms::none);
  const outcome o = read_site(options());
  ASSERT_EQ(o.records.size(), 2U);
  EXPECT_EQ(o.records[0].loc, "");
  EXPECT_EQ(o.records[0].problem, "cannot read locked.html: Permission denied");
  EXPECT_EQ(o.records[1], page("ok.html"));
}

TEST_F(SiteSource, RefusesWhatItCannotWorkWith) {
  write(root_ / "file.html", "x");
  const struct {
    std::string_view name;
    std::string root;
    std::string base_url;
    lastmod_policy lastmod;
    std::vector<site_pattern> patterns;
    std::string_view message;
  } cases[] = {
      {"missing root", (tmp_ / "nope").string(), std::string(base),
       lastmod_policy::none, default_site_patterns(),
       "cannot read site directory"},
      {"root is a file", (root_ / "file.html").string(), std::string(base),
       lastmod_policy::none, default_site_patterns(), "is not a directory"},
      {"bad base", root_.string(), "ftp://example.com/", lastmod_policy::none,
       default_site_patterns(), "base URL ftp://example.com/"},
      {"content without state", root_.string(), std::string(base),
       lastmod_policy::content, default_site_patterns(),
       "needs a state database"},
      {"empty pattern",
       root_.string(),
       std::string(base),
       lastmod_policy::none,
       {{"", true}},
       "an empty pattern in `patterns`"},
  };
  for (const auto& c : cases) {
    site_source_options o;
    o.root = c.root;
    o.base_url = c.base_url;
    o.lastmod = c.lastmod;
    o.patterns = c.patterns;
    auto reader = open_site_source(o);
    ASSERT_FALSE(reader.has_value()) << c.name;
    EXPECT_NE(reader.err().message.find(c.message), std::string::npos)
        << c.name << ": " << reader.err().message;
  }
}

TEST(SitePatterns, DecideLikeGitignore) {
  using v = site_patterns::verdict;
  const struct {
    std::vector<site_pattern> patterns;
    std::string_view path;
    bool is_dir;
    v want;
  } cases[] = {
      {{{"*.html", true}}, "a.html", false, v::include},
      {{{"*.html", true}}, "x/y/a.html", false, v::include},
      {{{"*.html", true}}, "a.htm", false, v::none},
      {{{"*.html", true}}, "A.HTML", false, v::none},  // case-sensitive
      {{{"*.html", true}}, "a.html/b", false, v::none},
      {{{"/about.html", true}}, "about.html", false, v::include},
      {{{"/about.html", true}}, "x/about.html", false, v::none},
      {{{"blog/*.html", true}}, "blog/a.html", false, v::include},
      {{{"blog/*.html", true}}, "blog/x/a.html", false, v::none},
      {{{"blog/*.html", true}}, "x/blog/a.html", false, v::none},
      {{{"blog/**", true}}, "blog/a", false, v::include},
      {{{"blog/**", true}}, "blog/x/y.pdf", false, v::include},
      {{{"blog/**", true}}, "blog", true, v::none},
      {{{"**/a.html", true}}, "a.html", false, v::include},
      {{{"**/a.html", true}}, "x/y/a.html", false, v::include},
      {{{"a/**/b.html", true}}, "a/b.html", false, v::include},
      {{{"a/**/b.html", true}}, "a/x/y/b.html", false, v::include},
      {{{"a/**/b.html", true}}, "a/xb.html", false, v::none},
      {{{"a**b", true}}, "axyb", false, v::include},  // '**' inside is '*'
      {{{"a**b", true}}, "ax/yb", false, v::none},
      {{{"drafts/", false}}, "drafts", true, v::exclude},
      {{{"drafts/", false}}, "x/drafts", true, v::exclude},
      {{{"drafts/", false}}, "drafts", false, v::none},  // directories only
      {{{"*.html", true}, {"secret.html", false}},
       "a/secret.html",
       false,
       v::exclude},
      {{{"secret.html", false}, {"*.html", true}},
       "a/secret.html",
       false,
       v::include},  // the last match decides
      {{{"page?.html", true}}, "page1.html", false, v::include},
      {{{"page?.html", true}}, "page12.html", false, v::none},
      {{{"a?b", true}}, "a/b", false, v::none},  // '?' never matches '/'
      {{{"page[0-9].html", true}}, "page5.html", false, v::include},
      {{{"page[0-9].html", true}}, "pagex.html", false, v::none},
      {{{"page[!0-9].html", true}}, "pagex.html", false, v::include},
      {{{"page[!0-9].html", true}}, "page5.html", false, v::none},
      {{{"[]x].html", true}}, "].html", false, v::include},
      {{{"\\*.html", true}}, "*.html", false, v::include},
      {{{"\\*.html", true}}, "a.html", false, v::none},
      {{{"[abc", true}}, "[abc", false, v::include},  // no ']': literal
      {{{"café/*", true}}, "café/x.html", false, v::include},
  };
  for (const auto& c : cases) {
    auto patterns = site_patterns::make(c.patterns);
    ASSERT_TRUE(patterns.has_value()) << c.patterns[0].glob;
    EXPECT_EQ(patterns->decide(c.path, c.is_dir), c.want)
        << c.patterns.back().glob << " on " << c.path;
  }
}

TEST(SitePatterns, MatchPathologicalPatternsQuickly) {
  // Backtracking would take 2^30 steps here.
  auto patterns = site_patterns::make(
      {{"*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b",
        true}});
  ASSERT_TRUE(patterns.has_value());
  EXPECT_FALSE(patterns->includes(std::string(200, 'a')));
  EXPECT_TRUE(patterns->includes(std::string(200, 'a') + "b"));
}

TEST(SitePatterns, RefuseEmptyPatterns) {
  for (std::string_view glob : {"", "/", "//"}) {
    EXPECT_FALSE(site_patterns::make({{std::string(glob), true}}).has_value())
        << glob;
  }
}

TEST(SiteSourceLastmod, FormatsUnixTimesInUtc) {
  const struct {
    std::int64_t seconds;
    std::string_view want;
  } cases[] = {
      {0, "1970-01-01T00:00:00Z"},
      {1614834367, "2021-03-04T05:06:07Z"},
      {951782400, "2000-02-29T00:00:00Z"},
      {-1, "1969-12-31T23:59:59Z"},
      {253402300799, "9999-12-31T23:59:59Z"},
      {253402300800, ""},
      {-62135596800, "0001-01-01T00:00:00Z"},
      {-62135596801, ""},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(lastmod_from_unix_time(c.seconds), c.want) << c.seconds;
  }
}

TEST(SiteSourceLastmod, ParsesPolicyNames) {
  EXPECT_EQ(parse_lastmod_policy("mtime"), lastmod_policy::mtime);
  EXPECT_EQ(parse_lastmod_policy("content"), lastmod_policy::content);
  EXPECT_EQ(parse_lastmod_policy("none"), lastmod_policy::none);
  EXPECT_EQ(parse_lastmod_policy("Content"), std::nullopt);
}

// A page with its own <title>, as a blog's generator writes it.
std::string titled(std::string_view title, std::string_view body) {
  return "<!DOCTYPE html><html><head><meta charset=utf-8><title>" +
         std::string(title) + "</title></head><body>" + std::string(body) +
         "</body></html>\n";
}

// A blog that numbers its posts: the conventional error pages are those at
// the site's root or at a language root; a numbered post elsewhere is a
// page unless its title says it is an error page; the site names its own
// odd one. Every skip says why.
TEST_F(SiteSource, TellsErrorPagesFromPostsNumberedLikeThem) {
  write(root_ / "index.html", titled("Notes", "<h1>Notes</h1>"));
  write(root_ / "404.html", titled("Page not found", "<h1>Lost?</h1>"));
  write(root_ / "de" / "404.html", titled("Seite fehlt", "<h1>Weg</h1>"));
  write(root_ / "pt-br" / "500" / "index.html",
        titled("Erro", "<h1>Erro</h1>"));
  write(root_ / "blog" / "420.html",
        titled("Post 420: sourdough, again", "<p>Flour, water.</p>"));
  write(root_ / "blog" / "453.html",
        titled("Post 453 &mdash; a walk", "<p>Up the hill.</p>"));
  write(
      root_ / "blog" / "404" / "index.html",
      titled("Post 404: the one about errors in 4040 lines", "<p>A post.</p>"));
  write(root_ / "blog" / "404.html",
        titled("Post 404, the short one", "<p>Short.</p>"));
  write(root_ / "blog" / "oops.html",
        titled("\n  404   Not Found\n", "<p>nginx</p>"));
  write(root_ / "blog" / "500.html",
        titled("Error 500 | Internal Server Error", "<p>sorry</p>"));
  write(root_ / "notes" / "404.html", titled("Notes 404", "<p>x</p>"));
  // A bare status titles an error page at a root; deeper down, a post.
  write(root_ / "next.html",
        titled("404: This page could not be found.", "<p>Next.js</p>"));
  write(root_ / "de" / "oops" / "index.html", titled("404", "<p>Weg</p>"));
  write(root_ / "blog" / "500" / "index.html",
        titled("500 | Notes", "<p>Post 500.</p>"));
  write(root_ / "blog" / "next.html",
        titled("404: a post numbered like Next.js's error page",
               "<p>A post.</p>"));
  write(root_ / "errors" / "gone" / "index.html",
        titled("Gone", "<p>This page was removed.</p>"));
  write(root_ / "lost.html", titled("Lost", "<p>Try the search.</p>"));
  site_source_options o = options();
  o.error_pages = {"/errors/gone/", "./lost.html"};
  const std::vector<rec> want = {
      skipped("404.html", "error page (404.html at the site's root)"),
      page("blog/404.html"),
      page("blog/404/index.html"),
      page("blog/420.html"),
      page("blog/453.html"),
      skipped("blog/500.html",
              "error page (its title says \"Error 500 | Internal Server "
              "Error\")"),
      page("blog/500/index.html"),
      page("blog/next.html"),
      skipped("blog/oops.html",
              "error page (its title says \"404 Not Found\")"),
      skipped("de/404.html", "error page (404.html at the language root de/)"),
      skipped("de/oops/index.html", "error page (its title says \"404\")"),
      skipped("errors/gone/index.html", "error page (named by `error_pages`)"),
      page("index.html"),
      skipped("lost.html", "error page (named by `error_pages`)"),
      skipped("next.html",
              "error page (its title says \"404: This page could not be "
              "found.\")"),
      // Neither at a language root nor titled as an error: a page.
      page("notes/404.html"),
      skipped("pt-br/500/index.html",
              "error page (500/index.html at the language root pt-br/)"),
  };
  EXPECT_EQ(read_site(o).records, want);

  // --keep-error-pages lists what the rules guessed, not what the site
  // named.
  o.skip_error_pages = false;
  std::size_t named = 0;
  for (const rec& r : read_site(o).records) {
    if (!r.skipped.empty()) {
      EXPECT_EQ(r.skipped, "error page (named by `error_pages`)") << r.file;
      ++named;
    }
  }
  EXPECT_EQ(named, 2u);
}

// The names that are not the conventional error pages, wherever they are.
TEST_F(SiteSource, ErrorPageNamesAreThreeDigitsFrom400To599) {
  for (const char* file :
       {"404.html", "500.htm", "fr/404.html", "410/index.html", "4xx.html",
        "404-old.html", "600.html", "399.html", "1404.html", "404.pdf",
        "blog/404/notes.html", "x-default/404.html", "blog/fr/404.html"}) {
    write(root_ / file, html("", file));
  }
  site_source_options o = options();
  o.patterns.push_back({"*.pdf", true});
  const outcome got = read_site(o);
  std::vector<std::string> skipped_files, listed_files;
  for (const rec& r : got.records) {
    (r.skipped.empty() ? listed_files : skipped_files).push_back(r.file);
  }
  EXPECT_EQ(skipped_files,
            (strings{"404.html", "410/index.html", "500.htm", "fr/404.html"}));
  EXPECT_EQ(listed_files,
            (strings{"1404.html", "399.html", "404-old.html", "404.pdf",
                     "4xx.html", "600.html", "blog/404/notes.html",
                     "blog/fr/404.html", "x-default/404.html"}));
  o.skip_error_pages = false;
  EXPECT_EQ(read_site(o).records.size(), 13u);
}

// A redirect stub as Jekyll, Hugo and MkDocs write them: a meta refresh to
// another URL, often with a canonical to the same target and a noindex.
TEST_F(SiteSource, SkipsMetaRefreshRedirectsWithTheirTarget) {
  write(root_ / "old" / "index.html",
        html(R"(<link rel="canonical" href="../new/">)"
             R"(<meta name="robots" content="noindex">)"
             R"(<meta http-equiv="refresh" content="0; url=../new/">)",
             "Redirecting..."));
  write(root_ / "bare.html",
        html(R"(<meta http-equiv="refresh" content="0;url=/new/">)", "x"));
  write(root_ / "reload.html",
        html(R"(<meta http-equiv="refresh" content="60">)", "news"));
  write(root_ / "self.html",
        html(R"(<meta http-equiv="refresh" content="60; url=self.html">)",
             "self"));
  write(root_ / "new" / "index.html", html("", "new"));
  site_source_options o = options();
  const std::vector<rec> want = {
      skipped("bare.html",
              "redirect (meta refresh to https://www.example.com/new/)"),
      page("new/index.html"),
      skipped("old/index.html",
              "redirect (meta refresh to https://www.example.com/new/)"),
      page("reload.html"),
      page("self.html"),
  };
  EXPECT_EQ(read_site(o).records, want);
  // Listed anyway when asked; the stubs' other signals still apply.
  o.honour_refresh = false;
  const std::vector<rec> kept = {
      page("bare.html"),
      page("new/index.html"),
      skipped("old/index.html", "noindex (meta robots)"),
      page("reload.html"),
      page("self.html"),
  };
  EXPECT_EQ(read_site(o).records, kept);
}

TEST_F(SiteSource, NotesAMetaRefreshToNoUsableUrl) {
  write(
      root_ / "a.html",
      html(R"(<meta http-equiv="refresh" content="0; url=http://[x/">)", "a"));
  const outcome o = read_site(options());
  ASSERT_EQ(o.records.size(), 1u);
  EXPECT_EQ(o.records[0], page("a.html"));
  ASSERT_EQ(o.notes.size(), 1u);
  EXPECT_EQ(o.notes[0].message.find("meta refresh to \"http://[x/\" ignored"),
            0u)
      << o.notes[0].message;
}

// A canonical naming the page itself in another spelling lists that URL.
TEST_F(SiteSource, ListsTheCanonicalThatNamesThePageItself) {
  const struct {
    const char* file;
    const char* canonical;
    const char* listed;  // URL path, or nullptr: skipped as canonical
  } cases[] = {
      {"about.html", "/about", "about"},  // Jekyll's permalink: /about
      {"team.html", "/team/", "team/"},
      {"page.htm", "/page", "page"},
      {"a/index.html", "/a", "a"},
      {"b/index.html", "/b/index.html", "b/index.html"},
      {"c/index.html", "/c/", "c/"},
      {"d.html", "/d.html", "d.html"},
      {"e.html", "/other", nullptr},
      {"f.html", "/f.htm", nullptr},
      {"g/index.html", "/g/index", nullptr},
      {"h.html", "https://elsewhere.example.com/h", nullptr},
  };
  for (const auto& c : cases) {
    write(root_ / c.file, html("<link rel=\"canonical\" href=\"" +
                                   std::string(c.canonical) + "\">",
                               c.file));
  }
  const outcome o = read_site(options());
  for (const auto& c : cases) {
    const auto r = std::find_if(o.records.begin(), o.records.end(),
                                [&](const rec& x) { return x.file == c.file; });
    ASSERT_NE(r, o.records.end()) << c.file;
    if (c.listed != nullptr) {
      EXPECT_EQ(r->skipped, "") << c.file;
      EXPECT_EQ(r->loc, std::string(base) + c.listed) << c.file;
    } else {
      EXPECT_EQ(r->skipped.find("canonical points to "), 0u) << c.file;
    }
  }
}

TEST_F(SiteSource, JudgesTheCanonicalUrlByRobotsTxtToo) {
  write(root_ / "robots.txt", "User-agent: *\nDisallow: /about$\n");
  write(root_ / "about.html",
        html(R"(<link rel="canonical" href="/about">)", "about"));
  const outcome o = read_site(options());
  ASSERT_EQ(o.records.size(), 1u);
  EXPECT_EQ(o.records[0].loc, std::string(base) + "about");
  EXPECT_EQ(o.records[0].skipped,
            "disallowed by robots.txt (Disallow: /about$)");
}

TEST_F(SiteSource, ListsHtmlFilesWithoutTheirExtensionWithCleanUrls) {
  write(root_ / "about.html", html("", "about"));
  write(root_ / "old.htm", html("", "old"));
  write(root_ / "blog" / "index.html", html("", "blog"));
  write(root_ / "blog" / "a.html",
        html(R"(<link rel="canonical" href="/blog/a.html">)", "a"));
  write(root_ / "doc.pdf", "%PDF");
  site_source_options o = options();
  o.clean_urls = true;
  o.patterns.push_back({"*.pdf", true});
  const std::vector<rec> want = {
      page_at("about.html", "about"),
      // The canonical names the file's own spelling: the site's choice.
      page_at("blog/a.html", "blog/a.html"),
      page("blog/index.html"),
      page("doc.pdf"),
      page_at("old.htm", "old"),
  };
  EXPECT_EQ(read_site(o).records, want);
}

// --lastmod page: the date the page states, in the documented order.
TEST_F(SiteSource, GivesTheDateThePageStatesAsLastmod) {
  write(
      root_ / "a.html",
      html(
          R"(<meta name="lastmod" content="2024-01-03">)"
          R"(<meta property="og:updated_time" content="2024-01-02T10:00:00Z">)"
          R"(<meta property="article:modified_time" content="2024-03-10T09:30:00+01:00">)",
          "a"));
  write(
      root_ / "b.html",
      html(
          R"(<script type="application/ld+json">{"@graph":[{"@type":"WebPage","dateModified":"2024-02-02T00:00:00+00:00"}]}</script>)"
          R"(<meta name="lastmod" content="2024-01-03">)",
          "b"));
  write(
      root_ / "c.html",
      html(
          R"(<meta itemprop="dateModified" content="Tue, 05 Mar 2024 08:00:00 GMT">)",
          "c"));
  write(root_ / "d.html",
        html(R"(<meta name="lastmod" content="2024-06">)", "d"));
  site_source_options o = options();
  o.lastmod = lastmod_policy::page;
  const outcome got = read_site(o);
  const std::vector<rec> want = {
      page("a.html", "2024-03-10T09:30:00+01:00"),
      page("b.html", "2024-02-02T00:00:00+00:00"),
      page("c.html", "2024-03-05T08:00:00Z"),
      page("d.html", "2024-06-01"),
  };
  EXPECT_EQ(got.records, want);
  EXPECT_TRUE(got.notes.empty());
}

TEST_F(SiteSource, PassesOverStatedDatesThatAreNoDatesOrInTheFuture) {
  write(root_ / "a.html",
        html(R"(<meta property="article:modified_time" content="last Tuesday">)"
             R"(<meta name="lastmod" content="2024-01-03">)",
             "a"));
  write(
      root_ / "b.html",
      html(
          R"(<meta property="article:modified_time" content="2999-01-01T00:00:00Z">)",
          "b"));
  site_source_options o = options();
  o.lastmod = lastmod_policy::page;
  const outcome got = read_site(o);
  const std::vector<rec> want = {page("a.html", "2024-01-03"), page("b.html")};
  EXPECT_EQ(got.records, want);
  ASSERT_EQ(got.notes.size(), 3u);
  EXPECT_EQ(got.notes[0].source, root_ / "a.html");
  EXPECT_EQ(got.notes[0].message.find(
                "article:modified_time \"last Tuesday\" is not a date ("),
            0u)
      << got.notes[0].message;
  EXPECT_EQ(got.notes[1].source, root_ / "b.html");
  EXPECT_EQ(got.notes[1].message,
            "article:modified_time \"2999-01-01T00:00:00Z\" is in the future; "
            "not used as lastmod");
  EXPECT_EQ(got.notes[2].source, "");
  EXPECT_EQ(got.notes[2].line, 0u);
  EXPECT_EQ(got.notes[2].message.find("1 listed file states no date"), 0u)
      << got.notes[2].message;
}

TEST_F(SiteSource, CountsThePagesThatStateNoDateInOneNote) {
  write(root_ / "a.html", html("", "a"));
  write(root_ / "b.html", html("", "b"));
  write(root_ / "c.pdf", "%PDF");
  write(root_ / "d.html",
        html(R"(<meta property="article:modified_time" content="2024-01-01">)",
             "d"));
  site_source_options o = options();
  o.lastmod = lastmod_policy::page;
  o.patterns.push_back({"*.pdf", true});
  const outcome got = read_site(o);
  const std::vector<rec> want = {page("a.html"), page("b.html"), page("c.pdf"),
                                 page("d.html", "2024-01-01")};
  EXPECT_EQ(got.records, want);
  ASSERT_EQ(got.notes.size(), 1u);
  EXPECT_EQ(got.notes[0].message.find("3 listed files state no date"), 0u)
      << got.notes[0].message;
}

// --lastmod content across runs of a small site.
class ContentLastmod : public SiteSource {
 protected:
  void SetUp() override {
    SiteSource::SetUp();
    state_ = (tmp_ / "state.db").string();
    // Times: T1 the first build, later builds later.
    write_page("a.html", "alpha", "", T1);
    write_page("b.html", "beta", "", T1);
    write_page("sub/index.html", "gamma", "", T1);
  }

  static constexpr std::time_t T1 = 1700000000;  // 2023-11-14T22:13:20Z
  static constexpr std::time_t T2 = 1710000000;  // 2024-03-09T16:00:00Z
  static constexpr std::time_t T3 = 1720000000;  // 2024-07-03T09:46:40Z
  static constexpr std::time_t T4 = 1730000000;  // 2024-10-27T03:33:20Z

  // A page as a site generator writes it, with a build stamp that changes
  // on every build.
  void write_page(const std::string& path, std::string_view text,
                  std::string_view stamp, std::time_t mtime) {
    write(root_ / path, html("<meta name=\"generator\" content=\"gen " +
                                 std::string(stamp) + "\">",
                             "<p>" + std::string(text) + "</p>"));
    set_mtime(root_ / path, mtime);
  }

  // A full run: reads the site, then commits (when `commit`).
  struct run_result {
    std::vector<rec> records;
    state_changes changes;
  };
  run_result run(bool commit = true) {
    run_result out;
    auto db = state_db::open(state_);
    EXPECT_TRUE(db.has_value()) << (db ? "" : db.err().message);
    if (!db) return out;
    EXPECT_TRUE((*db)->begin_run());
    site_source_options o = options();
    o.lastmod = lastmod_policy::content;
    o.state = db->get();
    const outcome read = read_site(o);
    EXPECT_EQ(read.error, "");
    out.records = read.records;
    auto changes = (*db)->changes();
    EXPECT_TRUE(changes.has_value());
    if (changes) out.changes = *changes;
    if (commit) {
      EXPECT_TRUE((*db)->commit_run());
    }
    return out;
  }

  std::string state_;
};

// The state keeps hashes, never page facts: a rerun over unchanged pages
// reads their alternates and images again, so they are never lost.
TEST_F(ContentLastmod, UnchangedPagesKeepTheirAlternatesAndImages) {
  write(root_ / "a.html",
        html(R"(<link rel="alternate" hreflang="de" href="/b.html">)",
             R"(<img src="/fish.jpg">)"));
  set_mtime(root_ / "a.html", T1);
  const strings want = {"@hreflang=de", "@href=https://www.example.com/b.html",
                        "loc=https://www.example.com/fish.jpg"};
  for (int rerun = 0; rerun < 2; ++rerun) {
    auto db = state_db::open(state_);
    ASSERT_TRUE(db.has_value());
    ASSERT_TRUE((*db)->begin_run());
    site_source_options o = options();
    o.lastmod = lastmod_policy::content;
    o.state = db->get();
    o.images = true;
    const outcome read = read_site(o);
    EXPECT_EQ(extensions_of(read, "a.html"), want) << "run " << rerun;
    auto changes = (*db)->changes();
    ASSERT_TRUE(changes.has_value());
    EXPECT_EQ(changes->added.empty(), rerun == 1);
    ASSERT_TRUE((*db)->commit_run());
  }
}

// --lastmod page with a state database: pages stating a date get it; the
// others are dated by content; every page is tracked for changes.
TEST_F(ContentLastmod, PagePolicyFallsBackToContentDatesWithAState) {
  write(
      root_ / "dated.html",
      html(
          R"(<meta property="article:modified_time" content="2024-01-01T00:00:00Z">)",
          "dated"));
  set_mtime(root_ / "dated.html", T2);
  for (int rerun = 0; rerun < 2; ++rerun) {
    auto db = state_db::open(state_);
    ASSERT_TRUE(db.has_value());
    ASSERT_TRUE((*db)->begin_run());
    site_source_options o = options();
    o.lastmod = lastmod_policy::page;
    o.state = db->get();
    if (rerun == 1) write_page("b.html", "beta, edited", "build 2", T3);
    const outcome read = read_site(o);
    const std::vector<rec> want = {
        page("a.html", "2023-11-14T22:13:20Z"),
        page("b.html",
             rerun == 0 ? "2023-11-14T22:13:20Z" : "2024-07-03T09:46:40Z"),
        page("dated.html", "2024-01-01T00:00:00Z"),
        page("sub/index.html", "2023-11-14T22:13:20Z")};
    EXPECT_EQ(read.records, want) << "run " << rerun;
    EXPECT_TRUE(read.notes.empty()) << read.notes[0].message;
    auto changes = (*db)->changes();
    ASSERT_TRUE(changes.has_value());
    EXPECT_EQ(changes->added.size(), rerun == 0 ? 4u : 0u);
    EXPECT_EQ(changes->changed.size(), rerun == 0 ? 0u : 1u);
    ASSERT_TRUE((*db)->commit_run());
  }
}

TEST_F(ContentLastmod, FirstRunUsesModificationTimesAndAddsEverything) {
  const run_result r = run();
  const std::vector<rec> want = {
      page("a.html", "2023-11-14T22:13:20Z"),
      page("b.html", "2023-11-14T22:13:20Z"),
      page("sub/index.html", "2023-11-14T22:13:20Z")};
  EXPECT_EQ(r.records, want);
  EXPECT_EQ(r.changes.added,
            (std::vector<std::string>{std::string(base) + "a.html",
                                      std::string(base) + "b.html",
                                      std::string(base) + "sub/"}));
}

TEST_F(ContentLastmod, RebuildingEverythingWithoutChangesKeepsEveryLastmod) {
  const run_result first = run();
  // The generator rewrites every file, with a new build stamp.
  write_page("a.html", "alpha", "build 2", T2);
  write_page("b.html", "beta", "build 2", T2);
  write_page("sub/index.html", "gamma", "build 2", T2);
  const run_result second = run();
  EXPECT_EQ(second.records, first.records);
  EXPECT_TRUE(second.changes.empty());
}

TEST_F(ContentLastmod, EditingOnePageChangesOnlyItsLastmod) {
  run();
  write_page("a.html", "alpha", "build 2", T2);
  write_page("b.html", "beta, edited", "build 2", T2);
  write_page("sub/index.html", "gamma", "build 2", T2);
  const run_result r = run();
  const std::vector<rec> want = {
      page("a.html", "2023-11-14T22:13:20Z"),
      page("b.html", "2024-03-09T16:00:00Z"),
      page("sub/index.html", "2023-11-14T22:13:20Z")};
  EXPECT_EQ(r.records, want);
  EXPECT_EQ(r.changes.changed,
            std::vector<std::string>{std::string(base) + "b.html"});
  EXPECT_TRUE(r.changes.added.empty());
  EXPECT_TRUE(r.changes.removed.empty());
  // The next rebuild keeps the edit's lastmod.
  write_page("b.html", "beta, edited", "build 3", T3);
  EXPECT_EQ(run().records, want);
}

TEST_F(ContentLastmod, ListsRemovedAndAddedPages) {
  run();
  fs::remove(root_ / "b.html");
  write_page("c.html", "new", "", T2);
  const run_result r = run();
  EXPECT_EQ(r.changes.added,
            std::vector<std::string>{std::string(base) + "c.html"});
  EXPECT_EQ(r.changes.removed,
            std::vector<std::string>{std::string(base) + "b.html"});
  // A page that becomes noindex leaves the set too.
  write(root_ / "a.html",
        html(R"(<meta name="robots" content="noindex">)", "<p>alpha</p>"));
  EXPECT_EQ(run().changes.removed,
            std::vector<std::string>{std::string(base) + "a.html"});
}

TEST_F(ContentLastmod, HashesOtherFileTypesByTheirBytes) {
  write(root_ / "doc.pdf", "%PDF one");
  set_mtime(root_ / "doc.pdf", T1);
  auto with_pdf = [&] {
    auto db = state_db::open(state_);
    EXPECT_TRUE(db.has_value() && (*db)->begin_run());
    site_source_options o = options();
    o.lastmod = lastmod_policy::content;
    o.state = db->get();
    o.patterns = {{"*.pdf", true}};
    const outcome read = read_site(o);
    EXPECT_TRUE((*db)->commit_run());
    return read.records.empty() ? std::string() : read.records[0].lastmod;
  };
  EXPECT_EQ(with_pdf(), "2023-11-14T22:13:20Z");
  set_mtime(root_ / "doc.pdf", T2);  // touched
  EXPECT_EQ(with_pdf(), "2023-11-14T22:13:20Z");
  write(root_ / "doc.pdf", "%PDF two");
  set_mtime(root_ / "doc.pdf", T3);
  EXPECT_EQ(with_pdf(), "2024-07-03T09:46:40Z");
}

TEST_F(ContentLastmod, ARunKilledBeforeItsCommitDoesNotAdvanceTheState) {
  run();
  write_page("a.html", "alpha, edited", "build 2", T2);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // Reads the edit (sitemaps written), then dies before publish and
    // commit: _exit runs no destructor, as a crash.
    const run_result r = run(/*commit=*/false);
    ::_exit(r.records.size() == 3 &&
                    r.records[0].lastmod == "2024-03-09T16:00:00Z"
                ? 0
                : 3);
  }
  int wstatus = 0;
  ASSERT_EQ(::waitpid(child, &wstatus, 0), child);
  ASSERT_TRUE(WIFEXITED(wstatus));
  ASSERT_EQ(WEXITSTATUS(wstatus), 0);
  // The edit is still news to the state: the crashed run committed nothing.
  write_page("a.html", "alpha, edited", "build 3", T4);
  const run_result r = run();
  EXPECT_EQ(r.changes.changed,
            std::vector<std::string>{std::string(base) + "a.html"});
  EXPECT_EQ(r.records[0], page("a.html", "2024-10-27T03:33:20Z"));
  EXPECT_EQ(r.records[1], page("b.html", "2023-11-14T22:13:20Z"));
}

// A site owner's verification files (uploaded at the root for a search
// engine to fetch) are no pages of the site: skipped, naming the service.
// Names that only look alike are pages.
TEST_F(SiteSource, SkipsSiteVerificationFilesNamingTheService) {
  write(root_ / "index.html", html("", "home"));
  write(root_ / "google1234567890abcdef.html",
        "google-site-verification: google1234567890abcdef.html");
  write(root_ / "yandex_0123456789abcdef.html",
        html(R"(<meta http-equiv="Content-Type" content="text/html">)",
             "Verification: 0123456789abcdef"));
  write(root_ / "naver0123456789abcdef0123456789abcdef.html",
        "naver-site-verification: naver0123456789abcdef.html");
  write(root_ / "pinterest-1a2b3.html", html("", "pinterest"));
  write(root_ / "baidu_verify_code-AbC123.html", "AbC123");
  write(root_ / "BingSiteAuth.xml", "<users><user>ABC</user></users>");
  // Pages whose names only start alike.
  write(root_ / "google-analytics.html", html("", "how we measure"));
  write(root_ / "googleabc.html", html("", "not sixteen hex digits"));
  write(root_ / "google1234567890abcdeg.html", html("", "g is no hex digit"));
  write(root_ / "yandex.html", html("", "about Yandex"));
  site_source_options o = options();
  o.patterns.push_back({"*.xml", true});
  const std::vector<rec> want = {
      skipped("BingSiteAuth.xml",
              "site verification file (Bing Webmaster Tools)"),
      skipped("baidu_verify_code-AbC123.html",
              "site verification file (Baidu Webmaster Tools)"),
      page("google-analytics.html"),
      skipped("google1234567890abcdef.html",
              "site verification file (Google Search Console)"),
      page("google1234567890abcdeg.html"),
      page("googleabc.html"),
      page("index.html"),
      skipped("naver0123456789abcdef0123456789abcdef.html",
              "site verification file (Naver Search Advisor)"),
      skipped("pinterest-1a2b3.html", "site verification file (Pinterest)"),
      page("yandex.html"),
      skipped("yandex_0123456789abcdef.html",
              "site verification file (Yandex Webmaster)"),
  };
  EXPECT_EQ(read_site(o).records, want);
}

// Only an instant meta refresh is a redirect (search engines treat a
// delayed one as a page): a page that shows its content for a while and
// then moves on is listed, and -v (`trace`) says why.
TEST_F(SiteSource, ListsAPageWhoseMetaRefreshWaits) {
  write(
      root_ / "event.html",
      html(R"(<link rel="canonical" href="https://www.example.com/event.html">)"
           R"(<meta http-equiv="refresh" content="3; url=/tickets/">)",
           "<h1>The event</h1><p>Doors open at eight.</p>"));
  write(root_ / "half.html",
        html(R"(<meta http-equiv="refresh" content="0.5; url=/tickets/">)",
             "moved"));
  write(root_ / "tickets" / "index.html", html("", "tickets"));
  site_source_options o = options();
  std::vector<std::string> told;
  o.trace = [&](std::string_view line) { told.emplace_back(line); };
  const std::vector<rec> want = {
      page("event.html"),
      skipped("half.html",
              "redirect (meta refresh to https://www.example.com/tickets/)"),
      page("tickets/index.html"),
  };
  EXPECT_EQ(read_site(o).records, want);
  EXPECT_EQ(told,
            (std::vector<std::string>{
                o.root + "/event.html: listed: its meta refresh to "
                         "https://www.example.com/tickets/ waits 3 s; only an "
                         "instant one is a redirect"}));
}

}  // namespace
}  // namespace sitemill
