// sitemill internals: what Search Console's token exchange needs (RFC 7523,
// the JWT bearer grant), and the small JSON reading the engines' answers
// need, on the one strict JSON reader (detail/json_lexer.h).
#ifndef SITEMILL_NOTIFY_SUBMIT_JWT_H
#define SITEMILL_NOTIFY_SUBMIT_JWT_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sitemill/notify/submit.h"
#include "sitemill/result.h"

namespace sitemill::detail {

/// Whether `pem` loads as an RSA private key (PKCS#8 or PKCS#1 PEM).
bool is_rsa_private_key(std::string_view pem);

/// The RSASSA-PKCS1-v1_5 SHA-256 signature (JWS "RS256") of `data` under
/// the PEM private key `pem`. The error never quotes the key.
result<std::string> rs256_sign(std::string_view pem, std::string_view data);

/// The signed JWT `account` exchanges for a token: header
/// {"alg":"RS256","typ":"JWT","kid"}, claims {"iss","scope","aud","iat",
/// "exp"} with aud the token_uri and exp iat + 3600 (Google's longest),
/// each part base64url without padding.
result<std::string> google_jwt(const google_service_account& account,
                               std::int64_t iat);

/// The members of a JSON object, nested objects' flattened with dots
/// ("error.code"): strings decoded, numbers as written; lists, true, false
/// and null left out. std::nullopt when `text` is not one JSON object.
using json_members = std::vector<std::pair<std::string, std::string>>;
std::optional<json_members> flat_json_object(std::string_view text);

/// The value of `key` in `members`, or "".
std::string_view member(const json_members& members, std::string_view key);

}  // namespace sitemill::detail

#endif  // SITEMILL_NOTIFY_SUBMIT_JWT_H
