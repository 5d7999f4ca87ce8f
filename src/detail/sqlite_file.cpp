#include "detail/sqlite_file.h"

#include <sqlite3.h>

#include <filesystem>
#include <system_error>

namespace sitemill::detail {

result<sqlite3*> open_sqlite_file(const std::string& path,
                                  std::string_view what, int busy_timeout_ms) {
  // A directory that cannot be made shows in SQLite's own message below.
  std::error_code ignored;
  const std::filesystem::path parent =
      std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ignored);
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(
      path.c_str(), &raw,
      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
      nullptr);
  if (rc != SQLITE_OK) {
    std::string message = std::string(what) + " " + path + ": cannot open";
    if (raw != nullptr) {
      message += ": ";
      message += sqlite3_errmsg(raw);
      sqlite3_close(raw);
    }
    return error{std::move(message)};
  }
  sqlite3_busy_timeout(raw, busy_timeout_ms);
  sqlite3_extended_result_codes(raw, 1);
  return raw;
}

}  // namespace sitemill::detail
