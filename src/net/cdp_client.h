// sitemill internals: a thin client of the Chrome DevTools Protocol over
// Chromium's --remote-debugging-pipe (the browser reads commands on its fd 3
// and writes answers and events on its fd 4, each message one JSON text
// ended by a NUL byte).
//
// Why a pipe and not the loopback WebSocket: a pipe has no port, so no other
// local process (another user's, a page's own script through fetch()) can
// connect to the browser and drive it; nothing listens; and the browser ends
// itself when sitemill's end of the pipe closes, which the kernel does when
// sitemill dies in any way, SIGKILL included (docs/crawl.md, "Rendering").
// Why our own client: the protocol needed is a dozen commands of JSON
// objects, and the pipe needs no WebSocket framing, so this is a few hundred
// lines over detail/json_lexer.h instead of a library and its HTTP stack.
//
// In net/ rather than crawl/: it is a transport to a process that fetches,
// below crawl/ and check/ alike, so `check --audit` may render too.
//
// Thread-safety: none; one thread sends and reads. Messages are read with
// detail/json_lexer.h; command parameters are written with cdp_params, which
// escapes every string (RFC 8259 section 7) and replaces bytes that are not
// UTF-8 by U+FFFD, as the browser's parser refuses them.
#ifndef SITEMILL_NET_CDP_CLIENT_H
#define SITEMILL_NET_CDP_CLIENT_H

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "sitemill/result.h"

namespace sitemill::detail {

/// Appends `text` to `out` as a JSON string, quotes included.
void append_json_string(std::string& out, std::string_view text);

/// A command's parameters, as one JSON object built member by member.
class cdp_params {
 public:
  cdp_params& add(std::string_view key, std::string_view text);
  cdp_params& add(std::string_view key, const char* text) {
    return add(key, std::string_view(text));
  }
  cdp_params& add(std::string_view key, bool value);
  cdp_params& add(std::string_view key, long long value);
  cdp_params& add(std::string_view key, int value) {
    return add(key, static_cast<long long>(value));
  }
  /// `json` is written as it is: an object or a list the caller built
  /// (with append_json_string for its strings).
  cdp_params& add_json(std::string_view key, std::string_view json);
  /// The object's text ("{}" when empty).
  std::string str() const { return text_.empty() ? "{}" : text_ + "}"; }

 private:
  void key(std::string_view k);
  std::string text_;
};

/// The member at `path` of the JSON object `json` ({"a":{"b":"x"}} and
/// {"a", "b"} give "x"): a string decoded, a number or literal as written, an
/// object or list as its JSON text. std::nullopt when a step is missing or
/// the text is not JSON.
std::optional<std::string> json_member(
    std::string_view json, std::initializer_list<std::string_view> path);

/// One message from the browser: a command's answer (id != 0) or an event.
struct cdp_message {
  std::uint64_t id = 0;
  std::string method;      ///< an event's name ("Page.loadEventFired")
  std::string session_id;  ///< the tab session it is about; "" the browser
  std::string body;        ///< "result" or "params" as JSON text, or "{}"
  std::string error;       ///< a failed command's message; "" otherwise
};

class cdp_client {
 public:
  /// Takes both descriptors (closed with the client): `to_browser` is the
  /// browser's fd 3, `from_browser` its fd 4.
  cdp_client(int to_browser, int from_browser);
  ~cdp_client();
  cdp_client(const cdp_client&) = delete;
  cdp_client& operator=(const cdp_client&) = delete;

  /// Sends a command; its id. An error when the browser no longer reads
  /// (its pipe closed) or took nothing for `timeout` (it hangs).
  result<std::uint64_t> send(
      std::string_view method, std::string_view params = "{}",
      std::string_view session = {},
      std::chrono::milliseconds timeout = std::chrono::milliseconds(30'000));

  /// The next message: those set aside by call() first, then the pipe's,
  /// waiting up to `timeout` (std::nullopt when none came, or `cancel` was
  /// set). An error when the browser closed the pipe (it exited) or wrote
  /// something that is not a JSON object.
  result<std::optional<cdp_message>> next(
      std::chrono::milliseconds timeout,
      const std::atomic<bool>* cancel = nullptr);

  /// Sends a command and waits up to `timeout` for its answer; events and
  /// other answers read meanwhile are kept for next(). An error when the
  /// command failed (the browser's message), when no answer came in time
  /// ("did not answer Page.navigate within 30 s"), when `cancel` was set,
  /// or when the pipe closed.
  result<cdp_message> call(
      std::string_view method, std::string_view params = "{}",
      std::string_view session = {},
      std::chrono::milliseconds timeout = std::chrono::milliseconds(30'000),
      const std::atomic<bool>* cancel = nullptr);

  /// An eventfd (not owned) that, when written, ends a wait of next() (not
  /// of call()) at once with std::nullopt: another thread has work for the
  /// reader.
  void set_wake_fd(int fd) noexcept { wake_fd_ = fd; }

  /// Closes the descriptor to the browser, which then exits by itself.
  void close_pipe() noexcept;
  /// True once the browser's end was seen closed, or a write failed.
  bool broken() const noexcept { return broken_; }

 private:
  result<std::optional<cdp_message>> read_one(
      std::chrono::steady_clock::time_point deadline,
      const std::atomic<bool>* cancel, bool wakeable);
  status write_all(std::string_view data, std::chrono::milliseconds timeout);

  int to_ = -1, from_ = -1;
  int wake_fd_ = -1;
  bool broken_ = false;
  std::uint64_t next_id_ = 1;
  std::string in_;           // bytes read and not yet taken
  std::size_t scanned_ = 0;  // bytes of in_ known to hold no NUL
  std::deque<cdp_message> aside_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_NET_CDP_CLIENT_H
