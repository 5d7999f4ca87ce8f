#include "sitemill/diagnostic.h"

namespace sitemill {

std::string_view to_string(severity s) noexcept {
  switch (s) {
    case severity::error:
      return "error";
    case severity::warning:
      return "warning";
    case severity::info:
      return "info";
  }
  return "error";
}

}  // namespace sitemill
