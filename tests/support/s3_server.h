// s3rver (npm), an S3 implementation run on loopback for the S3 publishing
// tests: S3's objects, listings, errors and access key check. s3rver 3.7.1
// (the latest) does not verify Version 4 signatures ("Signature version 4
// calculation is unimplemented" in its source): tests/s3_client_test.cpp
// verifies each request as S3 would, and tests/s3_sigv4_test.cpp the
// signer against AWS's published examples. scripts/install-deps.sh npm-s3
// installs it as tests/s3/package-lock.json pins it, into
// $SITEMILL_NPM_CACHE/s3rver-<first 16 hex of the lockfile's SHA-256>
// (default cache ~/.cache/sitemill-generators); scripts/test.sh runs that
// step. A missing server FAILS the test that needs it, saying how to
// install it: never a skip.
//
// Each server has its own data directory and an ephemeral port, one bucket
// (`bucket()`), and the fixed keys s3rver accepts (S3RVER / S3RVER).
// Not thread-safe.
#ifndef SITEMILL_TESTS_SUPPORT_S3_SERVER_H
#define SITEMILL_TESTS_SUPPORT_S3_SERVER_H

#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

#include "support/run.h"

namespace sitemill::testing {

/// Where s3rver's CLI is installed; "" when it is not.
std::string s3rver_path();

class s3_server {
 public:
  /// Starts s3rver with bucket `bucket` and waits until it listens; fails
  /// the test when it cannot.
  explicit s3_server(std::string bucket = "sitemaps");
  ~s3_server();
  s3_server(const s3_server&) = delete;
  s3_server& operator=(const s3_server&) = delete;

  bool running() const noexcept { return pid_ > 0 && !endpoint_.empty(); }
  /// "http://127.0.0.1:PORT".
  const std::string& endpoint() const noexcept { return endpoint_; }
  const std::string& bucket() const noexcept { return bucket_; }

  /// The environment a sitemill run needs to reach it: AWS_* set to this
  /// server and its keys, every other AWS_* and HOME's files out of the way.
  std::vector<std::string> environment(
      const std::string& access_key = "S3RVER",
      const std::string& secret = "S3RVER") const;

 private:
  std::string bucket_;
  temp_dir data_;
  std::string endpoint_;
  pid_t pid_ = -1;
};

}  // namespace sitemill::testing

#endif  // SITEMILL_TESTS_SUPPORT_S3_SERVER_H
