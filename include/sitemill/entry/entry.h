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

#include "sitemill/entry/fields.h"
#include "sitemill/url/url.h"
#include "sitemill/date/w3c_datetime.h"

namespace sitemill {

/// An element from an extension namespace inside <url> (image:image,
/// video:video, news:news, xhtml:link), serialised after the core children
/// as sitemap.xsd's sequence requires. Implementations write well-formed,
/// escaped XML using the prefix their namespace is declared with.
class url_extension {
 public:
  virtual ~url_extension() = default;
  /// The namespace the element lives in, e.g.
  /// "http://www.google.com/schemas/sitemap-image/1.1".
  virtual std::string_view namespace_uri() const noexcept = 0;
  /// Appends the element's XML to `out`.
  virtual void append_xml(std::string& out) const = 0;
};

/// One <url> of a urlset. Views are borrowed: they must outlive the call
/// that consumes the entry (sitemap_writer::add copies what it needs).
struct url_entry {
  std::string_view loc;  ///< normalised, absolute, percent-encoded
  std::optional<w3c_datetime> lastmod;  ///< written with format_lastmod()
  changefreq freq = changefreq::unset;
  std::optional<priority> prio;
  std::span<const url_extension* const> extensions;  ///< empty today
};

/// Why a field was dropped from an entry (the URL itself is still written).
struct field_warning {
  std::string message;  ///< e.g. "lastmod \"2024-02-30\" dropped: no such day"
};

/// Turns raw record text into url_entry values: trims, normalises the loc,
/// parses lastmod, changefreq and priority. Reuses its buffers, so the
/// entry's views are valid until the next build().
///
/// Not thread-safe; one builder per thread.
class entry_builder {
 public:
  explicit entry_builder(url_normalizer normalizer)
      : normalizer_(std::move(normalizer)) {}

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
  /// `out` and sets its loc; build_fields() adds the optional fields.
  [[nodiscard]] outcome build_loc(std::string_view loc, url_entry& out);
  void build_fields(std::string_view lastmod, std::string_view freq,
                    std::string_view prio, url_entry& out,
                    std::vector<field_warning>& warnings);

  const url_normalizer& normalizer() const noexcept { return normalizer_; }

 private:
  url_normalizer normalizer_;
  std::string loc_;
};

}  // namespace sitemill

#endif  // SITEMILL_ENTRY_H
