#ifndef SITEMILL_DETAIL_DIGEST_H
#define SITEMILL_DETAIL_DIGEST_H

// The one place sitemill computes cryptographic digests (OpenSSL's libcrypto):
// SHA-256 and HMAC-SHA-256 for request signing (S3's Signature Version 4),
// PBKDF2 for the trace of credentials a crawl state keeps, and the encodings signed requests and tokens write them in. Content naming
// and fingerprints use XXH3 (not here): they need speed, not collision
// resistance against an adversary.

#include <array>
#include <string>
#include <string_view>

namespace sitemill::detail {

using sha256_digest = std::array<unsigned char, 32>;

/// SHA-256 of `data`.
sha256_digest sha256(std::string_view data);

/// HMAC-SHA-256 of `data` under `key` (RFC 2104).
sha256_digest hmac_sha256(std::string_view key, std::string_view data);

/// PBKDF2-HMAC-SHA-256 of `secret` with `salt` (RFC 8018): a digest that
/// takes `iterations` HMACs to compute, for what is kept of a secret where
/// a copy of the file must not let a weak password be guessed quickly.
sha256_digest pbkdf2_sha256(std::string_view secret, std::string_view salt,
                            unsigned iterations);

/// `bytes` as a view, to chain digests (a SigV4 signing key is an HMAC keyed by
/// the previous HMAC).
inline std::string_view as_view(const sha256_digest& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

/// Lowercase hex of arbitrary bytes (two characters per byte).
std::string hex_of(std::string_view bytes);

/// Base64 of `bytes` (RFC 4648 section 4, with padding).
std::string base64(std::string_view bytes);

/// Base64url of `bytes` without padding (RFC 4648 section 5; what JWTs use).
std::string base64url(std::string_view bytes);

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_DIGEST_H
