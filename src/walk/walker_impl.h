// sitemill internals: the walker's state, shared by its four files:
// walker.cpp (admission, events, following), children.cpp (the child
// location rule and the fetch scope), read.cpp (files, stdin, HTTP) and
// bucket.cpp (objects of a bucket).
#ifndef SITEMILL_WALK_WALKER_IMPL_H
#define SITEMILL_WALK_WALKER_IMPL_H

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "sitemill/url/url.h"
#include "sitemill/walk/walker.h"
#include "store/s3_client.h"

namespace sitemill {

namespace detail {

/// A <loc> of an index, kept to be followed once the index is read.
struct child_ref {
  std::string loc;  ///< as written, trimmed
  std::uint64_t line = 0, column = 0;
};

/// Where the child location rule puts a local index's child.
struct local_child {
  /// The file to read (the index's directory joined with a relative path);
  /// empty when the child names no local file.
  std::string path;
  /// When the child names none because its URL is not at or below the
  /// directory the index is served from: that directory.
  std::string outside_of;
};

/// The child location rule (walker.h) without the index's directory: the
/// child's path relative to it, percent-decoded (empty when it names none:
/// outside it, "..", an absolute path, a NUL byte, a directory).
local_child child_relative_path(const normalized_url& index_dir,
                                const normalized_url& child,
                                std::string_view loc);

/// The child location rule (walker.h): `index_path` is the local index ("-"
/// for stdin), `index_dir` the URL whose directory it is served from (known
/// or inferred; may be empty), `child` the child's URL (empty when its
/// <loc> is relative and could not be resolved), `loc` its text.
local_child local_child_path(const std::string& index_path,
                             const normalized_url& index_dir,
                             const normalized_url& child, std::string_view loc);

/// Where a local index whose own URL is not known is taken to be served
/// (walker.h, the child location rule).
struct local_placement {
  /// The URL the index's children are mapped against: from the site root on
  /// disk when one disagrees with the children's URLs, else where those URLs
  /// put the index; empty when no child is an absolute URL.
  normalized_url index_url;
  /// Only when they disagree: where the children's URLs put the index, so a
  /// child not found by index_url may be read from beside it, and told as
  /// misplaced.
  normalized_url by_children;
  std::string site_root;    ///< the site root on disk, when one was found
  std::string_view marker;  ///< what marks it: "robots.txt" or "index.html"
};

/// The placement of the local index `index_path` ("-" for stdin), from its
/// children's <loc>s and the directory tree around it.
local_placement place_local_index(const std::string& index_path,
                                  const std::vector<child_ref>& children);

/// Where an index in a bucket whose own URL is not known is taken to be
/// served (walker.h, "Buckets"): its name (`index_name`, the key's last
/// segment) in the directory its children's URLs have in common.
local_placement place_bucket_index(std::string_view index_name,
                                   const std::vector<child_ref>& children);

/// The fetch scope for an index's child (walker.h): `index_url` is the URL
/// the index was read from, after redirects (empty for a local index whose
/// URL is unknown).
bool may_fetch_child(const normalized_url& child,
                     const normalized_url& index_url, bool cross_submit);

/// "ftp://...", "file:/..." and the like: a scheme that is not a path.
bool has_other_scheme(std::string_view s);

/// Tells walk_caps::trace what the walk decides, then the observer.
class traced_observer final : public walk_observer {
 public:
  traced_observer(walk_observer& inner,
                  const std::function<void(std::string_view)>& trace)
      : inner_(inner), trace_(trace) {}
  parse_handler& on_open(const walk_document& doc) override {
    return inner_.on_open(doc);
  }
  void on_read(const walk_document& doc, const walk_read& r) override;
  void on_done(const walk_document& doc, const walk_read& r) override {
    inner_.on_done(doc, r);
  }
  void on_failed(const walk_document& doc, const walk_skip& why) override;
  void on_skip(const walk_document& doc, const walk_skip& why) override;
  bool cancelled() override { return inner_.cancelled(); }

 private:
  walk_observer& inner_;
  const std::function<void(std::string_view)>& trace_;
};

}  // namespace detail

struct sitemap_walker::impl {
  using steady = std::chrono::steady_clock;

  impl(walk_options o, walk_observer& obs)
      : options(std::move(o)),
        traced(obs, options.trace),
        observer(options.trace ? traced : obs),
        deadline(steady::now() + options.max_time) {
    scope.allow_private = options.allow_private;
  }

  // walker.cpp
  void walk_target(const std::string& target, std::string_view served_at);
  void walk_listed(const walk_document& lister,
                   std::span<const walk_link> links);
  void visit(walk_document& doc);
  void follow(const walk_document& index, const walk_read& read,
              const std::vector<detail::child_ref>& children);
  std::optional<walk_skip> admit(const walk_document& doc,
                                 const std::string& key);
  static std::string key_of(const walk_document& doc);
  /// A location the user named (walker.h, "Fetch scope"): its private
  /// address, if it names one, joins the scope's allowed ones.
  void note_target(const normalized_url& url);
  bool is_ancestor(const std::string& key) const;
  bool seen(const std::string& key) const;
  void remember(const std::string& key);
  /// Polled between blocks: the observer's cancel, or the time cap.
  bool should_stop();
  /// The observer's cancel alone: also asked while a request waits for
  /// its answer (http_request::cancelled), so a server that says nothing
  /// holds a cancel no longer than a body that arrives.
  bool cancel_asked();
  /// Ends the walk inside a document; what to tell about it.
  walk_stop stop_inside();

  // read.cpp
  std::optional<walk_skip> read_local(const walk_document& doc,
                                      parse_handler& handler, walk_read& out);
  std::optional<walk_skip> fetch(const walk_document& doc,
                                 parse_handler& handler, walk_read& out);
  walk_text fetch_text(const std::string& url, std::size_t keep, bool peek);
  walk_reread reread(const std::string& url, parse_handler& handler,
                     const parse_options& parse);
  http_client& http();

  // bucket.cpp
  /// How streaming an object into a parser ended.
  struct object_read {
    result<store::s3_object> answer = error{};
    bool interrupted = false;  ///< a cancel or the time cap ended it
    bool cut_off = false;      ///< the parser stopped (a fatal error)
    std::uint64_t received = 0;
  };
  /// Streams the object at `location` ("s3://BUCKET/KEY") into `parser`,
  /// polling the stop between blocks.
  object_read stream_object(const std::string& location,
                            sitemap_parser& parser);
  /// Reads the object doc.path ("s3://BUCKET/KEY") with a signed GET.
  std::optional<walk_skip> read_bucket(const walk_document& doc,
                                       parse_handler& handler, walk_read& out);
  walk_reread reread_bucket(const std::string& location, parse_handler& handler,
                            const parse_options& parse);
  /// The client for `bucket`, its timeouts cut to what is left of the
  /// walk; an error when no S3 configuration is found.
  result<store::s3_client*> bucket_client(const std::string& bucket);
  /// GET `url` within the scope.
  http_request request_for(const std::string& url);
  /// A failed request's walk_skip: out_of_scope when the client refused a
  /// hop, else fetch_failed.
  walk_skip fetch_failure(const error& e) const;
  /// Whether a failed request ran into the walk's time cap.
  bool hit_deadline() const;

  const walk_options options;
  detail::traced_observer traced;  // observer, when options.trace is set
  walk_observer& observer;
  const steady::time_point deadline;

  /// Every request's scope; `allowed` grows with each target.
  fetch_scope scope;
  std::unique_ptr<http_client> client;
  bool client_capped = false;  // client's timeout is the time left
  std::unique_ptr<char[]> buffer;
  // The S3 configuration, read at the first object (or why there is none),
  // and one client, for the bucket last read.
  bool s3_config_read = false;
  std::optional<store::s3_config> s3_config;
  std::string s3_config_error;
  std::unique_ptr<store::s3_client> s3;
  std::chrono::milliseconds s3_timeout{0};
  // 64-bit fingerprints of every key read: at 1,000 documents the odds of
  // two keys sharing one are about 1 in 10^13.
  std::unordered_set<std::uint64_t> visited;
  std::vector<std::string> ancestors;  // keys, at most max_depth + 2
  std::uint64_t documents = 0;
  std::uint64_t bytes = 0;
  bool stopped = false;
  bool cancelled = false;
};

}  // namespace sitemill

#endif  // SITEMILL_WALK_WALKER_IMPL_H
