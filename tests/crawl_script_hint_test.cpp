// The crawl's hint that a site is built by its scripts (crawl/
// page_judges.h, looks_script_built()): it fires on the shells single-page
// app tool chains ship, and not on pages written in HTML that happen to
// load scripts (analytics, a cookie banner, a redirect page's script). The
// facts it reads, html_facts::scripts and text_bytes, are scan_html()'s.
#include <gtest/gtest.h>

#include <string_view>

#include "crawl/page_judges.h"
#include "sitemill/html/html_page.h"

namespace sitemill {
namespace {

// What create-react-app's build writes (scripts inlined by name only).
constexpr std::string_view react_shell = R"(<!doctype html>
<html lang="en"><head><meta charset="utf-8"/>
<link rel="icon" href="/favicon.ico"/>
<meta name="viewport" content="width=device-width,initial-scale=1"/>
<meta name="theme-color" content="#000000"/>
<meta name="description" content="Web site created using create-react-app"/>
<link rel="apple-touch-icon" href="/logo192.png"/>
<link rel="manifest" href="/manifest.json"/>
<title>React App</title>
<script defer="defer" src="/static/js/main.3f5c1e2a.js"></script>
<link href="/static/css/main.073c9b0a.css" rel="stylesheet"></head>
<body><noscript>You need to enable JavaScript to run this app.</noscript>
<div id="root"></div></body></html>
)";

// Vue CLI's.
constexpr std::string_view vue_shell = R"(<!DOCTYPE html><html lang=""><head>
<meta charset="utf-8"><meta http-equiv="X-UA-Compatible" content="IE=edge">
<meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="/favicon.ico"><title>shop</title>
<script defer="defer" type="module" src="/js/chunk-vendors.6b8b5c1e.js"></script>
<script defer="defer" type="module" src="/js/app.5a7f2d0c.js"></script>
<link href="/css/app.1f2e3d4c.css" rel="stylesheet"></head>
<body><noscript><strong>We're sorry but shop doesn't work properly without
JavaScript enabled. Please enable it to continue.</strong></noscript>
<div id="app"></div></body></html>)";

// Angular's, with a loading line in the root element.
constexpr std::string_view angular_shell = R"(<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dashboard</title>
<base href="/"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" type="image/x-icon" href="favicon.ico">
<link rel="stylesheet" href="styles.ef46db3751d8e999.css"></head>
<body><app-root>Loading...</app-root>
<script src="runtime.2d2b6a2e4f0a1b3c.js" type="module"></script>
<script src="polyfills.8c7b6a5d4e3f2a1b.js" type="module"></script>
<script src="main.1a2b3c4d5e6f7a8b.js" type="module"></script>
</body></html>)";

// A blog post with Google Analytics and a cookie banner's script.
constexpr std::string_view post_with_analytics = R"(<!doctype html>
<html><head><title>Moving our builds to ARM | Example Engineering</title>
<script async src="https://www.googletagmanager.com/gtag/js?id=G-XXXX"></script>
<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}
gtag('js',new Date());gtag('config','G-XXXX');</script>
<script src="/js/cookie-banner.js" defer></script></head>
<body><header><a href="/">Example Engineering</a>
<nav><a href="/blog/">Blog</a> <a href="/about/">About</a> <a href="/jobs/">Jobs</a></nav></header>
<article><h1>Moving our builds to ARM</h1>
<p>Last quarter we moved every CI runner from x86 to ARM machines. Builds
got faster and cheaper, and two of our dependencies needed patches.</p>
<p>This post walks through what we measured and what broke.</p></article>
</body></html>)";

// A short page, but one of a site: its navigation around a line of text.
constexpr std::string_view short_page_with_nav = R"(<!doctype html>
<html><head><title>Thanks</title><script src="/analytics.js"></script></head>
<body><nav><a href="/">Home</a> <a href="/shop/">Shop</a> <a href="/help/">Help</a></nav>
<h1>Thank you!</h1><p>We got your message.</p></body></html>)";

// What jekyll-redirect-from (and Hugo's aliases, alike) writes at an old URL.
constexpr std::string_view redirect_page = R"(<!DOCTYPE html>
<html lang="en-US"><meta charset="utf-8"><title>Redirecting&hellip;</title>
<link rel="canonical" href="https://example.com/new/">
<script>location="https://example.com/new/"</script>
<meta http-equiv="refresh" content="0; url=https://example.com/new/">
<meta name="robots" content="noindex">
<h1>Redirecting&hellip;</h1>
<a href="https://example.com/new/">Click here if you are not redirected.</a>
</html>)";

bool hint_on(std::string_view html) {
  html_scan_options o;
  o.links = true;
  const html_facts f = scan_html(html, o);
  const bool self_canonical = !f.has_canonical;  // none of these names itself
  return detail::looks_script_built(f, self_canonical);
}

TEST(ScriptBuiltHint, FiresOnTheShellsOfSinglePageApps) {
  EXPECT_TRUE(hint_on(react_shell));
  EXPECT_TRUE(hint_on(vue_shell));
  EXPECT_TRUE(hint_on(angular_shell));
}

TEST(ScriptBuiltHint, DoesNotFireOnPagesWrittenInHtml) {
  EXPECT_FALSE(hint_on(post_with_analytics));
  EXPECT_FALSE(hint_on(short_page_with_nav));
  EXPECT_FALSE(hint_on(redirect_page));
}

TEST(ScriptBuiltHint, NeedsAScript) {
  EXPECT_FALSE(hint_on("<!doctype html><title>Empty</title><p>Soon.</p>"));
}

TEST(ScriptBuiltHint, TheFactsAreScriptsAndTheTextAReaderSees) {
  html_scan_options o;
  o.links = true;
  const html_facts react = scan_html(react_shell, o);
  EXPECT_EQ(react.scripts, 1u);
  EXPECT_EQ(react.links.size(), 0u);
  // "React App": the title; the <noscript> line is not read.
  EXPECT_EQ(react.text_bytes, std::string_view("ReactApp").size());
  const html_facts angular = scan_html(angular_shell, o);
  EXPECT_EQ(angular.scripts, 3u);
  EXPECT_EQ(angular.text_bytes, std::string_view("Dashboard").size() +
                                    std::string_view("Loading...").size());
  // SVG's <script> is not HTML's; a <template>'s content is no part of the
  // page.
  const html_facts other = scan_html(
      "<svg><script>x()</script></svg><template><script></script></template>"
      "<p>a b\n c</p>");
  EXPECT_EQ(other.scripts, 0u);
  EXPECT_EQ(other.text_bytes, 3u);
}

}  // namespace
}  // namespace sitemill
