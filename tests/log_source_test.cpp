// The access log source: the line parser (Apache's combined, common and
// vhost_combined formats, the LogFormat strings of httpd's default config;
// nginx's combined is the same), each filter, the popularity rule, and the
// source's records and notes.
#include "sitemill/source/log_source.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "source/log_line.h"
#include "support/run.h"

namespace sitemill {
namespace {

using detail::judge_request;
using detail::log_line;
using detail::log_scope;
using detail::log_verdict;
using detail::parse_log_line;
using testing::temp_dir;
using testing::write_file;

constexpr std::string_view apache_example =
    R"log(127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326 "http://www.example.com/start.html" "Mozilla/4.08 [en] (Win98; I ;Nav)")log";

TEST(LogLine, ReadsTheCombinedFormat) {
  log_line l;
  ASSERT_EQ(parse_log_line(apache_example, l), "");
  EXPECT_EQ(l.vhost, "");
  EXPECT_EQ(l.method, "GET");
  EXPECT_EQ(l.target, "/apache_pb.gif");
  EXPECT_EQ(l.status, 200);
  EXPECT_TRUE(l.has_agent);
  EXPECT_EQ(l.user_agent, "Mozilla/4.08 [en] (Win98; I ;Nav)");
}

TEST(LogLine, ReadsTheCommonFormatWithoutAnAgent) {
  log_line l;
  ASSERT_EQ(
      parse_log_line(
          R"log(::1 - - [10/Oct/2000:13:55:36 -0700] "HEAD /a/b?x=1 HTTP/1.1" 304 -)log",
          l),
      "");
  EXPECT_EQ(l.method, "HEAD");
  EXPECT_EQ(l.target, "/a/b?x=1");
  EXPECT_EQ(l.status, 304);
  EXPECT_FALSE(l.has_agent);
  EXPECT_EQ(l.user_agent, "");
}

TEST(LogLine, ReadsVhostCombinedsLeadingHostAndPort) {
  log_line l;
  ASSERT_EQ(
      parse_log_line(
          R"log(www.example.com:443 10.0.0.1 - - [01/Jan/2024:00:00:00 +0000] "GET / HTTP/2.0" 200 512 "-" "Mozilla/5.0")log",
          l),
      "");
  EXPECT_EQ(l.vhost, "www.example.com:443");
  EXPECT_EQ(l.target, "/");
  EXPECT_EQ(l.user_agent, "Mozilla/5.0");
}

TEST(LogLine, QuotedFieldsKeepTheirEscapedQuotes) {
  log_line l;
  ASSERT_EQ(
      parse_log_line(
          R"log(1.2.3.4 - - [t] "GET /a\"b HTTP/1.1" 200 1 "x\\" "Agent \"quoted\" bot")log",
          l),
      "");
  EXPECT_EQ(l.target, R"log(/a\"b)log");
  EXPECT_EQ(l.user_agent, R"log(Agent \"quoted\" bot)log");
}

TEST(LogLine, TakesNginxsExtraFieldsAndOddRequests) {
  log_line l;
  ASSERT_EQ(
      parse_log_line(
          R"log(1.2.3.4 - - [t] "GET /p HTTP/1.1" 200 1 "-" "-" "203.0.113.9" 0.012)log",
          l),
      "");
  EXPECT_EQ(l.target, "/p");
  EXPECT_TRUE(l.has_agent);
  EXPECT_EQ(l.user_agent, "") << "\"-\" is no agent";
  // A request field that is no request is still a log line, of no page.
  ASSERT_EQ(parse_log_line(R"log(1.2.3.4 - - [t] "-" 408 0 "-" "-")log", l),
            "");
  EXPECT_EQ(l.method, "");
  EXPECT_EQ(l.status, 408);
  ASSERT_EQ(parse_log_line(R"log(1.2.3.4 - - [t] "\x16\x03\x01" 400 0)log", l),
            "");
  EXPECT_EQ(l.target, "");
  ASSERT_EQ(parse_log_line(R"log(1.2.3.4 - - [t] "GET /old" 200 0)log", l), "");
  EXPECT_EQ(l.target, "/old") << "HTTP/0.9 names no protocol";
}

TEST(LogLine, RefusesWhatIsNoLogLineAndSaysWhy) {
  struct bad {
    std::string_view line, why;
  };
  const bad cases[] = {
      {"", "no [time] field"},
      {"hello world", "no [time] field"},
      {"[t] \"GET / HTTP/1.1\" 200 1",
       "too few fields before the [time] field"},
      {"a b [t] \"GET / HTTP/1.1\" 200 1",
       "too few fields before the [time] field"},
      {"a b c d e [t] \"GET / HTTP/1.1\" 200 1",
       "too many fields before the [time] field"},
      {"a  b c [t] \"GET / HTTP/1.1\" 200 1",
       "an empty field before the [time] field"},
      {"a b c [] \"GET / HTTP/1.1\" 200 1", "no [time] field"},
      {"a b c [t \"GET / HTTP/1.1\" 200 1", "no [time] field"},
      {"a b c [t] GET / HTTP/1.1 200 1", "no quoted request after the time"},
      {"a b c [t] \"GET / HTTP/1.1 200 1", "the request's quote is not closed"},
      {"a b c [t] \"GET /\\\" 200 1", "the request's quote is not closed"},
      {"a b c [t] \"GET /\" 2x0 1", "no three-digit status after the request"},
      {"a b c [t] \"GET /\" 2000 1", "no three-digit status after the request"},
      {"a b c [t] \"GET /\" 200", "no size after the status"},
      {"a b c [t] \"GET /\" 099 1", "a status out of range"},
      {"a b c [t] \"GET /\" 200 12k", "a size that is not a number or -"},
      {"a b c [t] \"GET /\" 200 1 \"-\"", "a referer without a user agent"},
      {"a b c [t] \"GET /\" 200 1 \"-", "the referer's quote is not closed"},
      {"a b c [t] \"GET /\" 200 1 \"-\" \"Mozilla",
       "the user agent's quote is not closed"},
  };
  for (const bad& c : cases) {
    log_line l;
    EXPECT_EQ(parse_log_line(c.line, l), c.why) << c.line;
  }
}

// A log line of `method target status agent`, combined format.
log_line line_of(std::string_view method, std::string_view target, int status,
                 std::string_view agent = "Mozilla/5.0 (X11; Linux x86_64)",
                 std::string_view vhost = "") {
  log_line l;
  l.method = method;
  l.target = target;
  l.status = status;
  l.has_agent = true;
  l.user_agent = agent;
  l.vhost = vhost;
  return l;
}

TEST(LogFilters, EachReasonLeavesOutWhatItNames) {
  const log_scope scope{"www.example.com", "/", false};
  struct judged {
    log_line line;
    log_verdict verdict;
  };
  const judged cases[] = {
      {line_of("GET", "/about/", 200), log_verdict::page},
      {line_of("HEAD", "/about/", 200), log_verdict::page},
      {line_of("GET", "/about/", 204), log_verdict::page},
      {line_of("GET", "/about/", 299), log_verdict::page},
      {line_of("GET", "/about/", 304), log_verdict::page},
      {line_of("POST", "/form", 200), log_verdict::method},
      {line_of("OPTIONS", "*", 200), log_verdict::method},
      {line_of("GET", "http://evil.example/", 200), log_verdict::method},
      {line_of("", "", 400), log_verdict::method},
      {line_of("GET", "/missing", 404), log_verdict::status},
      {line_of("GET", "/moved", 301), log_verdict::status},
      {line_of("GET", "/boom", 500), log_verdict::status},
      {line_of("GET", "/", 200, "Mozilla/5.0", "other.example.com:443"),
       log_verdict::host},
      {line_of("GET", "/", 200, "Mozilla/5.0", "WWW.Example.com:80"),
       log_verdict::page},
      {line_of("GET", "/", 200, "Mozilla/5.0", "www.example.com"),
       log_verdict::page},
      {line_of("GET", "/", 200, "Googlebot/2.1"), log_verdict::bot},
      {line_of("GET", "/", 200, ""), log_verdict::bot},
      {line_of("GET", "/site.CSS", 200), log_verdict::asset},
      {line_of("GET", "/search?q=a", 200), log_verdict::query},
      {line_of("GET", "/?", 200), log_verdict::query},
      {line_of("GET", "/img/a.png?v=2", 200), log_verdict::asset},
  };
  for (const judged& c : cases)
    EXPECT_EQ(judge_request(c.line, scope), c.verdict)
        << c.line.method << " " << c.line.target << " " << c.line.status << " "
        << c.line.user_agent << " " << c.line.vhost;
}

TEST(LogFilters, TheFirstReasonThatAppliesIsTheOneCounted) {
  const log_scope scope{"www.example.com", "/", false};
  EXPECT_EQ(judge_request(line_of("POST", "/a.css?x", 404, "bot"), scope),
            log_verdict::method);
  EXPECT_EQ(judge_request(line_of("GET", "/a.css?x", 404, "bot"), scope),
            log_verdict::status);
  EXPECT_EQ(judge_request(line_of("GET", "/a.css?x", 200, "bot"), scope),
            log_verdict::bot);
  EXPECT_EQ(judge_request(line_of("GET", "/a.css?x", 200), scope),
            log_verdict::asset);
}

TEST(LogFilters, KeepQueryListsQueriesAndTheBaseDirectoryBounds) {
  const log_scope keep{"www.example.com", "/", true};
  EXPECT_EQ(judge_request(line_of("GET", "/search?q=a", 200), keep),
            log_verdict::page);
  const log_scope blog{"www.example.com", "/blog/", false};
  EXPECT_EQ(judge_request(line_of("GET", "/blog/post", 200), blog),
            log_verdict::page);
  EXPECT_EQ(judge_request(line_of("GET", "/blog", 200), blog),
            log_verdict::outside);
  EXPECT_EQ(judge_request(line_of("GET", "/about", 200), blog),
            log_verdict::outside);
}

TEST(LogFilters, CommonFormatLinesHaveNoAgentToJudge) {
  log_line l = line_of("GET", "/", 200, "");
  l.has_agent = false;
  EXPECT_EQ(judge_request(l, {"www.example.com", "/", false}),
            log_verdict::page);
}

TEST(LogFilters, BotAgentsAreFoundByTheirWordsIgnoringCase) {
  for (std::string_view bot : {"Mozilla/5.0 (compatible; Googlebot/2.1; "
                               "+http://www.google.com/bot.html)",
                               "Mozilla/5.0 (compatible; bingbot/2.0)",
                               "Baiduspider",
                               "YandexBot/3.0",
                               "Mozilla/5.0 (compatible; Yahoo! Slurp)",
                               "curl/8.5.0",
                               "Wget/1.21.4",
                               "python-requests/2.31.0",
                               "Python-urllib/3.11",
                               "Go-http-client/2.0",
                               "Java/17.0.2",
                               "libwww-perl/6.72",
                               "Scrapy/2.11",
                               "Apache-HttpClient/4.5.14",
                               "Mozilla/5.0 HeadlessChrome/120.0",
                               "Chrome-Lighthouse",
                               "axios/1.6.7",
                               "node-fetch/1.0",
                               "facebookexternalhit/1.1",
                               "AhrefsBot/7.0",
                               "SemrushBot",
                               "CCBot/2.0",
                               "Mozilla/5.0 (compatible; MJ12bot)",
                               "Some Web Crawler",
                               ""})
    EXPECT_TRUE(detail::is_bot_agent(bot)) << bot;
  for (std::string_view person :
       {"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, "
        "like Gecko) Chrome/120.0.0.0 Safari/537.36",
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) "
        "AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 "
        "Safari/604.1",
        "Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 "
        "Firefox/121.0"})
    EXPECT_FALSE(detail::is_bot_agent(person)) << person;
}

TEST(LogFilters, AssetsAreKnownByTheLastSegmentsExtension) {
  for (std::string_view asset :
       {"/s.css",      "/app.js",   "/m.mjs",           "/app.js.map",
        "/x.json",     "/a.PNG",    "/p/photo.jpeg",    "/i.webp",
        "/i.avif",     "/i.svg",    "/favicon.ico",     "/f.woff2",
        "/f.ttf",      "/v.mp4",    "/a.mp3",           "/d.zip",
        "/d.tar.gz",   "/feed.xml", "/sitemap.xml",     "/feed.rss",
        "/robots.txt", "/x.wasm",   "/site.webmanifest"})
    EXPECT_TRUE(detail::is_asset_path(asset)) << asset;
  for (std::string_view page :
       {"/", "/about", "/about/", "/a.html", "/a.htm", "/a.php", "/doc.pdf",
        "/v1.2/notes", "/css/", "/.well-known/x", "/js"})
    EXPECT_FALSE(detail::is_asset_path(page)) << page;
}

TEST(LogPopularity, TheMostRequestedPageGetsOneAndTheRuleIsLogarithmic) {
  struct rule {
    std::uint64_t count, max;
    int tenths;
  };
  const rule cases[] = {
      {1, 1, 10},
      {7, 7, 10},
      {100, 100, 10},
      {1, 2, 7},     // 0.1 + 0.9 * ln 2 / ln 3 = 0.668
      {1, 100, 2},   // 0.1 + 0.9 * ln 2 / ln 101 = 0.235
      {10, 100, 6},  // 0.1 + 0.9 * ln 11 / ln 101 = 0.568
      {50, 100, 9},  // 0.1 + 0.9 * ln 51 / ln 101 = 0.866
      {1, 1'000'000'000, 1},
  };
  for (const rule& r : cases)
    EXPECT_EQ(popularity_priority(r.count, r.max), r.tenths)
        << r.count << " of " << r.max;
}

// The records and notes of a log source over `logs`.
struct read_back {
  std::vector<input_record> records;  // views cleared: see locs etc.
  std::vector<std::string> locs, priorities, problems, sources;
  std::vector<std::uint64_t> lines;
  std::vector<std::string> notes;
  std::string error;
};

read_back read_logs(const log_source_options& o,
                    std::string_view base = "https://www.example.com/") {
  read_back out;
  auto source = log_source(o);
  source_context context;
  context.base_url = base;
  if (status s = source->validate(context); !s) {
    out.error = s.message();
    return out;
  }
  auto reader = source->open(context);
  if (!reader) {
    out.error = reader.err().message;
    return out;
  }
  input_record r;
  while ((*reader)->next(r)) {
    out.lines.push_back(r.line);
    out.sources.emplace_back(r.source);
    if (!r.problem.empty()) {
      out.problems.emplace_back(r.problem);
      continue;
    }
    out.locs.emplace_back(r.loc);
    out.priorities.emplace_back(r.priority);
  }
  out.error = (*reader)->error();
  for (const auto& n : (*reader)->notes()) out.notes.push_back(n.message);
  return out;
}

std::string request(std::string_view target, int status = 200,
                    std::string_view agent = "Mozilla/5.0") {
  return "10.0.0.1 - - [01/Jan/2024:00:00:00 +0000] \"GET " +
         std::string(target) + " HTTP/1.1\" " + std::to_string(status) +
         " 100 \"-\" \"" + std::string(agent) + "\"\n";
}

TEST(LogSource, ListsEachPageOnceAtTheBaseOriginAndCountsWhatItLeftOut) {
  temp_dir t;
  write_file(t / "access.log", request("/") + request("/a") + request("/a") +
                                   "garbage\n" + request("/b.css") +
                                   request("/c", 404) +
                                   request("/d", 200, "curl/8") +
                                   request("/a?x=1") + "\n" + request("/e"));
  log_source_options o;
  o.paths = {t / "access.log"};
  const read_back r = read_logs(o, "https://www.example.com/");
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.locs, (std::vector<std::string>{"https://www.example.com/",
                                              "https://www.example.com/a",
                                              "https://www.example.com/e"}));
  EXPECT_EQ(r.priorities, (std::vector<std::string>{"", "", ""}));
  EXPECT_EQ(r.lines, (std::vector<std::uint64_t>{1, 2, 4, 10}));
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0],
            "not an access log line in the combined, common or "
            "vhost_combined format: no [time] field: \"garbage\"");
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes[0],
            "9 lines; pages listed: 3 (from 4 requests); not log lines: 1; "
            "left out: 1 answered other than 2xx or 304, 1 by bots, 1 of "
            "assets, 1 with a query string (see `keep_query`)");
  EXPECT_EQ(r.sources[0], "") << "the source's name is the log's";
}

TEST(LogSource, SeveralLogsListAPageOnceAndEachGetsItsNote) {
  temp_dir t;
  write_file(t / "1.log", request("/a") + request("/b"));
  write_file(t / "2.log.gz", testing::gzip(request("/b") + request("/c") +
                                           request("/gone", 410)));
  log_source_options o;
  o.paths = {t / "1.log", t / "2.log.gz"};
  EXPECT_EQ(log_source(o)->name(), t / "1.log" + " and 1 more access logs");
  const read_back r = read_logs(o);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.locs, (std::vector<std::string>{"https://www.example.com/a",
                                              "https://www.example.com/b",
                                              "https://www.example.com/c"}));
  EXPECT_EQ(r.sources, (std::vector<std::string>{t / "1.log", t / "1.log",
                                                 t / "2.log.gz"}));
  // 1.log left nothing out: it needs no note.
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes[0], t / "2.log.gz" +
                            ": 3 lines; pages listed: 1 (from 2 requests); "
                            "left out: 1 answered other than 2xx or 304");
}

TEST(LogSource, PopularityCountsOverEveryLogBeforeTheFirstRecord) {
  temp_dir t;
  std::string one, two;
  for (int i = 0; i < 60; ++i) one += request("/top");
  for (int i = 0; i < 40; ++i) two += request("/top");
  for (int i = 0; i < 10; ++i) two += request("/mid");
  two += request("/rare") + request("/rare?utm=x") + request("/x.js");
  write_file(t / "1.log", one + request("/rare"));
  write_file(t / "2.log", two);
  log_source_options o;
  o.paths = {t / "1.log", t / "2.log"};
  o.priority_from_popularity = true;
  const read_back r = read_logs(o);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.locs, (std::vector<std::string>{"https://www.example.com/top",
                                              "https://www.example.com/rare",
                                              "https://www.example.com/mid"}));
  // top: 100 of 100; rare: 2 (the query is left out) -> 0.1 + 0.9 * ln 3 /
  // ln 101 = 0.314; mid: 10 -> 0.568.
  EXPECT_EQ(r.priorities, (std::vector<std::string>{"1.0", "0.3", "0.6"}));
}

TEST(LogSource, PopularityListsOnlyWhatTheCountingPassRead) {
  temp_dir t;
  write_file(t / "1.log", request("/a"));
  write_file(t / "2.log", request("/b"));
  log_source_options o;
  o.paths = {t / "1.log", t / "2.log"};
  o.priority_from_popularity = true;
  auto source = log_source(o);
  source_context context;
  context.base_url = "https://www.example.com/";
  auto reader = source->open(context);
  ASSERT_TRUE(reader);
  input_record r;
  ASSERT_TRUE((*reader)->next(r));  // the counting pass is over
  EXPECT_EQ(r.loc, "https://www.example.com/a");
  // The server writes on meanwhile: the new lines were not counted.
  write_file(t / "2.log", request("/b") + request("/late") + "garbage\n");
  std::vector<std::string> rest;
  while ((*reader)->next(r))
    rest.push_back(std::string(r.loc) + "|" + std::string(r.priority) + "|" +
                   std::string(r.problem));
  EXPECT_EQ((*reader)->error(), "");
  EXPECT_EQ(rest, std::vector<std::string>{"https://www.example.com/b|1.0|"});
}

TEST(LogSource, ALineOverTheCapIsReportedAndReadingGoesOn) {
  temp_dir t;
  write_file(t / "a.log", request("/" + std::string((1 << 20) + 10, 'x')) +
                              request("/after"));
  log_source_options o;
  o.paths = {t / "a.log"};
  const read_back r = read_logs(o);
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.problems,
            std::vector<std::string>{"not an access log line in the combined, "
                                     "common or vhost_combined format: line "
                                     "longer than 1 MiB"});
  EXPECT_EQ(r.locs, std::vector<std::string>{"https://www.example.com/after"});
  EXPECT_EQ(r.lines, (std::vector<std::uint64_t>{1, 2}));
}

TEST(LogSource, KeepQueryListsEachQueryAsItsOwnUrl) {
  temp_dir t;
  write_file(t / "a.log", request("/s?q=a") + request("/s?q=b") +
                              request("/s?q=a") + request("/s"));
  log_source_options o;
  o.paths = {t / "a.log"};
  o.keep_query = true;
  const read_back r = read_logs(o);
  EXPECT_EQ(r.locs, (std::vector<std::string>{"https://www.example.com/s?q=a",
                                              "https://www.example.com/s?q=b",
                                              "https://www.example.com/s"}));
}

TEST(LogSource, ABaseBelowTheRootListsOnlyPagesUnderIt) {
  temp_dir t;
  write_file(t / "a.log", request("/blog/p") + request("/about"));
  log_source_options o;
  o.paths = {t / "a.log"};
  const read_back r = read_logs(o, "https://www.example.com:8443/blog/");
  EXPECT_EQ(r.locs,
            (std::vector<std::string>{"https://www.example.com:8443/blog/p"}));
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("1 outside the base URL's directory"),
            std::string::npos)
      << r.notes[0];
}

TEST(LogSource, ValidateRefusesStdinForPopularityAndUnreadableLogs) {
  temp_dir t;
  log_source_options o;
  EXPECT_NE(read_logs(o).error, "");
  o.paths = {"-"};
  o.priority_from_popularity = true;
  EXPECT_EQ(read_logs(o).error,
            "`priority_from_popularity` reads the logs twice, and stdin (-) "
            "can be read once: name the log files");
  o.paths = {"-", "-"};
  o.priority_from_popularity = false;
  EXPECT_EQ(read_logs(o).error, "stdin (-) can be read once");
  o.paths = {t / "missing.log"};
  EXPECT_EQ(read_logs(o).error, "cannot read access log " + t / "missing.log" +
                                    ": No such file or directory");
}

}  // namespace
}  // namespace sitemill
