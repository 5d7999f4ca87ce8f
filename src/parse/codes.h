// sitemill internals: the stable diagnostic codes of sitemap_parser, each
// with its one severity, so a code always means the same level of trouble.
// docs/diagnostics-document.md lists them for users; a test keeps the two in
// step.
#ifndef SITEMILL_PARSE_CODES_H
#define SITEMILL_PARSE_CODES_H

#include <cstdint>
#include <span>
#include <string_view>

#include "sitemill/diagnostic.h"

namespace sitemill::detail {

/// Every finding the parser can report about one document.
enum class doc_code : std::uint8_t {
  // The bytes: container, compression, size.
  empty_document,
  binary_content,
  unsupported_compression,
  gzip_corrupt,
  gzip_truncated,
  gzip_trailing_data,
  decompressed_too_large,
  input_too_large,
  too_large,
  // XML itself.
  not_well_formed,
  truncated,
  invalid_utf8,
  encoding_not_utf8,
  xml_declaration_not_first,
  entity_undefined,
  doctype,
  dtd_entity,
  namespace_error,
  xml_warning,
  // The root and its namespace.
  unknown_root,
  namespace_missing,
  namespace_legacy,
  namespace_wrong,
  // Structure (sitemap.xsd, siteindex.xsd).
  no_entries,
  too_many_entries,
  wrong_child,
  entry_no_namespace,
  unknown_element,
  element_order,
  duplicate_loc,
  duplicate_element,
  missing_loc,
  nested_element,
  unexpected_text,
  unexpected_attribute,
  index_entry_field,
  extension_unknown_namespace,
  extension_namespace_wrong,
  xsd_extension,
  extension_too_large,
  extension_not_kept,
  // What Google asks of the extensions beyond their schemas (section 3).
  image_too_many,
  video_missing_field,
  news_too_old,
  news_too_many,
  hreflang_invalid,
  hreflang_missing_href,
  hreflang_no_self,
  hreflang_duplicate_language,
  hreflang_x_default_only,
  // <loc> (and a text line, a feed link).
  loc_empty,
  loc_not_absolute,
  loc_not_http,
  loc_too_long,
  loc_length_2048,
  loc_too_short,
  loc_bad_percent,
  loc_space,
  loc_unsafe_char,
  loc_non_ascii,
  loc_whitespace,
  loc_not_xsd,
  loc_fragment,
  // <lastmod>.
  lastmod_malformed,
  lastmod_no_zone,
  lastmod_impossible,
  lastmod_not_xsd,
  lastmod_not_w3c,
  lastmod_padded,
  lastmod_future,
  lastmod_all_same,
  // <changefreq>, <priority>.
  changefreq_invalid,
  changefreq_case,
  changefreq_padded,
  priority_invalid,
  priority_out_of_range,
  // Text sitemaps and feeds.
  text_not_url,
  feed_item_no_link,
  feed_date_invalid,
  feed_date_nonstandard,
  feed_empty,
  count_,
};

struct doc_code_info {
  doc_code code;
  std::string_view name;  ///< the stable kebab-case code
  severity level;
  std::string_view section;  ///< where docs/protocol.md states the rule
};

/// The entry of `code`.
const doc_code_info& info(doc_code code) noexcept;

/// Every code, in the enum's order.
std::span<const doc_code_info> all_document_codes() noexcept;

/// The entry named `name`, or nullptr when the parser never reports it.
const doc_code_info* find_document_code(std::string_view name) noexcept;

}  // namespace sitemill::detail

#endif  // SITEMILL_PARSE_CODES_H
