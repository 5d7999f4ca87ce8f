// The walker's reading of objects in a bucket ("s3://BUCKET/KEY"): a signed
// GET (store/s3_client.h) whose body streams into the parser as an HTTP
// body does, under the walk's time cap and cancellation (walker.h,
// "Buckets").
#include <algorithm>
#include <thread>

#include "walk/walker_impl.h"

namespace sitemill {
namespace {

walk_skip read_failure(std::string message) {
  walk_skip s;
  s.reason = walk_skip_reason::read_failed;
  s.message = std::move(message);
  return s;
}

// libcurl's timers may fire a hair early, hence the margin.
constexpr std::chrono::milliseconds deadline_margin{100};

}  // namespace

result<store::s3_client*> sitemap_walker::impl::bucket_client(
    const std::string& bucket) {
  if (!s3_config_read) {
    s3_config_read = true;
    auto c = store::resolve_s3_config();
    if (c)
      s3_config = std::move(*c);
    else
      s3_config_error = c.err().message;
  }
  if (!s3_config) return error{s3_config_error};
  const auto left =
      std::max(std::chrono::duration_cast<std::chrono::milliseconds>(
                   deadline - steady::now()),
               std::chrono::milliseconds(1));
  if (s3 && s3->where().bucket == bucket && left >= s3_timeout) return s3.get();
  http_options o = options.http;
  if (o.user_agent.empty()) o.user_agent = default_user_agent();
  o.total_timeout = std::min(o.total_timeout, left);
  o.connect_timeout = std::min(o.connect_timeout, o.total_timeout);
  s3_timeout = o.total_timeout;
  // S3's 503 SlowDown and 500s are asked again, waiting in steps so that a
  // cancel or the time cap ends the wait; never past the walk's end.
  retry_policy retry;
  retry.sleep = [this](std::chrono::milliseconds d) {
    const auto until = std::min(steady::now() + d, deadline);
    while (steady::now() < until && !should_stop())
      std::this_thread::sleep_for(
          std::min<steady::duration>(http_cancel_step, until - steady::now()));
    return !should_stop();
  };
  s3 = std::make_unique<store::s3_client>(*s3_config,
                                          store::s3_location{bucket, ""},
                                          std::move(o), std::move(retry));
  return s3.get();
}

sitemap_walker::impl::object_read sitemap_walker::impl::stream_object(
    const std::string& location, sitemap_parser& parser) {
  object_read out;
  auto where = store::parse_s3_object(location);
  if (!where) {
    out.answer = where.err();
    return out;
  }
  auto bucket = bucket_client(where->bucket);
  if (!bucket) {
    out.answer = error{location + ": " + bucket.err().message};
    return out;
  }
  out.answer = (*bucket)->read(
      where->key,
      [&](const char* data, std::size_t size) {
        if (should_stop()) {
          out.interrupted = true;
          return false;
        }
        out.received += size;
        out.cut_off = !parser.feed(data, size);
        return !out.cut_off;
      },
      [this] { return cancel_asked(); });
  if (!out.answer && (cancelled || steady::now() + deadline_margin >= deadline))
    out.interrupted = true;
  return out;
}

std::optional<walk_skip> sitemap_walker::impl::read_bucket(
    const walk_document& doc, parse_handler& handler, walk_read& out) {
  sitemap_parser parser(handler, options.parse);
  const object_read r = stream_object(doc.path, parser);
  out.summary = parser.finish();
  if (!r.answer && r.interrupted) {
    out.stop = stop_inside();
    return std::nullopt;
  }
  // A refusal (NoSuchKey, AccessDenied, NoSuchBucket), a transport failure
  // or no configuration; an answer cut off where the parser stopped is the
  // document it was.
  if (!r.answer && !r.cut_off) return read_failure(r.answer.err().message);
  if (r.answer) out.content_type = r.answer->content_type;
  out.stored_bytes = r.answer ? r.answer->size : r.received;
  return std::nullopt;
}

walk_reread sitemap_walker::impl::reread_bucket(const std::string& location,
                                                parse_handler& handler,
                                                const parse_options& parse) {
  walk_reread out;
  sitemap_parser parser(handler, parse);
  const object_read r = stream_object(location, parser);
  out.summary = parser.finish();
  bytes += out.summary.bytes;
  if (r.interrupted) {
    out.stop = stop_inside();
    return out;
  }
  out.ok = r.answer.has_value();
  return out;
}

}  // namespace sitemill
