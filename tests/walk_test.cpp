// The one sitemap walker (include/sitemill/walk/walker.h): locations (file,
// stdin, HTTP, gzip), following indexes, the child location rule, the fetch
// scope, cycles, depth, the caps and cancellation, told as events.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "sitemill/check/check.h"
#include "sitemill/source/sitemap_source.h"
#include "sitemill/walk/walker.h"
#include "support/campaign.h"
#include "support/http_server.h"
#include "support/run.h"
#include "walk/walker_impl.h"

namespace sitemill {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::http_reply;
using testing::http_server;
using testing::sitemapindex;
using testing::temp_dir;
using testing::text_reply;
using testing::urlset;  // tests/support: one <url> per line
using testing::write_file;

http_reply xml_reply(std::string body) {
  return text_reply(200, std::move(body), "application/xml");
}

const char* name(walk_skip_reason r) {
  switch (r) {
    case walk_skip_reason::stopped:
      return "stopped";
    case walk_skip_reason::bad_url:
      return "bad_url";
    case walk_skip_reason::unsupported_scheme:
      return "unsupported_scheme";
    case walk_skip_reason::cycle:
      return "cycle";
    case walk_skip_reason::already_read:
      return "already_read";
    case walk_skip_reason::repeated:
      return "repeated";
    case walk_skip_reason::too_deep:
      return "too_deep";
    case walk_skip_reason::cap:
      return "cap";
    case walk_skip_reason::child_not_found:
      return "child_not_found";
    case walk_skip_reason::off_site:
      return "off_site";
    case walk_skip_reason::read_failed:
      return "read_failed";
    case walk_skip_reason::fetch_failed:
      return "fetch_failed";
    case walk_skip_reason::http_status:
      return "http_status";
    case walk_skip_reason::redirect_cycle:
      return "redirect_cycle";
    case walk_skip_reason::redirect_already_read:
      return "redirect_already_read";
    case walk_skip_reason::out_of_scope:
      return "out_of_scope";
  }
  return "?";
}

// Records every event as one line, and every entry's loc.
struct recorder final : walk_observer, parse_handler {
  std::vector<std::string> events;
  std::vector<std::string> locs;
  std::vector<walk_skip> skips;  // of on_skip and on_failed, in order
  std::vector<walk_read> reads;
  std::vector<walk_document> opened;
  std::function<bool()> cancel = [] { return false; };

  parse_handler& on_open(const walk_document& doc) override {
    events.push_back("open " + doc.source);
    opened.push_back(doc);
    return *this;
  }
  void on_read(const walk_document& doc, const walk_read& r) override {
    events.push_back("read " + doc.source + " " +
                     std::string(to_string(r.summary.kind)));
    reads.push_back(r);
  }
  void on_done(const walk_document& doc, const walk_read&) override {
    events.push_back("done " + doc.source);
  }
  void on_failed(const walk_document& doc, const walk_skip& why) override {
    events.push_back("failed " + doc.source + " " + name(why.reason));
    skips.push_back(why);
  }
  void on_skip(const walk_document& doc, const walk_skip& why) override {
    std::string e = "skip " + doc.source + " " + name(why.reason);
    if (!doc.listing.source.empty())
      e += " at " + std::to_string(doc.listing.line);
    events.push_back(e);
    skips.push_back(why);
  }
  bool cancelled() override { return cancel(); }
  void on_entry(const parsed_entry& e) override {
    locs.emplace_back(e.loc.text);
  }
};

walk_options fast_options() {
  walk_options o;
  o.http.connect_timeout = std::chrono::milliseconds(5'000);
  o.http.total_timeout = std::chrono::milliseconds(20'000);
  return o;
}

recorder walk_one(const std::string& target, walk_options o = fast_options(),
                  std::string_view served_at = {}) {
  recorder r;
  sitemap_walker w(std::move(o), r);
  w.walk(target, served_at);
  return r;
}

// Replaces stdin with `path` for its lifetime.
class stdin_from {
 public:
  explicit stdin_from(const std::string& path)
      : saved_(::dup(0)), fd_(::open(path.c_str(), O_RDONLY)) {
    ::dup2(fd_, 0);
  }
  ~stdin_from() {
    ::dup2(saved_, 0);
    ::close(saved_);
    ::close(fd_);
  }

 private:
  int saved_, fd_;
};

// --- locations ---------------------------------------------------------------

TEST(Walk, ReadsALocalFileThroughTheParser) {
  temp_dir t;
  write_file(t / "s.xml", urlset({"https://www.example.com/a",
                                  "https://www.example.com/b"}));
  recorder r = walk_one(t / "s.xml");
  EXPECT_THAT(r.events, ElementsAre("open " + t / "s.xml",
                                    "read " + t / "s.xml" + " urlset",
                                    "done " + t / "s.xml"));
  EXPECT_THAT(r.locs, ElementsAre("https://www.example.com/a",
                                  "https://www.example.com/b"));
  ASSERT_EQ(r.reads.size(), 1u);
  EXPECT_EQ(r.reads[0].summary.entries, 2u);
  EXPECT_EQ(r.opened[0].path, t / "s.xml");
  EXPECT_FALSE(r.opened[0].fetched);
  EXPECT_EQ(r.opened[0].url, "") << "a local target's URL is unknown";
}

TEST(Walk, ReadsStdinGivenAsDash) {
  temp_dir t;
  write_file(t / "in.txt", "https://www.example.com/a\n");
  stdin_from in(t / "in.txt");
  recorder r = walk_one("-");
  EXPECT_THAT(r.events, ElementsAre("open -", "read - text", "done -"));
  EXPECT_THAT(r.locs, ElementsAre("https://www.example.com/a"));
}

TEST(Walk, ReadsGzipFromAFileAndOverHttp) {
  temp_dir t;
  http_server server;
  const std::string doc = urlset({"https://www.example.com/a"});
  write_file(t / "s.xml.gz", testing::gzip(doc));
  server.route("/s.xml.gz",
               text_reply(200, testing::gzip(doc), "application/gzip"));
  for (const std::string& target : {t / "s.xml.gz", server.url("/s.xml.gz")}) {
    recorder r = walk_one(target);
    ASSERT_EQ(r.reads.size(), 1u) << target;
    EXPECT_TRUE(r.reads[0].summary.gzipped);
    EXPECT_EQ(r.reads[0].summary.bytes, doc.size());
    EXPECT_THAT(r.locs, ElementsAre("https://www.example.com/a"));
  }
}

TEST(Walk, FetchesOverHttpAndTellsTheUrlAfterRedirects) {
  http_server server;
  server.redirect("/old.xml", "/new.xml");
  server.route("/new.xml", xml_reply(urlset({server.url("/1")})));
  recorder r = walk_one(server.url("/old.xml"));
  ASSERT_EQ(r.reads.size(), 1u);
  EXPECT_EQ(r.reads[0].final_url, server.url("/new.xml"));
  EXPECT_EQ(r.reads[0].redirects, 1);
  EXPECT_EQ(r.reads[0].content_type, "application/xml");
  EXPECT_TRUE(r.opened[0].fetched);
  EXPECT_EQ(r.opened[0].url, server.url("/old.xml"));
}

// Issue 14, defect 3: a body cut off after a fatal parse error (the walker
// drains at most 1 MiB more) keeps the Content-Type that was sent.
TEST(Walk, KeepsTheContentTypeOfABodyItCutOff) {
  http_server server;
  std::string body = urlset({server.url("/1")});
  body.insert(body.find("</urlset>"), "<broken");  // fatal: not well-formed
  body += std::string(3 * 1024 * 1024, 'x');
  server.route("/cut.xml", xml_reply(body));
  recorder r = walk_one(server.url("/cut.xml"));
  ASSERT_EQ(r.reads.size(), 1u);
  EXPECT_EQ(r.reads[0].summary.kind, document_kind::urlset);
  EXPECT_EQ(r.reads[0].content_type, "application/xml");
}

TEST(Walk, TellsWhyATargetCannotBeRead) {
  temp_dir t;
  std::filesystem::create_directory(t / "dir");
  http_server server;
  server.route("/gone.xml", text_reply(410, "gone"));
  std::uint16_t closed_port;
  {
    http_server gone;
    closed_port = gone.port();
  }
  struct row {
    std::string target;
    std::string event;
  };
  const std::string refused =
      "http://127.0.0.1:" + std::to_string(closed_port) + "/s.xml";
  const row rows[] = {
      {t / "missing.xml", "failed " + t / "missing.xml" + " read_failed"},
      {t / "dir", "failed " + t / "dir" + " read_failed"},
      {"ftp://example.com/s.xml",
       "skip ftp://example.com/s.xml "
       "unsupported_scheme"},
      {"https://exa mple.com/s.xml", "skip https://exa mple.com/s.xml bad_url"},
      {server.url("/gone.xml"),
       "failed " + server.url("/gone.xml") + " http_status"},
      {refused, "failed " + refused + " fetch_failed"},
  };
  for (const row& rw : rows) {
    recorder r = walk_one(rw.target);
    EXPECT_EQ(r.events.back(), rw.event);
    ASSERT_EQ(r.skips.size(), 1u) << rw.target;
  }
  recorder gone = walk_one(server.url("/gone.xml"));
  EXPECT_EQ(gone.skips.at(0).status, 410);
  EXPECT_TRUE(gone.locs.empty()) << "an error page is no sitemap";
  recorder missing = walk_one(t / "missing.xml");
  EXPECT_THAT(missing.skips.at(0).message,
              HasSubstr("cannot open " + t / "missing.xml"));
}

// --- following indexes -------------------------------------------------------

TEST(Walk, FollowsALocalIndexsChildrenDepthFirstInOrder) {
  temp_dir t;
  write_file(t / "index.xml",
             sitemapindex({"https://www.example.com/a.xml",
                           "https://www.example.com/b.xml.gz"}));
  write_file(t / "a.xml", urlset({"https://www.example.com/1"}));
  write_file(t / "b.xml.gz",
             testing::gzip(urlset({"https://www.example.com/2"})));
  recorder r = walk_one(t / "index.xml");
  EXPECT_THAT(
      r.events,
      ElementsAre("open " + t / "index.xml",
                  "read " + t / "index.xml" + " sitemapindex",
                  "open " + t / "a.xml", "read " + t / "a.xml" + " urlset",
                  "done " + t / "a.xml", "open " + t / "b.xml.gz",
                  "read " + t / "b.xml.gz" + " urlset",
                  "done " + t / "b.xml.gz", "done " + t / "index.xml"));
  EXPECT_EQ(r.opened[1].url, "https://www.example.com/a.xml")
      << "a local child is served at the URL its index lists";
  EXPECT_EQ(r.opened[1].listing.source, t / "index.xml");
  EXPECT_EQ(r.opened[1].listing.line, 3u);
  EXPECT_EQ(r.opened[1].depth, 1u);
}

TEST(Walk, FollowsAFetchedIndexsChildrenAndResolvesRelativeOnes) {
  http_server server;
  server.route("/maps/index.xml",
               xml_reply(sitemapindex({server.url("/maps/a.xml"), "b.xml"})));
  server.route("/maps/a.xml", xml_reply(urlset({server.url("/maps/1")})));
  server.route("/maps/b.xml", xml_reply(urlset({server.url("/maps/2")})));
  recorder r = walk_one(server.url("/maps/index.xml"));
  EXPECT_THAT(r.locs,
              ElementsAre(server.url("/maps/a.xml"), "b.xml",
                          server.url("/maps/1"), server.url("/maps/2")));
  EXPECT_EQ(server.count("/maps/b.xml"), 1u);
}

TEST(Walk, LeavesChildrenAloneWithoutFollowIndexes) {
  temp_dir t;
  write_file(t / "index.xml", sitemapindex({"https://www.example.com/a.xml"}));
  write_file(t / "a.xml", urlset({"https://www.example.com/1"}));
  walk_options o = fast_options();
  o.follow_indexes = false;
  recorder r = walk_one(t / "index.xml", o);
  EXPECT_EQ(r.opened.size(), 1u);
}

TEST(Walk, FollowsARepeatedLocOnce) {
  temp_dir t;
  write_file(t / "index.xml", sitemapindex({"https://www.example.com/a.xml",
                                            "https://www.example.com/a.xml"}));
  write_file(t / "a.xml", urlset({"https://www.example.com/1"}));
  recorder r = walk_one(t / "index.xml");
  EXPECT_EQ(r.opened.size(), 2u);
  EXPECT_EQ(r.events[r.events.size() - 2],
            "skip https://www.example.com/a.xml repeated at 4");
}

// Checklist 41: a cycle is not followed, a document reached twice is read
// once.
TEST(Walk, ReadsADocumentOnceAndNeverFollowsACycle) {
  temp_dir t;
  write_file(t / "top.xml", sitemapindex({"https://www.example.com/x.xml",
                                          "https://www.example.com/y.xml",
                                          "https://www.example.com/top.xml"}));
  write_file(t / "x.xml", sitemapindex({"https://www.example.com/s.xml"}));
  write_file(t / "y.xml", sitemapindex({"https://www.example.com/s.xml",
                                        "https://www.example.com/x.xml"}));
  write_file(t / "s.xml", urlset({"https://www.example.com/1"}));
  recorder r = walk_one(t / "top.xml");
  std::vector<std::string> skips;
  for (const auto& e : r.events)
    if (e.starts_with("skip")) skips.push_back(e);
  EXPECT_THAT(skips, ElementsAre("skip " + t / "s.xml" + " already_read at 3",
                                 "skip " + t / "x.xml" + " already_read at 4",
                                 "skip " + t / "top.xml" + " cycle at 5"));
  EXPECT_EQ(r.opened.size(), 4u);
}

TEST(Walk, CatchesACycleThroughARedirect) {
  http_server server;
  server.route("/index.xml", xml_reply(sitemapindex({server.url("/alias.xml"),
                                                     server.url("/b.xml")})));
  server.redirect("/alias.xml", "/index.xml");
  server.redirect("/b.xml", "/a.xml");
  server.route("/a.xml", xml_reply(urlset({server.url("/1")})));
  recorder r = walk_one(server.url("/index.xml"));
  EXPECT_EQ(r.events[2], "open " + server.url("/alias.xml"));
  EXPECT_EQ(r.events[3],
            "failed " + server.url("/alias.xml") + " redirect_cycle");
  EXPECT_EQ(r.skips.at(0).url, server.url("/index.xml"));
  EXPECT_EQ(r.events[5], "read " + server.url("/b.xml") + " urlset");
}

TEST(Walk, StopsFollowingBelowTheDepthLimit) {
  temp_dir t;
  write_file(t / "i0.xml", sitemapindex({"https://www.example.com/i1.xml"}));
  write_file(t / "i1.xml", sitemapindex({"https://www.example.com/i2.xml"}));
  write_file(t / "i2.xml", sitemapindex({"https://www.example.com/s.xml"}));
  write_file(t / "s.xml", urlset({"https://www.example.com/1"}));
  for (std::uint32_t depth : {0u, 1u, 2u, 3u}) {
    walk_options o = fast_options();
    o.max_depth = depth;
    recorder r = walk_one(t / "i0.xml", o);
    EXPECT_EQ(r.opened.size(), depth + 1) << depth;
    const bool cut = depth < 3;
    EXPECT_EQ(r.skips.size(), cut ? 1u : 0u) << depth;
    if (cut) {
      EXPECT_EQ(r.skips[0].reason, walk_skip_reason::too_deep);
    }
  }
}

// --- the child location rule -------------------------------------------------

struct location_case {
  std::string index_url;  // "" when unknown
  std::string first;      // the index's first child, for the inferred URL
  std::string loc;
  std::string path;        // expected, relative to the index's directory
  std::string outside_of;  // expected
};

void expect_location(const location_case& c) {
  std::vector<detail::child_ref> children{{c.first, 3, 1}};
  normalized_url index_dir;
  if (!c.index_url.empty())
    ASSERT_EQ(normalize_url(c.index_url, index_dir), url_problem::ok);
  else
    index_dir =
        detail::place_local_index("/srv/maps/index.xml", children).index_url;
  normalized_url child;
  url_problem p = normalize_url(c.loc, child);
  if (p == url_problem::relative_without_base && !c.index_url.empty())
    (void)resolve_url(c.loc, index_dir, child);
  const detail::local_child got =
      detail::local_child_path("/srv/maps/index.xml", index_dir, child, c.loc);
  EXPECT_EQ(got.path, c.path.empty() ? "" : "/srv/maps/" + c.path)
      << c.loc << " listed by " << c.index_url;
  EXPECT_EQ(got.outside_of, c.outside_of) << c.loc;
}

// walker.h states the rule; docs/diagnostics-context.md (child-not-found)
// and the README's check section repeat it.
TEST(WalkChildLocation, IsThePathBelowTheIndexsUrlDirectory) {
  const std::string known = "https://www.example.com/maps/index.xml";
  const std::string dir = "https://www.example.com/maps/";
  const location_case cases[] = {
      // Known URL: the path below its directory, subdirectories included.
      {known, "", "https://www.example.com/maps/a.xml", "a.xml", ""},
      {known, "", "https://www.example.com/maps/part/a.xml", "part/a.xml", ""},
      {known, "", "https://www.example.com/maps/b%20c.xml?x=1", "b c.xml", ""},
      {known, "", "https://WWW.example.com:443/maps/a.xml", "a.xml", ""},
      {known, "", "part/a.xml", "part/a.xml", ""},  // relative: resolved
      // Not below it: no local file, whatever its name.
      {known, "", "https://www.example.com/a.xml", "", dir},
      {known, "", "https://other.example.com/maps/a.xml", "", dir},
      {known, "", "http://www.example.com/maps/a.xml", "", dir},
      // Unknown URL: the directory of the first absolute child.
      {"", "https://a.example.com/maps/s.xml",
       "https://a.example.com/maps/s.xml", "s.xml", ""},
      {"", "https://a.example.com/maps/s.xml",
       "https://a.example.com/maps/part/t.xml", "part/t.xml", ""},
      // The case: two hosts, one file name, never one file.
      {"", "https://a.example.com/maps/s.xml",
       "https://b.example.com/maps/s.xml", "", "https://a.example.com/maps/"},
      {"", "https://a.example.com/maps/x/s.xml",
       "https://a.example.com/maps/y/s.xml", "",
       "https://a.example.com/maps/x/"},
      // A relative <loc> of an index whose URL is unknown: a relative path.
      {"", "", "sub/a.xml", "sub/a.xml", ""},
      {"", "", "a%20b.xml#top", "a b.xml", ""},
      // Never outside the index's directory, never a directory.
      {known, "", "https://www.example.com/maps/..%2Fsecret.xml", "", ""},
      {known, "", "https://www.example.com/maps//etc/passwd", "", ""},
      {known, "", "https://www.example.com/maps/a%00.xml", "", ""},
      {known, "", "https://www.example.com/maps/part/", "", ""},
      {"", "", "../secret.xml", "", ""},
      {"", "", "/etc/passwd", "", ""},
      {"", "", "https://exa mple.com/a.xml", "", ""},
  };
  for (const location_case& c : cases) expect_location(c);
}

TEST(WalkChildLocation, MapsTwoHostsWithOneFileNameToOneFileNever) {
  temp_dir t;
  http_server server;
  write_file(t / "index.xml",
             sitemapindex({"https://www.example.com/s.xml",
                           "http://localhost:" + std::to_string(server.port()) +
                               "/s.xml"}));
  write_file(t / "s.xml", urlset({"https://www.example.com/1"}));
  server.route("/s.xml", xml_reply(urlset({server.url("/2")})));
  recorder quiet = walk_one(t / "index.xml");
  ASSERT_EQ(quiet.opened.size(), 2u);
  EXPECT_EQ(quiet.skips.at(0).reason, walk_skip_reason::child_not_found);
  EXPECT_EQ(quiet.skips[0].url, "https://www.example.com/");
  walk_options o = fast_options();
  o.fetch_missing_children = true;
  o.allow_private = true;  // the test server's address; hosts are the point
  recorder fetched = walk_one(t / "index.xml", o);
  EXPECT_THAT(fetched.locs,
              ElementsAre("https://www.example.com/s.xml",
                          "http://localhost:" + std::to_string(server.port()) +
                              "/s.xml",
                          "https://www.example.com/1", server.url("/2")))
      << "the second child is its own document, fetched from its host";
}

TEST(WalkChildLocation, FindsAChildInASubdirectory) {
  temp_dir t;
  std::filesystem::create_directory(t / "part");
  write_file(t / "index.xml",
             sitemapindex({"https://www.example.com/maps/a.xml",
                           "https://www.example.com/maps/part/b.xml"}));
  write_file(t / "a.xml", urlset({"https://www.example.com/maps/1"}));
  write_file(t / "part/b.xml", urlset({"https://www.example.com/maps/2"}));
  for (std::string served_at : {"", "https://www.example.com/maps/index.xml"}) {
    recorder r = walk_one(t / "index.xml", fast_options(), served_at);
    ASSERT_EQ(r.opened.size(), 3u) << served_at;
    EXPECT_EQ(r.opened[2].source, t / "part/b.xml");
  }
}

// --- the fetch scope ---------------------------------------------------------

TEST(WalkFetchScope, FetchesAFetchedIndexsChildrenOnItsHostOnly) {
  http_server server;
  const std::string other =
      "http://localhost:" + std::to_string(server.port()) + "/a.xml";
  server.route("/index.xml",
               xml_reply(sitemapindex({other, server.url("/b.xml")})));
  server.route("/b.xml", xml_reply(urlset({server.url("/1")})));
  recorder r = walk_one(server.url("/index.xml"));
  EXPECT_EQ(server.count("/a.xml"), 0u);
  EXPECT_EQ(r.events[2], "skip " + other + " off_site at 3");
  EXPECT_EQ(server.count("/b.xml"), 1u);
}

TEST(WalkFetchScope, HoldsALocalIndexWithAKnownUrlToItsHost) {
  temp_dir t;
  http_server server;
  const std::string other =
      "http://localhost:" + std::to_string(server.port()) + "/a.xml";
  write_file(t / "index.xml", sitemapindex({other, server.url("/b.xml")}));
  server.route("/a.xml", xml_reply(urlset({server.url("/1")})));
  server.route("/b.xml", xml_reply(urlset({server.url("/2")})));
  walk_options o = fast_options();
  o.fetch_missing_children = true;
  recorder known = walk_one(t / "index.xml", o, server.url("/index.xml"));
  EXPECT_EQ(known.events[2], "skip " + other + " off_site at 3");
  EXPECT_EQ(server.count("/a.xml"), 0u);
  EXPECT_EQ(server.count("/b.xml"), 1u);
  // Unknown, the local index is the user's own: any host, but no private
  // address it names (issue 34: a downloaded index listing the cloud
  // metadata address), unless allow_private.
  recorder unknown = walk_one(t / "index.xml", o);
  EXPECT_EQ(server.count("/a.xml"), 0u);
  ASSERT_EQ(unknown.skips.size(), 2u);
  EXPECT_EQ(unknown.skips[0].reason, walk_skip_reason::out_of_scope);
  EXPECT_EQ(unknown.skips[1].reason, walk_skip_reason::out_of_scope);
  o.allow_private = true;
  recorder allowed = walk_one(t / "index.xml", o);
  EXPECT_EQ(server.count("/a.xml"), 1u);
  EXPECT_EQ(allowed.opened.size(), 3u);
}

// docs/protocol.md 1.7: a robots.txt vouches for sitemaps on any host, and for
// what a cross-submitted index lists.
TEST(WalkFetchScope, LetsACrossSubmitReachOtherHosts) {
  http_server server;
  const std::string elsewhere =
      "http://localhost:" + std::to_string(server.port());
  server.route("/index.xml", xml_reply(sitemapindex({elsewhere + "/a.xml"})));
  server.route("/a.xml", xml_reply(urlset({elsewhere + "/1"})));
  recorder r;
  sitemap_walker w(fast_options(), r);
  walk_document robots;
  robots.source = robots.url = elsewhere + "/robots.txt";
  robots.fetched = true;
  ASSERT_FALSE(w.admit(robots).has_value());
  walk_link link;
  link.url = server.url("/index.xml");
  link.listing = walk_listing{robots.source, link.url, 1, 0};
  link.cross_submit = elsewhere + "/";
  w.walk_listed(robots, std::span(&link, 1));
  EXPECT_EQ(server.count("/a.xml"), 1u)
      << "the index is on 127.0.0.1, its child on localhost";
  EXPECT_EQ(r.opened.size(), 2u);
  EXPECT_EQ(r.opened[1].cross_submit, elsewhere + "/");
  EXPECT_EQ(r.opened[0].depth, 1u);
  EXPECT_EQ(w.documents(), 3u) << "robots.txt counts as a document";
}

// The hostile-server cases of issue 14: every hop is held to the fetch
// scope before it is requested, and the server it would have reached
// (another port, another name for the same machine) sees nothing.
TEST(WalkFetchScope, RefusesARedirectToAnotherHostName) {
  http_server server;
  const std::string other =
      "http://localhost:" + std::to_string(server.port()) + "/moved.xml";
  server.route("/sitemap.xml", testing::redirect_reply(other, 302));
  server.route("/moved.xml", xml_reply(urlset({server.url("/1")})));
  recorder r = walk_one(server.url("/sitemap.xml"));
  sitemill::test::campaign_tally(sitemill::test::campaign_kind::hostile_input,
                                 1);
  ASSERT_EQ(r.skips.size(), 1u);
  EXPECT_EQ(r.events.back(),
            "failed " + server.url("/sitemap.xml") + " out_of_scope");
  EXPECT_EQ(r.skips[0].url, other);
  EXPECT_THAT(r.skips[0].message, HasSubstr("redirected to " + other));
  EXPECT_EQ(server.count("/moved.xml"), 0u);
}

TEST(WalkFetchScope, RefusesARedirectToAnotherPortOnTheSameAddress) {
  http_server server, other;
  other.route("/x.xml", xml_reply(urlset({other.url("/1")})));
  server.redirect("/sitemap.xml", other.url("/x.xml"), 302);
  recorder r = walk_one(server.url("/sitemap.xml"));
  sitemill::test::campaign_tally(sitemill::test::campaign_kind::hostile_input,
                                 1);
  ASSERT_EQ(r.skips.size(), 1u);
  EXPECT_EQ(r.skips[0].reason, walk_skip_reason::out_of_scope);
  EXPECT_EQ(r.skips[0].url, other.url("/x.xml"));
  EXPECT_THAT(r.skips[0].message, HasSubstr(other.url("/x.xml")));
  EXPECT_TRUE(other.requests().empty());
  EXPECT_EQ(other.connections(), 0u);
}

TEST(WalkFetchScope, DoesNotFetchAnIndexChildOnAnotherPort) {
  http_server server, other;
  other.route("/a.xml", xml_reply(urlset({other.url("/1")})));
  server.route(
      "/index.xml",
      xml_reply(sitemapindex({other.url("/a.xml"), server.url("/b.xml")})));
  server.route("/b.xml", xml_reply(urlset({server.url("/2")})));
  recorder r = walk_one(server.url("/index.xml"));
  sitemill::test::campaign_tally(sitemill::test::campaign_kind::hostile_input,
                                 1);
  EXPECT_EQ(r.events[2], "skip " + other.url("/a.xml") + " off_site at 3");
  EXPECT_TRUE(other.requests().empty());
  EXPECT_EQ(server.count("/b.xml"), 1u);
}

TEST(WalkFetchScope, RefusesARedirectChainThatLeavesOnItsSecondHop) {
  http_server server, other;
  other.route("/c.xml", xml_reply(urlset({other.url("/1")})));
  server.redirect("/a.xml", "/b.xml", 302);
  server.redirect("/b.xml", other.url("/c.xml"), 301);
  recorder r = walk_one(server.url("/a.xml"));
  sitemill::test::campaign_tally(sitemill::test::campaign_kind::hostile_input,
                                 1);
  ASSERT_EQ(r.skips.size(), 1u);
  EXPECT_EQ(r.skips[0].reason, walk_skip_reason::out_of_scope);
  EXPECT_EQ(r.skips[0].url, other.url("/c.xml"));
  EXPECT_EQ(server.count("/b.xml"), 1u) << "the first hop is in scope";
  EXPECT_TRUE(other.requests().empty());
}

TEST(WalkFetchScope, FollowsARedirectOnTheSameHostAndPort) {
  http_server server;
  server.redirect("/a.xml", server.url("/b.xml"), 302);
  server.route("/b.xml", xml_reply(urlset({server.url("/1")})));
  recorder r = walk_one(server.url("/a.xml"));
  ASSERT_EQ(r.reads.size(), 1u) << ::testing::PrintToString(r.events);
  EXPECT_EQ(r.reads[0].final_url, server.url("/b.xml"));
}

// A name is judged by the address it resolves to: "sitemap.test" pinned to
// 127.0.0.1 (as DNS could answer) is not a loopback target, so nothing is
// sent there unless allow_private says so.
TEST(WalkFetchScope, RefusesANameThatResolvesToLoopback) {
  http_server server;
  server.route("/sitemap.xml", xml_reply(urlset({server.url("/1")})));
  const std::string port = std::to_string(server.port());
  const std::string target = "http://sitemap.test:" + port + "/sitemap.xml";
  walk_options o = fast_options();
  o.http.resolve = {"sitemap.test:" + port + ":127.0.0.1"};
  recorder r = walk_one(target, o);
  sitemill::test::campaign_tally(sitemill::test::campaign_kind::hostile_input,
                                 1);
  ASSERT_EQ(r.skips.size(), 1u) << ::testing::PrintToString(r.events);
  EXPECT_EQ(r.skips[0].reason, walk_skip_reason::out_of_scope);
  EXPECT_THAT(r.skips[0].message, HasSubstr("127.0.0.1, a loopback address"));
  EXPECT_THAT(r.skips[0].message, HasSubstr("`allow_private`"));
  EXPECT_TRUE(r.skips[0].url.empty()) << "an address, not a redirect";
  EXPECT_EQ(server.connections(), 0u) << "refused before connecting";

  o.allow_private = true;
  recorder allowed = walk_one(target, o);
  EXPECT_EQ(allowed.reads.size(), 1u);
  EXPECT_EQ(server.count("/sitemap.xml"), 1u);
}

// A robots.txt may name sitemaps on any host, but not steer a fetch to a
// private address that no target names.
TEST(WalkFetchScope, RefusesACrossSubmitToAPrivateAddress) {
  http_server server;
  server.route("/s.xml", xml_reply(urlset({server.url("/1")})));
  recorder r;
  walk_options o = fast_options();
  sitemap_walker w(o, r);
  walk_document robots;
  robots.source = robots.url = "http://www.example.test/robots.txt";
  robots.fetched = true;
  ASSERT_FALSE(w.admit(robots).has_value());
  walk_link link;
  link.url = server.url("/s.xml");
  link.listing = walk_listing{robots.source, link.url, 1, 0};
  link.cross_submit = "http://www.example.test/";
  w.walk_listed(robots, std::span(&link, 1));
  sitemill::test::campaign_tally(sitemill::test::campaign_kind::hostile_input,
                                 1);
  ASSERT_EQ(r.skips.size(), 1u) << ::testing::PrintToString(r.events);
  EXPECT_EQ(r.skips[0].reason, walk_skip_reason::out_of_scope);
  EXPECT_EQ(server.connections(), 0u);
}

// --- caps and cancellation ---------------------------------------------------

TEST(WalkCaps, StopsOnceAtTheDocumentCap) {
  temp_dir t;
  std::vector<std::string> children;
  for (int i = 0; i < 5; ++i) {
    const std::string n = "s" + std::to_string(i) + ".xml";
    children.push_back("https://www.example.com/" + n);
    write_file(t / n, urlset({"https://www.example.com/" + std::to_string(i)}));
  }
  write_file(t / "index.xml", sitemapindex(children));
  walk_options o = fast_options();
  o.max_documents = 3;
  recorder r;
  sitemap_walker w(o, r);
  w.walk(t / "index.xml");
  w.walk(t / "s4.xml");
  EXPECT_EQ(r.opened.size(), 3u);
  ASSERT_EQ(r.skips.size(), 1u) << "told once; later ones are silent";
  EXPECT_EQ(r.skips[0].reason, walk_skip_reason::cap);
  EXPECT_EQ(r.skips[0].cap, walk_cap::documents);
  EXPECT_EQ(r.events[r.events.size() - 2],
            "skip " + t / "s2.xml" + " cap at 5");
  EXPECT_TRUE(w.stopped());
  EXPECT_FALSE(w.cancelled());
}

TEST(WalkCaps, ChecksTheByteCapBetweenDocuments) {
  temp_dir t;
  for (const char* n : {"a.xml", "b.xml"})
    write_file(t / n, urlset({"https://www.example.com/1"}));
  walk_options o = fast_options();
  o.max_total_bytes = 100;  // the first document already passes it
  recorder r;
  sitemap_walker w(o, r);
  w.walk(t / "a.xml");
  w.walk(t / "b.xml");
  EXPECT_EQ(r.opened.size(), 1u);
  ASSERT_EQ(r.skips.size(), 1u);
  EXPECT_EQ(r.skips[0].cap, walk_cap::bytes);
  EXPECT_GT(w.bytes(), 100u);
}

TEST(WalkCaps, StopsAtTheTimeCapBeforeAndDuringADocument) {
  temp_dir t;
  write_file(t / "a.xml", urlset({"https://www.example.com/1"}));
  walk_options o = fast_options();
  o.max_time = std::chrono::seconds(0);
  recorder before = walk_one(t / "a.xml", o);
  ASSERT_EQ(before.skips.size(), 1u);
  EXPECT_EQ(before.skips[0].cap, walk_cap::time);

  http_server server;
  http_reply slow = xml_reply(urlset({server.url("/1")}));
  slow.delay = std::chrono::milliseconds(30'000);
  server.route("/slow.xml", slow);
  o.max_time = std::chrono::seconds(1);
  recorder during = walk_one(server.url("/slow.xml"), o);
  ASSERT_EQ(during.reads.size(), 1u);
  EXPECT_EQ(during.reads[0].stop, walk_stop::time_cap);
}

TEST(WalkCaps, StopsWhenTheObserverCancels) {
  temp_dir t;
  write_file(t / "a.xml", urlset({"https://www.example.com/1"}));
  write_file(t / "b.xml", urlset({"https://www.example.com/2"}));
  recorder r;
  int polls = 0;
  r.cancel = [&] { return ++polls > 1; };
  sitemap_walker w(fast_options(), r);
  w.walk(t / "a.xml");
  w.walk(t / "b.xml");
  EXPECT_TRUE(w.cancelled());
  EXPECT_TRUE(w.stopped());
  EXPECT_LT(r.opened.size(), 2u);
  for (const auto& s : r.skips)
    EXPECT_NE(s.reason, walk_skip_reason::cap) << "a cancel is not a cap";
}

// --- check and --from-sitemap read through it alike
// --------------------------- Each case used to differ between the two (check
// had its own walk): the child location rule, the caps, stdin and the fetch
// scope.

// The documents check reports and the sources --from-sitemap's records name.
struct both {
  std::vector<std::string> checked;      // check's reports, in order
  std::vector<std::string> read;         // sources of records, in first order
  std::vector<std::string> check_codes;  // child codes check reported
  std::vector<std::string> problems;     // --from-sitemap's problems
};

both read_both(const std::string& target, walk_caps caps = {},
               bool fetch_children = true) {
  both b;
  check_options co;
  static_cast<walk_caps&>(co) = caps;
  co.fetch_children = fetch_children;
  // The test server is on the loopback, which a local index's children may
  // not name by themselves: what is compared here is the files read.
  co.allow_private = true;
  check_observer quiet;
  const check_report r = check({target}, co, quiet);
  for (const auto& d : r.documents) {
    b.checked.push_back(d.source);
    for (const auto& g : d.diagnostics)
      if (g.code == "cap-reached" || g.code == "child-not-found" ||
          g.code == "index-cycle" || g.code == "max-depth")
        b.check_codes.push_back(g.code + " at " + std::to_string(g.line));
  }
  sitemap_source_options so;
  static_cast<walk_caps&>(so) = caps;
  so.location = target;
  so.allow_private = true;
  auto reader = open_sitemap_source(so);
  EXPECT_TRUE(reader.has_value());
  if (!reader) return b;
  input_record rec;
  while ((*reader)->next(rec)) {
    if (!rec.problem.empty()) {
      b.problems.push_back(std::string(rec.problem) + " at " +
                           std::to_string(rec.line));
      continue;
    }
    const std::string source(rec.source);
    if (b.read.empty() || b.read.back() != source) b.read.push_back(source);
  }
  return b;
}

TEST(WalkConsumers, FindALocalIndexsChildrenInTheSameFiles) {
  temp_dir t;
  http_server server;
  std::filesystem::create_directory(t / "part");
  const std::string other =
      "http://localhost:" + std::to_string(server.port()) + "/maps/a.xml";
  write_file(t / "index.xml",
             sitemapindex({"https://www.example.com/maps/a.xml",
                           "https://www.example.com/maps/part/b.xml", other}));
  write_file(t / "a.xml", urlset({"https://www.example.com/maps/1"}));
  write_file(t / "part/b.xml", urlset({"https://www.example.com/maps/2"}));
  server.route("/maps/a.xml", xml_reply(urlset({server.url("/maps/3")})));
  const both b = read_both(t / "index.xml");
  // check reports the index as its first document; the index has no records.
  EXPECT_THAT(b.checked, ElementsAre(t / "index.xml", t / "a.xml",
                                     t / "part/b.xml", other));
  EXPECT_THAT(b.read, ElementsAre(t / "a.xml", t / "part/b.xml", other))
      << "the other host's a.xml is not the local a.xml";
}

TEST(WalkConsumers, StopAtTheSameDocumentForEachCap) {
  temp_dir t;
  std::vector<std::string> children;
  for (int i = 0; i < 4; ++i) {
    const std::string n = "s" + std::to_string(i) + ".xml";
    children.push_back("https://www.example.com/" + n);
    write_file(t / n, urlset({"https://www.example.com/" + std::to_string(i)}));
  }
  write_file(t / "index.xml", sitemapindex(children));
  walk_caps documents;
  documents.max_documents = 3;
  walk_caps bytes;
  bytes.max_total_bytes = std::filesystem::file_size(t / "index.xml") +
                          std::filesystem::file_size(t / "s0.xml") + 1;
  walk_caps depth;
  depth.max_depth = 0;
  for (const walk_caps& caps : {documents, bytes, depth}) {
    const both b = read_both(t / "index.xml", caps);
    const std::size_t read = caps.max_depth == 0 ? 0 : 2;
    EXPECT_EQ(b.read.size(), read);
    EXPECT_EQ(b.checked.size(), read + 1);
    ASSERT_EQ(b.check_codes.size(), caps.max_depth == 0 ? 4u : 1u);
    ASSERT_EQ(b.problems.size(), b.check_codes.size());
    const std::string line = caps.max_depth == 0 ? "3" : "5";
    EXPECT_THAT(b.check_codes[0], HasSubstr(" at " + line));
    EXPECT_THAT(b.problems[0], HasSubstr(" at " + line));
  }
}

TEST(WalkConsumers, ReadStdin) {
  temp_dir t;
  write_file(t / "in.txt", "https://www.example.com/a\n");
  both b;
  {
    stdin_from in(t / "in.txt");
    check_observer quiet;
    const check_report r = check({"-"}, {}, quiet);
    ASSERT_EQ(r.documents.size(), 1u);
    EXPECT_EQ(r.documents[0].urls, 1u);
  }
  {
    stdin_from in(t / "in.txt");
    sitemap_source_options so;
    so.location = "-";
    auto reader = open_sitemap_source(so);
    ASSERT_TRUE(reader.has_value());
    input_record rec;
    ASSERT_TRUE((*reader)->next(rec));
    EXPECT_EQ(rec.loc, "https://www.example.com/a");
    EXPECT_EQ(rec.source, "-");
  }
}

TEST(WalkConsumers, FetchNothingOffAFetchedIndexsHost) {
  http_server server;
  const std::string other =
      "http://localhost:" + std::to_string(server.port()) + "/a.xml";
  server.route("/index.xml",
               xml_reply(sitemapindex({other, server.url("/b.xml")})));
  server.route("/a.xml", xml_reply(urlset({server.url("/1")})));
  server.route("/b.xml", xml_reply(urlset({server.url("/2")})));
  const both b = read_both(server.url("/index.xml"));
  EXPECT_THAT(b.checked,
              ElementsAre(server.url("/index.xml"), server.url("/b.xml")));
  EXPECT_THAT(b.read, ElementsAre(server.url("/b.xml")));
  EXPECT_EQ(server.count("/a.xml"), 0u);
  EXPECT_EQ(server.count("/b.xml"), 2u) << "once by each";
}

TEST(WalkConsumers, ReadADocumentOnceAndStopACycle) {
  temp_dir t;
  write_file(t / "top.xml", sitemapindex({"https://www.example.com/x.xml",
                                          "https://www.example.com/s.xml",
                                          "https://www.example.com/top.xml"}));
  write_file(t / "x.xml", sitemapindex({"https://www.example.com/s.xml"}));
  write_file(t / "s.xml", urlset({"https://www.example.com/1"}));
  const both b = read_both(t / "top.xml");
  EXPECT_THAT(b.checked, ElementsAre(t / "top.xml", t / "x.xml", t / "s.xml"));
  EXPECT_THAT(b.read, ElementsAre(t / "s.xml"));
  EXPECT_THAT(b.check_codes, ElementsAre("index-cycle at 5"));
  ASSERT_EQ(b.problems.size(), 2u);
  EXPECT_THAT(b.problems[0], HasSubstr("listed again; read once at 4"));
  EXPECT_THAT(b.problems[1], HasSubstr("an index cycle"));
}
}  // namespace
}  // namespace sitemill
