// sitemill internals: the checks of one value (loc, lastmod, changefreq,
// priority, a feed's date), each against the protocol and, for XML, against
// the XSD type that sitemap.xsd gives it, the way libxml2 2.9 (xmllint)
// decides. docs/protocol.md section 2 and checklist 29-34.
#ifndef SITEMILL_PARSE_VALUE_CHECKS_H
#define SITEMILL_PARSE_VALUE_CHECKS_H

#include <cstddef>
#include <string>
#include <string_view>

#include "parse/context.h"
#include "sitemill/date/dates.h"
#include "sitemill/date/w3c_datetime.h"

namespace sitemill::detail {

/// XML's (and XSD's) whitespace: space, tab, CR, LF.
constexpr bool is_xml_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/// `s` without surrounding XML whitespace.
constexpr std::string_view trim_xml(std::string_view s) noexcept {
  while (!s.empty() && is_xml_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_xml_space(s.back())) s.remove_suffix(1);
  return s;
}

/// `s` without surrounding whitespace of any kind: XML whitespace and the
/// Unicode spaces copy-paste brings (NBSP, U+2000-U+200A, U+3000, BOM, ...).
std::string_view trim_unicode_space(std::string_view s) noexcept;

/// Where a loc comes from, which decides the checks that apply.
enum class loc_source : unsigned char {
  xml,   ///< a <loc>: the XSD's tLoc applies too
  text,  ///< a line of a text sitemap
  feed,  ///< an RSS <link> or an Atom <link href>
};

struct loc_verdict {
  /// The URL to deliver: trimmed of XML and Unicode whitespace.
  std::string_view value;
  /// sitemap.xsd's tLoc accepts the text (xml source and checks on only).
  bool xsd_valid = false;
};

/// Checks a loc as written (entities resolved, not trimmed) and reports
/// each problem at `at`. `scratch` is reused between calls.
loc_verdict check_loc(std::string_view raw, text_pos at, loc_source source,
                      doc_context& doc, std::string& scratch);

/// Checks a lastmod as written; returns whether tLastmod accepts it.
bool check_lastmod(std::string_view raw, text_pos at, doc_context& doc);

/// Checks a changefreq as written; returns whether tChangeFreq accepts it.
bool check_changefreq(std::string_view raw, text_pos at, doc_context& doc);

/// Checks a priority as written; returns whether tPriority accepts it.
bool check_priority(std::string_view raw, text_pos at, doc_context& doc);

/// Checks a feed entry's date as written, through parse_feed_date(), so
/// that it warns feed-date-invalid exactly when generate --from-sitemap
/// cannot convert the date, and feed-date-nonstandard when it converts a
/// date that is not in the element's `format`.
void check_feed_date(std::string_view raw, text_pos at, feed_date_format format,
                     doc_context& doc);

// The predicates behind the checks, exposed for tests and the fuzz target.

/// xsd:anyURI as libxml2 2.9 decides it, for a whitespace-collapsed value:
/// the characters it tolerates replaced by '_', then RFC 3986 parsing.
bool xsd_any_uri(std::string_view collapsed, std::string& scratch);
/// The fast path of xsd_any_uri: true only for plain http(s) URLs it is sure
/// libxml2 accepts; false means "ask libxml2", not "invalid".
bool any_uri_fast_path(std::string_view collapsed) noexcept;
/// tLastmod's verdict for `raw`, given what parse_w3c_datetime() said of
/// it trimmed: the shortcut of check_lastmod, equal to
/// xsd_accepts_lastmod(raw).
bool lastmod_xsd_verdict(std::string_view raw, datetime_problem problem,
                         datetime_form form) noexcept;
/// tPriority as libxml2 2.9 decides it: an xsd:decimal (at most 24
/// significant digits, libxml2's limit) between 0.0 and 1.0.
bool xsd_priority(std::string_view raw) noexcept;

}  // namespace sitemill::detail

#endif  // SITEMILL_PARSE_VALUE_CHECKS_H
