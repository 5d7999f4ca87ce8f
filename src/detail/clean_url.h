// The fast path of URL normalisation: recognising a path and query that
// normalisation would leave exactly as they are.
#ifndef SITEMILL_DETAIL_CLEAN_URL_H
#define SITEMILL_DETAIL_CLEAN_URL_H

#include <string_view>

namespace sitemill::detail {

/// True when every byte of `s` is one an RFC 3986 path or query keeps as it
/// is (unreserved, sub-delims, ':', '@', '/', '?'; so no '%', '#', space,
/// control or non-ASCII byte) and `s` has no "/." (so no dot segment).
/// Such text is already normalised: url.cpp copies it without the general
/// encoder, which makes up most of the cost of a typical URL. The test is
/// conservative: "/.well-known" fails it and takes the general path.
bool is_clean_path_and_query(std::string_view s) noexcept;

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_CLEAN_URL_H
