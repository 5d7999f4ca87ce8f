// `generate --from-crawl --render` end to end (issue 32): a single-page app
// on loopback whose server sends the same script-only HTML for every route;
// its script builds the links (History-API routes, from a JSON file it
// fetches), sets noindex on one route and a canonical on another. Rendered,
// every indexable page is listed and both rules are honoured; the requests
// the pages make obey robots.txt and load no images; reruns agree; and
// nothing of the browser is left running when sitemill is killed. Each test
// starts one or two browsers (the suite runs twice, once under ASan).
#include <dirent.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "support/http_server.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr const char* shell =
    "<!doctype html><html><head><title>App</title>"
    "<script src=\"/static/app.js\"></script></head>"
    "<body><div id=\"root\"></div></body></html>";

// The app: links from /api/nav.json, more from a script robots.txt
// disallows (never to be loaded), an image (never to be loaded), noindex
// on /secret and a canonical on /dup, all set by script.
constexpr const char* app = R"(
function render() {
  const p = location.pathname;
  const root = document.getElementById('root');
  const img = document.createElement('img');
  img.src = '/img/logo.png';
  root.appendChild(img);
  const extra = document.createElement('script');
  extra.src = '/private/extra.js';
  document.head.appendChild(extra);
  fetch('/api/nav.json').then(r => r.json()).then(nav => {
    for (const href of nav) {
      const a = document.createElement('a');
      a.href = href;
      a.textContent = href;
      a.addEventListener('click', e => {
        e.preventDefault(); history.pushState({}, '', href); render();
      });
      root.appendChild(a);
    }
    if (p === '/secret') {
      const m = document.createElement('meta');
      m.name = 'robots'; m.content = 'noindex';
      document.head.appendChild(m);
    }
    if (p === '/dup') {
      const l = document.createElement('link');
      l.rel = 'canonical'; l.href = '/about';
      document.head.appendChild(l);
    }
  });
}
document.addEventListener('DOMContentLoaded', render);
)";

constexpr const char* private_script = R"(
const a = document.createElement('a');
a.href = '/from-private';
document.body.appendChild(a);
)";

// The single-page app; `nav_delay` holds the JSON back (a page that never
// settles while a test kills sitemill).
void serve_app(http_server& server, std::chrono::milliseconds nav_delay =
                                        std::chrono::milliseconds(0)) {
  server.route("/robots.txt",
               text_reply(200, "User-agent: *\nDisallow: /private/\n"));
  server.route("/static/app.js",
               text_reply(200, app, "application/javascript"));
  server.route("/private/extra.js",
               text_reply(200, private_script, "application/javascript"));
  http_reply nav = text_reply(
      200,
      R"(["/", "/about", "/products", "/products/1", "/products/2", "/secret", "/dup"])",
      "application/json");
  nav.delay = nav_delay;
  server.route("/api/nav.json", nav);
  server.fallback([](const recorded_request&) {
    return text_reply(200, shell, "text/html; charset=utf-8");
  });
}

std::vector<std::string> crawl_args(const http_server& server) {
  return {"--from-crawl",  server.url("/"), "--base-url",
          server.url("/"), "--no-gzip",     "--allow-private"};
}

std::map<std::string, std::string> skips(const nlohmann::json& report) {
  std::map<std::string, std::string> out;
  for (const auto& s : report.at("skipped")) {
    const std::string reason = s.at("reason");
    const std::size_t colon = reason.find(": ", reason.find("//"));
    out[reason.substr(0, colon)] = reason.substr(colon + 2);
  }
  return out;
}

// The summary's warning that starts with `start`; "" when none does.
std::string warning(const nlohmann::json& report, std::string_view start) {
  for (const auto& w : report.at("warnings")) {
    const std::string reason = w.at("reason");
    if (reason.rfind(start, 0) == 0) return reason;
  }
  return "";
}

TEST(RenderCli, ListsEveryIndexablePageOfAScriptBuiltSite) {
  http_server server;
  serve_app(server);
  temp_dir t;
  set_expectations expect;
  expect.base_url = server.url("/");
  std::vector<std::string> args = crawl_args(server);
  args.push_back("--render");
  const generate_run g = generate_and_check(t / "out", args, {}, expect);
  ASSERT_EQ(g.run.exit_code, 0) << g.run.err;
  EXPECT_THAT(all_locs(g.set),
              ElementsAre(server.url("/"), server.url("/about"),
                          server.url("/products"), server.url("/products/1"),
                          server.url("/products/2")));
  EXPECT_EQ(skips(g.report), (std::map<std::string, std::string>{
                                 {server.url("/secret"), "noindex"},
                                 {server.url("/dup"), "canonical"}}));
  // The pages' own requests: the script and the JSON once each for all
  // seven pages; the disallowed script and the image never.
  EXPECT_EQ(server.count("/static/app.js"), 1u);
  EXPECT_EQ(server.count("/api/nav.json"), 1u);
  EXPECT_EQ(server.count("/private/extra.js"), 0u);
  EXPECT_EQ(server.count("/img/logo.png"), 0u);
  EXPECT_EQ(server.count("/from-private"), 0u);
  for (const recorded_request& r : server.requests())
    EXPECT_THAT(r.header("User-Agent").value_or(""), HasSubstr("sitemill/"))
        << r.target;
  // The disallowed script, once per page, is told in one warning.
  EXPECT_EQ(warning(g.report, "rendering:"),
            "rendering: 7 requests of rendered pages refused (another host, "
            "not a GET, or disallowed by robots.txt)");

  // A rerun publishes the same set.
  temp_dir t2;
  const generate_run again = generate_and_check(t2 / "out", args, {}, expect);
  EXPECT_EQ(all_locs(again.set), all_locs(g.set));
  EXPECT_EQ(skips(again.report), skips(g.report));
}

// With --state, a rendered page's verdict and links are remembered as any
// page's: a re-crawl whose pages all answer 304 publishes the same set
// without rendering one (no script or JSON asked for again).
TEST(RenderCli, AReCrawlWithStateTakesRenderedPagesFromItsCache) {
  http_server server;
  serve_app(server);
  server.fallback([](const recorded_request& r) {
    if (r.header("If-None-Match").value_or("") == "\"v1\"")
      return http_reply{304, {{"ETag", "\"v1\""}}, ""};
    http_reply page = text_reply(200, shell, "text/html; charset=utf-8");
    page.headers.emplace_back("ETag", "\"v1\"");
    return page;
  });
  temp_dir t;
  set_expectations expect;
  expect.base_url = server.url("/");
  std::vector<std::string> args = crawl_args(server);
  args.insert(args.end(), {"--render", "--state", t / "state.db"});
  const generate_run first = generate_and_check(t / "out", args, {}, expect);
  ASSERT_EQ(first.run.exit_code, 0) << first.run.err;
  ASSERT_EQ(all_locs(first.set).size(), 5u);
  const std::size_t scripts = server.count("/static/app.js");
  const generate_run again = generate_and_check(t / "out", args, {}, expect);
  ASSERT_EQ(again.run.exit_code, 0) << again.run.err;
  EXPECT_EQ(all_locs(again.set), all_locs(first.set));
  EXPECT_EQ(skips(again.report), skips(first.report));
  EXPECT_EQ(server.count("/static/app.js"), scripts);
}

TEST(RenderCli, APlainCrawlOfTheSameSiteListsOnePage) {
  http_server server;
  serve_app(server);
  temp_dir t;
  set_expectations expect;
  expect.base_url = server.url("/");
  const generate_run g =
      generate_and_check(t / "out", crawl_args(server), {}, expect);
  EXPECT_THAT(all_locs(g.set), ElementsAre(server.url("/")));
  EXPECT_EQ(server.count("/static/app.js"), 0u);
}

TEST(RenderCli, AMissingBrowserIsAClearError) {
  http_server server;
  serve_app(server);
  temp_dir t;
  const char* saved = std::getenv("SITEMILL_CHROMIUM");
  const std::string saved_value = saved ? saved : "";
  ::setenv("SITEMILL_CHROMIUM", "/nonexistent/chromium", 1);
  std::vector<std::string> args = crawl_args(server);
  args.insert(args.end(), {"--render", "--out", t / "out"});
  args.insert(args.begin(), "generate");
  const run_result r = run_sitemill(args);
  if (saved) {
    ::setenv("SITEMILL_CHROMIUM", saved_value.c_str(), 1);
  } else {
    ::unsetenv("SITEMILL_CHROMIUM");
  }
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("no browser at `/nonexistent/chromium`"));
}

// The browser sitemill `owner` started: the process whose parent it is and
// whose command line has --remote-debugging-pipe; 0 when none (yet).
pid_t browser_of(pid_t owner) {
  pid_t found = 0;
  DIR* proc = ::opendir("/proc");
  while (dirent* e = ::readdir(proc)) {
    const long pid = std::strtol(e->d_name, nullptr, 10);
    if (pid <= 0) continue;
    std::ifstream stat_file("/proc/" + std::string(e->d_name) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(stat_file)), {});
    const std::size_t close = stat.rfind(')');
    long ppid = 0;
    char state = 0;
    if (close == std::string::npos ||
        std::sscanf(stat.c_str() + close + 1, " %c %ld", &state, &ppid) != 2 ||
        ppid != owner)
      continue;
    std::ifstream cmd_file("/proc/" + std::string(e->d_name) + "/cmdline");
    std::string cmdline((std::istreambuf_iterator<char>(cmd_file)), {});
    if (cmdline.find("--remote-debugging-pipe") != std::string::npos)
      found = static_cast<pid_t>(pid);
  }
  ::closedir(proc);
  return found;
}

// Processes of the group `leader` led, zombies aside.
int group_members(pid_t leader) {
  int count = 0;
  DIR* proc = ::opendir("/proc");
  while (dirent* e = ::readdir(proc)) {
    if (std::strtol(e->d_name, nullptr, 10) <= 0) continue;
    std::ifstream stat_file("/proc/" + std::string(e->d_name) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(stat_file)), {});
    const std::size_t close = stat.rfind(')');
    char state = 0;
    long ppid = 0, pgrp = 0;
    if (close != std::string::npos &&
        std::sscanf(stat.c_str() + close + 1, " %c %ld %ld", &state, &ppid,
                    &pgrp) == 3 &&
        state != 'Z' && pgrp == leader)
      ++count;
  }
  ::closedir(proc);
  return count;
}

// The browser killed while it holds pages (the first answer of the JSON
// waits 5 s, the crawl's fetcher meanwhile waiting for it): a new one is
// started, the pages it held are rendered again, and the set is the whole
// one.
TEST(RenderCli, ABrowserThatDiesIsStartedAgainAndItsPagesRenderedAnew) {
  http_server server;
  serve_app(server);
  http_reply slow = text_reply(
      200,
      R"(["/", "/about", "/products", "/products/1", "/products/2", "/secret", "/dup"])",
      "application/json");
  http_reply fast = slow;
  slow.delay = std::chrono::seconds(5);
  server.route("/api/nav.json", std::vector<http_reply>{slow, fast});
  temp_dir t;
  std::vector<std::string> args = crawl_args(server);
  args.insert(args.end(), {"--render", "--out", t / "out"});
  args.insert(args.begin(), "generate");
  background_process sitemill(args);
  pid_t browser = 0;
  ASSERT_TRUE(eventually([&] { return server.count("/api/nav.json") > 0; },
                         std::chrono::seconds(60)));
  ASSERT_TRUE(
      eventually([&] { return (browser = browser_of(sitemill.pid())) != 0; }));
  ASSERT_EQ(::kill(browser, SIGKILL), 0);
  const run_result r = sitemill.wait();
  ASSERT_EQ(r.exit_code, 0);
  const std::vector<std::string> entries =
      split_lines(read_file(t / "out/sitemap.xml"));
  for (const char* path :
       {"/", "/about", "/products", "/products/1", "/products/2"}) {
    EXPECT_EQ(std::count_if(entries.begin(), entries.end(),
                            [&](const std::string& line) {
                              return line.find("<loc>" + server.url(path) +
                                               "</loc>") != std::string::npos;
                            }),
              1)
        << path;
  }
  EXPECT_GE(server.count("/api/nav.json"), 2u);
}

void kill_while_rendering(int sig) {
  http_server server;
  serve_app(server, std::chrono::seconds(600));  // the pages never settle
  temp_dir t;
  std::vector<std::string> args = crawl_args(server);
  args.insert(args.end(), {"--render", "--out", t / "out"});
  args.insert(args.begin(), "generate");
  background_process sitemill(args);
  pid_t browser = 0;
  ASSERT_TRUE(
      eventually([&] { return (browser = browser_of(sitemill.pid())) != 0; },
                 std::chrono::seconds(60)));
  ASSERT_TRUE(eventually([&] { return server.count("/api/nav.json") > 0; },
                         std::chrono::seconds(60)));
  EXPECT_GT(group_members(browser), 0);
  const run_result r = sitemill.kill_and_wait(sig);
  if (sig == SIGTERM) {
    EXPECT_EQ(r.exit_code, 130) << r.err;
  }
  EXPECT_TRUE(eventually([&] { return group_members(browser) == 0; },
                         std::chrono::seconds(20)))
      << group_members(browser) << " processes of the browser are left";
  EXPECT_FALSE(std::filesystem::exists(t / "out/sitemap.xml"));
  // What SIGKILL leaves: the browser's scratch directory, naming its owner
  // (the next browser started would remove it; the test does).
  const char* tmp = std::getenv("TMPDIR");
  std::size_t left = 0;
  for (const auto& e : std::filesystem::directory_iterator(
           tmp != nullptr && *tmp != '\0' ? tmp : "/tmp")) {
    if (e.path().filename().string().rfind("sitemill-chromium-", 0) != 0)
      continue;
    std::ifstream owner(e.path() / "owner");
    long pid = 0;
    if (owner >> pid && pid == sitemill.pid()) {
      ++left;
      std::filesystem::remove_all(e.path());
    }
  }
  EXPECT_EQ(left, sig == SIGKILL ? 1u : 0u);
}

TEST(RenderCli, NothingOfTheBrowserIsLeftAfterSigterm) {
  kill_while_rendering(SIGTERM);
}

TEST(RenderCli, NothingOfTheBrowserIsLeftAfterSigkill) {
  kill_while_rendering(SIGKILL);
}

}  // namespace
}  // namespace sitemill::testing

namespace sitemill::testing {
namespace {

// Behind a login the page's own requests need the crawl's credentials too:
// the app's JSON answers 403 without the member's cookie. The browser's
// requests go through the crawl's fetcher, which adds them for the crawled
// origin alone.
TEST(RenderCli, ThePagesOwnRequestsCarryTheCrawlsCredentials) {
  http_server server;
  serve_app(server);
  const http_reply nav = text_reply(
      200, R"(["/", "/about", "/products"])", "application/json");
  server.route("/api/nav.json", [nav](const recorded_request& r) {
    if (r.header("Cookie").value_or("").find("member=1") == std::string::npos)
      return text_reply(403, "members only");
    return nav;
  });
  temp_dir t;
  set_expectations expect;
  expect.base_url = server.url("/");
  std::vector<std::string> args = crawl_args(server);
  args.insert(args.end(), {"--render", "--cookie", "member=1"});
  const generate_run in = generate_and_check(t / "out", args, {}, expect);
  ASSERT_EQ(in.run.exit_code, 0) << in.run.err;
  EXPECT_THAT(all_locs(in.set), ElementsAre(server.url("/"),
                                            server.url("/about"),
                                            server.url("/products")));
  EXPECT_EQ(in.run.err.find("member=1"), std::string::npos);

  temp_dir t2;
  std::vector<std::string> shut = crawl_args(server);
  shut.push_back("--render");
  const generate_run out = generate_and_check(t2 / "out", shut, {}, expect);
  ASSERT_EQ(out.run.exit_code, 0) << out.run.err;
  EXPECT_THAT(all_locs(out.set), ElementsAre(server.url("/")));
}

}  // namespace
}  // namespace sitemill::testing
