// sitemill: a Google service account's key file, and the JWT it signs for
// Search Console's token exchange (RFC 7519, RFC 7523; JWS RS256, RFC 7518
// 3.3), signed with OpenSSL's EVP_DigestSign.
#include "notify/submit_jwt.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>

#include "detail/digest.h"
#include "detail/json_lexer.h"
#include "detail/text.h"
#include "sitemill/small_file.h"
#include "sitemill/url/url.h"

namespace sitemill {
namespace detail {
namespace {

struct pkey_free {
  void operator()(EVP_PKEY* k) const noexcept { EVP_PKEY_free(k); }
};
using pkey_ptr = std::unique_ptr<EVP_PKEY, pkey_free>;

// The key, or nullptr; OpenSSL's error queue is cleared either way, so a
// bad key leaves nothing for a later call to trip on.
pkey_ptr load_private_key(std::string_view pem) {
  if (pem.size() > 64 * 1024) return nullptr;  // no PEM key is this long
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  if (bio == nullptr) return nullptr;
  // A null passphrase callback with an empty passphrase: an encrypted key
  // fails instead of asking on the terminal.
  pkey_ptr key(
      PEM_read_bio_PrivateKey(bio, nullptr, nullptr, const_cast<char*>("")));
  BIO_free(bio);
  ERR_clear_error();
  if (key && EVP_PKEY_get_base_id(key.get()) != EVP_PKEY_RSA) key.reset();
  return key;
}

bool read_object(json_lexer& in, const std::string& prefix, json_members& out,
                 int depth) {
  if (depth > 8) return in.fail("values nested too deeply");
  std::string key_scratch;
  return in.each_member(key_scratch, [&](std::string_view key_view) {
    std::string key = prefix + std::string(key_view);
    const char c = in.peek();
    if (c == '{') return read_object(in, key + ".", out, depth + 1);
    if (c == '"') {
      std::string scratch;
      std::string_view value;
      if (!in.read_string(value, scratch)) return false;
      out.emplace_back(std::move(key), std::string(value));
      return true;
    }
    if (json_lexer::starts_number(c)) {
      std::string_view value;
      if (!in.read_number(value)) return false;
      out.emplace_back(std::move(key), std::string(value));
      return true;
    }
    std::string scratch;
    return in.skip_value(depth + 1, scratch);
  });
}

// "line L" of the byte at `offset` in `text`, for a key file's JSON error.
std::size_t line_of(std::string_view text, std::size_t offset) {
  const std::size_t end = std::min(offset, text.size());
  return 1 + static_cast<std::size_t>(
                 std::count(text.begin(), text.begin() + end, '\n'));
}

}  // namespace

bool is_rsa_private_key(std::string_view pem) {
  return load_private_key(pem) != nullptr;
}

result<std::string> rs256_sign(std::string_view pem, std::string_view data) {
  pkey_ptr key = load_private_key(pem);
  if (!key) return error{"the private key is not a PEM RSA private key"};
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  if (ctx == nullptr) return error{"out of memory signing the JWT"};
  std::string signature;
  std::size_t size = 0;
  bool ok =
      EVP_DigestSignInit(ctx, nullptr, EVP_sha256(), nullptr, key.get()) == 1 &&
      EVP_DigestSign(ctx, nullptr, &size,
                     reinterpret_cast<const unsigned char*>(data.data()),
                     data.size()) == 1;
  if (ok) {
    signature.resize(size);
    ok = EVP_DigestSign(ctx, reinterpret_cast<unsigned char*>(signature.data()),
                        &size,
                        reinterpret_cast<const unsigned char*>(data.data()),
                        data.size()) == 1;
    signature.resize(size);
  }
  EVP_MD_CTX_free(ctx);
  ERR_clear_error();
  if (!ok) return error{"OpenSSL could not sign with the private key"};
  return signature;
}

result<std::string> google_jwt(const google_service_account& account,
                               std::int64_t iat) {
  // Member order as Google's own libraries write them; any order verifies.
  const nlohmann::ordered_json header = {
      {"alg", "RS256"}, {"typ", "JWT"}, {"kid", account.private_key_id}};
  const nlohmann::ordered_json claims = {{"iss", account.client_email},
                                         {"scope", google_webmasters_scope},
                                         {"aud", account.token_uri},
                                         {"iat", iat},
                                         {"exp", iat + 3600}};
  std::string signing_input =
      base64url(header.dump()) + "." + base64url(claims.dump());
  auto signature = rs256_sign(account.private_key, signing_input);
  if (!signature) return signature;
  return signing_input + "." + base64url(*signature);
}

std::optional<json_members> flat_json_object(std::string_view text) {
  json_lexer in;
  in.reset(text);
  in.skip_space();
  if (in.at_end() || in.peek() != '{') return std::nullopt;
  json_members out;
  if (!read_object(in, "", out, 0)) return std::nullopt;
  in.skip_space();
  if (!in.at_end()) return std::nullopt;
  return out;
}

std::string_view member(const json_members& members, std::string_view key) {
  for (const auto& [k, v] : members)
    if (k == key) return v;
  return {};
}

}  // namespace detail

result<google_service_account> parse_google_key(std::string_view json,
                                                std::string_view name) {
  const std::string file(name);
  detail::json_lexer in;
  in.reset(json);
  in.skip_space();
  if (in.at_end() || in.peek() != '{')
    return error{file +
                     ": not a service account's key file (a JSON object); "
                     "download one in Google Cloud's console under IAM > "
                     "Service accounts > Keys > Add key > JSON",
                 "google"};
  google_service_account key;
  std::string type;
  std::string key_scratch;
  const bool read = in.each_member(key_scratch, [&](std::string_view k) {
    std::string* field = k == "client_email"     ? &key.client_email
                         : k == "private_key"    ? &key.private_key
                         : k == "private_key_id" ? &key.private_key_id
                         : k == "token_uri"      ? &key.token_uri
                         : k == "type"           ? &type
                                                 : nullptr;
    std::string scratch;
    if (field == nullptr || in.peek() != '"') return in.skip_value(1, scratch);
    std::string_view value;
    if (!in.read_string(value, scratch)) return false;
    field->assign(value);
    return true;
  });
  if (read) {
    in.skip_space();
    if (!in.at_end()) in.fail("unexpected text after the value");
  }
  if (!read || !in.at_end()) {
    const detail::json_error& e = in.error();
    return error{file + ":" + std::to_string(detail::line_of(json, e.offset)) +
                     ": not valid JSON: " + std::string(e.reason),
                 "google"};
  }
  if (!type.empty() && type != "service_account")
    return error{file + ": \"type\" is " + detail::quoted_printable(type) +
                     ", not \"service_account\": sitemill signs in as a "
                     "service account, with its JSON key",
                 "google"};
  for (const auto& [value, what] :
       {std::pair{&key.client_email, "client_email"},
        std::pair{&key.private_key, "private_key"},
        std::pair{&key.private_key_id, "private_key_id"},
        std::pair{&key.token_uri, "token_uri"}}) {
    if (value->empty())
      return error{file + ": no \"" + std::string(what) +
                       "\" string: not a service account's JSON key",
                   "google"};
  }
  std::string token_uri;
  if (normalize_url(key.token_uri, token_uri) != url_problem::ok)
    return error{file + ": \"token_uri\" " +
                     detail::quoted_printable(key.token_uri) +
                     " is not an absolute http(s) URL",
                 "google"};
  if (!detail::is_rsa_private_key(key.private_key))
    return error{file +
                     ": \"private_key\" is not a PEM RSA private key (a "
                     "service account's key begins \"-----BEGIN PRIVATE "
                     "KEY-----\")",
                 "google"};
  return key;
}

result<google_service_account> read_google_key(const std::string& path) {
  // A key file is about 2.3 KiB; a megabyte is no key file.
  auto text = read_small_file(path, 1 << 20);
  if (!text)
    return error{path + ": cannot be read: " + text.err().message, "google"};
  return parse_google_key(*text, path);
}

}  // namespace sitemill
