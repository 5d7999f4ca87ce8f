// sitemill: reading a small file a user names (a key, a netrc, a cookie
// jar, a robots.txt to edit) whole, without being hung or flooded by what
// may stand at its path instead: the one way every such file is read.
//
// Thread-safety: the function may be called from any thread.
#ifndef SITEMILL_SMALL_FILE_H
#define SITEMILL_SMALL_FILE_H

#include <cstdint>
#include <string>

#include "sitemill/result.h"

namespace sitemill {

/// The bytes of the file at `path` (a symlink is followed). Refused with an
/// error saying why, for the caller to put after the file's name (in its
/// own words: a flag, an option), when it cannot be opened (the system's
/// reason, "No such file or directory"), is a
/// directory, is no regular file (a FIFO, socket or device: it could block
/// for ever or never end; it is opened without blocking, so a FIFO with no
/// writer is refused at once), or holds more than `max_bytes` (said with
/// the size, checked while reading too, so a file that grows cannot grow
/// memory).
[[nodiscard]] result<std::string> read_small_file(const std::string& path,
                                                  std::uint64_t max_bytes);

}  // namespace sitemill

#endif  // SITEMILL_SMALL_FILE_H
