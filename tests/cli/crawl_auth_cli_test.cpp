// `generate --from-crawl` of sites behind a consent wall or a login (issue
// 32): a members area answers its pages only to a request with the consent
// cookie, the members' header or the members' login, and the consent wall to
// any other. Crawled with --cookie, --cookie-file, --header, --user or a
// netrc, every page is listed (robots.txt and the seed sitemaps are asked
// with them too); without, only the wall. What was given goes to the crawled
// origin only (another loopback server records what it got) and shows in no
// output, report or state. And a plain crawl of a single-page app says once
// that the site looks built by scripts, where a site of HTML pages with
// analytics says nothing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "support/http_server.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::UnorderedElementsAre;

// Distinct enough that finding them anywhere means they leaked.
constexpr std::string_view cookie_value = "accepted-7f3a9c";
constexpr std::string_view header_value = "k3y-4-members-5e1d";
constexpr std::string_view password = "s3cret-pw-0b9e";
// base64("alice:s3cret-pw-0b9e"): what the Authorization header carries.
constexpr std::string_view basic_token = "YWxpY2U6czNjcmV0LXB3LTBiOWU=";

std::string html_page(std::string_view title, std::string_view body) {
  return "<!doctype html><html><head><title>" + std::string(title) +
         "</title></head><body>" + std::string(body) + "</body></html>";
}

// The members site, on one loopback server, with another server beside it
// (another origin: its own port) that robots.txt names a sitemap on and a
// page redirects to.
class members_site {
 public:
  members_site() {
    other_.route("/sitemap.xml",
                 text_reply(200, urlset({site_.url("/members/via-other")}),
                            "application/xml"));
    other_.route("/landing", text_reply(200, "elsewhere", "text/html"));
    site_.fallback([this](const recorded_request& r) { return answer(r); });
  }

  std::string start_url() const { return site_.url("/"); }
  const http_server& site() const { return site_; }
  const http_server& other() const { return other_; }

  // The pages a crawl that got in lists (with --seed-sitemaps).
  std::vector<std::string> members_pages() const {
    return {site_.url("/"), site_.url("/members/a"), site_.url("/members/b"),
            site_.url("/members/from-sitemap"),
            site_.url("/members/via-other")};
  }

 private:
  static bool let_in(const recorded_request& r) {
    const auto cookie = r.header("Cookie");
    const auto key = r.header("X-Members-Key");
    const auto login = r.header("Authorization");
    return (cookie && cookie->find("consent=" + std::string(cookie_value)) !=
                          std::string::npos) ||
           (key && *key == header_value) ||
           (login && *login == "Basic " + std::string(basic_token));
  }

  http_reply answer(const recorded_request& r) const {
    const std::string_view path = r.path();
    if (!let_in(r)) {
      // robots.txt and the sitemap are for members too; a page is the
      // wall, a form without a link.
      if (path == "/robots.txt" || path == "/sitemap.xml")
        return text_reply(401, "members only");
      return text_reply(
          200,
          html_page("Before you continue",
                    "<h1>Before you continue</h1><p>We use cookies to run "
                    "the members area.</p><form method=post action=/consent>"
                    "<button>Accept</button></form>"),
          "text/html");
    }
    if (path == "/robots.txt")
      return text_reply(200,
                        "User-agent: *\nDisallow: /members/private\n"
                        "Sitemap: " +
                            site_.url("/sitemap.xml") +
                            "\n"
                            "Sitemap: " +
                            other_.url("/sitemap.xml") + "\n");
    if (path == "/sitemap.xml")
      return text_reply(200, urlset({site_.url("/members/from-sitemap")}),
                        "application/xml");
    if (path == "/members/away")
      return redirect_reply(other_.url("/landing"), 302);
    if (path == "/")
      return text_reply(200,
                        html_page("Members",
                                  "<a href=/members/a>A</a> "
                                  "<a href=/members/b>B</a> "
                                  "<a href=/members/private>Private</a> "
                                  "<a href=/members/away>Away</a>"),
                        "text/html");
    return text_reply(
        200, html_page("Members page", "<p>For members.</p><a href=/>Home</a>"),
        "text/html");
  }

  http_server other_;  // made first: the site's answers name it
  http_server site_;
};

std::vector<std::string> crawl(const members_site& m,
                               std::vector<std::string> more) {
  std::vector<std::string> args = {"--from-crawl", m.start_url(),
                                   "--base-url",   m.start_url(),
                                   "--no-gzip",    "--seed-sitemaps"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// robots.txt and the origin's sitemap were asked; every request the other
// origin got carries no credential at all.
void expect_nothing_elsewhere(const members_site& m) {
  EXPECT_GE(m.site().count("/robots.txt"), 1u);
  EXPECT_GE(m.site().count("/sitemap.xml"), 1u);
  const auto theirs = m.other().requests();
  // The other origin's sitemap, which robots.txt names, was read: the
  // check below is of a request that was made.
  ASSERT_EQ(m.other().count("/sitemap.xml"), 1u);
  EXPECT_EQ(m.other().count("/landing"), 0u);  // out of scope: not followed
  for (const auto& r : theirs) {
    EXPECT_FALSE(r.header("Cookie")) << r.target;
    EXPECT_FALSE(r.header("X-Members-Key")) << r.target;
    EXPECT_FALSE(r.header("Authorization")) << r.target;
  }
}

// Every origin request of the run carries `header` as `value`, and nothing
// went elsewhere.
void expect_sent_only_to_the_origin(const members_site& m,
                                    std::string_view header,
                                    std::string_view value) {
  const auto mine = m.site().requests();
  ASSERT_FALSE(mine.empty());
  for (const auto& r : mine) EXPECT_EQ(r.header(header), value) << r.target;
  expect_nothing_elsewhere(m);
}

std::vector<std::string> listed(const generate_run& g) {
  return all_locs(g.set);
}

std::string skipped_reason(const generate_run& g, const std::string& url) {
  for (const auto& s : g.report.at("skipped")) {
    const std::string reason = s.at("reason");
    if (reason.starts_with(url + ": ")) return reason.substr(url.size() + 2);
  }
  return "(not skipped)";
}

set_expectations at(const members_site& m) {
  set_expectations e;
  e.base_url = m.start_url();
  return e;
}

TEST(CrawlAuthCli, WithoutCredentialsOnlyTheWallIsListed) {
  members_site m;
  temp_dir t;
  const generate_run g = generate_and_check(t / "out", crawl(m, {}), {}, at(m));
  EXPECT_THAT(listed(g), UnorderedElementsAre(m.start_url()));
  EXPECT_EQ(m.site().count("/members/a"), 0u);
}

TEST(CrawlAuthCli, ACookieLetsTheCrawlIn) {
  members_site m;
  temp_dir t;
  const generate_run g = generate_and_check(
      t / "out",
      crawl(m, {"--cookie",
                "consent=" + std::string(cookie_value) + "; theme=dark"}),
      {}, at(m));
  EXPECT_THAT(listed(g),
              ::testing::UnorderedElementsAreArray(m.members_pages()));
  EXPECT_EQ(skipped_reason(g, m.site().url("/members/private")), "robots");
  EXPECT_EQ(skipped_reason(g, m.site().url("/members/away")), "redirect");
  expect_sent_only_to_the_origin(
      m, "Cookie", "consent=" + std::string(cookie_value) + "; theme=dark");
}

TEST(CrawlAuthCli, ACookieFileLetsTheCrawlInWithTheCookiesThatMatch) {
  members_site m;
  temp_dir t;
  write_file(t / "cookies.txt",
             "# Netscape HTTP Cookie File\n"
             "# exported for the crawl\n"
             "\n"
             "127.0.0.1\tFALSE\t/\tFALSE\t0\tconsent\t" +
                 std::string(cookie_value) +
                 "\n"
                 "127.0.0.1\tFALSE\t/\tFALSE\t1000000000\tstale\tgone\n"
                 "#HttpOnly_127.0.0.1\tFALSE\t/\tTRUE\t0\tsecure_only\tx\n"
                 "members.example.com\tTRUE\t/\tFALSE\t0\tforeign\ty\n"
                 "127.0.0.1\tFALSE\t/members/\tFALSE\t4102444800\tarea\tm\n");
  const generate_run g = generate_and_check(
      t / "out", crawl(m, {"--cookie-file", t / "cookies.txt"}), {}, at(m));
  EXPECT_THAT(listed(g),
              ::testing::UnorderedElementsAreArray(m.members_pages()));
  EXPECT_THAT(g.run.err, HasSubstr("cookies.txt: 1 expired cookie not sent "
                                   "(line 5)"));
  // The path-scoped cookie goes with the members' pages, first (the longer
  // path); the secure one never over http, the foreign one never here.
  for (const auto& r : m.site().requests()) {
    const std::string expected =
        r.path().starts_with("/members/")
            ? "area=m; consent=" + std::string(cookie_value)
            : "consent=" + std::string(cookie_value);
    EXPECT_EQ(r.header("Cookie"), expected) << r.target;
  }
  expect_nothing_elsewhere(m);
}

TEST(CrawlAuthCli, AHeaderLetsTheCrawlIn) {
  members_site m;
  temp_dir t;
  const generate_run g = generate_and_check(
      t / "out",
      crawl(m, {"--header", "X-Members-Key: " + std::string(header_value),
                "--header", "Accept-Language: de"}),
      {}, at(m));
  EXPECT_THAT(listed(g),
              ::testing::UnorderedElementsAreArray(m.members_pages()));
  expect_sent_only_to_the_origin(m, "X-Members-Key", header_value);
  for (const auto& r : m.site().requests())
    EXPECT_EQ(r.header("Accept-Language"), "de");
}

TEST(CrawlAuthCli, BasicAuthFromUserFromTheEnvironmentAndFromANetrc) {
  temp_dir t;
  write_file(t / "netrc",
             "# logins\nmachine example.com login bob password nope\n"
             "machine 127.0.0.1\n  login alice\n  password " +
                 std::string(password) + "\n");
  write_file(t / ".netrc", read_file(t / "netrc"));
  struct way {
    std::vector<std::string> flags;
    bool password_in_environment = false;
    bool home_is_temp = false;
  };
  const way ways[] = {
      {{"--user", "alice:" + std::string(password)}},
      {{"--user", "alice"}, true},
      {{"--netrc-file", t / "netrc"}},
      {{"--netrc"}, false, true},
  };
  const std::string home = std::getenv("HOME") ? std::getenv("HOME") : "";
  for (const way& w : ways) {
    members_site m;
    temp_dir out;
    if (w.password_in_environment)
      ::setenv("SITEMILL_PASSWORD", std::string(password).c_str(), 1);
    if (w.home_is_temp) ::setenv("HOME", t.path().c_str(), 1);
    const generate_run g =
        generate_and_check(out / "out", crawl(m, w.flags), {}, at(m));
    ::unsetenv("SITEMILL_PASSWORD");
    ::setenv("HOME", home.c_str(), 1);
    EXPECT_THAT(listed(g),
                ::testing::UnorderedElementsAreArray(m.members_pages()))
        << w.flags[0];
    expect_sent_only_to_the_origin(m, "Authorization",
                                   "Basic " + std::string(basic_token));
  }
}

TEST(CrawlAuthCli, SecretsShowInNoOutputReportOrState) {
  members_site m;
  temp_dir t, given;  // what the run leaves, and what it was given
  write_file(given / "cookies.txt", "127.0.0.1\tFALSE\t/\tFALSE\t0\tconsent\t" +
                                        std::string(cookie_value) + "\n");
  std::vector<std::string> args = {"-v",          "generate", "--json",
                                   "--out",       t / "out",  "--state",
                                   t / "state.db"};
  for (const std::string& a :
       crawl(m, {"--cookie-file", given / "cookies.txt", "--header",
                 "X-Members-Key: " + std::string(header_value), "--user",
                 "alice:" + std::string(password)}))
    args.push_back(a);
  const run_result r = run_sitemill(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json report = parse_report(r);
  EXPECT_EQ(report.at("written"), m.members_pages().size());
  std::string everything = r.out + r.err;
  for (const std::string& dir : {t.path(), t / "out"})
    for (const auto& [name, bytes] : snapshot(dir)) everything += bytes;
  EXPECT_FALSE(snapshot(t.path()).empty());
  EXPECT_TRUE(std::filesystem::exists(t / "state.db-crawl"));
  for (std::string_view secret :
       {cookie_value, header_value, password, basic_token})
    EXPECT_THAT(everything, Not(HasSubstr(std::string(secret)))) << secret;
}

TEST(CrawlAuthCli, BadCredentialsAreRefusedNamingWhereWithoutTheirValues) {
  ::unsetenv("SITEMILL_PASSWORD");
  members_site m;
  temp_dir t;
  write_file(t / "cookies.txt",
             "# Netscape HTTP Cookie File\n"
             "127.0.0.1\tFALSE\t/\tFALSE\t0\tconsent\t" +
                 std::string(cookie_value) +
                 "\n"
                 "127.0.0.1 FALSE / FALSE 0 session " +
                 std::string(password) + "\n");
  write_file(t / "netrc", "machine 127.0.0.1 login alice password " +
                              std::string(password) + " oops\n");
  struct refusal {
    std::vector<std::string> flags;
    std::string says;
  };
  const refusal refusals[] = {
      {{"--cookie-file", t / "cookies.txt"},
       t / "cookies.txt:3: 1 field where a cookie has 7"},
      {{"--header", "X-Members-Key " + std::string(header_value)},
       "--header #1: a header is \"Name: value\""},
      {{"--header", "Host: " + std::string(header_value)},
       "header Host is one the crawler sets itself"},
      {{"--header", "User-Agent: " + std::string(header_value)},
       "--user-agent"},
      {{"--header", "Cookie: consent=" + std::string(cookie_value)},
       "give cookies as --cookie or --cookie-file"},
      {{"--cookie", std::string(cookie_value)}, "--cookie #1: cookie 1 is not"},
      {{"--netrc-file", t / "netrc"}, t / "netrc:1: a word that is no netrc"},
      {{"--netrc-file", t / "missing"}, "cannot read " + t / "missing"},
      {{"--user", "alice:" + std::string(password), "--netrc"},
       "--user and --netrc both give a login"},
      {{"--user", "alice"}, "SITEMILL_PASSWORD"},
  };
  for (const refusal& x : refusals) {
    std::vector<std::string> args = {"generate", "--out", t / "out"};
    for (const std::string& a : crawl(m, x.flags)) args.push_back(a);
    const run_result r = run_sitemill(args);
    EXPECT_EQ(r.exit_code, 2) << x.flags[0] << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr(x.says)) << x.flags[0];
    for (std::string_view secret : {cookie_value, header_value, password})
      EXPECT_THAT(r.err, Not(HasSubstr(std::string(secret)))) << x.flags[0];
  }
  EXPECT_TRUE(m.site().requests().empty()) << "refused before any request";
  const run_result alone =
      run_sitemill({"generate", "--out", t / "out", "--base-url", m.start_url(),
                    "--header", "X-Members-Key: x", t / "cookies.txt"});
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_THAT(alone.err, HasSubstr("give a start URL"));
}

// ---------------------------------------------------------------------------
// The hint that rendering is needed

// A single-page app: every route is answered with the same shell (as a
// static host's fallback to index.html does).
constexpr std::string_view app_shell = R"(<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Acme Store</title>
<link rel="stylesheet" href="/assets/index-4f1c2b.css">
<script type="module" crossorigin src="/assets/index-9a8b7c.js"></script>
</head><body><div id="root"></div>
<noscript>You need to enable JavaScript to run this app.</noscript>
</body></html>)";

TEST(CrawlAuthCli, APlainCrawlOfASinglePageAppSaysOnceItLooksBuiltByScripts) {
  http_server app;
  app.fallback([](const recorded_request& r) {
    if (r.path() == "/robots.txt") return text_reply(404, "");
    return text_reply(200, std::string(app_shell), "text/html");
  });
  temp_dir t;
  std::vector<std::string> args = {"generate",   "--json",       "--out",
                                   t / "out",    "--from-crawl", app.url("/"),
                                   "--base-url", app.url("/")};
  const run_result r = run_sitemill(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json report = parse_report(r);
  EXPECT_EQ(report.at("written"), 1);
  std::size_t hints = 0;
  for (const auto& w : report.at("warnings")) {
    const std::string reason = w.at("reason");
    if (reason.find("looks built by scripts") == std::string::npos) continue;
    ++hints;
    EXPECT_EQ(w.at("input"), app.url("/"));
    EXPECT_THAT(reason, HasSubstr("1 script, no links and"));
    // `render` becomes the renderer's flag in the CLI's vocabulary.
    EXPECT_THAT(reason, HasSubstr("rendering the pages in a browser"));
  }
  EXPECT_EQ(hints, 1u);
  const run_result text =
      run_sitemill({"generate", "--out", t / "out2", "--from-crawl",
                    app.url("/"), "--base-url", app.url("/")});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.err,
              HasSubstr(app.url("/") + ": warning: looks built by scripts"));
}

TEST(CrawlAuthCli, ACrawlOfHtmlPagesWithAnalyticsSaysNothingOfScripts) {
  http_server site;
  const std::string analytics =
      "<script async src=\"https://www.googletagmanager.com/gtag/js?id=G-1\">"
      "</script><script>window.dataLayer=window.dataLayer||[];</script>";
  site.fallback([&](const recorded_request& r) {
    if (r.path() == "/robots.txt") return text_reply(404, "");
    const std::string nav =
        "<nav><a href=/>Home</a> <a href=/about>About</a> "
        "<a href=/contact>Contact</a></nav>";
    return text_reply(
        200,
        "<!doctype html><html><head><title>Acme</title>" + analytics +
            "</head><body>" + nav +
            "<h1>Acme</h1><p>We make anvils, rockets and other things a "
            "coyote needs, shipped across the desert in two days.</p>"
            "</body></html>",
        "text/html");
  });
  temp_dir t;
  const run_result r =
      run_sitemill({"generate", "--json", "--out", t / "out", "--from-crawl",
                    site.url("/"), "--base-url", site.url("/")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(parse_report(r).at("written"), 3);
  EXPECT_THAT(r.out + r.err, Not(HasSubstr("built by scripts")));
}

}  // namespace
}  // namespace sitemill::testing
