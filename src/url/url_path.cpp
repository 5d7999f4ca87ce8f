// URL normalisation, the path and query: percent-encoding (RFC 3986 6.2.2.1
// and 6.2.2.2), dot-segment removal (5.2.4), and percent_decode().
#include <array>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

#include "url/clean_url.h"
#include "url/url_parts.h"

namespace sitemill {
namespace detail {
namespace {

constexpr char kHexUpper[] = "0123456789ABCDEF";

char to_upper(char c) noexcept {
  return (c >= 'a' && c <= 'z') ? static_cast<char>(c & ~0x20) : c;
}
// RFC 3986 2.3: these are the characters a %XX is decoded back to (6.2.2.2).
bool is_unreserved(unsigned char c) noexcept {
  return is_alpha(c) || is_digit(c) || c == '-' || c == '.' || c == '_' ||
         c == '~';
}

// Bytes copied unchanged into a path or query (url/clean_url.h). '?' can
// only reach the encoder inside a query: the path is cut at the first one.
constexpr const std::array<bool, 256>& kPass = detail::kept_bytes;

// A segment starting with '.' is the only shape that can be "." or "..";
// most paths have none, so removal is skipped for them.
bool has_dot_segment_candidate(std::string_view path) noexcept {
  std::size_t pos = path.find("/.");
  while (pos != std::string_view::npos) {
    const std::size_t seg = pos + 1;
    std::size_t end = path.find('/', seg);
    if (end == std::string_view::npos) end = path.size();
    const std::size_t len = end - seg;
    if ((len == 1) || (len == 2 && path[seg + 1] == '.')) return true;
    pos = path.find("/.", end);
  }
  return false;
}

// RFC 3986 5.2.4 on out[begin, end), a path starting with '/', in place: the
// output never outgrows the input, so one write cursor suffices. Returns the
// new end.
std::size_t remove_dot_segments(std::string& s, std::size_t begin,
                                std::size_t end) {
  char* b = s.data();
  std::size_t w = begin;
  std::size_t r = begin;
  while (r < end) {
    const std::size_t seg = r + 1;
    const void* slash = std::memchr(b + seg, '/', end - seg);
    const std::size_t seg_end =
        slash ? static_cast<std::size_t>(static_cast<const char*>(slash) - b)
              : end;
    const std::size_t len = seg_end - seg;
    const bool last = seg_end == end;
    if (len == 1 && b[seg] == '.') {
      if (last) b[w++] = '/';
    } else if (len == 2 && b[seg] == '.' && b[seg + 1] == '.') {
      while (w > begin && b[--w] != '/') {
      }
      if (last) b[w++] = '/';
    } else {
      std::memmove(b + w, b + r, seg_end - r);
      w += seg_end - r;
    }
    r = seg_end;
  }
  if (w == begin) b[w++] = '/';
  return w;
}

void normalize_path(std::string& out, std::size_t path_begin) {
  if (has_dot_segment_candidate(
          std::string_view(out).substr(path_begin, out.size() - path_begin))) {
    out.resize(remove_dot_segments(out, path_begin, out.size()));
  }
}

}  // namespace

// Appends `src` with every byte a URI may not contain percent-encoded and
// every valid %XX normalised (RFC 3986 6.2.2.1 and 6.2.2.2). Written through
// a pointer into room for the longest result (each byte read becomes at most
// three), where appending each run of safe bytes and each escape cost a call
// apiece: a UTF-8 path broke into a run per byte.
void append_encoded(std::string& out, std::string_view src) {
  const char* p = src.data();
  const std::size_t n = src.size();
  const std::size_t start = out.size();
  out.resize(start + 3 * n);
  char* const begin = out.data();
  char* w = begin + start;
  std::size_t i = 0;
  while (i < n) {
    const auto c = static_cast<unsigned char>(p[i]);
    if (kPass[c]) {
      *w++ = static_cast<char>(c);
      ++i;
      continue;
    }
    if (c == '%' && n - i >= 3 &&
        is_hex(static_cast<unsigned char>(p[i + 1])) &&
        is_hex(static_cast<unsigned char>(p[i + 2]))) {
      const auto v = static_cast<unsigned char>(
          hex_value(static_cast<unsigned char>(p[i + 1])) * 16 +
          hex_value(static_cast<unsigned char>(p[i + 2])));
      if (is_unreserved(v)) {
        *w++ = static_cast<char>(v);
      } else {
        w[0] = '%';
        w[1] = to_upper(p[i + 1]);
        w[2] = to_upper(p[i + 2]);
        w += 3;
      }
      i += 3;
      continue;
    }
    // Any other byte, a '%' that starts no %XX included ("%25").
    w[0] = '%';
    w[1] = kHexUpper[c >> 4];
    w[2] = kHexUpper[c & 15];
    w += 3;
    ++i;
  }
  out.resize(static_cast<std::size_t>(w - begin));
}

// Appends the path (cut at the first '?') and the query of `rest` encoded,
// after `out` already holds everything before the path, and records where
// the query begins.
void append_path_and_query(std::string& out, std::string_view rest,
                           std::size_t path_begin, url_offsets& at) {
  const std::size_t q = rest.find('?');
  append_encoded(out, rest.substr(0, q));
  if (out.size() == path_begin) out.push_back('/');
  normalize_path(out, path_begin);
  at.query_begin = offset(out.size());
  if (q != std::string_view::npos) append_encoded(out, rest.substr(q));
}

}  // namespace detail

using detail::hex_value;
using detail::is_hex;

std::string percent_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && s.size() - i >= 3 &&
        is_hex(static_cast<unsigned char>(s[i + 1])) &&
        is_hex(static_cast<unsigned char>(s[i + 2]))) {
      out.push_back(static_cast<char>(
          hex_value(static_cast<unsigned char>(s[i + 1])) * 16 +
          hex_value(static_cast<unsigned char>(s[i + 2]))));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

}  // namespace sitemill
