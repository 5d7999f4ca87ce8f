// Prints N URLs of a large site on stdout, fast enough (tens of millions a
// second) that a benchmark of 10^8 URLs measures sitemill, not its input,
// and stores nothing: benchmarks/scale_bench.sh pipes it into generate.
//
// usage: url_stream N
//
// Lines are https://www.example.com/<category>/<slug>-<i>.html, 50 to 80
// bytes, distinct for distinct i; every 100th line repeats the URL of line
// i / 2, so duplicate detection has work at every distance. Deterministic:
// the same N gives the same bytes.
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

const char* const categories[] = {"shoes", "shirts", "garden", "kitchen",
                                  "toys",  "books",  "audio",  "sports"};
const char* const slugs[] = {"classic-leather", "organic-cotton-slim-fit",
                             "stainless", "wireless-noise-cancelling",
                             "kids", "hardcover-first-edition"};

void append_url(std::string& out, std::uint64_t i) {
  out += "https://www.example.com/";
  out += categories[i % 8];
  out += '/';
  out += slugs[(i / 8) % 6];
  out += '-';
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, i).ptr;
  out.append(digits, end);
  out += ".html\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: url_stream N\n");
    return 2;
  }
  const std::uint64_t n = std::strtoull(argv[1], nullptr, 10);
  std::string buffer;
  buffer.reserve(1 << 20);
  for (std::uint64_t i = 0; i < n; ++i) {
    append_url(buffer, i % 100 == 99 ? i / 2 : i);
    if (buffer.size() > (1 << 20) - 128) {
      if (std::fwrite(buffer.data(), 1, buffer.size(), stdout) != buffer.size())
        return 1;
      buffer.clear();
    }
  }
  if (std::fwrite(buffer.data(), 1, buffer.size(), stdout) != buffer.size())
    return 1;
  return std::fflush(stdout) == 0 ? 0 : 1;
}
