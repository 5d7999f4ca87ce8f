// The language, script and region tables behind hreflang and news:language,
// and the one judge of an hreflang value.
#include "entry/language_codes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "entry/language_code_tables.h"

namespace sitemill::detail {
namespace {

template <typename Table>
void expect_sorted_unique(const Table& table, std::string_view name) {
  EXPECT_TRUE(std::is_sorted(table.begin(), table.end())) << name;
  EXPECT_EQ(std::adjacent_find(table.begin(), table.end()), table.end())
      << name;
}

TEST(LanguageCodes, TablesHoldTheWholeIsoListsSortedOnce) {
  EXPECT_EQ(tables::iso639_1.size(), 183u);
  EXPECT_EQ(tables::iso3166_alpha2.size(), 249u);
  EXPECT_GE(tables::iso15924.size(), 170u);
  EXPECT_GE(tables::iso639_2.size(), 480u);
  expect_sorted_unique(tables::iso639_1, "iso639_1");
  expect_sorted_unique(tables::iso639_2, "iso639_2");
  expect_sorted_unique(tables::iso3166_alpha2, "iso3166_alpha2");
  expect_sorted_unique(tables::iso15924, "iso15924");
}

TEST(LanguageCodes, LookupsAreExactCase) {
  EXPECT_TRUE(is_iso639_1("de"));
  EXPECT_TRUE(is_iso639_1("zu"));
  EXPECT_FALSE(is_iso639_1("DE"));
  EXPECT_FALSE(is_iso639_1("bh"));  // withdrawn from ISO 639-1 in 2021
  EXPECT_FALSE(is_iso639_1("iw"));  // withdrawn in 1989: he
  EXPECT_TRUE(is_iso639_2("deu"));
  EXPECT_TRUE(is_iso639_2("ger"));   // bibliographic form
  EXPECT_FALSE(is_iso639_2("qaa"));  // local-use range
  EXPECT_TRUE(is_iso3166_alpha2("AT"));
  EXPECT_TRUE(is_iso3166_alpha2("ZW"));
  EXPECT_FALSE(is_iso3166_alpha2("at"));
  EXPECT_FALSE(is_iso3166_alpha2("UK"));  // reserved, not assigned: GB
  EXPECT_FALSE(is_iso3166_alpha2("EU"));
  EXPECT_TRUE(is_iso15924("Hant"));
  EXPECT_TRUE(is_iso15924("Latn"));
  EXPECT_FALSE(is_iso15924("hant"));
  EXPECT_FALSE(is_iso15924("Qaaa"));  // private use
  EXPECT_TRUE(is_m49_area("419"));
  EXPECT_TRUE(is_m49_area("001"));
  EXPECT_FALSE(is_m49_area("276"));  // a country (Germany): BCP 47 says DE
}

// The two-letter lookups are bitmaps built from the tables: every pair of
// bytes a-z, A-Z and a few neighbours gets the tables' own answer.
TEST(LanguageCodes, TwoLetterLookupsAgreeWithTheTables) {
  std::string alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  alphabet += "@[`{09-";
  int found = 0;
  for (char a : alphabet) {
    for (char b : alphabet) {
      const char pair[] = {a, b};
      const std::string_view code(pair, 2);
      const bool language = std::binary_search(
          tables::iso639_1.begin(), tables::iso639_1.end(), code);
      const bool region = std::binary_search(
          tables::iso3166_alpha2.begin(), tables::iso3166_alpha2.end(), code);
      ASSERT_EQ(is_iso639_1(code), language) << code;
      ASSERT_EQ(is_iso3166_alpha2(code), region) << code;
      found += language + region;
    }
  }
  EXPECT_EQ(found, 183 + 249);
  EXPECT_FALSE(is_iso639_1("d"));
  EXPECT_FALSE(is_iso639_1("deu"));
  EXPECT_FALSE(is_iso3166_alpha2(""));
}

struct hreflang_case {
  std::string_view tag;
  hreflang_problem expected;
};

TEST(LanguageCodes, JudgesHreflangValues) {
  using p = hreflang_problem;
  const hreflang_case cases[] = {
      {"en", p::ok},
      {"en-GB", p::ok},
      {"en-gb", p::ok},
      {"EN-GB", p::ok},
      {"zh-Hant", p::ok},
      {"zh-hant", p::ok},
      {"zh-Hant-TW", p::ok},
      {"sr-Latn-RS", p::ok},
      {"es-419", p::ok},
      {"x-default", p::x_default},
      {"X-Default", p::x_default},
      {"", p::empty},
      {"de_DE", p::underscore},
      {"de_AT", p::underscore},
      {"eng", p::unknown_language},
      {"xx", p::unknown_language},
      {"iw", p::unknown_language},
      {"en-UK", p::unknown_region},
      {"en-USA", p::unknown_region},
      {"es-999", p::unknown_region},
      {"zh-Hanx", p::unknown_script},
      {"en-US-x", p::too_many_parts},
      {"en-US-x-private", p::too_many_parts},
      {"de-DE-1996", p::too_many_parts},
      {"en-english", p::too_many_parts},
      {"-en", p::bad_shape},
      {"en-", p::bad_shape},
      {"en--GB", p::bad_shape},
      {"e1", p::bad_shape},
      {"en GB", p::bad_shape},
      {"en-toolongsubtag", p::bad_shape},
      {"de-\xc3\xa4", p::bad_shape},
  };
  for (const auto& c : cases)
    EXPECT_EQ(check_hreflang(c.tag), c.expected) << '"' << c.tag << '"';
}

TEST(LanguageCodes, EveryProblemHasAReasonAndValidValuesNone) {
  using p = hreflang_problem;
  EXPECT_TRUE(describe(p::ok).empty());
  EXPECT_TRUE(describe(p::x_default).empty());
  for (p problem : {p::empty, p::underscore, p::bad_shape, p::unknown_language,
                    p::unknown_script, p::unknown_region, p::too_many_parts})
    EXPECT_FALSE(describe(problem).empty()) << static_cast<int>(problem);
  EXPECT_NE(describe(p::underscore).find("de-DE"), std::string_view::npos);
}

}  // namespace
}  // namespace sitemill::detail
