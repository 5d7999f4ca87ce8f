// The sitemap source (generate --from-sitemap) through the library: records
// from a tree of sitemaps read by the one walker, and what the walker did
// not read as problems at the listing line.
#include "sitemill/source/sitemap_source.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/http_server.h"
#include "support/run.h"

namespace sitemill {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::http_server;
using testing::sitemapindex;
using testing::temp_dir;
using testing::text_reply;
using testing::urlset;  // tests/support: one <url> per line
using testing::write_file;

struct drained {
  std::vector<std::string> locs;
  std::vector<std::string> problems;  // "source:line: problem"
  std::string error;
  std::vector<std::string> notes;
};

drained read_all(sitemap_source_options o) {
  o.http.connect_timeout = std::chrono::milliseconds(5'000);
  o.http.total_timeout = std::chrono::milliseconds(20'000);
  drained d;
  auto reader = open_sitemap_source(o);
  if (!reader) {
    d.error = reader.err().message;
    return d;
  }
  input_record r;
  while ((*reader)->next(r)) {
    if (!r.problem.empty())
      d.problems.push_back(std::string(r.source) + ":" +
                           std::to_string(r.line) + ": " +
                           std::string(r.problem));
    else
      d.locs.emplace_back(r.loc);
  }
  d.error = (*reader)->error();
  for (const auto& n : (*reader)->notes()) d.notes.push_back(n.message);
  return d;
}

drained read_all(const std::string& location) {
  sitemap_source_options o;
  o.location = location;
  return read_all(o);
}

TEST(SitemapSource, ReadsAnIndexAndItsChildrenInDocumentOrder) {
  temp_dir t;
  write_file(t / "index.xml",
             sitemapindex({"https://www.example.com/a.xml",
                           "https://www.example.com/b.xml.gz"}));
  write_file(t / "a.xml", urlset({"https://www.example.com/1",
                                  "https://www.example.com/2"}));
  write_file(t / "b.xml.gz",
             testing::gzip(urlset({"https://www.example.com/3"})));
  const drained d = read_all(t / "index.xml");
  EXPECT_THAT(d.locs, ElementsAre("https://www.example.com/1",
                                  "https://www.example.com/2",
                                  "https://www.example.com/3"));
  EXPECT_TRUE(d.problems.empty());
  EXPECT_EQ(d.error, "");
}

// New with the walker: stdin, as check has always read it.
TEST(SitemapSource, ReadsStdinGivenAsDash) {
  temp_dir t;
  write_file(t / "in.xml", urlset({"https://www.example.com/a"}));
  const int saved = ::dup(0);
  const int fd = ::open((t / "in.xml").c_str(), O_RDONLY);
  ::dup2(fd, 0);
  const drained d = read_all("-");
  ::dup2(saved, 0);
  ::close(saved);
  ::close(fd);
  EXPECT_THAT(d.locs, ElementsAre("https://www.example.com/a"));
  EXPECT_EQ(d.error, "");
}

TEST(SitemapSource, StopsWithAnErrorWhenTheTopDocumentCannotBeRead) {
  http_server server;
  temp_dir t;
  struct row {
    std::string location;
    std::string error;
  };
  const row rows[] = {
      {t / "missing.xml", "cannot open " + t / "missing.xml"},
      {server.url("/missing.xml"),
       server.url("/missing.xml") + ": HTTP status 404"},
  };
  for (const row& r : rows) {
    const drained d = read_all(r.location);
    EXPECT_THAT(d.error, HasSubstr(r.error));
    EXPECT_TRUE(d.locs.empty());
  }
}

TEST(SitemapSource, ReportsWhatWasNotReadAtTheListingLine) {
  temp_dir t;
  write_file(t / "index.xml", sitemapindex({"https://www.example.com/a.xml",
                                            "https://www.example.com/index.xml",
                                            "https://www.example.com/a.xml"}));
  write_file(t / "a.xml", urlset({"https://www.example.com/1"}));
  const drained d = read_all(t / "index.xml");
  EXPECT_THAT(d.locs, ElementsAre("https://www.example.com/1"));
  ASSERT_EQ(d.problems.size(), 2u);
  EXPECT_THAT(d.problems[0], HasSubstr(t / "index.xml" + ":4: "));
  EXPECT_THAT(d.problems[0], HasSubstr("an index cycle"));
  EXPECT_THAT(d.problems[1], HasSubstr(":5: "));
  EXPECT_THAT(d.problems[1], HasSubstr("listed again; read once"));
}

// New with the walker: the byte and time caps check has.
TEST(SitemapSource, StopsAtTheByteAndTimeCaps) {
  temp_dir t;
  write_file(t / "index.xml", sitemapindex({"https://www.example.com/a.xml",
                                            "https://www.example.com/b.xml"}));
  write_file(t / "a.xml", urlset({"https://www.example.com/1"}));
  write_file(t / "b.xml", urlset({"https://www.example.com/2"}));
  sitemap_source_options o;
  o.location = t / "index.xml";
  // Not reached by the index alone, passed once a.xml is read too.
  o.max_total_bytes = std::filesystem::file_size(t / "index.xml") + 1;
  drained d = read_all(o);
  EXPECT_THAT(d.locs, ElementsAre("https://www.example.com/1"));
  ASSERT_EQ(d.problems.size(), 1u);
  EXPECT_THAT(d.problems[0], HasSubstr(":4: more than "));
  EXPECT_THAT(d.problems[0], HasSubstr(" bytes read; "));

  o.max_total_bytes = sitemap_source_options{}.max_total_bytes;
  o.max_time = std::chrono::seconds(0);
  d = read_all(o);
  EXPECT_TRUE(d.locs.empty());
  EXPECT_THAT(d.error, HasSubstr("time cap of 0 s"));
}

// New with the walker: a fetched index's children on its own host only.
TEST(SitemapSource, ReportsAChildOffTheIndexsHostWithoutFetchingIt) {
  http_server server;
  const std::string other =
      "http://localhost:" + std::to_string(server.port()) + "/a.xml";
  server.route("/index.xml",
               text_reply(200, sitemapindex({other, server.url("/b.xml")}),
                          "application/xml"));
  server.route("/a.xml", text_reply(200, urlset({server.url("/1")})));
  server.route("/b.xml", text_reply(200, urlset({server.url("/2")})));
  const drained d = read_all(server.url("/index.xml"));
  EXPECT_THAT(d.locs, ElementsAre(server.url("/2")));
  ASSERT_EQ(d.problems.size(), 1u);
  EXPECT_THAT(d.problems[0],
              HasSubstr(":3: sitemap " + other + " is on another host"));
  EXPECT_EQ(server.count("/a.xml"), 0u);
}

// New with the walker: a fetched index's relative <loc> resolves against
// its URL (it was read as a path before).
TEST(SitemapSource, ResolvesARelativeChildOfAFetchedIndex) {
  http_server server;
  server.route("/maps/index.xml",
               text_reply(200, sitemapindex({"a.xml"}), "application/xml"));
  server.route("/maps/a.xml", text_reply(200, urlset({server.url("/1")})));
  const drained d = read_all(server.url("/maps/index.xml"));
  EXPECT_THAT(d.locs, ElementsAre(server.url("/1")));
  EXPECT_TRUE(d.problems.empty());
}

TEST(SitemapSource, NotesHowFarABrokenDocumentGot) {
  temp_dir t;
  std::string doc =
      urlset({"https://www.example.com/1", "https://www.example.com/2"});
  doc.resize(doc.find("<url><loc>https://www.example.com/2"));
  write_file(t / "cut.xml", doc);
  const drained d = read_all(t / "cut.xml");
  EXPECT_THAT(d.locs, ElementsAre("https://www.example.com/1"));
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_THAT(d.notes[0], HasSubstr("the 1 entries before it were read"));
}

}  // namespace
}  // namespace sitemill
