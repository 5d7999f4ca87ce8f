// The checker through the library: the context rules
// (docs/protocol.md 1.6, 1.7, checklist 37, 38, 41-43), following indexes and
// robots.txt, caps, and fetching from a loopback server.
#include "sitemill/check/check.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "check/context.h"
#include "check/hreflang_set.h"
#include "parse/codes.h"
#include "sitemill/entry/extensions.h"
#include "sitemill/limits.h"
#include "sitemill/robots/robots.h"
#include "support/http_server.h"
#include "support/run.h"

namespace sitemill {
namespace {

using ::testing::HasSubstr;
using testing::http_reply;
using testing::http_server;
using testing::sitemapindex;
using testing::temp_dir;
using testing::text_reply;
using testing::urlset;  // tests/support: one <url> per line
using testing::write_file;

// --- helpers
// -------------------------------------------------------------------

std::vector<std::string> pages(const std::string& prefix, int n) {
  std::vector<std::string> v;
  for (int i = 0; i < n; ++i) v.push_back(prefix + std::to_string(i));
  return v;
}

http_reply xml_reply(std::string body) {
  return text_reply(200, std::move(body), "application/xml");
}

struct recording_observer : check_observer {
  std::vector<std::string> done;
  std::function<bool()> cancel = [] { return false; };
  void on_document(const document_report& r) override {
    done.push_back(r.source);
  }
  bool cancelled() override { return cancel(); }
};

const detail::context_code_info* find_context_code(std::string_view name) {
  for (const auto& c : detail::all_context_codes())
    if (c.name == name) return &c;
  return nullptr;
}

// Every code reported is documented with the severity it is reported at.
void expect_registered(const check_report& r) {
  for (const auto& d : r.documents) {
    for (const auto& g : d.diagnostics) {
      if (const auto* c = find_context_code(g.code))
        EXPECT_EQ(c->level, g.level) << g.code;
      else if (const auto* p = detail::find_document_code(g.code))
        EXPECT_EQ(p->level, g.level) << g.code;
      else
        EXPECT_TRUE(d.robots_txt && g.code.starts_with("robots-"))
            << "unregistered code " << g.code;
    }
  }
}

check_report run(const std::vector<std::string>& targets,
                 check_options options = {}) {
  options.http.connect_timeout = std::chrono::milliseconds(5'000);
  options.http.total_timeout = std::chrono::milliseconds(20'000);
  recording_observer observer;
  check_report r = check(targets, options, observer);
  EXPECT_EQ(observer.done.size(), r.documents.size())
      << "the observer hears of every document once";
  std::uint64_t errors = 0, warnings = 0;
  for (const auto& d : r.documents) {
    errors += d.errors;
    warnings += d.warnings;
  }
  EXPECT_EQ(r.errors, errors);
  EXPECT_EQ(r.warnings, warnings);
  expect_registered(r);
  return r;
}

std::vector<const diagnostic*> with_code(const document_report& d,
                                         std::string_view code) {
  std::vector<const diagnostic*> out;
  for (const auto& g : d.diagnostics)
    if (g.code == code) out.push_back(&g);
  return out;
}

std::size_t count_code(const check_report& r, std::string_view code) {
  std::size_t n = 0;
  for (const auto& d : r.documents) n += with_code(d, code).size();
  return n;
}

const document_report* find_doc(const check_report& r,
                                std::string_view source) {
  for (const auto& d : r.documents)
    if (d.source == source) return &d;
  return nullptr;
}

std::vector<std::string> sources(const check_report& r) {
  std::vector<std::string> s;
  for (const auto& d : r.documents) s.push_back(d.source);
  return s;
}

std::string dump(const check_report& r) {
  std::string s;
  for (const auto& d : r.documents) {
    s += d.source + " (" + std::string(to_string(d.kind)) + ")\n";
    for (const auto& g : d.diagnostics)
      s += "  " + std::to_string(g.line) + ": " + g.code + ": " + g.message +
           "\n";
  }
  return s;
}

// --- detail: the pieces
// --------------------------------------------------------

TEST(CheckContext, HostOfTakesTheLowercasedHostAlone) {
  struct row {
    const char* url;
    const char* host;
  };
  const row rows[] = {
      {"https://www.example.com/a", "www.example.com"},
      {"HTTP://WWW.Example.COM", "www.example.com"},
      {"https://user:pw@shop.example.com:8443/x?y=/z", "shop.example.com"},
      {"http://example.com.:80/", "example.com"},
      {"http://[::1]:8080/", "[::1]"},
      {"  https://example.com/padded  ", "example.com"},
      {"/relative/path.html", ""},
      {"ftp://example.com/", ""},
      {"https:///nohost", ""},
  };
  for (const row& r : rows) {
    std::string buffer;
    EXPECT_EQ(detail::host_of(r.url, buffer), r.host) << r.url;
  }
}

TEST(CheckContext, FingerprintsRememberTheFirstLineUntilFull) {
  detail::loc_fingerprints seen(3);
  std::uint64_t first = 0;
  using o = detail::loc_fingerprints::outcome;
  EXPECT_EQ(seen.insert("https://a.example/1", 10, first), o::added);
  EXPECT_EQ(seen.insert("https://a.example/2", 11, first), o::added);
  EXPECT_EQ(seen.insert("https://a.example/1", 12, first), o::seen);
  EXPECT_EQ(first, 10u);
  EXPECT_EQ(seen.insert("https://a.example/3", 13, first), o::added);
  EXPECT_EQ(seen.insert("https://a.example/4", 14, first), o::full);
  EXPECT_EQ(seen.insert("https://a.example/2", 15, first), o::seen)
      << "a full table still recognises what it holds";
  EXPECT_EQ(first, 11u);
  EXPECT_EQ(seen.size(), 3u);
}

TEST(CheckContext, FingerprintsWithNoCapacityKeepNothing) {
  detail::loc_fingerprints seen(0);
  std::uint64_t first = 0;
  EXPECT_EQ(seen.insert("https://a.example/1", 1, first),
            detail::loc_fingerprints::outcome::full);
  EXPECT_EQ(seen.insert("https://a.example/1", 2, first),
            detail::loc_fingerprints::outcome::full);
  EXPECT_EQ(seen.size(), 0u);
}

TEST(CheckContext, FingerprintsScaleToAFullSitemap) {
  detail::loc_fingerprints seen(1u << 20);
  std::uint64_t first = 0;
  for (std::uint64_t i = 0; i < 50'000; ++i)
    ASSERT_EQ(seen.insert("https://www.example.com/p/" + std::to_string(i),
                          i + 1, first),
              detail::loc_fingerprints::outcome::added);
  EXPECT_EQ(seen.insert("https://www.example.com/p/49999", 1, first),
            detail::loc_fingerprints::outcome::seen);
  EXPECT_EQ(first, 50'000u);
}

TEST(CheckContext, DiagnosticListKeepsTheFirstOfEachCodeAndCountsAll) {
  detail::diagnostic_list list(2);
  for (std::uint64_t line : {9, 3, 5, 7})
    list.add(severity::warning, "duplicate-url", line, 1, "dup");
  list.add(severity::error, "mixed-hosts", 4, 1, "host");
  list.add(severity::info, "redirected", 0, 0, "moved");
  document_report r;
  list.finish_into(r);
  EXPECT_EQ(r.warnings, 4u);
  EXPECT_EQ(r.errors, 1u);
  EXPECT_EQ(r.infos, 1u) << "the 'more not listed' note is not a finding";
  ASSERT_EQ(r.diagnostics.size(), 5u);
  EXPECT_EQ(r.diagnostics[0].line, 3u) << "sorted by line";
  EXPECT_EQ(r.diagnostics[1].line, 4u);
  EXPECT_EQ(r.diagnostics[2].line, 9u);
  EXPECT_EQ(r.diagnostics[3].code, "redirected") << "line 0 comes last";
  EXPECT_EQ(r.diagnostics[4].code, "more-not-listed");
  EXPECT_THAT(r.diagnostics[4].message, HasSubstr("2 more duplicate-url"));
}

// --- rules within one file ---------------------------------------------------

// Checklist 37: a repeated <loc> is a warning that names the first line.
TEST(Check, ReportsARepeatedLocAsAWarningNamingItsFirstLine) {
  temp_dir t;
  write_file(t / "s.xml",
             urlset({"https://www.example.com/a", "https://www.example.com/b",
                     "https://www.example.com/a"}));
  check_report r = run({t / "s.xml"});
  ASSERT_EQ(r.documents.size(), 1u) << dump(r);
  auto dups = with_code(r.documents[0], "duplicate-url");
  ASSERT_EQ(dups.size(), 1u) << dump(r);
  EXPECT_EQ(dups[0]->level, severity::warning);
  EXPECT_EQ(dups[0]->line, 5u);
  EXPECT_GT(dups[0]->column, 0u);
  EXPECT_THAT(dups[0]->message, HasSubstr("first on line 3"));
  EXPECT_EQ(r.errors, 0u) << dump(r);
  EXPECT_EQ(r.warnings, 1u);
  EXPECT_EQ(r.documents[0].urls, 3u);
}

// Sitemaps.org: "all URLs in a Sitemap must be from a single host".
TEST(Check, ReportsEachUrlOffTheFirstUrlsHostAsMixedHosts) {
  struct row {
    std::vector<std::string> locs;
    std::vector<std::uint64_t> lines;  // of the mixed-hosts errors
  };
  const row rows[] = {
      {{"https://www.example.com/a", "https://www.example.com/b"}, {}},
      {{"https://www.example.com/a", "https://shop.example.com/b"}, {4}},
      {{"https://www.example.com/a", "https://shop.example.com/b",
        "https://example.com/c", "https://www.example.com/d"},
       {4, 5}},
      // Case, port and scheme are not the host; the location rule covers
      // scheme and port when the sitemap's URL is known.
      {{"https://www.example.com/a", "http://WWW.EXAMPLE.COM:8080/b"}, {}},
      // A relative loc has no host (the parser reports it); the next
      // absolute one sets the file's host.
      {{"/relative/page.html", "https://b.example.com/x",
        "https://c.example.com/y"},
       {5}},
  };
  for (const row& rw : rows) {
    temp_dir t;
    write_file(t / "s.xml", urlset(rw.locs));
    check_report r = run({t / "s.xml"});
    ASSERT_EQ(r.documents.size(), 1u);
    std::vector<std::uint64_t> lines;
    for (const auto* d : with_code(r.documents[0], "mixed-hosts")) {
      EXPECT_EQ(d->level, severity::error);
      lines.push_back(d->line);
    }
    EXPECT_EQ(lines, rw.lines) << dump(r);
  }
}

// Sitemaps.org "Sitemap file location" (docs/protocol.md 1.6), for a local file
// whose URL is given.
TEST(Check, AppliesTheLocationRuleToALocalFileWithItsUrl) {
  struct row {
    std::optional<std::string> sitemap_url;
    std::string loc;
    bool outside;
  };
  const row rows[] = {
      {std::nullopt, "https://other.example.com/x", false},
      {"https://example.com/catalog/sitemap.xml",
       "https://example.com/catalog/show?item=23", false},
      {"https://example.com/catalog/sitemap.xml",
       "https://example.com/catalog/deeper/page", false},
      {"https://example.com/catalog/sitemap.xml",
       "https://example.com/image/show?item=23", true},
      {"https://example.com/catalog/sitemap.xml",
       "http://example.com/catalog/page1.php", true},
      {"https://example.com/catalog/sitemap.xml",
       "https://example.com:8443/catalog/page", true},
      {"https://example.com/catalog/sitemap.xml",
       "https://sub.example.com/catalog/page", true},
      {"https://example.com/catalog/sitemap.xml",
       "https://example.com/catalog/../images/x", true},
      {"https://EXAMPLE.com:443/sitemap.xml", "https://example.com/any/page",
       false},
      // The directory comes from the path, not from a '/' in the query.
      {"https://example.com/index.php?route=path/sitemap",
       "https://example.com/other", false},
  };
  for (const row& rw : rows) {
    temp_dir t;
    write_file(t / "s.xml", urlset({rw.loc}));
    check_options o;
    o.sitemap_url = rw.sitemap_url;
    check_report r = run({t / "s.xml"}, o);
    ASSERT_EQ(r.documents.size(), 1u);
    auto found = with_code(r.documents[0], "outside-location");
    EXPECT_EQ(found.size(), rw.outside ? 1u : 0u)
        << rw.loc << " in " << rw.sitemap_url.value_or("(no URL)") << "\n"
        << dump(r);
    if (!found.empty()) {
      EXPECT_EQ(found[0]->level, severity::error);
      EXPECT_EQ(found[0]->line, 3u);
    }
  }
}

TEST(Check, ListsTheFirstFindingsOfACodeAndCountsTheRest) {
  temp_dir t;
  std::vector<std::string> locs(12, "https://www.example.com/same");
  write_file(t / "s.xml", urlset(locs));
  check_options o;
  o.max_listed_per_code = 4;
  check_report r = run({t / "s.xml"}, o);
  ASSERT_EQ(r.documents.size(), 1u);
  const auto& d = r.documents[0];
  EXPECT_EQ(with_code(d, "duplicate-url").size(), 4u);
  EXPECT_EQ(d.warnings, 11u) << "every repeat is counted";
  auto more = with_code(d, "more-not-listed");
  ASSERT_EQ(more.size(), 1u) << dump(r);
  EXPECT_EQ(more[0]->level, severity::info);
  EXPECT_THAT(more[0]->message,
              HasSubstr("7 more duplicate-url diagnostics not listed"));
  EXPECT_EQ(r.warnings, 11u);
  ASSERT_EQ(d.unlisted.size(), 1u) << "the same, as a number";
  EXPECT_EQ(d.unlisted[0].code, "duplicate-url");
  EXPECT_EQ(d.unlisted[0].level, severity::warning);
  EXPECT_EQ(d.unlisted[0].count, 7u);
}

TEST(Check, KeepsTheUrlsReadBeforeAFatalError) {
  temp_dir t;
  std::string doc = urlset(pages("https://www.example.com/p", 5));
  doc.resize(doc.find("<url><loc>https://www.example.com/p3"));  // cut off
  write_file(t / "cut.xml", doc);
  check_report r = run({t / "cut.xml"});
  ASSERT_EQ(r.documents.size(), 1u);
  EXPECT_EQ(r.documents[0].urls, 3u) << dump(r);
  EXPECT_EQ(r.documents[0].kind, document_kind::urlset);
  EXPECT_GT(r.errors, 0u);
  EXPECT_FALSE(r.any_unreadable) << "a broken file was still read";
}

TEST(Check, ReportsATargetThatCannotBeReadAsUnreadable) {
  temp_dir t;
  std::filesystem::create_directory(t / "dir");
  struct row {
    std::string target;
    const char* code;
  };
  const row rows[] = {
      {t / "missing.xml", "read-failed"},
      {t / "dir", "read-failed"},
      {"ftp://example.com/sitemap.xml", "bad-target"},
  };
  for (const row& rw : rows) {
    check_report r = run({rw.target});
    ASSERT_EQ(r.documents.size(), 1u) << rw.target;
    EXPECT_TRUE(r.documents[0].unreadable) << rw.target;
    EXPECT_TRUE(r.any_unreadable);
    EXPECT_EQ(r.documents[0].source, rw.target);
    ASSERT_EQ(with_code(r.documents[0], rw.code).size(), 1u) << dump(r);
    EXPECT_EQ(r.errors, 1u);
    if (std::string_view(rw.code) == "bad-target") {  // says what can be
      EXPECT_THAT(with_code(r.documents[0], rw.code)[0]->message,
                  HasSubstr("s3://BUCKET/PREFIX/"));
    }
  }
}

TEST(Check, ChecksEveryTargetInOrderAndATargetGivenTwiceOnce) {
  temp_dir t;
  write_file(t / "a.xml", urlset({"https://www.example.com/a"}));
  write_file(t / "b.txt",
             "https://www.example.com/b\nhttps://www.example.com/c\n");
  check_report r = run({t / "a.xml", t / "b.txt", t / "a.xml"});
  EXPECT_EQ(sources(r), (std::vector<std::string>{t / "a.xml", t / "b.txt"}));
  ASSERT_EQ(r.documents.size(), 2u);
  EXPECT_EQ(r.documents[1].kind, document_kind::text);
  EXPECT_EQ(r.documents[1].urls, 2u);
  EXPECT_EQ(r.errors, 0u) << dump(r);
}

// --- local indexes
// -------------------------------------------------------------

// Sitemaps.org "Sitemap index": each child is checked; a local index's
// children are looked for beside it.
TEST(Check, ChecksALocalIndexsChildrenBesideItAndReportsMissingOnes) {
  temp_dir t;
  write_file(t / "index.xml",
             sitemapindex({"https://www.example.com/a.xml",
                           "https://www.example.com/b.xml.gz",
                           "https://www.example.com/missing.xml"}));
  write_file(t / "a.xml", urlset({"https://www.example.com/1"}));
  write_file(t / "b.xml.gz",
             testing::gzip(urlset(
                 {"https://www.example.com/2", "https://www.example.com/3"})));
  check_report r = run({t / "index.xml"});
  ASSERT_EQ(sources(r), (std::vector<std::string>{t / "index.xml", t / "a.xml",
                                                  t / "b.xml.gz"}))
      << dump(r);
  const auto& index = r.documents[0];
  EXPECT_EQ(index.kind, document_kind::sitemapindex);
  EXPECT_EQ(index.urls, 3u);
  EXPECT_EQ(index.parent, "");
  auto missing = with_code(index, "child-not-found");
  ASSERT_EQ(missing.size(), 1u) << dump(r);
  EXPECT_EQ(missing[0]->line, 5u);
  EXPECT_EQ(missing[0]->level, severity::error);
  EXPECT_THAT(missing[0]->message, HasSubstr("missing.xml"));
  EXPECT_THAT(missing[0]->message, HasSubstr("`fetch_children`"));
  EXPECT_EQ(r.documents[1].parent, t / "index.xml");
  EXPECT_EQ(r.documents[2].urls, 2u);
  EXPECT_EQ(r.errors, 1u) << dump(r);
  EXPECT_FALSE(r.any_unreadable) << "a missing child is the index's error";
}

TEST(Check, FindsChildrenBelowTheIndexUrlInSubdirectories) {
  temp_dir t;
  std::filesystem::create_directory(t / "part");
  write_file(t / "index.xml",
             sitemapindex({"https://www.example.com/maps/part/a.xml",
                           "https://www.example.com/maps/b%20c.xml"}));
  write_file(t / "part/a.xml", urlset({"https://www.example.com/maps/part/1"}));
  write_file(t / "b c.xml", urlset({"https://www.example.com/maps/2"}));
  check_options o;
  o.sitemap_url = "https://www.example.com/maps/index.xml";
  check_report r = run({t / "index.xml"}, o);
  EXPECT_EQ(sources(r), (std::vector<std::string>{
                            t / "index.xml", t / "part/a.xml", t / "b c.xml"}))
      << dump(r);
  EXPECT_EQ(r.errors, 0u) << dump(r);
}

TEST(Check, NeverLooksForALocalChildOutsideTheIndexsDirectory) {
  temp_dir t;
  std::filesystem::create_directory(t / "maps");
  write_file(t / "secret.xml", urlset({"https://www.example.com/secret"}));
  write_file(t / "maps/index.xml",
             sitemapindex({"https://www.example.com/maps/..%2Fsecret.xml",
                           "https://www.example.com/maps/%2E%2E/secret.xml",
                           "https://www.example.com/maps//" +
                               t.path().substr(1) + "/secret.xml",
                           "https://www.example.com/x%2F..%2F..%2Fsecret.xml",
                           "https://www.example.com/" + std::string("%2F") +
                               t.path().substr(1) + "%2Fsecret.xml"}));
  check_options o;
  o.sitemap_url = "https://www.example.com/maps/index.xml";
  check_report r = run({t / "maps/index.xml"}, o);
  EXPECT_EQ(sources(r), (std::vector<std::string>{t / "maps/index.xml"}))
      << dump(r);
}

// The walker's child location rule: without the index's URL, its children's
// URLs on the first one's origin place it, and a child elsewhere names no
// local file (the last path segment alone made both children read s.xml).
TEST(Check, NeverReadsChildrenOnTwoHostsFromOneFile) {
  temp_dir t;
  write_file(t / "index.xml", sitemapindex({"https://a.example.com/s.xml",
                                            "https://b.example.com/s.xml"}));
  write_file(t / "s.xml", urlset({"https://a.example.com/1"}));
  check_report r = run({t / "index.xml"});
  EXPECT_EQ(sources(r),
            (std::vector<std::string>{t / "index.xml", t / "s.xml"}))
      << dump(r);
  auto missing = with_code(r.documents[0], "child-not-found");
  ASSERT_EQ(missing.size(), 1u) << dump(r);
  EXPECT_EQ(missing[0]->line, 4u);
  EXPECT_THAT(missing[0]->message,
              HasSubstr("is not below https://a.example.com/"));
}

TEST(Check, HoldsALocalChildToTheUrlItsIndexListsItAt) {
  temp_dir t;
  write_file(t / "index.xml",
             sitemapindex({"https://www.example.com/catalog/a.xml"}));
  write_file(t / "a.xml", urlset({"https://www.example.com/catalog/1",
                                  "https://www.example.com/images/2"}));
  check_report r = run({t / "index.xml"});
  ASSERT_EQ(r.documents.size(), 2u) << dump(r);
  auto outside = with_code(r.documents[1], "outside-location");
  ASSERT_EQ(outside.size(), 1u) << dump(r);
  EXPECT_EQ(outside[0]->line, 4u);
  EXPECT_THAT(outside[0]->message,
              HasSubstr("https://www.example.com/catalog/"));
}

TEST(Check, LeavesIndexChildrenAloneWithoutFollowing) {
  temp_dir t;
  write_file(t / "index.xml",
             sitemapindex({"https://www.example.com/a.xml",
                           "https://www.example.com/gone.xml"}));
  write_file(t / "a.xml", urlset({"https://www.example.com/1"}));
  check_options o;
  o.follow_indexes = false;
  check_report r = run({t / "index.xml"}, o);
  EXPECT_EQ(sources(r), (std::vector<std::string>{t / "index.xml"}));
  EXPECT_EQ(r.errors, 0u) << dump(r);
}

// Checklist 41: cycles and self-pointing indexes are reported, not followed.
TEST(Check, ReportsAnIndexListingItselfAsACycle) {
  temp_dir t;
  write_file(t / "index.xml", sitemapindex({"https://www.example.com/index.xml",
                                            "https://www.example.com/a.xml"}));
  write_file(t / "a.xml", urlset({"https://www.example.com/1"}));
  check_report r = run({t / "index.xml"});
  EXPECT_EQ(sources(r),
            (std::vector<std::string>{t / "index.xml", t / "a.xml"}));
  auto cycle = with_code(r.documents[0], "index-cycle");
  ASSERT_EQ(cycle.size(), 1u) << dump(r);
  EXPECT_EQ(cycle[0]->line, 3u);
  EXPECT_EQ(cycle[0]->level, severity::error);
}

TEST(Check, ReportsATwoIndexCycleAndTheIndexInAnIndex) {
  temp_dir t;
  write_file(t / "a.xml", sitemapindex({"https://www.example.com/b.xml"}));
  write_file(t / "b.xml", sitemapindex({"https://www.example.com/s.xml",
                                        "https://www.example.com/a.xml"}));
  write_file(t / "s.xml", urlset({"https://www.example.com/1"}));
  check_report r = run({t / "a.xml"});
  EXPECT_EQ(sources(r),
            (std::vector<std::string>{t / "a.xml", t / "b.xml", t / "s.xml"}));
  const auto* b = find_doc(r, t / "b.xml");
  ASSERT_NE(b, nullptr);
  auto cycle = with_code(*b, "index-cycle");
  ASSERT_EQ(cycle.size(), 1u) << dump(r);
  EXPECT_EQ(cycle[0]->line, 4u);
  auto nested = with_code(r.documents[0], "nested-index");
  ASSERT_EQ(nested.size(), 1u) << dump(r);
  EXPECT_EQ(nested[0]->level, severity::warning);
  EXPECT_EQ(nested[0]->line, 3u);
}

TEST(Check, ChecksADocumentReachedTwiceOnce) {
  temp_dir t;
  write_file(t / "top.xml", sitemapindex({"https://www.example.com/x.xml",
                                          "https://www.example.com/y.xml"}));
  write_file(t / "x.xml", sitemapindex({"https://www.example.com/s.xml"}));
  write_file(t / "y.xml", sitemapindex({"https://www.example.com/s.xml"}));
  write_file(t / "s.xml", urlset({"https://www.example.com/1"}));
  check_report r = run({t / "top.xml"});
  EXPECT_EQ(sources(r), (std::vector<std::string>{t / "top.xml", t / "x.xml",
                                                  t / "s.xml", t / "y.xml"}))
      << dump(r);
  EXPECT_EQ(count_code(r, "index-cycle"), 0u) << "a shared child is no cycle";
  const auto* y = find_doc(r, t / "y.xml");
  ASSERT_NE(y, nullptr);
  EXPECT_EQ(with_code(*y, "already-checked").size(), 1u) << dump(r);
}

TEST(Check, StopsFollowingBelowTheDepthLimit) {
  temp_dir t;
  write_file(t / "i0.xml", sitemapindex({"https://www.example.com/i1.xml"}));
  write_file(t / "i1.xml", sitemapindex({"https://www.example.com/i2.xml"}));
  write_file(t / "i2.xml", sitemapindex({"https://www.example.com/s.xml"}));
  write_file(t / "s.xml", urlset({"https://www.example.com/1"}));
  struct row {
    std::uint32_t max_depth;
    std::size_t documents;
  };
  for (const row rw : {row{0, 1}, row{1, 2}, row{2, 3}, row{3, 4}}) {
    check_options o;
    o.max_depth = rw.max_depth;
    check_report r = run({t / "i0.xml"}, o);
    EXPECT_EQ(r.documents.size(), rw.documents) << dump(r);
    EXPECT_EQ(count_code(r, "max-depth"), rw.max_depth < 3 ? 1u : 0u)
        << dump(r);
    if (rw.max_depth < 3) {
      const auto& last = r.documents.back();
      ASSERT_EQ(with_code(last, "max-depth").size(), 1u) << dump(r);
      EXPECT_EQ(with_code(last, "max-depth")[0]->line, 3u);
    }
  }
}

// --- caps
// ------------------------------------------------------------------------

TEST(Check, StopsOnceAtTheDocumentCap) {
  temp_dir t;
  std::vector<std::string> children;
  for (int i = 0; i < 6; ++i) {
    const std::string name = "s" + std::to_string(i) + ".xml";
    children.push_back("https://www.example.com/" + name);
    write_file(t / name,
               urlset({"https://www.example.com/" + std::to_string(i)}));
  }
  write_file(t / "index.xml", sitemapindex(children));
  check_options o;
  o.max_documents = 3;
  check_report r = run({t / "index.xml", t / "s5.xml"}, o);
  EXPECT_EQ(r.documents.size(), 3u) << dump(r);
  ASSERT_EQ(count_code(r, "cap-reached"), 1u) << dump(r);
  auto cap = with_code(r.documents[0], "cap-reached");
  ASSERT_EQ(cap.size(), 1u) << "reported in the index, at the first child left";
  EXPECT_EQ(cap[0]->line, 5u);
  EXPECT_FALSE(r.any_unreadable);
}

TEST(Check, StopsOnceAtTheByteCap) {
  temp_dir t;
  for (const char* name : {"a.xml", "b.xml", "c.xml"})
    write_file(t / name, urlset(pages("https://www.example.com/p", 50)));
  check_options o;
  o.max_total_bytes = 100;  // the first document already passes it
  check_report r = run({t / "a.xml", t / "b.xml", t / "c.xml"}, o);
  EXPECT_EQ(r.documents.size(), 2u) << dump(r);
  ASSERT_EQ(with_code(r.documents[1], "cap-reached").size(), 1u) << dump(r);
  EXPECT_EQ(r.documents[1].source, t / "b.xml");
  EXPECT_FALSE(r.documents[1].unreadable) << "a cap is not a broken target";
  EXPECT_FALSE(r.any_unreadable);
}

TEST(Check, StopsAtTheTimeCap) {
  temp_dir t;
  write_file(t / "a.xml", urlset({"https://www.example.com/1"}));
  check_options o;
  o.max_time = std::chrono::seconds(0);
  check_report r = run({t / "a.xml", t / "a.xml"}, o);
  ASSERT_EQ(r.documents.size(), 1u) << dump(r);
  EXPECT_EQ(with_code(r.documents[0], "cap-reached").size(), 1u) << dump(r);
  EXPECT_THAT(r.documents[0].diagnostics[0].message, HasSubstr("`max_time`"));
}

TEST(Check, StopsWhenTheObserverCancels) {
  temp_dir t;
  write_file(t / "a.xml", urlset({"https://www.example.com/1"}));
  write_file(t / "b.xml", urlset({"https://www.example.com/2"}));
  recording_observer obs;
  int polls = 0;
  obs.cancel = [&] { return ++polls > 3; };
  check_report r = check({t / "a.xml", t / "b.xml"}, {}, obs);
  EXPECT_TRUE(r.cancelled);
  EXPECT_LT(r.documents.size(), 2u) << dump(r);
  EXPECT_EQ(count_code(r, "cap-reached"), 0u) << "a cancel is not a cap";
}

// --- hostile input
// -------------------------------------------------------------

// Runs `fn` in a child process and returns its peak resident memory in KiB
// and whether it exited 0, so a test can bound what one check costs.
struct child_run {
  long max_rss_kib = 0;
  bool ok = false;
};
child_run in_child(const std::function<bool()>& fn) {
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(fn() ? 0 : 1);
  int status = 0;
  struct rusage ru {};
  ::wait4(pid, &status, 0, &ru);
  return {ru.ru_maxrss, WIFEXITED(status) && WEXITSTATUS(status) == 0};
}

long own_rss_kib() {
  struct rusage ru {};
  ::getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

// Streams a urlset start and then `expanded` bytes of one <loc>'s text
// through zlib into a .gz file of a few hundred KiB: a bomb five times the
// parser's cap that expands 1000-fold.
void write_gzip_bomb(const std::string& path, std::size_t expanded) {
  gzFile f = gzopen(path.c_str(), "wb6");
  ASSERT_NE(f, nullptr);
  const std::string head =
      "<?xml version=\"1.0\"?><urlset "
      "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>"
      "https://www.example.com/";
  gzwrite(f, head.data(), static_cast<unsigned>(head.size()));
  const std::string block(1 << 20, 'a');
  for (std::size_t done = 0; done < expanded; done += block.size())
    gzwrite(f, block.data(), static_cast<unsigned>(block.size()));
  gzclose(f);
}

// Checklist 25 and E31/E32: each finishes fast in bounded memory, with an
// error, and never follows anything forever.
TEST(Check, FinishesHostileInputQuicklyInBoundedMemory) {
  temp_dir t;
  write_file(t / "xxe.xml",
             "<?xml version=\"1.0\"?>\n"
             "<!DOCTYPE urlset [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n"
             "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
             "<url><loc>https://www.example.com/&xxe;</loc></url></urlset>\n");
  std::string laughs =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n";
  for (int i = 1; i < 10; ++i)
    laughs += "<!ENTITY lol" + std::to_string(i) + " \"" + [&] {
      std::string s;
      for (int k = 0; k < 10; ++k)
        s += "&lol" + (i == 1 ? std::string() : std::to_string(i - 1)) + ";";
      return s;
    }() + "\">\n";
  laughs +=
      "]>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
      "<url><loc>https://www.example.com/&lol9;</loc></url></urlset>\n";
  write_file(t / "laughs.xml", laughs);
  write_gzip_bomb(t / "bomb.xml.gz", std::size_t{256} << 20);
  write_file(t / "loop.xml",
             sitemapindex({"https://www.example.com/loop.xml"}));

  const long base = own_rss_kib();
  for (const char* name :
       {"xxe.xml", "laughs.xml", "bomb.xml.gz", "loop.xml"}) {
    const std::string path = t / name;
    const auto start = std::chrono::steady_clock::now();
    child_run c = in_child([&] {
      check_report r = run({path});
      return r.errors > 0 && !r.any_unreadable && r.documents.size() == 1 &&
             r.documents[0].bytes <= 60u * 1024 * 1024;
    });
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_TRUE(c.ok) << name
                      << ": an error, one document, at most 60 MiB read";
    EXPECT_LT(c.max_rss_kib - base, 256 * 1024) << name;
    EXPECT_LT(took, std::chrono::seconds(60)) << name;
  }
  // The XXE file's content never reaches the report.
  check_report r = run({t / "xxe.xml"});
  for (const auto& g : r.documents.at(0).diagnostics)
    EXPECT_THAT(g.message, ::testing::Not(HasSubstr("root:")));
}

// --- remote

// --- the extensions across the set (docs/protocol.md 3, checklist 14)
// ----------

// A page and its hreflang alternates: (language, URL).
struct page {
  std::string loc;
  std::vector<std::pair<std::string, std::string>> links;
};

// A urlset declaring the xhtml namespace, one <url> per line (page i on
// line i + 3).
std::string alternates(const std::vector<page>& pages) {
  std::string s =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset "
      "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
      "xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n";
  for (const page& p : pages) {
    s += "<url><loc>" + p.loc + "</loc>";
    for (const auto& [lang, href] : p.links)
      s += "<xhtml:link rel=\"alternate\" hreflang=\"" + lang + "\" href=\"" +
           href + "\"/>";
    s += "</url>\n";
  }
  return s + "</urlset>\n";
}

const std::string en = "https://www.example.com/en/";
const std::string de = "https://www.example.com/de/";
const std::string fr = "https://www.example.com/fr/";

TEST(CheckHreflang, JudgesReturnLinksAcrossOneFile) {
  struct row {
    std::string name;
    std::vector<page> pages;
    std::size_t no_return;
  };
  const row rows[] = {
      {"returned",
       {{en, {{"en", en}, {"de", de}}}, {de, {{"en", en}, {"de", de}}}},
       0},
      {"not returned", {{en, {{"en", en}, {"de", de}}}, {de, {{"de", de}}}}, 1},
      {"the other page has no links at all",
       {{en, {{"en", en}, {"de", de}}}, {de, {}}},
       1},
      {"both directions missing",
       {{en, {{"en", en}, {"de", de}}},
        {de, {{"de", de}, {"fr", fr}}},
        {fr, {}}},
       2},
      {"the alternate is not in the set", {{en, {{"en", en}, {"de", de}}}}, 0},
      {"returned under another language",
       {{en, {{"en", en}, {"de", de}}}, {de, {{"de", de}, {"en-GB", en}}}},
       0},
  };
  for (const row& rw : rows) {
    SCOPED_TRACE(rw.name);
    temp_dir t;
    write_file(t / "s.xml", alternates(rw.pages));
    check_report r = run({t / "s.xml"});
    EXPECT_EQ(count_code(r, "hreflang-no-return"), rw.no_return) << dump(r);
    EXPECT_EQ(r.outcome,
              rw.no_return > 0 ? check_outcome::failed : check_outcome::passed)
        << dump(r);
  }
}

TEST(CheckHreflang, NamesBothUrlsAtTheLinkingPagesLine) {
  temp_dir t;
  write_file(t / "s.xml", alternates({{"https://www.example.com/", {}},
                                      {de, {{"de", de}}},
                                      {en, {{"en", en}, {"de", de}}}}));
  check_report r = run({t / "s.xml"});
  ASSERT_EQ(r.documents.size(), 1u);
  const auto found = with_code(r.documents[0], "hreflang-no-return");
  ASSERT_EQ(found.size(), 1u) << dump(r);
  EXPECT_EQ(found[0]->level, severity::error);
  EXPECT_EQ(found[0]->line, 5u) << "the <url> of the page whose link is unmet";
  EXPECT_EQ(found[0]->column, 1u);
  EXPECT_THAT(found[0]->message, HasSubstr("\"" + en + "\" names \"" + de +
                                           "\" as its \"de\" alternate"));
  EXPECT_THAT(found[0]->message, HasSubstr("does not name \"" + en + "\""));
  EXPECT_EQ(r.documents[0].errors, 1u);
  EXPECT_EQ(r.errors, 1u);
}

TEST(CheckHreflang, FollowsAClusterOverTwoChildSitemapsOfAnIndex) {
  for (const bool returned : {true, false}) {
    SCOPED_TRACE(returned);
    temp_dir t;
    write_file(t / "index.xml",
               sitemapindex({"https://www.example.com/en.xml",
                             "https://www.example.com/de.xml"}));
    write_file(t / "en.xml", alternates({{en, {{"en", en}, {"de", de}}}}));
    write_file(
        t / "de.xml",
        alternates(
            {{de,
              returned
                  ? std::vector<std::pair<std::string, std::string>>{{"en", en},
                                                                     {"de", de}}
                  : std::vector<std::pair<std::string, std::string>>{
                        {"de", de}}}}));
    check_options o;
    o.sitemap_url = "https://www.example.com/index.xml";
    check_report r = run({t / "index.xml"}, o);
    ASSERT_EQ(r.documents.size(), 3u) << dump(r);
    const document_report* en_doc = find_doc(r, t / "en.xml");
    ASSERT_NE(en_doc, nullptr);
    EXPECT_EQ(with_code(*en_doc, "hreflang-no-return").size(),
              returned ? 0u : 1u)
        << dump(r);
    EXPECT_EQ(r.errors, returned ? 0u : 1u) << dump(r);
    if (!returned) {
      EXPECT_THAT(with_code(*en_doc, "hreflang-no-return")[0]->message,
                  HasSubstr(de));
    }
  }
}

TEST(CheckHreflang, JudgesAClusterSpreadOverTwoTargets) {
  temp_dir t;
  write_file(t / "en.xml", alternates({{en, {{"en", en}, {"de", de}}}}));
  write_file(t / "de.xml", alternates({{de, {{"de", de}}}}));
  check_report r = run({t / "en.xml", t / "de.xml"});
  EXPECT_EQ(count_code(r, "hreflang-no-return"), 1u) << dump(r);
  EXPECT_EQ(with_code(r.documents[0], "hreflang-no-return").size(), 1u);
}

TEST(CheckHreflang, ReportsTwoUrlsForOneLanguageInACluster) {
  temp_dir t;
  const std::string de2 = "https://www.example.com/de2/";
  write_file(t / "s.xml",
             alternates({{en, {{"en", en}, {"de", de}, {"fr", fr}}},
                         {de, {{"en", en}, {"de", de}, {"fr", fr}}},
                         {fr, {{"en", en}, {"de", de2}, {"fr", fr}}}}));
  check_report r = run({t / "s.xml"});
  const auto conflict = with_code(r.documents[0], "hreflang-conflict");
  ASSERT_EQ(conflict.size(), 1u) << dump(r);
  EXPECT_EQ(conflict[0]->line, 5u);
  EXPECT_THAT(conflict[0]->message, HasSubstr(de2));
  EXPECT_THAT(conflict[0]->message, HasSubstr(de));
}

TEST(CheckHreflang, StopsWholeAtTheCapAndSaysSo) {
  temp_dir t;
  write_file(t / "s.xml", alternates({{en, {{"en", en}, {"de", de}}},
                                      {de, {{"de", de}}},
                                      {fr, {{"fr", fr}, {"de", de}}}}));
  check_options o;
  o.max_hreflang_links = 3;
  check_report r = run({t / "s.xml"}, o);
  EXPECT_EQ(count_code(r, "hreflang-check-stopped"), 1u) << dump(r);
  EXPECT_EQ(count_code(r, "hreflang-no-return"), 0u)
      << "a partial record would call returned links missing";
  // Pages past the cap in a run without links: nothing to say, until a
  // link comes.
  write_file(t / "plain.xml", urlset(pages("https://www.example.com/p", 5)));
  r = run({t / "plain.xml"}, o);
  EXPECT_EQ(count_code(r, "hreflang-check-stopped"), 0u) << dump(r);
  r = run({t / "plain.xml", t / "s.xml"}, o);
  EXPECT_EQ(count_code(r, "hreflang-check-stopped"), 1u) << dump(r);
  EXPECT_EQ(with_code(r.documents[1], "hreflang-check-stopped").size(), 1u);
  o.max_hreflang_links = 5;
  r = run({t / "s.xml"}, o);
  EXPECT_EQ(count_code(r, "hreflang-check-stopped"), 0u) << dump(r);
  EXPECT_EQ(count_code(r, "hreflang-no-return"), 2u) << dump(r);
}

TEST(CheckHreflang, KeepsAboutTwentyFourBytesPerLinkWhileReading) {
  detail::hreflang_set set(std::size_t{1} << 22, std::size_t{1} << 22);
  constexpr std::size_t pages_n = 201'000;  // clusters of three
  const auto href = *find_extension_field(extension_kind::alternate, "@href");
  const auto lang =
      *find_extension_field(extension_kind::alternate, "@hreflang");
  std::vector<std::string> urls;
  for (std::size_t i = 0; i < pages_n; ++i)
    urls.push_back("https://www.example.com/p/" + std::to_string(i));
  const char* langs[] = {"en", "de", "fr"};
  for (std::size_t i = 0; i < pages_n; ++i) {
    std::vector<extension_value> v;
    for (std::uint32_t k = 0; k < 3; ++k) {
      v.push_back({lang, k, langs[k]});
      v.push_back({href, k, urls[(i / 3) * 3 + k]});
    }
    ASSERT_EQ(set.add_page(0, detail::hreflang_set::fingerprint(urls[i]), v),
              detail::hreflang_set::added::ok);
  }
  EXPECT_EQ(set.links(), 3 * pages_n);
  const double per_link = static_cast<double>(set.memory_bytes()) /
                          static_cast<double>(set.links());
  // 24 bytes of record, up to half again of growth, and the page table's
  // 10 to 15 bytes per page (a third of a page per link here).
  EXPECT_LE(per_link, 24 * 1.5 + 15.0 / 3) << per_link;
  std::printf("hreflang: %.1f bytes per link (%zu links, %zu pages)\n",
              per_link, set.links(), set.pages());
  EXPECT_TRUE(set.judge().empty()) << "every cluster of three is complete";
}

// --- the XSD verdict (checklist 28; docs/protocol.md 9.6) --------------------

TEST(CheckSchema, MakesADocumentTheSchemasRejectAnErrorUnlessLenient) {
  const std::string mobile =
      "<m:mobile "
      "xmlns:m=\"http://www.google.com/schemas/sitemap-mobile/1.0\"/>";
  const std::string image20 =
      "<i:image xmlns:i=\"http://www.google.com/schemas/sitemap-image/2.0\">"
      "<i:loc>https://www.example.com/a.jpg</i:loc></i:image>";
  struct row {
    std::string name;
    std::string url;  // the inside of one <url>
    bool schema_invalid;
  };
  const row rows[] = {
      {"valid", "<loc>https://www.example.com/</loc>", false},
      {"out of order",
       "<lastmod>2024-01-01</lastmod><loc>https://www.example.com/</loc>",
       true},
      {"a namespace no schema judges",
       "<loc>https://www.example.com/</loc>" + mobile, false},
      {"a namespace one version off",
       "<loc>https://www.example.com/</loc>" + image20, true},
  };
  for (const row& rw : rows) {
    SCOPED_TRACE(rw.name);
    temp_dir t;
    write_file(t / "s.xml",
               "<?xml version=\"1.0\"?>\n<urlset "
               "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url>" +
                   rw.url + "</url>\n</urlset>\n");
    check_report r = run({t / "s.xml"});
    EXPECT_EQ(count_code(r, "schema-invalid"), rw.schema_invalid ? 1u : 0u)
        << dump(r);
    EXPECT_EQ(r.outcome,
              rw.schema_invalid ? check_outcome::failed : check_outcome::passed)
        << dump(r);
    check_options lenient;
    lenient.lenient_schema = true;
    r = run({t / "s.xml"}, lenient);
    EXPECT_EQ(count_code(r, "schema-invalid"), 0u);
    EXPECT_EQ(r.outcome, check_outcome::passed) << dump(r);
  }
}

TEST(CheckSchema, DecidesTheOutcomeInTheLibrary) {
  temp_dir t;
  write_file(t / "warn.xml", urlset({"https://www.example.com/a",
                                     "https://www.example.com/a"}));
  check_report r = run({t / "warn.xml"});
  EXPECT_EQ(r.outcome, check_outcome::passed);
  check_options strict;
  strict.warnings_as_errors = true;
  EXPECT_EQ(run({t / "warn.xml"}, strict).outcome, check_outcome::failed);
  EXPECT_EQ(run({t / "missing.xml"}).outcome, check_outcome::unreadable);
}

TEST(CheckContext, DocumentsEveryCodeItAddsWithItsSeverity) {
  std::ifstream in(std::string(SITEMILL_SOURCE_DIR) +
                   "/docs/diagnostics-context.md");
  std::stringstream text;
  text << in.rdbuf();
  std::set<std::string> documented;
  std::istringstream lines(text.str());
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("| `")) continue;
    const std::string code = line.substr(3, line.find('`', 3) - 3);
    documented.insert(code);
    const auto* known = find_context_code(code);
    ASSERT_NE(known, nullptr) << code << " is documented but never reported";
    EXPECT_NE(line.find("| " + std::string(to_string(known->level)) + " |"),
              std::string::npos)
        << code;
  }
  for (const auto& c : detail::all_context_codes())
    EXPECT_TRUE(documented.contains(std::string(c.name)))
        << c.name << " is not documented";
}

// ------------------------------------------------------------------------

TEST(CheckRemote, StreamsASitemapAndHoldsItToItsOwnDirectory) {
  http_server server;
  server.route("/shop/sitemap.xml",
               xml_reply(urlset({server.url("/shop/a"), server.url("/shop/b/c"),
                                 server.url("/blog/d")})));
  check_report r = run({server.url("/shop/sitemap.xml")});
  ASSERT_EQ(r.documents.size(), 1u) << dump(r);
  const auto& d = r.documents[0];
  EXPECT_EQ(d.source, server.url("/shop/sitemap.xml"));
  EXPECT_EQ(d.kind, document_kind::urlset);
  EXPECT_EQ(d.urls, 3u);
  EXPECT_GT(d.bytes, 0u);
  auto outside = with_code(d, "outside-location");
  ASSERT_EQ(outside.size(), 1u) << dump(r);
  EXPECT_EQ(outside[0]->line, 5u);
  EXPECT_EQ(r.errors, 1u) << dump(r);
}

// Checklist 41: the URL after redirects is the sitemap's location.
TEST(CheckRemote, UsesTheUrlAfterRedirectsForTheLocationRule) {
  http_server server;
  server.redirect("/old/sitemap.xml", "/new/sitemap.xml");
  server.route("/new/sitemap.xml",
               xml_reply(urlset({server.url("/new/a"), server.url("/old/b")})));
  check_report r = run({server.url("/old/sitemap.xml")});
  ASSERT_EQ(r.documents.size(), 1u) << dump(r);
  const auto& d = r.documents[0];
  auto outside = with_code(d, "outside-location");
  ASSERT_EQ(outside.size(), 1u) << dump(r);
  EXPECT_EQ(outside[0]->line, 4u) << "/old/b is outside /new/, /new/a is not";
  EXPECT_THAT(outside[0]->message, HasSubstr("/new/"));
  auto moved = with_code(d, "redirected");
  ASSERT_EQ(moved.size(), 1u) << dump(r);
  EXPECT_THAT(moved[0]->message, HasSubstr(server.url("/new/sitemap.xml")));
  EXPECT_EQ(d.urls, 2u);
}

TEST(CheckRemote, ReportsATargetAnsweringOtherThan200AsUnreadable) {
  http_server server;
  server.route("/gone.xml", text_reply(410, "<html>gone</html>", "text/html"));
  server.route("/broken.xml", text_reply(500, "oops"));
  http_reply hang;
  hang.close_without_answer = true;
  server.route("/hang.xml", hang);
  struct row {
    std::string path;
    const char* code;
  };
  for (const row& rw :
       {row{"/missing.xml", "http-status"}, row{"/gone.xml", "http-status"},
        row{"/broken.xml", "http-status"}, row{"/hang.xml", "fetch-failed"}}) {
    check_report r = run({server.url(rw.path)});
    ASSERT_EQ(r.documents.size(), 1u) << dump(r);
    EXPECT_TRUE(r.documents[0].unreadable) << rw.path;
    EXPECT_TRUE(r.any_unreadable);
    ASSERT_EQ(r.documents[0].diagnostics.size(), 1u) << dump(r);
    EXPECT_EQ(r.documents[0].diagnostics[0].code, rw.code) << dump(r);
    EXPECT_EQ(r.documents[0].urls, 0u)
        << "an error page is not parsed as the sitemap";
  }
}

TEST(CheckRemote,
     ChecksAFetchedIndexsChildrenAndReportsFailingOnesAtTheirLine) {
  http_server server;
  server.route("/index.xml", xml_reply(sitemapindex({server.url("/a.xml"),
                                                     server.url("/missing.xml"),
                                                     server.url("/b.txt")})));
  server.route("/a.xml",
               xml_reply(urlset({server.url("/1"), server.url("/2")})));
  server.route("/b.txt", text_reply(200, server.url("/3") + "\n"));
  check_report r = run({server.url("/index.xml")});
  EXPECT_EQ(sources(r), (std::vector<std::string>{server.url("/index.xml"),
                                                  server.url("/a.xml"),
                                                  server.url("/b.txt")}))
      << dump(r);
  auto status = with_code(r.documents[0], "http-status");
  ASSERT_EQ(status.size(), 1u) << dump(r);
  EXPECT_EQ(status[0]->line, 4u);
  EXPECT_THAT(status[0]->message, HasSubstr("404"));
  EXPECT_FALSE(r.any_unreadable) << "a child's failure is its index's error";
  EXPECT_EQ(r.errors, 1u) << dump(r);
  EXPECT_EQ(r.documents[2].kind, document_kind::text);
}

TEST(CheckRemote, FetchesNothingBeyondTheIndexsHost) {
  http_server server;
  const std::string other =
      "http://localhost:" + std::to_string(server.port()) + "/a.xml";
  server.route("/index.xml", xml_reply(sitemapindex({other})));
  check_report r = run({server.url("/index.xml")});
  EXPECT_EQ(r.documents.size(), 1u) << dump(r);
  EXPECT_EQ(server.count("/a.xml"), 0u);
  EXPECT_EQ(with_code(r.documents[0], "outside-location").size(), 1u)
      << dump(r);
}

TEST(CheckRemote, CatchesACycleThroughARedirect) {
  http_server server;
  server.route("/index.xml",
               xml_reply(sitemapindex(
                   {server.url("/a.xml"), server.url("/alias.xml")})));
  server.route("/a.xml", xml_reply(urlset({server.url("/1")})));
  server.redirect("/alias.xml", "/index.xml");
  check_report r = run({server.url("/index.xml")});
  EXPECT_EQ(sources(r), (std::vector<std::string>{server.url("/index.xml"),
                                                  server.url("/a.xml")}))
      << dump(r);
  auto cycle = with_code(r.documents[0], "index-cycle");
  ASSERT_EQ(cycle.size(), 1u) << dump(r);
  EXPECT_EQ(cycle[0]->line, 4u);
  EXPECT_EQ(server.count("/index.xml"), 2u) << "fetched once more, never again";
}

// docs/protocol.md 5: Sitemap: lines are case-insensitive, deduplicated, and a
// relative one is reported.
TEST(CheckRemote, FindsASitesSitemapsThroughRobotsTxt) {
  http_server server;
  server.route("/robots.txt", text_reply(200,
                                         "User-agent: *\nDisallow: /private/\n"
                                         "sitemap: " +
                                             server.url("/a.xml") +
                                             "\n"
                                             "Sitemap: /b.xml\n"
                                             "SITEMAP: " +
                                             server.url("/a.xml") + "\n"));
  server.route("/a.xml", xml_reply(urlset({server.url("/1")})));
  server.route("/b.xml", xml_reply(urlset({server.url("/2")})));
  check_report r = run({server.url("/")});
  EXPECT_EQ(sources(r), (std::vector<std::string>{server.url("/robots.txt"),
                                                  server.url("/a.xml"),
                                                  server.url("/b.xml")}))
      << dump(r);
  const auto& robots = r.documents[0];
  EXPECT_TRUE(robots.robots_txt);
  EXPECT_EQ(robots.kind, document_kind::text);
  EXPECT_EQ(robots.urls, 2u);
  EXPECT_GE(robots.errors + robots.warnings, 1u)
      << "the relative value is reported\n"
      << dump(r);
  EXPECT_EQ(server.count("/a.xml"), 1u);
  EXPECT_EQ(r.documents[1].parent, server.url("/robots.txt"));
  EXPECT_FALSE(r.any_unreadable);
}

// RFC 9309 2.5: check reads a fetched robots.txt as find_sitemaps() reads the
// whole file, on both sides of the parsing limit: the same sitemaps, and the
// same findings word for word.
TEST(CheckRemote, ReadsRobotsTxtToTheSameLimitAsTheFinder) {
  http_server server;
  server.route("/a.xml", xml_reply(urlset({server.url("/1")})));
  server.route("/sitemap.xml", xml_reply(urlset({server.url("/1")})));
  const std::string record = "Sitemap: " + server.url("/a.xml");
  // `record` ends `end` bytes into the file, then more follows up to `size`.
  auto body = [&](std::size_t end, std::size_t size) {
    std::string s;
    while (s.size() + 66 + record.size() <= end)
      s += "#" + std::string(62, '-') + "\n";
    s += "#" + std::string(end - record.size() - s.size() - 2, '-') + "\n";
    s += record + "\n";
    if (s.size() < size)
      s += "#" + std::string(size - s.size() - 2, '-') + "\n";
    return s;
  };
  constexpr std::size_t limit = max_robots_txt_bytes;
  const struct {
    std::size_t end, size;
    std::size_t sitemaps;
  } cases[] = {
      {limit - 1, limit, 1},      // read whole
      {limit, limit + 1, 1},      // its line end is the byte past the limit
      {limit + 1, limit + 2, 0},  // cut by the limit: dropped
      {limit, 600'000, 1},        // far larger than what is kept
      {limit + 10, 600'000, 0},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::to_string(c.end) + " of " + std::to_string(c.size));
    const std::string text = body(c.end, c.size);
    ASSERT_EQ(text.size(), c.size);
    ASSERT_EQ(text.find(record) + record.size(), c.end);
    server.route("/robots.txt", text_reply(200, text));
    const robots_sitemaps whole =
        find_sitemaps(text, server.url("/robots.txt"));
    EXPECT_EQ(whole.sitemaps.size(), c.sitemaps);
    check_report r = run({server.url("/")});
    ASSERT_FALSE(r.documents.empty());
    const auto& robots = r.documents[0];
    ASSERT_TRUE(robots.robots_txt);
    EXPECT_EQ(robots.urls, whole.sitemaps.size()) << dump(r);
    std::vector<std::string> seen, expected;
    for (const auto& d : robots.diagnostics)
      if (d.code.starts_with("robots-"))
        seen.push_back(std::to_string(d.line) + " " + d.code + " " + d.message);
    for (const auto& d : whole.diagnostics)
      expected.push_back(std::to_string(d.line) + " " + d.code + " " +
                         d.message);
    EXPECT_EQ(seen, expected) << dump(r);
  }
}

TEST(CheckRemote, FallsBackToSitemapXmlWithoutSitemapLines) {
  struct row {
    http_reply robots;
    const char* code;
  };
  for (const row& rw :
       {row{text_reply(404, "no"), "robots-txt-missing"},
        row{text_reply(200, "User-agent: *\nAllow: /\n"), "no-sitemap-line"}}) {
    http_server server;
    server.route("/robots.txt", rw.robots);
    server.route("/sitemap.xml", xml_reply(urlset({server.url("/1")})));
    check_report r = run({server.url("")}, {});
    EXPECT_EQ(sources(r),
              (std::vector<std::string>{server.url("/robots.txt"),
                                        server.url("/sitemap.xml")}))
        << dump(r);
    ASSERT_FALSE(r.documents.empty());
    auto note = with_code(r.documents[0], rw.code);
    ASSERT_EQ(note.size(), 1u) << dump(r);
    EXPECT_EQ(note[0]->level, severity::info);
    EXPECT_EQ(r.errors, 0u) << dump(r);
  }
}

TEST(CheckRemote, ReportsASiteWithoutAnySitemap) {
  http_server server;
  check_report r = run({server.url("/")});
  ASSERT_EQ(r.documents.size(), 1u) << dump(r);
  EXPECT_EQ(with_code(r.documents[0], "no-sitemap-found").size(), 1u)
      << dump(r);
  EXPECT_EQ(r.errors, 1u);
  EXPECT_EQ(server.count("/sitemap.xml"), 1u);
}

TEST(CheckRemote, ReportsASiteThatCannotBeReachedAsUnreadable) {
  std::uint16_t port;
  {
    http_server gone;
    port = gone.port();
  }
  check_report r = run({"http://127.0.0.1:" + std::to_string(port) + "/"});
  ASSERT_EQ(r.documents.size(), 1u) << dump(r);
  EXPECT_TRUE(r.any_unreadable);
  EXPECT_EQ(with_code(r.documents[0], "fetch-failed").size(), 1u) << dump(r);
}

// docs/protocol.md 1.7: a sitemap on another host, named by a site's
// robots.txt, lists that site's URLs.
TEST(CheckRemote, HoldsACrossSubmittedSitemapToTheSiteNamingIt) {
  http_server server;
  const std::string elsewhere =
      "http://localhost:" + std::to_string(server.port()) + "/site1.xml";
  server.route("/robots.txt", text_reply(200, "Sitemap: " + elsewhere + "\n"));
  server.route("/site1.xml",
               xml_reply(urlset({server.url("/a"), server.url("/b"),
                                 "http://localhost:" +
                                     std::to_string(server.port()) + "/c"})));
  check_report r = run({server.url("/")});
  ASSERT_EQ(r.documents.size(), 2u) << dump(r);
  auto outside = with_code(r.documents[1], "outside-location");
  ASSERT_EQ(outside.size(), 1u) << dump(r);
  EXPECT_EQ(outside[0]->line, 5u) << "only the URL on the sitemap's own host";
}

TEST(CheckRemote, NotesAContentTypeThatDoesNotFit) {
  http_server server;
  server.route("/a.xml",
               text_reply(200, urlset({server.url("/1")}), "text/html"));
  server.route("/b.xml", xml_reply(urlset({server.url("/1")})));
  server.route("/c.txt", text_reply(200, server.url("/1") + "\n"));
  http_reply gz = text_reply(200, testing::gzip(urlset({server.url("/1")})),
                             "application/x-gzip");
  server.route("/d.xml.gz", gz);
  check_report r = run({server.url("/a.xml"), server.url("/b.xml"),
                        server.url("/c.txt"), server.url("/d.xml.gz")});
  ASSERT_EQ(r.documents.size(), 4u) << dump(r);
  EXPECT_EQ(with_code(r.documents[0], "content-type").size(), 1u) << dump(r);
  EXPECT_EQ(with_code(r.documents[1], "content-type").size(), 0u) << dump(r);
  EXPECT_EQ(with_code(r.documents[2], "content-type").size(), 0u) << dump(r);
  EXPECT_EQ(with_code(r.documents[3], "content-type").size(), 0u) << dump(r);
  EXPECT_EQ(r.documents[3].kind, document_kind::urlset);
  EXPECT_EQ(r.errors, 0u) << dump(r);
}

TEST(CheckRemote, ReadsGzipOnTheWireAndChunkedBodies) {
  http_server server;
  http_reply wire = xml_reply(urlset(pages(server.url("/p"), 300)));
  wire.gzip = true;
  server.route("/wire.xml", wire);
  http_reply chunked = xml_reply(urlset(pages(server.url("/q"), 300)));
  chunked.chunked = true;
  chunked.chunk_size = 7;
  server.route("/chunked.xml", chunked);
  check_report r = run({server.url("/wire.xml"), server.url("/chunked.xml")});
  ASSERT_EQ(r.documents.size(), 2u) << dump(r);
  EXPECT_EQ(r.documents[0].urls, 300u);
  EXPECT_EQ(r.documents[1].urls, 300u);
  EXPECT_EQ(r.errors, 0u) << dump(r);
}

TEST(CheckRemote, SendsAUserAgentNamingSitemill) {
  http_server server;
  server.route("/a.xml", xml_reply(urlset({server.url("/1")})));
  (void)run({server.url("/a.xml")});
  check_options o;
  o.http.user_agent = "custom-bot/1.0";
  (void)run({server.url("/a.xml")}, o);
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_THAT(reqs[0].header("User-Agent").value_or(""),
              HasSubstr("sitemill/"));
  EXPECT_EQ(reqs[1].header("User-Agent").value_or(""), "custom-bot/1.0");
}

TEST(CheckRemote, StopsAtTheTimeCapDuringASlowResponse) {
  http_server server;
  http_reply slow = xml_reply(urlset({server.url("/1")}));
  slow.delay = std::chrono::milliseconds(30'000);
  server.route("/slow.xml", slow);
  check_options o;
  o.max_time = std::chrono::seconds(1);
  const auto start = std::chrono::steady_clock::now();
  check_report r = run({server.url("/slow.xml")}, o);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  ASSERT_EQ(r.documents.size(), 1u) << dump(r);
  EXPECT_EQ(with_code(r.documents[0], "cap-reached").size(), 1u) << dump(r);
  EXPECT_FALSE(r.any_unreadable);
}

TEST(CheckRemote, FetchesALocalIndexsMissingChildrenOnlyWhenAsked) {
  http_server server;
  temp_dir t;
  write_file(t / "index.xml", sitemapindex({server.url("/remote.xml")}));
  server.route("/remote.xml", xml_reply(urlset({server.url("/1")})));
  check_report quiet = run({t / "index.xml"});
  EXPECT_EQ(count_code(quiet, "child-not-found"), 1u) << dump(quiet);
  EXPECT_EQ(server.count("/remote.xml"), 0u) << "no network unless asked";
  check_options o;
  o.fetch_children = true;
  // Issue 34: the loopback server is a private address no target names.
  check_report refused = run({t / "index.xml"}, o);
  EXPECT_EQ(count_code(refused, "fetch-failed"), 1u) << dump(refused);
  EXPECT_EQ(server.count("/remote.xml"), 0u);
  o.allow_private = true;
  check_report r = run({t / "index.xml"}, o);
  EXPECT_EQ(sources(r), (std::vector<std::string>{t / "index.xml",
                                                  server.url("/remote.xml")}))
      << dump(r);
  EXPECT_EQ(r.errors, 0u) << dump(r);
}

}  // namespace
}  // namespace sitemill
