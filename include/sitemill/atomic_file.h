// sitemill: replacing one file atomically, the write every other one builds
// on: the publisher's manifest and journal, robots.txt, an IndexNow key file.
#ifndef SITEMILL_ATOMIC_FILE_H
#define SITEMILL_ATOMIC_FILE_H

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/result.h"

namespace sitemill {

/// Every temporary file sitemill makes is named
/// temp_file_prefix + TOKEN + "-" + what it will become, where TOKEN is a
/// run token (new_run_token()). The prefix alone proves nothing (a user may
/// name a file so); the publisher removes a leftover only when its TOKEN is
/// one a run recorded in the directory's lock file (publish.h).
inline constexpr std::string_view temp_file_prefix = ".sitemill-tmp-";

/// A fresh run token: 16 lowercase hex digits (64 bits of std::random_device),
/// so that no two runs, and no name a person types, share one.
std::string new_run_token();

/// True for exactly what new_run_token() makes: 16 lowercase hex digits.
bool is_run_token(std::string_view text) noexcept;

/// temp_file_prefix + token + "-" + what.
std::string temp_file_name(std::string_view token, std::string_view what);

/// The TOKEN of a name temp_file_name() makes; "" for any other name
/// (including ".sitemill-tmp-something" without a 16-hex-digit token).
std::string_view temp_file_token(std::string_view name) noexcept;

/// The names (not paths) of the files in `dir` that temp_file_name() named
/// with one of `tokens`; none when `dir` cannot be read. So a run need not
/// remember its temporaries to remove them: their names say whose they are.
std::vector<std::string> temp_files_in(const std::string& dir,
                                       std::span<const std::string> tokens);

/// A file written and fsynced under a temporary name, waiting to replace
/// `target` (the first half of write_file_atomically).
struct staged_write {
  std::string temp;    ///< full path of the temporary file
  std::string target;  ///< the file it replaces (symbolic links resolved)
};

/// Writes `bytes` to a new temporary file beside `path` (named with `token`,
/// or with a fresh token when empty), with the permission bits `path` has,
/// and fsyncs it. All the space the replacement needs is taken here, so
/// commit_staged_write() cannot fail for want of it. On failure nothing is
/// left behind. Errors name `path`.
[[nodiscard]] result<staged_write> stage_write(const std::string& path,
                                               std::string_view bytes,
                                               std::string_view token = {});

/// Renames a staged write over its target and fsyncs the directory. On
/// failure the temporary file is removed and the target untouched, unless
/// only the directory fsync failed (the message says so).
[[nodiscard]] status commit_staged_write(const staged_write& staged);

/// Replaces `path` with `bytes` so that a reader sees the old file or the new
/// one, never a mix, and the new one survives a crash once this returns:
/// stage_write() then commit_staged_write(). An existing file keeps its
/// permission bits; a new one gets 0666 minus the umask. A symbolic link at
/// `path` is followed. A kill between the two halves leaves the temporary
/// file; the publisher removes it later only when `token` is its run's.
[[nodiscard]] status write_file_atomically(const std::string& path,
                                           std::string_view bytes,
                                           std::string_view token = {});

}  // namespace sitemill

#endif  // SITEMILL_ATOMIC_FILE_H
