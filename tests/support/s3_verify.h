// What s3rver does not do (tests/support/s3_server.h): verify an AWS
// Signature Version 4 the way S3 does, from the request as it arrived (the
// canonical request rebuilt from the request line and the signed headers,
// the payload hashed, the signature computed with the secret and
// compared). And a private bucket on loopback built on it: objects served
// path-style (/BUCKET/KEY) and listed (ListObjectsV2), only to requests
// that verify; the others get S3's 403 SignatureDoesNotMatch (or
// InvalidAccessKeyId), a missing key 404 NoSuchKey, another bucket 404
// NoSuchBucket, as S3 writes them.
//
// Thread-safety: private_bucket's objects may be changed while it serves
// (a lock guards them).
#ifndef SITEMILL_TESTS_SUPPORT_S3_VERIFY_H
#define SITEMILL_TESTS_SUPPORT_S3_VERIFY_H

#include <map>
#include <mutex>
#include <string>

#include "store/sigv4.h"
#include "support/http_server.h"

namespace sitemill::testing {

/// Why `request` is not signed as S3 would accept it with `credentials`
/// in `region`; "" when it verifies.
std::string sigv4_mismatch(const recorded_request& request,
                           const store::aws_credentials& credentials,
                           const std::string& region = "us-east-1");

/// `text` percent-decoded ("%2F" -> '/'); '+' stays '+'.
std::string percent_decoded(std::string_view text);

class private_bucket {
 public:
  /// Serves bucket `bucket` to requests signed with `credentials`.
  explicit private_bucket(std::string bucket = "private-maps",
                          store::aws_credentials credentials = {
                              "AKIDPRIVATE", "private-secret", ""});

  /// "http://127.0.0.1:PORT": AWS_ENDPOINT_URL_S3.
  std::string endpoint() const { return server_.url(""); }
  const std::string& bucket() const noexcept { return bucket_; }
  const store::aws_credentials& credentials() const noexcept {
    return credentials_;
  }
  void put(const std::string& key, std::string bytes);
  /// Requests answered, verified or not.
  std::vector<recorded_request> requests() const { return server_.requests(); }
  /// Requests that did not verify.
  std::size_t refused() const;
  /// The underlying server, to script answers for a key
  /// (route("/BUCKET/KEY", ...)) before the bucket's own.
  http_server& server() noexcept { return server_; }

 private:
  http_reply answer(const recorded_request& r);

  std::string bucket_;
  store::aws_credentials credentials_;
  mutable std::mutex mu_;
  std::map<std::string, std::string> objects_;
  std::size_t refused_ = 0;
  http_server server_;
};

}  // namespace sitemill::testing

#endif  // SITEMILL_TESTS_SUPPORT_S3_VERIFY_H
