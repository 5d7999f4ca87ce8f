#include "detail/digest.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

namespace sitemill::detail {

sha256_digest sha256(std::string_view data) {
  sha256_digest out{};
  unsigned int size = 0;
  EVP_Digest(data.data(), data.size(), out.data(), &size, EVP_sha256(),
             nullptr);
  return out;
}

sha256_digest hmac_sha256(std::string_view key, std::string_view data) {
  sha256_digest out{};
  unsigned int size = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(),
       out.data(), &size);
  return out;
}

sha256_digest pbkdf2_sha256(std::string_view secret, std::string_view salt,
                            unsigned iterations) {
  sha256_digest out{};
  PKCS5_PBKDF2_HMAC(secret.data(), static_cast<int>(secret.size()),
                    reinterpret_cast<const unsigned char*>(salt.data()),
                    static_cast<int>(salt.size()),
                    static_cast<int>(iterations), EVP_sha256(),
                    static_cast<int>(out.size()), out.data());
  return out;
}

std::string hex_of(std::string_view bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

namespace {

std::string base64_with(std::string_view bytes, const char* alphabet,
                        bool pad) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  auto at = [&](std::size_t k) {
    return static_cast<unsigned>(static_cast<unsigned char>(bytes[k]));
  };
  for (; i + 3 <= bytes.size(); i += 3) {
    unsigned v = at(i) << 16 | at(i + 1) << 8 | at(i + 2);
    out += alphabet[v >> 18];
    out += alphabet[(v >> 12) & 63];
    out += alphabet[(v >> 6) & 63];
    out += alphabet[v & 63];
  }
  std::size_t rest = bytes.size() - i;
  if (rest == 0) return out;
  unsigned v = at(i) << 16 | (rest == 2 ? at(i + 1) << 8 : 0);
  out += alphabet[v >> 18];
  out += alphabet[(v >> 12) & 63];
  if (rest == 2) out += alphabet[(v >> 6) & 63];
  if (pad) out.append(rest == 1 ? "==" : "=");
  return out;
}

}  // namespace

std::string base64(std::string_view bytes) {
  return base64_with(
      bytes, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
      true);
}

std::string base64url(std::string_view bytes) {
  return base64_with(
      bytes, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
      false);
}

}  // namespace sitemill::detail
