// sitemill internals: opening an SQLite file the way every database of
// sitemill's is opened (the state database, the crawl cache).
#ifndef SITEMILL_DETAIL_SQLITE_FILE_H
#define SITEMILL_DETAIL_SQLITE_FILE_H

#include <string>
#include <string_view>

#include "sitemill/result.h"

struct sqlite3;

namespace sitemill::detail {

/// Opens `path` read-write, creating the file and its directory when
/// missing (a fresh checkout has no .sitemill/ yet), for one thread's use,
/// waiting up to `busy_timeout_ms` for another process's lock, with
/// extended result codes. The caller closes the handle (sqlite3_close).
/// Fails with "WHAT PATH: cannot open: SQLite's words".
result<sqlite3*> open_sqlite_file(const std::string& path,
                                  std::string_view what, int busy_timeout_ms);

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_SQLITE_FILE_H
