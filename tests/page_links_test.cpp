// Tests for page_links: what scan_html() read raw, resolved against the
// page's URL (or its <base href>) into the canonical URL, hreflang
// alternates and images a source lists.
#include "html/page_links.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace sitemill::detail {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

normalized_url url(std::string_view s) {
  normalized_url u;
  EXPECT_EQ(normalize_url(s, u), url_problem::ok) << s;
  return u;
}

// The links' extension values as "key=text", one item per string.
std::vector<std::string> items(const page_links& links) {
  std::vector<std::string> out;
  const auto fields = extension_fields();
  for (const extension_value& v : links.extensions()) {
    if (out.size() <= v.item) out.resize(v.item + 1);
    std::string& s = out[v.item];
    if (!s.empty()) s += ' ';
    s += std::string(fields[v.field].key) + "=" + std::string(v.text);
  }
  return out;
}

page_link_options with_images() {
  page_link_options o;
  o.images = true;
  return o;
}

TEST(PageLinks, ResolvesAlternatesAgainstThePageAndKeepsOtherHosts) {
  html_facts facts;
  facts.alternates = {{"de", "lachs.html"},
                      {"en", "/en/salmon.html#top"},
                      {"fr", "https://EXAMPLE.fr/saumon"},
                      {"x-default", "/"}};
  page_links links;
  links.resolve(url("https://www.example.com/de/lachs.html"), facts, {});
  EXPECT_THAT(
      items(links),
      ElementsAre("@hreflang=de @href=https://www.example.com/de/lachs.html",
                  "@hreflang=en @href=https://www.example.com/en/salmon.html",
                  "@hreflang=fr @href=https://example.fr/saumon",
                  "@hreflang=x-default @href=https://www.example.com/"));
  EXPECT_THAT(links.notes(), IsEmpty());
}

TEST(PageLinks, PassesTheHreflangRawForTheEntryStageToJudge) {
  html_facts facts;
  facts.alternates = {{"not a language", "/x"}};
  page_links links;
  links.resolve(url("https://www.example.com/"), facts, {});
  EXPECT_THAT(items(links), ElementsAre("@hreflang=not a language "
                                        "@href=https://www.example.com/x"));
}

TEST(PageLinks, NotesAnAlternateThatIsNoUsableUrl) {
  html_facts facts;
  facts.alternates = {{"de", "mailto:de@example.com"}, {"fr", "/fr/"}};
  page_links links;
  links.resolve(url("https://www.example.com/"), facts, {});
  EXPECT_THAT(items(links),
              ElementsAre("@hreflang=fr @href=https://www.example.com/fr/"));
  ASSERT_EQ(links.notes().size(), 1u);
  EXPECT_THAT(links.notes()[0],
              HasSubstr("hreflang alternate \"mailto:de@example.com\""));
}

TEST(PageLinks, ReadsAlternatesOnlyWhenAsked) {
  html_facts facts;
  facts.alternates = {{"de", "/de/"}};
  page_links links;
  page_link_options o;
  o.alternates = false;
  links.resolve(url("https://www.example.com/"), facts, o);
  EXPECT_THAT(items(links), IsEmpty());
}

TEST(PageLinks, ResolvesTheMetaRefreshLikeTheCanonical) {
  html_facts facts;
  facts.has_base = true;
  facts.base = "/docs/";
  facts.has_refresh = true;
  facts.refresh_url = "../about/#team";
  page_links links;
  links.resolve(url("https://www.example.com/old/index.html"), facts, {});
  EXPECT_EQ(links.refresh().href(), "https://www.example.com/about/");
  page_link_options o;
  o.refresh = false;
  links.resolve(url("https://www.example.com/old/"), facts, o);
  EXPECT_TRUE(links.refresh().empty());
  facts.refresh_url = "javascript:go()";
  links.resolve(url("https://www.example.com/old/"), facts, {});
  EXPECT_TRUE(links.refresh().empty());
  ASSERT_EQ(links.notes().size(), 1u);
  EXPECT_THAT(links.notes()[0],
              HasSubstr("meta refresh to \"javascript:go()\" ignored"));
}

TEST(PageLinks, ResolvesEverythingAgainstTheBaseHrefAsABrowserDoes) {
  html_facts facts;
  facts.has_base = true;
  facts.base = "/static/";
  facts.has_canonical = true;
  facts.canonical = "page.html";
  facts.alternates = {{"de", "de/page.html"}};
  facts.images = {"img/a.jpg", "../b.jpg"};
  page_links links;
  links.resolve(url("https://www.example.com/x/page.html"), facts,
                with_images());
  EXPECT_EQ(links.canonical().href(),
            "https://www.example.com/static/page.html");
  EXPECT_THAT(
      items(links),
      ElementsAre(
          "@hreflang=de @href=https://www.example.com/static/de/page.html",
          "loc=https://www.example.com/static/img/a.jpg",
          "loc=https://www.example.com/b.jpg"));
}

TEST(PageLinks, IgnoresABaseThatIsNoUsableUrl) {
  html_facts facts;
  facts.has_base = true;
  facts.base = "ftp://files.example.com/";
  facts.images = {"a.jpg"};
  page_links links;
  links.resolve(url("https://www.example.com/x/"), facts, with_images());
  EXPECT_THAT(items(links), ElementsAre("loc=https://www.example.com/x/a.jpg"));
  ASSERT_EQ(links.notes().size(), 1u);
  EXPECT_THAT(links.notes()[0], HasSubstr("base URL \"ftp://files"));
}

TEST(PageLinks, NotesACanonicalLinkThatIsNoUsableUrl) {
  html_facts facts;
  facts.has_canonical = true;
  facts.canonical = "ftp://example.com/about";
  page_links links;
  links.resolve(url("https://www.example.com/"), facts, {});
  EXPECT_TRUE(links.canonical().empty());
  EXPECT_THAT(links.notes(),
              ElementsAre(HasSubstr("canonical link \"ftp://example.com/"
                                    "about\" ignored: ")));
  page_link_options no_canonical;
  no_canonical.canonical = false;
  links.resolve(url("https://www.example.com/"), facts, no_canonical);
  EXPECT_THAT(links.notes(), IsEmpty());
}

TEST(PageLinks, ListsImagesOnAnyHostOnceAfterNormalisation) {
  html_facts facts;
  facts.images = {"https://cdn.example.net/a.jpg",
                  "/b.jpg",
                  "https://www.example.com/b.jpg",
                  "HTTPS://CDN.example.net:443/a.jpg",
                  "blob:https://www.example.com/1",
                  "about:blank",
                  "http://[bad/c.jpg",
                  "d é.jpg"};
  page_links links;
  links.resolve(url("https://www.example.com/p/"), facts, with_images());
  EXPECT_THAT(items(links),
              ElementsAre("loc=https://cdn.example.net/a.jpg",
                          "loc=https://www.example.com/b.jpg",
                          "loc=https://www.example.com/p/d%20%C3%A9.jpg"));
  // Other schemes are placeholders, left out silently; a broken URL is
  // worth a word.
  EXPECT_THAT(links.notes(),
              ElementsAre(HasSubstr("image \"http://[bad/c.jpg\" not listed")));
}

TEST(PageLinks, ReadsImagesOnlyWhenAsked) {
  html_facts facts;
  facts.images = {"/a.jpg"};
  page_links links;
  links.resolve(url("https://www.example.com/"), facts, {});
  EXPECT_THAT(items(links), IsEmpty());
}

TEST(PageLinks, NumbersAlternatesThenImagesAsItems) {
  html_facts facts;
  facts.alternates = {{"en", "/"}};
  facts.images = {"/a.jpg"};
  page_links links;
  links.resolve(url("https://www.example.com/"), facts, with_images());
  const auto values = links.extensions();
  ASSERT_EQ(values.size(), 3u);
  EXPECT_EQ(values[0].item, 0u);
  EXPECT_EQ(values[1].item, 0u);
  EXPECT_EQ(values[2].item, 1u);
  EXPECT_EQ(extension_fields()[values[2].field].kind, extension_kind::image);
}

// Google reads at most 1,000 images per URL; the first 1,000 distinct ones
// are listed.
TEST(PageLinks, ListsTheFirstThousandImagesAndSaysSo) {
  html_facts facts;
  for (int i = 0; i < 1001; ++i)
    facts.images.push_back("/i/" + std::to_string(i) + ".jpg");
  page_links links;
  links.resolve(url("https://www.example.com/"), facts, with_images());
  const auto all = items(links);
  ASSERT_EQ(all.size(), 1000u);
  EXPECT_EQ(all.back(), "loc=https://www.example.com/i/999.jpg");
  EXPECT_THAT(links.notes(),
              ElementsAre(HasSubstr("more than 1,000 images; the first "
                                    "1,000 are listed")));

  facts.images.pop_back();
  links.resolve(url("https://www.example.com/"), facts, with_images());
  EXPECT_EQ(items(links).size(), 1000u);
  EXPECT_THAT(links.notes(), IsEmpty());

  // The scan stopped collecting: there were more.
  facts.images_truncated = true;
  links.resolve(url("https://www.example.com/"), facts, with_images());
  EXPECT_EQ(links.notes().size(), 1u);
}

}  // namespace
}  // namespace sitemill::detail
