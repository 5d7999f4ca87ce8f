// Loopback stand-ins for Search Console's token endpoint and API and for Bing
// Webmaster Tools' SubmitFeed, checking what the real ones require: the JWT's
// RS256 signature against the public half of a key made here with OpenSSL,
// its claims, the Bearer token, the percent-encoded path segments, Bing's key
// and JSON body. Shared by tests/submit_test.cpp and
// tests/cli/submit_cli_test.cpp.
#ifndef SITEMILL_TESTS_SUBMIT_SUPPORT_H
#define SITEMILL_TESTS_SUBMIT_SUPPORT_H

#include <gtest/gtest.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "notify_support.h"  // kSitemap
#include "sitemill/url/url.h"
#include "support/http_server.h"

namespace sitemill::testing {

inline constexpr const char* kAccount =
    "sitemill-ci@example-project.iam.gserviceaccount.com";
inline constexpr const char* kKeyId =
    "0123456789abcdef0123456789abcdef01234567";
inline constexpr const char* kAccessToken = "ya29.c.TOKEN-never-printed-4711";
inline constexpr const char* kBingKey = "b1ngSecretKey0123456789abcdef";
inline constexpr const char* kScope =
    "https://www.googleapis.com/auth/webmasters";

/// Fails the test when `text` holds a secret: Bing's key, the access token,
/// a PEM key, or a JWT (whose header starts "eyJ" in base64url).
inline void expect_no_secret(const std::string& text) {
  for (const char* secret : {kBingKey, kAccessToken, "PRIVATE KEY", "eyJ"})
    EXPECT_EQ(text.find(secret), std::string::npos) << secret << " in " << text;
}

/// An RSA key pair made for the test run: the private half as PEM (PKCS#8,
/// as Google's key files hold it), and the key to verify with.
struct rsa_pair {
  std::string private_pem;
  std::shared_ptr<EVP_PKEY> key;
};

inline const rsa_pair& test_rsa_key() {
  static const rsa_pair pair = [] {
    rsa_pair p;
    EVP_PKEY* k = EVP_RSA_gen(2048);
    p.key.reset(k, EVP_PKEY_free);
    BIO* bio = BIO_new(BIO_s_mem());
    PEM_write_bio_PrivateKey(bio, k, nullptr, nullptr, 0, nullptr, nullptr);
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio, &data);
    p.private_pem.assign(data, static_cast<std::size_t>(n));
    BIO_free(bio);
    return p;
  }();
  return pair;
}

/// A service account's key file as Google Cloud's console downloads it.
inline std::string key_file_json(
    const std::string& token_uri,
    const std::string& pem = test_rsa_key().private_pem) {
  nlohmann::ordered_json j = {
      {"type", "service_account"},
      {"project_id", "example-project"},
      {"private_key_id", kKeyId},
      {"private_key", pem},
      {"client_email", kAccount},
      {"client_id", "123456789012345678901"},
      {"auth_uri", "https://accounts.google.com/o/oauth2/auth"},
      {"token_uri", token_uri},
      {"universe_domain", "googleapis.com"}};
  return j.dump(2);
}

/// Base64url without padding, decoded (OpenSSL's block decoder after the
/// alphabet and padding are put back).
inline std::string from_base64url(std::string s) {
  for (char& c : s) c = c == '-' ? '+' : c == '_' ? '/' : c;
  std::size_t pad = 0;
  while (s.size() % 4 != 0) {
    s.push_back('=');
    ++pad;
  }
  std::string out(s.size() / 4 * 3, '\0');
  const int n =
      EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                      reinterpret_cast<const unsigned char*>(s.data()),
                      static_cast<int>(s.size()));
  if (n < 0) return {};
  out.resize(static_cast<std::size_t>(n) - pad);
  return out;
}

/// What the token stand-in found wrong with a JWT; "" when it is right.
inline std::string check_jwt(const std::string& jwt,
                             const std::string& token_uri,
                             std::int64_t* iat_out = nullptr) {
  const std::size_t a = jwt.find('.');
  const std::size_t b = jwt.find('.', a + 1);
  if (a == std::string::npos || b == std::string::npos) return "not 3 parts";
  const std::string signing_input = jwt.substr(0, b);
  const std::string signature = from_base64url(jwt.substr(b + 1));
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  const bool verified =
      EVP_DigestVerifyInit(ctx, nullptr, EVP_sha256(), nullptr,
                           test_rsa_key().key.get()) == 1 &&
      EVP_DigestVerify(
          ctx, reinterpret_cast<const unsigned char*>(signature.data()),
          signature.size(),
          reinterpret_cast<const unsigned char*>(signing_input.data()),
          signing_input.size()) == 1;
  EVP_MD_CTX_free(ctx);
  if (!verified) return "the RS256 signature does not verify";
  const auto header =
      nlohmann::json::parse(from_base64url(jwt.substr(0, a)), nullptr, false);
  const auto claims = nlohmann::json::parse(
      from_base64url(jwt.substr(a + 1, b - a - 1)), nullptr, false);
  if (header.is_discarded() || claims.is_discarded()) return "not JSON";
  if (header.value("alg", "") != "RS256") return "alg";
  if (header.value("typ", "") != "JWT") return "typ";
  if (header.value("kid", "") != kKeyId) return "kid";
  if (claims.value("iss", "") != kAccount) return "iss";
  if (claims.value("scope", "") != kScope) return "scope";
  if (claims.value("aud", "") != token_uri) return "aud";
  if (!claims["iat"].is_number_integer() || !claims["exp"].is_number_integer())
    return "iat/exp not integers";
  const std::int64_t iat = claims["iat"], exp = claims["exp"];
  const std::int64_t now =
      std::chrono::duration_cast<std::chrono::seconds>(
          std::chrono::system_clock::now().time_since_epoch())
          .count();
  if (exp - iat != 3600) return "exp is not iat + 3600";
  if (iat_out != nullptr)
    *iat_out = iat;
  else if (iat < now - 300 || iat > now + 300)
    return "iat is not now";
  return {};
}

/// The form body's value of `name`, percent-decoded.
inline std::string form_value(const std::string& body,
                              const std::string& name) {
  for (std::size_t at = 0; at <= body.size();) {
    std::size_t end = body.find('&', at);
    if (end == std::string::npos) end = body.size();
    const std::string pair = body.substr(at, end - at);
    if (pair.starts_with(name + "="))
      return sitemill::percent_decode(pair.substr(name.size() + 1));
    at = end + 1;
  }
  return {};
}

/// Search Console and Bing on one loopback server, each request judged as
/// the real API would; problems found are listed in `problems`.
class engines_stand_in {
 public:
  engines_stand_in() {
    server.route("/token",
                 [this](const recorded_request& r) { return token(r); });
    server.route("/webmaster/api.svc/json/SubmitFeed",
                 [this](const recorded_request& r) { return bing(r); });
    server.fallback([this](const recorded_request& r) { return google(r); });
  }

  http_server server;
  std::string token_uri() const { return server.url("/token"); }
  std::string api_url() const { return server.url(""); }

  /// Answers instead of the token endpoint's 200, Google's 204 and Bing's
  /// {"d":null}; empty: those.
  std::vector<http_reply> token_replies, google_replies, bing_replies;

  std::vector<std::string> problems() const {
    std::lock_guard lock(mu_);
    return problems_;
  }
  /// Decoded path segments of each PUT: {site, sitemap}.
  std::vector<std::pair<std::string, std::string>> google_puts() const {
    std::lock_guard lock(mu_);
    return puts_;
  }
  /// {siteUrl, feedUrl} of each SubmitFeed.
  std::vector<std::pair<std::string, std::string>> bing_feeds() const {
    std::lock_guard lock(mu_);
    return feeds_;
  }
  std::vector<std::string> raw_google_targets() const {
    std::lock_guard lock(mu_);
    return targets_;
  }

 private:
  void problem(std::string p) {
    std::lock_guard lock(mu_);
    problems_.push_back(std::move(p));
  }
  http_reply next(std::vector<http_reply>& replies, std::size_t& used,
                  http_reply fallback) {
    std::lock_guard lock(mu_);
    if (used < replies.size()) return replies[used++];
    return fallback;
  }

  http_reply token(const recorded_request& r) {
    if (r.method != "POST") problem("token: method " + r.method);
    if (r.header("Content-Type").value_or("") !=
        "application/x-www-form-urlencoded")
      problem("token: Content-Type");
    if (form_value(r.body, "grant_type") !=
        "urn:ietf:params:oauth:grant-type:jwt-bearer")
      problem("token: grant_type");
    if (std::string why =
            check_jwt(form_value(r.body, "assertion"), token_uri());
        !why.empty())
      problem("token: JWT: " + why);
    http_reply ok =
        text_reply(200,
                   std::string(R"({"access_token":")") + kAccessToken +
                       R"(","expires_in":3599,"token_type":"Bearer"})",
                   "application/json; charset=utf-8");
    ok.chunked = true;  // as Google sends it: no Content-Length
    ok.chunk_size = 16;
    return next(token_replies, token_used_, ok);
  }

  http_reply google(const recorded_request& r) {
    const std::string prefix = "/webmasters/v3/sites/";
    const std::string target = r.target;
    {
      std::lock_guard lock(mu_);
      targets_.push_back(target);
    }
    const std::size_t mid = target.find("/sitemaps/");
    if (!target.starts_with(prefix) || mid == std::string::npos) {
      problem("google: unexpected target " + target);
      return text_reply(404, "");
    }
    const std::string site = target.substr(prefix.size(), mid - prefix.size());
    const std::string feed = target.substr(mid + 10);
    for (const std::string& seg : {site, feed})
      if (seg.find_first_of(":/?#") != std::string::npos)
        problem("google: segment not fully encoded: " + seg);
    if (r.method != "PUT") problem("google: method " + r.method);
    if (r.header("Authorization").value_or("") !=
        std::string("Bearer ") + kAccessToken)
      problem("google: Authorization");
    if (r.header("Content-Length").value_or("") != "0")
      problem("google: Content-Length");
    {
      std::lock_guard lock(mu_);
      puts_.emplace_back(sitemill::percent_decode(site),
                         sitemill::percent_decode(feed));
    }
    http_reply no_content;  // what sitemaps.submit answers: an empty body
    no_content.status = 204;
    return next(google_replies, google_used_, no_content);
  }

  http_reply bing(const recorded_request& r) {
    if (r.method != "POST") problem("bing: method " + r.method);
    if (r.target.find(std::string("?apikey=") + kBingKey) == std::string::npos)
      problem("bing: apikey missing from " + r.target);
    if (r.header("Content-Type").value_or("") !=
        "application/json; charset=utf-8")
      problem("bing: Content-Type");
    const auto body = nlohmann::json::parse(r.body, nullptr, false);
    if (body.is_discarded() || !body.is_object() || body.size() != 2 ||
        !body["siteUrl"].is_string() || !body["feedUrl"].is_string()) {
      problem("bing: body " + r.body);
    } else {
      std::lock_guard lock(mu_);
      feeds_.emplace_back(body["siteUrl"], body["feedUrl"]);
    }
    return next(bing_replies, bing_used_,
                text_reply(200, R"({"d":null})", "application/json"));
  }

  mutable std::mutex mu_;
  std::vector<std::string> problems_;
  std::vector<std::pair<std::string, std::string>> puts_, feeds_;
  std::vector<std::string> targets_;
  std::size_t token_used_ = 0, google_used_ = 0, bing_used_ = 0;
};

}  // namespace sitemill::testing

#endif  // SITEMILL_TESTS_SUBMIT_SUPPORT_H
