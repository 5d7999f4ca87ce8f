// A count with the noun that agrees with it, grouped as every message
// writes counts (sitemill/numbers.h): "1 URL", "12,345 URLs". The one way
// the commands' text output writes a count and its noun.
#ifndef SITEMILL_CLI_PLURAL_H
#define SITEMILL_CLI_PLURAL_H

#include <cstdint>
#include <string>
#include <string_view>

#include "sitemill/numbers.h"

namespace sitemill::cli {

inline std::string counted(std::uint64_t n, std::string_view one,
                           std::string_view many) {
  std::string out = with_commas(n);
  out += ' ';
  out += n == 1 ? one : many;
  return out;
}

}  // namespace sitemill::cli

#endif  // SITEMILL_CLI_PLURAL_H
