// Tests for scan_html(): robots noindex, the canonical link, and the content
// hash that ignores build noise but sees every content change.
#include "sitemill/html/html_page.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace sitemill {
namespace {

// A small page; `head` and `body` are inserted as given.
std::string page(std::string_view head, std::string_view body) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
         "charset=\"utf-8\">\n"
         "<title>Fish</title>\n" +
         std::string(head) + "\n</head>\n<body>\n" + std::string(body) +
         "\n</body>\n</html>\n";
}

constexpr std::string_view body =
    "<main><h1>Salmon</h1><p>Salmon swim <a href=\"/up/\">upstream</a>.</p>"
    "<img src=\"/img/salmon.jpg\" alt=\"A salmon\"></main>";

TEST(HtmlPage, FindsNoindexInTheRobotsMeta) {
  const struct {
    std::string_view head;
    bool noindex;
  } cases[] = {
      {R"(<meta name="robots" content="noindex">)", true},
      {R"(<meta name="ROBOTS" content="NoIndex, follow">)", true},
      {R"(<meta name="robots" content="follow ,  noindex ">)", true},
      {R"(<meta name="robots" content="none">)", true},
      {R"(<meta name=robots content=noindex>)", true},
      {R"(<meta name="robots" content="index, follow">)", false},
      {R"(<meta name="robots" content="noindexing">)", false},
      {R"(<meta name="robots" content="nofollow">)", false},
      {R"(<meta name="googlebot" content="noindex">)", false},
      {R"(<meta name="description" content="noindex">)", false},
      {R"(<meta content="noindex">)", false},
      {"", false},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(scan_html(page(c.head, body)).noindex, c.noindex) << c.head;
  }
}

TEST(HtmlPage, FindsNofollowInTheRobotsMeta) {
  const struct {
    std::string_view head;
    bool nofollow;
  } cases[] = {
      {R"(<meta name="robots" content="nofollow">)", true},
      {R"(<meta name="robots" content="NOINDEX, NoFollow">)", true},
      {R"(<meta name="robots" content="none">)", true},
      {R"(<meta name="robots" content="noindex">)", false},
      {R"(<meta name="robots" content="nofollowing">)", false},
      {R"(<meta name="description" content="nofollow">)", false},
      {"", false},
  };
  for (const auto& c : cases)
    EXPECT_EQ(scan_html(page(c.head, body)).nofollow, c.nofollow) << c.head;
}

// A crawler's links: <a href> and <area href> in document order, repeats
// kept, rel=nofollow told, only when asked and only up to the cap.
TEST(HtmlPage, CollectsLinksWhenAsked) {
  const std::string html = page(
      "<link rel=\"next\" href=\"/not-a-link\">",
      "<a href=\" /a \">A</a><a>no href</a><a href=\"/b\" rel=\"Nofollow "
      "noopener\">B</a><map><area href=\"/c\"></map><!-- <a href=\"/d\"> "
      "--><a href=\"/a\">again</a>");
  EXPECT_TRUE(scan_html(html).links.empty()) << "not asked";
  html_scan_options o;
  o.links = true;
  const html_facts facts = scan_html(html, o);
  const std::vector<html_link> expected = {
      {"/a", false}, {"/b", true}, {"/c", false}, {"/a", false}};
  EXPECT_EQ(facts.links, expected);
  EXPECT_FALSE(facts.links_truncated);
  o.max_links = 2;
  const html_facts capped = scan_html(html, o);
  EXPECT_EQ(capped.links.size(), 2u);
  EXPECT_TRUE(capped.links_truncated);
}

TEST(HtmlPage, FindsNoindexOutsideTheHeadToo) {
  EXPECT_TRUE(scan_html(page("", "<meta name=\"robots\" content=\"noindex\">"))
                  .noindex);
}

TEST(HtmlPage, NeverReadsMarkupInsideCommentsOrScripts) {
  const std::string html = page(
      "<!-- <meta name=\"robots\" content=\"noindex\"> -->"
      "<script>document.write('<link rel=\"canonical\" href=\"/x\">')</script>",
      body);
  const html_facts facts = scan_html(html);
  EXPECT_FALSE(facts.noindex);
  EXPECT_FALSE(facts.has_canonical);
}

TEST(HtmlPage, TakesTheFirstCanonicalLinkOfTheHead) {
  const struct {
    std::string_view head;
    std::string_view body;
    bool found;
    std::string_view href;
  } cases[] = {
      {R"(<link rel="canonical" href="https://example.com/a/">)", "", true,
       "https://example.com/a/"},
      {R"(<link rel="Canonical" href="  /b.html ">)", "", true, "/b.html"},
      {R"(<link rel="alternate canonical" href="/c">)", "", true, "/c"},
      {R"(<link rel="canonical" href="/1"><link rel="canonical" href="/2">)",
       "", true, "/1"},
      {R"(<link rel="alternate" href="/fr/">)", "", false, ""},
      {R"(<link rel="canonical">)", "", false, ""},
      // Google ignores a canonical link in <body>.
      {"", R"(<p>x</p><link rel="canonical" href="/body">)", false, ""},
  };
  for (const auto& c : cases) {
    const html_facts facts = scan_html(page(c.head, c.body));
    EXPECT_EQ(facts.has_canonical, c.found) << c.head << c.body;
    EXPECT_EQ(facts.canonical, c.href) << c.head << c.body;
  }
}

// Each pair must hash alike: the second page is a rebuild of the first
// that changes nothing a reader sees.
TEST(HtmlPage, HashIgnoresBuildNoise) {
  const std::string base = page("", body);
  const struct {
    std::string_view name;
    std::string other;
  } cases[] = {
      {"generator stamp",
       page(R"(<meta name="generator" content="Hugo 0.120.4">)", body)},
      {"build date meta",
       page(R"(<meta name="build-date" content="2024-05-01T12:00:00Z">)",
            body)},
      {"fingerprinted stylesheet",
       page(R"(<link rel="stylesheet" href="/css/main.3f2a9c.css">)", body)},
      {"preload link",
       page(R"(<link rel="preload" href="/font.woff2" as="font">)", body)},
      {"script with a build id",
       page("",
            std::string(body) +
                "<script id=\"__NEXT_DATA__\">{\"buildId\":\"x7\"}</script>")},
      {"inline style", page("<style>body{color:red}</style>", body)},
      {"comment", page("", std::string(body) + "<!-- built 12:03 -->")},
      {"noscript",
       page("", std::string(body) + "<noscript>enable JS</noscript>")},
      {"marked footer",
       page("", std::string(body) +
                    "<footer data-sitemill-ignore>Built at 12:03</footer>")},
      {"class, id and data attributes",
       page("",
            "<main class=\"c-8e1f\" id=\"m\" data-v=\"2\"><h1>Salmon</h1>"
            "<p>Salmon swim <a href=\"/up/\">upstream</a>.</p>"
            "<img alt=\"A salmon\" src=\"/img/salmon.jpg\"></main>")},
      {"whitespace and line ends",
       page("",
            "<main>\r\n  <h1>Salmon</h1>\r\n  <p>Salmon\n   swim "
            "<a href=\"/up/\">upstream</a>.</p>\n<img src=\"/img/salmon.jpg\" "
            "alt=\"A  salmon\">\n</main>")},
      {"implied head, body and end tags",
       "<!DOCTYPE html><html lang=en><meta charset=utf-8><title>Fish</title>"
       "<main><h1>Salmon</h1><p>Salmon swim <a href=/up/>upstream</a>.</p>"
       "<img src=/img/salmon.jpg alt=\"A salmon\"></main>"},
  };
  const content_hash want = scan_html(base).hash;
  for (const auto& c : cases) {
    EXPECT_EQ(scan_html(c.other).hash, want) << c.name;
  }
}

// Each page differs from the base in content: the hash must differ.
TEST(HtmlPage, HashSeesContentChanges) {
  const std::string base = page("", body);
  const struct {
    std::string_view name;
    std::string other;
  } cases[] = {
      {"a word", page("",
                      "<main><h1>Salmon</h1><p>Salmon leap <a "
                      "href=\"/up/\">upstream</a>.</p><img "
                      "src=\"/img/salmon.jpg\" alt=\"A salmon\"></main>")},
      {"a link target",
       page("",
            "<main><h1>Salmon</h1><p>Salmon swim <a "
            "href=\"/down/\">upstream</a>.</p><img "
            "src=\"/img/salmon.jpg\" alt=\"A salmon\"></main>")},
      {"an image", page("",
                        "<main><h1>Salmon</h1><p>Salmon swim <a "
                        "href=\"/up/\">upstream</a>.</p><img "
                        "src=\"/img/trout.jpg\" alt=\"A salmon\"></main>")},
      {"alt text", page("",
                        "<main><h1>Salmon</h1><p>Salmon swim <a "
                        "href=\"/up/\">upstream</a>.</p><img "
                        "src=\"/img/salmon.jpg\" alt=\"A trout\"></main>")},
      {"structure", page("",
                         "<main><h2>Salmon</h2><p>Salmon swim <a "
                         "href=\"/up/\">upstream</a>.</p><img "
                         "src=\"/img/salmon.jpg\" alt=\"A salmon\"></main>")},
      {"the title",
       "<!DOCTYPE html><html><head><title>Trout</title></head><body>" +
           std::string(body) + "</body></html>"},
      {"the description",
       page(R"(<meta name="description" content="All about salmon">)", body)},
      {"the robots meta",
       page(R"(<meta name="robots" content="nofollow">)", body)},
      {"the canonical link",
       page(R"(<link rel="canonical" href="/x/">)", body)},
      {"text moved across a tag",
       page("",
            "<main><h1>Salmon</h1><p>Salmon swim <a "
            "href=\"/up/\">upstream.</a></p><img "
            "src=\"/img/salmon.jpg\" alt=\"A salmon\"></main>")},
      {"a space between words",
       page("",
            "<main><h1>Salmon</h1><p>Salmonswim <a "
            "href=\"/up/\">upstream</a>.</p><img "
            "src=\"/img/salmon.jpg\" alt=\"A salmon\"></main>")},
  };
  const content_hash want = scan_html(base).hash;
  for (const auto& c : cases) {
    EXPECT_NE(scan_html(c.other).hash, want) << c.name;
  }
}

TEST(HtmlPage, HashesAnyInputWithoutFailing) {
  const std::string_view inputs[] = {
      "", "plain text", "<", "<html><body><p>unclosed",
      std::string_view("\0\xFF\xFE<p>\x80</p>", 11)};
  content_hash previous{1, 1};
  for (std::string_view in : inputs) {
    const content_hash h = scan_html(in).hash;
    EXPECT_NE(h, previous) << "input " << in;
    previous = h;
  }
}

TEST(HtmlPage, WalksDeeplyNestedPagesWithoutRecursion) {
  std::string html = "<body>";
  for (int i = 0; i < 20000; ++i) html += "<span>";
  html += "deep";
  const html_facts deep = scan_html(html);
  html += "er";
  EXPECT_NE(scan_html(html).hash, deep.hash);
}

// A German page of a multilingual site, with everything the scan reads.
constexpr std::string_view lachs =
    "<!DOCTYPE html><html lang=\"de\"><head><meta charset=\"utf-8\">"
    "<title>Lachs</title><base href=\"/de/\">"
    "<link rel=\"canonical\" href=\"https://www.example.com/de/lachs.html\">"
    "<link rel=\"alternate\" hreflang=\"en\" href=\"/en/salmon.html\">"
    "<link rel=\"alternate\" hreflang=\"de\" href=\"lachs.html\">"
    "<meta property=\"og:image\" content=\"https://cdn.example.net/og.jpg\">"
    "</head><body><h1>Lachs</h1><p>Lachse schwimmen.</p>"
    "<img src=\"a.jpg\" srcset=\"a-400.jpg 400w, a-800.jpg 800w\" alt=\"A\">"
    "<img data-src=\"lazy.jpg\" src=\"data:image/gif;base64,R0lGOD\">"
    "<picture><source srcset=\"p.webp\"><img src=\"p.jpg\"></picture>"
    "<img src=\"/pixel.gif\" width=\"1\" height=\"1\">"
    "</body></html>\n";

// Rule version 1 is a promise to every state database: reading alternates
// and images must not move a page's hash. The value was computed by the
// scan before it read them.
TEST(HtmlPage, HashOfRuleVersionOneIsUnchanged) {
  html_scan_options with_images;
  with_images.images = true;
  const content_hash want{0x231035cc2ea3d909, 0x9f2aa372b96a47cf};
  EXPECT_EQ(scan_html(lachs).hash, want);
  EXPECT_EQ(scan_html(lachs, with_images).hash, want);
}

TEST(HtmlPage, ReadsEverythingOfAMultilingualPageInOneScan) {
  html_scan_options with_images;
  with_images.images = true;
  const html_facts facts = scan_html(lachs, with_images);
  EXPECT_TRUE(facts.has_base);
  EXPECT_EQ(facts.base, "/de/");
  EXPECT_EQ(facts.canonical, "https://www.example.com/de/lachs.html");
  EXPECT_EQ(facts.alternates,
            (std::vector<html_alternate>{{"en", "/en/salmon.html"},
                                         {"de", "lachs.html"}}));
  EXPECT_EQ(facts.images,
            (std::vector<std::string>{"https://cdn.example.net/og.jpg",
                                      "a-800.jpg", "lazy.jpg", "p.jpg"}));
  EXPECT_FALSE(facts.images_truncated);
}

TEST(HtmlPage, ReadsImagesOnlyWhenAsked) {
  const html_facts facts = scan_html(lachs);
  EXPECT_TRUE(facts.images.empty());
  EXPECT_EQ(facts.alternates.size(), 2u);
}

TEST(HtmlPage, TakesHreflangAlternatesFromTheHeadOnly) {
  const struct {
    std::string_view head;
    std::string_view body;
    std::vector<html_alternate> want;
  } cases[] = {
      {R"(<link rel="alternate" hreflang="de" href="/de/">)",
       "",
       {{"de", "/de/"}}},
      {R"(<link rel="ALTERNATE" hreflang=" x-default " href=" / ">)",
       "",
       {{"x-default", "/"}}},
      {R"(<link rel="nofollow alternate" hreflang="fr" href="/fr/">)",
       "",
       {{"fr", "/fr/"}}},
      {R"(<link rel="alternate" type="text/html" hreflang="fr" href="/fr/">)",
       "",
       {{"fr", "/fr/"}}},
      // A feed in a language is not a language version of the page.
      {R"(<link rel="alternate" type="application/rss+xml" hreflang="fr" )"
       R"(href="/fr/feed.xml">)",
       "",
       {}},
      {R"(<link rel="alternate" href="/fr/">)", "", {}},
      {R"(<link rel="alternate" hreflang="fr">)", "", {}},
      {R"(<link rel="alternates" hreflang="fr" href="/fr/">)", "", {}},
      {R"(<a rel="alternate" hreflang="fr" href="/fr/">fr</a>)", "", {}},
      // Google reads hreflang links in <head> only.
      {"", R"(<p>x</p><link rel="alternate" hreflang="it" href="/it/">)", {}},
      {R"(<!-- <link rel="alternate" hreflang="es" href="/es/"> -->)", "", {}},
      {R"(<link rel="alternate" hreflang="en" href="/en/">)"
       R"(<link rel="alternate" hreflang="de" href="/de/">)",
       "",
       {{"en", "/en/"}, {"de", "/de/"}}},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(scan_html(page(c.head, c.body)).alternates, c.want)
        << c.head << c.body;
  }
}

TEST(HtmlPage, TakesTheFirstBaseWithAnHref) {
  EXPECT_FALSE(scan_html(page("", body)).has_base);
  EXPECT_FALSE(scan_html(page(R"(<base target="_top">)", body)).has_base);
  const html_facts facts = scan_html(page(
      R"(<base target="_top"><base href=" /x/ "><base href="/y/">)", body));
  EXPECT_TRUE(facts.has_base);
  EXPECT_EQ(facts.base, "/x/");
}

// The images one page body gives, with --images.
std::vector<std::string> images_of(std::string_view page_body,
                                   std::string_view head = "") {
  html_scan_options o;
  o.images = true;
  return scan_html(page(head, page_body), o).images;
}

TEST(HtmlPage, TakesTheLargestImageOfAnImg) {
  using v = std::vector<std::string>;
  const struct {
    std::string_view img;
    v want;
  } cases[] = {
      {R"(<img src="a.jpg">)", v{"a.jpg"}},
      {R"(<img src=" a.jpg ">)", v{"a.jpg"}},
      {R"(<img>)", v{}},
      {R"(<img src="">)", v{}},
      // By width when srcset has widths; src is then no candidate.
      {R"(<img src="a.jpg" srcset="a-800.jpg 800w, a-1600.jpg 1600w, )"
       R"(a-400.jpg 400w">)",
       v{"a-1600.jpg"}},
      {R"(<img srcset="a-400.jpg 400w,a-1200.jpg 1200w" sizes="50vw">)",
       v{"a-1200.jpg"}},
      // By density otherwise; src counts as 1x.
      {R"(<img src="a.jpg" srcset="a@2x.jpg 2x, a@3x.jpg 3x">)", v{"a@3x.jpg"}},
      {R"(<img src="a.jpg" srcset="a@1.5x.jpg 1.5x">)", v{"a@1.5x.jpg"}},
      {R"(<img src="big.jpg" srcset="small.jpg 0.5x">)", v{"big.jpg"}},
      {R"(<img src="a.jpg" srcset="b.jpg">)", v{"b.jpg"}},
      // The first of equals wins.
      {R"(<img srcset="first.jpg 2x, second.jpg 2x">)", v{"first.jpg"}},
      // Commas inside a URL, and a candidate that ends at its commas.
      {R"(<img srcset="/i/a,b.jpg 1x, /i/c.jpg,, /i/d.jpg 4x">)",
       v{"/i/d.jpg"}},
      // An invalid descriptor drops its candidate only.
      {R"(<img src="a.jpg" srcset="huge.jpg 9q, b.jpg 2x">)", v{"b.jpg"}},
      {R"(<img src="a.jpg" srcset="huge.jpg 10w 2x">)", v{"a.jpg"}},
      {R"(<img src="a.jpg" srcset="huge.jpg infx, neg.jpg -2x, p.jpg +3x">)",
       v{"a.jpg"}},
      // Lazy loaders keep the real image in data-src and data-srcset.
      {R"(<img src="data:image/gif;base64,R0lG" data-src="/real.jpg">)",
       v{"/real.jpg"}},
      {R"(<img src="/placeholder.gif" data-srcset="r-1.jpg 1x, r-2.jpg 2x">)",
       v{"r-2.jpg"}},
      // Tracking pixels and spacers.
      {R"(<img src="/t.gif" width="1" height="1">)", v{}},
      {R"(<img src="/t.gif" width="0">)", v{}},
      {R"(<img src="/s.gif" height=" 1px">)", v{}},
      {R"(<img src="/photo.jpg" width="10" height="100">)", v{"/photo.jpg"}},
      {R"(<img src="/photo.jpg" width="auto">)", v{"/photo.jpg"}},
      // data: URIs are never listed.
      {R"(<img src="data:image/png;base64,iVBOR">)", v{}},
      {R"(<img src="DATA:image/png;base64,iVBOR">)", v{}},
      {R"(<img src="a.jpg" srcset="data:image/png;base64,AA 2x">)", v{"a.jpg"}},
      // A <picture>'s sources are its <img> in other formats.
      {R"(<picture><source srcset="p.avif" type="image/avif">)"
       R"(<source srcset="p.webp"><img src="p.jpg"></picture>)",
       v{"p.jpg"}},
  };
  for (const auto& c : cases) EXPECT_EQ(images_of(c.img), c.want) << c.img;
}

TEST(HtmlPage, TakesOpenGraphImages) {
  using v = std::vector<std::string>;
  const struct {
    std::string_view head;
    v want;
  } cases[] = {
      {R"(<meta property="og:image" content="https://cdn.example.net/a.jpg">)",
       v{"https://cdn.example.net/a.jpg"}},
      {R"(<meta property="OG:Image:URL" content="/b.jpg">)", v{"/b.jpg"}},
      // The https twin of og:image: one picture.
      {R"(<meta property="og:image:secure_url" content="https://x/c.jpg">)",
       v{}},
      {R"(<meta property="og:image:width" content="1200">)", v{}},
      {R"(<meta property="og:image" content="">)", v{}},
      {R"(<meta name="description" content="/d.jpg">)", v{}},
  };
  for (const auto& c : cases)
    EXPECT_EQ(images_of("", c.head), c.want) << c.head;
}

TEST(HtmlPage, ListsEachImageReferenceOnceInDocumentOrder) {
  EXPECT_EQ(images_of(R"(<img src="b.jpg"><img src="a.jpg"><img src="b.jpg">)"
                      R"(<noscript><img src="a.jpg"></noscript>)",
                      R"(<meta property="og:image" content="a.jpg">)"),
            (std::vector<std::string>{"a.jpg", "b.jpg"}));
}

TEST(HtmlPage, NeverReadsImagesInsideScriptsTemplatesOrComments) {
  EXPECT_EQ(images_of("<script>document.write('<img src=\"s.jpg\">')</script>"
                      "<template><img src=\"t.jpg\"></template>"
                      "<!-- <img src=\"c.jpg\"> -->"),
            std::vector<std::string>{});
}

TEST(HtmlPage, KeepsAtMostTheBoundOfImageReferences) {
  std::string many;
  for (int i = 0; i < 30; ++i)
    many += "<img src=\"/i/" + std::to_string(i % 12) + ".jpg\">";
  html_scan_options o;
  o.images = true;
  o.max_images = 10;
  const html_facts facts = scan_html(page("", many), o);
  ASSERT_EQ(facts.images.size(), 10u);
  EXPECT_EQ(facts.images.front(), "/i/0.jpg");
  EXPECT_EQ(facts.images.back(), "/i/9.jpg");
  EXPECT_TRUE(facts.images_truncated);
  o.max_images = 12;
  EXPECT_FALSE(scan_html(page("", many), o).images_truncated);
}

// The HTML standard's declarative refresh: "N; url=U", "N;URL='U'", "N, U",
// or only "N" (a reload, no redirect).
TEST(HtmlPage, ReadsTheUrlOfAMetaRefresh) {
  const struct {
    std::string_view head;
    bool found;
    std::string_view url;
  } cases[] = {
      {R"(<meta http-equiv="refresh" content="0; url=https://e.com/new/">)",
       true, "https://e.com/new/"},
      {R"(<meta http-equiv="Refresh" content="0;URL='../about/'">)", true,
       "../about/"},
      {R"(<meta http-equiv="refresh" content="5, /later">)", true, "/later"},
      {R"(<meta http-equiv="refresh" content=" 0 ; url = &quot;/q&quot; x">)",
       true, "/q"},
      {R"(<meta http-equiv="refresh" content="0.5; url=/half">)", true,
       "/half"},
      {R"(<meta http-equiv="refresh" content="300">)", false, ""},
      {R"(<meta http-equiv="refresh" content="0; url=">)", false, ""},
      {R"(<meta http-equiv="refresh" content="soon; url=/x">)", false, ""},
      {R"(<meta name="refresh" content="0; url=/x">)", false, ""},
      {R"(<meta http-equiv="refresh" content="300"><meta http-equiv="refresh" content="0; url=/2">)",
       true, "/2"},
  };
  for (const auto& c : cases) {
    const html_facts facts = scan_html(page(c.head, body));
    EXPECT_EQ(facts.has_refresh, c.found) << c.head;
    EXPECT_EQ(facts.refresh_url, c.url) << c.head;
  }
}

TEST(HtmlPage, ReadsAMetaRefreshInTheBodyButNotInAScript) {
  EXPECT_EQ(
      scan_html(page("", R"(<meta http-equiv="refresh" content="0;url=/b">)"))
          .refresh_url,
      "/b");
  EXPECT_FALSE(
      scan_html(page("<script>document.write('<meta http-equiv=\"refresh\" "
                     "content=\"0;url=/x\">')</script>",
                     body))
          .has_refresh);
}

std::string stated(const html_facts& facts, stated_date_kind kind) {
  return facts.stated_dates[static_cast<std::size_t>(kind)];
}

html_facts scan_dates(std::string_view html) {
  html_scan_options o;
  o.dates = true;
  return scan_html(html, o);
}

TEST(HtmlPage, ReadsStatedDatesOnlyWhenAsked) {
  const std::string html = page(
      R"(<meta property="article:modified_time" content="2024-01-01">)", body);
  EXPECT_EQ(stated(scan_html(html), stated_date_kind::article_modified_time),
            "");
  EXPECT_EQ(stated(scan_dates(html), stated_date_kind::article_modified_time),
            "2024-01-01");
}

TEST(HtmlPage, ReadsTheDatesAPageStatesEachKindItsFirst) {
  const html_facts facts = scan_dates(page(
      R"(<meta property="article:published_time" content="2024-01-01">)"
      R"(<meta property="article:modified_time" content=" 2024-03-10T09:30:00+01:00 ">)"
      R"(<meta property="article:modified_time" content="2000-01-01">)"
      R"(<meta property="og:updated_time" content="2024-03-11">)"
      R"(<meta name="LastMod" content="2024-03-12">)"
      R"(<meta itemprop="dateModified" content="2024-03-13">)",
      body));
  EXPECT_EQ(stated(facts, stated_date_kind::article_modified_time),
            "2024-03-10T09:30:00+01:00");
  EXPECT_EQ(stated(facts, stated_date_kind::og_updated_time), "2024-03-11");
  EXPECT_EQ(stated(facts, stated_date_kind::meta_lastmod), "2024-03-12");
  EXPECT_EQ(stated(facts, stated_date_kind::itemprop_date_modified),
            "2024-03-13");
  EXPECT_EQ(stated(facts, stated_date_kind::json_ld_date_modified), "");
}

TEST(HtmlPage, ReadsMicrodataDateModifiedOfATimeElement) {
  const html_facts facts = scan_dates(page(
      "",
      R"(<time itemprop="dateModified" datetime="2024-05-06">May 6</time>)"));
  EXPECT_EQ(stated(facts, stated_date_kind::itemprop_date_modified),
            "2024-05-06");
}

TEST(HtmlPage, ReadsDateModifiedOfJsonLd) {
  const struct {
    std::string_view json;
    std::string_view date;
  } cases[] = {
      {R"({"@type":"BlogPosting","dateModified":"2024-03-10T00:00:00+00:00"})",
       "2024-03-10T00:00:00+00:00"},
      // Yoast's shape: the nodes in an @graph.
      {R"({"@context":"https://schema.org","@graph":[{"@type":"Organization"},)"
       R"({"@type":"WebPage","dateModified":"2024-02-02"}]})",
       "2024-02-02"},
      // A top-level array of nodes, one with an @graph.
      {R"([{"@type":"BreadcrumbList"},{"@graph":[{"dateModified":"2024-04-04"}]}])",
       "2024-04-04"},
      {R"({"@type":"WebSite","name":"x"})", ""},
      {R"({"dateModified":20240101})", ""},
      {R"({"mainEntity":{"dateModified":"2024-01-01"}})", ""},
      {R"({"dateModified": "2024-01-01",)", ""},  // not JSON
  };
  for (const auto& c : cases) {
    const html_facts facts =
        scan_dates(page(R"(<script type="application/ld+json">)" +
                            std::string(c.json) + "</script>",
                        body));
    EXPECT_EQ(stated(facts, stated_date_kind::json_ld_date_modified), c.date)
        << c.json;
  }
}

TEST(HtmlPage, TakesTheFirstJsonLdScriptThatStatesADate) {
  const html_facts facts = scan_dates(page(
      R"(<script type="application/ld+json">{"@type":"WebSite"}</script>)"
      R"(<script type="text/javascript">{"dateModified":"2020-01-01"}</script>)",
      R"(<script type="Application/LD+JSON">{"dateModified":"2024-09-09"}</script>)"
      R"(<script type="application/ld+json">{"dateModified":"2024-10-10"}</script>)"));
  EXPECT_EQ(stated(facts, stated_date_kind::json_ld_date_modified),
            "2024-09-09");
}

TEST(HtmlPage, StatedDatesAndRefreshLeaveTheContentHashAlone) {
  const std::string plain = page("", body);
  const std::string dated = page(
      R"(<meta property="article:modified_time" content="2024-01-01">)"
      R"(<meta http-equiv="refresh" content="600">)"
      R"(<script type="application/ld+json">{"dateModified":"2024-01-01"}</script>)",
      body);
  EXPECT_EQ(scan_html(plain).hash, scan_dates(dated).hash);
}

TEST(HtmlPage, HashesBytesWithXxh3) {
  EXPECT_EQ(hash_bytes("abc"), hash_bytes("abc"));
  EXPECT_NE(hash_bytes("abc"), hash_bytes("abd"));
  EXPECT_NE(hash_bytes(""), (content_hash{0, 0}));
}

}  // namespace
}  // namespace sitemill
