// sitemill internals: the fields of one URL entry as stats and diff read
// them (one reading, so both agree on what a lastmod or priority is).
#ifndef SITEMILL_INSPECT_URL_FIELDS_H
#define SITEMILL_INSPECT_URL_FIELDS_H

#include <cstdint>
#include <optional>
#include <string>

#include "sitemill/date/w3c_datetime.h"
#include "sitemill/parse/sitemap_parser.h"
#include "sitemill/url/url.h"

namespace sitemill::detail {

struct url_fields {
  /// The normalised URL, the identity of an entry across files and sets;
  /// empty when the <loc> is not an http(s) URL (key() is its text then).
  normalized_url url;
  bool lastmod_present = false;
  /// The lastmod read (a feed's date converted); none when absent or not a
  /// date.
  std::optional<w3c_datetime> lastmod;
  /// stats.h slots: changefreq_slots and priority_slots.
  std::uint8_t changefreq = 0;
  std::uint8_t priority = 0;
};

/// What identifies `e`: its normalised URL, else its <loc> text.
inline std::string_view key_of(const url_fields& f, const parsed_entry& e) {
  return f.url.empty() ? e.loc.text : f.url.href();
}

/// Reads `e` (of a document of `kind`) into `out`, reusing its buffers.
void read_url_fields(const parsed_entry& e, document_kind kind,
                     url_fields& out);

/// 64-bit hash of an entry's extension values (fields, items and text), 0
/// for none: what diff compares.
std::uint64_t extensions_hash(std::span<const extension_value> values) noexcept;

}  // namespace sitemill::detail

#endif  // SITEMILL_INSPECT_URL_FIELDS_H
