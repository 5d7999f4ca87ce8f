// sitemill: where a bucket is and who may write it, read the way every S3
// tool reads it (the AWS CLI and SDKs' environment variables and shared
// files), so a deploy that runs `aws s3` runs sitemill unchanged.
//
// Credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (with
// AWS_SESSION_TOKEN) when both are set; otherwise the profile AWS_PROFILE
// names ("default" when unset) in the credentials file
// (AWS_SHARED_CREDENTIALS_FILE, default ~/.aws/credentials, sections
// "[name]") and then the config file (AWS_CONFIG_FILE, default
// ~/.aws/config, sections "[profile name]", "[default]"). Region:
// AWS_REGION, AWS_DEFAULT_REGION, the profile's `region`, else us-east-1.
// Endpoint: AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, the profile's
// `endpoint_url`, else AWS's regional endpoint. A custom endpoint (MinIO,
// R2, a test server) is addressed path-style (ENDPOINT/BUCKET/KEY), which
// every S3-compatible server takes; AWS's own virtual-hosted style
// (BUCKET.s3.REGION.amazonaws.com/KEY).
//
// Nothing here prints or returns the secret in a message.
#ifndef SITEMILL_STORE_S3_CONFIG_H
#define SITEMILL_STORE_S3_CONFIG_H

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "sitemill/result.h"
#include "store/sigv4.h"

namespace sitemill::store {

/// "s3://BUCKET/PREFIX/" taken apart.
struct s3_location {
  std::string bucket;
  std::string prefix;  ///< "" or ending in '/': keys are prefix + name
};

/// Whether `out` names object storage ("s3://...").
bool is_s3_url(std::string_view out) noexcept;

/// Parses "s3://BUCKET" or "s3://BUCKET/PREFIX[/]": a bucket name as S3
/// allows (3 to 63 of a-z 0-9 . -), a prefix without empty, "." or ".."
/// segments; a prefix gets its trailing '/'. The error says what is wrong.
result<s3_location> parse_s3_url(std::string_view out);
/// As parse_s3_url(), for a location to read: the error names `location`,
/// not an option.
result<s3_location> parse_s3_prefix(std::string_view location);

/// One object: "s3://BUCKET/KEY".
struct s3_object_location {
  std::string bucket;
  std::string key;  ///< not empty, not ending in '/'
};

/// Whether a location to read names a set ("s3://BUCKET/PREFIX/", with its
/// trailing '/', or the bucket alone) rather than one object.
bool names_s3_prefix(std::string_view location) noexcept;

/// Parses "s3://BUCKET/KEY" as parse_s3_url() judges a prefix (the same
/// bucket names, no empty, "." or ".." segment, no control character);
/// the error names `location` and says what is wrong.
result<s3_object_location> parse_s3_object(std::string_view location);

/// Everything a request to the bucket needs.
struct s3_config {
  aws_credentials credentials;
  std::string region = "us-east-1";
  /// "https://s3.us-east-1.amazonaws.com" or a custom "http://127.0.0.1:9000",
  /// without a trailing '/'.
  std::string endpoint;
  bool path_style = false;  ///< ENDPOINT/BUCKET/KEY rather than a bucket host
  /// Where the credentials came from, for messages: "the environment
  /// (AWS_ACCESS_KEY_ID)", "profile default of /home/u/.aws/credentials".
  std::string credentials_from;
};

/// Reads a variable of the environment; std::nullopt when unset.
using env_reader = std::function<std::optional<std::string>(const char*)>;

/// The process environment (std::getenv); an empty value counts as unset.
std::optional<std::string> process_env(const char* name);

/// The configuration from `env` and the files it leads to. An error when no
/// credentials are found (naming where it looked), a profile named by
/// AWS_PROFILE does not exist, or an endpoint is not an http(s) URL.
result<s3_config> resolve_s3_config(const env_reader& env = process_env);

/// The value of `key` in section `section` of INI text (`key = value`
/// lines, '#' and ';' comments, names compared without regard to case and
/// surrounding spaces; an indented line continues a nested block such as
/// "s3 =" and is not a key of the section). std::nullopt when absent.
std::optional<std::string> ini_value(std::string_view text,
                                     std::string_view section,
                                     std::string_view key);

}  // namespace sitemill::store

#endif  // SITEMILL_STORE_S3_CONFIG_H
