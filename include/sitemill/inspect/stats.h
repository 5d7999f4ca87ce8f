// sitemill: the numbers of a sitemap set, for a person (`sitemill stats`,
// and the HTML report built on them).
//
// set_stats are counts only: whatever the set's size, memory holds one
// record per document, the bounded tables below, and for duplicates one
// url_set fingerprint per distinct URL (10 to 15 bytes; detail/url_set.h).
// Every document is read through the one sitemap_walker and parser
// (set_input.h says what an input may be).
//
// Findings: the counts by code are the parser's (the rules one document
// shows on its own, docs/diagnostics-document.md), not a full check: the
// rules across documents (duplicate-url, hreflang return links) and the
// XSD verdict are `check`'s, which costs more than the counting does. The
// XSD comparison runs only when inspect_options::parse.schema_checks is set.
//
// Not thread-safe: one compute_stats() per thread.
#ifndef SITEMILL_INSPECT_STATS_H
#define SITEMILL_INSPECT_STATS_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/entry/extensions.h"
#include "sitemill/inspect/set_input.h"

namespace sitemill {

/// A key and how many URLs (or findings) have it.
struct key_count {
  std::string key;
  std::uint64_t count = 0;
};

/// One document of the set.
struct document_stats {
  std::string source;  ///< path or URL, as the walker names it
  document_kind kind = document_kind::unknown;
  std::uint64_t entries = 0;  ///< URLs (an index: sitemaps listed)
  std::uint64_t bytes = 0;    ///< uncompressed
  /// Size of the local file, or of the object read from a bucket; none for
  /// a fetched document (its transfer size is not the file's).
  std::optional<std::uint64_t> bytes_on_disk;
  bool gzipped = false;
  bool complete = true;  ///< read to its end without a fatal error
};

/// How the top-level path segments are bucketed: the first
/// `tracked_segments` distinct segments met are counted exactly, and a URL
/// whose segment comes later is counted as "other"; the report keeps the
/// `listed_segments` largest and adds the rest of them to "other" too.
inline constexpr std::size_t tracked_segments = 1'000;
inline constexpr std::size_t listed_segments = 50;
/// Documents not read that are named (the rest are counted).
inline constexpr std::size_t listed_not_read = 100;

/// The seven changefreq values, then none (no element), then invalid.
inline constexpr std::size_t changefreq_slots = 9;
/// Priorities rounded to one decimal: 0.0 .. 1.0, then none, then invalid.
inline constexpr std::size_t priority_slots = 13;

/// The files of one section of a set sitemill generated
/// (generate_options::sections), told by the set's manifest or, without
/// one, by their names (section_of_file()).
struct section_stats {
  std::string name;  ///< "" for the files of no section (STEM-K-<hash>EXT)
  std::uint64_t files = 0;
  std::uint64_t urls = 0;
  std::uint64_t bytes = 0;  ///< uncompressed
};

/// The section a sitemap file's name puts it in, for a set whose entry is
/// STEM.xml: "blog" for STEM-blog-2-0123456789ab.xml.gz, "" for
/// STEM-2-0123456789ab.xml.gz (and "news" for Google News sitemaps);
/// std::nullopt for a name not made that way. `name` may be a path or URL.
std::optional<std::string> section_of_file(std::string_view name,
                                           std::string_view stem);

struct extension_stats {
  std::uint64_t urls = 0;   ///< URLs with at least one item
  std::uint64_t items = 0;  ///< items (<image:image>, <xhtml:link>, ...)
};

struct set_stats {
  std::string input;  ///< as given
  std::string entry;  ///< the document walked first
  /// URL entries (in urlsets, text sitemaps and feeds; not an index's).
  std::uint64_t urls = 0;
  std::uint64_t files = 0;    ///< documents holding URLs
  std::uint64_t indexes = 0;  ///< sitemap indexes
  std::uint64_t bytes = 0;    ///< uncompressed, every document
  /// On disk, over the documents whose size is known (local files, objects
  /// of a bucket).
  std::uint64_t bytes_on_disk = 0;
  /// Uncompressed bytes of those same documents: bytes_on_disk over this
  /// is the compression ratio.
  std::uint64_t bytes_measured = 0;
  std::uint64_t gzipped_documents = 0;
  /// Every document read, in walk order (an index before its children).
  std::vector<document_stats> documents;
  /// Documents not read, or not to their end: "source: why", the first
  /// listed_not_read of them; not_read counts all.
  std::vector<std::string> not_read_examples;
  std::uint64_t not_read = 0;

  /// Top-level path segment ("/blog/a" -> "blog"; "/" and "/a.html" ->
  /// "/" for URLs at the root), largest first, at most listed_segments.
  std::vector<key_count> segments;
  /// Per section, by name (the files of no section, "", first), when at
  /// least one file is in a section; empty otherwise. A file's section is
  /// what the set's manifest records (sections_recorded) or, without one,
  /// what its name says (section_of_file()).
  std::vector<section_stats> sections;
  bool sections_recorded = false;
  std::uint64_t segments_other = 0;   ///< URLs in no listed bucket
  std::uint64_t urls_not_parsed = 0;  ///< <loc>s that are not http(s) URLs

  /// lastmod by month ("2026-11"), oldest first.
  std::vector<key_count> lastmod_months;
  std::uint64_t lastmod_none = 0;     ///< no lastmod element
  std::uint64_t lastmod_invalid = 0;  ///< not a W3C datetime (nor a feed date)

  /// changefreq_slots counts: always .. never, none, invalid.
  std::array<std::uint64_t, changefreq_slots> changefreq{};
  /// priority_slots counts: 0.0 .. 1.0, none, invalid.
  std::array<std::uint64_t, priority_slots> priority{};

  /// In extension_kind order: hreflang alternates, images, videos, news.
  std::array<extension_stats, extension_kind_count> extensions{};

  std::uint64_t distinct_urls = 0;
  /// Entries whose URL came before in the set (any file).
  std::uint64_t duplicate_entries = 0;

  /// The parser's findings by code, most frequent first.
  std::vector<key_count> findings;
  std::uint64_t errors = 0, warnings = 0, infos = 0;

  /// bytes_on_disk / bytes_measured, 0 when nothing was measured.
  double compression_ratio() const noexcept;
};

/// The label of a changefreq slot: "always" .. "never", "none", "invalid".
std::string_view changefreq_label(std::size_t slot) noexcept;
/// The label of a priority slot: "0.0" .. "1.0", "none", "invalid".
std::string_view priority_label(std::size_t slot) noexcept;

/// Reads the set `in` names and counts it. An error when the input itself
/// cannot be read at all (a child that cannot is counted in not_read).
/// `cancelled` is polled between blocks of input.
result<set_stats> compute_stats(const set_input& in,
                                const inspect_options& options,
                                bool (*cancelled)() = nullptr);

}  // namespace sitemill

#endif  // SITEMILL_INSPECT_STATS_H
