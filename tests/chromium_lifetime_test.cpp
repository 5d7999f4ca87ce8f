// sitemill's own headless Chromium (src/net/chromium.h) and its lifetime:
// it starts, loads a loopback page whose links a script makes, and gives
// the DOM after the script ran; a browser that is killed is noticed by the
// next command and started again; one that hangs or exits at start is a
// clear error; and nothing of it is left running when it is stopped, when
// its pipe closes, or when the process that owns it is killed (SIGTERM,
// SIGKILL). Each test starts as few browsers as it can (the suite runs
// twice, once under ASan).
#include <dirent.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "net/chromium.h"
#include "support/http_server.h"
#include "support/run.h"

namespace sitemill::detail {
namespace {

using std::chrono::milliseconds;
using testing::eventually;

// Running (not zombie) processes of the browser led by `leader`: its
// process group, and any process naming its scratch directory (the crash
// handler it forks into a session of its own).
int browser_processes(pid_t leader, const std::string& directory) {
  int count = 0;
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return -1;
  while (dirent* e = ::readdir(proc)) {
    const long pid = std::strtol(e->d_name, nullptr, 10);
    if (pid <= 0) continue;
    std::ifstream stat_file("/proc/" + std::string(e->d_name) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(stat_file)), {});
    const std::size_t close = stat.rfind(')');
    if (close == std::string::npos) continue;
    char state = 0;
    long ppid = 0, pgrp = 0;
    if (std::sscanf(stat.c_str() + close + 1, " %c %ld %ld", &state, &ppid,
                    &pgrp) != 3 ||
        state == 'Z') {
      continue;
    }
    std::ifstream cmd_file("/proc/" + std::string(e->d_name) + "/cmdline");
    std::string cmdline((std::istreambuf_iterator<char>(cmd_file)), {});
    if (pgrp == leader ||
        (!directory.empty() && cmdline.find(directory) != std::string::npos))
      ++count;
  }
  ::closedir(proc);
  return count;
}

// Opens a tab, loads `url` and returns its DOM once the load event fired.
std::optional<std::string> rendered_dom(cdp_client& c, const std::string& url) {
  auto target = c.call("Target.createTarget",
                       cdp_params().add("url", "about:blank").str());
  if (!target) return std::nullopt;
  const std::string id = json_member(target->body, {"targetId"}).value_or("");
  auto attached =
      c.call("Target.attachToTarget",
             cdp_params().add("targetId", id).add("flatten", true).str());
  if (!attached) return std::nullopt;
  const std::string session =
      json_member(attached->body, {"sessionId"}).value_or("");
  if (!c.call("Page.enable", "{}", session)) return std::nullopt;
  if (!c.call("Page.navigate", cdp_params().add("url", url).str(), session))
    return std::nullopt;
  for (;;) {
    auto m = c.next(milliseconds(30'000));
    if (!m || !*m) return std::nullopt;
    if ((*m)->method == "Page.loadEventFired" && (*m)->session_id == session)
      break;
  }
  auto dom = c.call("Runtime.evaluate",
                    cdp_params()
                        .add("expression", "document.documentElement.outerHTML")
                        .add("returnByValue", true)
                        .str(),
                    session);
  if (!dom) return std::nullopt;
  (void)c.call("Target.closeTarget", cdp_params().add("targetId", id).str());
  return json_member(dom->body, {"result", "value"});
}

constexpr const char* script_page = R"(<!doctype html>
<html><head><title>Made by script</title>
<script>
document.addEventListener('DOMContentLoaded', () => {
  const a = document.createElement('a');
  a.href = '/made-by-script';
  a.textContent = 'a link no server sent';
  document.body.appendChild(a);
});
</script></head><body><p>static text</p></body></html>)";

TEST(Chromium, LoadsALoopbackPageAndReadsTheDomAfterItsScriptRan) {
  testing::http_server server;
  server.route("/", testing::text_reply(200, script_page, "text/html"));
  auto started = chromium::start({});
  ASSERT_TRUE(started) << started.err().message;
  chromium& b = **started;
  EXPECT_EQ(b.product().rfind("Chrome/", 0), 0u) << b.product();
  const std::string directory = b.directory();
  EXPECT_TRUE(std::filesystem::exists(directory + "/profile"));

  auto dom = rendered_dom(b.client(), server.url("/"));
  ASSERT_TRUE(dom);
  EXPECT_NE(dom->find("<a href=\"/made-by-script\">"), std::string::npos)
      << *dom;
  EXPECT_NE(dom->find("static text"), std::string::npos);

  // A browser whose pipe closes ends by itself, every process of it.
  const pid_t leader = b.pid();
  b.client().close_pipe();
  EXPECT_TRUE(eventually([&] { return !b.running(); }));
  EXPECT_TRUE(
      eventually([&] { return browser_processes(leader, directory) == 0; }));
  b.stop();
  EXPECT_FALSE(std::filesystem::exists(directory));
}

// $TMPDIR set to a directory of the test's own while it lives: what a
// killed browser leaves there is the test's to see, and no browser another
// test starts meanwhile removes it as an orphan's.
class own_tmpdir {
 public:
  own_tmpdir() : had_(std::getenv("TMPDIR") != nullptr) {
    if (had_) saved_ = std::getenv("TMPDIR");
    ::setenv("TMPDIR", dir_.path().c_str(), 1);
  }
  ~own_tmpdir() {
    if (had_)
      ::setenv("TMPDIR", saved_.c_str(), 1);
    else
      ::unsetenv("TMPDIR");
  }
  const std::string& path() const { return dir_.path(); }

 private:
  testing::temp_dir dir_;
  bool had_;
  std::string saved_;
};

TEST(Chromium, ABrowserThatDiesIsNoticedAndStartedAgain) {
  // In a $TMPDIR of its own, to see what a killed browser leaves there.
  own_tmpdir tmp;
  testing::http_server server;
  server.route("/", testing::text_reply(200, script_page, "text/html"));
  auto first = chromium::start({});
  ASSERT_TRUE(first) << first.err().message;
  std::unique_ptr<chromium> b = std::move(*first);
  const pid_t crashed = b->pid();
  const std::string crashed_directory = b->directory();
  ASSERT_EQ(::kill(crashed, SIGKILL), 0);

  // The next command fails at once, and says the browser is gone.
  auto r =
      b->client().call("Browser.getVersion", "{}", {}, milliseconds(600'000));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.err().message, "the browser closed its pipe");
  EXPECT_TRUE(eventually([&] { return !b->running(); }));
  EXPECT_EQ(b->how_it_ended(), "ended by signal 9");

  // Started again: a new browser that works; the dead one's processes and
  // profile are gone.
  b->stop();
  auto again = chromium::start({});
  ASSERT_TRUE(again) << again.err().message;
  b = std::move(*again);
  EXPECT_NE(b->pid(), crashed);
  auto dom = rendered_dom(b->client(), server.url("/"));
  ASSERT_TRUE(dom);
  EXPECT_NE(dom->find("/made-by-script"), std::string::npos);
  EXPECT_EQ(browser_processes(crashed, crashed_directory), 0);
  EXPECT_FALSE(std::filesystem::exists(crashed_directory));

  const pid_t leader = b->pid();
  const std::string directory = b->directory();
  b->stop();
  // SIGKILLed with its group: gone once the kernel has ended each (on a
  // loaded machine, a moment after stop() returns).
  EXPECT_TRUE(
      eventually([&] { return browser_processes(leader, directory) == 0; }));
  // Nothing left in $TMPDIR: not the profiles, not the singleton socket
  // directory (org.chromium.Chromium.*) the killed browser had made.
  EXPECT_EQ(testing::list_all(tmp.path()), std::vector<std::string>{});
}

// A sitemill that owns a browser, killed by `sig`: a forked child of this
// test starts the browser, tells its pid and directory, and waits to die.
void kill_the_owner(int sig) {
  own_tmpdir tmp;  // the orphan is this test's to see removed
  int tell[2];
  ASSERT_EQ(::pipe(tell), 0);
  const pid_t owner = ::fork();
  ASSERT_NE(owner, -1);
  if (owner == 0) {
    ::close(tell[0]);
    auto b = chromium::start({});
    std::string said = b ? std::to_string((*b)->pid()) + " " + (*b)->directory()
                         : "0 " + b.err().message;
    said += '\n';
    (void)!::write(tell[1], said.data(), said.size());
    for (;;) ::pause();
  }
  ::close(tell[1]);
  std::string said;
  char c;
  while (::read(tell[0], &c, 1) == 1 && c != '\n') said += c;
  ::close(tell[0]);
  const pid_t leader = std::atoi(said.c_str());
  const std::string directory = said.substr(said.find(' ') + 1);
  ASSERT_GT(leader, 0) << said;
  EXPECT_GT(browser_processes(leader, directory), 0);

  ASSERT_EQ(::kill(owner, sig), 0);
  int st = 0;
  ASSERT_EQ(::waitpid(owner, &st, 0), owner);
  ASSERT_TRUE(WIFSIGNALED(st));
  EXPECT_EQ(WTERMSIG(st), sig);
  EXPECT_TRUE(
      eventually([&] { return browser_processes(leader, directory) == 0; },
                 std::chrono::seconds(20)))
      << browser_processes(leader, directory) << " processes of the browser "
      << leader << " are left";

  // Its scratch directory stays (nothing ran to remove it) until the next
  // browser started removes it, its owner being gone.
  EXPECT_TRUE(std::filesystem::exists(directory + "/owner"));
  auto next = chromium::start({});
  ASSERT_TRUE(next) << next.err().message;
  EXPECT_FALSE(std::filesystem::exists(directory));
}

TEST(ChromiumLifetime, NothingIsLeftRunningWhenItsOwnerIsKilled) {
  kill_the_owner(SIGKILL);
}

TEST(ChromiumLifetime, NothingIsLeftRunningWhenItsOwnerIsTerminated) {
  // SIGTERM's default: the process ends without unwinding (the CLI's own
  // handler, which stops the browser first, is tested end to end).
  kill_the_owner(SIGTERM);
}

TEST(ChromiumStart, AMissingBrowserSaysWhatToInstall) {
  chromium_options o;
  o.program = "/nonexistent/chromium";
  auto named = chromium::start(o);
  ASSERT_FALSE(named);
  EXPECT_EQ(named.err().message,
            "no browser at `/nonexistent/chromium`: it is not an executable "
            "file, nor a program on PATH");

  const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  const char* env = std::getenv("SITEMILL_CHROMIUM");
  const std::string saved_env = env ? env : "";
  ::setenv("PATH", "/nonexistent", 1);
  ::unsetenv("SITEMILL_CHROMIUM");
  auto none = chromium::start({});
  ::setenv("PATH", path.c_str(), 1);
  if (env) ::setenv("SITEMILL_CHROMIUM", saved_env.c_str(), 1);
  ASSERT_FALSE(none);
  EXPECT_EQ(none.err().message,
            "no Chromium to render with: install Debian's `chromium` package "
            "(apt-get install chromium), or name the browser in "
            "$SITEMILL_CHROMIUM");
}

TEST(ChromiumStart, ABrowserThatExitsAtStartIsAnErrorWithItsLastWords) {
  testing::temp_dir dir;
  const std::string program = dir / "fake-chromium";
  testing::write_file(program,
                      "#!/bin/sh\necho 'starting up' >&2\n"
                      "echo 'Missing X server or $DISPLAY' >&2\nexit 3\n");
  ::chmod(program.c_str(), 0755);
  chromium_options o;
  o.program = program;
  auto r = chromium::start(o);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.err().message,
            program +
                " did not start: the browser closed its pipe (exited with "
                "status 3); its last words: Missing X server or $DISPLAY");
}

TEST(ChromiumStart, ABrowserThatHangsAtStartIsEndedWithAnError) {
  testing::temp_dir dir;
  const std::string program = dir / "hung-chromium";
  const std::string pid_file = dir / "pid";
  testing::write_file(
      program, "#!/bin/sh\necho $$ > '" + pid_file + "'\nexec sleep 600\n");
  ::chmod(program.c_str(), 0755);
  chromium_options o;
  o.program = program;
  o.start_timeout = milliseconds(500);
  auto r = chromium::start(o);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.err().message, program +
                                 " did not start: the browser did not answer "
                                 "Browser.getVersion within 500 ms");
  const pid_t hung = std::atoi(testing::read_raw(pid_file).c_str());
  ASSERT_GT(hung, 0);
  EXPECT_EQ(::kill(hung, 0), -1);  // killed and reaped
}

}  // namespace
}  // namespace sitemill::detail
