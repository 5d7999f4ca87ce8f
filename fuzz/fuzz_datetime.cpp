// Fuzzes the field parsers (lastmod, priority, changefreq) and the feed and
// HTTP date parsers with the same bytes and aborts when an invariant breaks,
// not only on a crash:
//  * an accepted lastmod formats to text that re-parses, that sitemap.xsd
//    accepts, and that formats to itself (format is idempotent); the instant
//    is unchanged; forms the XSD shares are written back byte for byte;
//  * W3C and XSD agree on the three shared forms and disagree on the others;
//  * a priority's canonical text re-parses to itself;
//  * a changefreq's spelling re-parses to the same value;
//  * a feed date reads in every element or in none (check and generate
//    agree), and converts to a lastmod that re-parses as a W3C datetime
//    naming the same instant and converts to itself (converting twice is
//    stable);
//  * an HTTP date converts the same way, and an IMF-fixdate reads as the
//    same RFC 822 date in a feed.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "sitemill/date/dates.h"
#include "sitemill/date/w3c_datetime.h"
#include "sitemill/entry/fields.h"

namespace {

void check(bool condition) {
  if (!condition) std::abort();
}

void fuzz_lastmod(std::string_view text) {
  using sitemill::datetime_form;
  sitemill::w3c_datetime value;
  const bool xsd = sitemill::xsd_accepts_lastmod(text);
  if (sitemill::parse_w3c_datetime(text, value) !=
      sitemill::datetime_problem::ok)
    return;
  check(!sitemill::describe(sitemill::datetime_problem::ok).empty());

  // Dates, seconds and fractions are XSD forms; year, year-month and
  // minutes-without-seconds are not (docs/protocol.md section 2).
  const bool shared = value.form == datetime_form::date ||
                      value.form == datetime_form::seconds ||
                      value.form == datetime_form::fraction;
  check(xsd == shared);

  char once[sitemill::max_lastmod_length];
  const std::size_t once_len = sitemill::format_lastmod(value, once);
  check(once_len <= sitemill::max_lastmod_length);
  const std::string_view written(once, once_len);
  check(sitemill::xsd_accepts_lastmod(written));

  sitemill::w3c_datetime again;
  check(sitemill::parse_w3c_datetime(written, again) ==
        sitemill::datetime_problem::ok);
  check(again.unix_seconds() == value.unix_seconds());
  check(again.nanos == value.nanos);
  check(again.form == datetime_form::date ||
        again.form == datetime_form::seconds ||
        again.form == datetime_form::fraction);

  char twice[sitemill::max_lastmod_length];
  const std::size_t twice_len = sitemill::format_lastmod(again, twice);
  check(std::string_view(twice, twice_len) == written);

  // Nothing is lost when the input was already in a written form.
  const bool exact =
      value.form == datetime_form::date ||
      value.form == datetime_form::seconds ||
      (value.form == datetime_form::fraction && text.size() == once_len);
  if (exact) check(written == text);
}

void fuzz_priority(std::string_view text) {
  const std::optional<sitemill::priority> p = sitemill::priority::parse(text);
  if (!p) return;
  const std::string_view canonical = p->text();
  check(canonical.size() >= 3 &&
        canonical.size() <= 2 + sitemill::priority::max_fraction_digits);
  check(canonical == "1.0" || canonical.substr(0, 2) == "0.");
  check(canonical == "0.0" || canonical.size() == 3 || canonical.back() != '0');
  const std::optional<sitemill::priority> again =
      sitemill::priority::parse(canonical);
  check(again.has_value() && again->text() == canonical);
}

void fuzz_changefreq(std::string_view text) {
  const std::optional<sitemill::changefreq> value =
      sitemill::parse_changefreq(text);
  if (!value) return;
  check(*value != sitemill::changefreq::unset);
  const std::string_view spelling = sitemill::to_string(*value);
  check(!spelling.empty());
  check(sitemill::parse_changefreq(spelling) == value);
}

// `value`, written as a lastmod, re-parses to the same instant.
void check_converts(const sitemill::w3c_datetime& value) {
  char buf[sitemill::max_lastmod_length];
  const std::string_view written(buf, sitemill::format_lastmod(value, buf));
  sitemill::w3c_datetime again;
  check(sitemill::parse_w3c_datetime(written, again) ==
        sitemill::datetime_problem::ok);
  check(again.unix_seconds() == value.unix_seconds());
  check(again.nanos == value.nanos);
  check(sitemill::to_time_point(value).time_since_epoch().count() ==
        value.unix_seconds());
}

void fuzz_feed_date(std::string_view text) {
  using sitemill::date_problem;
  using sitemill::feed_date_format;
  sitemill::parsed_date pub, atom, dc;
  const date_problem problem =
      sitemill::parse_feed_date(text, feed_date_format::rfc822, pub);
  check(sitemill::parse_feed_date(text, feed_date_format::rfc3339, atom) ==
        problem);
  check(sitemill::parse_feed_date(text, feed_date_format::w3c, dc) == problem);
  check(!sitemill::describe(problem).empty());
  const std::optional<std::string> converted = sitemill::feed_date_to_w3c(text);
  check(converted.has_value() == (problem == date_problem::ok));
  if (!converted) return;
  check(atom.value.unix_seconds() == pub.value.unix_seconds());
  check(dc.value.unix_seconds() == pub.value.unix_seconds());
  check(!sitemill::describe(pub.note).empty());
  check_converts(pub.value);
  check(sitemill::xsd_accepts_lastmod(*converted));
  check(sitemill::feed_date_to_w3c(*converted) == converted);
}

void fuzz_http_date(std::string_view text) {
  sitemill::parsed_date http;
  if (sitemill::parse_http_date(text, 2024, http) != sitemill::date_problem::ok)
    return;
  check(http.value.zulu);
  check_converts(http.value);
  if (http.syntax != sitemill::date_syntax::imf_fixdate) return;
  sitemill::parsed_date feed;
  check(sitemill::parse_feed_date(text, sitemill::feed_date_format::rfc822,
                                  feed) == sitemill::date_problem::ok);
  check(feed.value.unix_seconds() == http.value.unix_seconds());
  check(feed.note == http.note);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  // Every parser sees every input: they are cheap, and one corpus serves all.
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  fuzz_lastmod(text);
  fuzz_priority(text);
  fuzz_changefreq(text);
  fuzz_feed_date(text);
  fuzz_http_date(text);
  return 0;
}
