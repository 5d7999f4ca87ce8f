// The walker's reading: a file or stdin in blocks, an HTTP body as it
// arrives, each streamed through one sitemap_parser, with the time cap and
// cancellation polled between blocks.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "detail/fd_wait.h"
#include "detail/text.h"
#include "parse/document_parser.h"
#include "walk/walker_impl.h"

namespace sitemill {
namespace {

// Big enough that a read(2) costs nothing next to parsing it, small enough to
// notice a cancel or the time cap within a few milliseconds.
constexpr std::size_t block_size = 256 * 1024;

// A sitemap's body is worth reading only when it answered 200: an error
// page's status is known from its head, and its body is never downloaded.
bool only_a_200(const http_head& head) { return head.status == 200; }

walk_skip failure(walk_skip_reason reason, std::string message) {
  walk_skip s;
  s.reason = reason;
  s.message = std::move(message);
  return s;
}

}  // namespace

std::optional<walk_skip> sitemap_walker::impl::read_local(
    const walk_document& doc, parse_handler& handler, walk_read& out) {
  const bool from_stdin = doc.path == "-";
  const int fd = from_stdin ? 0 : detail::open_for_reading(doc.path.c_str());
  if (fd < 0)
    return failure(walk_skip_reason::read_failed,
                   "cannot open " + doc.path + ": " + std::strerror(errno));
  if (!buffer) buffer = std::make_unique<char[]>(block_size);
  // A regular file can be read again: the parser's scanner then reads it,
  // and hands what it leaves to libxml2 over by reading it again.
  struct stat st {};
  const bool regular =
      !from_stdin && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  bool stopped_again = false;
  std::string again_error;
  const auto again =
      [&](const std::function<bool(const char*, std::size_t)>& sink) {
        if (::lseek(fd, 0, SEEK_SET) != 0) return false;
        for (;;) {
          if (should_stop()) {
            stopped_again = true;
            return true;
          }
          const ssize_t n = ::read(fd, buffer.get(), block_size);
          if (n < 0 && errno == EINTR) continue;
          if (n < 0) {
            again_error =
                std::string("reading again stopped: ") + std::strerror(errno);
            return false;
          }
          if (n == 0 || !sink(buffer.get(), static_cast<std::size_t>(n)))
            return true;
        }
      };
  detail::document_parser parser(
      handler, options.parse,
      regular ? detail::reread_function(again) : detail::reread_function{});
  std::uint64_t total = 0;
  // A pipe or FIFO may send nothing for ever: wait in steps, so a cancel or
  // the time cap is seen between them.
  const bool wait_first = detail::may_block(fd);
  for (;;) {
    if (should_stop()) {
      out.stop = stop_inside();
      break;
    }
    if (wait_first && !detail::wait_readable(fd, detail::fd_wait_step_ms))
      continue;
    const ssize_t n = ::read(fd, buffer.get(), block_size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string why = std::strerror(errno);
      if (total == 0) {
        if (!from_stdin) ::close(fd);
        return failure(walk_skip_reason::read_failed,
                       "cannot read " + doc.path + ": " + why);
      }
      out.read_error = "reading stopped after " + detail::with_commas(total) +
                       " bytes: " + why;
      break;
    }
    if (n == 0) break;
    total += static_cast<std::uint64_t>(n);
    if (!parser.feed(buffer.get(), static_cast<std::size_t>(n))) break;
  }
  out.summary = parser.finish();
  if (!from_stdin) ::close(fd);
  if (stopped_again && out.stop == walk_stop::none) out.stop = stop_inside();
  if (!again_error.empty() && out.read_error.empty())
    out.read_error = std::move(again_error);
  return std::nullopt;
}

std::optional<walk_skip> sitemap_walker::impl::fetch(const walk_document& doc,
                                                     parse_handler& handler,
                                                     walk_read& out) {
  sitemap_parser parser(handler, options.parse);
  bool cut_off = false, interrupted = false;
  auto r = http().send(
      request_for(doc.url),
      [&](const char* data, std::size_t size) {
        if (should_stop()) {
          interrupted = true;
          return false;
        }
        // Only a 200's body is read (only_a_200), so once the parser has
        // stopped (a fatal error) nothing more is needed from it.
        cut_off = !parser.feed(data, size);
        return !cut_off;
      },
      only_a_200);
  out.summary = parser.finish();
  // The request's timeout is cut to what is left of the walk, so a timeout
  // then is the walk's time cap, not the server's fault.
  if (!r && (cancelled || hit_deadline())) interrupted = true;
  if (!r && interrupted) {
    // Stopped by us: what was read is the document, with the headers that
    // came before the stop.
    out.stop = stop_inside();
    out.content_type = client->last_response().content_type;
    return std::nullopt;
  }
  if (!r && !cut_off) return fetch_failure(r.err());
  // A 200 cut off where the parser stopped is the document it was.
  const http_response& answer = r ? *r : client->last_response();
  if (answer.status != 200) {
    walk_skip s = failure(walk_skip_reason::http_status, {});
    s.status = answer.status;
    if (!answer.effective_url.empty() && answer.effective_url != doc.url)
      s.url = answer.effective_url;
    return s;
  }
  out.redirects = answer.redirects;
  out.content_type = answer.content_type;
  std::string final_url;
  if (!answer.effective_url.empty() &&
      normalize_url(answer.effective_url, final_url) == url_problem::ok &&
      final_url != doc.url)
    out.final_url = std::move(final_url);
  return std::nullopt;
}

walk_text sitemap_walker::impl::fetch_text(const std::string& url,
                                           std::size_t keep, bool peek) {
  walk_text out;
  bool interrupted = false;
  bool enough = false;
  auto r =
      http().send(request_for(url), [&](const char* data, std::size_t size) {
        if (should_stop()) {
          interrupted = true;
          return false;
        }
        if (out.body.size() < keep)
          out.body.append(data, std::min(size, keep - out.body.size()));
        enough = peek && out.body.size() >= keep;
        return !enough;
      });
  if (!r && (cancelled || hit_deadline())) interrupted = true;
  if (!r && enough && !interrupted) {
    // Ended by us once `keep` bytes were in: the answer is what came.
    out.response = client->last_response();
    bytes += out.response->body_bytes;
    return out;
  }
  if (!r) {
    if (interrupted)
      out.stop = stop_inside();
    else
      out.error = r.err().message;
    return out;
  }
  bytes += r->body_bytes;
  out.response = std::move(*r);
  return out;
}

walk_reread sitemap_walker::impl::reread(const std::string& url,
                                         parse_handler& handler,
                                         const parse_options& parse) {
  walk_reread out;
  sitemap_parser parser(handler, parse);
  bool interrupted = false;
  auto r = http().send(
      request_for(url),
      [&](const char* data, std::size_t size) {
        if (should_stop()) {
          interrupted = true;
          return false;
        }
        return parser.feed(data, size);
      },
      only_a_200);
  out.summary = parser.finish();
  bytes += out.summary.bytes;
  if (!r && (cancelled || hit_deadline())) interrupted = true;
  if (interrupted) {
    out.stop = stop_inside();
    return out;
  }
  out.ok = r && r->status == 200;
  return out;
}

http_request sitemap_walker::impl::request_for(const std::string& url) {
  http_request r;
  r.url = url;
  r.scope = &scope;
  r.cancelled = [this] { return cancel_asked(); };
  return r;
}

walk_skip sitemap_walker::impl::fetch_failure(const error& e) const {
  const std::string& refused = client->last_response().out_of_scope;
  if (refused.empty())
    return failure(walk_skip_reason::fetch_failed, e.message);
  walk_skip s = failure(walk_skip_reason::out_of_scope, e.message);
  // A refused address is no URL; a redirect's target is.
  if (!parse_ip_address(refused)) s.url = refused;
  return s;
}

// One client for the walk, so connections are reused; remade with a shorter
// timeout once less than one request's worth of the walk's time is left.
http_client& sitemap_walker::impl::http() {
  const auto left =
      std::max(std::chrono::duration_cast<std::chrono::milliseconds>(
                   deadline - steady::now()),
               std::chrono::milliseconds(1));
  if (client && left >= client->options().total_timeout) return *client;
  http_options o = options.http;
  if (o.user_agent.empty()) o.user_agent = default_user_agent();
  client_capped = left < o.total_timeout;
  o.total_timeout = std::min(o.total_timeout, left);
  o.connect_timeout = std::min(o.connect_timeout, o.total_timeout);
  client = std::make_unique<http_client>(o);
  return *client;
}

// libcurl's timers may fire a hair early, hence the margin.
bool sitemap_walker::impl::hit_deadline() const {
  return client_capped &&
         steady::now() + std::chrono::milliseconds(100) >= deadline;
}

}  // namespace sitemill
