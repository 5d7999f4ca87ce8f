// sitemill: the few S3 operations publishing a set needs, over net/'s
// http_client (one request at a time) with SigV4 (sigv4.h): PUT, GET, HEAD
// and DELETE of an object, ListObjectsV2 with its continuation, and a
// conditional create (If-None-Match: *). Every request is signed anew
// (a retry carries a fresh x-amz-date), with the payload's SHA-256.
//
// A request goes to the configured endpoint only: a redirect is followed
// on its host alone (the signature is the endpoint's; S3 never asks a
// client to carry it elsewhere), another is an error naming its target.
// The endpoint is the user's own configuration, so it may be a loopback or
// private address (MinIO on 127.0.0.1, a test server).
//
// Answers 429 and 5xx (503 SlowDown included) are retried under the
// retry_policy, with net/'s backoff and Retry-After (exchange.h); transport
// failures are not. A refusal becomes an error naming the request, the
// object, the status and S3's own <Code> and <Message> ("PUT
// s3://b/sitemap.xml: 403 Forbidden, InvalidAccessKeyId: The AWS Access Key
// Id you provided does not exist in our records."). Neither the secret nor
// the Authorization header is ever part of a message or trace line.
//
// Not thread-safe: one client per thread, as http_client.
#ifndef SITEMILL_STORE_S3_CLIENT_H
#define SITEMILL_STORE_S3_CLIENT_H

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sitemill/net/http.h"
#include "sitemill/result.h"
#include "store/s3_config.h"

namespace sitemill::store {

/// An object as a listing or a HEAD tells it.
struct s3_object {
  std::string key;  ///< the full key, prefix included
  std::uint64_t size = 0;
  std::string etag;          ///< as sent, quotes included
  std::string content_type;  ///< HEAD's only; a listing does not say
};

/// How an object is stored.
struct s3_put_options {
  std::string content_type;   ///< "application/xml"; "" sends none
  std::string cache_control;  ///< "" sends none
  /// If-None-Match: * : create only, a 412 when the key exists.
  bool create_only = false;
};

/// One request as the client sent it and what came back: what a test's
/// hook (s3_client::after_request) sees.
struct s3_exchange {
  std::string method;
  std::string key;
  long status = 0;  ///< 0 when no answer came
};

/// How a PUT ended when it did not store the object.
enum class s3_put_outcome : std::uint8_t {
  stored,
  exists,  ///< create_only and the key exists (412, or 409 mid-race)
};

class s3_client {
 public:
  s3_client(s3_config config, s3_location where, http_options http = {},
            retry_policy retry = {});

  /// "s3://bucket/" + key, for messages.
  std::string url_of(std::string_view key) const;
  const s3_location& where() const noexcept { return where_; }

  /// Stores `body` under `key` (one PUT: a sitemap file is at most 50 MiB
  /// by the protocol, far under S3's 5 GiB for one PUT).
  result<s3_put_outcome> put(const std::string& key, std::string_view body,
                             const s3_put_options& options);
  /// The object's bytes; std::nullopt when there is no such key.
  result<std::optional<std::string>> get(const std::string& key);
  /// Streams the object's bytes to `receive` as they arrive (a reader's
  /// GET: nothing is held). The object as its answer tells it (size: the
  /// bytes received), or an error: S3's refusal, 404 NoSuchKey included
  /// ("GET s3://b/k: 404 Not Found, NoSuchKey: The specified key does not
  /// exist."), a transport failure, or the transfer ended by `receive`
  /// returning false or by `cancelled` (asked as http_request::cancelled).
  result<s3_object> read(const std::string& key, const body_receiver& receive,
                         std::function<bool()> cancelled = {});
  /// The object's size and ETag; std::nullopt when there is no such key.
  result<std::optional<s3_object>> head(const std::string& key);
  /// Deletes `key`; absent is no error (S3 answers 204 either way).
  status remove(const std::string& key);
  /// Every object whose key starts with `prefix`, across pages; with
  /// `max_objects` (0: no cap), an error once a listing holds more, or
  /// runs past 1 + max_objects / 100 pages, so a server that never ends
  /// its pages cannot hold a reader.
  result<std::vector<s3_object>> list(const std::string& prefix,
                                      std::size_t max_objects = 0);

  /// Keys per listing page (max-keys); 0: the server's default (1,000).
  /// Tests lower it to cross pages with a few objects.
  int list_page_size = 0;

  /// Told of each request after its answer (or failure), retries
  /// included, on the calling thread: crash tests end the process there,
  /// and count what was sent. Empty: nothing.
  std::function<void(const s3_exchange&)> after_request;

 private:
  struct reply {
    long status = 0;
    std::string body;
    http_response head;
  };
  /// A 2xx body goes to `stream` when given, else is kept when
  /// `keep_body`; a refusal's start is always kept.
  result<reply> send(const std::string& method, const std::string& key,
                     std::vector<std::pair<std::string, std::string>> query,
                     std::string_view body,
                     std::vector<std::pair<std::string, std::string>> headers,
                     bool keep_body, const body_receiver* stream = nullptr,
                     std::function<bool()> cancelled = {});
  error refusal(const std::string& method, const std::string& key,
                const reply& r) const;

  s3_config config_;
  s3_location where_;
  retry_policy retry_;
  fetch_scope scope_;
  http_client http_;
};

/// The text of the first <name>...</name> in `xml`, unescaped; "" when none.
std::string xml_text_of(std::string_view xml, std::string_view name);

/// A ListObjectsV2 page: its objects, and the continuation token when
/// <IsTruncated> is true ("" when it is the last page).
struct s3_list_page {
  std::vector<s3_object> objects;
  std::string next_token;
};
s3_list_page parse_list_page(std::string_view xml);

}  // namespace sitemill::store

#endif  // SITEMILL_STORE_S3_CLIENT_H
