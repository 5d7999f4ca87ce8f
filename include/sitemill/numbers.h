// sitemill: how reports write numbers for people, so that a front end's
// summary ("12,345 URLs") reads like the library's messages ("line 1,234
// is not a URL").
//
// Thread-safety: the functions are pure and may be called from any thread.
#ifndef SITEMILL_NUMBERS_H
#define SITEMILL_NUMBERS_H

#include <cstdint>
#include <string>
#include <string_view>

namespace sitemill {

/// `n` in decimal with a comma between each group of three digits
/// ("1234567" -> "1,234,567"), as every sitemill message writes counts.
[[nodiscard]] std::string with_commas(std::uint64_t n);

/// `n` grouped as with_commas() and the noun that agrees with it:
/// counted(1, "URL", "URLs") is "1 URL", counted(12345, ...) "12,345 URLs".
/// The one way text output writes a count and its noun.
[[nodiscard]] std::string counted(std::uint64_t n, std::string_view one,
                                  std::string_view many);

/// `n` as a percentage of `of` with one decimal ("12.5%"); "0.0%" when `of`
/// is 0.
[[nodiscard]] std::string percent_of(std::uint64_t n, std::uint64_t of);

/// A size in bytes for a person, in binary units with one decimal below
/// ten: "900 B", "1.5 KiB", "120 MiB", "3.2 GiB".
[[nodiscard]] std::string human_bytes(std::uint64_t bytes);

/// A duration of `seconds` (rounded to the second; negative counts as 0)
/// as a clock reads: "0:07", "12:34", "1:02:03".
[[nodiscard]] std::string clock_time(double seconds);

}  // namespace sitemill

#endif  // SITEMILL_NUMBERS_H
