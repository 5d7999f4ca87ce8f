// Inflating a whole gzip stream pushed `in_block` bytes at a time into an
// `out_block`-byte buffer, draining at the end as a reader does: what the
// inflater's tests compare with the bytes that were compressed.
#ifndef SITEMILL_TESTS_SUPPORT_INFLATE_ALL_H
#define SITEMILL_TESTS_SUPPORT_INFLATE_ALL_H

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "detail/inflate.h"

namespace sitemill::detail {

struct inflate_outcome {
  std::string out;
  gzip_inflater::status result = gzip_inflater::status::ok;
  bool truncated = false;
  std::string message;
};

inline inflate_outcome inflate_all(
    std::string_view gz, std::size_t in_block, std::size_t out_block,
    std::uint64_t limit = gzip_inflater::no_limit) {
  gzip_inflater inflater(limit);
  inflate_outcome o;
  std::vector<char> buf(out_block);
  std::size_t pos = 0;
  for (;;) {
    const std::size_t n = std::min(in_block, gz.size() - pos);
    const auto s = inflater.inflate(gz.data() + pos, n, buf.data(), buf.size());
    pos += s.consumed;
    o.out.append(buf.data(), s.produced);
    o.result = s.result;
    if (s.result != gzip_inflater::status::ok) break;
    if (pos == gz.size() && s.produced < buf.size()) break;
  }
  o.truncated = inflater.truncated();
  o.message = inflater.message();
  return o;
}

}  // namespace sitemill::detail

#endif  // SITEMILL_TESTS_SUPPORT_INFLATE_ALL_H
