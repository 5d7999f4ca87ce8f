// Tests for scan_html(): robots noindex, the canonical link, and the content
// hash that ignores build noise but sees every content change.
#include "sitemill/source/html_page.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

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

TEST(HtmlPage, HashesBytesWithXxh3) {
  EXPECT_EQ(hash_bytes("abc"), hash_bytes("abc"));
  EXPECT_NE(hash_bytes("abc"), hash_bytes("abd"));
  EXPECT_NE(hash_bytes(""), (content_hash{0, 0}));
}

}  // namespace
}  // namespace sitemill
