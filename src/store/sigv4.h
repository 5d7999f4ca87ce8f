// sitemill: AWS Signature Version 4 for S3 requests (the Authorization
// header form), the one signer of the object-storage target. The rules are
// those of Amazon S3's "Signature Calculations for the Authorization
// Header": a canonical request (method, the key's path encoded once, the
// query sorted, the signed headers lowercased and sorted, the payload's
// SHA-256), a string to sign over its hash, and a key derived from the
// secret by chained HMAC-SHA-256 over date, region, service and
// "aws4_request". S3 differs from the other services in one place: the
// path is not normalised and not encoded twice.
//
// Pure functions: thread-safe, nothing kept. The secret is read, never
// copied into anything returned (the signing key and signature are derived
// from it, which is what the protocol sends).
#ifndef SITEMILL_STORE_SIGV4_H
#define SITEMILL_STORE_SIGV4_H

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sitemill::store {

/// An access key pair, with the session token of temporary credentials
/// (sent as x-amz-security-token, and signed) when there is one.
struct aws_credentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;
};

/// What is signed of one request. Header names in any case; values as sent
/// (the signer trims them and folds inner runs of spaces, as SigV4 asks).
struct sigv4_input {
  std::string method;  ///< "GET", "PUT", ...
  /// The path as sent, each key byte already encoded (s3_path_encode()).
  std::string canonical_uri = "/";
  /// Query parameters, not encoded: the signer encodes and sorts them.
  std::vector<std::pair<std::string, std::string>> query;
  /// Every header to sign, Host and x-amz-date and x-amz-content-sha256
  /// among them (x-amz-security-token too with a session token).
  std::vector<std::pair<std::string, std::string>> headers;
  /// Lowercase hex SHA-256 of the body, or "UNSIGNED-PAYLOAD".
  std::string payload_hash;
  std::string amz_date;  ///< "20130524T000000Z"
  std::string region;    ///< "us-east-1"
  std::string service = "s3";
};

/// Every stage, so a test can compare each with AWS's published examples.
struct sigv4_result {
  std::string canonical_request;
  std::string string_to_sign;
  std::string signed_headers;  ///< "host;range;x-amz-content-sha256;x-amz-date"
  std::string signature;       ///< lowercase hex
  std::string authorization;   ///< the Authorization header's value
};

/// Signs `in` with `credentials` (their session token is not added here:
/// the caller puts it among the headers it signs).
sigv4_result sign_v4(const sigv4_input& in, const aws_credentials& credentials);

/// SigV4's URI encoding: unreserved bytes (A-Z a-z 0-9 - . _ ~) as they
/// are, every other byte as %XY in uppercase hex; '/' kept when
/// `keep_slash` (an object key in a path), encoded otherwise (a query).
std::string uri_encode(std::string_view bytes, bool keep_slash);

/// The query string as signed and sent: each name and value uri_encode()d,
/// sorted by name then value, joined by '&' ("list-type=2&prefix=a%2Fb").
std::string canonical_query(
    const std::vector<std::pair<std::string, std::string>>& query);

/// "20130524T000000Z" for `unix_seconds`.
std::string amz_date_of(long long unix_seconds);

/// Lowercase hex SHA-256 of `payload` (x-amz-content-sha256).
std::string payload_sha256(std::string_view payload);

}  // namespace sitemill::store

#endif  // SITEMILL_STORE_SIGV4_H
