#include "support/s3_server.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "detail/digest.h"

extern char** environ;

namespace sitemill::testing {

std::string s3rver_path() {
  std::string cache;
  if (const char* c = std::getenv("SITEMILL_NPM_CACHE"); c && *c) {
    cache = c;
  } else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) {
    cache = std::string(x) + "/sitemill-generators";
  } else if (const char* h = std::getenv("HOME"); h && *h) {
    cache = std::string(h) + "/.cache/sitemill-generators";
  }
  std::ifstream lock(SITEMILL_SOURCE_DIR "/tests/s3/package-lock.json",
                     std::ios::binary);
  std::ostringstream text;
  text << lock.rdbuf();
  const std::string hash =
      detail::hex_of(detail::as_view(detail::sha256(text.str())));
  const std::string bin =
      cache + "/s3rver-" + hash.substr(0, 16) + "/node_modules/.bin/s3rver";
  return std::filesystem::exists(bin) ? bin : std::string();
}

s3_server::s3_server(std::string bucket) : bucket_(std::move(bucket)) {
  const std::string bin = s3rver_path();
  if (bin.empty()) {
    ADD_FAILURE() << "s3rver is not installed: run scripts/install-deps.sh "
                     "npm-s3 (needs Node.js and npm)";
    return;
  }
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) {
    ADD_FAILURE() << "pipe: " << std::strerror(errno);
    return;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null",
                                   O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null",
                                   O_WRONLY, 0);
  std::vector<std::string> args = {
      bin,         "-s", "-d", data_.path(),         "-a",
      "127.0.0.1", "-p", "0",  "--configure-bucket", bucket_};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int rc = ::posix_spawn(&pid_, bin.c_str(), &actions, nullptr,
                               argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  if (rc != 0) {
    ::close(out[0]);
    pid_ = -1;
    ADD_FAILURE() << "cannot start " << bin << ": " << std::strerror(rc);
    return;
  }
  // "S3rver listening on 127.0.0.1:PORT", within a minute on a busy machine.
  std::string said;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{out[0], POLLIN, 0};
    if (::poll(&p, 1, 500) <= 0) continue;
    char buf[512];
    const ssize_t n = ::read(out[0], buf, sizeof buf);
    if (n <= 0) break;
    said.append(buf, static_cast<std::size_t>(n));
    const std::size_t at = said.find("listening on ");
    const std::size_t nl = at == std::string::npos ? at : said.find('\n', at);
    if (nl != std::string::npos) {
      endpoint_ = "http://" + said.substr(at + 13, nl - at - 13);
      break;
    }
  }
  ::close(out[0]);
  if (endpoint_.empty())
    ADD_FAILURE() << "s3rver did not start listening; it said: " << said;
}

s3_server::~s3_server() {
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
}

std::vector<std::string> s3_server::environment(
    const std::string& access_key, const std::string& secret) const {
  return {"-u",
          "AWS_PROFILE",
          "-u",
          "AWS_SESSION_TOKEN",
          "-u",
          "AWS_ENDPOINT_URL",
          "AWS_SHARED_CREDENTIALS_FILE=/nonexistent",
          "AWS_CONFIG_FILE=/nonexistent",
          "AWS_ACCESS_KEY_ID=" + access_key,
          "AWS_SECRET_ACCESS_KEY=" + secret,
          "AWS_REGION=us-east-1",
          "AWS_ENDPOINT_URL_S3=" + endpoint_};
}

}  // namespace sitemill::testing
