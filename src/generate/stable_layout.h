// Which file of a section each URL goes to under the stable layout, so that
// a small change to the URL set changes few files.
//
// The rule: a section's URLs sit in a binary trie on the bits of their
// fingerprint, highest bit first. A node whose URLs fit one sitemap (at most
// the URL limit and, with the file's fixed header and footer, the byte limit)
// is one file; a node that does not fit is split into its two halves, and so
// on down. The files are the trie's leaves, in prefix order. Where the splits
// fall depends on the set alone (not on input order, not on the last run),
// so no state is kept and reruns are byte-identical; and a URL added or
// removed changes only its own leaf, unless it makes that leaf overflow (two
// new halves) or lets two sibling leaves fit as one (their parent).
//
// The cost is fill: a split halves a node, so leaves hold between a quarter
// and all of a file's limit, depending on how the set's size falls between
// powers of two (1,000,000 URLs: 32 files of about 31,250, against 20 full
// ones cut in input order).
//
// The planner sees only tallies: URLs and bytes per fingerprint prefix of
// `bits` bits, kept while the entries are parked on disk by that prefix.
// A node narrower than one bucket that still does not fit (more than a file
// in one bucket) is returned as is, over the limits: the caller tallies that
// bucket's entries again one level down and plans it on its own.
#ifndef SITEMILL_GENERATE_STABLE_LAYOUT_H
#define SITEMILL_GENERATE_STABLE_LAYOUT_H

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace sitemill::detail {

/// URLs and bytes of their `<url>` elements under one fingerprint prefix,
/// and the OR of their marks (a byte per entry the caller chooses: the
/// extensions it uses, so a file knows its namespaces before its first
/// entry).
struct prefix_tally {
  std::uint64_t urls = 0;
  std::uint64_t bytes = 0;
  std::uint8_t marks = 0;
  prefix_tally& operator+=(const prefix_tally& o) {
    urls += o.urls;
    bytes += o.bytes;
    marks |= o.marks;
    return *this;
  }
};

/// What one file may hold: `max_bytes` counts the entries alone (the file's
/// limit less its fixed header and footer).
struct layout_limits {
  std::uint64_t max_urls = 0;
  std::uint64_t max_bytes = 0;
  bool fits(const prefix_tally& t) const noexcept {
    return t.urls <= max_urls && t.bytes <= max_bytes;
  }
};

/// One file of the layout: the trie node of the fingerprints whose top
/// `depth` bits are `prefix`, and what it holds.
struct layout_leaf {
  std::uint64_t prefix = 0;  ///< the node's path, in its low `depth` bits
  int depth = 0;             ///< 0: the root, every URL of the section
  prefix_tally tally;
  /// The first and one past the last bucket it covers, of 2^bits.
  std::uint64_t first_bucket = 0;
  std::uint64_t end_bucket = 0;
};

/// The leaves of the trie over `tallies` (2^bits buckets, bucket k holding
/// the fingerprints whose top `bits` bits are k), in prefix order. Empty
/// nodes make no file; an empty section has no leaf. A leaf with depth ==
/// `bits` may be over `limits` (see above). `bits` is at most 24.
std::vector<layout_leaf> plan_leaves(std::span<const prefix_tally> tallies,
                                     int bits, const layout_limits& limits);

/// The leaf's path as binary digits ("0110"), its part of the file's name;
/// empty for the root.
std::string leaf_path(const layout_leaf& leaf);

}  // namespace sitemill::detail

#endif  // SITEMILL_GENERATE_STABLE_LAYOUT_H
