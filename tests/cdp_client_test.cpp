// The DevTools client (src/net/cdp_client.h) against a scripted browser on
// the other end of two pipes: how commands are written (escaped, NUL-ended),
// how answers and events are read (split anywhere, kept aside while a call
// waits), and every way the browser can fail it (an error answer, silence,
// garbage, a closed pipe) ending in an error, never a hang or a SIGPIPE.
#include "net/cdp_client.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <string_view>
#include <thread>

namespace sitemill::detail {
namespace {

using std::chrono::milliseconds;

std::string escaped(std::string_view text) {
  std::string out;
  append_json_string(out, text);
  return out;
}

TEST(CdpJson, EscapesEveryStringAsRfc8259Section7Asks) {
  EXPECT_EQ(escaped("plain"), "\"plain\"");
  EXPECT_EQ(escaped("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(escaped("line\nreturn\rtab\t"), "\"line\\nreturn\\rtab\\t\"");
  EXPECT_EQ(escaped(std::string_view("\x01\x1f\x7f", 3)),
            "\"\\u0001\\u001f\\u007f\"");
  EXPECT_EQ(escaped(std::string_view("nul\0x", 5)), "\"nul\\u0000x\"");
  EXPECT_EQ(escaped("caf\xC3\xA9 \xE2\x82\xAC"),
            "\"caf\xC3\xA9 \xE2\x82\xAC\"");
}

TEST(CdpJson, ReplacesBytesThatAreNotUtf8) {
  EXPECT_EQ(escaped("a\xFFz"), "\"a\\ufffdz\"");
  EXPECT_EQ(escaped("cut \xC3"), "\"cut \\ufffd\"");
  EXPECT_EQ(escaped("\xED\xA0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");  // surrogate
}

TEST(CdpJson, ParamsAreOneObject) {
  EXPECT_EQ(cdp_params().str(), "{}");
  cdp_params p;
  p.add("url", "http://127.0.0.1/a?b=\"c\"")
      .add("flatten", true)
      .add("width", 800)
      .add_json("patterns", "[{\"urlPattern\":\"*\"}]");
  EXPECT_EQ(p.str(),
            "{\"url\":\"http://127.0.0.1/a?b=\\\"c\\\"\",\"flatten\":true,"
            "\"width\":800,\"patterns\":[{\"urlPattern\":\"*\"}]}");
}

TEST(CdpJson, MemberByPath) {
  const std::string_view j =
      R"({"result":{"type":"string","value":"<html>\"x\"<\/html>"},)"
      R"("n":-1.5e3,"ok":true,"list":[1, {"a":2}],"o":{"k":{}}})";
  EXPECT_EQ(json_member(j, {"result", "value"}), "<html>\"x\"</html>");
  EXPECT_EQ(json_member(j, {"n"}), "-1.5e3");
  EXPECT_EQ(json_member(j, {"ok"}), "true");
  EXPECT_EQ(json_member(j, {"list"}), "[1, {\"a\":2}]");
  EXPECT_EQ(json_member(j, {"o", "k"}), "{}");
  EXPECT_EQ(json_member(j, {"result", "missing"}), std::nullopt);
  EXPECT_EQ(json_member(j, {"n", "deeper"}), std::nullopt);
  EXPECT_EQ(json_member("{\"a\":", {"a"}), std::nullopt);
  EXPECT_EQ(json_member("not json", {"a"}), std::nullopt);
}

// A browser of the test's making: it reads what the client writes on one
// pipe and writes what the test says on the other.
class fake_browser {
 public:
  fake_browser() {
    int to[2], from[2];
    EXPECT_EQ(::pipe2(to, O_CLOEXEC), 0);
    EXPECT_EQ(::pipe2(from, O_CLOEXEC), 0);
    reads_ = to[0];
    writes_ = from[1];
    client_ = std::make_unique<cdp_client>(to[1], from[0]);
  }
  ~fake_browser() {
    client_.reset();
    if (reads_ != -1) ::close(reads_);
    if (writes_ != -1) ::close(writes_);
  }
  cdp_client& client() { return *client_; }

  /// What the client sent so far (NULs as they came).
  std::string sent() {
    std::string out;
    char buffer[4096];
    ::fcntl(reads_, F_SETFL, O_NONBLOCK);
    ssize_t n;
    while ((n = ::read(reads_, buffer, sizeof buffer)) > 0)
      out.append(buffer, n);
    return out;
  }
  void say(std::string_view bytes) {
    ASSERT_EQ(::write(writes_, bytes.data(), bytes.size()),
              static_cast<ssize_t>(bytes.size()));
  }
  void hang_up() {
    ::close(writes_);
    writes_ = -1;
  }
  void stop_reading() {
    ::close(reads_);
    reads_ = -1;
  }

 private:
  int reads_ = -1, writes_ = -1;
  std::unique_ptr<cdp_client> client_;
};

TEST(CdpClient, WritesEachCommandAsOneNulEndedObject) {
  fake_browser b;
  auto first = b.client().send("Browser.getVersion");
  auto second = b.client().send(
      "Page.navigate", cdp_params().add("url", "http://x/").str(), "SESSION-1");
  ASSERT_TRUE(first && second);
  EXPECT_EQ(*first, 1u);
  EXPECT_EQ(*second, 2u);
  EXPECT_EQ(b.sent(),
            std::string("{\"id\":1,\"method\":\"Browser.getVersion\","
                        "\"params\":{}}") +
                '\0' +
                "{\"id\":2,\"method\":\"Page.navigate\",\"sessionId\":"
                "\"SESSION-1\",\"params\":{\"url\":\"http://x/\"}}" +
                '\0');
}

TEST(CdpClient, ReadsMessagesSplitAnywhereAndKeepsEventsForLater) {
  fake_browser b;
  const std::string event =
      std::string(
          "{\"method\":\"Page.loadEventFired\",\"sessionId\":\"S\","
          "\"params\":{\"timestamp\":1.5}}") +
      '\0';
  const std::string answer =
      std::string("{\"id\":1,\"result\":{\"product\":\"Chrome/1\"}}") + '\0';
  std::thread writer([&] {
    for (char c : event + answer) b.say(std::string_view(&c, 1));
  });
  auto r =
      b.client().call("Browser.getVersion", "{}", {}, milliseconds(10'000));
  writer.join();
  ASSERT_TRUE(r) << r.err().message;
  EXPECT_EQ(r->id, 1u);
  EXPECT_EQ(json_member(r->body, {"product"}), "Chrome/1");
  auto e = b.client().next(milliseconds(0));
  ASSERT_TRUE(e && *e);
  EXPECT_EQ((*e)->method, "Page.loadEventFired");
  EXPECT_EQ((*e)->session_id, "S");
  EXPECT_EQ(json_member((*e)->body, {"timestamp"}), "1.5");
}

TEST(CdpClient, AnErrorAnswerIsAnErrorWithTheBrowsersMessage) {
  fake_browser b;
  b.say(
      std::string(
          R"({"id":1,"error":{"code":-32000,"message":"Cannot navigate to invalid URL"}})") +
      '\0');
  auto r = b.client().call("Page.navigate", "{}", "S", milliseconds(10'000));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.err().message, "Page.navigate: Cannot navigate to invalid URL");
  EXPECT_FALSE(b.client().broken());
}

TEST(CdpClient, SilenceEndsInATimeOutNamingTheCommand) {
  fake_browser b;
  auto r = b.client().call("Runtime.evaluate", "{}", "S", milliseconds(50));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.err().message,
            "the browser did not answer Runtime.evaluate within 50 ms");
  auto none = b.client().next(milliseconds(0));
  ASSERT_TRUE(none);
  EXPECT_FALSE(*none);
}

TEST(CdpClient, ACancelEndsTheWait) {
  fake_browser b;
  std::atomic<bool> cancel{true};
  auto r = b.client().call("Runtime.evaluate", "{}", "S", milliseconds(600'000),
                           &cancel);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.err().message, "cancelled");
}

TEST(CdpClient, AClosedPipeIsAnErrorAtOnce) {
  fake_browser b;
  b.say(std::string(R"({"method":"Inspector.detached","params":{}})") + '\0');
  b.hang_up();
  auto r =
      b.client().call("Browser.getVersion", "{}", {}, milliseconds(600'000));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.err().message, "the browser closed its pipe");
  EXPECT_TRUE(b.client().broken());
  auto kept = b.client().next(milliseconds(0));  // what came before stays
  ASSERT_TRUE(kept && *kept);
  EXPECT_EQ((*kept)->method, "Inspector.detached");
}

TEST(CdpClient, GarbageIsAnError) {
  fake_browser b;
  b.say(std::string("[1,2]") + '\0');
  auto r = b.client().next(milliseconds(10'000));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.err().message,
            "the browser sent a message that is not a JSON object");
}

TEST(CdpClient, WritingToABrowserThatStoppedReadingFailsWithoutSigpipe) {
  // SIGPIPE at its default, which ends the process, whatever an earlier
  // test of this binary set.
  struct sigaction dfl {
  }, old{};
  dfl.sa_handler = SIG_DFL;
  ::sigaction(SIGPIPE, &dfl, &old);
  fake_browser b;
  b.stop_reading();
  auto r = b.client().send("Browser.getVersion");
  ::sigaction(SIGPIPE, &old, nullptr);
  ASSERT_FALSE(r);  // the test binary is still alive: no SIGPIPE ended it
  EXPECT_EQ(r.err().message, "the browser closed its pipe");
  EXPECT_TRUE(b.client().broken());
}

TEST(CdpClient, ABrowserThatTakesNothingIsAnErrorNotAHang) {
  fake_browser b;  // never reads: the pipe fills
  const std::string big(1 << 20, 'x');
  auto r = b.client().send("Fetch.fulfillRequest",
                           cdp_params().add("body", big).str(), "S",
                           milliseconds(100));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.err().message,
            "the browser took no command for 100 ms: it hangs");
}

}  // namespace
}  // namespace sitemill::detail
