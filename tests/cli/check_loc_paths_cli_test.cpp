// `sitemill check` reads a plain http(s) <loc> once, through a fast path
// (value_checks.cpp: plain_http_host_end), and every other one through the
// general scheme/host split. Both must say exactly what the general reading
// says. tests/data/loc_paths/ holds URLs on either side of the fast path's
// edges (scheme and host case, IDN and punycode hosts, ports of 0 to 6
// digits, user info, percent-encoding in host and path, fragments,
// brackets, odd schemes, relative references, Unicode spaces), as a urlset,
// a text sitemap and an RSS feed; each *.expected is the report the check
// gave before the fast path existed, and must stay byte for byte the same.
// The inputs are plain files: to add a case, add its line to each and write
// the new report only from a build without the change being tested.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/run.h"

namespace sitemill::testing {
namespace {

std::string data_dir() {
  return std::string(SITEMILL_SOURCE_DIR) + "/tests/data/loc_paths";
}

// docs/protocol.md checklist 29-31 and 6.D 37-38: the loc rules and the
// host and duplicate rules that read the same URLs.
TEST(CheckLocPaths, ReportsEveryEdgeOfTheFastPathAsBefore) {
  for (const char* name : {"sitemap.xml", "urls.txt", "feed.rss"}) {
    SCOPED_TRACE(name);
    run_options o;
    o.cwd = data_dir();
    const run_result r = run_sitemill({"check", name}, o);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const std::vector<std::string> got = split_lines(r.out);
    const std::vector<std::string> want =
        split_lines(read_file(data_dir() + "/" + name + ".expected"));
    ASSERT_EQ(got.size(), want.size()) << r.out;
    for (std::size_t i = 0; i < want.size(); ++i)
      EXPECT_EQ(got[i], want[i]) << "line " << i + 1;
  }
}

// The location rule (docs/protocol.md 1.6) compares each URL, normalised,
// with the sitemap's directory; the normalisation remembers the origins it
// has seen (origin_memo). scope.xml holds URLs in, out and around
// https://www.example.com/dir/: dot segments written and percent-encoded,
// case in scheme, host and path, default and other ports, a trailing dot,
// credentials, backslashes, a query that names the directory.
TEST(CheckLocPaths, AppliesTheLocationRuleAsBefore) {
  run_options o;
  o.cwd = data_dir();
  const run_result r =
      run_sitemill({"check", "--sitemap-url",
                    "https://www.example.com/dir/sitemap.xml", "scope.xml"},
                   o);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out, read_file(data_dir() + "/scope.xml.expected"));
}

// URLs at the protocol's length limits and at the parser's 65,536-byte field
// cap (read, and one byte over: not read), on the first host and on another,
// with a fragment: the fast path reads their authority, the scan their
// length. long.xml.expected is the report from before the fast path.
TEST(CheckLocPaths, ReportsURLsAtTheLengthLimitsAndTheFieldCapAsBefore) {
  temp_dir t;
  const std::string base = "https://www.example.com/";
  const std::string shop = "https://shop.example.com/";
  std::vector<std::string> locs;
  for (const std::size_t n : {2047, 2048, 2049, 65536, 65537})
    locs.push_back(base + std::string(n - base.size(), 'a'));
  locs.push_back(shop + std::string(65536 - shop.size(), 'b'));
  locs.push_back(base + std::string(65536 - base.size() - 2, 'c') + "#f");
  write_file(t / "long.xml", urlset(locs));
  run_options o;
  o.cwd = t.path();
  const run_result r = run_sitemill({"check", "long.xml"}, o);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out, read_file(data_dir() + "/long.xml.expected"));
}

// The fast path's edges must be crossed in the inputs, or the comparison
// above proves nothing: some locs take it, some leave it at each edge.
TEST(CheckLocPaths, TheInputsCrossEachEdgeOfTheFastPath) {
  const std::string xml = read_file(data_dir() + "/sitemap.xml");
  for (const char* loc : {
           "HTTPS://WWW.EXAMPLE.COM/b",          // taken: scheme case
           "https://www.example.com:65535/j",    // taken: 5-digit port
           "https://www.example.com:123456/k",   // left: 6-digit port
           "https://www.example.com:/l",         // left: empty port
           "https://user:pw@www.example.com/n",  // left: user info
           "https://www.ex%41mple.com/r",        // left: '%' in the host
           "https://b\xC3\xBC"
           "cher.example/x",               // taken: non-ASCII host
           "https://[::1]:8080/z2",        // left: IP literal
           "https://www.example.com#top",  // taken: fragment at once
           "https:///v2",                  // left: no host
           "httpx://www.example.com/v5",   // left: other scheme
       })
    EXPECT_NE(xml.find(std::string("<loc>") + loc + "</loc>"),
              std::string::npos)
        << loc;
}

}  // namespace
}  // namespace sitemill::testing
