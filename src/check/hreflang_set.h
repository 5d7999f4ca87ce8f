// sitemill internals: the hreflang rules that need the whole checked set
// (docs/protocol.md 3, checklist 14): every alternate a page names must name it
// back ("return links"), and one cluster (pages joined by their links)
// names one URL per language.
//
// Memory is what keeps this usable on a large set, so nothing here is a
// string: each <loc> of the run is a 64-bit fingerprint, listed as it comes
// (8 to 12 bytes) and put in a fingerprint_table (10 to 15 bytes) only when
// links are judged or the page cap is near, so that a run without hreflang
// links pays a push per <loc>, not a hash-table insert; each hreflang link
// is a 24-byte record (page, target, document, language), and the languages
// are interned (a few hundred at most). The URLs a finding names are read again
// afterwards from the documents concerned (checker::report_hreflang), for the
// few findings that are listed. Past `max_links` links or `max_pages` pages the
// rule stops whole (a partial record would call returned links missing)
// and says so.
//
// Two different URLs share a fingerprint with odds of about n^2 / 2^65: for
// 10 million URLs, about 3 in a million runs; such a pair would hide a
// missing return link, never invent one.
//
// Not thread-safe.
#ifndef SITEMILL_CHECK_HREFLANG_SET_H
#define SITEMILL_CHECK_HREFLANG_SET_H

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "detail/fingerprint_table.h"
#include "sitemill/entry/extensions.h"

namespace sitemill::detail {

class hreflang_set {
 public:
  /// Bytes one link costs (the record; the vector's growth adds up to half
  /// as much again).
  static constexpr std::size_t bytes_per_link = 24;

  hreflang_set(std::size_t max_links, std::size_t max_pages)
      : max_links_(max_links), max_pages_(max_pages) {}

  /// The fingerprint of a URL as written (trimmed), never 0.
  static std::uint64_t fingerprint(std::string_view url) noexcept;

  /// What add_page() did.
  enum class added : std::uint8_t { ok, stopped_now, stopped };
  /// The page `loc` (fingerprint `page`) of document `doc` with its
  /// extension values; its hreflang links (valid or not, as written) are
  /// recorded. `stopped_now` once: when a cap is first exceeded with links
  /// recorded, or at the first page with links after a cap stopped a run
  /// that had none (a run without hreflang never hears of the caps).
  added add_page(std::uint32_t doc, std::uint64_t page,
                 std::span<const extension_value> values);
  /// Forgets every link of `doc` (a document whose report was withdrawn).
  void forget(std::uint32_t doc);

  bool stopped() const noexcept { return stopped_; }
  std::size_t links() const noexcept { return links_.size(); }
  /// Pages recorded: the distinct ones placed in the table, plus those still
  /// listed (which may repeat one).
  std::size_t pages() const noexcept {
    return pages_.size() + unplaced_.size();
  }
  /// Bytes held while reading: the link records, the page list and table.
  std::size_t memory_bytes() const noexcept {
    return links_.capacity() * sizeof(link) +
           unplaced_.capacity() * sizeof(std::uint64_t) + pages_.memory_bytes();
  }

  /// A link whose target does not name its page, or that gives a language
  /// of its cluster a second URL.
  struct finding {
    enum class kind : std::uint8_t { no_return, conflict } what;
    std::uint32_t doc;  ///< where the link is
    std::uint64_t page, target;
    std::uint32_t language;
    /// conflict: the link that first gave the language another URL.
    std::uint32_t other_doc = 0;
    std::uint64_t other_page = 0, other_target = 0;
  };
  /// Judges every link once all documents are read; sorted by document. A
  /// target that is not a <loc> of the set is not judged: its page may
  /// carry its links in HTML or live on another site.
  std::vector<finding> judge();

  /// The hreflang of language id `id`, lowercased.
  std::string_view language(std::uint32_t id) const { return languages_[id]; }

 private:
  struct link {
    std::uint64_t page, target;
    std::uint32_t doc, language;
  };
  static_assert(sizeof(link) == bytes_per_link);

  std::uint32_t intern(std::string_view hreflang);
  void stop();
  // Moves the listed pages into the table.
  void place_pages();

  std::size_t max_links_, max_pages_;
  bool stopped_ = false;
  bool announced_ = false;  // stopped_now was returned
  // Every <loc> of the set's urlsets: in the table, or listed since the
  // last place_pages().
  fingerprint_table<> pages_;
  std::vector<std::uint64_t> unplaced_;
  std::vector<link> links_;
  std::vector<std::string> languages_;
  std::unordered_map<std::string, std::uint32_t> language_ids_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_CHECK_HREFLANG_SET_H
