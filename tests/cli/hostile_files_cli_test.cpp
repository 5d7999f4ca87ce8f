// The files a user names to the newest commands, made hostile: netrc and
// Netscape cookie files, submit's key files and generate's robots.txt that
// are FIFOs (no writer: a plain open would wait for ever), devices that
// never end (/dev/zero), directories, huge, binary, one very long line, or
// symlinks; and robots.txt served to `check` huge, binary, with NULs or as
// UTF-16. Each run ends by itself (no hang, no signal) with a clear message
// naming the file or URL, in bounded memory.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/campaign.h"
#include "support/http_server.h"
#include "support/run.h"
#include "support/sanitized.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A run's memory may not grow with the file: what a command needs is far
// below this, and every hostile file below is larger or endless. A
// sanitized build starts at about 500 MiB (shadow memory, quarantine), so
// its bound is higher: still below reading the 300 MiB file whole, or
// /dev/zero for the time-out.
#ifdef SITEMILL_TEST_SANITIZED
constexpr long max_rss_kib = 1024 * 1024;
#else
constexpr long max_rss_kib = 200 * 1024;
#endif

// A FIFO, a device, a directory, a sparse file far over any cap, and links
// to the first and the last, each under `dir`; the reason each is refused.
struct hostile_path {
  std::string path;
  std::string says;
};

std::vector<hostile_path> hostile_paths(const temp_dir& t) {
  const std::string fifo = t / "fifo";
  EXPECT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string huge = t / "huge";
  write_file(huge, "");
  std::filesystem::resize_file(huge, std::uint64_t{300} << 20);  // sparse
  std::filesystem::create_directory(t / "dir");
  std::filesystem::create_symlink(fifo, t / "link-to-fifo");
  std::filesystem::create_symlink(huge, t / "link-to-huge");
  const std::string not_regular =
      "it is not a regular file (a FIFO, socket or device), which could "
      "block or never end";
  return {{fifo, not_regular},
          {"/dev/zero", not_regular},
          {t / "dir", "it is a directory, not a file"},
          {huge, "it is 300 MiB, more than the "},
          {t / "link-to-fifo", not_regular},
          {t / "link-to-huge", "it is 300 MiB, more than the "},
          {t / "missing", "No such file or directory"}};
}

void expect_clean_refusal(const run_result& r, const std::string& path,
                          const std::string& says) {
  EXPECT_FALSE(r.timed_out) << path;
  EXPECT_EQ(r.term_signal, 0) << path;
  EXPECT_EQ(r.exit_code, 2) << path << "\n" << r.err;
  EXPECT_THAT(r.err, HasSubstr(path + ": " + says)) << r.err;
  EXPECT_LT(r.max_rss_kib, max_rss_kib) << path;
}

run_options bounded() {
  run_options o;
  o.timeout = std::chrono::milliseconds(30'000);
  return o;
}

// `generate --from-crawl` reads its credential files before any request; the
// start URL is never asked.
std::vector<std::string> crawl_with(const temp_dir& t, const std::string& flag,
                                    const std::string& path) {
  return {"generate",
          "--out",
          t / "out",
          "--from-crawl",
          "http://127.0.0.1:9/",
          "--base-url",
          "http://127.0.0.1:9/",
          flag,
          path};
}

TEST(HostileFiles, CredentialAndKeyFilesThatAreNoFilesAreRefusedAtOnce) {
  temp_dir t;
  const auto paths = hostile_paths(t);
  const std::string sitemap = "https://www.example.com/sitemap.xml";
  for (const hostile_path& p : paths) {
    SCOPED_TRACE(p.path);
    struct command {
      std::vector<std::string> args;
      std::string prefix;  // what the message names before the path
    };
    const command commands[] = {
        {crawl_with(t, "--cookie-file", p.path), "--cookie-file: cannot read "},
        {crawl_with(t, "--netrc-file", p.path), "--netrc-file: cannot read "},
        {{"submit", "--google-key", p.path, sitemap}, "--google-key "},
        {{"submit", "--bing-key-file", p.path, sitemap}, "--bing-key-file "},
    };
    for (const command& c : commands) {
      const run_result r = run_sitemill(c.args, bounded());
      test::campaign_tally(test::campaign_kind::hostile_input, 1);
      expect_clean_refusal(
          r, p.path,
          c.prefix.ends_with("read ") ? p.says : "cannot be read: " + p.says);
      EXPECT_THAT(r.err, HasSubstr(c.prefix + p.path)) << r.err;
    }
  }
}

// Binary bytes and one line of megabytes, each under the file cap: the
// problems are told by line, the first ten of them, and memory stays flat.
TEST(HostileFiles, BinaryAndLongLineCredentialFilesAreToldByLine) {
  temp_dir t;
  std::string binary;
  std::uint32_t x = 2463534242u;
  for (int i = 0; i < (4 << 20); ++i) {  // xorshift: the same bytes each run
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    binary.push_back(static_cast<char>(x & 0xFF));
  }
  write_file(t / "binary", binary);
  write_file(t / "long", std::string(12 << 20, 'a'));
  for (const char* name : {"binary", "long"}) {
    for (const char* flag : {"--cookie-file", "--netrc-file"}) {
      SCOPED_TRACE(std::string(flag) + " " + name);
      const run_result r =
          run_sitemill(crawl_with(t, flag, t / name), bounded());
      test::campaign_tally(test::campaign_kind::hostile_input, 1);
      EXPECT_FALSE(r.timed_out);
      EXPECT_EQ(r.term_signal, 0);
      EXPECT_EQ(r.exit_code, 2) << r.err;
      EXPECT_THAT(r.err, HasSubstr(t / name + ":1: "));
      EXPECT_LT(r.err.size(), 4000u) << "ten problems at most, not the bytes";
      EXPECT_LT(r.max_rss_kib, max_rss_kib);
    }
  }
}

// A link to a good file is read as the file: a key file kept in a secrets
// directory and linked into place works.
TEST(HostileFiles, ASymlinkToAGoodKeyFileIsReadThrough) {
  temp_dir t;
  write_file(t / "bing.key", "b1ngSecretKey0123456789abcdef\n");
  std::filesystem::create_symlink(t / "bing.key", t / "link.key");
  const run_result r =
      run_sitemill({"submit", "--dry-run", "--bing-key-file", t / "link.key",
                    "https://www.example.com/sitemap.xml"},
                   bounded());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err + r.out, Not(HasSubstr("b1ngSecretKey")));
}

// generate --robots edits a robots.txt on disk: what is no text file there
// is refused by name before anything is published, and nothing is written.
TEST(HostileFiles, GenerateRobotsRefusesWhatIsNoRobotsTxt) {
  temp_dir t;
  write_file(t / "urls.txt", "https://www.example.com/a\n");
  auto paths = hostile_paths(t);
  paths.pop_back();  // a missing robots.txt is created, as always
  paths[2].says = "is a directory; give the robots.txt file";
  write_file(t / "nul.txt",
             std::string("User-agent: *\nDisallow: /x\0y\n", 30));
  paths.push_back({t / "nul.txt",
                   "robots.txt holds a NUL byte on line 2, which no text "
                   "file does"});
  write_file(t / "utf16.txt", std::string("\xFF\xFEU\0s\0e\0r\0", 10));
  paths.push_back({t / "utf16.txt", "robots.txt is UTF-16"});
  for (const hostile_path& p : paths) {
    SCOPED_TRACE(p.path);
    const std::string says =
        p.says.starts_with("it ") ? "cannot be read: " + p.says : p.says;
    const run_result r = run_sitemill(
        {"generate", "--out", t / "out", "--base-url",
         "https://www.example.com/", "--robots", p.path, t / "urls.txt"},
        bounded());
    test::campaign_tally(test::campaign_kind::hostile_input, 1);
    EXPECT_FALSE(r.timed_out);
    EXPECT_EQ(r.term_signal, 0);
    EXPECT_NE(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.err, HasSubstr(p.path + ": " + says)) << r.err;
    EXPECT_LT(r.max_rss_kib, max_rss_kib);
  }
  EXPECT_EQ(read_raw(t / "nul.txt"),
            std::string("User-agent: *\nDisallow: /x\0y\n", 30));
}

// check reads a site's robots.txt over HTTP: huge, binary, with NULs or
// UTF-16, it is judged (a finding naming it), never a crash or a hang, and
// only its first 500 KiB are read.
TEST(HostileFiles, CheckJudgesAHostileRobotsTxtByItsUrl) {
  struct row {
    const char* what;
    http_reply reply;
    const char* says;
  };
  http_reply huge = text_reply(200, "User-agent: *\n");
  huge.padding = 200u << 20;
  const row rows[] = {
      {"huge", huge, "robots-truncated"},
      {"binary",
       text_reply(200, std::string("\x1f\x8b\x08\0\0\0\0\0\0\x03", 10),
                  "application/gzip"),
       "robots.txt"},
      {"NULs",
       text_reply(200, std::string("Sitemap: /a\0.xml\nUser-agent:\0*\n", 30)),
       "robots-"},
      {"UTF-16", text_reply(200, std::string("\xFF\xFES\0i\0t\0e\0", 10)),
       "robots-utf16"},
  };
  for (const row& c : rows) {
    SCOPED_TRACE(c.what);
    http_server server;
    server.route("/robots.txt", c.reply);
    const run_result r = run_sitemill({"check", server.url("/")}, bounded());
    test::campaign_tally(test::campaign_kind::hostile_input, 1);
    EXPECT_FALSE(r.timed_out);
    EXPECT_EQ(r.term_signal, 0);
    EXPECT_NE(r.exit_code, 0) << r.out << r.err;
    EXPECT_THAT(r.out + r.err, HasSubstr(server.url("/robots.txt")));
    EXPECT_THAT(r.out + r.err, HasSubstr(c.says));
    EXPECT_LT(r.max_rss_kib, max_rss_kib);
    EXPECT_LT(server.body_bytes_sent(), std::uint64_t{100} << 20)
        << "a huge robots.txt is not read to its end";
  }
}

}  // namespace
}  // namespace sitemill::testing
