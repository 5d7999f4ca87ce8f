#include "detail/scratch_directory.h"

#include <stdlib.h>

#include <cerrno>
#include <filesystem>
#include <system_error>

#include "detail/spill_file.h"

namespace sitemill::detail {

scratch_directory::~scratch_directory() {
  std::error_code ignored;
  if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
}

status scratch_directory::make(std::string_view prefix) {
  std::string pattern = temp_directory();
  if (!pattern.ends_with('/')) pattern += '/';
  pattern += prefix;
  pattern += "XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr)
    return error{"cannot make a directory in " + temp_directory() + ": " +
                 std::error_code(errno, std::generic_category()).message()};
  path_ = std::move(pattern);
  return {};
}

}  // namespace sitemill::detail
