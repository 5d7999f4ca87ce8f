// The sitemap files one generate run writes: the set's own sitemaps and,
// with generate_options::news, its Google News sitemaps, each through its
// own sitemap_writer into temporary files of the set's output. Each section
// (generate_options::sections) has files of its own.
//
// How a section's entries reach its files (docs/scaling.md):
// - the first section an entry goes to is written as entries come: in
//   order through its writer (file_layout::sequential), or parked in a
//   layout_spool by fingerprint (file_layout::stable) and written leaf by
//   leaf of the stable layout at finish() (while it still fits one file,
//   that file, the layout's root leaf, is written as entries come, and they
//   wait in a section_park: write_trial());
// - every other section is parked in arrival order in a section_park (a
//   file and a buffer of at most 32 KiB, no open descriptor), and written
//   at finish(), one section at a time, as the first would have been (a
//   stable one through a layout_spool of its own).
// So a section costs tens of KiB whatever the layout, and at most one
// layout_spool's 256 partition files are open at a time. Google News
// sitemaps are written as entries come, in order, whatever the layout.
// Entries are routed here, so the direct path and the spooled one (hreflang
// clusters) write by one rule.
//
// Not thread-safe; generate's consumer thread owns it.
#ifndef SITEMILL_GENERATE_SET_WRITERS_H
#define SITEMILL_GENERATE_SET_WRITERS_H

#include <cstdint>
#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "generate/layout_spool.h"
#include "generate/section_park.h"
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
  /// `fingerprint` is its URL's (url_set::key::fingerprint, the duplicate
  /// check's): it places the entry under the stable layout.
  [[nodiscard]] add_status add(std::uint32_t section,
                               std::uint64_t fingerprint, std::string_view xml,
                               const std::optional<w3c_datetime>& lastmod,
                               extension_mask uses,
                               const std::optional<w3c_datetime>& news);
  /// Whether an entry whose duplicate check waits (url_dedup.h) is parked
  /// here at once, by fingerprint, rather than waiting in the run's entry
  /// spool: it goes to the first section under the stable layout, past the
  /// one-file trial, and so did every waiting entry of that section before
  /// it (a file holds its entries in the order they came, so a section's
  /// waiting entries all go one way: the first decides). Not with news
  /// sitemaps (an entry may go to them, or be counted as stale), nor one
  /// too large for a file (reported only if it does not repeat): those wait.
  bool parks_deferred(std::uint32_t section, std::string_view xml,
                      extension_mask uses);
  /// add() for an entry parks_deferred() took: parked with its deferral,
  /// and left out at finish() if it turns out to repeat an earlier URL.
  [[nodiscard]] add_status add_deferred(
      std::uint32_t section, std::uint64_t fingerprint, std::string_view xml,
      const std::optional<w3c_datetime>& lastmod, extension_mask uses,
      const parked_deferral& d);
  /// Before finish(), when add_deferred() was called: what decides the
  /// fate of those entries as the layout is read back (generate: url_dedup's
  /// answers, by the partitions its fingerprints share with the layout's
  /// first level; cluster_stage::fate_of()). It reads the records' deferral
  /// (read_parked()); it outlives finish().
  void decide_deferred(layout_spool::filter* fate) noexcept { fate_ = fate; }
  /// When those entries must wait elsewhere after all (hreflang clusters
  /// start before their duplicate checks are resolved): hands `back` every
  /// entry of the section that holds them, in the order they came (the
  /// parked record, with its deferral if it has one, and the section), and
  /// keeps none of them. A section that holds none is left as it is.
  [[nodiscard]] status give_back(
      const std::function<status(std::string_view record,
                                 std::uint32_t section)>& back);

  /// The run's input holds about `entries` records (asked once, before the
  /// first entry, when the inputs' sizes are known). More than one file's
  /// worth turns off the stable layout's one-file trial (put()), whose file
  /// would be thrown away.
  void expect_entries(std::uint64_t entries);
  /// Writes the parked sections and closes the last files. Compression may
  /// still run: wait on the pool.
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
  /// Bytes the layout wrote to temporary files before the sitemaps
  /// (parked sections, the stable layout's partitions), after finish().
  std::uint64_t parked_bytes() const noexcept { return parked_bytes_; }

 private:
  struct slot {
    std::string group;    // "news" for the news sitemaps
    std::string section;  // the section's name
    std::optional<sitemap_writer> writer;  // the files being written
    std::string leaf;  // stable: the path of the leaf being written
    std::vector<part_info> parts;  // its finished files, in order
    std::deque<file_digest> digests;  // stable: sinks report into them
    std::vector<std::string> temp_paths;
    std::vector<std::optional<std::string>> labels;  // finished_sitemap's
    std::unique_ptr<layout_spool> spool;  // stable, the direct section
    std::unique_ptr<section_park> park;   // the other sections, or a trial's
    // Stable, the direct section: its root leaf is being written as
    // entries come, while all of them still fit one file (write_trial()).
    bool trial = false;
    prefix_tally trial_tally;  // the section's entries so far
    // Where the section's entries whose duplicate check waits go: decided
    // by the first (parks_deferred()).
    enum class deferral : std::uint8_t { undecided, parked, spooled };
    deferral deferred = deferral::undecided;
    std::string error;  // a failure outside the writer
  };
  class leaf_writer;
  slot& section_slot(std::uint32_t section);
  add_status put(slot& s, std::uint64_t fingerprint, std::string_view xml,
                 const std::optional<w3c_datetime>& lastmod,
                 extension_mask uses,
                 const parked_deferral* deferral = nullptr);
  status park(slot& s, std::uint64_t fingerprint, std::string_view xml,
              const std::optional<w3c_datetime>& lastmod, extension_mask uses);
  add_status write_trial(slot& s, std::uint64_t fingerprint,
                         std::string_view xml,
                         const std::optional<w3c_datetime>& lastmod,
                         extension_mask uses);
  status end_trial(slot& s);
  void open(slot& s, std::size_t max_urls);
  void promise_uses(slot& s, const prefix_tally& all);
  result<std::unique_ptr<sink>> make_sink(slot& s, std::size_t part);
  status close_writer(slot& s);
  status finish_section(slot& s);
  status write_in_order(slot& s, section_park& park);
  status write_stable(slot& s, layout_spool& spool);
  std::unique_ptr<layout_spool> new_spool();
  // What one file of the stable layout may hold (computed once).
  const layout_limits& leaf_limits();
  // The bytes of a file's header, namespace declarations for `uses` and
  // footer, as the writer counts them.
  std::uint64_t overhead(extension_mask uses);
  bool stable() const noexcept { return o_.layout == file_layout::stable; }

  const generate_options& o_;
  set_output& out_;
  compress_pool* pool_;
  std::int64_t now_;  // unix seconds

  const section_table& sections_;
  layout_spool::filter* fate_ = nullptr;
  std::deque<slot> slots_;  // by section number; a deque: sinks hold slots
  slot news_;
  // The section written as it comes (or parked by fingerprint); the others
  // wait in section_parks. None before the first entry.
  std::optional<std::uint32_t> direct_;
  std::array<std::optional<std::uint64_t>, 256> overheads_;  // by uses
  std::optional<layout_limits> leaf_limits_;
  bool trial_allowed_ = true;  // expect_entries()
  std::string scratch_;
  std::string record_;
  std::uint64_t stale_news_ = 0;
  std::uint64_t parked_bytes_ = 0;
};

/// The sections of every set of a run, the default one first, then by name.
std::vector<section_total> section_totals(const std::deque<set_writers>& sets,
                                          const section_table& sections);

}  // namespace sitemill::detail

#endif  // SITEMILL_GENERATE_SET_WRITERS_H
