// The sitemap files one generate run writes: the set's own sitemaps and,
// with generate_options::news, its Google News sitemaps, each through its
// own sitemap_writer into temporary files of the set's output. Each section
// (generate_options::sections) has a writer sequence of its own, opened at
// its first entry and open until the end: a section costs its writer's
// buffers (docs/scaling.md).
// Entries are routed here, so the direct path and the spooled one (hreflang
// clusters) write by one rule.
//
// Not thread-safe; generate's consumer thread owns it.
#ifndef SITEMILL_GENERATE_SET_WRITERS_H
#define SITEMILL_GENERATE_SET_WRITERS_H

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "generate/sections.h"
#include "publish/set_outputs.h"
#include "sitemill/generate/generate.h"
#include "sitemill/publish/set_assembly.h"
#include "sitemill/write/writer.h"

namespace sitemill::detail {

/// The xml-stylesheet href of a set's XML files: xsl_href, or the bundled
/// stylesheet's name (relative: it lies beside them).
std::string xsl_href_of(const generate_options& o);

/// How a set of the run is named and indexed (the merge of shards reads it
/// from their manifests): `base` is the set's normalised base URL;
/// `max_index_entries` is the limit unless a test lowers it (testing.h).
set_layout layout_of(const generate_options& o, const std::string& base,
                     std::size_t max_index_entries);

class set_writers {
 public:
  /// Google's limit of news:news per news sitemap (limits.h).
  static constexpr std::size_t max_news_urls = max_news_per_sitemap;
  /// Google: "articles that were created in the last two days" (limits.h).
  static constexpr std::int64_t news_window_seconds = max_news_age_seconds;

  /// Writes into temporary files of `out`; `pool` (may be null) compresses
  /// when `o.gzip`; sections are named by `sections`; all four outlive this.
  set_writers(const generate_options& o, set_output& out, compress_pool* pool,
              const section_table& sections);

  /// Where an entry goes and how: a recent article to the news sitemaps,
  /// an older one to its section's sitemaps without its news:news block.
  [[nodiscard]] add_status add(std::uint32_t section, std::string_view xml,
                               const std::optional<w3c_datetime>& lastmod,
                               extension_mask uses,
                               const std::optional<w3c_datetime>& news);
  /// Closes the last files. Compression may still run: wait on the pool.
  [[nodiscard]] status finish();
  /// Removes every file written so far and starts again (generate reads
  /// them back first); call after finish() and the pool's wait().
  void restart();

  /// Temporary files written so far, each with its section (the news
  /// sitemaps' is the default section's: their entries go back to them).
  std::vector<std::pair<std::string, std::uint32_t>> files() const;
  /// The finished files for assemble_set(), after finish() and the wait, in
  /// the order the index lists them: the default section's, the other
  /// sections' by name, then the news sitemaps; each section's in order.
  std::vector<finished_sitemap> finished() const;
  /// Adds this set's sections to `totals` (by name; news files left out).
  void count_sections(std::vector<section_total>& totals) const;
  /// Files started so far, for progress.
  std::size_t file_count() const;
  const std::string& error() const;
  /// Entries whose news block was dropped as older than two days.
  std::uint64_t stale_news() const noexcept { return stale_news_; }

 private:
  struct slot {
    std::string group;    // "news" for the news sitemaps
    std::string section;  // the section's name
    std::optional<sitemap_writer> writer;
    std::deque<file_digest> digests;  // stable: sinks report into them
    std::vector<std::string> temp_paths;
  };
  void open(slot& s, std::size_t max_urls);
  result<std::unique_ptr<sink>> make_sink(slot& s, std::size_t part);

  const generate_options& o_;
  set_output& out_;
  compress_pool* pool_;
  std::int64_t now_;  // unix seconds
  slot& section_slot(std::uint32_t section);

  const section_table& sections_;
  std::deque<slot> slots_;  // by section number; a deque: sinks hold slots
  slot news_;
  std::string scratch_;
  std::uint64_t stale_news_ = 0;
};

/// The sections of every set of a run, the default one first, then by name.
std::vector<section_total> section_totals(const std::deque<set_writers>& sets,
                                          const section_table& sections);

}  // namespace sitemill::detail

#endif  // SITEMILL_GENERATE_SET_WRITERS_H
