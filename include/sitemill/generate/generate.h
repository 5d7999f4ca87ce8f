// sitemill: the generate pipeline, source -> entry -> writer -> sink ->
// publish.
//
//   sitemill::generate_options o;
//   o.sources = {sitemill::list_source("urls.txt")};
//   o.base_url = "https://www.example.com/";
//   o.out_dir = "public";
//   sitemill::generate_observer quiet;
//   sitemill::generate_report r = sitemill::generate(o, quiet);
//   if (r.outcome == sitemill::generate_outcome::published) use(r.entry);
//
// Memory stays flat as input grows: records stream through, files stream
// out, and only an 8-byte fingerprint per distinct URL is kept (about 10 to
// 15 bytes each, for duplicate detection).
#ifndef SITEMILL_GENERATE_H
#define SITEMILL_GENERATE_H

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/generate/shard.h"
#include "sitemill/publish/bucket.h"
#include "sitemill/publish/publish.h"
#include "sitemill/publish/set_assembly.h"
#include "sitemill/source/record_reader.h"
#include "sitemill/source/record_source.h"
#include "sitemill/source/site_source.h"
#include "sitemill/source/state_db.h"
#include "sitemill/url/url.h"
#include "sitemill/write/sink.h"
#include "sitemill/write/writer.h"

namespace sitemill {

/// How generate cuts a section's URLs into files (generate_options::layout).
enum class file_layout : std::uint8_t {
  stable,      ///< by URL fingerprint: few files change when a URL does
  sequential,  ///< in input order: full files
};

/// One section of a set (generate_options::sections): the URLs whose path
/// below the base URL `glob` matches go to files of their own, named for
/// the section (NAME-SECTION-K-<hash>EXT) and listed in the one index.
struct section_rule {
  /// Lowercase ASCII letters, digits, '-' and '_', at most 64 characters
  /// (section_name_problem()).
  std::string name;
  /// A pattern of site_patterns' glob language, as an include pattern
  /// ("blog/**", "products/", "*.pdf"): a URL is in the section when the
  /// glob matches its path below the base URL or a directory above it.
  std::string glob;
  friend bool operator==(const section_rule&, const section_rule&) = default;
};

struct generate_options {
  /// Where records come from, read in this order (record_source.h:
  /// list_source, directory_source, sitemap_source, or your own). Every
  /// source is deduplicated against all the others; the first record of a
  /// URL wins.
  std::vector<std::shared_ptr<const record_source>> sources;
  std::string base_url;  ///< directory URL the set is published at
  /// More directory URLs, for a site on several hosts (www. and shop., a
  /// domain per country) or in several directories: each base then gets a
  /// set of its own in out_dir/<set_directory()>/ (base_url's too), holding
  /// the URLs under it by its location rule (a URL under two nested bases
  /// goes to the deeper one). Relative references and the directory
  /// source's pages resolve against base_url. Two bases may not share a
  /// directory (http:// and https:// of one host).
  std::vector<std::string> more_base_urls;
  /// Include/exclude patterns for the URLs of every source but those that
  /// apply them themselves (record_source::applies_patterns(): the
  /// directory source): matched against a URL's path below base_url
  /// (site_patterns::keeps_url_path(): "blog/a.html", no query), in order,
  /// the last match deciding; a URL no pattern matches is kept. A record
  /// left out is counted in generate_report::filtered. Empty: no filter.
  std::vector<site_pattern> url_patterns;
  std::string out_dir;  ///< where the set is published
  /// The URL out_dir is served at, when it is not base_url: sitemaps kept
  /// in a folder of the site (out_dir public/sitemaps/, served at
  /// https://www.example.com/sitemaps/, for pages under
  /// https://www.example.com/). The index lists its sitemaps under it, and
  /// each set_report's sitemaps_url and entry_url name it, so robots.txt
  /// and the announcing that follows point at the files where they are.
  /// An http(s) URL; a final '/' is added. Empty: base_url. Not with
  /// more_base_urls (each base's set is served at its own base). A set
  /// below the pages it lists is taken by search engines only through a
  /// Sitemap: line in the host's robots.txt (sitemaps_cover_urls()).
  std::string sitemaps_url;
  /// Instead of out_dir: the set's one sitemap is written to this sink (a
  /// pipe, a socket, memory) and closed, and nothing is published, locked
  /// or kept beside it. It is written only once the run succeeds, so a run
  /// that fails, is cancelled or fails `strict` writes nothing to it; a set
  /// that needs more than one sitemap (over max_urls or max_bytes, or news
  /// sitemaps beside the others) ends with outcome needs_several_files.
  /// Not with out_dir, more_base_urls, shard, html_view or
  /// bundled_stylesheet, which make more files or sets than one stream
  /// holds. With gzip the bytes are one gzip member. Temporary files (the
  /// sitemap until then, entries that wait) go to $TMPDIR. Borrowed: must
  /// outlive generate(); the sitemap is written on the calling thread.
  sink* output = nullptr;
  /// Where the lock, manifest and journal of out_dir live (bookkeeping.h);
  /// empty: .sitemill/<name of out_dir>/ beside out_dir. With several bases,
  /// each set's are in <that>/<set_directory()>/.
  std::string manifest_dir;
  /// With an out_dir "s3://BUCKET/PREFIX/", the set is published to that
  /// bucket (bucket.h, docs/publishing.md "Buckets"): how its objects are
  /// stored. Refused with another out_dir.
  bucket_options bucket;
  document_type type = document_type::urlset;  ///< urlset or text
  bool gzip = true;
  compression level = compression::normal;
  std::size_t max_urls = max_urls_per_sitemap;
  std::size_t max_bytes = max_bytes_per_sitemap;
  index_mode index = index_mode::automatic;
  std::string xsl_href;  ///< xml-stylesheet href; "" for none
  /// Write sitemill's own XSL stylesheet beside each set, published with it
  /// (write/stylesheet.h: bundled_stylesheet_name(name)), and name it by a
  /// relative href in every XML file, index included. Excludes xsl_href.
  bool bundled_stylesheet = false;
  /// Also write the HTML view of each set beside it, published with it
  /// (docs/browser-view.md): NAME.html, a front page listing the sitemaps,
  /// and pages of at most html_page_urls URLs each (NAME-html-K-<hash>.html)
  /// with no scripts and nothing fetched. The sitemaps are read back for
  /// it, so it costs one more read of the set; memory holds one page.
  bool html_view = false;
  std::size_t html_page_urls = 1000;  ///< URLs per page of the HTML view
  bool strict = false;  ///< a bad record or field publishes nothing
  /// How lastmod text is read (lastmod_reading.h): "auto" (W3C, SQL's
  /// "2025-05-14 10:23:00[+02]", RFC 2822, HTTP, Unix time), "w3c" (W3C
  /// datetimes only) or a pattern such as "%d/%m/%Y %H:%M".
  std::string date_format = "auto";
  /// Further formats, each as date_format, tried in order after it when it
  /// cannot read a lastmod ("%d.%m.%Y" then "auto"); at most 7.
  std::vector<std::string> more_date_formats;
  /// The zone of lastmod date-times that name none: an IANA name
  /// ("Europe/Berlin", DST-correct) or an offset ("+02:00"). Empty: they
  /// are read as UTC, said once per input and counted in the report.
  std::string time_zone;
  unsigned threads = 0;          ///< compression threads; 0: one per core
  std::string name = "sitemap";  ///< file name stem
  /// The state database (--state): with lastmod policy content it keeps
  /// each page's content hash; it is committed only when the publish
  /// succeeds, and the report lists the run's changes. Sources see it
  /// through source_context.
  std::string state_path;
  /// Google News sitemaps: entries whose news:publication_date is within
  /// the two days before `now` go to files of their own (NAME-news-...,
  /// at most 1,000 URLs each, listed in the index); older ones are written
  /// to the other sitemaps without their news:news block, as Google asks.
  /// Off, news blocks are kept whatever their age (a migration loses
  /// nothing).
  bool news = false;
  /// The memory duplicate detection may hold. Up to it, URLs are judged in
  /// memory (about 12 bytes each); past it, the rest are judged on disk
  /// after the input is read, and their entries wait in a temporary file in
  /// out_dir (about 16 bytes per URL for the judging plus the entry's own
  /// bytes), so memory stays flat however large the input. The published
  /// bytes are the same whatever the budget. See docs/scaling.md.
  std::size_t memory_budget = default_memory_budget;
  static constexpr std::size_t default_memory_budget = std::size_t{16} << 20;
  /// Tell the observer of each duplicate record with the record it repeats
  /// (generate_observer::duplicate). Duplicate detection then keeps where
  /// each URL was first read: 8 more bytes per URL within memory_budget,
  /// which a large input therefore fills sooner.
  bool report_duplicates = false;
  /// One shard of a sharded run (shard.h, docs/scaling.md): only the URLs
  /// of shard.index are kept, the sitemaps and a shard manifest go to the
  /// shard's directory beside out_dir, and nothing is published in out_dir
  /// until merge_shards() (merge.h). Not with more_base_urls, html_view or
  /// state_path; hreflang alternates need shard.count 1.
  shard_spec shard;
  /// The time news age is measured from; the system clock when unset.
  std::optional<std::chrono::system_clock::time_point> now;
  /// Sections (docs/sections.md): each written to sitemaps of its own,
  /// NAME-SECTION-K-<hash>EXT, all listed in the one index (the entry stays
  /// NAME.xml), the limits applying within each. A URL's section is, in
  /// order: its record's `section` field (a CSV/TSV column or JSONL key),
  /// the first rule whose glob matches, its first path segment when
  /// sections_from_first_segment, and otherwise none: the default section,
  /// whose files keep the names of a set without sections
  /// (NAME-K-<hash>EXT). At most max_sections in a run; each costs at most
  /// 32 KiB while the input is read (docs/scaling.md). Not with
  /// `output`. With `news`, no section may be called "news".
  std::vector<section_rule> sections;
  /// A URL with no section from its record or the rules goes to the section
  /// named by the first segment of its path below the base URL when that
  /// segment is a directory ("blog" for blog/a.html and blog/); a page at
  /// the base's root stays in the default section.
  bool sections_from_first_segment = false;
  /// Sections a run may have (named by rules, records or segments).
  static constexpr std::size_t max_sections = 1000;
  /// How a section's URLs are cut into files (docs/scaling.md, "Stable
  /// layout"). stable: by their fingerprint (XXH3 of the normalised loc),
  /// into the leaves of a binary trie that splits only where a node
  /// outgrows a file, so a URL added or removed changes one or two files
  /// whatever its place in the input, and reruns are byte-identical; files
  /// are named NAME[-SECTION][-PATH]-<hash>EXT (PATH the leaf's binary
  /// digits) and hold between a quarter and all of a file's limit.
  /// sequential: in input order, full files, NAME[-SECTION]-K-<hash>EXT;
  /// one URL inserted near the head then changes every file. Google News
  /// sitemaps are sequential either way.
  file_layout layout = file_layout::stable;
  /// Read every input and make the set as a run would, but publish nothing:
  /// out_dir is neither created nor locked nor changed (the files are made
  /// in a directory of $TMPDIR and removed), state_path is read when it
  /// exists and never written, and the report (with dry_run set) lists the
  /// files the set would have. Not with `output` or `shard`.
  bool dry_run = false;
};

/// A record that was rejected, or a field or note worth a warning.
struct record_issue {
  std::string input;  ///< the input's path ("<stdin>" for -)
  std::uint64_t line =
      0;  ///< 1-based; 0 when the issue is about the input as a whole
  std::string reason;
  friend bool operator==(const record_issue&, const record_issue&) = default;
};

/// A record whose URL an earlier record gave (generate_observer::duplicate):
/// not written, the first one is.
struct duplicate_record {
  std::string input;       ///< the input's path ("<stdin>" for -)
  std::uint64_t line = 0;  ///< 1-based
  std::string url;         ///< normalised, as the first record's is written
  /// Where the first record of the URL was read (first_line 0: unknown,
  /// which report_duplicates rules out).
  std::string first_input;
  std::uint64_t first_line = 0;
  friend bool operator==(const duplicate_record&,
                         const duplicate_record&) = default;
};

/// How far a run has come (generate_observer::progress).
struct generate_progress {
  std::uint64_t records = 0;  ///< read so far, from every source
  std::size_t files = 0;      ///< sitemaps begun so far
  /// Bytes of the inputs read so far, as stored, and their total, when
  /// every source knows its size (record_source::size(): URL lists and
  /// exports in regular files); input_bytes_total is 0 when one does not.
  std::uint64_t input_bytes_read = 0;
  std::uint64_t input_bytes_total = 0;
};

/// Receives what happens during a run. The defaults do nothing.
class generate_observer {
 public:
  virtual ~generate_observer() = default;
  virtual void rejected(const record_issue&) {}
  virtual void warning(const record_issue&) {}
  /// A page a source skipped on purpose (noindex, canonical, robots.txt):
  /// not a record, but worth saying.
  virtual void skipped(const record_issue&) {}
  /// A record not written because it repeats an earlier one's URL; called
  /// only with generate_options::report_duplicates, in input order, except
  /// those found past memory_budget: after the inputs are read.
  virtual void duplicate(const duplicate_record&) {}
  /// Called every 65,536 records, and once at the end of each input.
  virtual void progress(const generate_progress& /*now*/) {}
  /// Polled between records; true stops the run (nothing is published).
  virtual bool cancelled() { return false; }
};

enum class generate_outcome : std::uint8_t {
  published,      ///< the new set is live
  no_valid_urls,  ///< every record was rejected (or there were none)
  strict_failed,  ///< --strict and at least one bad record or field
  cancelled,      ///< the observer asked to stop
  /// `output` is one stream and the set needs several files: nothing was
  /// written to it (give out_dir)
  needs_several_files,
  failed,  ///< options, input or output could not be used: see message
};

/// A lastmod as its input wrote it, to show what was dropped.
struct lastmod_sample {
  std::string input;       ///< the input's path ("<stdin>" for -)
  std::uint64_t line = 0;  ///< 1-based
  std::string text;        ///< the lastmod as written (trimmed)
  friend bool operator==(const lastmod_sample&,
                         const lastmod_sample&) = default;
};

/// The URLs and files of one section (generate_options::sections).
struct section_total {
  std::string name;  ///< "" for the default section
  std::uint64_t urls = 0;
  std::uint64_t files = 0;
  std::uint64_t bytes = 0;  ///< of its sitemaps, uncompressed
  friend bool operator==(const section_total&, const section_total&) = default;
};

/// What became of the run's lastmods, so that a problem repeated on every
/// record reads as one line.
struct lastmod_counts {
  /// Lastmods that could not be read: each a warning, its URL written
  /// without one.
  std::uint64_t dropped = 0;
  /// Date-times without a zone read as UTC because `time_zone` was not
  /// given (said once per input, as a warning naming its first line).
  std::uint64_t zone_assumed = 0;
  /// Local times in a DST gap or overlap of `time_zone` (each a warning).
  std::uint64_t dst_adjusted = 0;
  /// The first few dropped ones (at most max_samples), in input order.
  std::vector<lastmod_sample> first_dropped;
  static constexpr std::size_t max_samples = 3;
};

struct generate_report {
  generate_outcome outcome = generate_outcome::failed;
  std::string message;  ///< why, when not published
  /// With outcome failed: the option the message is about (error::field), a
  /// member of generate_options or of a source's options; "" otherwise.
  std::string field;
  /// entry, entry_url, dated and files describe the published set; with
  /// several bases, the first set published (sets.front()): read `sets`.
  std::string entry;  ///< the file to submit (index or lone sitemap)
  /// The entry's URL (base_url, or sitemaps_url, + entry), what robots.txt
  /// and Search Console are given; the same for every run with the same
  /// URLs and name.
  std::string entry_url;
  /// Some URL written has a lastmod, so the index's entries have one too
  /// (each the newest of its file's); false: the index gives none.
  bool dated = false;
  std::vector<published_file> files;  ///< the published set, entry included
  /// A shard run (generate_options::shard): the directory its files and
  /// shard.json went to; entry, entry_url, files and sets stay empty, for
  /// nothing is published in out_dir until the merge.
  std::string shard_dir;
  /// Every set published, in the order of the bases (base_url first); a
  /// base no URL was under has none (a warning says so, and its earlier
  /// set, if any, is left as it was).
  std::vector<set_report> sets;
  std::uint64_t records = 0;     ///< records read
  std::uint64_t written = 0;     ///< URLs written
  std::uint64_t duplicates = 0;  ///< records whose URL was already written
  /// Records whose URL the url_patterns leave out; records == written +
  /// duplicates + rejected + filtered.
  std::uint64_t filtered = 0;
  std::uint64_t rejected = 0;
  std::uint64_t warnings = 0;
  std::uint64_t skipped = 0;  ///< pages skipped on purpose (not records)
  /// A shard run that reads every input: records whose URL belongs to
  /// another shard (not counted in `records`; that shard counts them).
  std::uint64_t other_shards = 0;
  /// Records whose duplicate check waited on disk because the URLs seen
  /// filled memory_budget (0: every one was judged in memory), and the
  /// bytes of temporary files that took (entries waiting included).
  std::uint64_t spilled = 0;
  std::uint64_t spill_bytes = 0;
  lastmod_counts lastmods;  ///< of the records written
  /// Per section, the default one ("") first, then by name, summed over
  /// the sets of a run over several bases; empty when no URL had a
  /// section. URLs in Google News sitemaps are counted there (`files` of
  /// the report), not in their section.
  std::vector<section_total> sections;
  /// With a state database: URLs added, changed and removed since the last
  /// published run, as the state tracks them (directory pages).
  std::optional<state_changes> changes;
  /// generate_options::dry_run: outcome `published` means the set was made
  /// and would have been published; entry, files, sets and changes say what
  /// it would hold, and nothing of it was kept.
  bool dry_run = false;
};

/// Runs the whole pipeline. Never throws for bad input or I/O failures (they
/// are in the report); std::bad_alloc may escape.
generate_report generate(const generate_options& options,
                         generate_observer& observer);

}  // namespace sitemill

#endif  // SITEMILL_GENERATE_H
