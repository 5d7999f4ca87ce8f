// sitemill internals: a headless Chromium of sitemill's own, driven over
// its DevTools pipe (cdp_client.h), and its lifetime.
//
// What start() runs: the browser (Debian's `chromium`) headless, with
// --remote-debugging-pipe on its fds 3 and 4, a throwaway profile
// (--user-data-dir) and XDG directories in a scratch directory of its own,
// no first run, no extensions, no background networking or component
// updates (a crawler's browser calls no one but the site), none of the
// pages of the browser's own UI (its address bar's popups), images off, and
// --no-sandbox only when sitemill runs as root, where Chromium's sandbox
// refuses to start (docs/crawl.md says why that is acceptable there).
//
// Nothing is left running (tests/chromium_lifetime_test.cpp counts):
//   * stop() and the destructor close the pipe, give the browser a moment to
//     exit, then SIGKILL its process group (the browser leads one of its
//     own, so its zygotes, renderers and utility processes go with it; the
//     crash handlers it forks elsewhere exit with it) and remove the scratch
//     directory;
//   * sitemill killed in any way (SIGKILL too): the kernel closes sitemill's
//     end of the pipe, and Chromium exits when its DevTools pipe closes
//     (measured: within half a second, every process of it); as well, the
//     browser gets SIGKILL when the thread that started it ends
//     (PR_SET_PDEATHSIG), so start it on a thread that outlives it. Only the
//     scratch directory stays then, in $TMPDIR ("sitemill-chromium-*").
//
// Thread-safety: none; one thread owns it.
#ifndef SITEMILL_NET_CHROMIUM_H
#define SITEMILL_NET_CHROMIUM_H

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "detail/scratch_directory.h"
#include "net/cdp_client.h"
#include "sitemill/result.h"

namespace sitemill::detail {

struct chromium_options {
  /// The browser to run: a path or a name looked up on PATH. Empty:
  /// $SITEMILL_CHROMIUM when set, else the first of chromium,
  /// chromium-browser, google-chrome-stable and google-chrome on PATH.
  std::string program;
  /// More switches, after sitemill's own ("--js-flags=...").
  std::vector<std::string> extra_args;
  /// How long the browser may take to answer its first command.
  std::chrono::milliseconds start_timeout{30'000};
};

/// Removes the scratch directories ("sitemill-chromium-*") in `parent`
/// whose owning sitemill is gone (the pid in their "owner" file runs no
/// more), as start() does in $TMPDIR: only real directories (not symlinks)
/// owned by `uid`.
void remove_orphaned_directories(const std::string& parent, uid_t uid);

/// The browser `program` names (chromium_options::program's rules), as a
/// path; "" when there is none.
std::string find_chromium(const std::string& program);

class chromium {
 public:
  /// Starts the browser and waits for it to answer. The error says what to
  /// install when there is no browser, or why it did not start (with the
  /// last line it wrote).
  static result<std::unique_ptr<chromium>> start(
      const chromium_options& options,
      const std::atomic<bool>* cancel = nullptr);
  ~chromium();
  chromium(const chromium&) = delete;
  chromium& operator=(const chromium&) = delete;

  cdp_client& client() noexcept { return *client_; }
  /// The browser process (the leader of its process group); -1 after
  /// stop().
  pid_t pid() const noexcept { return pid_; }
  /// Its product and version ("Chrome/156.0.8078.108").
  const std::string& product() const noexcept { return product_; }
  /// The scratch directory holding its profile; gone after stop().
  const std::string& directory() const noexcept { return directory_; }

  /// Whether the browser process still runs.
  bool running() noexcept;
  /// How it ended ("ended by signal 9", "exited with status 1"); "" while
  /// it runs.
  std::string how_it_ended();
  /// Ends the browser and every process of its group, and removes its
  /// scratch directory. Idempotent.
  void stop() noexcept;

 private:
  chromium() = default;
  pid_t pid_ = -1;
  bool ended_ = false, signalled_ = false;
  int code_ = 0;  // its exit status, or the signal that ended it
  std::string product_;
  std::string directory_;
  std::string log_;  // its stderr, in the scratch directory
  std::unique_ptr<scratch_directory> scratch_;
  std::unique_ptr<cdp_client> client_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_NET_CHROMIUM_H
