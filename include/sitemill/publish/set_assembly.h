// sitemill: turning finished sitemap files into a set, between the writer
// and publisher::publish.
//
// generate calls it once per run with the files its writer filled; a merge
// of shards calls it once with the files every shard wrote into the same
// publisher's directory. Either way the set is named and indexed by one
// rule, so a sharded run publishes exactly what one machine would.
#ifndef SITEMILL_SET_ASSEMBLY_H
#define SITEMILL_SET_ASSEMBLY_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/limits.h"
#include "sitemill/publish/publish.h"
#include "sitemill/result.h"
#include "sitemill/write/writer.h"

namespace sitemill {

/// When to write a sitemap index.
enum class index_mode : std::uint8_t {
  automatic,  ///< unless the set is one plain XML sitemap (the entry is
              ///< NAME.xml either way)
  always,     ///< even for one plain XML sitemap
};

/// Why `name` cannot name a section, or "" when it can: it must be 1 to 64
/// lowercase ASCII letters, digits, '-' or '_' (it becomes part of file
/// names and URLs, and Search Console lists it).
std::string section_name_problem(std::string_view name);

/// A finished sitemap file in the publisher's directory, not yet named.
struct finished_sitemap {
  std::string temp_path;     ///< from publisher::temp_path, closed and synced
  part_info part;            ///< what the writer counted in it
  std::uint64_t digest = 0;  ///< XXH3-64 of its bytes on disk
  /// "" for the set's sitemaps; "news" for Google News sitemaps, named
  /// NAME-news-K-<hash>EXT and numbered on their own.
  std::string group;
  /// For the set's sitemaps: the section they hold ("" for none), named
  /// NAME-SECTION-K-<hash>EXT and numbered on their own.
  std::string section;
  /// Under the stable layout (generate_options::layout): the file's own
  /// label ("0110", its trie leaf's path; "" for the root leaf), which
  /// names it NAME[-SECTION][-LABEL]-<hash>EXT instead of a number, so a
  /// file's name does not depend on how many files come before it.
  std::optional<std::string> label;
};

/// How a set's files are named and indexed.
struct set_layout {
  std::string name = "sitemap";       ///< file name stem (checked by generate)
  std::string extension = ".xml.gz";  ///< of the sitemaps: ".xml", ".txt"...
  document_type type = document_type::urlset;  ///< of the sitemaps
  /// The normalised directory URL the set is served from, ending in '/':
  /// the index lists base_url + file name.
  std::string base_url;
  index_mode index = index_mode::automatic;
  std::size_t max_index_entries = max_sitemaps_per_index;
  std::string xsl_href;  ///< xml-stylesheet href of the index; "" for none
  /// Also stage bundled_stylesheet() (write/stylesheet.h) beside the set as
  /// bundled_stylesheet_name(name), listed last; xsl_href and the sitemaps
  /// should then name it.
  bool bundled_stylesheet = false;
};

/// A set ready for publisher::publish(files, entry).
struct assembled_set {
  /// The sitemaps in order, then the index, then the stylesheet if any.
  std::vector<staged_file> files;
  std::string entry;  ///< the file to submit
};

/// A child's name: STEM-NUMBER-<the low 12 hex digits of its digest>EXT
/// ("sitemap-3-0123456789ab.xml.gz"): after its content, so that a changed
/// file gets a new name and never overwrites one a published index lists.
std::string child_file_name(std::string_view stem, std::size_t number,
                            std::uint64_t digest, std::string_view extension);
/// A labelled child's name: STEM[-LABEL]-<the low 12 hex digits of its
/// digest>EXT (finished_sitemap::label).
std::string child_file_name(std::string_view stem, std::string_view label,
                            std::uint64_t digest, std::string_view extension);

/// `bytes` written, synced and digested in a new temporary file of `pub`
/// (its name says `what`), staged to be published as `name` of `type`: a
/// set's small files beside its sitemaps (the bundled stylesheet, the HTML
/// view's pages, a shard's manifest). `urls` of the staged file is 0.
result<staged_file> stage_file(publisher& pub, std::string_view what,
                               std::string name, document_type type,
                               std::string_view bytes);

/// Names each sitemap after its content (NAME-3-<the low 12 hex digits of its
/// digest>EXT, so a changed file gets a new name and the old index keeps
/// pointing at intact files until the new index replaces it) and writes the
/// index (NAME.xml; NAME-index-K.xml when there are more sitemaps than one
/// index may list) into `pub`'s directory, listing the sitemaps in the order
/// given with their newest lastmod. The entry is NAME.xml whatever the set's
/// size: with index_mode::automatic, a single plain XML urlset (EXT ".xml")
/// outside any group and section is the entry itself; any other set (gzipped,
/// text, several files, a group) gets an index. Index files are never
/// compressed: they are small and some consumers read only plain ones. Fails
/// when an index file cannot be written; its temporaries are then left for
/// publisher::discard_temporaries().
result<assembled_set> assemble_set(publisher& pub, const set_layout& layout,
                                   std::vector<finished_sitemap> sitemaps);

}  // namespace sitemill

#endif  // SITEMILL_SET_ASSEMBLY_H
