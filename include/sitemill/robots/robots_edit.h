// sitemill: editing a robots.txt so it lists exactly the given sitemaps as
// "Sitemap:" lines (docs/protocol.md 5), keeping every other byte. Lines are
// read by the same lexer as the Sitemap finder (robots.h) and the rules
// (robots_rules.h), so all three agree on what a record is.
//
// Thread-safety: the functions keep no state.
#ifndef SITEMILL_ROBOTS_EDIT_H
#define SITEMILL_ROBOTS_EDIT_H

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/atomic_file.h"
#include "sitemill/result.h"

namespace sitemill {

struct robots_edit_options {
  /// Remove every Sitemap record that names none of the given URLs
  /// (relative and unparsable values included).
  bool replace = false;
  /// Without `replace`: a Sitemap record naming a URL that is not wanted
  /// but that this accepts (given the normalised URL) is removed too, as a
  /// line superseded by the wanted ones: what announce_set() uses to drop the
  /// line an earlier run of the same set wrote (sitemap.xml.gz before the
  /// entry became sitemap.xml). Unset: no record is superseded.
  std::function<bool(std::string_view)> supersedes;
  /// update_robots() only: compute the edit, write nothing.
  bool dry_run = false;
};

/// A line edit_robots_txt() removed.
struct robots_removed_line {
  std::uint64_t line = 0;  ///< 1-based, in the original text
  std::string text;        ///< the line as it was, without its line end
  /// "repeats line 3", "names a sitemap not asked for, and `replace` was
  /// given"
  std::string reason;
};

/// What edit_robots_txt() did.
struct robots_edit {
  std::string text;                ///< the whole new file
  std::vector<std::string> added;  ///< URLs appended as new lines, in order
  std::vector<std::string>
      present;  ///< wanted URLs already listed, kept in place
  std::vector<robots_removed_line> removed;
  /// Things worth a warning that were left alone (a relative Sitemap value
  /// without `replace`, new lines past crawlers' 500 KiB parsing limit).
  std::vector<std::string> notes;
  bool changed = false;  ///< text differs from the input
};

/// Makes `robots_txt` list each of `sitemaps` exactly once as a
/// "Sitemap: <URL>" line (docs/protocol.md 5, checklist item 46).
///
/// The wanted URLs must be absolute http(s) URLs; they are normalised as
/// every <loc> is (url.h) and deduplicated. A record matches a wanted URL
/// when its field name is "sitemap" in any case and its value normalises to
/// the same URL (so scheme and host case do not matter, path case does). The
/// first such "Sitemap:" line stays where it is, byte for byte; later ones,
/// and misspelled forms ("Site-map:", "Sitemap" without a colon) of a
/// wanted URL, are removed as duplicates. Wanted URLs not yet listed are
/// appended at the end in the given order, with the file's own line end
/// (the first one it uses; "\n" for a file without one), after a line end
/// added to an unterminated last line, and after one blank line when the
/// file's last line is text other than a Sitemap record. With `replace`,
/// every other Sitemap record is removed too. Nothing else changes: a UTF-8
/// BOM, comments, groups, blank lines and line ends stay as they were.
///
/// Fails (changing nothing) when a wanted URL is relative or invalid, or the
/// text is UTF-16, which RFC 9309 does not allow and bytes cannot edit.
result<robots_edit> edit_robots_txt(std::string_view robots_txt,
                                    const std::vector<std::string>& sitemaps,
                                    const robots_edit_options& options = {});

/// What update_robots() did to the file.
struct robots_update {
  robots_edit edit;
  bool created =
      false;  ///< the file did not exist (and now does, unless dry run)
  bool written =
      false;  ///< false when the file already said it all, or dry run
};

/// edit_robots_txt() applied to the file at `path`, which is created when
/// missing (its directory must exist). An unchanged file is not rewritten.
/// The new file replaces the old one atomically (write_file_atomically), so
/// a crawler never reads half a robots.txt; a symbolic link is followed and
/// its target replaced. Errors name the file.
result<robots_update> update_robots(const std::string& path,
                                    const std::vector<std::string>& sitemaps,
                                    const robots_edit_options& options = {});

}  // namespace sitemill

#endif  // SITEMILL_ROBOTS_EDIT_H
