// Fuzzes the one gzip inflater (src/detail/inflate.h). Every input is
// inflated three times: whole into a large buffer, in pieces of
// pseudo-random sizes (seeded by the input) into a small buffer, and with an
// output cap below what the first pass produced. Checks:
//  - the split changes no status and no truncation, and for a whole valid
//    stream not one byte (a corrupt or cut one gives wrong bytes before the
//    bad spot, and which depends on the split: inflate.h);
//  - the capped pass of a valid stream gives exactly its first `cap` bytes
//    and says so; of any stream, never more than `cap`;
//  - every byte of input is taken unless a status stops the stream, and
//    a status, once given, is given again (errors are sticky).
// ASan and UBSan (libFuzzer builds) catch the rest.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "detail/inflate.h"

namespace {

using sitemill::detail::gzip_inflater;
using status = gzip_inflater::status;

void check(bool ok) {
  if (!ok) std::abort();
}

struct pass {
  std::string out;
  status result = status::ok;
  bool truncated = false;
};

// Output beyond this is not compared: a small input may inflate 1000-fold.
constexpr std::size_t max_compared = 8u << 20;

pass run(std::string_view in, std::uint64_t cap, std::uint32_t seed,
         std::size_t out_block) {
  gzip_inflater inflater(cap);
  pass p;
  std::vector<char> buf(out_block);
  std::size_t pos = 0;
  for (;;) {
    std::size_t n = in.size() - pos;
    if (seed != 0) {
      seed = seed * 1'103'515'245u + 12'345u;
      n = std::min<std::size_t>(n, 1 + (seed >> 16) % 97);
    }
    const auto s = inflater.inflate(in.data() + pos, n, buf.data(), buf.size());
    check(s.consumed <= n && s.produced <= buf.size());
    pos += s.consumed;
    p.out.append(buf.data(), s.produced);
    p.result = s.result;
    if (s.result != status::ok) {
      const auto again = inflater.inflate(in.data() + pos, in.size() - pos,
                                          buf.data(), buf.size());
      check(again.result == s.result && again.produced == 0 &&
            again.consumed == 0);
      break;
    }
    if (pos == in.size() && s.produced < buf.size()) break;
    check(s.consumed > 0 || s.produced > 0);
    if (p.out.size() > max_compared) return p;
  }
  check(p.result != status::ok || pos == in.size());
  p.truncated = inflater.truncated();
  return p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  std::uint32_t seed = 2'166'136'261u;
  for (char c : in) seed = (seed ^ static_cast<unsigned char>(c)) * 16'777'619u;
  seed |= 1;

  const pass whole = run(in, gzip_inflater::no_limit, 0, 1 << 16);
  if (whole.out.size() > max_compared) return 0;
  const pass split = run(in, gzip_inflater::no_limit, seed, 7);
  const bool valid = whole.result == status::ok && !whole.truncated;
  check(split.result == whole.result);
  check(split.truncated == whole.truncated);
  if (valid) check(split.out == whole.out);

  if (!whole.out.empty()) {
    const std::uint64_t cap = whole.out.size() - 1 - seed % whole.out.size();
    const pass capped = run(in, cap, seed, 1 << 12);
    check(capped.out.size() <= cap);
    // The cap is reached before anything the whole pass stopped at.
    if (valid) {
      check(capped.result == status::output_limit && capped.out.size() == cap);
      check(whole.out.compare(0, capped.out.size(), capped.out) == 0);
    }
  }
  return 0;
}
