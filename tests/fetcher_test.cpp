// The fetch engine (include/sitemill/net/fetcher.h) against the scripted
// loopback server: limits seen from the server's side, politeness, retries,
// headers before the body, and cancellation in every phase.
#include "sitemill/net/fetcher.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "support/http_server.h"

namespace sitemill {
namespace {

using std::chrono::milliseconds;
using testing::eventually;
using ::testing::HasSubstr;
using testing::http_reply;
using testing::http_server;
using testing::recorded_request;
using testing::text_reply;

// Records every callback, in order; what on_head answers and what on_done
// does next are the test's.
struct recorder : fetch_handler {
  struct done_call {
    std::uint64_t tag;
    fetch_outcome outcome;
  };
  std::vector<std::string> events;  // "head 3", "body 3", "done 3"
  std::map<std::uint64_t, std::string> bodies;
  std::map<std::uint64_t, http_head> heads;
  std::vector<done_call> done;
  std::function<bool(std::uint64_t, const http_head&)> want_body;
  std::function<void(std::uint64_t, const fetch_outcome&)> then;

  bool on_head(std::uint64_t tag, const http_head& head) override {
    events.push_back("head " + std::to_string(tag));
    heads[tag] = head;
    return want_body ? want_body(tag, head) : true;
  }
  bool on_body(std::uint64_t tag, const char* data, std::size_t n) override {
    if (events.back() != "body " + std::to_string(tag))
      events.push_back("body " + std::to_string(tag));
    bodies[tag].append(data, n);
    return true;
  }
  void on_done(std::uint64_t tag, const fetch_outcome& outcome) override {
    events.push_back("done " + std::to_string(tag));
    done.push_back({tag, outcome});
    if (then) then(tag, outcome);
  }
  const fetch_outcome& outcome(std::uint64_t tag) const {
    for (const auto& d : done)
      if (d.tag == tag) return d.outcome;
    throw std::out_of_range("no outcome for tag " + std::to_string(tag));
  }
};

fetch_request get(std::string url, std::uint64_t tag) {
  fetch_request r;
  r.url = std::move(url);
  r.tag = tag;
  return r;
}

fetch_options quick_options() {
  fetch_options o;
  o.http.connect_timeout = milliseconds(5'000);
  o.http.total_timeout = milliseconds(20'000);
  o.retry.first_wait = milliseconds(10);
  return o;
}

// Names that all lead to one loopback server, so that one server sees
// several hosts and can count each one's requests in progress.
struct named_hosts {
  named_hosts(const http_server& server, std::vector<std::string> host_names)
      : names(std::move(host_names)), port(std::to_string(server.port())) {}
  std::vector<std::string> pins() const {
    std::vector<std::string> out;
    for (const auto& n : names) out.push_back(n + ":" + port + ":127.0.0.1");
    return out;
  }
  std::string host(std::size_t i) const { return names[i] + ":" + port; }
  std::string url(std::size_t i, std::string_view path) const {
    return "http://" + host(i) + std::string(path);
  }
  std::vector<std::string> names;
  std::string port;
};

fetch_options options_for(const named_hosts& hosts) {
  fetch_options o = quick_options();
  o.http.resolve = hosts.pins();
  return o;
}

std::vector<recorded_request> requests_for(const http_server& server,
                                           const std::string& host) {
  std::vector<recorded_request> out;
  for (auto& r : server.requests())
    if (r.header("Host") == host) out.push_back(std::move(r));
  return out;
}

// The most requests the server had in progress at once, in all and per
// host, while `o`'s fetcher fetched 8 URLs from each of 3 hosts.
struct peaks {
  std::size_t all = 0;
  std::vector<std::size_t> by_host;
  std::size_t connections = 0;
};

peaks fetch_from_three_hosts(unsigned concurrency, unsigned per_host) {
  http_server server;
  http_reply slow = text_reply(200, "page", "text/html");
  // Long enough that requests overlap at the server whenever the fetcher
  // lets them.
  slow.delay = milliseconds(100);
  server.route("/p", slow);
  const named_hosts hosts(server, {"a.test", "b.test", "c.test"});
  fetch_options o = options_for(hosts);
  o.concurrency = concurrency;
  o.per_host = per_host;
  fetcher f(o);
  recorder r;
  constexpr int per_host_urls = 8;
  for (int i = 0; i < per_host_urls; ++i)
    for (std::size_t h = 0; h < 3; ++h)
      f.submit(get(hosts.url(h, "/p?n=" + std::to_string(i)), h * 100 + i));
  EXPECT_EQ(f.counters().queued, 3u * per_host_urls);

  EXPECT_TRUE(f.run(r));
  EXPECT_EQ(r.done.size(), 3u * per_host_urls);
  for (const auto& d : r.done) {
    EXPECT_TRUE(d.outcome.ok()) << d.outcome.error;
    EXPECT_EQ(d.outcome.head.status, 200);
    EXPECT_EQ(r.bodies[d.tag], "page");
  }
  const fetch_counters c = f.counters();
  EXPECT_EQ(c.done, 3u * per_host_urls);
  EXPECT_EQ(c.errors, 0u);
  EXPECT_EQ(c.queued, 0u);
  EXPECT_EQ(c.in_flight, 0u);
  EXPECT_EQ(c.bytes, 3u * per_host_urls * 4);
  peaks p;
  p.all = server.peak_in_progress();
  for (std::size_t h = 0; h < 3; ++h)
    p.by_host.push_back(server.peak_in_progress(hosts.host(h)));
  p.connections = server.connections();
  return p;
}

TEST(Fetcher, KeepsToThePerHostLimit) {
  // 3 hosts x 2 is less than 8: the limit per host binds, and is reached.
  const peaks p = fetch_from_three_hosts(8, 2);
  EXPECT_THAT(p.by_host, ::testing::ElementsAre(2u, 2u, 2u));
  EXPECT_EQ(p.all, 6u);
  // Keep-alive: no more connections than slots were ever open.
  EXPECT_LE(p.connections, 6u);
}

TEST(Fetcher, KeepsToTheGlobalLimit) {
  // 3 hosts x 3 is more than 4: the global limit binds, and is reached.
  const peaks p = fetch_from_three_hosts(4, 3);
  EXPECT_EQ(p.all, 4u);
  for (const std::size_t n : p.by_host) EXPECT_LE(n, 3u);
}

TEST(Fetcher, StartsEachHostsRequestsInOrderAndHostsInTurn) {
  http_server server;
  server.route("/x", text_reply(200, "x"));
  const named_hosts hosts(server, {"a.test", "b.test", "c.test"});
  fetch_options o = options_for(hosts);
  o.concurrency = 1;
  fetcher f(o);
  for (const auto& [h, n] : std::vector<std::pair<std::size_t, int>>{
           {0, 1}, {0, 2}, {0, 3}, {1, 1}, {1, 2}, {2, 1}})
    f.submit(get(hosts.url(h, "/x?" + std::to_string(n)), 0));
  recorder r;
  ASSERT_TRUE(f.run(r));
  std::vector<std::string> order;
  for (const auto& req : server.requests())
    order.push_back(req.header("Host")->substr(0, 1) + req.target.substr(2));
  EXPECT_THAT(order,
              ::testing::ElementsAre("a?1", "b?1", "c?1", "a?2", "b?2", "a?3"));
}

TEST(Fetcher, KeepsAHostsDelayBetweenStartsWithoutHoldingOthers) {
  http_server server;
  server.route("/x", text_reply(200, "x"));
  const named_hosts hosts(server, {"slow.test", "fast.test"});
  fetch_options o = options_for(hosts);
  o.per_host = 2;
  fetcher f(o);
  constexpr milliseconds delay{150};
  f.set_host_delay(hosts.url(0, "/"), delay);
  for (int i = 0; i < 4; ++i) {
    f.submit(get(hosts.url(0, "/x?" + std::to_string(i)), 0));
    f.submit(get(hosts.url(1, "/x?" + std::to_string(i)), 1));
  }
  recorder r;
  ASSERT_TRUE(f.run(r));
  const auto slow = requests_for(server, hosts.host(0));
  const auto fast = requests_for(server, hosts.host(1));
  ASSERT_EQ(slow.size(), 4u);
  ASSERT_EQ(fast.size(), 4u);
  for (std::size_t i = 1; i < slow.size(); ++i) {
    // The server notes a request when it arrives, a connect after its
    // start at most; 10 ms covers a first connect's head start on a later
    // request's kept connection.
    EXPECT_GE(slow[i].received - slow[i - 1].received, delay - milliseconds(10))
        << "request " << i;
  }
  // The other host was not made to wait: all of it came before the slow
  // host's second start.
  EXPECT_LT(fast.back().received, slow[1].received);
}

TEST(Fetcher, RetriesA429AfterItsRetryAfterWhileOtherHostsGoOn) {
  http_server server;
  http_reply busy = text_reply(429, "slow down");
  busy.headers.emplace_back("Retry-After", "1");
  server.route("/busy", {busy, text_reply(200, "ok")});
  server.route("/other", text_reply(200, "other"));
  const named_hosts hosts(server, {"a.test", "b.test"});
  fetch_options o = options_for(hosts);
  o.per_host = 1;
  fetcher f(o);
  f.submit(get(hosts.url(0, "/busy"), 1));
  f.submit(get(hosts.url(0, "/other"), 2));  // same host: waits its turn
  for (int i = 0; i < 3; ++i) f.submit(get(hosts.url(1, "/other"), 10 + i));
  recorder r;
  ASSERT_TRUE(f.run(r));

  const fetch_outcome& busy_out = r.outcome(1);
  ASSERT_TRUE(busy_out.ok()) << busy_out.error;
  EXPECT_EQ(busy_out.head.status, 200);
  EXPECT_EQ(busy_out.attempts, 2);
  EXPECT_EQ(r.bodies[1], "ok");
  // The 429 itself never reached the handler.
  EXPECT_EQ(std::count(r.events.begin(), r.events.end(), "head 1"), 1);

  const auto a = requests_for(server, hosts.host(0));
  const auto b = requests_for(server, hosts.host(1));
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0].target, "/busy");
  EXPECT_EQ(a[1].target, "/busy");  // the retry goes first on its host
  EXPECT_EQ(a[2].target, "/other");
  // Retry-After said 1 s (first_wait would have been 10 ms).
  EXPECT_GE(a[1].received - a[0].received, milliseconds(990));
  ASSERT_EQ(b.size(), 3u);
  EXPECT_LT(b.back().received, a[1].received) << "the wait held another host";
}

TEST(Fetcher, DeliversThe503ThatEndsTheTries) {
  http_server server;
  server.route("/down", text_reply(503, "down"));
  fetch_options o = quick_options();
  o.retry.max_attempts = 3;
  std::vector<std::string> trace;
  o.http.trace = [&trace](std::string_view line) { trace.emplace_back(line); };
  fetcher f(o);
  f.submit(get(server.url("/down"), 7));
  recorder r;
  ASSERT_TRUE(f.run(r));
  const fetch_outcome& out = r.outcome(7);
  EXPECT_TRUE(out.ok()) << "a 503 is an answer, not a transport error";
  EXPECT_EQ(out.head.status, 503);
  EXPECT_EQ(out.attempts, 3);
  EXPECT_EQ(r.bodies[7], "down");
  EXPECT_EQ(server.count("/down"), 3u);
  ASSERT_EQ(trace.size(), 3u);
  EXPECT_THAT(trace[0], HasSubstr("GET " + server.url("/down") + ": 503"));
  EXPECT_THAT(trace[0], HasSubstr("tried again in 10 ms"));
  EXPECT_THAT(trace[1], HasSubstr("tried again in 20 ms"));
  EXPECT_THAT(trace[2], HasSubstr("503, 4 bytes"));
}

TEST(Fetcher, SkipsABodyTheHandlerDoesNotWant) {
  http_server server;
  constexpr std::uint64_t huge = 50ull * 1024 * 1024;
  http_reply pdf = text_reply(200, "", "application/pdf");
  pdf.padding = huge;
  server.route("/file.pdf", pdf);
  http_reply missing = text_reply(404, "", "text/html");
  missing.padding = huge;
  server.route("/missing", missing);
  server.route("/page", text_reply(200, "<p>hi</p>", "text/html"));
  fetcher f(quick_options());
  f.submit(get(server.url("/file.pdf"), 1));
  f.submit(get(server.url("/missing"), 2));
  f.submit(get(server.url("/page"), 3));
  recorder r;
  r.want_body = [](std::uint64_t, const http_head& h) {
    return h.status == 200 && h.content_type.starts_with("text/html");
  };
  ASSERT_TRUE(f.run(r));
  for (const std::uint64_t tag : {1, 2}) {
    SCOPED_TRACE(tag);
    const fetch_outcome& out = r.outcome(tag);
    EXPECT_TRUE(out.ok()) << out.error;
    EXPECT_TRUE(out.body_skipped);
    EXPECT_EQ(out.body_bytes, 0u);
    EXPECT_FALSE(r.bodies.contains(tag));
    EXPECT_EQ(out.head.content_length, huge);
  }
  EXPECT_EQ(r.outcome(2).head.status, 404);
  EXPECT_FALSE(r.outcome(3).body_skipped);
  EXPECT_EQ(r.bodies[3], "<p>hi</p>");
  // The server saw both connections closed in the middle of the body.
  EXPECT_TRUE(eventually([&] { return server.answers_cut() == 2; }))
      << server.answers_cut();
  EXPECT_LT(server.body_bytes_sent(), huge / 2);
  EXPECT_LT(f.counters().bytes, 100u);
}

TEST(Fetcher, DeliversARedirectWithoutFollowingIt) {
  http_server server;
  server.redirect("/old", "/new", 301);
  server.route("/new", text_reply(200, "new"));
  fetcher f(quick_options());
  f.submit(get(server.url("/old"), 1));
  recorder r;
  ASSERT_TRUE(f.run(r));
  const fetch_outcome& out = r.outcome(1);
  ASSERT_TRUE(out.ok()) << out.error;
  EXPECT_EQ(out.head.status, 301);
  EXPECT_EQ(out.head.location, "/new");
  EXPECT_EQ(out.head.effective_url, server.url("/old"));
  EXPECT_EQ(server.count("/new"), 0u);
}

// The crawler's re-crawl: a page fetched once is asked for again with its
// validators, and the 304 is delivered, from a submit inside on_done.
TEST(Fetcher, PassesConditionalHeadersAndDeliversA304) {
  http_server server;
  server.route("/page", [](const recorded_request& req) {
    if (req.header("If-None-Match") == "\"v1\"") {
      http_reply r;
      r.status = 304;
      r.headers.emplace_back("ETag", "\"v1\"");
      return r;
    }
    http_reply r = text_reply(200, "<p>v1</p>", "text/html");
    r.headers.emplace_back("ETag", "\"v1\"");
    r.headers.emplace_back("Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT");
    r.headers.emplace_back("X-Robots-Tag", "noarchive");
    r.headers.emplace_back("X-Robots-Tag", "otherbot: noindex");
    return r;
  });
  fetcher f(quick_options());
  recorder r;
  r.then = [&](std::uint64_t tag, const fetch_outcome& out) {
    if (tag != 1) return;
    fetch_request again = get(server.url("/page"), 2);
    again.headers = {{"If-None-Match", out.head.etag},
                     {"If-Modified-Since", out.head.last_modified}};
    f.submit(std::move(again));
  };
  f.submit(get(server.url("/page"), 1));
  ASSERT_TRUE(f.run(r));

  const http_head& first = r.outcome(1).head;
  EXPECT_EQ(first.status, 200);
  EXPECT_EQ(first.etag, "\"v1\"");
  EXPECT_EQ(first.last_modified, "Wed, 21 Oct 2015 07:28:00 GMT");
  EXPECT_THAT(first.x_robots_tag,
              ::testing::ElementsAre("noarchive", "otherbot: noindex"));
  EXPECT_EQ(first.content_length, 9u);
  const fetch_outcome& second = r.outcome(2);
  ASSERT_TRUE(second.ok()) << second.error;
  EXPECT_EQ(second.head.status, 304);
  EXPECT_EQ(second.body_bytes, 0u);
  const auto log = server.requests();
  ASSERT_EQ(log.size(), 2u);
  EXPECT_FALSE(log[0].header("If-None-Match"));
  EXPECT_EQ(log[1].header("If-None-Match"), "\"v1\"");
  EXPECT_EQ(log[1].header("If-Modified-Since"),
            "Wed, 21 Oct 2015 07:28:00 GMT");
  // Head, body, done, in that order, for each request.
  EXPECT_THAT(r.events, ::testing::ElementsAre("head 1", "body 1", "done 1",
                                               "head 2", "done 2"));
}

TEST(Fetcher, SendsHeadRequests) {
  http_server server;
  server.route("/x", text_reply(200, "twelve bytes"));
  fetcher f(quick_options());
  fetch_request req = get(server.url("/x"), 1);
  req.method = fetch_method::head;
  f.submit(req);
  recorder r;
  ASSERT_TRUE(f.run(r));
  EXPECT_EQ(r.outcome(1).head.content_length, 12u);
  EXPECT_EQ(r.outcome(1).body_bytes, 0u);
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(server.requests()[0].method, "HEAD");
}

TEST(Fetcher, EndsABodyOverTheCapWithAnError) {
  http_server server;
  server.route("/exact", text_reply(200, std::string(10'000, 'x')));
  server.route("/over", text_reply(200, std::string(10'001, 'x')));
  fetch_options o = quick_options();
  o.http.max_body_bytes = 10'000;
  fetcher f(o);
  f.submit(get(server.url("/exact"), 1));
  f.submit(get(server.url("/over"), 2));
  recorder r;
  ASSERT_TRUE(f.run(r));
  EXPECT_TRUE(r.outcome(1).ok()) << r.outcome(1).error;
  EXPECT_EQ(r.outcome(1).body_bytes, 10'000u);
  EXPECT_EQ(r.outcome(2).error,
            server.url("/over") + ": response larger than 10000 bytes");
  EXPECT_EQ(r.outcome(2).head.status, 200);
  EXPECT_EQ(f.counters().errors, 1u);
}

TEST(Fetcher, RefusesAnAddressOutsideTheScope) {
  http_server server;
  server.route("/x", text_reply(200, "x"));
  const fetch_scope closed;  // no target of its own: loopback is private
  fetch_options o = quick_options();
  o.scope = &closed;
  fetcher refusing(o);
  refusing.submit(get(server.url("/x"), 1));
  recorder r;
  ASSERT_TRUE(refusing.run(r));
  const fetch_outcome& out = r.outcome(1);
  EXPECT_THAT(out.error,
              HasSubstr(server.url("/x") + ": not connected to "
                                           "127.0.0.1, a loopback address"));
  EXPECT_EQ(out.out_of_scope, "127.0.0.1");
  EXPECT_EQ(server.connections(), 0u);

  fetch_scope own;
  own.allowed = {*parse_ip_address("127.0.0.1")};
  o.scope = &own;
  fetcher allowed(o);
  allowed.submit(get(server.url("/x"), 2));
  ASSERT_TRUE(allowed.run(r));
  EXPECT_TRUE(r.outcome(2).ok()) << r.outcome(2).error;
}

TEST(Fetcher, ReportsUrlsAndConnectionsThatFail) {
  http_server server;
  http_reply hang_up;
  hang_up.close_without_answer = true;
  server.route("/hang-up", hang_up);
  fetcher f(quick_options());
  f.submit(get("ftp://127.0.0.1/x", 1));
  f.submit(get("not a url", 2));
  f.submit(get(server.url("/hang-up"), 3));
  f.submit(get("http://127.0.0.1:1/", 4));  // nothing listens on port 1
  recorder r;
  ASSERT_TRUE(f.run(r));
  EXPECT_THAT(r.outcome(1).error, HasSubstr("ftp://127.0.0.1/x: "));
  EXPECT_THAT(r.outcome(2).error, HasSubstr("not a url: "));
  EXPECT_THAT(r.outcome(3).error, HasSubstr(server.url("/hang-up") + ": "));
  EXPECT_THAT(r.outcome(4).error, HasSubstr("http://127.0.0.1:1/: "));
  EXPECT_EQ(f.counters().errors, 4u);
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(Fetcher, LetsAHandlersExceptionOutAndStaysUsable) {
  http_server server;
  server.route("/x", text_reply(200, "x"));
  fetcher f(quick_options());
  f.submit(get(server.url("/x"), 1));
  recorder throwing;
  throwing.want_body = [](std::uint64_t, const http_head&) -> bool {
    throw std::runtime_error("handler failed");
  };
  EXPECT_THROW((void)f.run(throwing), std::runtime_error);
  f.submit(get(server.url("/x"), 2));
  recorder r;
  ASSERT_TRUE(f.run(r));
  EXPECT_EQ(r.bodies[2], "x");
  EXPECT_EQ(f.counters().in_flight, 0u);
}

// Sets `cancel` (and wakes the fetcher) once `ready` holds, and says when.
class canceller {
 public:
  canceller(fetcher& f, std::atomic<bool>& cancel, std::function<bool()> ready)
      : thread_([&f, &cancel, ready = std::move(ready), this] {
          ready_seen_ = eventually(ready);
          at_ = std::chrono::steady_clock::now();
          cancel = true;
          f.wake();
        }) {}
  ~canceller() { join(); }
  void join() {
    if (thread_.joinable()) thread_.join();
  }
  bool ready_seen() const { return ready_seen_; }
  std::chrono::steady_clock::time_point at() const { return at_; }

 private:
  bool ready_seen_ = false;
  std::chrono::steady_clock::time_point at_;
  std::thread thread_;
};

TEST(Fetcher, ACancelEndsAConnectThatHangs) {
  testing::stalled_listener stalled;
  {
    // The listener does hang a connect: without a cancel, only the connect
    // timeout ends it.
    fetch_options o = quick_options();
    o.http.connect_timeout = milliseconds(300);
    fetcher f(o);
    f.submit(get(stalled.url("/x"), 1));
    recorder r;
    ASSERT_TRUE(f.run(r));
    EXPECT_THAT(r.outcome(1).error, HasSubstr("timed out ("));
  }
  http_server server;
  server.route("/x", text_reply(200, "x"));
  std::atomic<bool> cancel{false};
  fetch_options o = quick_options();
  o.http.connect_timeout = milliseconds(60'000);
  o.http.total_timeout = milliseconds(120'000);
  o.http.cancel = &cancel;
  o.concurrency = 1;
  fetcher f(o);
  f.submit(get(stalled.url("/x"), 1));
  f.submit(get(server.url("/x"), 2));  // waits for the only slot
  recorder r;
  canceller c(f, cancel, [&f] { return f.counters().in_flight == 1; });
  EXPECT_FALSE(f.run(r));
  const auto took = std::chrono::steady_clock::now() - c.at();
  c.join();
  ASSERT_TRUE(c.ready_seen());
  // Generous on a loaded machine: it only has to end long before the
  // 60 s timeout that would end it without the cancel.
  EXPECT_LT(took, std::chrono::seconds(30));
  ASSERT_EQ(r.done.size(), 1u);
  EXPECT_EQ(r.outcome(1).error, stalled.url("/x") + ": cancelled");
  EXPECT_EQ(r.outcome(1).head.status, 0);
  // What had not started stays queued for a later run.
  EXPECT_EQ(f.counters().queued, 1u);
  EXPECT_EQ(server.requests().size(), 0u);
  cancel = false;
  ASSERT_TRUE(f.run(r));
  EXPECT_EQ(r.bodies[2], "x");
}

TEST(Fetcher, ACancelEndsABodyThatStalls) {
  http_server server;
  http_reply stalling = text_reply(200, "late", "text/html");
  stalling.stall_after_head = milliseconds(30'000);
  server.route("/stall", stalling);
  std::atomic<bool> cancel{false};
  std::atomic<bool> head_seen{false};
  fetch_options o = quick_options();
  o.http.total_timeout = milliseconds(120'000);
  o.http.cancel = &cancel;
  fetcher f(o);
  f.submit(get(server.url("/stall"), 1));
  recorder r;
  r.want_body = [&head_seen](std::uint64_t, const http_head&) {
    head_seen = true;
    return true;
  };
  canceller c(f, cancel, [&head_seen] { return head_seen.load(); });
  EXPECT_FALSE(f.run(r));
  const auto took = std::chrono::steady_clock::now() - c.at();
  c.join();
  ASSERT_TRUE(c.ready_seen());
  // Generous on a loaded machine: it only has to end long before the
  // server's 30 s stall would.
  EXPECT_LT(took, std::chrono::seconds(15));
  EXPECT_EQ(r.outcome(1).error, server.url("/stall") + ": cancelled");
  EXPECT_EQ(r.outcome(1).head.status, 200);
  EXPECT_EQ(f.counters().in_flight, 0u);
}

}  // namespace
}  // namespace sitemill
