// The crawl test site (tests/support/crawl_site.h) against itself: a
// reference crawl over real HTTP must read from the server's bytes exactly
// the facts the model holds, and so reach the answer expected_urls() gives;
// and that answer must be the one the rules give by hand (counts a wrong
// rule would change).
#include "support/crawl_site.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <regex>
#include <thread>

#include "sitemill/date/dates.h"
#include "sitemill/html/html_page.h"

namespace sitemill::testing {
namespace {

struct raw_response {
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::string header(std::string_view name) const {
    for (const auto& [n, v] : headers) {
      if (n.size() == name.size() &&
          std::equal(n.begin(), n.end(), name.begin(), [](char a, char b) {
            return std::tolower(static_cast<unsigned char>(a)) ==
                   std::tolower(static_cast<unsigned char>(b));
          }))
        return v;
    }
    return "";
  }
};

// One GET over a fresh connection, nothing followed or retried. Not
// http_client: the rules need a redirect's Location and the X-Robots-Tag and
// Last-Modified headers, which http_response does not carry.
raw_response raw_get(std::uint16_t port, const std::string& target) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(port);
  if (fd < 0 ||
      ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
    throw std::runtime_error("raw_get: cannot connect");
  const std::string request =
      "GET " + target + " HTTP/1.1\r\nHost: localhost:" + std::to_string(port) +
      "\r\nUser-Agent: sitemill-test\r\n"
      "Connection: close\r\n\r\n";
  (void)::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  std::string all;
  char buf[64 * 1024];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;)
    all.append(buf, static_cast<std::size_t>(n));
  ::close(fd);

  raw_response r;
  const std::size_t head_end = all.find("\r\n\r\n");
  if (head_end == std::string::npos)
    throw std::runtime_error("raw_get: no head");
  std::size_t eol = all.find("\r\n");
  r.status = std::stoi(all.substr(9, 3));
  while (eol < head_end) {
    const std::size_t start = eol + 2;
    eol = all.find("\r\n", start);
    const std::string line = all.substr(start, eol - start);
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(' '));
    r.headers.emplace_back(line.substr(0, colon), value);
  }
  std::string body = all.substr(head_end + 4);
  if (r.header("Transfer-Encoding") == "chunked") {
    std::size_t at = 0;
    for (;;) {
      const std::size_t line_end = body.find("\r\n", at);
      const std::size_t size =
          std::stoul(body.substr(at, line_end - at), nullptr, 16);
      if (size == 0) break;
      r.body.append(body, line_end + 2, size);
      at = line_end + 2 + size + 2;
    }
  } else {
    r.body = std::move(body);
  }
  return r;
}

std::string html_unescape(std::string s) {
  static const std::pair<std::string_view, std::string_view> kEntities[] = {
      {"&quot;", "\""}, {"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}};
  for (const auto& [from, to] : kEntities) {
    for (std::size_t a; (a = s.find(from)) != std::string::npos;)
      s.replace(a, from.size(), to);
  }
  return s;
}

bool has_word(std::string_view list, std::string_view word) {
  std::string lowered(list);
  for (char& c : lowered)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (char& c : lowered)
    if (c == ',') c = ' ';
  std::size_t at = 0;
  while (at < lowered.size()) {
    const std::size_t end = std::min(lowered.find(' ', at), lowered.size());
    if (lowered.substr(at, end - at) == word) return true;
    at = end + 1;
  }
  return false;
}

// The reference crawler's reading of one URL from the server: retries 429
// and 503 (after Retry-After, else a moment), then reads the facts from the
// bytes: robots meta, canonical and base through sitemill's HTML scanner,
// <a> elements in the form the site writes them, headers as sent.
crawl_fetch http_fetch(const crawl_site& site, std::uint16_t port,
                       const std::string& url) {
  normalized_url n;
  if (normalize_url(url, n) != url_problem::ok)
    throw std::runtime_error("http_fetch: bad URL " + url);
  raw_response r;
  for (int attempt = 0;; ++attempt) {
    r = raw_get(port, std::string(n.path_and_query()));
    if ((r.status != 429 && r.status != 503) || attempt == 3) break;
    const std::string after = r.header("Retry-After");
    std::this_thread::sleep_for(after.empty()
                                    ? std::chrono::milliseconds(50)
                                    : std::chrono::seconds(std::stoi(after)));
  }
  crawl_fetch f;
  f.status = r.status;
  f.location = r.header("Location");
  f.content_type = r.header("Content-Type");
  f.body_bytes = r.body.size();
  if (const std::string lm = r.header("Last-Modified"); !lm.empty()) {
    parsed_date d;
    if (parse_http_date(lm, 2024, d) == date_problem::ok)
      f.last_modified = to_time_point(d.value);
  }
  if (!f.location.empty()) return f;
  if (!is_html_type(f.content_type)) {
    f.text = r.body;
    return f;
  }
  const html_facts facts = scan_html(r.body);
  const std::string robots_header = r.header("X-Robots-Tag");
  static const std::regex kMeta(
      R"re(<meta name="robots" content="([^"]*)">)re");
  std::smatch meta;
  const bool has_meta = std::regex_search(r.body, meta, kMeta);
  f.noindex = facts.noindex || has_word(robots_header, "noindex") ||
              has_word(robots_header, "none");
  f.nofollow = (has_meta && (has_word(meta[1].str(), "nofollow") ||
                             has_word(meta[1].str(), "none"))) ||
               has_word(robots_header, "nofollow") ||
               has_word(robots_header, "none");
  f.canonical = facts.has_canonical ? facts.canonical : "";
  f.base = facts.has_base ? facts.base : "";
  static const std::regex kLink(R"re(<a href="([^"]*)"(?: rel="([^"]*)")?>)re");
  for (auto it = std::sregex_iterator(r.body.begin(), r.body.end(), kLink);
       it != std::sregex_iterator(); ++it) {
    f.links.push_back(
        {html_unescape((*it)[1].str()), has_word((*it)[2].str(), "nofollow")});
  }
  (void)site;
  return f;
}

// A crawl by the rules over HTTP; every answer is also compared with the
// model's, so a difference names its URL.
crawl_result crawl_over_http(crawl_site& site, const crawl_expectations& x) {
  const std::uint16_t port = site.server().port();
  return site.crawl_with(x, [&](const std::string& url) {
    crawl_fetch got = http_fetch(site, port, url);
    const crawl_fetch model = site.model_fetch(url);
    EXPECT_EQ(got.status, model.status) << url;
    EXPECT_EQ(got.location, model.location) << url;
    EXPECT_EQ(got.content_type, model.content_type) << url;
    EXPECT_EQ(got.body_bytes, model.body_bytes) << url;
    EXPECT_EQ(got.noindex, model.noindex) << url;
    EXPECT_EQ(got.nofollow, model.nofollow) << url;
    EXPECT_EQ(got.canonical, model.canonical) << url;
    EXPECT_EQ(got.base, model.base) << url;
    EXPECT_EQ(got.links, model.links) << url;
    EXPECT_EQ(got.last_modified, model.last_modified) << url;
    EXPECT_EQ(got.text, model.text) << url;
    return got;
  });
}

crawl_site_options small_site() {
  crawl_site_options o;
  o.pages = 300;
  o.slow_delay = std::chrono::milliseconds(200);
  o.huge_bytes = 3 * 1024 * 1024;
  return o;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::binary_search(v.begin(), v.end(), s);
}

std::size_t count_prefix(const std::vector<std::string>& v,
                         const std::string& prefix) {
  return static_cast<std::size_t>(
      std::count_if(v.begin(), v.end(),
                    [&](const auto& s) { return s.rfind(prefix, 0) == 0; }));
}

// Pages listed besides the tree and the two traps' query variants, by hand
// from the site's description: the home page, the chain's target, busy and
// unavailable (after their retry), the two via-noindex pages, nofollow-meta,
// via-canonical, canon-self, private/open, shop, session-only, latin1 and its
// child, slow, café, base-page with its two children, upper-host.
constexpr std::size_t kListedSpecials = 20;

TEST(CrawlSite, HttpCrawlReadsTheModelAndListsTheExpectedUrls) {
  crawl_site site(small_site());
  const crawl_expectations x;  // trap cap 5, robots obeyed, 2 MiB cap
  const crawl_result http = crawl_over_http(site, x);
  EXPECT_EQ(http.listed, site.expected_urls(x));
  EXPECT_EQ(http.skipped, site.expected_skips(x));
  for (const auto& [url, when] : http.lastmod)
    EXPECT_EQ(site.expected_lastmod(url), when) << url;
  EXPECT_EQ(http.lastmod.size(), 100u);  // tree pages 0, 3, ..., 297

  // Each once-only answer was given, and retried.
  EXPECT_EQ(site.server().count("/site/busy"), 2u);
  EXPECT_EQ(site.server().count("/site/unavailable"), 2u);
}

TEST(CrawlSite, ExpectedUrlsFollowTheRulesByHand) {
  crawl_site site(small_site());
  const auto u = [&](std::string_view p) { return site.url(p); };
  const crawl_expectations x;
  const auto listed = site.expected_urls(x);
  EXPECT_EQ(listed.size(), 300 + kListedSpecials + 2 * 5);
  EXPECT_EQ(count_prefix(listed, u("/site/calendar?")), 5u);
  EXPECT_TRUE(contains(listed, u("/site/calendar?month=4")));
  EXPECT_FALSE(contains(listed, u("/site/calendar?month=5")));
  EXPECT_EQ(count_prefix(listed, u("/site/shop?")), 5u);
  for (const char* p : {"/site/",
                        "/site/r/chain-target",
                        "/site/busy",
                        "/site/unavailable",
                        "/site/via-noindex-meta",
                        "/site/via-noindex-header",
                        "/site/nofollow-meta",
                        "/site/via-canonical",
                        "/site/canon-self",
                        "/site/private/open",
                        "/site/shop",
                        "/site/session-only",
                        "/site/latin1",
                        "/site/latin1-child",
                        "/site/slow",
                        "/site/caf%C3%A9",
                        "/site/base-page",
                        "/site/deep/dir/leaf",
                        "/site/deep/up",
                        "/site/upper-host",
                        "/site/s0/p0.html",
                        "/site/s5/p5.html",
                        "/site/s7/p7.html",
                        "/site/s9/p299.html"})
    EXPECT_TRUE(contains(listed, u(p))) << p;
  for (const char* p : {"/site/r/chain",
                        "/site/r/chain2",
                        "/site/r/loop-a",
                        "/site/r/offhost",
                        "/site/offhost-target",
                        "/site/noindex-meta",
                        "/site/noindex-header",
                        "/site/via-nofollow-meta",
                        "/site/nofollow-only",
                        "/site/canon-dup",
                        "/site/private/secret",
                        "/site/private/opened",
                        "/site/s3/p3.html?print=1",
                        "/site/s1/p1.html?PHPSESSID=abc123",
                        "/site/files/notes.txt",
                        "/site/via-text",
                        "/site/via-json",
                        "/site/huge",
                        "/site/after-huge",
                        "/site/orphan",
                        "/outside/page",
                        "/site-extra/page",
                        "/site/leaf",
                        "/site/up"})
    EXPECT_FALSE(contains(listed, u(p))) << p;

  const auto skips = site.expected_skips(x);
  const std::map<std::string, std::string> some = {
      {"/site/r/chain", "redirect"},
      {"/site/r/loop-b", "redirect"},
      {"/site/r/offhost", "redirect"},
      {"/site/r/missing", "status 404"},
      {"/site/missing-page", "status 404"},
      {"/site/gone", "status 410"},
      {"/site/broken", "status 500"},
      {"/site/noindex-header", "noindex"},
      {"/site/canon-dup", "canonical"},
      {"/site/private/secret", "robots"},
      {"/site/s3/p3.html?print=1", "robots"},
      {"/site/files/photo.jpg", "not html"},
      {"/site/api/data.json", "not html"},
      {"/site/huge", "too large"},
      {"/site/calendar?month=5", "trap cap"}};
  for (const auto& [path, reason] : some) {
    const auto it = skips.find(u(path));
    ASSERT_NE(it, skips.end()) << path;
    EXPECT_EQ(it->second, reason) << path;
  }
  // Never discovered: nofollow, other hosts, outside the prefix.
  for (const char* p : {"/site/nofollow-only", "/site/via-nofollow-meta",
                        "/site/offhost-target", "/outside/page"})
    EXPECT_EQ(skips.count(u(p)), 0u) << p;
}

TEST(CrawlSite, EachOptionChangesTheAnswerByWhatItGoverns) {
  crawl_site site(small_site());
  const crawl_expectations base;
  const std::size_t n = site.expected_urls(base).size();

  crawl_expectations cap8 = base;
  cap8.max_query_variants = 8;  // three more months and three more facets
  EXPECT_EQ(site.expected_urls(cap8).size(), n + 6);

  crawl_expectations no_robots = base;
  no_robots.respect_robots = false;  // secret, opened, ?print=1
  EXPECT_EQ(site.expected_urls(no_robots).size(), n + 3);

  crawl_expectations seeds = base;
  seeds.seed_sitemaps = true;  // the orphan
  const auto seeded = site.expected_urls(seeds);
  EXPECT_EQ(seeded.size(), n + 1);
  EXPECT_TRUE(contains(seeded, site.url("/site/orphan")));

  crawl_expectations big = base;
  big.max_response_bytes = site.options().huge_bytes;  // at the cap: read
  EXPECT_EQ(site.expected_urls(big).size(), n + 2);
  big.max_response_bytes = site.options().huge_bytes - 1;
  EXPECT_EQ(site.expected_urls(big).size(), n);

  crawl_expectations depth0 = base;
  depth0.max_depth = 0;
  EXPECT_EQ(site.expected_urls(depth0),
            std::vector<std::string>{site.start_url()});
  depth0.seed_sitemaps = true;  // seeds are depth 0 too
  EXPECT_EQ(site.expected_urls(depth0).size(), 2u);

  // The first ten fetches, in the home page's order: home, p0, chain,
  // loop-a, offhost, to-missing, missing-page, gone, broken, busy.
  crawl_expectations ten = base;
  ten.max_pages = 10;
  EXPECT_EQ(
      site.expected_urls(ten),
      (std::vector<std::string>{site.url("/site/"), site.url("/site/busy"),
                                site.url("/site/s0/p0.html")}));
  EXPECT_EQ(site.expected_skips(ten).at(site.url("/site/unavailable")),
            "max pages");

  // The calendar without a cap is bounded by depth alone: month K is at
  // depth K + 1.
  crawl_expectations uncapped = base;
  uncapped.max_query_variants = crawl_unlimited;
  uncapped.max_depth = 40;
  EXPECT_EQ(
      count_prefix(site.expected_urls(uncapped), site.url("/site/calendar?")),
      40u);
  uncapped.max_depth = crawl_unlimited;
  EXPECT_THROW((void)site.expected_urls(uncapped), std::invalid_argument);
}

// The options that widen the answer over real HTTP too: the pages a correct
// crawler leaves out are served, so each trap really bites.
TEST(CrawlSite, HttpCrawlAgreesWhenEveryTrapIsOpened) {
  crawl_site site(small_site());
  crawl_expectations x;
  x.max_query_variants = 8;
  x.respect_robots = false;
  x.seed_sitemaps = true;
  x.max_response_bytes = site.options().huge_bytes;
  const crawl_result http = crawl_over_http(site, x);
  EXPECT_EQ(http.listed, site.expected_urls(x));
  EXPECT_EQ(http.listed.size(), 300 + kListedSpecials + 2 * 8 + 3 + 1 + 2);
  EXPECT_EQ(http.skipped, site.expected_skips(x));
}

// What a correct crawler never discovers is still a page a wrong one would
// list: the traps are real.
TEST(CrawlSite, PagesOnlyAWrongCrawlerReachesAreServed) {
  crawl_site site(small_site());
  const std::uint16_t port = site.server().port();
  for (const char* p : {"/site/nofollow-only", "/site/via-nofollow-meta",
                        "/site/offhost-target", "/outside/page",
                        "/site-extra/page", "/site/via-text", "/site/via-json",
                        "/site/s2/p2.html;jsessionid=0A1B2C3D",
                        "/site/caf%c3%a9", "/site/calendar?month=1000"}) {
    const raw_response r = raw_get(port, p);
    EXPECT_EQ(r.status, 200) << p;
    EXPECT_TRUE(is_html_type(r.header("Content-Type"))) << p;
  }
  EXPECT_EQ(raw_get(port, "/site/leaf").status, 404);  // base ignored
  EXPECT_EQ(raw_get(port, "/site/huge").body.size(), site.options().huge_bytes);
}

TEST(CrawlSite, CrawlUrlStripsSessionIdsAndNormalises) {
  normalized_url base;
  ASSERT_EQ(normalize_url("http://localhost:8080/site/a/page", base),
            url_problem::ok);
  const std::pair<const char*, const char*> cases[] = {
      {"x?PHPSESSID=1", "http://localhost:8080/site/a/x"},
      {"x;jsessionid=AB", "http://localhost:8080/site/a/x"},
      {"x;JSESSIONID=AB?y=1", "http://localhost:8080/site/a/x?y=1"},
      {"x?a=1&sid=2&b=3", "http://localhost:8080/site/a/x?a=1&b=3"},
      {"x?Session_Id=2&sessionid=3", "http://localhost:8080/site/a/x"},
      {"x?sidebar=1", "http://localhost:8080/site/a/x?sidebar=1"},
      {"../caf\xC3\xA9#f", "http://localhost:8080/site/caf%C3%A9"},
      {"HTTP://LOCALHOST:8080/B", "http://localhost:8080/B"},
      {"mailto:a@b.c", ""},
      {"javascript:void(0)", ""},
  };
  for (const auto& [href, want] : cases)
    EXPECT_EQ(crawl_url(href, base), want) << href;
}

}  // namespace
}  // namespace sitemill::testing
