// sitemill: the entry stage of source -> entry -> writer -> sink.
//
// A url_entry is one validated, normalised <url>. Building one from an input
// record (normalise the loc, parse the fields) is entry_builder's job; the
// writers only serialise entries and trust them.
#ifndef SITEMILL_ENTRY_H
#define SITEMILL_ENTRY_H

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/date/lastmod_reading.h"
#include "sitemill/date/w3c_datetime.h"
#include "sitemill/entry/extensions.h"
#include "sitemill/entry/fields.h"
#include "sitemill/url/url.h"

namespace sitemill {

/// One <url> of a urlset. Views are borrowed: they must outlive the call
/// that consumes the entry (sitemap_writer::add copies what it needs).
struct url_entry {
  std::string_view loc;  ///< normalised, absolute, percent-encoded
  std::optional<w3c_datetime> lastmod;  ///< written with format_lastmod()
  changefreq freq = changefreq::unset;
  std::optional<priority> prio;
  /// hreflang alternates, images, video, news (extensions.h), in the
  /// order the writer emits: items by kind, fields in schema order.
  std::span<const extension_value> extensions;
  /// Elements of namespaces sitemill has no schema for, written after the
  /// extensions as they are: XML that sitemap_parser made
  /// (parsed_entry::foreign_xml), never text from elsewhere, since the
  /// writer does not escape it. Empty for none.
  std::string_view foreign_xml;
};

/// Why a field was dropped from an entry (the URL itself is still written).
struct field_warning {
  std::string message;  ///< e.g. "lastmod \"2024-02-30\" dropped: no such day"
};

/// What build_fields() did with a lastmod, beyond its warnings: for the
/// run's counts and for notes that are no reason to drop it.
struct lastmod_outcome {
  bool dropped = false;  ///< given, unreadable, left out (and warned about)
  lastmod_note note = lastmod_note::none;  ///< how a kept one was read
};

/// Turns raw record text into url_entry values: trims, normalises the loc,
/// reads lastmod (with its lastmod_reader: auto and no zone unless given),
/// changefreq and priority. Reuses its buffers, so the
/// entry's views are valid until the next build().
///
/// Not thread-safe; one builder per thread.
class entry_builder {
 public:
  explicit entry_builder(url_normalizer normalizer,
                         lastmod_reader dates = {})
      : normalizer_(std::move(normalizer)), dates_(dates) {}

  /// The outcome of building one entry.
  struct outcome {
    url_problem problem = url_problem::ok;  ///< not ok: the record is rejected
    url_notes notes;
  };

  /// Builds `out` from raw field texts (empty = absent). Invalid fields are
  /// left out of `out` and described in `warnings` (cleared first).
  [[nodiscard]] outcome build(std::string_view loc, std::string_view lastmod,
                              std::string_view freq, std::string_view prio,
                              url_entry& out,
                              std::vector<field_warning>& warnings);

  /// build() in two steps, for callers that want to start work on the URL
  /// (a duplicate lookup) before the fields are parsed: build_loc() resets
  /// `out` and sets its loc; build_fields() adds the optional fields and
  /// says what became of the lastmod.
  [[nodiscard]] outcome build_loc(std::string_view loc, url_entry& out);
  lastmod_outcome build_fields(std::string_view lastmod, std::string_view freq,
                    std::string_view prio, url_entry& out,
                    std::vector<field_warning>& warnings);

  /// Judges `raw` (a reader's extension values, items numbered from 0 with
  /// their values adjacent) against the extension table and sets
  /// `out.extensions` to the valid ones in the writer's order. An invalid
  /// value, an item missing a required field, and items over a URL's limit
  /// are left out and described in `warnings` (appended to). A relative
  /// URL (an image's "/img/a.jpg", an alternate's "../de/") resolves against
  /// the normalizer's base as a relative loc does, without the location
  /// rule; with no base only absolute URLs are valid. Views of `raw` must
  /// stay valid while `out` is used.
  void build_extensions(std::span<const extension_value> raw, url_entry& out,
                        std::vector<field_warning>& warnings);

  const url_normalizer& normalizer() const noexcept { return normalizer_; }

 private:
  // A value kept by build_extensions, its text located by offsets until the
  // end, because ext_text_ may reallocate while values are added.
  struct kept_value {
    extension_field_id field;
    std::uint32_t item;
    std::size_t begin, end;
    bool own;  // the text is in ext_text_ (a normalised URL), else `raw`
    std::string_view raw;
  };

  url_normalizer normalizer_;
  lastmod_reader dates_;
  origin_memo origins_;     // extension URLs: the site's and its CDN's hosts
  std::string normalised_;  // scratch: one extension URL
  normalized_url resolved_;  // scratch: a relative extension URL resolved
  std::string loc_;
  std::vector<kept_value> kept_;
  std::vector<extension_value> ext_;
  std::string ext_text_;
};

/// The news:publication_date among `values` (judged ones, so it parses);
/// std::nullopt when there is none.
std::optional<w3c_datetime> news_publication_date(
    std::span<const extension_value> values) noexcept;

/// How diagnostics name an extension field: "image:loc",
/// "news:publication.name", "video:price currency", "xhtml:link hreflang".
std::string extension_field_name(const extension_field& field);

}  // namespace sitemill

#endif  // SITEMILL_ENTRY_H
