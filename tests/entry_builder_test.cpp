// Tests for entry_builder: which raw field texts become fields of a url_entry,
// which are dropped with a warning (the URL is still written), and which
// reject the whole record with a url_problem (docs/protocol.md 1.1, checklist
// 3-9).
#include <gtest/gtest.h>

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/entry/entry.h"
#include "sitemill/limits.h"

namespace sitemill {
[[maybe_unused]] static void PrintTo(url_problem p, std::ostream* os) {
  *os << static_cast<int>(p) << " (" << describe(p) << ")";
}
[[maybe_unused]] static void PrintTo(changefreq value, std::ostream* os) {
  *os << "changefreq::"
      << (value == changefreq::unset ? "unset" : to_string(value));
}
}  // namespace sitemill

namespace sitemill {
namespace {

// What one build() produced, copied out of the builder's buffers.
struct built {
  url_problem problem = url_problem::ok;
  bool fragment_removed = false;
  std::string loc;
  std::optional<std::string> lastmod;  // as format_lastmod() writes it
  std::optional<datetime_form> form;
  changefreq freq = changefreq::unset;
  std::optional<std::string> prio;  // canonical text
  std::vector<std::string> warnings;
};

built copy(const entry_builder::outcome& o, const url_entry& e,
           const std::vector<field_warning>& warnings) {
  built b;
  b.problem = o.problem;
  b.fragment_removed = o.notes.fragment_removed;
  b.loc = std::string(e.loc);
  if (e.lastmod) {
    char buf[max_lastmod_length];
    b.lastmod = std::string(buf, format_lastmod(*e.lastmod, buf));
    b.form = e.lastmod->form;
  }
  b.freq = e.freq;
  if (e.prio) b.prio = std::string(e.prio->text());
  for (const auto& w : warnings) b.warnings.push_back(w.message);
  return b;
}

built build(entry_builder& builder, std::string_view loc,
            std::string_view lastmod = {}, std::string_view freq = {},
            std::string_view prio = {}) {
  url_entry e;
  std::vector<field_warning> warnings;
  const auto o = builder.build(loc, lastmod, freq, prio, e, warnings);
  return copy(o, e, warnings);
}

built build(std::string_view loc, std::string_view lastmod = {},
            std::string_view freq = {}, std::string_view prio = {}) {
  entry_builder builder{url_normalizer{}};
  return build(builder, loc, lastmod, freq, prio);
}

constexpr std::string_view ok_loc = "https://www.example.com/";

// ---- loc
// ---------------------------------------------------------------------

TEST(EntryBuilder, AcceptedLocsAreNormalised) {
  // Checklist 3-5: absolute, RFC 3986-normal, entity-free text, < 2,048.
  const struct {
    std::string_view in, want;
    bool fragment_removed;
  } cases[] = {
      {"https://www.example.com/", "https://www.example.com/", false},
      {"  https://www.example.com/a \t\r\n", "https://www.example.com/a",
       false},
      {"HTTPS://WWW.Example.COM:443/a/./b/../c", "https://www.example.com/a/c",
       false},
      {"http://example.com", "http://example.com/", false},
      {"https://example.com/a?b=1&c='d'", "https://example.com/a?b=1&c='d'",
       false},
      {"https://example.com/caf\xC3\xA9 <x>",
       "https://example.com/caf%C3%A9%20%3Cx%3E", false},
      {"https://example.com/%7euser/%e2%82%ac",
       "https://example.com/~user/%E2%82%AC", false},
      {"https://example.com/100%", "https://example.com/100%25", false},
      {"https://example.com/page#section", "https://example.com/page", true},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.in);
    const built b = build(c.in);
    EXPECT_EQ(b.problem, url_problem::ok);
    EXPECT_EQ(b.loc, c.want);
    EXPECT_EQ(b.fragment_removed, c.fragment_removed);
    EXPECT_TRUE(b.warnings.empty());
  }
}

TEST(EntryBuilder, RejectedLocsNameTheirProblem) {
  const std::string too_long =
      "https://example.com/" +
      std::string(max_loc_length + 1 - 20, 'a');  // 2,048 characters
  const struct {
    std::string_view in;
    url_problem want;
  } cases[] = {
      {"", url_problem::empty},
      {" \t\r\n", url_problem::empty},
      {"ftp://example.com/file", url_problem::not_http},
      {"/relative/path", url_problem::relative_without_base},
      {"https:///path", url_problem::bad_host},
      {"https://exa mple.com/", url_problem::bad_host},
      {"https://example.com:99999/", url_problem::bad_port},
      {"https://user:secret@example.com/", url_problem::has_credentials},
      {"https://example.com/a\tb", url_problem::control_character},
      {"https://example.com/\xFF", url_problem::invalid_utf8},
      {too_long, url_problem::too_long},
      {"http://a.b/", url_problem::too_short},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.in.substr(0, 60));
    const built b = build(c.in);
    EXPECT_EQ(b.problem, c.want);
    EXPECT_TRUE(b.warnings.empty());
  }
}

TEST(EntryBuilder, TheLongestAcceptedLocHas2047Characters) {
  // Checklist 5: "less than 2,048 characters", counted once encoded.
  const std::string longest =
      "https://example.com/" + std::string(max_loc_length - 20, 'a');
  ASSERT_EQ(longest.size(), max_loc_length);
  EXPECT_EQ(build(longest).loc, longest);
  // An 'é' is one character but six once encoded: one too many here.
  const std::string encoded = "https://example.com/" +
                              std::string(max_loc_length - 20 - 5, 'a') +
                              "\xC3\xA9";
  EXPECT_EQ(build(encoded).problem, url_problem::too_long);
}

TEST(EntryBuilder, ABaseResolvesRelativeLocsAndRefusesOthersOutsideIt) {
  auto base = url_normalizer::with_base("https://example.com/shop/");
  ASSERT_TRUE(base.has_value());
  entry_builder builder(*base);
  const struct {
    std::string_view in;
    url_problem problem;
    std::string_view loc;
  } cases[] = {
      {"item/1", url_problem::ok, "https://example.com/shop/item/1"},
      {"/shop/item/2", url_problem::ok, "https://example.com/shop/item/2"},
      {"https://example.com/shop/", url_problem::ok,
       "https://example.com/shop/"},
      {"/about", url_problem::outside_base, ""},
      {"https://other.example.com/shop/", url_problem::outside_base, ""},
      {"http://example.com/shop/", url_problem::outside_base, ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.in);
    const built b = build(builder, c.in);
    EXPECT_EQ(b.problem, c.problem);
    if (c.problem == url_problem::ok) {
      EXPECT_EQ(b.loc, c.loc);
    }
  }
}

TEST(EntryBuilder, ARejectedRecordHasNoFieldsAndNoWarnings) {
  // The fields of a record that is not written are not looked at: a bad
  // lastmod on a bad URL is one problem, not two.
  entry_builder builder{url_normalizer{}};
  url_entry e;
  std::vector<field_warning> warnings = {{"left from before"}};
  const auto o = builder.build("ftp://example.com/", "2024-01-15", "daily",
                               "0.5", e, warnings);
  EXPECT_EQ(o.problem, url_problem::not_http);
  EXPECT_TRUE(warnings.empty());
  EXPECT_FALSE(e.lastmod.has_value());
  EXPECT_EQ(e.freq, changefreq::unset);
  EXPECT_FALSE(e.prio.has_value());
}

// ---- lastmod
// -----------------------------------------------------------------

TEST(EntryBuilder, LastmodInEveryW3cFormBecomesAField) {
  // Checklist 6-7: the six W3C forms; written in forms sitemap.xsd accepts.
  const struct {
    std::string_view in, written;
    datetime_form form;
  } cases[] = {
      {"2024", "2024-01-01", datetime_form::year},
      {"2024-02", "2024-02-01", datetime_form::year_month},
      {"2024-02-29", "2024-02-29", datetime_form::date},
      {"2024-01-15T10:30Z", "2024-01-15T10:30:00Z", datetime_form::minutes},
      {"2024-01-15T10:30+05:30", "2024-01-15T10:30:00+05:30",
       datetime_form::minutes},
      {"2024-01-15T10:30:45Z", "2024-01-15T10:30:45Z", datetime_form::seconds},
      {"2024-01-15T10:30:45-08:00", "2024-01-15T10:30:45-08:00",
       datetime_form::seconds},
      {"2024-01-15T10:30:45-00:00", "2024-01-15T10:30:45-00:00",
       datetime_form::seconds},
      {"2024-01-15T10:30:45.5Z", "2024-01-15T10:30:45.5Z",
       datetime_form::fraction},
      {"2024-01-15T10:30:45.123456789+14:00",
       "2024-01-15T10:30:45.123456789+14:00", datetime_form::fraction},
      {" \t2024-01-15\r\n", "2024-01-15", datetime_form::date},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.in);
    const built b = build(ok_loc, c.in);
    EXPECT_TRUE(b.warnings.empty());
    EXPECT_EQ(b.lastmod, c.written);
    EXPECT_EQ(b.form, c.form);
  }
}

TEST(EntryBuilder, BadW3cLastmodIsDroppedWithAWarningNamingTheReason) {
  // The w3c date format: today's strict reading, the W3C parser's reasons.
  // (The auto format, the default, is in lastmod_reading_test.cpp.)
  auto w3c = lastmod_reader::create("w3c", "");
  ASSERT_TRUE(w3c);
  entry_builder builder{url_normalizer{}, *w3c};
  const struct {
    std::string_view in;
    datetime_problem why;
    std::string_view shown;  // the value as the warning quotes it
  } cases[] = {
      {"yesterday", datetime_problem::malformed, "yesterday"},
      {"2024-1-5", datetime_problem::malformed, "2024-1-5"},
      {"2024-01-15 10:30:00Z", datetime_problem::malformed,
       "2024-01-15 10:30:00Z"},
      {"2024-02-30", datetime_problem::impossible_date, "2024-02-30"},
      {"0000-01-01", datetime_problem::impossible_date, "0000-01-01"},
      {"2024-01-15T10:30:00", datetime_problem::no_timezone,
       "2024-01-15T10:30:00"},
      {"2024-01-15T24:00:00Z", datetime_problem::impossible_time,
       "2024-01-15T24:00:00Z"},
      {"2024-01-15T10:30:00+15:00", datetime_problem::bad_offset,
       "2024-01-15T10:30:00+15:00"},
      {" 2023-13-01 ", datetime_problem::impossible_date, "2023-13-01"},
      {"2024\x01", datetime_problem::malformed, "2024\\x01"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.in);
    const built b = build(builder, ok_loc, c.in, "daily", "0.5");
    EXPECT_EQ(b.problem, url_problem::ok);
    EXPECT_EQ(b.loc, ok_loc);
    EXPECT_FALSE(b.lastmod.has_value());
    // The other fields are kept.
    EXPECT_EQ(b.freq, changefreq::daily);
    EXPECT_EQ(b.prio, "0.5");
    ASSERT_EQ(b.warnings.size(), 1u);
    EXPECT_EQ(b.warnings[0], "lastmod \"" + std::string(c.shown) +
                                 "\" dropped: " + std::string(describe(c.why)));
  }
}

// ---- changefreq
// --------------------------------------------------------------

TEST(EntryBuilder, ChangefreqInAnyCaseBecomesAField) {
  const struct {
    std::string_view in;
    changefreq want;
  } cases[] = {
      {"always", changefreq::always},   {"hourly", changefreq::hourly},
      {"daily", changefreq::daily},     {"weekly", changefreq::weekly},
      {"monthly", changefreq::monthly}, {"yearly", changefreq::yearly},
      {"never", changefreq::never},     {" WEEKLY\t", changefreq::weekly},
      {"Monthly", changefreq::monthly},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.in);
    const built b = build(ok_loc, {}, c.in);
    EXPECT_TRUE(b.warnings.empty());
    EXPECT_EQ(b.freq, c.want);
  }
}

TEST(EntryBuilder, BadChangefreqIsDroppedWithAWarning) {
  const struct {
    std::string_view in, shown;
  } cases[] = {
      {"sometimes", "sometimes"},
      {"week ly", "week ly"},
      {" dailyy ", "dailyy"},
      {"0.5", "0.5"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.in);
    const built b = build(ok_loc, "2024-01-15", c.in, "0.5");
    EXPECT_EQ(b.freq, changefreq::unset);
    EXPECT_EQ(b.lastmod, "2024-01-15");
    EXPECT_EQ(b.prio, "0.5");
    ASSERT_EQ(b.warnings.size(), 1u);
    EXPECT_EQ(b.warnings[0],
              "changefreq \"" + std::string(c.shown) +
                  "\" dropped: not one of always, hourly, daily, weekly, "
                  "monthly, yearly, never");
  }
}

// ---- priority
// ----------------------------------------------------------------

TEST(EntryBuilder, PriorityBecomesItsCanonicalDecimal) {
  const struct {
    std::string_view in, want;
  } cases[] = {
      {"0.5", "0.5"},   {"1", "1.0"},      {"1.0", "1.0"},   {"0", "0.0"},
      {".5", "0.5"},    {"0.80", "0.8"},   {"+0.3", "0.3"},  {"-0.0", "0.0"},
      {" 0.9 ", "0.9"}, {"00.25", "0.25"}, {"1.000", "1.0"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.in);
    const built b = build(ok_loc, {}, {}, c.in);
    EXPECT_TRUE(b.warnings.empty());
    EXPECT_EQ(b.prio, c.want);
  }
}

TEST(EntryBuilder, BadPriorityIsDroppedWithAWarning) {
  const struct {
    std::string_view in, shown;
  } cases[] = {
      {"1.5", "1.5"},   {"-0.1", "-0.1"},
      {"high", "high"}, {"1e-1", "1e-1"},
      {"0,5", "0,5"},   {".", "."},
      {" 2 ", "2"},     {"1.0000000001", "1.0000000001"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.in);
    const built b = build(ok_loc, {}, "never", c.in);
    EXPECT_FALSE(b.prio.has_value());
    EXPECT_EQ(b.freq, changefreq::never);
    ASSERT_EQ(b.warnings.size(), 1u);
    EXPECT_EQ(b.warnings[0], "priority \"" + std::string(c.shown) +
                                 "\" dropped: not a decimal from 0.0 to 1.0");
  }
}

// ---- the record as a whole
// ---------------------------------------------------

TEST(EntryBuilder, EmptyOrBlankFieldsAreAbsentWithoutWarnings) {
  const built b = build(ok_loc, " ", "\t", "\r\n");
  EXPECT_EQ(b.problem, url_problem::ok);
  EXPECT_FALSE(b.lastmod.has_value());
  EXPECT_EQ(b.freq, changefreq::unset);
  EXPECT_FALSE(b.prio.has_value());
  EXPECT_TRUE(b.warnings.empty());
}

TEST(EntryBuilder, EveryBadFieldGetsOneWarningInFieldOrder) {
  const built b = build(ok_loc, "never", "2024-01-15", "maybe");
  EXPECT_EQ(b.loc, ok_loc);
  ASSERT_EQ(b.warnings.size(), 3u);
  EXPECT_TRUE(b.warnings[0].starts_with("lastmod \"never\""));
  EXPECT_TRUE(b.warnings[1].starts_with("changefreq \"2024-01-15\""));
  EXPECT_TRUE(b.warnings[2].starts_with("priority \"maybe\""));
}

TEST(EntryBuilder, AHugeBadValueIsShortenedInItsWarning) {
  const std::string huge(500, '9');
  const built b = build(ok_loc, {}, {}, huge);
  ASSERT_EQ(b.warnings.size(), 1u);
  EXPECT_EQ(b.warnings[0], "priority \"" + std::string(120, '9') +
                               "...\" dropped: not a decimal from 0.0 to 1.0");
}

TEST(EntryBuilder, NothingCarriesOverFromTheEntryBefore) {
  entry_builder builder{url_normalizer{}};
  url_entry e;
  std::vector<field_warning> warnings;
  ASSERT_EQ(builder
                .build("https://example.com/a#x", "2024-01-15", "daily", "0.5",
                       e, warnings)
                .problem,
            url_problem::ok);
  ASSERT_TRUE(builder.build("https://example.com/b", "bad", {}, {}, e, warnings)
                  .problem == url_problem::ok);
  const auto o =
      builder.build("https://example.com/c", {}, {}, {}, e, warnings);
  EXPECT_EQ(o.problem, url_problem::ok);
  EXPECT_FALSE(o.notes.fragment_removed);
  EXPECT_EQ(e.loc, "https://example.com/c");
  EXPECT_FALSE(e.lastmod.has_value());
  EXPECT_EQ(e.freq, changefreq::unset);
  EXPECT_FALSE(e.prio.has_value());
  EXPECT_TRUE(warnings.empty());
}

TEST(EntryBuilder, BuildInTwoStepsGivesWhatBuildGives) {
  // The threaded entry stage calls build_loc() and build_fields(); generate
  // without threads and the tests call build(). Both must agree.
  const struct {
    std::string_view loc, lastmod, freq, prio;
  } cases[] = {
      {"https://example.com/a", "2024-01-15T10:30Z", "Weekly", ".5"},
      {"https://example.com/b#f", "2024-02-30", "often", "2"},
      {"mailto:someone@example.com", "2024", "daily", "1"},
      {" https://example.com/c ", "", " never ", ""},
  };
  entry_builder one{url_normalizer{}};
  entry_builder two{url_normalizer{}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.loc);
    const built whole = build(one, c.loc, c.lastmod, c.freq, c.prio);
    url_entry e;
    std::vector<field_warning> warnings = {{"stale"}};
    const auto o = two.build_loc(c.loc, e);
    if (o.problem == url_problem::ok) {
      two.build_fields(c.lastmod, c.freq, c.prio, e, warnings);
    } else {
      warnings.clear();
    }
    const built split = copy(o, e, warnings);
    EXPECT_EQ(split.problem, whole.problem);
    EXPECT_EQ(split.fragment_removed, whole.fragment_removed);
    EXPECT_EQ(split.loc, whole.loc);
    EXPECT_EQ(split.lastmod, whole.lastmod);
    EXPECT_EQ(split.freq, whole.freq);
    EXPECT_EQ(split.prio, whole.prio);
    EXPECT_EQ(split.warnings, whole.warnings);
  }
}

}  // namespace
}  // namespace sitemill
