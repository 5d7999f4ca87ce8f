// IP addresses for the fetch scope: parsing, printing, and which ones a
// fetch must not reach by default (http.h, fetch_scope).
#include <arpa/inet.h>

#include <algorithm>
#include <cstring>
#include <span>
#include <string>

#include "sitemill/net/http.h"

namespace sitemill {
namespace {

constexpr std::array<std::uint8_t, 12> v4_mapped_prefix{0, 0, 0, 0, 0,    0,
                                                        0, 0, 0, 0, 0xff, 0xff};
// RFC 6052: the well-known NAT64 prefix puts an IPv4 in the last 4 bytes.
constexpr std::array<std::uint8_t, 12> nat64_prefix{
    0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};

bool starts_with(const ip_address& a, std::span<const std::uint8_t> prefix) {
  return std::equal(prefix.begin(), prefix.end(), a.begin());
}

std::string_view ipv4_kind(const std::uint8_t* b) noexcept {
  if (b[0] == 127) return "loopback";
  if (b[0] == 10 || (b[0] == 172 && (b[1] & 0xf0) == 16) ||
      (b[0] == 192 && b[1] == 168))
    return "private";
  if (b[0] == 100 && (b[1] & 0xc0) == 64) return "shared";
  if (b[0] == 169 && b[1] == 254) return "link-local";
  if (b[0] == 0) return "unspecified";
  return {};
}

}  // namespace

std::optional<ip_address> parse_ip_address(std::string_view text) {
  if (text.size() >= 2 && text.front() == '[' && text.back() == ']')
    text = text.substr(1, text.size() - 2);
  if (text.empty() || text.size() >= INET6_ADDRSTRLEN) return std::nullopt;
  char buf[INET6_ADDRSTRLEN];
  std::memcpy(buf, text.data(), text.size());
  buf[text.size()] = '\0';
  ip_address out{};
  if (inet_pton(AF_INET6, buf, out.data()) == 1) return out;
  std::copy(v4_mapped_prefix.begin(), v4_mapped_prefix.end(), out.begin());
  if (inet_pton(AF_INET, buf, out.data() + 12) == 1) return out;
  return std::nullopt;
}

std::string to_string(const ip_address& address) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (starts_with(address, v4_mapped_prefix))
    inet_ntop(AF_INET, address.data() + 12, buf, sizeof buf);
  else
    inet_ntop(AF_INET6, address.data(), buf, sizeof buf);
  return buf;
}

std::string_view private_address_kind(const ip_address& a) noexcept {
  if (starts_with(a, v4_mapped_prefix) || starts_with(a, nat64_prefix))
    return ipv4_kind(a.data() + 12);
  const bool zero_to_15 = std::all_of(a.begin(), a.begin() + 15,
                                      [](std::uint8_t b) { return b == 0; });
  if (zero_to_15 && a[15] == 1) return "loopback";
  if (zero_to_15 && a[15] == 0) return "unspecified";
  if ((a[0] & 0xfe) == 0xfc) return "unique local";
  if (a[0] == 0xfe && (a[1] & 0xc0) == 0x80) return "link-local";
  return {};
}

bool fetch_scope::may_connect(const ip_address& address) const {
  return allow_private || private_address_kind(address).empty() ||
         std::find(allowed.begin(), allowed.end(), address) != allowed.end();
}

void fetch_scope::allow_target_host(std::string_view host) {
  if (!host.empty() && host.back() == '.') host.remove_suffix(1);
  std::vector<ip_address> own;
  if (const std::optional<ip_address> ip = parse_ip_address(host)) {
    own.push_back(*ip);
  } else if (host == "localhost" || host.ends_with(".localhost")) {
    own.push_back(*parse_ip_address("127.0.0.1"));
    own.push_back(*parse_ip_address("::1"));
  }
  for (const ip_address& a : own) {
    if (!private_address_kind(a).empty() &&
        std::find(allowed.begin(), allowed.end(), a) == allowed.end())
      allowed.push_back(a);
  }
}

}  // namespace sitemill
