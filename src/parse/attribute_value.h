// sitemill internals: the one way to read an attribute value that libxml2's
// startElementNs hands over (5 pointers per attribute: local name, prefix,
// URI, value begin, value end).
#ifndef SITEMILL_PARSE_ATTRIBUTE_VALUE_H
#define SITEMILL_PARSE_ATTRIBUTE_VALUE_H

#include <string>

namespace sitemill::detail {

/// The value of attribute `a` (a pointer to its 5 pointers). With entities
/// left unsubstituted, libxml2 hands a value that held a reference back as
/// a NUL-terminated copy with each '&' written as "&#38;"; those are turned
/// back, left to right, so a value that really holds "&#38;" keeps it.
inline std::string attribute_value(const unsigned char* const* a) {
  const char* begin = reinterpret_cast<const char*>(a[3]);
  const char* end = reinterpret_cast<const char*>(a[4]);
  std::string v(begin, end);
  if (*end != 0) return v;
  std::string out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.size();) {
    if (v.compare(i, 5, "&#38;") == 0) {
      out += '&';
      i += 5;
    } else {
      out += v[i++];
    }
  }
  return out;
}

}  // namespace sitemill::detail

#endif  // SITEMILL_PARSE_ATTRIBUTE_VALUE_H
