// sitemill: replacing one file atomically, the write every other one builds
// on: the publisher's manifest and journal, robots.txt, an IndexNow key file.
#ifndef SITEMILL_PUBLISH_ATOMIC_FILE_H
#define SITEMILL_PUBLISH_ATOMIC_FILE_H

#include <string>
#include <string_view>

#include "sitemill/result.h"

namespace sitemill {

/// Every temporary file sitemill makes starts with this, so the publisher's
/// recovery (publish.h) can remove what a killed run left behind.
inline constexpr std::string_view temp_file_prefix = ".sitemill-tmp-";

/// Replaces `path` with `bytes` so that a reader sees the old file or the new
/// one, never a mix, and the new one survives a crash once this returns: a
/// temporary file (temp_file_prefix + the name + a random suffix) in the same
/// directory, fsynced, renamed over `path`, and the directory fsynced. An
/// existing file keeps its permission bits; a new one gets 0666 minus the
/// umask. A symbolic link at `path` is followed. On failure the temporary
/// file is removed; `path` is untouched unless only the final directory
/// fsync failed (the message says so). Errors name `path`.
[[nodiscard]] status write_file_atomically(const std::string& path,
                                           std::string_view bytes);

}  // namespace sitemill

#endif  // SITEMILL_PUBLISH_ATOMIC_FILE_H
