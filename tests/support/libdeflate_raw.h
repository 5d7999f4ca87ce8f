// A raw DEFLATE stream of `in` made by libdeflate at `level`: what the
// splice's tests feed the final-block walk.
#ifndef SITEMILL_TESTS_SUPPORT_LIBDEFLATE_RAW_H
#define SITEMILL_TESTS_SUPPORT_LIBDEFLATE_RAW_H

#include <libdeflate.h>

#include <string>

namespace sitemill::testing {

inline std::string libdeflate_raw(const std::string& in, int level) {
  libdeflate_compressor* c = libdeflate_alloc_compressor(level);
  std::string out(libdeflate_deflate_compress_bound(c, in.size()), '\0');
  out.resize(libdeflate_deflate_compress(c, in.data(), in.size(), out.data(),
                                         out.size()));
  libdeflate_free_compressor(c);
  return out;
}

}  // namespace sitemill::testing

#endif  // SITEMILL_TESTS_SUPPORT_LIBDEFLATE_RAW_H
