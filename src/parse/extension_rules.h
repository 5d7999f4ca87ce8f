// sitemill internals: what Google asks of the sitemap extensions beyond
// their schemas (docs/protocol.md 3, checklist 13-14), judged on the values the
// parser captures (extension_capture.h) by the one table
// (sitemill/entry/extensions.h): at most 1,000 images per <url>, a video's
// required fields, news of the last two days and at most 1,000 per file,
// hreflang codes, self links, one URL per language and x-default.
// Rules that need more than one document (return links) are check's.
#ifndef SITEMILL_PARSE_EXTENSION_RULES_H
#define SITEMILL_PARSE_EXTENSION_RULES_H

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "parse/context.h"
#include "sitemill/entry/extensions.h"

namespace sitemill::detail {

/// Not thread-safe; one per document.
class extension_rules {
 public:
  /// A new <url> starts.
  void begin_entry() noexcept { images_ = 0; }

  /// One item (<image:image>, <video:video>, ...) of namespace `ns` ended,
  /// holding `values`, its element starting at `at`. Reports what is wrong,
  /// and appends to `covered` the parts of libxml2 messages that a finding
  /// here already explains (so the same mistake is said once, at the
  /// element, with its own code).
  void item(const extension_namespace& ns,
            std::span<const extension_value> values, text_pos at,
            doc_context& doc, std::vector<std::string>& covered);

  /// A <url> ended: the rules across its hreflang links.
  void entry(std::string_view loc, std::span<const extension_value> values,
             text_pos at, doc_context& doc);

 private:
  std::uint64_t images_ = 0;  // in the open <url>
  std::uint64_t news_ = 0;    // in the document
};

/// `tag` with what most often makes it invalid mended ("de_DE" -> "de-DE",
/// "en-UK" -> "en-GB"); empty when there is nothing obvious to suggest.
std::string suggest_hreflang(std::string_view tag);

}  // namespace sitemill::detail

#endif  // SITEMILL_PARSE_EXTENSION_RULES_H
