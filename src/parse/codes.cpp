#include "parse/codes.h"

#include <array>

namespace sitemill::detail {
namespace {

using enum severity;
using c = doc_code;

constexpr std::array<doc_code_info, static_cast<std::size_t>(c::count_)> table{{
    {c::empty_document, "empty-document", error, "1"},
    {c::binary_content, "binary-content", error, "6.C 22"},
    {c::unsupported_compression, "unsupported-compression", error,
     "1.3, 6.A 12"},
    {c::gzip_corrupt, "gzip-corrupt", error, "6.D 24"},
    {c::gzip_truncated, "gzip-truncated", error, "6.D 24, 7 E28"},
    {c::gzip_trailing_data, "gzip-trailing-data", warning, "6.A 12"},
    {c::decompressed_too_large, "decompressed-too-large", error, "6.D 25"},
    {c::input_too_large, "input-too-large", error, "6.D 25"},
    {c::too_large, "too-large", error, "1.3, 6.D 35"},
    {c::not_well_formed, "not-well-formed", error, "6.D 26"},
    {c::truncated, "truncated", error, "6.D 26, 7 E28"},
    {c::invalid_utf8, "invalid-utf8", error, "1, 6.D 36"},
    {c::encoding_not_utf8, "encoding-not-utf8", error, "6.D 36, 7 E4"},
    {c::xml_declaration_not_first, "xml-declaration-not-first", error,
     "6.A 1, 7 E2"},
    {c::entity_undefined, "entity-undefined", error, "6.A 6, 7 E6"},
    {c::doctype, "doctype", warning, "6.D 25"},
    {c::dtd_entity, "dtd-entity", error, "6.D 25, 7 E32"},
    {c::namespace_error, "namespace-error", error, "6.D 27"},
    {c::xml_warning, "xml-warning", warning, "6.D 26"},
    {c::unknown_root, "unknown-root", error, "6.D 24"},
    {c::namespace_missing, "namespace-missing", warning, "6.D 27, 7 E21"},
    {c::namespace_legacy, "namespace-legacy", warning, "6.D 27, 7 E21"},
    {c::namespace_wrong, "namespace-wrong", error, "1, 6.D 27"},
    {c::no_entries, "no-entries", error, "6.A 3, 7 E20"},
    {c::too_many_entries, "too-many-entries", error, "1.3, 6.D 35"},
    {c::wrong_child, "wrong-child", error, "6.D 40, 7 E26"},
    {c::entry_no_namespace, "entry-no-namespace", error, "6.D 28, 6.D 27"},
    {c::unknown_element, "unknown-element", error, "6.D 28, 7 E23"},
    {c::element_order, "element-order", warning, "6.A 4, 6.D 28, 7 E19"},
    {c::duplicate_loc, "duplicate-loc", error, "6.D 28"},
    {c::duplicate_element, "duplicate-element", warning, "6.D 28, 7 E19"},
    {c::missing_loc, "missing-loc", error, "1, 6.D 28, 7 E27"},
    {c::nested_element, "nested-element", error, "6.D 40"},
    {c::unexpected_text, "unexpected-text", warning, "6.D 28"},
    {c::unexpected_attribute, "unexpected-attribute", warning, "6.D 28"},
    {c::index_entry_field, "index-entry-field", warning, "6.B 16"},
    {c::extension_unknown_namespace, "extension-unknown-namespace", info,
     "6.D 39, 7 E24"},
    {c::extension_namespace_wrong, "extension-namespace-wrong", warning,
     "3, 6.A 2, 6.D 39"},
    {c::xsd_extension, "xsd-extension", warning, "6.A 13-14, 7 E34-E36"},
    {c::extension_too_large, "extension-too-large", info, "6.D 39"},
    {c::extension_not_kept, "extension-not-kept", warning, "6.A 13-14"},
    {c::image_too_many, "image-too-many", warning, "3, 6.A 13"},
    {c::video_missing_field, "video-missing-field", error, "3, 6.A 13"},
    {c::news_too_old, "news-too-old", warning, "3"},
    {c::news_too_many, "news-too-many", warning, "3"},
    {c::hreflang_invalid, "hreflang-invalid", error, "3, 6.A 14, 7 E34"},
    {c::hreflang_missing_href, "hreflang-missing-href", error, "3, 6.A 14"},
    {c::hreflang_no_self, "hreflang-no-self", warning, "3, 6.A 14"},
    {c::hreflang_duplicate_language, "hreflang-duplicate-language", error,
     "3, 6.A 14"},
    {c::hreflang_x_default_only, "hreflang-x-default-only", warning,
     "3, 6.A 14"},
    {c::loc_empty, "loc-empty", error, "6.D 31"},
    {c::loc_not_absolute, "loc-not-absolute", error, "6.D 31, 7 E11"},
    {c::loc_not_http, "loc-not-http", error, "6.D 31"},
    {c::loc_too_long, "loc-too-long", error, "6.D 31, 7 E13"},
    {c::loc_length_2048, "loc-length-2048", warning, "6.D 31, 7 E13"},
    {c::loc_too_short, "loc-too-short", warning, "1.1, 7 E12"},
    {c::loc_bad_percent, "loc-bad-percent", error, "6.D 31"},
    {c::loc_space, "loc-space", warning, "6.D 31, 7 E14"},
    {c::loc_unsafe_char, "loc-unsafe-char", warning, "1.2, 6.D 31"},
    {c::loc_non_ascii, "loc-non-ascii", warning, "6.D 31"},
    {c::loc_whitespace, "loc-whitespace", warning, "6.D 29, 7 E10"},
    {c::loc_not_xsd, "loc-not-xsd", warning, "1.1, 6.D 31"},
    {c::loc_fragment, "loc-fragment", warning, "6.D 31"},
    {c::lastmod_malformed, "lastmod-malformed", error, "2, 6.D 32"},
    {c::lastmod_no_zone, "lastmod-no-zone", error, "2, 6.D 32"},
    {c::lastmod_impossible, "lastmod-impossible", error, "2, 6.D 32"},
    {c::lastmod_not_xsd, "lastmod-not-xsd", warning, "2, 6.D 32"},
    {c::lastmod_not_w3c, "lastmod-not-w3c", warning, "2"},
    {c::lastmod_padded, "lastmod-padded", warning, "2"},
    {c::lastmod_future, "lastmod-future", warning, "6.D 32"},
    {c::lastmod_all_same, "lastmod-all-same", warning, "3, 6.D 32"},
    {c::changefreq_invalid, "changefreq-invalid", error, "1.1, 6.D 33"},
    {c::changefreq_case, "changefreq-case", error, "6.D 33, 7 E16"},
    {c::changefreq_padded, "changefreq-padded", warning, "6.D 29"},
    {c::priority_invalid, "priority-invalid", error, "6.D 34, 7 E18"},
    {c::priority_out_of_range, "priority-out-of-range", error, "6.D 34, 7 E18"},
    {c::text_not_url, "text-not-url", error, "1.5, 6.C 22"},
    {c::feed_item_no_link, "feed-item-no-link", warning, "1.5"},
    {c::feed_date_invalid, "feed-date-invalid", warning, "1.5, 6.E 43"},
    {c::feed_date_nonstandard, "feed-date-nonstandard", warning, "1.5, 6.E 43"},
    {c::feed_empty, "feed-empty", warning, "1.5"},
}};

constexpr bool table_in_enum_order() {
  for (std::size_t i = 0; i < table.size(); ++i)
    if (static_cast<std::size_t>(table[i].code) != i) return false;
  return true;
}
static_assert(table_in_enum_order(), "codes table out of step with doc_code");

}  // namespace

const doc_code_info& info(doc_code code) noexcept {
  return table[static_cast<std::size_t>(code)];
}

std::span<const doc_code_info> all_document_codes() noexcept { return table; }

const doc_code_info* find_document_code(std::string_view name) noexcept {
  for (const auto& entry : table)
    if (entry.name == name) return &entry;
  return nullptr;
}

}  // namespace sitemill::detail
