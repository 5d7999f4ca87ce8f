// sitemill: the sitemap extensions (hreflang alternates, images, video,
// news) as one table that every stage shares.
//
// An entry's extension data is a flat list of extension_value: (field, item,
// text). An item is one element the extension adds to <url> (one
// <image:image>, one <xhtml:link>, ...); its fields are the elements and
// attributes inside it, named by keys that follow the XML ("loc",
// "publication.name" for <news:publication><news:name>, "player_loc@autoplay"
// for an attribute). Readers fill the list from JSON keys, CSV columns, HTML
// or XML; the entry stage validates it against the table; the writer
// serialises it in the schemas' order; the parser reads it back; check
// validates it. A new field is one row in the table, nowhere else.
#ifndef SITEMILL_EXTENSIONS_H
#define SITEMILL_EXTENSIONS_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace sitemill {

/// The four extensions sitemill models, in the order their items are
/// written inside a <url>.
enum class extension_kind : std::uint8_t { alternate, image, video, news };
inline constexpr std::size_t extension_kind_count = 4;

/// Bit (1 << kind) set for each extension an entry or file uses.
using extension_mask = std::uint8_t;
constexpr extension_mask mask_of(extension_kind kind) noexcept {
  return static_cast<extension_mask>(1u << static_cast<unsigned>(kind));
}

/// One extension's namespace, as the writer declares it and check knows it.
struct extension_namespace {
  extension_kind kind;
  std::string_view prefix;  ///< "image": written as xmlns:image="..."
  std::string_view uri;   ///< "http://www.google.com/schemas/sitemap-image/1.1"
  std::string_view item;  ///< the element of one item: "image", "link"
  std::string_view schema;  ///< the bundled schema file ("sitemap-image.xsd")
  std::string_view name;    ///< what users call it: "image", "hreflang"
  /// Items one <url> may hold (Google's limits): 1,000 images, one news.
  std::size_t max_items;
};

/// The namespace of `kind`.
const extension_namespace& namespace_of(extension_kind kind) noexcept;
/// The extension whose namespace is exactly `uri`; nullptr for any other.
const extension_namespace* namespace_for_uri(std::string_view uri) noexcept;
/// The extension whose namespace `uri` almost is (a mistake search engines
/// do not forgive: they ignore every element of the wrong namespace): the
/// same URI with https, without or with "www.", a trailing slash, other
/// letter case, or another version ("sitemap-image/2.0"). nullptr when
/// `uri` is exactly a namespace of the table, or nothing like one.
const extension_namespace* namespace_near_uri(std::string_view uri) noexcept;

/// What a field's text must be; the entry stage and check judge values by it.
enum class value_type : std::uint8_t {
  url,  ///< absolute http(s) URL, written percent-encoded
  /// An http(s) URL as `url`, or an absolute URI of another scheme kept as
  /// written (app deep links: android-app://, ios-app://).
  any_uri,
  text,           ///< any text up to max_length characters (0: no limit)
  datetime,       ///< W3C datetime, as lastmod
  integer,        ///< decimal integer in [min, max]
  decimal,        ///< xsd:decimal in [min, max]
  yes_no,         ///< yes or no (the schemas' six spellings)
  choice,         ///< one of `choices` ('|'-separated, case as written)
  hreflang,       ///< a language tag (xs:language) or x-default
  news_language,  ///< ISO 639 code: [a-z]{2,3}, zh-cn or zh-tw
  country_list,   ///< ISO 3166 codes separated by spaces: "US CA"
  platform_list,  ///< web, mobile, tv separated by spaces
  genre_list,     ///< PressRelease, Satire, ... separated by commas
  ticker_list,    ///< up to 5 EXCHANGE:SYMBOL separated by commas
  currency,       ///< ISO 4217: three capital letters
};

/// One field of an extension item: an element or an attribute.
struct extension_field {
  extension_kind kind;
  /// "loc", "publication.name" (nested element), "price@currency"
  /// (attribute of the price element), "@hreflang" (attribute of the item
  /// element itself). Attributes follow their element.
  std::string_view key;
  value_type type;
  bool required = false;    ///< an item without it is dropped
  bool empty_ok = false;    ///< an empty value is a value (video:price)
  bool repeatable = false;  ///< may occur more than once in one item
  /// Google stopped reading it in 2022; kept when given, never invented.
  bool deprecated = false;
  std::uint32_t max_length = 0;   ///< characters; 0: no limit
  std::uint32_t max_repeats = 0;  ///< for repeatable fields; 0: no limit
  double min = 0, max = 0;        ///< range of integer and decimal
  std::string_view choices;       ///< for choice: "allow|deny"
  /// A field of a nested group that may be absent as a whole (video:tvshow)
  /// and that the group needs when it is there: a group without it is
  /// dropped, the item kept.
  bool required_in_group = false;
};

/// Index of a field in extension_fields().
using extension_field_id = std::uint16_t;

/// Every field, grouped by kind in extension_kind order, each kind's fields
/// in the order its schema's sequence writes them.
std::span<const extension_field> extension_fields() noexcept;
/// The fields of one kind: [first, last) ids.
struct field_range {
  extension_field_id first, last;
};
field_range fields_of(extension_kind kind) noexcept;
/// The field of `kind` named `key` (exactly, case-sensitive); an attribute
/// of the item element itself ("@hreflang" of <xhtml:link>) may also be
/// named without its '@'. std::nullopt when there is none.
std::optional<extension_field_id> find_extension_field(
    extension_kind kind, std::string_view key) noexcept;
/// The fields a page's links fill, looked up once: an alternate's hreflang
/// and href, an image's loc (what the directory source, the crawler and
/// page_source() give).
struct link_field_ids {
  extension_field_id hreflang, href, image_loc;
};
const link_field_ids& link_fields() noexcept;
/// The element name of a field as it appears in XML: "name" for
/// "publication.name", "price" for "price@currency".
std::string_view element_of(const extension_field& field) noexcept;
/// True for attribute fields ("price@currency").
bool is_attribute(const extension_field& field) noexcept;
/// The field of the element an attribute field belongs to ("price" for
/// "price@currency"); `id` itself for elements and for attributes of the
/// item element ("@hreflang"), which sit on the item's own tag. An attribute
/// value must follow a value of this field.
extension_field_id element_field(extension_field_id id) noexcept;

/// One value of one item of an entry's extensions. Readers produce them
/// with raw text; the entry stage keeps those that are valid, with the
/// text as it will be written (unescaped). Items are numbered from 0 within
/// an entry; the values of one item are adjacent. An attribute value
/// follows the value of its element (a price's currency follows its price).
/// Views are borrowed from whoever made the list.
struct extension_value {
  extension_field_id field = 0;
  std::uint32_t item = 0;
  std::string_view text;
};

/// The extensions a list of values uses.
extension_mask extensions_used(
    std::span<const extension_value> values) noexcept;

}  // namespace sitemill

#endif  // SITEMILL_EXTENSIONS_H
