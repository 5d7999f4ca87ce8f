// The DEFLATE block walker as it was before its tables stepped over two
// codes per lookup (one code per step, a 10-bit table, decoding by kind):
// the reference that find_final_block() must agree with on every stream,
// kept as it was and used by tests only.
#ifndef SITEMILL_TESTS_SUPPORT_DEFLATE_WALK_REFERENCE_H
#define SITEMILL_TESTS_SUPPORT_DEFLATE_WALK_REFERENCE_H

#include <optional>
#include <string_view>

#include "write/deflate_splice.h"

namespace sitemill::detail::reference {

/// find_final_block()'s answer for `raw` as the reference walker gives it.
std::optional<final_block> find_final_block(std::string_view raw);

}  // namespace sitemill::detail::reference

#endif  // SITEMILL_TESTS_SUPPORT_DEFLATE_WALK_REFERENCE_H
