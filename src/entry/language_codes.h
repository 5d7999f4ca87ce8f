// Language, script and region codes, for hreflang alternates, news:language
// and the country lists of video restrictions.
//
// hreflang (Google's rules, a subset of BCP 47): an ISO 639-1 language,
// optionally an ISO 15924 script (zh-Hant), optionally a region that is an
// ISO 3166-1 alpha-2 code (de-AT) or a UN M.49 area code registered for
// BCP 47 (es-419), or the special value x-default. Case does not matter
// (en-gb = EN-GB). Three-letter languages ("eng") are refused: Google reads
// only ISO 639-1 in hreflang.
//
// The tables come from Debian's iso-codes (scripts/gen_language_codes.py
// says which codes are left out and why: 'bh', withdrawn from ISO 639-1 in
// 2021, and the private-use ranges). All functions are pure lookups: no
// allocation, safe from any thread.
#ifndef SITEMILL_ENTRY_LANGUAGE_CODES_H
#define SITEMILL_ENTRY_LANGUAGE_CODES_H

#include <string_view>

namespace sitemill::detail {

/// What is wrong with an hreflang value; ok and x_default are both valid.
enum class hreflang_problem {
  ok,
  x_default,
  empty,
  underscore,        // de_DE: BCP 47 separates with '-'
  bad_shape,         // not letters, digits and single hyphens
  unknown_language,  // not an ISO 639-1 code (also "eng", "iw")
  unknown_script,    // a 4-letter part that is not ISO 15924
  unknown_region,    // not ISO 3166-1 alpha-2 nor a BCP 47 M.49 area
  too_many_parts,    // variants, extensions, private use (en-US-x-foo)
};

/// True for an ISO 639-1 code, exactly as written (lowercase): "de".
bool is_iso639_1(std::string_view code) noexcept;

/// True for an ISO 639-2 code, terminology or bibliographic, lowercase: "deu".
bool is_iso639_2(std::string_view code) noexcept;

/// True for an officially assigned ISO 3166-1 alpha-2 code, uppercase: "AT".
bool is_iso3166_alpha2(std::string_view code) noexcept;

/// True for an ISO 15924 script code, title case as registered: "Hant".
bool is_iso15924(std::string_view code) noexcept;

/// True for a UN M.49 area code that BCP 47 registers as a region: "419".
bool is_m49_area(std::string_view code) noexcept;

/// Judges an hreflang value case-insensitively.
hreflang_problem check_hreflang(std::string_view tag) noexcept;

/// A short reason in the diagnostics' style ("use '-' not '_' (de-DE)");
/// empty for ok and x_default. Static storage.
std::string_view describe(hreflang_problem problem) noexcept;

}  // namespace sitemill::detail

#endif  // SITEMILL_ENTRY_LANGUAGE_CODES_H
