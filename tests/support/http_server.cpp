#include "support/http_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>

#include "support/run.h"

namespace sitemill::testing {
namespace {

// A request head larger than this is not something sitemill sends; the
// connection is dropped rather than buffered without end.
constexpr std::size_t kMaxHead = 64 * 1024;

bool iequals(std::string_view a, std::string_view b) noexcept {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' ||
                        s.back() == '\r' || s.back() == '\n'))
    s.remove_suffix(1);
  return s;
}

std::string_view reason(int status) {
  static constexpr std::pair<int, std::string_view> kReasons[] = {
      {100, "Continue"},
      {200, "OK"},
      {202, "Accepted"},
      {204, "No Content"},
      {301, "Moved Permanently"},
      {302, "Found"},
      {303, "See Other"},
      {304, "Not Modified"},
      {307, "Temporary Redirect"},
      {308, "Permanent Redirect"},
      {400, "Bad Request"},
      {403, "Forbidden"},
      {404, "Not Found"},
      {405, "Method Not Allowed"},
      {410, "Gone"},
      {422, "Unprocessable Entity"},
      {429, "Too Many Requests"},
      {500, "Internal Server Error"},
      {502, "Bad Gateway"},
      {503, "Service Unavailable"},
  };
  for (const auto& [code, text] : kReasons) {
    if (code == status) return text;
  }
  return "Status";  // any reason phrase will do (RFC 9112 4)
}

bool send_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// Appends what arrives on `fd` to `buf`; false on end of stream, an error,
// or when the server is stopping (`wake` readable).
bool read_more(int fd, int wake, std::string& buf) {
  pollfd fds[2] = {{fd, POLLIN, 0}, {wake, POLLIN, 0}};
  for (;;) {
    const int r = ::poll(fds, 2, -1);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0 || (fds[1].revents & POLLIN)) return false;
    break;
  }
  char chunk[16 * 1024];
  for (;;) {
    const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    buf.append(chunk, static_cast<std::size_t>(n));
    return true;
  }
}

// Reads a chunked body that starts at buf[pos], decoded into `body`; `pos`
// ends after the last CRLF. False when the stream ends or is malformed.
bool read_chunked(int fd, int wake, std::string& buf, std::size_t& pos,
                  std::string& body) {
  auto line = [&](std::string_view& out) {
    std::size_t eol;
    while ((eol = buf.find("\r\n", pos)) == std::string::npos) {
      if (buf.size() - pos > kMaxHead || !read_more(fd, wake, buf))
        return false;
    }
    out = std::string_view(buf).substr(pos, eol - pos);
    pos = eol + 2;
    return true;
  };
  for (;;) {
    std::string_view size_line;
    if (!line(size_line)) return false;
    std::size_t size = 0;
    const auto digits = size_line.substr(0, size_line.find(';'));
    const auto [end, ec] =
        std::from_chars(digits.data(), digits.data() + digits.size(), size, 16);
    if (ec != std::errc{} || end == digits.data()) return false;
    if (size == 0) break;
    while (buf.size() < pos + size + 2) {
      if (!read_more(fd, wake, buf)) return false;
    }
    body.append(buf, pos, size);
    pos += size + 2;
  }
  std::string_view trailer;  // trailers end with an empty line
  do {
    if (!line(trailer)) return false;
  } while (!trailer.empty());
  return true;
}

// Parses the head in buf[0, head_end) into `req`; false when malformed.
bool parse_head(std::string_view head, recorded_request& req) {
  std::size_t eol = head.find("\r\n");
  const std::string_view request_line = head.substr(0, eol);
  const std::size_t sp1 = request_line.find(' ');
  const std::size_t sp2 = request_line.rfind(' ');
  if (sp1 == std::string_view::npos || sp2 == sp1) return false;
  req.method = request_line.substr(0, sp1);
  req.target = request_line.substr(sp1 + 1, sp2 - sp1 - 1);
  req.version = request_line.substr(sp2 + 1);
  while (eol != std::string_view::npos) {
    const std::size_t start = eol + 2;
    eol = head.find("\r\n", start);
    const std::string_view line = head.substr(start, eol - start);
    if (line.empty()) continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) return false;
    req.headers.emplace_back(std::string(trim(line.substr(0, colon))),
                             std::string(trim(line.substr(colon + 1))));
  }
  return true;
}

// An answer as it goes on the wire: the head, the body (encoded, chunked,
// cut short as the reply says), and how many padding bytes follow it.
struct wire_answer {
  std::string head;
  std::string body;
  std::uint64_t padding = 0;
};

wire_answer response_bytes(const recorded_request& req, const http_reply& reply,
                           bool close) {
  std::string body = reply.gzip ? gzip(reply.body) : reply.body;
  const bool no_body = req.method == "HEAD" ||
                       (reply.status >= 100 && reply.status < 200) ||
                       reply.status == 204 || reply.status == 304;
  wire_answer w;
  std::string& out = w.head;
  out = "HTTP/1.1 " + std::to_string(reply.status) + " ";
  out.append(reason(reply.status));
  out.append("\r\n");
  for (const auto& [name, value] : reply.headers) {
    out.append(name).append(": ").append(value).append("\r\n");
  }
  if (reply.gzip) out.append("Content-Encoding: gzip\r\n");
  if (reply.chunked) {
    out.append("Transfer-Encoding: chunked\r\n");
  } else {
    out.append("Content-Length: " +
               std::to_string(body.size() + reply.padding) + "\r\n");
  }
  if (close) out.append("Connection: close\r\n");
  out.append("\r\n");
  if (no_body) return w;
  w.padding = reply.chunked || reply.gzip ? 0 : reply.padding;
  if (reply.truncate) body.resize(body.size() / 2);
  if (!reply.chunked) {
    w.body = std::move(body);
    return w;
  }
  const std::size_t step = std::max<std::size_t>(reply.chunk_size, 1);
  for (std::size_t i = 0; i < body.size(); i += step) {
    const std::size_t n = std::min(step, body.size() - i);
    char hex[32];
    const auto [end, ec] = std::to_chars(hex, hex + sizeof hex, n, 16);
    w.body.append(hex, end).append("\r\n");
    w.body.append(body, i, n).append("\r\n");
  }
  if (!reply.truncate) w.body.append("0\r\n\r\n");
  return w;
}

}  // namespace

http_reply text_reply(int status, std::string body, std::string content_type) {
  http_reply r;
  r.status = status;
  r.body = std::move(body);
  r.headers.emplace_back("Content-Type", std::move(content_type));
  return r;
}

http_reply redirect_reply(std::string location, int status) {
  http_reply r;
  r.status = status;
  r.headers.emplace_back("Location", std::move(location));
  return r;
}

std::optional<std::string> recorded_request::header(
    std::string_view name) const {
  for (const auto& [n, v] : headers) {
    if (iequals(n, name)) return v;
  }
  return std::nullopt;
}

std::string_view recorded_request::path() const {
  return std::string_view(target).substr(0, target.find('?'));
}

http_server::http_server() {
  // Non-blocking, so accept() cannot hang (holding mu_) when a client gives
  // up between poll() and accept(); accepted sockets are blocking.
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (listen_fd_ < 0) throw std::runtime_error("http_server: socket failed");
  const int one = 1;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  int pipe_fds[2];
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) !=
          0 ||
      ::listen(listen_fd_, 64) != 0 ||
      ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) !=
          0 ||
      ::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    const std::string why = std::strerror(errno);
    ::close(listen_fd_);
    throw std::runtime_error("http_server: cannot listen on 127.0.0.1: " + why);
  }
  port_ = ntohs(addr.sin_port);
  wake_read_ = pipe_fds[0];
  wake_write_ = pipe_fds[1];
  acceptor_ = std::thread([this] { accept_loop(); });
}

http_server::~http_server() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    // Unblocks a connection thread stuck in send() to a client that stopped
    // reading; the fds are closed by their own threads, under mu_, so none
    // of these can be a reused number.
    for (auto& c : connections_) {
      if (c.fd >= 0) ::shutdown(c.fd, SHUT_RDWR);
    }
  }
  cv_.notify_all();
  const char byte = 1;
  while (::write(wake_write_, &byte, 1) < 0 && errno == EINTR) {
  }
  acceptor_.join();
  // No new connection can appear once the acceptor has returned.
  for (auto& c : connections_) c.thread.join();
  ::close(listen_fd_);
  ::close(wake_read_);
  ::close(wake_write_);
}

std::string http_server::url(std::string_view path) const {
  std::string u = "http://127.0.0.1:" + std::to_string(port_);
  u.append(path);
  return u;
}

void http_server::route(std::string path, http_reply reply) {
  route(std::move(path), std::vector<http_reply>{std::move(reply)});
}

void http_server::route(std::string path, std::vector<http_reply> replies) {
  if (replies.empty()) throw std::invalid_argument("route: no replies");
  std::lock_guard lock(mu_);
  route_entry e;
  e.replies = std::move(replies);
  routes_[std::move(path)] = std::move(e);
}

void http_server::redirect(std::string from, std::string to, int status) {
  route(std::move(from), redirect_reply(std::move(to), status));
}

void http_server::fallback(http_handler handler) {
  std::lock_guard lock(mu_);
  fallback_ = std::move(handler);
}

void http_server::route(std::string path, http_handler answer) {
  std::lock_guard lock(mu_);
  route_entry e;
  e.answer = std::move(answer);
  routes_[std::move(path)] = std::move(e);
}

std::vector<recorded_request> http_server::requests() const {
  std::lock_guard lock(mu_);
  return log_;
}

std::size_t http_server::count(std::string_view path) const {
  std::lock_guard lock(mu_);
  return static_cast<std::size_t>(std::count_if(
      log_.begin(), log_.end(),
      [path](const auto& r) { return r.target == path || r.path() == path; }));
}

std::size_t http_server::connections() const {
  std::lock_guard lock(mu_);
  return accepted_;
}

std::size_t http_server::peak_in_progress() const {
  std::lock_guard lock(mu_);
  return in_progress_.peak;
}

std::size_t http_server::peak_in_progress(std::string_view host) const {
  std::lock_guard lock(mu_);
  const auto it = in_progress_by_host_.find(host);
  return it == in_progress_by_host_.end() ? 0 : it->second.peak;
}

std::size_t http_server::answers_cut() const {
  std::lock_guard lock(mu_);
  return answers_cut_;
}

std::uint64_t http_server::body_bytes_sent() const {
  std::lock_guard lock(mu_);
  return body_bytes_sent_;
}

void http_server::begin_answer(const recorded_request& req) {
  for (gauge* g : {&in_progress_,
                   &in_progress_by_host_[req.header("Host").value_or("")]}) {
    g->peak = std::max(g->peak, ++g->now);
  }
}

void http_server::end_answer(const recorded_request& req) {
  std::lock_guard lock(mu_);
  --in_progress_.now;
  --in_progress_by_host_[req.header("Host").value_or("")].now;
}

bool http_server::answer(int fd, const recorded_request& req,
                         const http_reply& reply, bool close) {
  const wire_answer w = response_bytes(req, reply, close);
  auto cut = [this] {
    std::lock_guard lock(mu_);
    ++answers_cut_;
    return false;
  };
  if (!send_all(fd, w.head)) return cut();
  if (reply.stall_after_head.count() > 0 && !sleep_for(reply.stall_after_head))
    return false;  // stopping, not the client's doing
  // In pieces, so that what the kernel took is known when the client
  // hangs up in the middle.
  constexpr std::size_t kPiece = 64 * 1024;
  const std::string padding(std::min<std::uint64_t>(w.padding, kPiece), '.');
  auto send_counted = [&](std::string_view piece) {
    if (!send_all(fd, piece)) return false;
    std::lock_guard lock(mu_);
    body_bytes_sent_ += piece.size();
    return true;
  };
  for (std::size_t i = 0; i < w.body.size(); i += kPiece) {
    if (!send_counted(std::string_view(w.body).substr(i, kPiece))) return cut();
  }
  for (std::uint64_t left = w.padding; left > 0;) {
    const std::size_t n =
        static_cast<std::size_t>(std::min<std::uint64_t>(left, padding.size()));
    if (!send_counted(std::string_view(padding).substr(0, n))) return cut();
    left -= n;
  }
  return true;
}

bool http_server::sleep_for(std::chrono::milliseconds d) {
  std::unique_lock lock(mu_);
  cv_.wait_for(lock, d, [this] { return stopping_; });
  return !stopping_;
}

http_reply http_server::next_reply(const recorded_request& request) {
  std::unique_lock lock(mu_);
  auto it = routes_.find(request.target);
  if (it == routes_.end()) it = routes_.find(request.path());
  if (it == routes_.end()) {
    if (!fallback_) return text_reply(404, "not found\n");
    // Outside the lock: a handler may render megabytes, and other
    // connections must not wait for it.
    const http_handler handler = fallback_;
    lock.unlock();
    return handler(request);
  }
  route_entry& e = it->second;
  if (e.answer) {
    // A copy, called without the lock: it may take its time.
    auto answer = e.answer;
    lock.unlock();
    return answer(request);
  }
  const std::size_t i = std::min(e.next, e.replies.size() - 1);
  ++e.next;
  return e.replies[i];
}

void http_server::accept_loop() {
  for (;;) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_read_, POLLIN, 0}};
    const int r = ::poll(fds, 2, -1);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0 || (fds[1].revents & POLLIN)) return;
    std::unique_lock lock(mu_);
    // Reap finished connections, and bound the live ones: an extra client
    // waits in the listen backlog.
    cv_.wait(lock, [this] {
      connections_.remove_if([](connection& c) {
        if (!c.done) return false;
        c.thread.join();  // its last act was to set done; it ends at once
        return true;
      });
      return stopping_ || connections_.size() < max_connections;
    });
    if (stopping_) return;
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    // The head and the body go out in separate writes; without this, a
    // kept-alive connection waits for the client's delayed ACK (40 ms)
    // between answers, as nginx's tcp_nodelay avoids.
    const int one = 1;
    (void)::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ++accepted_;
    connection& c = connections_.emplace_back();
    c.fd = fd;
    c.thread = std::thread([this, &c] { serve(&c); });
  }
}

void http_server::serve(connection* conn) {
  const int fd = conn->fd;  // only this thread closes it
  std::string buf;
  for (;;) {
    std::size_t head_end;
    while ((head_end = buf.find("\r\n\r\n")) == std::string::npos) {
      if (buf.size() > kMaxHead || !read_more(fd, wake_read_, buf)) goto done;
    }
    recorded_request req;
    if (!parse_head(std::string_view(buf).substr(0, head_end + 2), req)) {
      send_all(fd,
               "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n"
               "Connection: close\r\n\r\n");
      goto done;
    }
    std::size_t pos = head_end + 4;
    if (const auto expect = req.header("Expect");
        expect && iequals(*expect, "100-continue")) {
      if (!send_all(fd, "HTTP/1.1 100 Continue\r\n\r\n")) goto done;
    }
    if (const auto te = req.header("Transfer-Encoding");
        te && iequals(*te, "chunked")) {
      if (!read_chunked(fd, wake_read_, buf, pos, req.body)) goto done;
    } else if (const auto cl = req.header("Content-Length")) {
      std::size_t length = 0;
      const auto [end, ec] =
          std::from_chars(cl->data(), cl->data() + cl->size(), length);
      if (ec != std::errc{} || end != cl->data() + cl->size()) goto done;
      while (buf.size() < pos + length) {
        if (!read_more(fd, wake_read_, buf)) goto done;
      }
      req.body.assign(buf, pos, length);
      pos += length;
    }
    buf.erase(0, pos);

    const auto connection_header = req.header("Connection");
    bool close = req.version != "HTTP/1.1" ||
                 (connection_header && iequals(*connection_header, "close"));
    req.received = std::chrono::steady_clock::now();
    {
      std::lock_guard lock(mu_);
      log_.push_back(req);
      begin_answer(req);
    }
    const http_reply reply = next_reply(req);
    bool go_on = reply.delay.count() <= 0 || sleep_for(reply.delay);
    // Before the answer goes out: once its last byte is sent the client may
    // start another request before this thread runs again, which would
    // count two at a moment when the client had one.
    end_answer(req);
    if (reply.close_without_answer) go_on = false;
    close = close || reply.close_after || reply.truncate;
    if (go_on) go_on = answer(fd, req, reply, close) && !close;
    if (!go_on) goto done;
  }
done:
  std::lock_guard lock(mu_);
  ::close(fd);
  conn->fd = -1;
  conn->done = true;
  cv_.notify_all();
}

stalled_listener::stalled_listener() {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (listen_fd_ < 0 ||
      ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) !=
          0 ||
      ::listen(listen_fd_, 0) != 0 ||
      ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) !=
          0) {
    if (listen_fd_ >= 0) ::close(listen_fd_);
    throw std::runtime_error("stalled_listener: cannot listen");
  }
  port_ = ntohs(addr.sin_port);
  // The one place in the accept queue goes to this connection, which
  // completes at once; the queue is then full.
  filler_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (filler_fd_ < 0 ||
      ::connect(filler_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) !=
          0) {
    ::close(listen_fd_);
    if (filler_fd_ >= 0) ::close(filler_fd_);
    throw std::runtime_error("stalled_listener: cannot fill the backlog");
  }
}

stalled_listener::~stalled_listener() {
  ::close(filler_fd_);
  ::close(listen_fd_);
}

std::string stalled_listener::url(std::string_view path) const {
  std::string u = "http://127.0.0.1:" + std::to_string(port_);
  u.append(path);
  return u;
}

bool eventually(const std::function<bool()>& condition,
                std::chrono::milliseconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (!condition()) {
    if (std::chrono::steady_clock::now() >= end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

}  // namespace sitemill::testing
