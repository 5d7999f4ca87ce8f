// Tests for decode_char_ref(): HTML character references as the WHATWG HTML
// standard's tokenizer decodes them, 13.2.5.72 "Character reference state"
// to 13.2.5.80 "Numeric character reference end state". Expected values are
// written as the compiler's \u escapes, not through the decoder's own UTF-8
// encoder, and the table's spot checks are the standard's, not Python's.
#include "html/html_char_ref.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

namespace sitemill::detail {
namespace {

// What decode_char_ref() made of `s`: bytes consumed and text appended.
struct decoded {
  std::size_t consumed;
  std::string text;
  bool operator==(const decoded&) const = default;
};

void PrintTo(const decoded& d, std::ostream* os) {
  *os << "{" << d.consumed << ", " << testing::PrintToString(d.text) << "}";
}

decoded in_text(std::string_view s) {
  decoded d{0, {}};
  d.consumed = decode_char_ref(s, false, d.text);
  return d;
}

decoded in_attribute(std::string_view s) {
  decoded d{0, {}};
  d.consumed = decode_char_ref(s, true, d.text);
  return d;
}

const decoded literal{0, ""};

// --- 13.2.5.72 Character reference state ------------------------------------

TEST(HtmlCharRef, EmptyInputIsNoReference) {
  EXPECT_EQ(in_text(""), literal);
  EXPECT_EQ(in_attribute(""), literal);
}

TEST(HtmlCharRef, AmpersandBeforeNeitherAlphanumericNorHashIsText) {
  EXPECT_EQ(in_text(" amp;"), literal);
  EXPECT_EQ(in_text("&amp;"), literal);
  EXPECT_EQ(in_text(";"), literal);
  EXPECT_EQ(in_text("<p>"), literal);
  EXPECT_EQ(in_text("\xC3\xA9;"), literal);  // é: not ASCII alphanumeric
}

// --- 13.2.5.73 Named character reference state ------------------------------

TEST(HtmlCharRef, NamedReferenceDecodes) {
  EXPECT_EQ(in_text("amp;"), (decoded{4, "&"}));
  EXPECT_EQ(in_text("lt;b"), (decoded{3, "<"}));
  EXPECT_EQ(in_text("mdash; and"), (decoded{6, "\u2014"}));
  EXPECT_EQ(in_text("Afr;"), (decoded{4, "\U0001D504"}));  // four bytes
}

TEST(HtmlCharRef, NamesAreCaseSensitive) {
  EXPECT_EQ(in_text("AMP;"), (decoded{4, "&"}));
  EXPECT_EQ(in_text("Amp;"), literal);
  EXPECT_EQ(in_text("aMp;"), literal);
}

TEST(HtmlCharRef, LongestMatchingNameWins) {
  // The standard's own example: "&notin;" is one name, "&notit;" only
  // starts with the legacy "not" and leaves "it;" as text.
  EXPECT_EQ(in_text("notin;"), (decoded{6, "\u2209"}));
  EXPECT_EQ(in_text("notit;"), (decoded{3, "\u00AC"}));
  EXPECT_EQ(in_text("notin"), (decoded{3, "\u00AC"}));
  EXPECT_EQ(in_text("notinva;"), (decoded{8, "\u2209"}));
}

TEST(HtmlCharRef, LongestNameInTheTableDecodes) {
  EXPECT_EQ(in_text("CounterClockwiseContourIntegral;"),
            (decoded{32, "\u2233"}));
}

TEST(HtmlCharRef, LegacyNameWithoutSemicolonDecodesInText) {
  EXPECT_EQ(in_text("amp"), (decoded{3, "&"}));
  EXPECT_EQ(in_text("amp=1"), (decoded{3, "&"}));
  EXPECT_EQ(in_text("ampx"), (decoded{3, "&"}));
  EXPECT_EQ(in_text("copy2024"), (decoded{4, "\u00A9"}));
  EXPECT_EQ(in_text("nbsp "), (decoded{4, "\u00A0"}));
}

TEST(HtmlCharRef, LegacyNameWithoutSemicolonBeforeEqualsIsTextInAttribute) {
  EXPECT_EQ(in_attribute("amp=1"), literal);
  EXPECT_EQ(in_attribute("not="), literal);
}

TEST(HtmlCharRef, LegacyNameWithoutSemicolonBeforeAlnumIsTextInAttribute) {
  EXPECT_EQ(in_attribute("copy2024"), literal);
  EXPECT_EQ(in_attribute("ampx"), literal);
  EXPECT_EQ(in_attribute("notZ"), literal);
}

TEST(HtmlCharRef, LegacyNameWithoutSemicolonBeforeOtherBytesDecodesInAttr) {
  EXPECT_EQ(in_attribute("amp&b"), (decoded{3, "&"}));
  EXPECT_EQ(in_attribute("copy \""), (decoded{4, "\u00A9"}));
  EXPECT_EQ(in_attribute("not-"), (decoded{3, "\u00AC"}));
  EXPECT_EQ(in_attribute("nbsp"), (decoded{4, "\u00A0"}));  // end of input
}

TEST(HtmlCharRef, NameWithSemicolonDecodesInAttributeWhateverFollows) {
  EXPECT_EQ(in_attribute("amp;=1"), (decoded{4, "&"}));
  EXPECT_EQ(in_attribute("amp;x"), (decoded{4, "&"}));
}

TEST(HtmlCharRef, NameThatNeedsSemicolonWithoutItIsText) {
  // "lang;" is a name, "lang" is not, nor is any prefix of it.
  EXPECT_EQ(in_text("lang="), literal);
  EXPECT_EQ(in_attribute("lang="), literal);
  EXPECT_EQ(in_text("lang"), literal);
}

// 13.2.5.74 Ambiguous ampersand state: an unknown name stays text.
TEST(HtmlCharRef, UnknownNameIsText) {
  EXPECT_EQ(in_text("foo;"), literal);
  EXPECT_EQ(in_text("xyzzy"), literal);
  EXPECT_EQ(in_attribute("foo;"), literal);
  EXPECT_EQ(in_text(std::string(100000, 'a')), literal);
}

TEST(HtmlCharRef, InputCutShortDecodesWhatItHolds) {
  EXPECT_EQ(in_text("noti"), (decoded{3, "\u00AC"}));
  EXPECT_EQ(in_text("am"), literal);
}

TEST(HtmlCharRef, NameWithTwoCodePointsDecodesToBoth) {
  EXPECT_EQ(in_text("NotEqualTilde;"), (decoded{14, "\u2242\u0338"}));
  EXPECT_EQ(in_text("fjlig;"), (decoded{6, "fj"}));
  EXPECT_EQ(in_text("nvlt;"), (decoded{5, "<\u20D2"}));
}

// --- 13.2.5.75 to 13.2.5.79 Numeric character reference states --------------

TEST(HtmlCharRef, DecimalReferenceDecodes) {
  EXPECT_EQ(in_text("#38;"), (decoded{4, "&"}));
  EXPECT_EQ(in_text("#8212;"), (decoded{6, "\u2014"}));
  EXPECT_EQ(in_text("#0000065;"), (decoded{9, "A"}));
  EXPECT_EQ(in_text("#128512;"), (decoded{8, "\U0001F600"}));
}

TEST(HtmlCharRef, HexReferenceDecodesWithLowerOrUpperX) {
  EXPECT_EQ(in_text("#x2014;"), (decoded{7, "\u2014"}));
  EXPECT_EQ(in_text("#X2014;"), (decoded{7, "\u2014"}));
  EXPECT_EQ(in_text("#x2a;"), (decoded{5, "*"}));
  EXPECT_EQ(in_text("#X2A;"), (decoded{5, "*"}));
  EXPECT_EQ(in_text("#x1F600;"), (decoded{8, "\U0001F600"}));
}

TEST(HtmlCharRef, NumericReferenceWithoutSemicolonEndsAtFirstNonDigit) {
  EXPECT_EQ(in_text("#38 "), (decoded{3, "&"}));
  EXPECT_EQ(in_text("#38"), (decoded{3, "&"}));
  EXPECT_EQ(in_text("#65a;"), (decoded{3, "A"}));
  EXPECT_EQ(in_text("#x41g"), (decoded{4, "A"}));
  EXPECT_EQ(in_text("#x41:"), (decoded{4, "A"}));
}

TEST(HtmlCharRef, NumericReferenceIgnoresTheAttributeRule) {
  EXPECT_EQ(in_attribute("#38=1"), (decoded{3, "&"}));
  EXPECT_EQ(in_attribute("#x26x"), (decoded{4, "&"}));
}

TEST(HtmlCharRef, NumericReferenceWithoutDigitsIsText) {
  EXPECT_EQ(in_text("#"), literal);
  EXPECT_EQ(in_text("#;"), literal);
  EXPECT_EQ(in_text("#a;"), literal);  // decimal: 'a' is no digit
  EXPECT_EQ(in_text("#x"), literal);
  EXPECT_EQ(in_text("#x;"), literal);
  EXPECT_EQ(in_text("#xg;"), literal);
  EXPECT_EQ(in_text("#X "), literal);
  EXPECT_EQ(in_text("# 38;"), literal);
}

// --- 13.2.5.80 Numeric character reference end state ------------------------

TEST(HtmlCharRef, ZeroIsReplacementCharacter) {
  EXPECT_EQ(in_text("#0;"), (decoded{3, "\uFFFD"}));
  EXPECT_EQ(in_text("#x0;"), (decoded{4, "\uFFFD"}));
  EXPECT_EQ(in_text("#00000"), (decoded{6, "\uFFFD"}));
}

TEST(HtmlCharRef, SurrogateIsReplacementCharacter) {
  EXPECT_EQ(in_text("#xD800;"), (decoded{7, "\uFFFD"}));
  EXPECT_EQ(in_text("#xDFFF;"), (decoded{7, "\uFFFD"}));
  EXPECT_EQ(in_text("#55296;"), (decoded{7, "\uFFFD"}));  // 0xD800
  EXPECT_EQ(in_text("#xD7FF;"), (decoded{7, "\uD7FF"}));
  EXPECT_EQ(in_text("#xE000;"), (decoded{7, "\uE000"}));
}

TEST(HtmlCharRef, BeyondUnicodeIsReplacementCharacter) {
  EXPECT_EQ(in_text("#x110000;"), (decoded{9, "\uFFFD"}));
  EXPECT_EQ(in_text("#1114112;"), (decoded{9, "\uFFFD"}));
  EXPECT_EQ(in_text("#x10FFFF;"), (decoded{9, "\U0010FFFF"}));
  EXPECT_EQ(in_text("#1114111;"), (decoded{9, "\U0010FFFF"}));
}

TEST(HtmlCharRef, HugeNumberIsReplacementCharacterWithoutOverflow) {
  const std::string decimal = "#" + std::string(100, '9') + ";";
  EXPECT_EQ(in_text(decimal), (decoded{102, "\uFFFD"}));
  const std::string hex = "#x" + std::string(100, 'F') + ";";
  EXPECT_EQ(in_text(hex), (decoded{103, "\uFFFD"}));
  // 2^32 + 65 and 2^32 + 0x41: a 32-bit wrap would give "A".
  EXPECT_EQ(in_text("#4294967361;"), (decoded{12, "\uFFFD"}));
  EXPECT_EQ(in_text("#x100000041;"), (decoded{12, "\uFFFD"}));
  EXPECT_EQ(in_text("#18446744073709551681;"), (decoded{22, "\uFFFD"}));
}

// The standard's table, one row per line: the number and what it becomes.
struct c1_row {
  const char* decimal;
  const char* hex;
  const char* utf8;
};

TEST(HtmlCharRef, WindowsCodePageNumbersBecomeTheirCharacters) {
  const c1_row rows[] = {
      {"#128;", "#x80;", "\u20AC"}, {"#130;", "#x82;", "\u201A"},
      {"#131;", "#x83;", "\u0192"}, {"#132;", "#x84;", "\u201E"},
      {"#133;", "#x85;", "\u2026"}, {"#134;", "#x86;", "\u2020"},
      {"#135;", "#x87;", "\u2021"}, {"#136;", "#x88;", "\u02C6"},
      {"#137;", "#x89;", "\u2030"}, {"#138;", "#x8A;", "\u0160"},
      {"#139;", "#x8B;", "\u2039"}, {"#140;", "#x8C;", "\u0152"},
      {"#142;", "#x8E;", "\u017D"}, {"#145;", "#x91;", "\u2018"},
      {"#146;", "#x92;", "\u2019"}, {"#147;", "#x93;", "\u201C"},
      {"#148;", "#x94;", "\u201D"}, {"#149;", "#x95;", "\u2022"},
      {"#150;", "#x96;", "\u2013"}, {"#151;", "#x97;", "\u2014"},
      {"#152;", "#x98;", "\u02DC"}, {"#153;", "#x99;", "\u2122"},
      {"#154;", "#x9A;", "\u0161"}, {"#155;", "#x9B;", "\u203A"},
      {"#156;", "#x9C;", "\u0153"}, {"#158;", "#x9E;", "\u017E"},
      {"#159;", "#x9F;", "\u0178"},
  };
  for (const c1_row& row : rows) {
    EXPECT_EQ(in_text(row.decimal),
              (decoded{std::string_view(row.decimal).size(), row.utf8}));
    EXPECT_EQ(in_text(row.hex),
              (decoded{std::string_view(row.hex).size(), row.utf8}));
  }
}

TEST(HtmlCharRef, WindowsCodePageGapsStayControls) {
  // The five numbers the table leaves out decode to the C1 controls.
  EXPECT_EQ(in_text("#x81;"), (decoded{5, "\u0081"}));
  EXPECT_EQ(in_text("#x8D;"), (decoded{5, "\u008D"}));
  EXPECT_EQ(in_text("#x8F;"), (decoded{5, "\u008F"}));
  EXPECT_EQ(in_text("#144;"), (decoded{5, "\u0090"}));
  EXPECT_EQ(in_text("#x9D;"), (decoded{5, "\u009D"}));
  // Just outside the table: themselves.
  EXPECT_EQ(in_text("#x7F;"), (decoded{5, "\x7F"}));
  EXPECT_EQ(in_text("#xA0;"), (decoded{5, "\u00A0"}));
}

TEST(HtmlCharRef, ControlsAndNoncharactersAreKept) {
  EXPECT_EQ(in_text("#1;"), (decoded{3, std::string(1, '\x01')}));
  EXPECT_EQ(in_text("#13;"), (decoded{4, "\r"}));
  EXPECT_EQ(in_text("#9;"), (decoded{3, "\t"}));
  EXPECT_EQ(in_text("#x0B;"), (decoded{5, "\v"}));
  EXPECT_EQ(in_text("#xFDD0;"), (decoded{7, "\uFDD0"}));
  EXPECT_EQ(in_text("#xFFFE;"), (decoded{7, "\uFFFE"}));
  EXPECT_EQ(in_text("#x1FFFF;"), (decoded{8, "\U0001FFFF"}));
}

// --- The contract -----------------------------------------------------------

TEST(HtmlCharRef, AppendsToOutAndLeavesItAloneOnText) {
  std::string out = "a";
  EXPECT_EQ(decode_char_ref("amp;", false, out), 4u);
  EXPECT_EQ(decode_char_ref("#x3C;", false, out), 5u);
  EXPECT_EQ(out, "a&<");
  EXPECT_EQ(decode_char_ref("foo;", false, out), 0u);
  EXPECT_EQ(decode_char_ref("#x;", false, out), 0u);
  EXPECT_EQ(decode_char_ref("amp=", true, out), 0u);
  EXPECT_EQ(out, "a&<");
}

// --- 13.5 Named character references: the generated table -------------------

TEST(HtmlCharRef, TableHoldsTheStandardsRows) {
  const auto refs = html_named_refs();
  ASSERT_EQ(refs.size(), 2231u);
  const auto value = [&](std::string_view name) -> std::string_view {
    const auto it =
        std::find_if(refs.begin(), refs.end(),
                     [&](const html_named_ref& r) { return r.name == name; });
    return it == refs.end() ? "(missing)" : it->utf8;
  };
  // Spot checks from the standard's table, written out by hand.
  EXPECT_EQ(value("AElig"), "\u00C6");
  EXPECT_EQ(value("amp;"), "&");
  EXPECT_EQ(value("quot"), "\"");
  EXPECT_EQ(value("bsol;"), "\\");
  EXPECT_EQ(value("Tab;"), "\t");
  EXPECT_EQ(value("NewLine;"), "\n");
  EXPECT_EQ(value("nbsp"), "\u00A0");
  EXPECT_EQ(value("zwnj;"), "\u200C");
  EXPECT_EQ(value("Afr;"), "\U0001D504");
  EXPECT_EQ(value("bne;"), "=\u20E5");
  EXPECT_EQ(value("yuml"), "\u00FF");
  EXPECT_EQ(value("zwj;"), "\u200D");
  // The legacy names without ';' are the standard's 106, each with a twin.
  std::size_t legacy = 0;
  for (const html_named_ref& r : refs) {
    if (r.name.back() == ';') continue;
    ++legacy;
    EXPECT_EQ(value(std::string(r.name) + ";"), r.utf8) << r.name;
  }
  EXPECT_EQ(legacy, 106u);
}

TEST(HtmlCharRef,
     TableIsSortedAndEveryNameIsAlphanumericWithOptionalSemicolon) {
  const auto refs = html_named_refs();
  for (std::size_t i = 1; i < refs.size(); ++i)
    EXPECT_LT(refs[i - 1].name, refs[i].name) << i;
  for (const html_named_ref& r : refs) {
    std::string_view letters = r.name;
    if (letters.back() == ';') letters.remove_suffix(1);
    ASSERT_FALSE(letters.empty());
    EXPECT_TRUE(std::isalpha(static_cast<unsigned char>(letters[0]))) << r.name;
    EXPECT_TRUE(std::all_of(letters.begin(), letters.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c));
    })) << r.name;
    EXPECT_FALSE(r.utf8.empty()) << r.name;
  }
}

TEST(HtmlCharRef, EveryNameInTheTableDecodesToItsValue) {
  for (const html_named_ref& r : html_named_refs()) {
    const decoded want{r.name.size(), std::string(r.utf8)};
    EXPECT_EQ(in_text(r.name), want) << r.name;
    EXPECT_EQ(in_text(std::string(r.name) + "<"), want) << r.name;
    EXPECT_EQ(in_attribute(std::string(r.name) + "\""), want) << r.name;
    // Followed by '=', only a name with its ';' decodes in an attribute.
    const decoded in_attr = in_attribute(std::string(r.name) + "=");
    EXPECT_EQ(in_attr, r.name.back() == ';' ? want : literal) << r.name;
  }
}

}  // namespace
}  // namespace sitemill::detail
