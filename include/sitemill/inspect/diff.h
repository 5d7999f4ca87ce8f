// sitemill: what changed between two sitemap sets (`sitemill diff`).
//
// How: OLD is read once into a table of fingerprints (url_set's 64-bit
// hash of the normalised URL, sharded) -> a 16-byte record (its lastmod
// in seconds, a changefreq and priority slot, a 32-bit hash of its
// extensions, a seen flag); NEW is streamed against it (an entry not in the
// table is added, one in it is compared and marked seen); then OLD is read
// a second time and every entry not marked is removed. Memory: 24 bytes per
// slot at 53% to 80% load, 30 to 45 bytes per distinct OLD URL, plus 10 to
// 15 bytes per distinct added URL (so an added URL listed twice is told
// once); no URL text is kept. Differences are told to a diff_observer as
// they are found, so a renderer can stream them.
//
// An entry's identity is its normalised URL (a <loc> that is not an http(s)
// URL: its text). The first entry of a URL in a set is the one compared.
// Two lastmods are compared as instants (unix seconds), so "2026-11-01" and
// "2026-11-01T00:00:00Z" are the same.
//
// A diff needs both sets whole: a document that is not read (a missing
// child, a truncated file, a cap), or an input that is not a sitemap, is an
// error rather than thousands of URLs wrongly "removed".
//
// Not thread-safe: one diff_sets() per thread.
#ifndef SITEMILL_INSPECT_DIFF_H
#define SITEMILL_INSPECT_DIFF_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/inspect/set_input.h"

namespace sitemill {

/// The classes of difference. One URL may be in several of the changed
/// classes (lastmod_* with changefreq, priority, extensions).
enum class diff_class : std::uint8_t {
  added,             ///< a URL only NEW lists
  removed,           ///< a URL only OLD lists
  lastmod_forward,   ///< a later lastmod
  lastmod_backward,  ///< an earlier lastmod: suspicious (a stale export?)
  lastmod_gained,    ///< a lastmod where there was none
  lastmod_lost,      ///< none where there was one
  changefreq,        ///< another changefreq (or one gained or lost)
  priority,          ///< another priority (to one decimal)
  extensions,        ///< other hreflang, image, video or news items
  files_added,       ///< a file only NEW's manifest lists
  files_removed,     ///< a file only OLD's manifest lists
  files_renamed,     ///< the same bytes (digest) under another name
  files_changed,     ///< the same name, other bytes
};
inline constexpr std::size_t diff_class_count = 13;

/// "added", "removed", "lastmod-forward", "lastmod-backward",
/// "lastmod-gained", "lastmod-lost", "changefreq", "priority",
/// "extensions", "files-added", "files-removed", "files-renamed",
/// "files-changed": the names --json and --fail-on use.
std::string_view to_string(diff_class c) noexcept;
/// The class named `name` (as to_string() spells it); none for another.
std::optional<diff_class> diff_class_named(std::string_view name) noexcept;
/// True for the files_* classes.
constexpr bool is_file_class(diff_class c) noexcept {
  return c >= diff_class::files_added;
}

/// A set of classes, bit (1 << class).
using diff_classes = std::uint16_t;
constexpr diff_classes bit(diff_class c) noexcept {
  return static_cast<diff_classes>(1u << static_cast<unsigned>(c));
}

/// One URL that differs. Views are valid during the observer call only.
struct url_difference {
  diff_classes classes = 0;  ///< added, removed, or the changed classes
  std::string_view url;      ///< the normalised URL (or the <loc> text)
  /// NEW's lastmod as written (added and changed URLs; "" when none).
  std::string_view new_lastmod;
  /// OLD's lastmod as seconds since 1970 (changed URLs whose OLD had one).
  std::optional<std::int64_t> old_lastmod;
  /// REMOVED's lastmod as written (removed URLs; "" when none).
  std::string_view old_lastmod_text;
};

/// One file that differs (by the manifests; both inputs directories).
struct file_difference {
  diff_class kind = diff_class::files_added;
  std::string old_path;  ///< "" for files_added
  std::string new_path;  ///< "" for files_removed
};

class diff_observer {
 public:
  virtual ~diff_observer() = default;
  /// Every file difference, before any URL difference.
  virtual void on_file(const file_difference& /*d*/) {}
  virtual void on_url(const url_difference& d) = 0;
  /// True to be told, after every on_url(), OLD's lastmod as OLD wrote it
  /// for each URL told with lastmod_forward, lastmod_backward or
  /// lastmod_lost (the table keeps seconds, not text): OLD is then read a
  /// second time when such URLs were found, as it is for removed URLs.
  virtual bool wants_old_lastmod_text() { return false; }
  /// OLD's lastmod of `url`, as written (trimmed). Views are valid during
  /// the call only.
  virtual void on_old_lastmod(std::string_view /*url*/,
                              std::string_view /*text*/) {}
  /// Polled between blocks of input; true stops the diff (an error).
  virtual bool cancelled() { return false; }
};

struct diff_summary {
  std::uint64_t old_urls = 0, new_urls = 0;    ///< distinct URLs
  std::uint64_t old_files = 0, new_files = 0;  ///< documents holding URLs
  /// URLs (or files) per class.
  std::array<std::uint64_t, diff_class_count> counts{};
  std::uint64_t changed_urls = 0;  ///< URLs in at least one changed class
  /// Both inputs had a manifest, so files were compared.
  bool files_compared = false;
  /// Files OLD's manifest lists (the index too): the base of a files-*
  /// percentage guard.
  std::uint64_t old_manifest_files = 0;
  /// Bytes the OLD table held at its largest.
  std::uint64_t table_bytes = 0;

  std::uint64_t count(diff_class c) const noexcept {
    return counts[static_cast<std::size_t>(c)];
  }
  /// No difference of any class.
  bool same() const noexcept;
};

/// Compares the sets `old_set` and `new_set` name, telling `observer` each
/// difference. An error when either cannot be read whole, and when OLD is
/// stdin (it is read twice; a URL is fetched twice).
result<diff_summary> diff_sets(const set_input& old_set,
                               const set_input& new_set,
                               const inspect_options& options,
                               diff_observer& observer);

/// A CI guard: trips when a class's count is above a limit, absolute or a
/// percentage of OLD's URLs (files classes: of the files OLD's manifest
/// lists).
struct diff_guard {
  /// The class; none means any URL difference at all (added, removed or
  /// changed URLs together: "any").
  std::optional<diff_class> of;
  /// "changed": URLs in at least one changed class.
  bool changed = false;
  double limit = 0;
  bool percent = false;
  std::string text;  ///< as written, for messages
};

/// Parses a comma-separated list of guards, "CLASS>N" or "CLASS>N%" each:
/// CLASS is a diff_class name, "changed" or "any"; N a non-negative
/// decimal ("removed>10%,lastmod-backward>0"). An error naming the guard
/// that is not one.
result<std::vector<diff_guard>> parse_diff_guards(std::string_view text);

/// The guard's count in `s`, and whether it is above the limit; the
/// sentence says so ("removed: 412 URLs, 34.1% of OLD's 1,208, above 10%").
struct guard_verdict {
  bool tripped = false;
  std::string sentence;
};
guard_verdict judge(const diff_guard& g, const diff_summary& s);

}  // namespace sitemill

#endif  // SITEMILL_INSPECT_DIFF_H
