#include "sitemill/entry/extensions.h"

#include <algorithm>
#include <array>

namespace sitemill {
namespace {

using enum value_type;
constexpr auto alt = extension_kind::alternate;
constexpr auto img = extension_kind::image;
constexpr auto vid = extension_kind::video;
constexpr auto nws = extension_kind::news;

constexpr std::array<extension_namespace, extension_kind_count> namespaces = {{
    {alt, "xhtml", "http://www.w3.org/1999/xhtml", "link", "xhtml1-strict.xsd",
     "hreflang", 0},
    {img, "image", "http://www.google.com/schemas/sitemap-image/1.1", "image",
     "sitemap-image.xsd", "image", 1000},
    {vid, "video", "http://www.google.com/schemas/sitemap-video/1.1", "video",
     "sitemap-video.xsd", "video", 0},
    {nws, "news", "http://www.google.com/schemas/sitemap-news/0.9", "news",
     "sitemap-news.xsd", "news", 1},
}};

// Helpers that keep the table below one line per field.
constexpr extension_field req(extension_kind k, std::string_view key,
                              value_type t, std::uint32_t max_length = 0) {
  return {k, key, t, true, false, false, false, max_length, 0, 0, 0, {}};
}
constexpr extension_field opt(extension_kind k, std::string_view key,
                              value_type t, std::uint32_t max_length = 0) {
  return {k, key, t, false, false, false, false, max_length, 0, 0, 0, {}};
}
constexpr extension_field old(extension_kind k, std::string_view key,
                              value_type t) {
  return {k, key, t, false, false, false, true, 0, 0, 0, 0, {}};
}
constexpr extension_field many(extension_kind k, std::string_view key,
                               value_type t, std::uint32_t max_repeats = 0) {
  return {k, key, t, false, false, true, false, 0, max_repeats, 0, 0, {}};
}
constexpr extension_field range(extension_kind k, std::string_view key,
                                value_type t, double lo, double hi) {
  return {k, key, t, false, false, false, false, 0, 0, lo, hi, {}};
}
constexpr extension_field pick(extension_kind k, std::string_view key,
                               std::string_view choices, bool required = false,
                               bool deprecated = false) {
  return {k,          key, choice, required, false, false,
          deprecated, 0,   0,      0,        0,     choices};
}
constexpr extension_field may_be_empty(extension_field f) {
  f.empty_ok = true;
  return f;
}
constexpr extension_field required_in_group(extension_field f) {
  f.required_in_group = true;
  return f;
}
constexpr extension_field deprecated(extension_field f) {
  f.deprecated = true;
  return f;
}

// The order within each kind is the order of the schema's sequence
// (sitemap-image.xsd 1.1, sitemap-video.xsd 1.1, sitemap-news.xsd 0.9; for
// <xhtml:link> Google's documented attributes), which is the order the
// writer emits. Attribute fields follow their element.
constexpr extension_field table[] = {
    // <xhtml:link rel="alternate" hreflang="de" href="..."/>
    // A required attribute is required when its element is there. A link
    // without hreflang is kept (app deep links, media alternates) but is
    // not an hreflang alternate.
    // rel is "alternate" unless given (sitemap.js writes rel="amphtml").
    opt(alt, "@rel", text),
    opt(alt, "@hreflang", hreflang),
    req(alt, "@href", any_uri),
    opt(alt, "@media", text),
    // <image:image>
    req(img, "loc", url),
    old(img, "caption", text),
    old(img, "geo_location", text),
    old(img, "title", text),
    old(img, "license", url),
    // <video:video>
    req(vid, "thumbnail_loc", url),
    req(vid, "title", text, 100),
    req(vid, "description", text, 2048),
    opt(vid, "content_loc", url),
    opt(vid, "player_loc", url),
    deprecated(pick(vid, "player_loc@allow_embed", "yes|Yes|YES|no|No|NO")),
    old(vid, "player_loc@autoplay", text),
    range(vid, "duration", integer, 1, 28800),
    opt(vid, "expiration_date", datetime),
    range(vid, "rating", decimal, 0, 5),
    many(vid, "content_segment_loc", url),
    range(vid, "content_segment_loc@duration", integer, 1, 28800),
    range(vid, "view_count", integer, 0, 1e18),
    opt(vid, "publication_date", datetime),
    many(vid, "tag", text, 32),
    deprecated(opt(vid, "category", text, 256)),
    opt(vid, "family_friendly", yes_no),
    opt(vid, "restriction", country_list),
    pick(vid, "restriction@relationship", "allow|deny", true),
    old(vid, "gallery_loc", url),
    old(vid, "gallery_loc@title", text),
    // The schema's price is a string: "a non-negative decimal or empty".
    deprecated(may_be_empty(many(vid, "price", text))),
    old(vid, "price@currency", currency),
    pick(vid, "price@type", "purchase|PURCHASE|rent|RENT", false, true),
    pick(vid, "price@resolution", "sd|SD|hd|HD", false, true),
    opt(vid, "requires_subscription", yes_no),
    opt(vid, "uploader", text, 255),
    opt(vid, "uploader@info", url),
    // sitemap-video.xsd: a tvshow holds a show_title and a video_type.
    required_in_group(old(vid, "tvshow.show_title", text)),
    required_in_group(deprecated(pick(
        vid, "tvshow.video_type", "full|preview|clip|interview|news|other"))),
    old(vid, "tvshow.episode_title", text),
    deprecated(range(vid, "tvshow.season_number", integer, 1, 1e18)),
    deprecated(range(vid, "tvshow.episode_number", integer, 1, 1e18)),
    old(vid, "tvshow.premier_date", datetime),
    opt(vid, "platform", platform_list),
    pick(vid, "platform@relationship", "allow|deny", true),
    opt(vid, "live", yes_no),
    many(vid, "id", text),
    pick(vid, "id@type",
         "tms:series|tms:program|rovi:series|rovi:program|freebase|url", true),
    // <news:news>
    req(nws, "publication.name", text),
    req(nws, "publication.language", news_language),
    pick(nws, "access", "Subscription|Registration"),
    opt(nws, "genres", genre_list),
    req(nws, "publication_date", datetime),
    req(nws, "title", text),
    opt(nws, "keywords", text),
    opt(nws, "stock_tickers", ticker_list),
};

}  // namespace

const extension_namespace& namespace_of(extension_kind kind) noexcept {
  return namespaces[static_cast<std::size_t>(kind)];
}

const extension_namespace* namespace_for_uri(std::string_view uri) noexcept {
  for (const auto& ns : namespaces)
    if (ns.uri == uri) return &ns;
  return nullptr;
}

namespace {

// A URI without what namespace typos change: scheme, "www.", trailing
// slashes, letter case.
std::string_view strip_uri(std::string_view uri, char (&buffer)[256]) noexcept {
  for (std::string_view scheme : {"http://", "https://"})
    if (uri.size() >= scheme.size() &&
        std::equal(scheme.begin(), scheme.end(), uri.begin(),
                   [](char a, char b) { return a == (b | 0x20); }))
      uri.remove_prefix(scheme.size());
  while (!uri.empty() && uri.back() == '/') uri.remove_suffix(1);
  const std::size_t n = std::min(uri.size(), sizeof buffer);
  for (std::size_t i = 0; i < n; ++i)
    buffer[i] = uri[i] >= 'A' && uri[i] <= 'Z'
                    ? static_cast<char>(uri[i] | 0x20)
                    : uri[i];
  std::string_view out(buffer, n);
  if (out.starts_with("www.")) out.remove_prefix(4);
  return out;
}

// "google.com/schemas/sitemap-image" of ".../sitemap-image/1.1"; empty when
// the last segment is not a version (digits and dots), so that
// "w3.org/1999/xlink" is never taken for "w3.org/1999/xhtml".
std::string_view unversioned(std::string_view stripped) noexcept {
  const std::size_t slash = stripped.rfind('/');
  if (slash == std::string_view::npos || slash + 1 == stripped.size())
    return {};
  const std::string_view version = stripped.substr(slash + 1);
  for (char c : version)
    if (!(c >= '0' && c <= '9') && c != '.') return {};
  return stripped.substr(0, slash);
}

}  // namespace

const extension_namespace* namespace_near_uri(std::string_view uri) noexcept {
  if (uri.size() > 255 || namespace_for_uri(uri) != nullptr) return nullptr;
  char a[256], b[256];
  const std::string_view given = strip_uri(uri, a);
  for (const auto& ns : namespaces) {
    const std::string_view known = strip_uri(ns.uri, b);
    if (given == known) return &ns;
    const std::string_view stem = unversioned(known);
    if (!stem.empty() && unversioned(given) == stem) return &ns;
  }
  return nullptr;
}

std::span<const extension_field> extension_fields() noexcept { return table; }

namespace {

// Each kind's run of fields in the table, found once at compile time.
constexpr auto field_ranges = [] {
  std::array<field_range, extension_kind_count> out{};
  for (std::size_t k = 0; k < extension_kind_count; ++k) {
    const auto kind = static_cast<extension_kind>(k);
    extension_field_id first = 0;
    while (first < std::size(table) && table[first].kind != kind) ++first;
    extension_field_id last = first;
    while (last < std::size(table) && table[last].kind == kind) ++last;
    out[k] = {first, last};
  }
  return out;
}();

}  // namespace

field_range fields_of(extension_kind kind) noexcept {
  return field_ranges[static_cast<std::size_t>(kind)];
}

std::optional<extension_field_id> find_extension_field(
    extension_kind kind, std::string_view key) noexcept {
  const field_range r = fields_of(kind);
  for (extension_field_id id = r.first; id < r.last; ++id) {
    const std::string_view k = table[id].key;
    if (k == key ||
        (k.size() == key.size() + 1 && k.front() == '@' && k.substr(1) == key))
      return id;
  }
  return std::nullopt;
}

const link_field_ids& link_fields() noexcept {
  static const link_field_ids ids{
      *find_extension_field(extension_kind::alternate, "@hreflang"),
      *find_extension_field(extension_kind::alternate, "@href"),
      *find_extension_field(extension_kind::image, "loc")};
  return ids;
}

std::string_view element_of(const extension_field& field) noexcept {
  std::string_view k = field.key;
  k = k.substr(0, k.find('@'));
  if (const auto dot = k.rfind('.'); dot != std::string_view::npos)
    k = k.substr(dot + 1);
  return k;
}

bool is_attribute(const extension_field& field) noexcept {
  return field.key.find('@') != std::string_view::npos;
}

namespace {

// Each field's element: itself, or for "element@attribute" the field
// before it named "element". Worked out once, at compile time, since the
// writer's sort asks for it for every pair of values it compares.
constexpr auto element_fields = [] {
  std::array<extension_field_id, std::size(table)> out{};
  for (std::size_t id = 0; id < std::size(table); ++id) {
    out[id] = static_cast<extension_field_id>(id);
    const std::string_view key = table[id].key;
    const std::size_t at = key.find('@');
    if (at == std::string_view::npos || at == 0) continue;
    const std::string_view element = key.substr(0, at);
    for (std::size_t e = id; e-- > 0;) {
      if (table[e].key == element) {
        out[id] = static_cast<extension_field_id>(e);
        break;
      }
    }
  }
  return out;
}();

}  // namespace

extension_field_id element_field(extension_field_id id) noexcept {
  return element_fields[id];
}

extension_mask extensions_used(
    std::span<const extension_value> values) noexcept {
  extension_mask m = 0;
  for (const auto& v : values) m |= mask_of(table[v.field].kind);
  return m;
}

}  // namespace sitemill
