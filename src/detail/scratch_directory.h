// sitemill internals: a directory of the run's own in $TMPDIR, removed with
// everything in it when the owner goes (a dry run makes its whole set there).
#ifndef SITEMILL_DETAIL_SCRATCH_DIRECTORY_H
#define SITEMILL_DETAIL_SCRATCH_DIRECTORY_H

#include <string>
#include <string_view>

#include "sitemill/result.h"

namespace sitemill::detail {

class scratch_directory {
 public:
  scratch_directory() = default;
  scratch_directory(const scratch_directory&) = delete;
  scratch_directory& operator=(const scratch_directory&) = delete;
  ~scratch_directory();

  /// Makes temp_directory()/<prefix>XXXXXX; the error names the directory
  /// it could not be made in, and why.
  status make(std::string_view prefix);
  /// "" until make() succeeded.
  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_SCRATCH_DIRECTORY_H
