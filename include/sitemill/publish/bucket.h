// sitemill: publishing a set to S3-compatible object storage, an out_dir of
// "s3://BUCKET/PREFIX/" (docs/publishing.md, "Buckets"). The configuration
// (keys, region, endpoint) is read as the AWS CLI reads it: the AWS_*
// environment variables and the profile of ~/.aws/credentials and
// ~/.aws/config. What a publish to a bucket guarantees, request by request,
// is docs/publishing.md's.
#ifndef SITEMILL_PUBLISH_BUCKET_H
#define SITEMILL_PUBLISH_BUCKET_H

#include <chrono>
#include <string>

#include "sitemill/net/http.h"

namespace sitemill {

/// How a set's objects are stored in a bucket.
struct bucket_options {
  /// Sent as Cache-Control with every object of the set; "" sends none.
  /// The entry is fetched again after each publish, the content-named
  /// children never change: "max-age=300" suits both, or give the children
  /// a long life at the CDN (docs/publishing.md).
  std::string cache_control;
  /// Children the new set no longer names stay this long after the publish
  /// that retired them (for crawlers that read the old index a while ago),
  /// and are deleted by the first publish after that. 0: deleted at once,
  /// just after the new entry is in place.
  std::chrono::seconds keep_old{0};
  /// The HTTP client's settings (timeouts, a trace of each request).
  http_options http;
  /// Answers 429 and 5xx (503 SlowDown) are retried with this backoff.
  retry_policy retry;
};

}  // namespace sitemill

#endif  // SITEMILL_PUBLISH_BUCKET_H
