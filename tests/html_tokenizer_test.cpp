// Tests for html_tokenizer and html_tree, named after the rules of the HTML
// standard (13.2.5, 13.2.6) they prove. The differential test
// (html_scan_differential_test.cpp) compares the whole scan with gumbo;
// these pin the states one by one.
#include "html/html_tokenizer.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "html/html_tree.h"

namespace sitemill::detail {
namespace {

// A string literal with the NUL bytes inside it.
template <std::size_t N>
std::string bytes(const char (&literal)[N]) {
  return std::string(literal, N - 1);
}

// The tokens of `html` as text: <a href="x" b=""> </a> "text" !comment,
// with the tree construction's tokenizer switches made by hand for the
// elements the tests use.
std::string tokens(std::string_view html) {
  html_tokenizer tokenizer(html);
  std::string out;
  for (;;) {
    const html_token t = tokenizer.next();
    switch (t.type) {
      case html_token_type::eof:
        return out;
      case html_token_type::comment:
        out += "!";
        break;
      case html_token_type::text:
        out += "\"" + std::string(t.text) + "\"";
        break;
      case html_token_type::end_tag:
        out += "</" + std::string(t.name) + ">";
        break;
      case html_token_type::start_tag:
        out += "<" + std::string(t.name);
        for (const html_attribute& a : t.attributes) {
          out +=
              " " + std::string(a.name) + "=\"" + std::string(a.value) + "\"";
        }
        out += t.self_closing ? "/>" : ">";
        if (t.name == "script") tokenizer.switch_to(html_text_state::script);
        if (t.name == "style") tokenizer.switch_to(html_text_state::rawtext);
        if (t.name == "title") tokenizer.switch_to(html_text_state::rcdata);
        if (t.name == "plaintext") {
          tokenizer.switch_to(html_text_state::plaintext);
        }
        if (t.name == "svg") tokenizer.allow_cdata(true);
        break;
    }
  }
}

TEST(HtmlTokenizer, TagOpenState_LessThanNotFollowedByANameIsText) {
  EXPECT_EQ(tokens("a < b <1 <"), "\"a < b <1 <\"");
  EXPECT_EQ(tokens("x</"), "\"x</\"");
  EXPECT_EQ(tokens("x</>y"), "\"x\"\"y\"");  // "</>" is dropped
}

TEST(HtmlTokenizer, TagNameState_NamesAreLowercased) {
  EXPECT_EQ(tokens("<DIV Class=A>x</DiV>"), "<div class=\"A\">\"x\"</div>");
}

TEST(HtmlTokenizer, AttributeValueStates_AllThreeQuotingsAndNone) {
  EXPECT_EQ(tokens("<a b=\"1 2\" c='3\"4' d=5/ e f = g>"),
            "<a b=\"1 2\" c=\"3\"4\" d=\"5/\" e=\"\" f=\"g\">");
}

TEST(HtmlTokenizer, AttributeNameState_TheFirstOfDuplicatesWins) {
  EXPECT_EQ(tokens("<a HREF=1 href=2>"), "<a href=\"1\">");
}

TEST(HtmlTokenizer, BeforeAttributeNameState_EqualsStartsAName) {
  EXPECT_EQ(tokens("<a =b>"), "<a =b=\"\">");
}

TEST(HtmlTokenizer, ATagKeepsItsFirst256Attributes) {
  std::string html = "<a";
  for (int i = 0; i < 100000; ++i) html += " a" + std::to_string(i);
  html += " href=x>";
  html_tokenizer tokenizer(html);
  const html_token t = tokenizer.next();
  ASSERT_EQ(t.type, html_token_type::start_tag);
  ASSERT_EQ(t.attributes.size(), 256u);
  EXPECT_EQ(t.attributes.back().name, "a255");
  EXPECT_EQ(find_attribute(t.attributes, "href"), nullptr);
}

TEST(HtmlTokenizer, SelfClosingStartTagState) {
  EXPECT_EQ(tokens("<br/><link href=x />"), "<br/><link href=\"x\"/>");
  // A '/' not before '>' is dropped, and the name goes on after it.
  EXPECT_EQ(tokens("<a / href=x>"), "<a href=\"x\">");
}

TEST(HtmlTokenizer, AfterAttributeValueQuotedState_MissingSpaceIsTolerated) {
  EXPECT_EQ(tokens("<a b=\"1\"c=\"2\">"), "<a b=\"1\" c=\"2\">");
}

TEST(HtmlTokenizer, EofInTag_TheTagIsDropped) {
  EXPECT_EQ(tokens("x<a href=\"y"), "\"x\"");
  EXPECT_EQ(tokens("x<a href=y"), "\"x\"");
  EXPECT_EQ(tokens("x<a"), "\"x\"");
}

TEST(HtmlTokenizer, CharacterReferenceState_InTextAndInAttributes) {
  EXPECT_EQ(tokens("&amp;&lt;&#65;&#x42;&copy x&notin;&noti;"),
            "\"&<AB\xC2\xA9 x\xE2\x88\x89\xC2\xACi;\"");
  // 13.2.5.73: in an attribute, a legacy name before '=' or a letter stays.
  EXPECT_EQ(tokens("<a href=\"?a=1&copy=2&amp=3&ampx;&amp;\">"),
            "<a href=\"?a=1&copy=2&amp=3&ampx;&\">");
}

TEST(HtmlTokenizer, Preprocessing_CrAndCrLfAreLf) {
  EXPECT_EQ(tokens("a\r\nb\rc"), "\"a\nb\nc\"");
  EXPECT_EQ(tokens("<a title=\"x\r\ny\">"), "<a title=\"x\ny\">");
}

TEST(HtmlTokenizer, NullCharacters_KeptInDataReplacedElsewhere) {
  // In the data state U+0000 is a character token; the tree construction
  // decides what it is (html_tree's test below).
  EXPECT_EQ(
      tokens(bytes("a\0b<a t=\"\0\"><title>\0</title>")),
      bytes("\"a\0b\"<a t=\"\xEF\xBF\xBD\"><title>\"\xEF\xBF\xBD\"</title>"));
}

TEST(HtmlTokenizer, CommentStates_EveryWayACommentEnds) {
  EXPECT_EQ(tokens("a<!-->b"), "\"a\"!\"b\"");
  EXPECT_EQ(tokens("a<!--->b"), "\"a\"!\"b\"");
  EXPECT_EQ(tokens("a<!---->b"), "\"a\"!\"b\"");
  EXPECT_EQ(tokens("a<!-- x -- y -->b"), "\"a\"!\"b\"");
  EXPECT_EQ(tokens("a<!-- x --!>b"), "\"a\"!\"b\"");
  EXPECT_EQ(tokens("a<!-- x ---->b"), "\"a\"!\"b\"");
  EXPECT_EQ(tokens("a<!-- <!-- x -->b"), "\"a\"!\"b\"");
  EXPECT_EQ(tokens("a<!-- never ends <p>"), "\"a\"!");
}

TEST(HtmlTokenizer, BogusCommentState_EndsAtTheFirstGreaterThan) {
  EXPECT_EQ(tokens("a<?php echo '<p>' ?>b"), "\"a\"!\"' ?>b\"");
  EXPECT_EQ(tokens("a</ p>b<!x>c"), "\"a\"!\"b\"!\"c\"");
}

TEST(HtmlTokenizer, DoctypeIsNoToken) {
  EXPECT_EQ(tokens("<!DOCTYPE html PUBLIC \"a>b\"><p>"), R"("b">"<p>)");
  EXPECT_EQ(tokens("<!doctype html><p>"), "<p>");
}

TEST(HtmlTokenizer, CdataSection_OnlyInForeignContent) {
  EXPECT_EQ(tokens("<![CDATA[<p>]]>x"), "!\"]]>x\"");
  EXPECT_EQ(tokens("<svg><![CDATA[<p>]]>x"), "<svg>\"<p>\"\"x\"");
}

TEST(HtmlTokenizer, RcdataState_MarkupIsTextReferencesAreDecoded) {
  EXPECT_EQ(tokens("<title>a<b>&amp;</titlex></TITLE >c"),
            "<title>\"a<b>&</titlex>\"</title>\"c\"");
}

TEST(HtmlTokenizer, RawtextState_NeitherMarkupNorReferences) {
  EXPECT_EQ(tokens("<style>a<b>&amp;</style>"), "<style>\"a<b>&amp;\"</style>");
}

TEST(HtmlTokenizer, ScriptDataState_EndsAtTheFirstScriptEndTag) {
  EXPECT_EQ(tokens("<script>if (a</b) x='</scripts>'</script>y"),
            "<script>\"if (a</b) x='</scripts>'\"</script>\"y\"");
}

TEST(HtmlTokenizer, ScriptDataEscapedStates_EndTagInsideCommentStillEnds) {
  EXPECT_EQ(tokens("<script><!-- a </script>b"),
            "<script>\"<!-- a \"</script>\"b\"");
}

TEST(HtmlTokenizer, ScriptDataDoubleEscapedStates_HideTheEndTag) {
  EXPECT_EQ(tokens("<script><!--<script>x</script>y--></script>z"),
            "<script>\"<!--<script>x</script>y-->\"</script>\"z\"");
  // "-->" ends the escape, after which <script> opens nothing.
  EXPECT_EQ(tokens("<script><!-- --><script></script>z"),
            "<script>\"<!-- --><script>\"</script>\"z\"");
}

TEST(HtmlTokenizer, PlaintextState_RunsToTheEnd) {
  EXPECT_EQ(tokens("<plaintext></plaintext><p>"),
            "<plaintext>\"</plaintext><p>\"");
}

// The tree's events as text: elements nested, H marking those in <head>.
class events final : public html_reader {
 public:
  std::string out;
  void open(const html_element& e) override {
    out += "<" + std::string(e.name) + (e.in_head ? "H" : "") + ">";
  }
  void close() override { out += "/"; }
  void text(std::string_view t) override {
    if (t.find_first_not_of(" \n\t") != std::string_view::npos) {
      out += "\"" + std::string(t) + "\"";
    }
  }
};

std::string tree(std::string_view html) {
  events e;
  read_html(html, e);
  return e.out;
}

TEST(HtmlTree, ImpliesHtmlHeadAndBody) {
  EXPECT_EQ(tree("<meta charset=utf-8><title>T</title><p>x"),
            "<html><headH><metaH>/<titleH>\"T\"//<body><p>\"x\"///");
}

TEST(HtmlTree, InHead_TextOrABodyElementEndsTheHead) {
  EXPECT_EQ(tree("<head><link a>x<link b>"),
            "<html><headH><linkH>//<body>\"x\"<link>///");
  EXPECT_EQ(tree("<head><div></div><link>"),
            "<html><headH>/<body><div>/<link>///");
}

TEST(HtmlTree, AfterHead_HeadElementsGoBackIntoTheHead) {
  // In the standard's tree the <link> is the head's child: the reader is
  // told the head ends only when the body begins.
  EXPECT_EQ(tree("<head></head><link><body><link>"),
            "<html><headH><linkH>//<body><link>///");
}

TEST(HtmlTree, InHeadNoscript_ABodyElementEndsBothNoscriptAndHead) {
  EXPECT_EQ(tree("<head><noscript><link><img></noscript><link>"),
            "<html><headH><noscriptH><linkH>///<body><img>/<link>///");
}

TEST(HtmlTree, VoidElementsHoldNothing) {
  EXPECT_EQ(tree("<body><img>x<br>y"),
            "<html><headH>/<body><img>/\"x\"<br>/\"y\"//");
}

TEST(HtmlTree, AnEndTagClosesWhatOpenedInsideItButNotPastASpecialElement) {
  EXPECT_EQ(tree("<body><b><i>x</b>y"),
            "<html><headH>/<body><b><i>\"x\"//<i>\"y\"///");
  EXPECT_EQ(tree("<body><span><div>x</span>y"),
            "<html><headH>/<body><span><div>\"x\"\"y\"////");
}

TEST(HtmlTree, OmittedEndTagsCloseWhereTheStandardSays) {
  EXPECT_EQ(tree("<body><p>a<div>b</div><li>c<li>d"),
            "<html><headH>/<body><p>\"a\"/<div>\"b\"/<li>\"c\"/<li>\"d\"///");
  EXPECT_EQ(tree("<body></p>x"), "<html><headH>/<body><p>/\"x\"//");
  EXPECT_EQ(tree("<body><dl><dt>a<dd>b<dt>c"),
            "<html><headH>/<body><dl><dt>\"a\"/<dd>\"b\"/<dt>\"c\"////");
}

TEST(HtmlTree, TablesImplyTheirRowGroupsAndRows) {
  EXPECT_EQ(
      tree("<body><table><tr><td>a<td>b<tr><td>c</table>x"),
      "<html><headH>/<body><table><tbody><tr><td>\"a\"/<td>\"b\"//<tr><td>"
      "\"c\"////\"x\"//");
  EXPECT_EQ(tree("<body><table><td>a</table>"),
            "<html><headH>/<body><table><tbody><tr><td>\"a\"//////");
}

TEST(HtmlTree, ForeignContent_SvgTitleIsNoTitleAndBreakoutTagsEndIt) {
  // Inside <svg>, <title> is SVG's (no RCDATA): its <a> is an element.
  EXPECT_EQ(tree("<body><svg><title><a>x</a></title></svg>"),
            "<html><headH>/<body><svg><title><a>\"x\"/////");
  EXPECT_EQ(tree("<body><svg><g><p>x"),
            "<html><headH>/<body><svg><g>//<p>\"x\"///");
  EXPECT_EQ(tree("<body><svg><path/><g>x"),
            "<html><headH>/<body><svg><path>/<g>\"x\"////");
}

TEST(HtmlTree, TemplateEndTagClosesWhatIsOpenInIt) {
  EXPECT_EQ(tree("<body><template><ul><li>x</template>y"),
            "<html><headH>/<body><template><ul><li>\"x\"///\"y\"//");
}

TEST(HtmlTree, FormattingElementsClosedEarlyAreReopened) {
  // 13.2.4.3: the </p> closes <b>, which the next text reopens.
  EXPECT_EQ(tree("<body><p><b>x</p>y</b>z"),
            "<html><headH>/<body><p><b>\"x\"//<b>\"y\"/\"z\"//");
  // A second <a> closes the first (the adoption agency's simple case).
  EXPECT_EQ(tree("<body><a>x<a>y"), "<html><headH>/<body><a>\"x\"/<a>\"y\"///");
  // Noah's Ark: a fourth identical <b> since the last marker pushes out
  // the first, so only three are reopened.
  EXPECT_EQ(tree("<body><p><b><b><b><b>x</p>y"),
            "<html><headH>/<body><p><b><b><b><b>\"x\"/////<b><b><b>\"y\"/////");
}

TEST(HtmlTree, ANewlineRightAfterPreIsNoText) {
  EXPECT_EQ(tree("<body><pre>\nx\n</pre><textarea>\ny</textarea>"),
            "<html><headH>/<body><pre>\"x\n\"/<textarea>\"y\"///");
}

TEST(HtmlTree, DeepNestingIsNoRecursion) {
  std::string html = "<body>";
  for (int i = 0; i < 100000; ++i) html += "<span>";
  events e;
  read_html(html, e);
  // <html>, an empty head, <body>, every <span>, and as many closes.
  EXPECT_EQ(e.out.size(), 6 + 8 + 6 + 100000 * 6 + 100002);
}

// Stray end tags under a deep stack: each walks at most 512 elements down
// (html_tree.h), so this is read in linear time; unbounded, it is 4 * 10^9
// steps.
TEST(HtmlTree, StrayEndTagsUnderADeepStackAreReadInLinearTime) {
  std::string html = "<body>";
  for (int i = 0; i < 60000; ++i) html += "<span>";
  for (int i = 0; i < 60000; ++i) html += "</x><table></p>";
  html += "<a>end</a>";
  events e;
  read_html(html, e);
  EXPECT_NE(e.out.find("<a>\"end\"/"), std::string::npos);
}

TEST(HtmlTree, InvalidUtf8IsReadAsReplacementCharacters) {
  // C3 28: a cut sequence (one U+FFFD, then '('); E2 82: one maximal
  // subpart (one U+FFFD); FF: one.
  EXPECT_EQ(tree("<body>\xC3(\xE2\x82x\xFF"),
            "<html><headH>/<body>\"\xEF\xBF\xBD(\xEF\xBF\xBDx\xEF\xBF\xBD\"//");
}

TEST(HtmlTree, NullCharacterEndsTheHeadAndIsDroppedInTheBody) {
  EXPECT_EQ(tree(bytes("<head>\0<link>x\0y")),
            "<html><headH>/<body><link>/\"xy\"//");
}

TEST(HtmlTree, ImageIsImg) {
  EXPECT_EQ(tree("<body><image src=a>x"), "<html><headH>/<body><img>/\"x\"//");
}

TEST(HtmlTree, InFrameset_OnlyFramesCount) {
  EXPECT_EQ(tree("<head></head><frameset><frame><a>x</a></frameset><p>"),
            "<html><headH>/<frameset><frame>///");
}

TEST(HtmlTree, ForeignAttributesAreReadByTheirLocalNames) {
  class hrefs final : public html_reader {
   public:
    std::string out;
    void open(const html_element& e) override {
      if (const html_attribute* a = find_attribute(e.attributes, "href")) {
        out += std::string(e.name) + "=" + std::string(a->value) + " ";
      }
    }
    void close() override {}
    void text(std::string_view) override {}
  } r;
  read_html("<svg><a xlink:href=/x>x</a></svg><a xlink:href=/y>y</a>", r);
  EXPECT_EQ(r.out, "a=/x ");  // an HTML <a> has no XLink attributes
}

TEST(HtmlTree, AByteOrderMarkIsNoText) {
  EXPECT_EQ(tree("\xEF\xBB\xBFx"), "<html><headH>/<body>\"x\"//");
}

}  // namespace
}  // namespace sitemill::detail
