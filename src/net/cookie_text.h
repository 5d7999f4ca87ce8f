// sitemill internals: what a cookie's name and value may hold, for the
// cookies given as text (credentials.cpp) and those of a cookie file
// (credential_files.cpp) alike. Internal to src/net/.
#ifndef SITEMILL_NET_COOKIE_TEXT_H
#define SITEMILL_NET_COOKIE_TEXT_H

#include <algorithm>
#include <string_view>

namespace sitemill::detail {

/// A control character (RFC 5234 CTL): one no header value may hold.
constexpr bool is_control(char c) noexcept {
  const auto u = static_cast<unsigned char>(c);
  return u < 0x20 || u == 0x7f;
}

/// A name holds no space, '=', ';' or control character, so that
/// "name=value; ..." reads back as it was given.
constexpr bool is_cookie_name(std::string_view name) noexcept {
  return !name.empty() && std::none_of(name.begin(), name.end(), [](char c) {
    return is_control(c) || c == ';' || c == '=' || c == ' ';
  });
}

/// A value holds no ';' (it would end the cookie) or control character.
constexpr bool is_cookie_value(std::string_view value) noexcept {
  return std::none_of(value.begin(), value.end(),
                      [](char c) { return is_control(c) || c == ';'; });
}

}  // namespace sitemill::detail

#endif  // SITEMILL_NET_COOKIE_TEXT_H
