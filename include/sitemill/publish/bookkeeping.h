// sitemill: where the bookkeeping of a published set lives.
//
// A set directory (generate's --out: the web root in most recipes) holds the
// set's files and nothing of sitemill's own that outlives a run. The lock,
// the manifest of each set published there, and the journal of a publish in
// progress live in a bookkeeping directory: by default `.sitemill/<name>/`
// beside the set directory, in its parent (public/ -> .sitemill/public/),
// so a deploy that copies the set directory never carries them, whatever the
// deploy tool does with dot-files. generate's --manifest-dir chooses another.
// Temporary files stay in the set directory itself: a rename into place is
// atomic only within one file system (docs/publishing.md).
//
// Earlier builds kept the bookkeeping in the set directory itself
// (.sitemill.lock, .sitemill-manifest-<set>.json,
// .sitemill-journal-<set>.json). Such a set is still read wherever a set is
// read, and the publisher moves its bookkeeping out on its next run
// (docs/publishing.md, "Sets published by earlier builds").
#ifndef SITEMILL_PUBLISH_BOOKKEEPING_H
#define SITEMILL_PUBLISH_BOOKKEEPING_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/result.h"
#include "sitemill/url/url.h"

namespace sitemill {

/// The directory, below the output directory (generate_options::out_dir), of
/// the set published at `base` (a normalised base URL) in a run with several
/// bases: the host ("www.example.com"), "_PORT" when the base names a port,
/// then the base's path ("example.com/de" for https://example.com/de/). The
/// bookkeeping of each such set is below the output directory's
/// (bookkeeping_dir_of()).
std::string set_directory(const normalized_url& base);

/// The host part of set_directory(): "www.example.com", or "localhost_8080"
/// for a base that names a port.
std::string host_directory(const normalized_url& base);

/// The directory, in a set directory's parent, that holds one bookkeeping
/// directory per set directory beside it.
inline constexpr std::string_view bookkeeping_dir_name = ".sitemill";

/// Names inside a bookkeeping directory. The lock is per set directory;
/// manifest and journal are per set name, so several sets (--name products,
/// --name blog) can share one directory.
inline constexpr std::string_view lock_file_name = "lock";
/// "manifest-<set>.json": the published set called `set`.
std::string manifest_file_name(std::string_view set);
/// "journal-<set>.json": a publish of `set` in progress.
std::string journal_file_name(std::string_view set);

/// The names earlier builds gave the same files, inside the set directory.
namespace legacy_bookkeeping {
inline constexpr std::string_view lock_file_name = ".sitemill.lock";
/// ".sitemill-manifest-<set>.json"
std::string manifest_file_name(std::string_view set);
/// ".sitemill-journal-<set>.json"
std::string journal_file_name(std::string_view set);
}  // namespace legacy_bookkeeping

/// `.sitemill/<name of set_dir>` in set_dir's parent, spelled relative when
/// set_dir is ("public/" -> ".sitemill/public", "." -> "../.sitemill/<the
/// working directory's name>"). A set_dir whose path holds a symbolic link is
/// resolved first (absolute then), so that every spelling of one directory
/// shares one lock and one manifest. An error when set_dir is the root of
/// the file system, which has no parent to hold it.
result<std::string> default_bookkeeping_dir(std::string_view set_dir);

/// Where the bookkeeping of sets published in `set_dir` is: beside it
/// (default_bookkeeping_dir()) when that exists, else below the nearest
/// ancestor's, as generate keeps it for a run with several base URLs
/// (OUT/www.example.com -> .sitemill/OUT/www.example.com); when neither
/// exists, the default. "" when set_dir is the file system's root.
std::string bookkeeping_dir_of(const std::string& set_dir);

/// One set published in a directory, found by its manifest.
struct set_manifest_file {
  std::string set;   ///< its name ("sitemap")
  std::string path;  ///< the manifest file
};

/// The sets published in `set_dir`, sorted by name: the manifests in
/// `bookkeeping_dir` (bookkeeping_dir_of(set_dir) when empty), and,
/// with `legacy`, for names not found there, those an earlier build left in
/// set_dir. A directory that cannot be read holds none.
std::vector<set_manifest_file> find_set_manifests(
    const std::string& set_dir, const std::string& bookkeeping_dir = {},
    bool legacy = true);

/// The set directory a manifest file describes, when `path` names one by
/// either layout's default (".sitemill/public/manifest-x.json" -> "public",
/// ".sitemill/out/example.com/manifest-x.json" -> "out/example.com",
/// "public/.sitemill-manifest-x.json" -> "public"); nullopt otherwise.
std::optional<std::string> set_dir_of_manifest(const std::string& path);

}  // namespace sitemill

#endif  // SITEMILL_PUBLISH_BOOKKEEPING_H
