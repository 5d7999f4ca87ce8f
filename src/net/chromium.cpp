// A headless Chromium of sitemill's own (chromium.h).
#include "net/chromium.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <thread>
#include <utility>

#include "detail/spill_file.h"

extern char** environ;

namespace sitemill::detail {
namespace {

constexpr std::string_view scratch_prefix = "sitemill-chromium-";

// sitemill's switches. Chromium's own list of what automation wants quiet
// (puppeteer's defaults are the same idea): nothing in the background that
// calls Google, no crash uploads, no throttling of tabs that are not seen.
constexpr const char* browser_switches[] = {
    "--headless",
    "--remote-debugging-pipe",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-extensions",
    "--disable-component-extensions-with-background-pages",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-sync",
    "--disable-domain-reliability",
    "--disable-breakpad",
    "--disable-crash-reporter",
    "--no-pings",
    "--metrics-recording-only",
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
    "--disable-renderer-backgrounding",
    "--disable-hang-monitor",
    "--disable-popup-blocking",
    "--disable-prompt-on-repost",
    "--disable-gpu",
    // A container's /dev/shm is 64 MiB by default, too small for a few tabs.
    "--disable-dev-shm-usage",
    "--mute-audio",
    "--hide-scrollbars",
    "--password-store=basic",
    "--use-mock-keychain",
    "--blink-settings=imagesEnabled=false",
    // The browser's own UI made of web pages, which a headless browser
    // still loads, each in a renderer of its own, and keeps for as long as
    // it runs: the address bar's suggestion popups (chrome://omnibox-popup
    // and its AI mode page) and the reload button. Nobody sees them here;
    // they were the ~50-60 MiB of PSS by which sitemill's Chromium exceeded
    // the same Chromium driven by puppeteer (which disables them too) in
    // benchmarks/render_bench.sh: about 80 + 20 MiB of renderers alive from
    // start to end, with no page open.
    "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,"
    "WebUIReloadButton",
};

bool executable(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
         ::access(path.c_str(), X_OK) == 0;
}

std::string on_path(std::string_view name) {
  if (name.find('/') != std::string_view::npos)
    return executable(std::string(name)) ? std::string(name) : "";
  const char* path = std::getenv("PATH");
  std::string_view dirs =
      path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  while (!dirs.empty()) {
    const std::size_t colon = dirs.find(':');
    std::string candidate(dirs.substr(0, colon));
    dirs.remove_prefix(colon == std::string_view::npos ? dirs.size()
                                                       : colon + 1);
    if (candidate.empty()) continue;
    candidate += '/';
    candidate += name;
    if (executable(candidate)) return candidate;
  }
  return "";
}

// The last non-empty line of the browser's stderr, for an error message.
std::string last_line(const std::string& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return last;
}

// Moves `fd` to `target` in the child (after every source fd was moved
// above the targets, so none is overwritten before it is copied).
void child_move(int fd, int target) {
  if (::dup2(fd, target) == -1) ::_exit(126);
}

}  // namespace

// The scratch directories of browsers whose sitemill was killed (SIGKILL
// leaves no time to remove them): each holds its owner's pid in "owner", and
// one whose owner is gone is removed. A pid taken again by another process
// only leaves a directory for later. $TMPDIR is shared: only a directory
// (not a symlink to one: lstat) that `uid` owns is touched, so a name
// another user planted there, or a link to elsewhere, is left alone.
void remove_orphaned_directories(const std::string& parent, uid_t uid) {
  std::error_code ec;
  std::filesystem::directory_iterator it(parent, ec);
  for (; !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with(scratch_prefix)) continue;
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) ||
        st.st_uid != uid)
      continue;
    std::ifstream in(it->path() / "owner");
    long owner = 0;
    if (!(in >> owner) || owner <= 0) continue;
    if (::kill(static_cast<pid_t>(owner), 0) == -1 && errno == ESRCH) {
      std::error_code ignored;
      std::filesystem::remove_all(it->path(), ignored);
    }
  }
}

std::string find_chromium(const std::string& program) {
  if (!program.empty()) return on_path(program);
  if (const char* env = std::getenv("SITEMILL_CHROMIUM"); env && *env)
    return on_path(env);
  for (const char* name : {"chromium", "chromium-browser",
                           "google-chrome-stable", "google-chrome"}) {
    std::string found = on_path(name);
    if (!found.empty()) return found;
  }
  return "";
}

result<std::unique_ptr<chromium>> chromium::start(
    const chromium_options& options, const std::atomic<bool>* cancel) {
  const std::string program = find_chromium(options.program);
  if (program.empty()) {
    const char* env = std::getenv("SITEMILL_CHROMIUM");
    if (options.program.empty() && (env == nullptr || *env == '\0')) {
      return error{
          "no Chromium to render with: install Debian's `chromium` package "
          "(apt-get install chromium), or name the browser in "
          "$SITEMILL_CHROMIUM"};
    }
    return error{"no browser at `" +
                 (options.program.empty()
                      ? std::string(env) + "` ($SITEMILL_CHROMIUM)"
                      : options.program + "`") +
                 ": it is not an executable file, nor a program on PATH"};
  }
  remove_orphaned_directories(temp_directory(), ::geteuid());
  std::unique_ptr<chromium> b(new chromium());
  b->scratch_ = std::make_unique<scratch_directory>();
  if (status s = b->scratch_->make(scratch_prefix); !s) return s.err();
  const std::string dir = b->scratch_->path();
  b->directory_ = dir;
  std::ofstream(dir + "/owner") << ::getpid() << '\n';
  b->log_ = dir + "/chromium.log";

  std::vector<std::string> args{program};
  for (const char* s : browser_switches) args.emplace_back(s);
  if (::geteuid() == 0) args.emplace_back("--no-sandbox");
  args.push_back("--user-data-dir=" + dir + "/profile");
  for (const std::string& a : options.extra_args) args.push_back(a);
  args.emplace_back("about:blank");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  // Its config and cache directories (crash reports, fonts' caches) in the
  // scratch directory too: nothing written to the user's home. And its
  // temporary directory: the profile's singleton socket goes there, which a
  // browser that is killed leaves behind (one org.chromium.Chromium.* per
  // kill in $TMPDIR); in the scratch directory it goes with it.
  std::vector<std::string> env_text;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view v(*e);
    if (!v.starts_with("XDG_CONFIG_HOME=") &&
        !v.starts_with("XDG_CACHE_HOME=") && !v.starts_with("TMPDIR="))
      env_text.emplace_back(v);
  }
  env_text.push_back("XDG_CONFIG_HOME=" + dir);
  env_text.push_back("XDG_CACHE_HOME=" + dir);
  env_text.push_back("TMPDIR=" + dir);
  std::vector<char*> envp;
  for (std::string& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);

  int to[2], from[2], exec_status[2];
  if (::pipe2(to, O_CLOEXEC) != 0)
    return error{"pipe: " + std::string(std::strerror(errno))};
  if (::pipe2(from, O_CLOEXEC) != 0) {
    ::close(to[0]);
    ::close(to[1]);
    return error{"pipe: " + std::string(std::strerror(errno))};
  }
  if (::pipe2(exec_status, O_CLOEXEC) != 0) {
    for (int fd : {to[0], to[1], from[0], from[1]}) ::close(fd);
    return error{"pipe: " + std::string(std::strerror(errno))};
  }
  const int null_fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  const int log_fd =
      ::open(b->log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const pid_t parent = ::getpid();

  const pid_t pid = ::fork();
  if (pid == 0) {
    // The child: only async-signal-safe calls until execve.
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);  // the parent died already
    const int in = ::fcntl(to[0], F_DUPFD, 10);
    const int out = ::fcntl(from[1], F_DUPFD, 10);
    const int status_fd = ::fcntl(exec_status[1], F_DUPFD, 10);
    const int err = ::fcntl(log_fd != -1 ? log_fd : null_fd, F_DUPFD, 10);
    const int nul = ::fcntl(null_fd, F_DUPFD, 10);
    child_move(nul, 0);
    child_move(nul, 1);
    child_move(err, 2);
    child_move(in, 3);
    child_move(out, 4);
    child_move(status_fd, 5);
    ::fcntl(5, F_SETFD, FD_CLOEXEC);
    // Nothing else of sitemill's reaches the browser (a socket libcurl
    // opened without close-on-exec, another component's pipe).
    ::syscall(SYS_close_range, 6u, ~0u, 0u);
    ::execve(argv[0], argv.data(), envp.data());
    const int e = errno;
    (void)!::write(5, &e, sizeof e);
    ::_exit(127);
  }
  const int fork_errno = errno;
  for (int fd : {to[0], from[1], exec_status[1], null_fd, log_fd})
    if (fd != -1) ::close(fd);
  if (pid == -1) {
    for (int fd : {to[1], from[0], exec_status[0]}) ::close(fd);
    return error{"cannot start " + program +
                 ": fork: " + std::strerror(fork_errno)};
  }
  b->pid_ = pid;
  b->client_ = std::make_unique<cdp_client>(to[1], from[0]);
  int exec_errno = 0;
  ssize_t n;
  while ((n = ::read(exec_status[0], &exec_errno, sizeof exec_errno)) == -1 &&
         errno == EINTR) {
  }
  ::close(exec_status[0]);
  if (n == static_cast<ssize_t>(sizeof exec_errno)) {
    b->stop();
    return error{"cannot run " + program + ": " + std::strerror(exec_errno)};
  }
  auto version = b->client_->call("Browser.getVersion", "{}", {},
                                  options.start_timeout, cancel);
  if (!version) {
    std::string why = version.err().message;
    // Its pipe closes as it exits, a moment before it can be waited for.
    for (int i = 0; i < 50 && b->client_->broken() && b->running(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const std::string ended = b->how_it_ended();
    const std::string said = last_line(b->log_);
    b->stop();
    if (why == "cancelled") return error{why};
    return error{program + " did not start: " + why +
                 (ended.empty() ? "" : " (" + ended + ")") +
                 (said.empty() ? "" : "; its last words: " + said)};
  }
  b->product_ = json_member(version->body, {"product"}).value_or("");
  return b;
}

chromium::~chromium() { stop(); }

// Looks without reaping (WNOWAIT): while the leader is a zombie its
// process group's id cannot be taken by another, so stop() may kill the
// group safely.
bool chromium::running() noexcept {
  if (pid_ == -1 || ended_) return false;
  siginfo_t info{};
  if (::waitid(P_PID, static_cast<id_t>(pid_), &info,
               WEXITED | WNOHANG | WNOWAIT) == 0 &&
      info.si_pid == pid_) {
    ended_ = true;
    signalled_ = info.si_code != CLD_EXITED;
    code_ = info.si_status;
  }
  return !ended_;
}

std::string chromium::how_it_ended() {
  if (running() || pid_ == -1) return "";
  return signalled_ ? "ended by signal " + std::to_string(code_)
                    : "exited with status " + std::to_string(code_);
}

void chromium::stop() noexcept {
  if (client_) client_->close_pipe();
  if (pid_ != -1) {
    // A browser whose pipe closed exits by itself within half a second;
    // two are given before the whole group is killed regardless, since a
    // hung one would not.
    for (int i = 0; i < 100 && running(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    // The group outlives its leader when a child lingers: killed either way.
    ::kill(-pid_, SIGKILL);
    while (::waitpid(pid_, nullptr, 0) == -1 && errno == EINTR) {
    }
    pid_ = -1;
  }
  client_.reset();
  scratch_.reset();  // removes the profile
}

}  // namespace sitemill::detail
