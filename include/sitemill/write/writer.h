// sitemill: streaming writers, the writer stage of source -> entry -> writer ->
// sink.
//
// sitemap_writer serialises url_entry values into urlset (or text) files and
// starts a new file before either protocol limit would be crossed, counting
// the exact bytes of each file, declaration and closing tag included.
// index_writer does the same for sitemapindex files. Each file goes to a sink
// made by a factory, so the same writer fills files, gzip streams or memory.
//
// Not thread-safe: one writer per thread (sinks may compress elsewhere).
#ifndef SITEMILL_WRITER_H
#define SITEMILL_WRITER_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/entry/entry.h"
#include "sitemill/limits.h"
#include "sitemill/result.h"
#include "sitemill/write/sink.h"

namespace sitemill {

/// The kinds of file sitemill writes: sitemaps, and beside a set the
/// browser view's files (docs/browser-view.md).
enum class document_type : std::uint8_t {
  urlset,
  sitemapindex,
  text,
  stylesheet,  ///< the bundled XSL stylesheet (generate --xsl default)
  html,        ///< a page of the HTML view (generate --html)
};

/// "urlset", "sitemapindex", "text", "stylesheet" or "html", as the --json
/// manifest names them.
std::string_view to_string(document_type type) noexcept;

/// Makes the sink for file number `part` (0-based), when the writer starts it.
using sink_factory =
    std::function<result<std::unique_ptr<sink>>(std::size_t part)>;

/// What the writer knows about a file once it is finished.
struct part_info {
  std::size_t urls = 0;                ///< entries in the file
  std::uint64_t bytes = 0;             ///< exact uncompressed size
  std::optional<w3c_datetime> newest;  ///< newest lastmod inside, by instant
};

/// Limits and decorations for sitemap files.
struct writer_options {
  document_type type = document_type::urlset;   ///< urlset or text
  std::size_t max_urls = max_urls_per_sitemap;  ///< 1..50,000
  std::size_t max_bytes =
      max_bytes_per_sitemap;  ///< uncompressed, up to 52,428,800
  /// href of an <?xml-stylesheet type="text/xsl"?> instruction; "" for none.
  std::string xsl_href;
};

/// Outcome of adding one entry.
enum class add_status : std::uint8_t {
  added,      ///< written (into the current or a new file)
  too_large,  ///< the entry alone does not fit into an empty file under
              ///< max_bytes
  failed,     ///< a sink failed: see error(); the writer accepts nothing more
};

/// Appends `entry` as sitemap_writer::add() writes it: a <url> element and
/// a newline for urlset (its extensions, then its foreign_xml as is), the
/// URL and a newline for text (which carries neither). Lets callers serialise on other threads and hand the bytes
/// to add_serialized(). With `extensions_at`, stores the offset in `out`
/// where extension elements start (or would), after the core fields.
void append_entry(std::string& out, const url_entry& entry, document_type type,
                  std::size_t* extensions_at = nullptr);

/// Appends the XML of extension values in the order url_entry::extensions
/// holds them, with the prefixes of extensions.h's namespaces.
void append_extensions(std::string& out,
                       std::span<const extension_value> values);

class sitemap_writer {
 public:
  sitemap_writer(writer_options options, sink_factory make_sink);
  ~sitemap_writer();
  sitemap_writer(const sitemap_writer&) = delete;
  sitemap_writer& operator=(const sitemap_writer&) = delete;

  /// Serialises `entry` (views are copied before returning).
  [[nodiscard]] add_status add(const url_entry& entry);
  /// Adds an entry that append_entry() serialised for this writer's type;
  /// `lastmod` is the entry's, for the file's newest lastmod; `uses` its
  /// extensions (extensions_used()), whose namespaces the file declares.
  [[nodiscard]] add_status add_serialized(
      std::string_view bytes, const std::optional<w3c_datetime>& lastmod,
      extension_mask uses = 0);
  /// Says that the entries still to come use no extension outside `uses`,
  /// for a caller that knows (one that parked them first): each file then
  /// declares those namespaces on its root at once and goes to its sink
  /// every 256 KiB, where otherwise the writer holds a file's first 4 MiB
  /// until it knows which namespaces the file needs. Declaring one more
  /// than a file uses is valid, only a few bytes longer. An entry that uses
  /// more than promised is still written right: it starts a new file that
  /// declares it.
  void expect_uses(extension_mask uses);
  /// Closes the last file. No file is written when nothing was added.
  [[nodiscard]] status finish();

  /// Finished files, in order.
  const std::vector<part_info>& parts() const noexcept;
  /// Why the writer failed; empty otherwise.
  const std::string& error() const noexcept;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// One <sitemap> of an index.
struct index_entry {
  std::string_view loc;  ///< absolute, normalised URL of the sitemap
  std::optional<w3c_datetime> lastmod;
};

/// Writes sitemapindex files, rotating at 50,000 entries / 52,428,800 bytes
/// (or smaller limits for tests).
class index_writer {
 public:
  index_writer(sink_factory make_sink,
               std::size_t max_entries = max_sitemaps_per_index,
               std::size_t max_bytes = max_bytes_per_index,
               std::string xsl_href = {});
  ~index_writer();
  index_writer(const index_writer&) = delete;
  index_writer& operator=(const index_writer&) = delete;

  [[nodiscard]] add_status add(const index_entry& entry);
  [[nodiscard]] status finish();
  const std::vector<part_info>& parts() const noexcept;
  const std::string& error() const noexcept;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace sitemill

#endif  // SITEMILL_WRITER_H
