// entry_builder::build_fields() parses a W3C lastmod straight into the entry
// (lastmod_reader::read_w3c(), then read_rest() for anything else) where it
// copied read()'s result. The entry it builds must hold what read() gives,
// for every reader configuration: the value, its note, the warning and the
// dropped flag. read() is the oracle; it is itself read_w3c() + read_rest(),
// so the second half checks that pair against the parser and the general
// reader on their own.
#include <gtest/gtest.h>

#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "detail/text.h"
#include "sitemill/date/lastmod_reading.h"
#include "sitemill/date/w3c_datetime.h"
#include "sitemill/entry/entry.h"
#include "sitemill/url/url.h"

namespace sitemill {
namespace {

std::string show(const std::optional<w3c_datetime>& v) {
  if (!v) return "none";
  char buf[max_lastmod_length];
  std::string s(buf, format_lastmod(*v, buf));
  char more[64];
  std::snprintf(more, sizeof more, " form%d n%u fd%u",
                static_cast<int>(v->form), v->nanos, v->fraction_digits);
  return s + more;
}

// Lastmods of every kind the readers tell apart: the common W3C forms, the
// other W3C forms, SQL and RFC dates, Unix time, a pattern's shape,
// impossible and malformed values, whitespace around them.
std::vector<std::string> samples() {
  std::vector<std::string> v = {
      "2024-02-29",
      "2023-08-09T02:17:08Z",
      "2022-02-12T09:52:54+03:00",
      "1999-12-31T23:59:59-00:00",
      "2024",
      "2024-05",
      "2024-05-14T10:23Z",
      "2024-05-14T10:23:00.123456789123+02:00",
      "2024-05-14 10:23:00",
      "2024-05-14 10:23:00 +0200",
      "2024-05-14T10:23:00",
      "Wed, 14 May 2025 10:23:00 GMT",
      "Wed, 14 May 2025 10:23:00",
      "1715682180",
      "1715682180123",
      "14.05.2025",
      "2025/05/14",
      "2023-02-29",
      "2024-13-01",
      "2024-01-15T24:00:00Z",
      "2024-01-15T10:00:00+14:01",
      "yesterday",
      "",
      "  2024-02-29  ",
      "\t2023-08-09T02:17:08Z",
  };
  // Mutations of the common forms: every position to a digit, a separator
  // or a letter.
  std::mt19937_64 rng(77);
  constexpr std::string_view bytes = "0123456789-:T+Z. xz/";
  for (std::string_view base :
       {"2022-02-12T09:52:54+03:00", "2023-08-09T02:17:08Z", "2024-02-29"}) {
    for (int k = 0; k < 300; ++k) {
      std::string s(base);
      s[rng() % s.size()] = bytes[rng() % bytes.size()];
      v.push_back(s);
    }
  }
  return v;
}

struct config {
  std::vector<std::string> formats;
  std::string zone;
};

TEST(LastmodInPlace, BuildFieldsHoldsWhatReadGives) {
  const std::vector<config> configs = {
      {{}, ""},
      {{"w3c"}, ""},
      {{"auto"}, "Europe/Berlin"},
      {{"%d.%m.%Y"}, ""},
      {{"%d.%m.%Y", "auto"}, "+02:00"},
      {{"%Y/%m/%d", "w3c"}, ""},
  };
  for (const config& c : configs) {
    auto reader = lastmod_reader::create(c.formats, c.zone);
    ASSERT_TRUE(reader) << reader.err().message;
    entry_builder builder(url_normalizer{}, *reader);
    std::vector<field_warning> warnings;
    for (const std::string& text : samples()) {
      url_entry e;
      ASSERT_EQ(builder.build_loc("https://example.com/a", e).problem,
                url_problem::ok);
      const lastmod_outcome got =
          builder.build_fields(text, {}, {}, e, warnings);
      // The oracle: build_fields() as it was, on read().
      const std::string_view trimmed = detail::trim(text);
      std::optional<w3c_datetime> want;
      lastmod_note want_note = lastmod_note::none;
      bool want_dropped = false;
      if (!trimmed.empty()) {
        const lastmod_reading r = reader->read(trimmed);
        if (r.ok()) {
          want = r.value;
          want_note = r.note;
        } else {
          want_dropped = true;
        }
      }
      const std::string where =
          "\"" + text + "\" format " + (c.formats.empty() ? "" : c.formats[0]);
      EXPECT_EQ(show(e.lastmod), show(want)) << where;
      EXPECT_EQ(got.note, want_note) << where;
      EXPECT_EQ(got.dropped, want_dropped) << where;
      EXPECT_EQ(warnings.size(), want_dropped ? 1u : 0u) << where;
    }
  }
}

TEST(LastmodInPlace, ReadW3cThenReadRestIsRead) {
  for (const char* format : {"auto", "w3c", "%d.%m.%Y"}) {
    auto reader = lastmod_reader::create(format, "");
    ASSERT_TRUE(reader);
    for (const std::string& text : samples()) {
      w3c_datetime in_place;
      in_place.year = 1234;  // untouched unless read_w3c() says true
      const bool w3c = reader->read_w3c(text, in_place);
      const lastmod_reading r = reader->read(text);
      if (w3c) {
        ASSERT_TRUE(r.ok()) << text;
        EXPECT_EQ(show(in_place), show(r.value)) << text;
        EXPECT_EQ(r.note, lastmod_note::none) << text;
        w3c_datetime direct;
        EXPECT_EQ(parse_w3c_datetime(text, direct), datetime_problem::ok);
      } else {
        EXPECT_EQ(in_place.year, 1234) << text;
        const lastmod_reading rest = reader->read_rest(text);
        EXPECT_EQ(rest.ok(), r.ok()) << text;
        EXPECT_EQ(rest.why, r.why) << text;
        EXPECT_EQ(rest.note, r.note) << text;
        if (r.ok()) {
          EXPECT_EQ(show(rest.value), show(r.value)) << text;
        }
      }
    }
  }
}

}  // namespace
}  // namespace sitemill
