// URL normalisation, the authority: hosts (reg-names, IPv4 and IPv6
// literals, RFC 3986 3.2.2), internationalised names (IDNA2008 through
// libidn2, UTS #46 as browsers do; a trailing dot dropped), ports (a
// scheme's default dropped, 6.2.3) and no credentials.
#include <idn2.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "detail/text.h"
#include "url/url_parts.h"

namespace sitemill::detail {
namespace {

// RFC 3986 3.2.2 dec-octet: no leading zeros, at most 255.
bool valid_ipv4(std::string_view s) noexcept {
  int octets = 0;
  std::size_t i = 0;
  while (true) {
    std::size_t j = i;
    unsigned v = 0;
    while (j < s.size() && is_digit(static_cast<unsigned char>(s[j])) &&
           j - i < 3) {
      v = v * 10 + static_cast<unsigned>(s[j] - '0');
      ++j;
    }
    const std::size_t len = j - i;
    if (len == 0 || v > 255 || (len > 1 && s[i] == '0')) return false;
    ++octets;
    i = j;
    if (i == s.size()) break;
    if (s[i] != '.' || octets == 4) return false;
    ++i;
  }
  return octets == 4;
}

// RFC 3986 3.2.2 IPv6address: eight h16, or fewer around one "::", the last
// 32 bits optionally as dotted IPv4.
bool valid_ipv6(std::string_view s) noexcept {
  const std::size_t n = s.size();
  std::size_t i = 0;
  int groups = 0;
  bool compressed = false;
  if (n >= 2 && s[0] == ':' && s[1] == ':') {
    compressed = true;
    i = 2;
    if (i == n) return true;
  }
  while (true) {
    std::size_t j = i;
    while (j < n && is_hex(static_cast<unsigned char>(s[j]))) ++j;
    if (j < n && s[j] == '.') {
      if (!valid_ipv4(s.substr(i))) return false;
      groups += 2;
      break;
    }
    if (j == i || j - i > 4) return false;
    ++groups;
    i = j;
    if (i == n) break;
    if (s[i] != ':') return false;
    ++i;
    if (i < n && s[i] == ':') {
      if (compressed) return false;
      compressed = true;
      ++i;
      if (i == n) break;
    } else if (i == n) {
      return false;
    }
  }
  return compressed ? groups <= 7 : groups == 8;
}

bool is_host_char(char c) noexcept {
  const auto u = static_cast<unsigned char>(c);
  return is_alpha(u) || is_digit(u) || c == '-' || c == '.' || c == '_';
}

// A lowercased reg-name or IPv4 address: host characters only, and no empty
// label apart from the root label a trailing dot stands for.
bool valid_ascii_host(std::string_view h) noexcept {
  if (h.empty() || h[0] == '.') return false;
  for (std::size_t i = 0; i < h.size(); ++i) {
    if (!is_host_char(h[i])) return false;
    if (h[i] == '.' && i + 1 < h.size() && h[i + 1] == '.') return false;
  }
  return true;
}

// IDNA2008 via UTS #46 non-transitional processing, as browsers do; the
// transitional retry accepts names (emoji, ZWNJ) that only IDNA2003 allowed.
url_problem append_idn_host(std::string& out, std::string_view host) {
  // DNS names are at most 253 octets, and a code point at most 4 UTF-8
  // bytes, so a longer host cannot convert anyway.
  char buf[1024];
  if (host.size() >= sizeof buf) return url_problem::bad_idn;
  for (std::size_t i = 0; i < host.size(); ++i)
    buf[i] = detail::ascii_lower(host[i]);
  buf[host.size()] = '\0';
  char* ascii = nullptr;
  int rc = idn2_to_ascii_8z(buf, &ascii, IDN2_NONTRANSITIONAL | IDN2_NFC_INPUT);
  if (rc != IDN2_OK) {
    ascii = nullptr;
    rc = idn2_to_ascii_8z(buf, &ascii, IDN2_TRANSITIONAL | IDN2_NFC_INPUT);
  }
  if (rc != IDN2_OK || ascii == nullptr) {
    if (ascii) idn2_free(ascii);
    return url_problem::bad_idn;
  }
  const std::size_t begin = out.size();
  for (const char* p = ascii; *p; ++p) out.push_back(detail::ascii_lower(*p));
  idn2_free(ascii);
  // Without STD3 rules UTS #46 maps some symbols to ASCII punctuation
  // (U+2100 becomes "a/c"), which must not smuggle a '/' into the host.
  if (!valid_ascii_host(std::string_view(out).substr(begin)))
    return url_problem::bad_idn;
  return url_problem::ok;
}

// Appends "host[:port]" normalised, from the authority of an absolute URL,
// and records where the host ends and which port it names.
url_problem append_authority(std::string& out, std::string_view auth,
                             bool https, url_offsets& at) {
  if (auth.find('@') != std::string_view::npos)
    return url_problem::has_credentials;
  std::string_view host;
  std::string_view port;
  bool has_port = false;
  if (!auth.empty() && auth[0] == '[') {
    const std::size_t close = auth.find(']');
    if (close == std::string_view::npos) return url_problem::bad_host;
    const std::string_view literal = auth.substr(1, close - 1);
    if (!valid_ipv6(literal)) return url_problem::bad_host;
    const std::string_view after = auth.substr(close + 1);
    if (!after.empty()) {
      if (after[0] != ':') return url_problem::bad_host;
      port = after.substr(1);
      has_port = true;
    }
    out.push_back('[');
    for (char c : literal) out.push_back(detail::ascii_lower(c));
    out.push_back(']');
  } else {
    const std::size_t colon = auth.find(':');
    host = auth.substr(0, colon);
    if (colon != std::string_view::npos) {
      port = auth.substr(colon + 1);
      has_port = true;
    }
    bool non_ascii = false;
    for (char c : host) {
      if (static_cast<unsigned char>(c) >= 0x80) {
        non_ascii = true;
      } else if (!is_host_char(c)) {
        return url_problem::bad_host;
      }
    }
    if (non_ascii) {
      if (const url_problem p = append_idn_host(out, host);
          p != url_problem::ok) {
        return p;
      }
    } else {
      if (!valid_ascii_host(host)) return url_problem::bad_host;
      for (char c : host) out.push_back(detail::ascii_lower(c));
    }
    // "example.com." is "example.com" (RFC 1034 3.1, the root label): one
    // spelling, so every comparison of hosts (the fetch scope, the location
    // rule) sees one host, and "127.0.0.1." is the address, not a name
    // to ask DNS for. valid_ascii_host() refused a host that is only a dot.
    if (out.back() == '.') out.pop_back();
  }
  at.host_end = offset(out.size());
  at.port = https ? 443 : 80;
  if (has_port && !port.empty()) {
    unsigned value = 0;
    for (char c : port) {
      if (!is_digit(static_cast<unsigned char>(c)))
        return url_problem::bad_port;
      value = value * 10 + static_cast<unsigned>(c - '0');
      if (value > 65535) return url_problem::bad_port;
    }
    // RFC 3986 6.2.3: the scheme's default port is the same as none.
    if (value != at.port) {
      at.port = static_cast<std::uint16_t>(value);
      char digits[6];
      std::size_t k = sizeof digits;
      do {
        digits[--k] = static_cast<char>('0' + value % 10);
        value /= 10;
      } while (value != 0);
      out.push_back(':');
      out.append(digits + k, sizeof digits - k);
    }
  }
  return url_problem::ok;
}

}  // namespace

// Appends "scheme://", the authority, path and query of `rest`, the text
// after "//" of an absolute URL or network-path reference.
url_problem append_from_authority(std::string& out, std::string_view rest,
                                  bool https, url_offsets& at) {
  out.append(https ? "https://" : "http://");
  at.scheme_end = https ? 5 : 4;
  at.host_begin = offset(out.size());
  const std::string_view auth = rest.substr(0, rest.find_first_of("/?"));
  if (const url_problem p = append_authority(out, auth, https, at);
      p != url_problem::ok) {
    return p;
  }
  at.path_begin = offset(out.size());
  append_path_and_query(out, rest.substr(auth.size()), out.size(), at);
  return url_problem::ok;
}

}  // namespace sitemill::detail
