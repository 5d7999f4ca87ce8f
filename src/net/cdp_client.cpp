// The DevTools protocol over a pipe (cdp_client.h).
#include "net/cdp_client.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <ctime>
#include <utility>

#include "detail/fd_wait.h"
#include "detail/json_lexer.h"
#include "detail/utf8.h"
#include "sitemill/numbers.h"

namespace sitemill::detail {
namespace {

using clock = std::chrono::steady_clock;

// A browser that sends one message larger than this is not well: 256 MiB
// holds a rendered page's outerHTML many times over.
constexpr std::size_t max_message_bytes = 256u << 20;

// "30 s", "500 ms": a time-out as messages write it.
std::string duration_text(std::chrono::milliseconds d) {
  const long long ms = d.count();
  return ms % 1000 == 0 ? std::to_string(ms / 1000) + " s"
                        : std::to_string(ms) + " ms";
}

int remaining_ms(clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                        deadline - clock::now())
                        .count();
  return static_cast<int>(std::clamp<long long>(left, 0, fd_wait_step_ms));
}

// The value at the lexer, as json_member() hands it on.
bool take_value(json_lexer& lex, std::string_view text, std::string& scratch,
                std::string& out) {
  const char c = lex.peek();
  if (c == '"') {
    std::string_view s;
    if (!lex.read_string(s, scratch)) return false;
    out.assign(s);
    return true;
  }
  const std::size_t from = lex.offset();
  if (!lex.skip_value(0, scratch)) return false;
  out.assign(text.substr(from, lex.offset() - from));
  return true;
}

bool find_member(json_lexer& lex, std::string_view text,
                 const std::string_view* step, const std::string_view* end,
                 std::string& scratch, std::optional<std::string>& out) {
  if (lex.at_end() || lex.peek() != '{') return lex.skip_value(0, scratch);
  bool found = false;
  const bool ok = lex.each_member(scratch, [&](std::string_view key) {
    if (key != *step) return lex.skip_value(1, scratch);
    found = true;
    if (step + 1 == end) {
      std::string value;
      if (!take_value(lex, text, scratch, value)) return false;
      out = std::move(value);
    } else {
      (void)find_member(lex, text, step + 1, end, scratch, out);
    }
    return false;  // found: stop here
  });
  return ok || found;
}

// SIGPIPE for a write to a pipe whose reader is gone would end the whole
// process, and a library may not change the process's signal dispositions:
// the signal is blocked on this thread around the write, and a SIGPIPE the
// write raised is taken before it is unblocked.
class sigpipe_blocked {
 public:
  sigpipe_blocked() {
    sigset_t pipe_only;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    sigset_t pending;
    sigpending(&pending);
    was_pending_ = sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe_only, &old_);
  }
  ~sigpipe_blocked() {
    if (raised_ && !was_pending_) {
      sigset_t pipe_only;
      sigemptyset(&pipe_only);
      sigaddset(&pipe_only, SIGPIPE);
      const timespec zero{0, 0};
      while (sigtimedwait(&pipe_only, nullptr, &zero) == -1 && errno == EINTR) {
      }
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  void raised() noexcept { raised_ = true; }

 private:
  sigset_t old_;
  bool was_pending_ = false;
  bool raised_ = false;
};

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  static constexpr char hex[] = "0123456789abcdef";
  out += '"';
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const std::size_t n = utf8_sequence_length(text, i);
      if (n == 0) {
        out += "\\ufffd";
        ++i;
      } else {
        out.append(text.substr(i, n));
        i += n;
      }
      continue;
    }
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20 || c == 0x7F) {
          out += "\\u00";
          out += hex[c >> 4];
          out += hex[c & 0xF];
        } else {
          out += static_cast<char>(c);
        }
    }
    ++i;
  }
  out += '"';
}

void cdp_params::key(std::string_view k) {
  text_ += text_.empty() ? '{' : ',';
  append_json_string(text_, k);
  text_ += ':';
}

cdp_params& cdp_params::add(std::string_view k, std::string_view text) {
  key(k);
  append_json_string(text_, text);
  return *this;
}

cdp_params& cdp_params::add(std::string_view k, bool value) {
  key(k);
  text_ += value ? "true" : "false";
  return *this;
}

cdp_params& cdp_params::add(std::string_view k, long long value) {
  key(k);
  text_ += std::to_string(value);
  return *this;
}

cdp_params& cdp_params::add_json(std::string_view k, std::string_view json) {
  key(k);
  text_ += json;
  return *this;
}

std::optional<std::string> json_member(
    std::string_view json, std::initializer_list<std::string_view> path) {
  std::optional<std::string> out;
  if (path.size() == 0) return out;
  json_lexer lex;
  lex.reset(json);
  lex.skip_space();
  std::string scratch;
  (void)find_member(lex, json, path.begin(), path.end(), scratch, out);
  return out;
}

cdp_client::cdp_client(int to_browser, int from_browser)
    : to_(to_browser), from_(from_browser) {
  // Writes wait in steps (a browser that hangs stops reading), never for
  // ever in write(2).
  const int flags = ::fcntl(to_, F_GETFL);
  if (flags != -1) ::fcntl(to_, F_SETFL, flags | O_NONBLOCK);
}

cdp_client::~cdp_client() {
  close_pipe();
  if (from_ != -1) ::close(from_);
}

void cdp_client::close_pipe() noexcept {
  if (to_ != -1) ::close(to_);
  to_ = -1;
}

status cdp_client::write_all(std::string_view data,
                             std::chrono::milliseconds timeout) {
  if (broken_) return error{"the browser closed its pipe"};
  if (to_ == -1) return error{"the browser's pipe was closed"};
  const auto deadline = clock::now() + timeout;
  sigpipe_blocked guard;
  while (!data.empty()) {
    const ssize_t n = ::write(to_, data.data(), data.size());
    if (n > 0) {
      data.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n == -1 && errno == EINTR) continue;
    if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (clock::now() >= deadline) {
        return error{"the browser took no command for " +
                     duration_text(timeout) + ": it hangs"};
      }
      pollfd p{to_, POLLOUT, 0};
      (void)::poll(&p, 1, std::max(1, remaining_ms(deadline)));
      continue;
    }
    broken_ = true;
    if (n == -1 && errno == EPIPE) {
      guard.raised();
      return error{"the browser closed its pipe"};
    }
    return error{std::string("cannot write to the browser's pipe: ") +
                 std::strerror(errno)};
  }
  return {};
}

result<std::uint64_t> cdp_client::send(std::string_view method,
                                       std::string_view params,
                                       std::string_view session,
                                       std::chrono::milliseconds timeout) {
  const std::uint64_t id = next_id_++;
  std::string text = "{\"id\":" + std::to_string(id) + ",\"method\":";
  append_json_string(text, method);
  if (!session.empty()) {
    text += ",\"sessionId\":";
    append_json_string(text, session);
  }
  text += ",\"params\":";
  text += params.empty() ? std::string_view("{}") : params;
  text += '}';
  text += '\0';
  if (status s = write_all(text, timeout); !s) return s.err();
  return id;
}

result<std::optional<cdp_message>> cdp_client::next(
    std::chrono::milliseconds timeout, const std::atomic<bool>* cancel) {
  if (!aside_.empty()) {
    std::optional<cdp_message> m = std::move(aside_.front());
    aside_.pop_front();
    return m;
  }
  return read_one(clock::now() + timeout, cancel, true);
}

result<cdp_message> cdp_client::call(std::string_view method,
                                     std::string_view params,
                                     std::string_view session,
                                     std::chrono::milliseconds timeout,
                                     const std::atomic<bool>* cancel) {
  const auto deadline = clock::now() + timeout;
  auto id = send(method, params, session, timeout);
  if (!id) return id.err();
  for (;;) {
    auto m = read_one(deadline, cancel, false);
    if (!m) return m.err();
    if (!*m) {
      if (cancel != nullptr && cancel->load()) return error{"cancelled"};
      return error{"the browser did not answer " + std::string(method) +
                   " within " + duration_text(timeout)};
    }
    if ((*m)->id != *id) {
      aside_.push_back(std::move(**m));
      continue;
    }
    if (!(*m)->error.empty())
      return error{std::string(method) + ": " + (*m)->error};
    return std::move(**m);
  }
}

// One message from the pipe, or std::nullopt at the deadline or a cancel.
result<std::optional<cdp_message>> cdp_client::read_one(
    clock::time_point deadline, const std::atomic<bool>* cancel,
    bool wakeable) {
  for (;;) {
    const std::size_t nul = in_.find('\0', scanned_);
    if (nul != std::string::npos) {
      cdp_message m;
      m.body = "{}";
      json_lexer lex;
      const std::string_view text(in_.data(), nul);
      lex.reset(text);
      lex.skip_space();
      std::string scratch;
      const bool ok = !lex.at_end() && lex.peek() == '{' &&
                      lex.each_member(scratch, [&](std::string_view key) {
                        std::string value;
                        if (key == "id") {
                          if (!take_value(lex, text, scratch, value))
                            return false;
                          m.id = std::strtoull(value.c_str(), nullptr, 10);
                        } else if (key == "method") {
                          if (!take_value(lex, text, scratch, m.method))
                            return false;
                        } else if (key == "sessionId") {
                          if (!take_value(lex, text, scratch, m.session_id))
                            return false;
                        } else if (key == "result" || key == "params") {
                          if (!take_value(lex, text, scratch, m.body))
                            return false;
                        } else if (key == "error") {
                          if (!take_value(lex, text, scratch, value))
                            return false;
                          m.error =
                              json_member(value, {"message"}).value_or(value);
                        } else {
                          return lex.skip_value(1, scratch);
                        }
                        return true;
                      });
      in_.erase(0, nul + 1);
      scanned_ = 0;
      if (!ok) {
        broken_ = true;
        return error{"the browser sent a message that is not a JSON object"};
      }
      return std::optional<cdp_message>(std::move(m));
    }
    scanned_ = in_.size();
    if (in_.size() > max_message_bytes) {
      broken_ = true;
      return error{"the browser sent a message of more than " +
                   human_bytes(max_message_bytes)};
    }
    if (broken_) return error{"the browser closed its pipe"};
    if ((cancel != nullptr && cancel->load()) || clock::now() >= deadline)
      return std::optional<cdp_message>();
    if (wakeable && wake_fd_ != -1) {
      pollfd p[2] = {{from_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
      if (::poll(p, 2, remaining_ms(deadline)) <= 0) continue;
      if (p[1].revents != 0) {
        std::uint64_t count;
        (void)!::read(wake_fd_, &count, sizeof count);
        return std::optional<cdp_message>();
      }
    } else if (!wait_readable(from_, remaining_ms(deadline))) {
      continue;
    }
    char buffer[65536];
    const ssize_t n = ::read(from_, buffer, sizeof buffer);
    if (n > 0) {
      in_.append(buffer, static_cast<std::size_t>(n));
    } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
      broken_ = true;  // the browser exited, or its end is gone
    }
  }
}

}  // namespace sitemill::detail
