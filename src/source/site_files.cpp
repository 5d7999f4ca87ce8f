// What the directory source needs of a file (site_files.h).
#include "source/site_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "detail/text.h"
#include "detail/utf8.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace sitemill::detail {
namespace {

void append_escape(std::string& out, unsigned char c) {
  constexpr char digits[] = "0123456789ABCDEF";
  out.push_back('%');
  out.push_back(digits[c >> 4]);
  out.push_back(digits[c & 15]);
}

// Feeds the file at `path` to `take(data, size)` in 64 KiB blocks until the
// end or until `take` returns false. False with errno set on failure.
template <typename Take>
bool read_blocks(const std::string& path, Take&& take) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return false;
  char buf[65536];
  for (;;) {
    const ::ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      errno = err;
      return false;
    }
    if (n == 0 || !take(buf, static_cast<std::size_t>(n))) break;
  }
  ::close(fd);
  return true;
}

}  // namespace

bool is_html_name(std::string_view name) noexcept {
  return iends_with(name, ".html") || iends_with(name, ".htm") ||
         iends_with(name, ".xhtml");
}

std::string_view without_html_extension(std::string_view name) noexcept {
  if (iends_with(name, ".html")) return name.substr(0, name.size() - 5);
  if (iends_with(name, ".htm")) return name.substr(0, name.size() - 4);
  return name;
}

bool is_error_status(std::string_view stem) noexcept {
  return stem.size() == 3 && (stem[0] == '4' || stem[0] == '5') &&
         stem[1] >= '0' && stem[1] <= '9' && stem[2] >= '0' && stem[2] <= '9';
}

namespace {

bool is_hex_text(std::string_view s) noexcept {
  return !s.empty() && std::all_of(s.begin(), s.end(), is_ascii_hex);
}

bool is_token_text(std::string_view s) noexcept {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return is_ascii_alpha(c) || is_ascii_digit(c) || c == '_' || c == '-';
  });
}

}  // namespace

std::string_view verification_service(std::string_view name) noexcept {
  if (iequals(name, "BingSiteAuth.xml")) return "Bing Webmaster Tools";
  if (!iends_with(name, ".html")) return {};
  const std::string_view stem = name.substr(0, name.size() - 5);
  // Each form is a fixed prefix and a token the service hands out: hex
  // digits of a fixed length, or (Baidu) letters, digits, '-' and '_'.
  struct form {
    std::string_view prefix;
    std::size_t hex_digits;  // 0: a token of any length
    std::string_view service;
  };
  static constexpr form forms[] = {
      {"google", 16, "Google Search Console"},
      {"yandex_", 16, "Yandex Webmaster"},
      {"naver", 32, "Naver Search Advisor"},
      {"pinterest-", 5, "Pinterest"},
      {"baidu_verify_", 0, "Baidu Webmaster Tools"},
  };
  for (const form& f : forms) {
    if (!stem.starts_with(f.prefix)) continue;
    const std::string_view token = stem.substr(f.prefix.size());
    if (f.hex_digits == 0 ? is_token_text(token)
                          : token.size() == f.hex_digits && is_hex_text(token))
      return f.service;
  }
  return {};
}

void append_url_path(std::string& out, std::string_view path) {
  for (std::size_t i = 0; i < path.size();) {
    const auto c = static_cast<unsigned char>(path[i]);
    if (c == '%' || c == '?' || c == '#' || c < 0x20 || c == 0x7F) {
      append_escape(out, c);
      ++i;
      continue;
    }
    const std::size_t n = detail::utf8_sequence_length(path, i);
    if (n == 0) {
      append_escape(out, c);
      ++i;
      continue;
    }
    out.append(path.substr(i, n));
    i += n;
  }
}

std::string describe_errno(int err) { return std::strerror(err); }

bool read_file(const std::string& path, std::string& out, std::size_t limit,
               bool* too_large) {
  out.clear();
  return read_blocks(path, [&](const char* data, std::size_t got) {
    if (out.size() + got > limit) {
      out.append(data, limit - out.size());
      if (too_large != nullptr) *too_large = true;
      return false;
    }
    out.append(data, got);
    return true;
  });
}

bool hash_file(const std::string& path, content_hash& out) {
  XXH3_state_t state;
  XXH3_128bits_reset(&state);
  if (!read_blocks(path, [&](const char* data, std::size_t got) {
        XXH3_128bits_update(&state, data, got);
        return true;
      })) {
    return false;
  }
  const XXH128_hash_t h = XXH3_128bits_digest(&state);
  out = content_hash{h.high64, h.low64};
  return true;
}

}  // namespace sitemill::detail
