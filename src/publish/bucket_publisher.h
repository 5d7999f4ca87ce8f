// sitemill: publishing a set to a bucket (an out_dir "s3://BUCKET/PREFIX/"),
// with the directory publisher's guarantees kept on a store that has no
// rename (docs/publishing.md, "Buckets"):
//
// - the children are content-named, so a new one never overwrites an object
//   the live index names; they are uploaded first, an unchanged one (the
//   manifest's digest, and the object there with its size) not at all;
// - the entry (NAME.xml) is uploaded last: its PUT is the commit, atomic for
//   readers as every PUT of S3 is;
// - children the new set no longer names are deleted only after that, and
//   only those the previous manifest lists (sitemill wrote them), at once or
//   once bucket_options::keep_old has passed;
// - a journal object, written before the first upload, lets the next run
//   finish a publish killed after its commit or delete the children of one
//   killed before it;
// - a lock object, created with If-None-Match: * and holding an expiry,
//   keeps a second run out.
//
// Bookkeeping (lock, manifest, journal) lives beside the prefix, never
// under it: "a/b/" keeps it under "a/.sitemill/b/", the bucket's root under
// ".sitemill/" (bucket_bookkeeping_prefix()).
//
// Not thread-safe; the generate run's consumer thread owns it.
#ifndef SITEMILL_PUBLISH_BUCKET_PUBLISHER_H
#define SITEMILL_PUBLISH_BUCKET_PUBLISHER_H

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/publish/bucket.h"
#include "sitemill/publish/publish.h"
#include "sitemill/result.h"
#include "store/s3_client.h"

namespace sitemill::detail {

/// Where the bookkeeping of a set under `prefix` ("" or ending in '/') is:
/// "a/b/" -> "a/.sitemill/b/", "" -> ".sitemill/".
std::string bucket_bookkeeping_prefix(std::string_view prefix);

/// "application/xml", "application/gzip" (never a Content-Encoding: the
/// file is a gzip file), "text/plain; charset=utf-8", ... by a name's end.
std::string_view content_type_of(std::string_view name) noexcept;

class bucket_publisher {
 public:
  /// Reads the configuration (s3_config.h), takes the set's lock in the
  /// bucket, finishes or undoes what a killed run's journal records, and
  /// reads the manifest. Errors name `out_dir` and say what the bucket
  /// refused (S3's code and message). `after_step` is told
  /// publish_step::bucket_request after each request, and the other steps
  /// as publisher's are.
  static result<std::unique_ptr<bucket_publisher>> open(
      const std::string& out, const std::string& set,
      const bucket_options& options,
      std::function<void(publish_step)> after_step,
      const store::env_reader& env = store::process_env);
  /// Deletes the lock object, if this run holds it.
  ~bucket_publisher();

  /// Publishes `files` (staged in local temporary files) as the new set.
  /// A failure at any request before the entry's PUT leaves the old entry
  /// and every child it names in place.
  [[nodiscard]] status publish(std::vector<staged_file> files,
                               const std::string& entry);

  /// The set the manifest records (empty on a first run).
  const std::vector<published_file>& current() const noexcept {
    return current_;
  }
  /// "s3://bucket/prefix/".
  const std::string& url() const noexcept { return url_; }
  /// Requests sent so far, by method ("PUT": 3), retries included.
  const std::map<std::string, std::size_t>& requests() const noexcept {
    return requests_;
  }

 private:
  bucket_publisher(store::s3_config config, store::s3_location where,
                   std::string set, const bucket_options& options,
                   std::function<void(publish_step)> after_step);
  status take_lock();
  status keep_lock();
  status recover();
  status read_manifest();
  std::string key(std::string_view name) const {
    return where_.prefix + std::string(name);
  }
  std::string book(std::string_view name) const {
    return book_ + std::string(name);
  }
  error refused(const std::string& what, const error& e) const;
  void step(publish_step s) {
    if (after_step_) after_step_(s);
  }

  store::s3_location where_;
  std::string url_;
  std::string book_;
  std::string set_;
  bucket_options options_;
  std::function<void(publish_step)> after_step_;
  store::s3_client client_;
  std::string token_ = new_run_token();
  bool locked_ = false;
  std::chrono::steady_clock::time_point lock_written_;
  std::vector<published_file> current_;
  std::string current_entry_;
  /// Children retired by earlier publishes, kept until the time given
  /// (keep_old): name -> Unix seconds.
  std::map<std::string, long long> retired_;
  /// The objects under the set's prefix that start with its name: key ->
  /// size, as listed at open().
  std::map<std::string, std::uint64_t> listed_;
  std::map<std::string, std::size_t> requests_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_PUBLISH_BUCKET_PUBLISHER_H
