#include "parse/value_checks.h"

#include <libxml/uri.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <utility>

#include "detail/text.h"
#include "parse/url_scan.h"
#include "sitemill/date/w3c_datetime.h"
#include "sitemill/limits.h"

namespace sitemill::detail {
namespace {

// The UTF-8 encodings of the Unicode spaces that surround pasted URLs.
constexpr std::array<std::string_view, 20> unicode_spaces = {
    "\xC2\xA0",      // U+00A0 no-break space
    "\xC2\x85",      // U+0085 next line
    "\xE1\x9A\x80",  // U+1680
    "\xE2\x80\x80", "\xE2\x80\x81", "\xE2\x80\x82", "\xE2\x80\x83",
    "\xE2\x80\x84", "\xE2\x80\x85", "\xE2\x80\x86", "\xE2\x80\x87",
    "\xE2\x80\x88", "\xE2\x80\x89", "\xE2\x80\x8A",  // U+2000..U+200A
    "\xE2\x80\x8B",                                  // U+200B zero width
    "\xE2\x80\xA8", "\xE2\x80\xA9",                  // line, paragraph sep.
    "\xE2\x80\xAF",                                  // U+202F
    "\xE3\x80\x80",                                  // U+3000
    "\xEF\xBB\xBF",                                  // U+FEFF
};

std::size_t leading_space(std::string_view s) noexcept {
  if (s.empty()) return 0;
  if (is_ascii_space(s[0])) return 1;
  if (static_cast<unsigned char>(s[0]) < 0x80) return 0;
  for (const auto sp : unicode_spaces)
    if (s.starts_with(sp)) return sp.size();
  if (s.starts_with("\xE2\x81\x9F")) return 3;  // U+205F
  return 0;
}

std::size_t trailing_space(std::string_view s) noexcept {
  if (s.empty()) return 0;
  if (is_ascii_space(s.back())) return 1;
  if (static_cast<unsigned char>(s.back()) < 0x80) return 0;
  for (const auto sp : unicode_spaces)
    if (s.ends_with(sp)) return sp.size();
  if (s.ends_with("\xE2\x81\x9F")) return 3;
  return 0;
}

// The bytes libxml2 replaces by '_' before parsing an anyURI, since they
// may appear in an IRI or be escaped later (xmlschemastypes.c).
constexpr bool libxml_tolerated(unsigned char c) noexcept {
  return c < 32 || c >= 127 || c == ' ' || c == '<' || c == '>' || c == '"' ||
         c == '{' || c == '}' || c == '|' || c == '\\' || c == '^' ||
         c == '`' || c == '\'';
}

constexpr bool is_unreserved(char c) noexcept {
  return is_ascii_alpha(c) || is_ascii_digit(c) || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

// A host's bytes in fast_any_uri: unreserved, or tolerated (libxml2 reads
// them as '_', which is unreserved).
constexpr std::array<bool, 256> make_host_bytes() {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c)
    t[static_cast<std::size_t>(c)] =
        is_unreserved(static_cast<char>(c)) ||
        libxml_tolerated(static_cast<unsigned char>(c));
  return t;
}
constexpr std::array<bool, 256> host_byte = make_host_bytes();

// Where the host of a plain http(s) URL ends: for "http(s)://" (scheme in
// any case), then a host of unreserved or libxml2-tolerated bytes, an
// optional port of 1 to 5 digits, and the end or '/', '?', '#', the index
// of the host's end; 0 for any other URL. One pass over the authority that
// answers both fast_any_uri's question and check_loc's "has it a host?":
// such a host holds no '@', ':', '[' or '%', so check_loc's general split
// finds the same non-empty host.
std::size_t plain_http_host_end(std::string_view s) noexcept {
  if (s.size() < 8 || (s[0] | 0x20) != 'h' || (s[1] | 0x20) != 't' ||
      (s[2] | 0x20) != 't' || (s[3] | 0x20) != 'p')
    return 0;
  std::size_t i = (s[4] | 0x20) == 's' ? 5 : 4;
  if (s[i] != ':' || s[i + 1] != '/' || i + 2 >= s.size() || s[i + 2] != '/')
    return 0;
  i += 3;
  const std::size_t host = i;
  while (i < s.size() && host_byte[static_cast<unsigned char>(s[i])]) ++i;
  if (i == host) return 0;
  const std::size_t host_end = i;
  if (i < s.size() && s[i] == ':') {
    const std::size_t port = ++i;
    while (i < s.size() && is_ascii_digit(s[i])) ++i;
    if (i == port || i - port > 5) return 0;
  }
  return i == s.size() || s[i] == '/' || s[i] == '?' || s[i] == '#' ? host_end
                                                                    : 0;
}

// plain_http_host_end() for a loc on the origin the last one was on: its
// bytes up to the authority's end are the same, and the byte after them one
// that ends an authority, so the answer is too.
std::size_t plain_http_host_end(std::string_view s,
                                doc_context::loc_origin& last) noexcept {
  const std::size_t n = last.origin.size();
  if (n != 0 && s.size() >= n &&
      std::memcmp(s.data(), last.origin.data(), n) == 0 &&
      (s.size() == n || s[n] == '/' || s[n] == '?' || s[n] == '#'))
    return last.host_end;
  const std::size_t host_end = plain_http_host_end(s);
  if (host_end != 0) {
    std::size_t end = host_end;  // past a port
    if (end < s.size() && s[end] == ':')
      for (++end; end < s.size() && is_ascii_digit(s[end]);) ++end;
    last.origin.assign(s.substr(0, end));
    last.host_end = host_end;
  }
  return host_end;
}

// The scan's part of fast_any_uri: no bad escape, no bracket, at most one
// '#'. Past the authority every other byte is a pchar, '/', '?', '#' or
// tolerated.
constexpr bool scan_allows_any_uri(const url_scan& scan) noexcept {
  return !scan.bad_percent && !scan.brackets && scan.hashes <= 1;
}

// True when libxml2 surely accepts `s` as an anyURI: http(s)://host[:port]
// then pchars, '/', '?' and at most one '#', escapes whole. The characters
// libxml2 tolerates count as the '_' it turns them into.
bool fast_any_uri(std::string_view s, const url_scan& scan) noexcept {
  return scan_allows_any_uri(scan) && plain_http_host_end(s) != 0;
}

std::string quoted(std::string_view label, std::string_view value) {
  std::string m(label);
  m += " \"";
  append_printable(m, value);
  m += '"';
  return m;
}

// RFC 3986 3.5: the first '#' starts the fragment. Crawlers drop it, so the
// entry names the page without it (generate removes it).
void report_fragment(std::string_view what, std::string_view value, text_pos at,
                     doc_context& doc) {
  doc.report(doc_code::loc_fragment, at,
             quoted(std::string(what), value) +
                 " has a #fragment, which search engines drop (it names the "
                 "page without it): remove it, and list the page once");
}

// The scheme and host of a non-empty loc that is not a plain http(s) URL
// (plain_http_host_end() says 0): an absolute http(s) URL with a host
// (checklist 31; the XSD accepts relative references, so this is the
// validator's own check).
void check_scheme_and_host(std::string_view what, std::string_view value,
                           const url_scan& scan, text_pos at,
                           doc_context& doc) {
  std::size_t i = 0;
  if (is_ascii_alpha(value[0])) {
    i = 1;
    while (i < value.size() &&
           (is_ascii_alpha(value[i]) || is_ascii_digit(value[i]) ||
            value[i] == '+' || value[i] == '-' || value[i] == '.'))
      ++i;
  }
  if (i == 0 || i >= value.size() || value[i] != ':') {
    std::string m =
        quoted(std::string(what), value) + " is not an absolute URL: ";
    if (value.starts_with("//"))
      m += "add the scheme, https: or http:, in front";
    else if (value[0] == '/' || value[0] == '.' || value[0] == '?')
      m += "it is relative; write the full URL with scheme and host, such as "
           "https://www.example.com/page";
    else
      m += "begin it with https:// or http:// and the host name";
    doc.report(doc_code::loc_not_absolute, at, std::move(m));
  } else {
    const std::string_view scheme = value.substr(0, i);
    const bool http = (i == 4 || (i == 5 && (scheme[4] | 0x20) == 's')) &&
                      (scheme[0] | 0x20) == 'h' && (scheme[1] | 0x20) == 't' &&
                      (scheme[2] | 0x20) == 't' && (scheme[3] | 0x20) == 'p';
    if (!http) {
      std::string m = quoted(std::string(what), value) + " uses the scheme \"";
      append_printable(m, scheme);
      m += "\": sitemaps list only http and https URLs";
      doc.report(doc_code::loc_not_http, at, std::move(m));
    } else {
      std::string_view rest = value.substr(i + 1);
      std::string_view host;
      if (rest.starts_with("//")) {
        rest.remove_prefix(2);
        std::size_t k = 0;
        while (k < rest.size() && rest[k] != '/' && rest[k] != '?' &&
               rest[k] != '#')
          ++k;
        host = rest.substr(0, k);
        const std::size_t at_sign = host.rfind('@');
        if (at_sign != std::string_view::npos) host.remove_prefix(at_sign + 1);
        if (!host.starts_with('[')) host = host.substr(0, host.find(':'));
      }
      if (host.empty()) {
        doc.report(doc_code::loc_not_absolute, at,
                   quoted(std::string(what), value) +
                       " has no host: write it as https://host/path");
      } else if (scan.hashes != 0) {
        report_fragment(what, value, at, doc);
      }
    }
  }
}

}  // namespace

std::string_view trim_unicode_space(std::string_view s) noexcept {
  // Printable ASCII at both ends, as nearly every value has, is no space.
  const auto printable = [](char c) { return c > ' ' && c < 0x7F; };
  if (!s.empty() && printable(s.front()) && printable(s.back())) return s;
  for (std::size_t n; (n = leading_space(s)) != 0;) s.remove_prefix(n);
  for (std::size_t n; (n = trailing_space(s)) != 0;) s.remove_suffix(n);
  return s;
}

bool any_uri_fast_path(std::string_view s) noexcept {
  return fast_any_uri(s, scan_url(s));
}

namespace {

bool slow_any_uri(std::string_view s, std::string& scratch) {
  // Exactly what xmlSchemaValAtomicType does: collapse, replace the
  // tolerated bytes, and let xmlParseURI (RFC 3986) decide.
  scratch.clear();
  bool in_space = false;
  for (const char c : s) {
    if (is_xml_space(c)) {
      if (!in_space) scratch.push_back('_');
      in_space = true;
      continue;
    }
    in_space = false;
    scratch.push_back(libxml_tolerated(static_cast<unsigned char>(c)) ? '_'
                                                                      : c);
  }
  xmlURIPtr uri = xmlParseURI(scratch.c_str());
  if (uri == nullptr) return false;
  xmlFreeURI(uri);
  return true;
}

}  // namespace

bool lastmod_xsd_verdict(std::string_view raw, datetime_problem problem,
                         datetime_form form) noexcept {
  // A valid W3C date or date-time with whole seconds is always an
  // xsd:date or xsd:dateTime: the calendar, the ranges (hours 00-23, zones
  // within 14:00) and the shape agree, and the XSD only adds forms. A
  // fraction is summed as a double by libxml2, and a bare year, a month or
  // minutes are XSD-invalid; everything else is decided the XSD's way.
  if (problem == datetime_problem::ok) {
    if (form == datetime_form::date || form == datetime_form::seconds)
      return true;
    if (form != datetime_form::fraction) return false;
  }
  return xsd_accepts_lastmod(raw);
}

bool xsd_any_uri(std::string_view s, std::string& scratch) {
  if (s.empty()) return true;  // libxml2 skips the URI parse of ""
  return fast_any_uri(s, scan_url(s)) || slow_any_uri(s, scratch);
}

bool xsd_priority(std::string_view raw) noexcept {
  // Nearly every priority is "0.d" or "1.0", which the general reading
  // below accepts too.
  if (raw.size() == 3 && raw[1] == '.' && is_ascii_digit(raw[2]) &&
      (raw[0] == '0' || (raw[0] == '1' && raw[2] == '0')))
    return true;
  // Mirrors xmlSchemaValAtomicType's XML_SCHEMAS_DECIMAL branch, including
  // its 24-digit buffer, then the 0.0..1.0 facets.
  const std::string_view s = trim_xml(raw);
  std::size_t i = 0;
  if (s.empty()) return false;
  bool negative = false;
  if (s[0] == '-') {
    negative = true;
    ++i;
  } else if (s[0] == '+') {
    ++i;
  }
  if (i == s.size()) return false;
  bool leading_zeroes = false;
  while (i < s.size() && s[i] == '0') {
    ++i;
    leading_zeroes = true;
  }
  std::size_t len = 0;
  std::size_t integer_digits = std::string_view::npos;
  bool nonzero = false;
  bool first_is_one = false;
  bool fraction_nonzero = false;
  auto take = [&](char c) {
    if (len == 0) first_is_one = c == '1';
    if (c != '0') {
      nonzero = true;
      if (integer_digits != std::string_view::npos) fraction_nonzero = true;
    }
    ++len;
  };
  if (i < s.size()) {
    do {
      if (i >= s.size()) break;
      if (is_ascii_digit(s[i])) {
        take(s[i++]);
      } else if (s[i] == '.') {
        ++i;
        integer_digits = len;
        do {
          if (i < s.size() && is_ascii_digit(s[i])) {
            take(s[i++]);
          } else {
            break;
          }
        } while (len < 24);
        if (len == 0 && !leading_zeroes) return false;
        break;
      } else {
        break;
      }
    } while (len < 24);
  }
  if (i != s.size()) return false;
  if (!nonzero) return true;  // zero, "-0.0" included
  if (negative) return false;
  if (integer_digits == std::string_view::npos) integer_digits = len;
  if (integer_digits == 0) return true;
  return integer_digits == 1 && first_is_one && !fraction_nonzero;
}

loc_verdict check_loc(std::string_view raw, text_pos at, loc_source source,
                      doc_context& doc, std::string& scratch) {
  const std::string_view xml_trimmed = trim_xml(raw);
  const std::string_view value = trim_unicode_space(xml_trimmed);
  loc_verdict verdict{value, false};
  if (!doc.checks()) return verdict;
  const bool xml = source == loc_source::xml;
  const std::string_view what = source == loc_source::xml    ? "<loc>"
                                : source == loc_source::text ? "the URL"
                                                             : "the link";
  const url_scan scan = scan_url(value);
  // Nearly every loc is a plain http(s) URL: its authority is read once
  // here, for the XSD's verdict and the host check below alike.
  const std::size_t host_end =
      plain_http_host_end(value, doc.last_loc_origin());
  std::size_t xsd_length = 0;
  if (xml) {
    // The XSD sees the value before Unicode trimming; nearly always the
    // same bytes, so the one scan serves both.
    const bool same = xml_trimmed.size() == value.size();
    const url_scan xsd_scan = same ? scan : scan_url(xml_trimmed);
    xsd_length = xsd_scan.collapsed;
    const bool fast =
        scan_allows_any_uri(xsd_scan) &&
        (same ? host_end != 0 : plain_http_host_end(xml_trimmed) != 0);
    const bool uri_ok =
        xml_trimmed.empty() || fast || slow_any_uri(xml_trimmed, scratch);
    verdict.xsd_valid = xsd_length >= min_loc_length &&
                        xsd_length <= max_loc_length + 1 && uri_ok;
  }
  bool explained = false;  // a diagnostic below says why the XSD refuses it
  if (value.size() != xml_trimmed.size()) {
    explained = true;
    doc.report(doc_code::loc_whitespace, at,
               quoted(std::string(what), xml_trimmed) +
                   " has non-breaking or other Unicode spaces around it; "
                   "remove them (sitemap.xsd rejects a URL that starts with "
                   "one)");
  }
  if (value.empty()) {
    doc.report(doc_code::loc_empty, at,
               std::string(what) +
                   " is empty: write the page's absolute URL, such as "
                   "https://www.example.com/page");
    return verdict;
  }

  // Scheme and host: an absolute http(s) URL (checklist 31; the XSD
  // accepts relative references, so this is the validator's own check).
  if (host_end != 0) {
    // http(s) with a host: what the general split would find.
    if (scan.hashes != 0) report_fragment(what, value, at, doc);
  } else {
    check_scheme_and_host(what, value, scan, at, doc);
  }

  // Length: the prose says "less than 2,048 characters", the XSD allows
  // 2,048 (docs/protocol.md 9.2), so 2,048 exactly is a warning.
  const std::size_t length = scan.chars;
  if (length > max_loc_length + 1) {
    explained = true;
    doc.report(doc_code::loc_too_long, at,
               std::string(what) + " is " + with_commas(length) +
                   " characters long; the protocol allows fewer than 2,048: "
                   "shorten the URL");
  } else if (length == max_loc_length + 1) {
    doc.report(doc_code::loc_length_2048, at,
               std::string(what) +
                   " is exactly 2,048 characters long: sitemap.xsd accepts "
                   "it, but the protocol asks for fewer than 2,048; shorten "
                   "the URL");
  }
  if (xml && xsd_length < min_loc_length) {
    explained = true;
    doc.report(doc_code::loc_too_short, at,
               quoted(std::string(what), value) + " has " +
                   std::to_string(xsd_length) +
                   " characters; sitemap.xsd requires at least 12 (a real "
                   "URL with scheme and host is longer)");
  }

  // Characters: RFC 3986 percent-encoding, spaces, unsafe and non-ASCII.
  const bool bad_percent = scan.bad_percent, space = scan.space,
             unsafe = scan.unsafe, non_ascii = scan.non_ascii;
  const char unsafe_char = scan.unsafe_char;
  if (bad_percent) {
    explained = true;
    doc.report(doc_code::loc_bad_percent, at,
               quoted(std::string(what), value) +
                   " has a '%' that is not followed by two hex digits: write "
                   "a literal '%' as %25 and keep escapes such as %20 whole");
  }
  if (space) {
    doc.report(doc_code::loc_space, at,
               quoted(std::string(what), value) +
                   " contains whitespace: percent-encode a space as %20");
  }
  if (unsafe) {
    std::string m =
        quoted(std::string(what), value) + " contains the character '";
    append_printable(m, std::string_view(&unsafe_char, 1));
    m += "', which a URI may not hold as is: percent-encode it";
    doc.report(doc_code::loc_unsafe_char, at, std::move(m));
  }
  if (non_ascii) {
    doc.report(doc_code::loc_non_ascii, at,
               quoted(std::string(what), value) +
                   " contains non-ASCII characters (an IRI): percent-encode "
                   "their UTF-8 bytes (\xC3\xBC becomes %C3%BC) and write "
                   "the host in punycode");
  }
  if (xml && !verdict.xsd_valid && !explained) {
    doc.report(doc_code::loc_not_xsd, at,
               quoted(std::string(what), value) +
                   " is not an xsd:anyURI as sitemap.xsd requires: "
                   "percent-encode characters such as '[' and ']' in the "
                   "path, keep at most one '#', and give a port digits");
  }
  return verdict;
}

bool check_lastmod(std::string_view raw, text_pos at, doc_context& doc) {
  const std::string_view t = trim_xml(raw);
  w3c_datetime dt;
  const datetime_problem problem = parse_w3c_datetime(t, dt);
  const bool xsd = lastmod_xsd_verdict(raw, problem, dt.form);
  if (!doc.checks()) return xsd;
  if (t.empty()) {
    doc.report(doc_code::lastmod_malformed, at,
               "<lastmod> is empty: write the date the page last changed, "
               "such as 2024-05-17, or leave the element out");
    return xsd;
  }
  switch (problem) {
    case datetime_problem::ok:
      if (!xsd) {
        std::string m = quoted("lastmod", t) + " is a W3C datetime, but ";
        if (dt.form == datetime_form::year ||
            dt.form == datetime_form::year_month)
          m += "sitemap.xsd rejects a date without its day: write the full "
               "date, YYYY-MM-DD";
        else if (dt.form == datetime_form::minutes)
          m += "sitemap.xsd rejects a time without seconds: add the seconds, "
               "as in 2005-01-01T10:20:00+01:00";
        else
          m += "sitemap.xsd rejects it: write YYYY-MM-DD or "
               "YYYY-MM-DDThh:mm:ss with a zone";
        doc.report(doc_code::lastmod_not_xsd, at, std::move(m));
      } else if (t.size() != raw.size()) {
        doc.report(doc_code::lastmod_padded, at,
                   quoted("lastmod", raw) +
                       " has whitespace around the date: remove it");
      }
      // A day of slack covers zones and clocks that are a little off; most
      // dates are years old, which the year alone tells.
      if (dt.year >= doc.now_year() &&
          dt.unix_seconds() > doc.now_unix() + 86'400) {
        doc.report(doc_code::lastmod_future, at,
                   quoted("lastmod", t) +
                       " is in the future: give the time the page last "
                       "changed");
      }
      break;
    case datetime_problem::no_timezone:
      doc.report(doc_code::lastmod_no_zone, at,
                 quoted("lastmod", t) +
                     " has a time but no time zone, which Google reports as "
                     "an invalid date: add Z or an offset such as +01:00, or "
                     "write the date alone");
      break;
    case datetime_problem::impossible_date:
    case datetime_problem::impossible_time:
    case datetime_problem::bad_offset:
      doc.report(doc_code::lastmod_impossible, at,
                 quoted("lastmod", t) + ": " + std::string(describe(problem)));
      break;
    case datetime_problem::malformed:
      if (xsd) {
        doc.report(doc_code::lastmod_not_w3c, at,
                   quoted("lastmod", t) +
                       " passes sitemap.xsd but is not a W3C datetime as the "
                       "protocol asks: write YYYY-MM-DD, or "
                       "YYYY-MM-DDThh:mm:ss with Z or +hh:mm");
      } else {
        doc.report(doc_code::lastmod_malformed, at,
                   quoted("lastmod", t) +
                       " is not a W3C datetime: write YYYY-MM-DD, or "
                       "YYYY-MM-DDThh:mm:ss with Z or +hh:mm");
      }
      break;
  }
  return xsd;
}

bool check_changefreq(std::string_view raw, text_pos at, doc_context& doc) {
  static constexpr std::string_view values[] = {
      "always", "hourly", "daily", "weekly", "monthly", "yearly", "never"};
  // Checked first, against the one value with that first letter: nearly
  // every changefreq is valid.
  bool xsd = false;
  if (!raw.empty()) {
    switch (raw[0]) {
      case 'a':
        xsd = raw == values[0];
        break;
      case 'h':
        xsd = raw == values[1];
        break;
      case 'd':
        xsd = raw == values[2];
        break;
      case 'w':
        xsd = raw == values[3];
        break;
      case 'm':
        xsd = raw == values[4];
        break;
      case 'y':
        xsd = raw == values[5];
        break;
      case 'n':
        xsd = raw == values[6];
        break;
      default:
        break;
    }
  }
  if (xsd || !doc.checks()) return xsd;
  const std::string_view t = trim_xml(raw);
  constexpr std::string_view fix =
      ": use one of always, hourly, daily, weekly, monthly, yearly, never";
  for (const auto v : values) {
    if (t == v) {
      doc.report(doc_code::changefreq_padded, at,
                 quoted("changefreq", raw) +
                     " has whitespace around the value, which sitemap.xsd "
                     "rejects: write it as \"" +
                     std::string(v) + '"');
      return xsd;
    }
    if (iequals(t, v)) {
      doc.report(doc_code::changefreq_case, at,
                 quoted("changefreq", t) +
                     " must be lowercase (sitemap.xsd's values are "
                     "case-sensitive): write \"" +
                     std::string(v) + '"');
      return xsd;
    }
  }
  doc.report(doc_code::changefreq_invalid, at,
             quoted("changefreq", t) + " is not a changefreq value" +
                 std::string(fix));
  return xsd;
}

bool check_priority(std::string_view raw, text_pos at, doc_context& doc) {
  const bool xsd = xsd_priority(raw);
  if (xsd || !doc.checks()) return xsd;
  const std::string_view t = trim_xml(raw);
  // The xsd:decimal lexical form, [+-]?(d+(.d*)?|.d+), without libxml2's
  // digit limit, to tell "not a number" from "out of range".
  std::size_t i = (!t.empty() && (t[0] == '+' || t[0] == '-')) ? 1 : 0;
  std::size_t int_digits = 0, frac_digits = 0;
  while (i < t.size() && is_ascii_digit(t[i])) ++i, ++int_digits;
  if (i < t.size() && t[i] == '.') {
    ++i;
    while (i < t.size() && is_ascii_digit(t[i])) ++i, ++frac_digits;
  }
  const bool lexical = i == t.size() && int_digits + frac_digits > 0;
  if (!lexical) {
    doc.report(doc_code::priority_invalid, at,
               quoted("priority", t) +
                   " is not a decimal number: write a value from 0.0 to 1.0 "
                   "such as 0.8 (no exponent, no comma, no percent)");
  } else if (int_digits + frac_digits > 24) {
    doc.report(doc_code::priority_invalid, at,
               quoted("priority", t) +
                   " has more digits than schema validators accept: write "
                   "one decimal, such as 0.8");
  } else {
    doc.report(doc_code::priority_out_of_range, at,
               quoted("priority", t) +
                   " is outside 0.0 to 1.0: write a value in that range; "
                   "0.5 is the default");
  }
  return xsd;
}

void check_feed_date(std::string_view raw, text_pos at, feed_date_format format,
                     doc_context& doc) {
  if (!doc.checks()) return;
  const std::string_view t = trim_xml(raw);
  std::string_view expected;
  switch (format) {
    case feed_date_format::rfc822:
      expected =
          "an RFC 822 date such as \"Sat, 07 Sep 2002 00:00:01 GMT\" (RSS 2.0 "
          "pubDate)";
      break;
    case feed_date_format::rfc3339:
      expected =
          "an RFC 3339 date-time such as \"2003-12-13T18:30:02Z\" (Atom "
          "updated)";
      break;
    case feed_date_format::w3c:
      expected = "a W3C datetime such as \"2003-12-13T18:30:02Z\" (dc:date)";
      break;
  }
  parsed_date date;
  const date_problem problem = parse_feed_date(t, format, date);
  if (problem != date_problem::ok) {
    std::string m = quoted("the date", t) + " is not " + std::string(expected);
    if (problem != date_problem::malformed && problem != date_problem::empty) {
      m += ": ";
      m += describe(problem);
      m += ';';
    } else {
      m += ':';
    }
    m += " search engines may ignore it";
    doc.report(doc_code::feed_date_invalid, at, std::move(m));
    return;
  }
  if (date.note == date_note::none) return;
  char w3c[max_lastmod_length];
  std::string m = quoted("the date", t) + " reads as ";
  m.append(w3c, format_lastmod(date.value, w3c));
  m += ", but it is not " + std::string(expected) + ": ";
  m += describe(date.note);
  m += "; search engines may ignore it";
  doc.report(doc_code::feed_date_nonstandard, at, std::move(m));
}

}  // namespace sitemill::detail
