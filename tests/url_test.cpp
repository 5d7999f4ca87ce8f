// Tests for URL normalisation (RFC 3986), the components of a normalised URL
// and the sitemaps.org location rule. Every accepted case is also normalised
// a second time, with and without the base, and must come back unchanged
// (normalisation is idempotent), and its components must fit together.
#include "sitemill/url/url.h"

#include <gtest/gtest.h>

#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/limits.h"

namespace sitemill {
// Internal linkage keeps this printer private to this test file.
[[maybe_unused]] static void PrintTo(url_problem p, std::ostream* os) {
  *os << static_cast<int>(p) << " (" << describe(p) << ")";
}
}  // namespace sitemill

namespace {

using namespace std::literals;
using sitemill::describe;
using sitemill::has_http_scheme;
using sitemill::normalize_url;
using sitemill::normalized_url;
using sitemill::percent_decode;
using sitemill::resolve_url;
using sitemill::same_host;
using sitemill::url_normalizer;
using sitemill::url_notes;
using sitemill::url_problem;
using sitemill::within_scope;

url_normalizer Base(std::string_view base) {
  auto n = url_normalizer::with_base(base);
  EXPECT_TRUE(n.has_value()) << base << ": " << n.err().message;
  return n.has_value() ? std::move(n).value() : url_normalizer{};
}

// Every component of `u` as one string, to compare two URLs' components.
std::string Components(const normalized_url& u) {
  std::string s;
  for (std::string_view part :
       {u.href(), u.scheme(), u.host(), u.authority(), u.origin(), u.path(),
        u.query(), u.path_and_query(), u.scope_directory()})
    s.append(part).push_back('|');
  s += std::to_string(u.port()) + (u.has_port() ? "+" : "-");
  s += u.is_https() ? "s" : "";
  return s;
}

// The components of a normalised URL fit together, whatever path made it.
void ExpectConsistent(const normalized_url& u) {
  SCOPED_TRACE(testing::Message() << "href \"" << u.href() << "\"");
  const std::string_view href = u.href();
  EXPECT_EQ(std::string(u.origin()) + std::string(u.path_and_query()), href);
  EXPECT_EQ(std::string(u.path()) + std::string(u.query()), u.path_and_query());
  EXPECT_EQ(std::string(u.scheme()) + "://" + std::string(u.authority()),
            u.origin());
  EXPECT_EQ(u.is_https(), u.scheme() == "https");
  EXPECT_TRUE(u.scheme() == "http" || u.scheme() == "https");
  EXPECT_EQ(u.authority(), u.has_port() ? std::string(u.host()) + ":" +
                                              std::to_string(u.port())
                                        : std::string(u.host()));
  if (!u.has_port()) {
    EXPECT_EQ(u.port(), u.is_https() ? 443 : 80);
  }
  EXPECT_FALSE(u.host().empty());
  EXPECT_TRUE(u.path().starts_with('/'));
  EXPECT_TRUE(u.query().empty() || u.query().starts_with('?'));
  EXPECT_TRUE(href.starts_with(u.scope_directory()));
  EXPECT_TRUE(u.scope_directory().ends_with('/'));
  EXPECT_TRUE(u.scope_directory().starts_with(u.origin()));
  EXPECT_TRUE(within_scope(u, u));
}

// `in` normalises to `want` through `n`, into a string and into a
// normalized_url whose components fit together; normalising `want` again
// (with `n` and with no base at all) gives `want` back, with the same
// components.
void Accepts(const url_normalizer& n, std::string_view in,
             std::string_view want) {
  SCOPED_TRACE(testing::Message()
               << "base \"" << n.base() << "\", input \"" << in << "\"");
  std::string out;
  ASSERT_EQ(n.normalize(in, out), url_problem::ok);
  EXPECT_EQ(out, want);
  const std::string first = out;
  std::string again;
  EXPECT_EQ(n.normalize(first, again), url_problem::ok);
  EXPECT_EQ(again, first);
  EXPECT_EQ(normalize_url(first, again), url_problem::ok);
  EXPECT_EQ(again, first);

  normalized_url url;
  ASSERT_EQ(n.normalize(in, url), url_problem::ok);
  EXPECT_EQ(url.href(), want);
  ExpectConsistent(url);
  normalized_url reread;
  ASSERT_EQ(normalize_url(first, reread), url_problem::ok);
  EXPECT_EQ(Components(reread), Components(url));
  ASSERT_EQ(n.normalize(first, reread), url_problem::ok);
  EXPECT_EQ(Components(reread), Components(url));
}

// With no base, the free function and a base-less normalizer must agree.
void Accepts(std::string_view in, std::string_view want) {
  Accepts(url_normalizer{}, in, want);
  std::string out;
  EXPECT_EQ(normalize_url(in, out), url_problem::ok) << in;
  EXPECT_EQ(out, want) << in;
}

void Rejects(const url_normalizer& n, std::string_view in, url_problem want) {
  std::string out;
  EXPECT_EQ(n.normalize(in, out), want)
      << "base \"" << n.base() << "\", input \"" << in << "\", out \"" << out
      << "\"";
  normalized_url url;
  EXPECT_EQ(n.normalize(in, url), want) << in;
  EXPECT_EQ(url.empty(), want != url_problem::ok) << in;
}

void Rejects(std::string_view in, url_problem want) {
  Rejects(url_normalizer{}, in, want);
  std::string out;
  EXPECT_EQ(normalize_url(in, out), want) << in;
  normalized_url url;
  EXPECT_EQ(normalize_url(in, url), want) << in;
  EXPECT_EQ(url.empty(), want != url_problem::ok) << in;
}

// `s`, which must normalise, as a normalized_url.
normalized_url Url(std::string_view s) {
  normalized_url u;
  EXPECT_EQ(normalize_url(s, u), url_problem::ok) << s;
  return u;
}

struct Case {
  std::string_view in;
  std::string_view want;
};

struct Refusal {
  std::string_view in;
  url_problem want;
};

// RFC 3986 6.2.2.1: scheme and host are case-insensitive; the path is not.
TEST(Url, LowercasesSchemeAndHostButNotPath) {
  const Case cases[] = {
      {"HTTP://WWW.EXAMPLE.COM/", "http://www.example.com/"},
      {"HtTpS://Example.Com/Path/To/Page", "https://example.com/Path/To/Page"},
      {"https://EXAMPLE.com/?Q=Value", "https://example.com/?Q=Value"},
      {"http://Under_Score.Example/", "http://under_score.example/"},
  };
  for (const auto& c : cases) Accepts(c.in, c.want);
}

// RFC 3986 6.2.3: the scheme's default port and an empty port are the same
// as no port (3.2.3 allows "host:"); any other port stays.
TEST(Url, DropsDefaultAndEmptyPortsButKeepsOthers) {
  const Case cases[] = {
      {"http://example.com:80/", "http://example.com/"},
      {"https://example.com:443/", "https://example.com/"},
      {"http://example.com:/", "http://example.com/"},
      {"https://example.com:/a", "https://example.com/a"},
      {"http://example.com:443/", "http://example.com:443/"},
      {"https://example.com:80/", "https://example.com:80/"},
      {"http://example.com:8080/", "http://example.com:8080/"},
      {"http://example.com:0080/", "http://example.com/"},
      {"https://example.com:08443/", "https://example.com:8443/"},
      {"http://example.com:65535/", "http://example.com:65535/"},
      {"http://example.com:8080?q", "http://example.com:8080/?q"},
  };
  for (const auto& c : cases) Accepts(c.in, c.want);
}

// RFC 3986 6.2.3: an empty path is "/" for http(s).
TEST(Url, GivesAnEmptyPathASlash) {
  const Case cases[] = {
      {"http://example.com", "http://example.com/"},
      {"https://example.com?a=b", "https://example.com/?a=b"},
      {"https://example.com#top", "https://example.com/"},
  };
  for (const auto& c : cases) Accepts(c.in, c.want);
}

// RFC 3986 5.2.4, with the examples of 5.2.4 and 5.4.2 written as absolute
// URLs (the host is longer than RFC's "a" so results reach 12 characters).
TEST(Url, RemovesDotSegments) {
  const Case cases[] = {
      {"http://a.example/a/b/c/./../../g", "http://a.example/a/g"},
      {"http://a.example/mid/content=5/../6", "http://a.example/mid/6"},
      {"http://a.example/b/c/../g", "http://a.example/b/g"},
      {"http://a.example/../../../g", "http://a.example/g"},
      {"http://a.example/./g", "http://a.example/g"},
      {"http://a.example/../g", "http://a.example/g"},
      {"http://a.example/.", "http://a.example/"},
      {"http://a.example/..", "http://a.example/"},
      {"http://a.example/a/..", "http://a.example/"},
      {"http://a.example/a/b/.", "http://a.example/a/b/"},
      {"http://a.example/a/b/..", "http://a.example/a/"},
      {"http://a.example/a//../b", "http://a.example/a/b"},
      {"http://a.example/a/./b/./", "http://a.example/a/b/"},
      {"http://a.example/g./.g/g../..g/...",
       "http://a.example/g./.g/g../..g/..."},
      {"http://a.example/.hidden/x", "http://a.example/.hidden/x"},
      {"http://a.example/index.html", "http://a.example/index.html"},
      // Dot segments in the query are data (5.2.4 applies to the path only).
      {"http://a.example/g?y/./x", "http://a.example/g?y/./x"},
      {"http://a.example/g?y/../x", "http://a.example/g?y/../x"},
  };
  for (const auto& c : cases) Accepts(c.in, c.want);
}

// RFC 3986 2.3 and 6.2.2.2: %2E is an unreserved '.', so it forms dot
// segments once decoded.
TEST(Url, RemovesDotSegmentsSpelledWithPercent2E) {
  const Case cases[] = {
      {"http://a.example/b/%2E%2E/c", "http://a.example/c"},
      {"http://a.example/b/%2e/c", "http://a.example/b/c"},
      {"http://a.example/b/.%2e/c", "http://a.example/c"},
      {"http://a.example/b/%2E", "http://a.example/b/"},
      {"http://a.example/b/%2E%2E%2E/c", "http://a.example/b/.../c"},
  };
  for (const auto& c : cases) Accepts(c.in, c.want);
}

// RFC 3986 2.1, 2.4 and 3.3: every byte outside pchar is percent-encoded with
// uppercase hex; '[' and ']' are allowed only around an IPv6 host (3.2.2).
TEST(Url, PercentEncodesEachCharacterAUriCannotContain) {
  const Case cases[] = {
      {"http://example.com/a b", "http://example.com/a%20b"},
      {"http://example.com/a\"b", "http://example.com/a%22b"},
      {"http://example.com/a<b", "http://example.com/a%3Cb"},
      {"http://example.com/a>b", "http://example.com/a%3Eb"},
      {"http://example.com/a\\b", "http://example.com/a%5Cb"},
      {"http://example.com/a^b", "http://example.com/a%5Eb"},
      {"http://example.com/a`b", "http://example.com/a%60b"},
      {"http://example.com/a{b", "http://example.com/a%7Bb"},
      {"http://example.com/a|b", "http://example.com/a%7Cb"},
      {"http://example.com/a}b", "http://example.com/a%7Db"},
      {"http://example.com/a[b", "http://example.com/a%5Bb"},
      {"http://example.com/a]b", "http://example.com/a%5Db"},
      {"http://example.com/?q=[1]", "http://example.com/?q=%5B1%5D"},
      {"http://example.com/ a \"<>\" ",
       "http://example.com/%20a%20%22%3C%3E%22"},
  };
  for (const auto& c : cases) Accepts(c.in, c.want);
}

// RFC 3986 3.3: sub-delims, ':' and '@' are pchar; XML escaping of '&' and
// '\'' happens when the sitemap is written, not here.
TEST(Url, KeepsSubDelimsAndPcharAsWritten) {
  const Case cases[] = {
      {"http://example.com/it's", "http://example.com/it's"},
      {"http://example.com/a&b=c+d,e;f", "http://example.com/a&b=c+d,e;f"},
      {"http://example.com/!$()*", "http://example.com/!$()*"},
      {"http://example.com/a:b@c", "http://example.com/a:b@c"},
      {"http://example.com/-._~", "http://example.com/-._~"},
      {"http://example.com/?a=1&b='2'&c=(3)",
       "http://example.com/?a=1&b='2'&c=(3)"},
  };
  for (const auto& c : cases) Accepts(c.in, c.want);
}

// RFC 3986 6.2.2.1 (uppercase hex) and 6.2.2.2 (decode unreserved only): a
// valid escape is never encoded twice.
TEST(Url, NormalisesValidPercentEscapesWithoutDoubleEncoding) {
  const Case cases[] = {
      {"http://example.com/%41", "http://example.com/A"},
      {"http://example.com/%7e%2D%5F%2e%30", "http://example.com/~-_.0"},
      {"http://example.com/a%2fb", "http://example.com/a%2Fb"},
      {"http://example.com/%c3%bc", "http://example.com/%C3%BC"},
      {"http://example.com/%C3%BC", "http://example.com/%C3%BC"},
      {"http://example.com/100%25", "http://example.com/100%25"},
      {"http://example.com/a%20b", "http://example.com/a%20b"},
      {"http://example.com/?q=%3d%26", "http://example.com/?q=%3D%26"},
      {"http://example.com/?q=%41", "http://example.com/?q=A"},
  };
  for (const auto& c : cases) Accepts(c.in, c.want);
}

// RFC 3986 2.4: a '%' that does not start "%" HEXDIG HEXDIG is data.
TEST(Url, EncodesAPercentSignThatStartsNoEscape) {
  const Case cases[] = {
      {"http://example.com/%", "http://example.com/%25"},
      {"http://example.com/%4", "http://example.com/%254"},
      {"http://example.com/%zz", "http://example.com/%25zz"},
      {"http://example.com/%4g", "http://example.com/%254g"},
      {"http://example.com/%%41", "http://example.com/%25A"},
      {"http://example.com/50%off", "http://example.com/50%25off"},
      {"http://example.com/?p=%", "http://example.com/?p=%25"},
  };
  for (const auto& c : cases) Accepts(c.in, c.want);
}

// sitemaps.org "Entity escaping": non-ASCII is written as its UTF-8 bytes,
// each percent-encoded (RFC 3987 3.1).
TEST(Url, EncodesNonAsciiAsPercentEncodedUtf8) {
  const Case cases[] = {
      {"http://example.com/ü", "http://example.com/%C3%BC"},
      {"http://www.example.com/ümlat.php&q=name",
       "http://www.example.com/%C3%BCmlat.php&q=name"},
      {"http://example.com/日本", "http://example.com/%E6%97%A5%E6%9C%AC"},
      {"http://example.com/?q=€", "http://example.com/?q=%E2%82%AC"},
      {"http://example.com/\xF0\x9F\x98\x80",
       "http://example.com/%F0%9F%98%80"},
      {"http://example.com/a\xC2\xA0"
       "b",
       "http://example.com/a%C2%A0b"},
  };
  for (const auto& c : cases) Accepts(c.in, c.want);
}

// Keep query text: no reordering, no '+' decoding, an empty "?" stays.
TEST(Url, KeepsQueryTextApartFromEncoding) {
  const Case cases[] = {
      {"http://example.com/?b=2&a=1", "http://example.com/?b=2&a=1"},
      {"http://example.com/?q=a+b", "http://example.com/?q=a+b"},
      {"http://example.com/?", "http://example.com/?"},
      {"http://example.com/p?a/b?c", "http://example.com/p?a/b?c"},
      {"http://example.com/?q=a b", "http://example.com/?q=a%20b"},
      {"http://example.com/?x=<y>", "http://example.com/?x=%3Cy%3E"},
  };
  for (const auto& c : cases) Accepts(c.in, c.want);
}

// RFC 3986 3.2.2 with RFC 5891 (IDNA2008) via UTS #46 non-transitional
// processing, falling back to transitional for IDNA2003-only names.
TEST(Url, ConvertsInternationalHostsToPunycode) {
  const Case cases[] = {
      {"http://bücher.example/", "http://xn--bcher-kva.example/"},
      {"http://BÜCHER.Example/", "http://xn--bcher-kva.example/"},
      {"http://bücher.example./", "http://xn--bcher-kva.example/"},
      {"https://bücher.example:8443/ü",
       "https://xn--bcher-kva.example:8443/%C3%BC"},
      {"http://faß.de/", "http://xn--fa-hia.de/"},
      {"http://\xF0\x9F\x92\xA9.la/", "http://xn--ls8h.la/"},
      {"http://ｅｘａｍｐｌｅ.com/", "http://example.com/"},
      {"http://xn--bcher-kva.example/", "http://xn--bcher-kva.example/"},
  };
  for (const auto& c : cases) Accepts(c.in, c.want);
}

// RFC 3986 3.2.2: IPv4 addresses, and IPv6 literals in brackets (hex
// lowercased, 6.2.2.1).
TEST(Url, AcceptsIpv4AndIpv6Hosts) {
  const Case cases[] = {
      {"http://192.168.0.1/", "http://192.168.0.1/"},
      {"http://192.168.0.1:8080/a", "http://192.168.0.1:8080/a"},
      {"http://[2001:DB8::1]/", "http://[2001:db8::1]/"},
      {"https://[2001:db8::1]:443/x", "https://[2001:db8::1]/x"},
      {"http://[::1]:8080/", "http://[::1]:8080/"},
      {"http://[::ffff:192.0.2.1]/", "http://[::ffff:192.0.2.1]/"},
      {"http://[1:2:3:4:5:6:7:8]/", "http://[1:2:3:4:5:6:7:8]/"},
      {"http://[1:2:3:4:5:6:7::]/", "http://[1:2:3:4:5:6:7::]/"},
      {"http://[::]/abc", "http://[::]/abc"},
  };
  for (const auto& c : cases) Accepts(c.in, c.want);
}

// RFC 1034 3.1: a trailing dot names the root label, so "example.com." is
// "example.com", spelled one way, and "127.0.0.1." is the address (a
// client then connects to it instead of asking DNS). A host that is only a
// dot, or ends in two, is no host.
TEST(Url, DropsATrailingDotFromTheHost) {
  Accepts("http://example.com./", "http://example.com/");
  Accepts("http://EXAMPLE.com.:8080/", "http://example.com:8080/");
  Accepts("http://127.0.0.1.:18080/x", "http://127.0.0.1:18080/x");
  Accepts("https://localhost./", "https://localhost/");
  Accepts("https://example.com.:443/a.", "https://example.com/a.");
  Rejects("http://./", url_problem::bad_host);
  Rejects("http://example.com../", url_problem::bad_host);
  normalized_url dotted, plain;
  ASSERT_EQ(normalize_url("http://127.0.0.1.:18080/s.xml", dotted),
            url_problem::ok);
  ASSERT_EQ(normalize_url("http://127.0.0.1:18080/", plain), url_problem::ok);
  EXPECT_EQ(dotted.host(), "127.0.0.1");
  EXPECT_EQ(dotted.origin(), plain.origin());
  EXPECT_TRUE(within_scope(dotted, plain));
}

// sitemaps.org checklist A.5: no leading or trailing whitespace in <loc>.
TEST(Url, IgnoresSurroundingAsciiWhitespace) {
  const Case cases[] = {
      {"  http://example.com/  ", "http://example.com/"},
      {"\t\r\nhttp://example.com/a\r\n", "http://example.com/a"},
      {"\f\vhttp://example.com/\v", "http://example.com/"},
  };
  for (const auto& c : cases) Accepts(c.in, c.want);
}

// Search engines ignore fragments (RFC 3986 3.5: the first '#' starts it).
TEST(Url, RemovesTheFragmentAndSaysSo) {
  struct {
    std::string_view in;
    std::string_view want;
    bool removed;
  } const cases[] = {
      {"http://example.com/a#top", "http://example.com/a", true},
      {"http://example.com/a?q=1#x?y/z", "http://example.com/a?q=1", true},
      {"http://example.com/a#", "http://example.com/a", true},
      {"http://example.com#frag", "http://example.com/", true},
      {"http://example.com/a?q=1", "http://example.com/a?q=1", false},
      {"http://example.com/%23", "http://example.com/%23", false},
  };
  for (const auto& c : cases) {
    std::string out;
    url_notes notes;
    notes.fragment_removed = !c.removed;  // must be overwritten
    ASSERT_EQ(normalize_url(c.in, out, &notes), url_problem::ok) << c.in;
    EXPECT_EQ(out, c.want) << c.in;
    EXPECT_EQ(notes.fragment_removed, c.removed) << c.in;
    Accepts(c.in, c.want);
  }
}

TEST(Url, RefusesBlankInput) {
  const Refusal cases[] = {
      {"", url_problem::empty},
      {"   ", url_problem::empty},
      {"\t\r\n ", url_problem::empty},
  };
  for (const auto& c : cases) Rejects(c.in, c.want);
}

// sitemaps.org: <loc> is an http or https URL.
TEST(Url, RefusesSchemesOtherThanHttpAndHttps) {
  const Refusal cases[] = {
      {"ftp://example.com/file", url_problem::not_http},
      {"mailto:someone@example.com", url_problem::not_http},
      {"javascript:alert(1)//example", url_problem::not_http},
      {"file:///etc/passwd", url_problem::not_http},
      {"data:text/html,hello-world", url_problem::not_http},
      {"httpx://example.com/", url_problem::not_http},
      {"ws://example.com/socket", url_problem::not_http},
      {"example.com:8080/page", url_problem::not_http},  // RFC 3986 3.1
  };
  for (const auto& c : cases) Rejects(c.in, c.want);
}

// RFC 3986 4.2: a relative reference needs a base to resolve against.
TEST(Url, RefusesRelativeReferencesWithoutABase) {
  const Refusal cases[] = {
      {"/path/to/page.html", url_problem::relative_without_base},
      {"path/to/page.html", url_problem::relative_without_base},
      {"../x/y/z/page.html", url_problem::relative_without_base},
      {"?query=string", url_problem::relative_without_base},
      {"//www.example.com/p", url_problem::relative_without_base},
      {"www.example.com/page", url_problem::relative_without_base},
      {"#fragment-only", url_problem::relative_without_base},
  };
  for (const auto& c : cases) Rejects(c.in, c.want);
}

// RFC 3986 3.2.2: the host is a reg-name, IPv4 or bracketed IPv6 literal;
// a web URL cannot do without one.
TEST(Url, RefusesMissingOrMalformedHosts) {
  const Refusal cases[] = {
      {"http:///path/page", url_problem::bad_host},
      {"http://", url_problem::bad_host},
      {"http:example.com/page", url_problem::bad_host},
      {"http:/example.com/page", url_problem::bad_host},
      {"https:\\\\example.com\\page", url_problem::bad_host},
      {"http://exa mple.com/", url_problem::bad_host},
      {"http://ex%41mple.com/", url_problem::bad_host},
      {"http://example.com\\a/", url_problem::bad_host},
      {"http://a..example.com/", url_problem::bad_host},
      {"http://.example.com/", url_problem::bad_host},
      {"http://./abcdefg", url_problem::bad_host},
      {"http://:8080/abcdef", url_problem::bad_host},
      {"http://ex[am]ple.com/", url_problem::bad_host},
      {"http://[::1/abcdefg", url_problem::bad_host},
      {"http://[::g]/abcdefg", url_problem::bad_host},
      {"http://[1:2:3]/abcdef", url_problem::bad_host},
      {"http://[1:2:3:4:5:6:7:8:9]/", url_problem::bad_host},
      {"http://[1::2::3]/abcdef", url_problem::bad_host},
      {"http://[12345::1]/abcdef", url_problem::bad_host},
      {"http://[::1]x/abcdefgh", url_problem::bad_host},
      {"http://[::1%25eth0]/abc", url_problem::bad_host},
      {"http://[::256.0.0.1]/abc", url_problem::bad_host},
      {"http://[v1.future]/abc", url_problem::bad_host},
      {"http://[]/abcdefghijkl", url_problem::bad_host},
  };
  for (const auto& c : cases) Rejects(c.in, c.want);
}

// RFC 5891 4.2: labels IDNA2008 (and UTS #46) cannot convert.
TEST(Url, RefusesHostsIdnaCannotConvert) {
  const Refusal cases[] = {
      {"http://-bücher.example/", url_problem::bad_idn},
      {"http://xn--zz.bücher.example/", url_problem::bad_idn},
      // U+2100 maps to "a/c" without STD3 rules; a '/' cannot enter a host.
      {"http://\xE2\x84\x80.example.com/", url_problem::bad_idn},
  };
  for (const auto& c : cases) Rejects(c.in, c.want);
}

// RFC 3986 3.2.3: port = *DIGIT, and TCP ports stop at 65535.
TEST(Url, RefusesPortsThatAreNotTcpPorts) {
  const Refusal cases[] = {
      {"http://example.com:abc/", url_problem::bad_port},
      {"http://example.com:65536/", url_problem::bad_port},
      {"http://example.com:-1/", url_problem::bad_port},
      {"http://example.com:+80/", url_problem::bad_port},
      {"http://example.com:99999999999999999999/", url_problem::bad_port},
      {"http://example.com:80:90/", url_problem::bad_port},
      {"http://[::1]:http/abcdef", url_problem::bad_port},
  };
  for (const auto& c : cases) Rejects(c.in, c.want);
}

// RFC 3986 3.2.1 deprecates "user:password"; a sitemap must not publish it.
TEST(Url, RefusesCredentials) {
  const Refusal cases[] = {
      {"http://user@example.com/", url_problem::has_credentials},
      {"http://user:pw@example.com/", url_problem::has_credentials},
      {"https://@example.com/abc", url_problem::has_credentials},
      {"https://a:b@[::1]:8080/", url_problem::has_credentials},
  };
  for (const auto& c : cases) Rejects(c.in, c.want);
  // An '@' after the authority is path data (pchar), not a user name.
  Accepts("http://example.com/@user", "http://example.com/@user");
}

// RFC 3986 7.3 and XML: control bytes have no place in a URL, even where
// percent-encoding could hide them.
TEST(Url, RefusesControlCharactersInside) {
  const Refusal cases[] = {
      {"http://example.com/a\tb", url_problem::control_character},
      {"http://example.com/a\nb", url_problem::control_character},
      {"http://example.com/a\rb", url_problem::control_character},
      {"http://example.com/a\x01"
       "b",
       url_problem::control_character},
      {"http://example.com/a\x7F"
       "b",
       url_problem::control_character},
      {"http://exa\tmple.com/ab", url_problem::control_character},
      {"http://example.com/a\0b"sv, url_problem::control_character},
      {"http://example.com/?q=\x1F", url_problem::control_character},
      {"http://example.com/#\x1B", url_problem::control_character},
  };
  for (const auto& c : cases) Rejects(c.in, c.want);
}

// RFC 3629 section 3 and Unicode table 3-7: overlongs, surrogates, code
// points above U+10FFFF and truncated sequences are not UTF-8.
TEST(Url, RefusesInvalidUtf8) {
  const Refusal cases[] = {
      {"http://example.com/\xC0\xAF", url_problem::invalid_utf8},
      {"http://example.com/\xC1\xBF", url_problem::invalid_utf8},
      {"http://example.com/\xE0\x80\xAF", url_problem::invalid_utf8},
      {"http://example.com/\xF0\x80\x80\xAF", url_problem::invalid_utf8},
      {"http://example.com/\xED\xA0\x80", url_problem::invalid_utf8},
      {"http://example.com/\xED\xBF\xBF", url_problem::invalid_utf8},
      {"http://example.com/\xF4\x90\x80\x80", url_problem::invalid_utf8},
      {"http://example.com/\xF5\x80\x80\x80", url_problem::invalid_utf8},
      {"http://example.com/\xFF", url_problem::invalid_utf8},
      {"http://example.com/\x80", url_problem::invalid_utf8},
      {"http://example.com/\xC3", url_problem::invalid_utf8},
      {"http://example.com/\xE2\x82", url_problem::invalid_utf8},
      {"http://example.com/\xE2\x82x", url_problem::invalid_utf8},
      {"http://example.com/\xF0\x9F\x98", url_problem::invalid_utf8},
      {"http://b\xFC"
       "cher.example/",
       url_problem::invalid_utf8},  // Latin-1
  };
  for (const auto& c : cases) Rejects(c.in, c.want);
  // The extremes of each valid range pass.
  Accepts("http://example.com/\xC2\x80\xDF\xBF\xE0\xA0\x80\xED\x9F\xBF",
          "http://example.com/%C2%80%DF%BF%E0%A0%80%ED%9F%BF");
  Accepts("http://example.com/\xEE\x80\x80\xF0\x90\x80\x80\xF4\x8F\xBF\xBF",
          "http://example.com/%EE%80%80%F0%90%80%80%F4%8F%BF%BF");
}

// sitemaps.org: "This value must be less than 2,048 characters", counted
// after encoding (limits.h max_loc_length = 2047).
TEST(Url, AcceptsUpTo2047CharactersAfterEncoding) {
  const std::string origin = "http://example.com/";
  const std::size_t room = sitemill::max_loc_length - origin.size();
  struct {
    std::string in;
    url_problem want;
    std::size_t out_size;
  } const cases[] = {
      {origin + std::string(room, 'a'), url_problem::ok, 2047},
      {origin + std::string(room + 1, 'a'), url_problem::too_long, 0},
      // Each starts the path, since a trailing space would be trimmed. The
      // second is 2,046 input bytes; "%20" takes it to 2,048.
      {origin + " " + std::string(room - 3, 'a'), url_problem::ok, 2047},
      {origin + " " + std::string(room - 2, 'a'), url_problem::too_long, 0},
      {origin + "%" + std::string(room - 3, 'z'), url_problem::ok, 2047},
      {origin + "%" + std::string(room - 2, 'z'), url_problem::too_long, 0},
      {origin + "ü" + std::string(room - 6, 'a'), url_problem::ok, 2047},
      {origin + "ü" + std::string(room - 5, 'a'), url_problem::too_long, 0},
      {origin + "€" + std::string(room - 9, 'a'), url_problem::ok, 2047},
      {origin + "€" + std::string(room - 8, 'a'), url_problem::too_long, 0},
      // Decoding and dot removal shrink it back under the limit.
      {origin + "%41" + std::string(room - 1, 'a'), url_problem::ok, 2047},
      {origin + "%41" + std::string(room, 'a'), url_problem::too_long, 0},
      {origin + std::string(3000, 'a') + "/../b", url_problem::ok, 20},
      // The fragment is not part of the <loc>.
      {origin + std::string(room, 'a') + "#" + std::string(100, 'f'),
       url_problem::ok, 2047},
  };
  for (std::size_t i = 0; i < std::size(cases); ++i) {
    const auto& c = cases[i];
    SCOPED_TRACE(testing::Message() << "case " << i);
    std::string out;
    ASSERT_EQ(normalize_url(c.in, out), c.want);
    if (c.want == url_problem::ok) {
      EXPECT_EQ(out.size(), c.out_size);
      Accepts(c.in, out);
    }
  }
  // The byte count includes the host and port.
  Accepts("http://example.com:8080/" + std::string(2047 - 24, 'x'),
          "http://example.com:8080/" + std::string(2047 - 24, 'x'));
  Rejects("http://example.com:8080/" + std::string(2048 - 24, 'x'),
          url_problem::too_long);
}

// sitemap.xsd tLoc: <xsd:minLength value="12"/>.
TEST(Url, RefusesUnder12Characters) {
  const Refusal cases[] = {
      {"http://a.b", url_problem::too_short},      // 11 with the '/' added
      {"http://ab.c/", url_problem::ok},           // 12
      {"http://a.b/", url_problem::too_short},     // 11
      {"http://a.b/c", url_problem::ok},           // 12
      {"http://x/a/../", url_problem::too_short},  // "http://x/" is 9
      {"https://a.b", url_problem::ok},            // "https://a.b/" is 12
  };
  for (const auto& c : cases) Rejects(c.in, c.want);
}

// RFC 3986 5.2 and the examples of 5.4, against a base whose directory is
// RFC's "/b/c/". Each result is a "Target URI" of 5.4.1 or 5.4.2, except
// "?y": sitemill's base is a directory, so it has no last segment "d;p".
TEST(Url, ResolvesRfc3986ExamplesAgainstABaseDirectory) {
  const url_normalizer n = Base("http://a.example/b/c/");
  const Case cases[] = {
      {"g", "http://a.example/b/c/g"},
      {"./g", "http://a.example/b/c/g"},
      {"g/", "http://a.example/b/c/g/"},
      {"?y", "http://a.example/b/c/?y"},
      {"g?y", "http://a.example/b/c/g?y"},
      {"#s", "http://a.example/b/c/"},
      {"g#s", "http://a.example/b/c/g"},
      {"g?y#s", "http://a.example/b/c/g?y"},
      {";x", "http://a.example/b/c/;x"},
      {"g;x", "http://a.example/b/c/g;x"},
      {"g;x?y#s", "http://a.example/b/c/g;x?y"},
      {".", "http://a.example/b/c/"},
      {"./", "http://a.example/b/c/"},
      {"g.", "http://a.example/b/c/g."},
      {".g", "http://a.example/b/c/.g"},
      {"g..", "http://a.example/b/c/g.."},
      {"..g", "http://a.example/b/c/..g"},
      {"./g/.", "http://a.example/b/c/g/"},
      {"g/./h", "http://a.example/b/c/g/h"},
      {"g/../h", "http://a.example/b/c/h"},
      {"g;x=1/./y", "http://a.example/b/c/g;x=1/y"},
      {"g;x=1/../y", "http://a.example/b/c/y"},
      {"g?y/./x", "http://a.example/b/c/g?y/./x"},
      {"g?y/../x", "http://a.example/b/c/g?y/../x"},
      {"g#s/./x", "http://a.example/b/c/g"},
      {"g#s/../x", "http://a.example/b/c/g"},
      {"/b/c/g", "http://a.example/b/c/g"},
      {"//a.example/b/c/g", "http://a.example/b/c/g"},
      {"//A.EXAMPLE:80/b/c/g", "http://a.example/b/c/g"},
  };
  for (const auto& c : cases) Accepts(n, c.in, c.want);
  // The examples whose targets leave "/b/c/" break the location rule, and
  // those with another scheme are refused before resolution.
  const Refusal refused[] = {
      {"..", url_problem::outside_base},
      {"../", url_problem::outside_base},
      {"../g", url_problem::outside_base},
      {"../..", url_problem::outside_base},
      {"../../g", url_problem::outside_base},
      {"../../../g", url_problem::outside_base},
      {"/./g", url_problem::outside_base},
      {"/../g", url_problem::outside_base},
      {"./../g", url_problem::outside_base},
      {"/g", url_problem::outside_base},
      {"//g", url_problem::outside_base},
      {"g:h", url_problem::not_http},
      {"http:g", url_problem::bad_host},  // strict parser, RFC 3986 5.4.2
      {"//user@a.example/b/c/g", url_problem::has_credentials},
      {"//a.example:x/b/c/g", url_problem::bad_port},
  };
  for (const auto& c : refused) Rejects(n, c.in, c.want);
}

TEST(Url, ResolvesRelativeReferencesAgainstABaseWithoutPath) {
  const url_normalizer n = Base("https://www.example.com");
  const Case cases[] = {
      {"/a", "https://www.example.com/a"},
      {"a/b", "https://www.example.com/a/b"},
      {"../x", "https://www.example.com/x"},  // 5.2.4: ".." stops at root
      {"?q", "https://www.example.com/?q"},
      {"//www.example.com/p", "https://www.example.com/p"},
      {"//WWW.EXAMPLE.COM:443/p", "https://www.example.com/p"},
      {"https://www.example.com/p", "https://www.example.com/p"},
      {"https://www.example.com", "https://www.example.com/"},
      {"page.html#top", "https://www.example.com/page.html"},
      {"über uns", "https://www.example.com/%C3%BCber%20uns"},
      {"a%2Fb", "https://www.example.com/a%2Fb"},
  };
  for (const auto& c : cases) Accepts(n, c.in, c.want);
  Rejects(n, "//other.example.com/p", url_problem::outside_base);
  Rejects(n, "http://www.example.com/p", url_problem::outside_base);
}

TEST(Url, ResolvesRelativeReferencesAgainstABaseWithPath) {
  const url_normalizer n = Base("https://www.example.com/shop/");
  const Case cases[] = {
      {"/shop/a", "https://www.example.com/shop/a"},
      {"a/b", "https://www.example.com/shop/a/b"},
      {"../shop/x", "https://www.example.com/shop/x"},
      {"./x/../y", "https://www.example.com/shop/y"},
      {"?q", "https://www.example.com/shop/?q"},
      {"//www.example.com/shop/p", "https://www.example.com/shop/p"},
  };
  for (const auto& c : cases) Accepts(n, c.in, c.want);
  Rejects(n, "", url_problem::empty);
  Rejects(n, "/a", url_problem::outside_base);
  Rejects(n, "../x", url_problem::outside_base);
  Rejects(n, "//other.example/shop/p", url_problem::outside_base);
  // A base without its trailing slash still names the directory.
  Accepts(Base("https://www.example.com/shop"), "a",
          "https://www.example.com/shop/a");
}

// sitemaps.org "Sitemap file location": same scheme, host and port, at or
// below the sitemap's directory.
TEST(Url, AppliesTheLocationRule) {
  const url_normalizer n = Base("https://x.example/catalog/");
  const Case accepted[] = {
      {"https://x.example/catalog/", "https://x.example/catalog/"},
      {"https://x.example/catalog/a", "https://x.example/catalog/a"},
      {"https://x.example/catalog/show?item=23",
       "https://x.example/catalog/show?item=23"},
      {"HTTPS://X.EXAMPLE/catalog/a", "https://x.example/catalog/a"},
      {"https://x.example:443/catalog/a", "https://x.example/catalog/a"},
      {"https://x.example/images/../catalog/a", "https://x.example/catalog/a"},
  };
  for (const auto& c : accepted) Accepts(n, c.in, c.want);
  const Refusal refused[] = {
      {"http://x.example/catalog/a", url_problem::outside_base},  // scheme
      {"https://x.example:8443/catalog/a", url_problem::outside_base},  // port
      {"https://www.x.example/catalog/a", url_problem::outside_base},
      {"https://x.example.evil/catalog/a", url_problem::outside_base},
      {"https://x.example/catalogue", url_problem::outside_base},  // sibling
      {"https://x.example/catalog", url_problem::outside_base},
      {"https://x.example/", url_problem::outside_base},
      {"https://x.example/images/a", url_problem::outside_base},
      {"https://x.example/Catalog/a", url_problem::outside_base},
      {"https://x.example/catalog/../etc", url_problem::outside_base},
      {"https://x.example/catalog/%2E%2E/etc", url_problem::outside_base},
  };
  for (const auto& c : refused) Rejects(n, c.in, c.want);
  // sitemaps.org: a sitemap URL with a port admits only URLs with it.
  const url_normalizer with_port = Base("http://www.example.com:100/");
  Accepts(with_port, "http://www.example.com:100/sitemap.html",
          "http://www.example.com:100/sitemap.html");
  Accepts(with_port, "/a.html", "http://www.example.com:100/a.html");
  Rejects(with_port, "http://www.example.com/a.html",
          url_problem::outside_base);
}

// The origin fast path must give what the general path gives: an uppercase
// host forces the general path for the same URL.
TEST(Url, FastPathAgreesWithGeneralPath) {
  const url_normalizer n = Base("https://www.example.com/");
  const std::string_view paths[] = {
      "/",  "/a/b/c.html",  "/a b", "/%7e%2f",     "/a/../b", "/ü?q=ü",
      "/%", "/x?a=1&b=2#f", "/.",   "/a/%2E%2E/b", "/[x]",    "/?",
  };
  for (std::string_view p : paths) {
    std::string fast;
    std::string general;
    const url_problem a =
        n.normalize("https://www.example.com"s.append(p), fast);
    const url_problem b =
        n.normalize("https://WWW.example.com"s.append(p), general);
    EXPECT_EQ(a, b) << p;
    EXPECT_EQ(fast, general) << p;
    EXPECT_EQ(a, url_problem::ok) << p;
  }
}

// sitemaps.org 1.6 and checklist D.31: the directory comes from the path;
// a '/' in the query does not count. Scopes are normalised first (a
// fragment goes, an empty path becomes "/"); one that does not normalise is
// empty and holds nothing.
TEST(Url, WithinScopeUsesTheDirectoryOfTheScopePath) {
  struct {
    std::string_view url;
    std::string_view scope;
    bool want;
  } const cases[] = {
      {"https://example.com/catalog/a",
       "https://example.com/catalog/sitemap.xml", true},
      {"https://example.com/catalog/",
       "https://example.com/catalog/sitemap.xml", true},
      {"https://example.com/images/a",
       "https://example.com/catalog/sitemap.xml", false},
      {"https://example.com/catalogue", "https://example.com/catalog/", false},
      {"https://example.com/catalog", "https://example.com/catalog/", false},
      {"https://example.com/", "https://example.com/catalog/", false},
      {"https://example.com/a",
       "https://example.com/index.php?route=path/sitemap", true},
      {"https://example.com/x/y",
       "https://example.com/index.php?route=path/sitemap", true},
      {"https://example.com/a", "https://example.com/c/s.xml#frag/x", false},
      {"https://example.com/c/a", "https://example.com/c/s.xml#frag/x", true},
      {"http://example.com/a", "https://example.com/sitemap.xml", false},
      {"https://example.com:8443/a", "https://example.com/sitemap.xml", false},
      {"https://sub.example.com/a", "https://example.com/sitemap.xml", false},
      {"https://example.com/a", "https://example.com", true},
      {"https://example.com?q", "https://example.com", true},
      {"https://example.com.evil/a", "https://example.com", false},
      {"https://example.com:80/a", "https://example.com", false},
      {"https://example.com/a", "not a url", false},
  };
  for (const auto& c : cases) {
    normalized_url url, scope;
    ASSERT_EQ(normalize_url(c.url, url), url_problem::ok) << c.url;
    (void)normalize_url(c.scope, scope);
    EXPECT_EQ(within_scope(url, scope), c.want) << c.url << " in " << c.scope;
  }
  EXPECT_FALSE(within_scope(normalized_url{}, Url("https://example.com/")));
}

// The fetch scope's unit (walker.h): one host and port; http and https on
// their default ports are one, so an upgrade redirect stays in scope.
TEST(Url, SameHostComparesHostAndPortOnly) {
  struct row {
    const char* a;
    const char* b;
    bool want;
  };
  const row cases[] = {
      {"https://example.com/a", "https://example.com/b/c?d", true},
      {"http://example.com/a", "https://example.com/", true},
      {"https://EXAMPLE.com./a", "https://example.com/", true},
      {"http://example.com:80/a", "https://example.com:443/", true},
      {"http://example.com:8080/a", "http://example.com/", false},
      {"http://example.com:443/a", "https://example.com/", true},
      {"http://127.0.0.1:8080/a", "http://127.0.0.1:8081/", false},
      {"http://localhost:8080/a", "http://127.0.0.1:8080/", false},
      {"https://www.example.com/", "https://example.com/", false},
      {"https://example.com.evil/", "https://example.com/", false},
      {"http://[::1]:8080/", "http://[::1]:8080/x", true},
  };
  for (const auto& c : cases) {
    normalized_url a, b;
    ASSERT_EQ(normalize_url(c.a, a), url_problem::ok) << c.a;
    ASSERT_EQ(normalize_url(c.b, b), url_problem::ok) << c.b;
    EXPECT_EQ(same_host(a, b), c.want) << c.a << " vs " << c.b;
    EXPECT_EQ(same_host(b, a), c.want) << c.b << " vs " << c.a;
  }
  EXPECT_FALSE(same_host(normalized_url{}, normalized_url{}));
}

// Every accessor on each shape of URL (ada's url_aggregator tests, for the
// components sitemill uses).
TEST(Url, GivesEachComponentOfANormalisedUrl) {
  struct Row {
    std::string_view in, href, scheme, host;
    std::uint16_t port;
    bool has_port;
    std::string_view origin, path, query, scope_directory;
  };
  const Row rows[] = {
      // plain
      {"https://example.com/a/b.html", "https://example.com/a/b.html", "https",
       "example.com", 443, false, "https://example.com", "/a/b.html", "",
       "https://example.com/a/"},
      // a port
      {"http://example.com:8080/s.xml", "http://example.com:8080/s.xml", "http",
       "example.com", 8080, true, "http://example.com:8080", "/s.xml", "",
       "http://example.com:8080/"},
      // the default port, dropped
      {"HTTPS://Example.com:443/x", "https://example.com/x", "https",
       "example.com", 443, false, "https://example.com", "/x", "",
       "https://example.com/"},
      {"http://example.com:80/x", "http://example.com/x", "http", "example.com",
       80, false, "http://example.com", "/x", "", "http://example.com/"},
      // IPv6, with and without a port
      {"http://[2001:DB8::1]/a/", "http://[2001:db8::1]/a/", "http",
       "[2001:db8::1]", 80, false, "http://[2001:db8::1]", "/a/", "",
       "http://[2001:db8::1]/a/"},
      {"https://[::1]:8443/a/b?c", "https://[::1]:8443/a/b?c", "https", "[::1]",
       8443, true, "https://[::1]:8443", "/a/b", "?c", "https://[::1]:8443/a/"},
      // IDN
      {"https://bücher.example/ü", "https://xn--bcher-kva.example/%C3%BC",
       "https", "xn--bcher-kva.example", 443, false,
       "https://xn--bcher-kva.example", "/%C3%BC", "",
       "https://xn--bcher-kva.example/"},
      // a query, one with '/' in it, an empty one
      {"https://example.com/c/s.xml?x=/y/z",
       "https://example.com/c/s.xml?x=/y/z", "https", "example.com", 443, false,
       "https://example.com", "/c/s.xml", "?x=/y/z", "https://example.com/c/"},
      {"https://example.com/p?", "https://example.com/p?", "https",
       "example.com", 443, false, "https://example.com", "/p", "?",
       "https://example.com/"},
      // no path
      {"https://example.com", "https://example.com/", "https", "example.com",
       443, false, "https://example.com", "/", "", "https://example.com/"},
      {"http://example.com:81?q", "http://example.com:81/?q", "http",
       "example.com", 81, true, "http://example.com:81", "/", "?q",
       "http://example.com:81/"},
      // a trailing dot in the host, dropped
      {"http://example.com.:8080/", "http://example.com:8080/", "http",
       "example.com", 8080, true, "http://example.com:8080", "/", "",
       "http://example.com:8080/"},
      // IPv4
      {"http://192.0.2.1/a", "http://192.0.2.1/a", "http", "192.0.2.1", 80,
       false, "http://192.0.2.1", "/a", "", "http://192.0.2.1/"},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(r.in);
    normalized_url u;
    ASSERT_EQ(normalize_url(r.in, u), url_problem::ok);
    EXPECT_EQ(u.href(), r.href);
    EXPECT_EQ(u.scheme(), r.scheme);
    EXPECT_EQ(u.is_https(), r.scheme == "https");
    EXPECT_EQ(u.host(), r.host);
    EXPECT_EQ(u.port(), r.port);
    EXPECT_EQ(u.has_port(), r.has_port);
    EXPECT_EQ(u.origin(), r.origin);
    EXPECT_EQ(u.authority(), r.origin.substr(r.scheme.size() + 3));
    EXPECT_EQ(u.path(), r.path);
    EXPECT_EQ(u.query(), r.query);
    EXPECT_EQ(u.path_and_query(), r.href.substr(r.origin.size()));
    EXPECT_EQ(u.scope_directory(), r.scope_directory);
    ExpectConsistent(u);
  }
}

// The origin fast path knows the components from its base instead of
// writing them; they must be the ones the general path writes.
TEST(Url, GivesTheSameComponentsOnTheFastPath) {
  const std::string_view origins[] = {"https://www.example.com",
                                      "http://example.com:8080",
                                      "https://[2001:db8::1]"};
  const std::string_view rests[] = {
      "/", "/a/b.html", "/a?b=/c", "/?", "/\xC3\xBC?q=\xC3\xBC", "/x/y/"};
  for (std::string_view origin : origins) {
    const url_normalizer n = Base(std::string(origin) + "/");
    for (std::string_view rest : rests) {
      const std::string in = std::string(origin) + std::string(rest);
      SCOPED_TRACE(in);
      normalized_url fast, general;
      ASSERT_EQ(n.normalize(in, fast), url_problem::ok);
      ASSERT_EQ(normalize_url(in, general), url_problem::ok);
      EXPECT_EQ(Components(fast), Components(general));
      ExpectConsistent(fast);
    }
  }
}

TEST(Url, LeavesAFailedUrlEmpty) {
  normalized_url u = Url("https://example.com:8080/a?b");
  ASSERT_FALSE(u.empty());
  EXPECT_EQ(normalize_url("ftp://example.com/", u), url_problem::not_http);
  EXPECT_TRUE(u.empty());
  EXPECT_EQ(Components(u), "|||||||||0-");
  const url_normalizer n = Base("https://example.com/a/");
  u = Url("https://example.com/a/b");
  EXPECT_EQ(n.normalize("https://example.com/b", u), url_problem::outside_base);
  EXPECT_TRUE(u.empty());
  EXPECT_EQ(Components(normalized_url{}), "|||||||||0-");
}

TEST(Url, ReusesTheBufferOfANormalizedUrl) {
  normalized_url u;
  ASSERT_EQ(normalize_url("https://example.com/" + std::string(1000, 'a'), u),
            url_problem::ok);
  const char* const buffer = u.href().data();
  const url_normalizer n = Base("https://www.example.com/");
  for (std::string_view in :
       {"https://www.example.com/fast", "x/../general", "/\xC3\xBC",
        "ftp://refused/", "HTTP://Example.COM/a b/./c?q#f"}) {
    (void)n.normalize(in, u);
    if (!u.empty()) {
      EXPECT_EQ(u.href().data(), buffer) << in;
    }
  }
  ASSERT_EQ(normalize_url("https://example.com/again", u), url_problem::ok);
  EXPECT_EQ(u.href().data(), buffer);
}

// RFC 3986 5.4 against a full base URL, "d;p?q" and all: resolve_url is a
// browser's resolution, with no location rule. (The host is longer than
// RFC's "a" so results reach 12 characters.)
TEST(Url, ResolvesRfc3986ExamplesAgainstAFullUrl) {
  const normalized_url base = Url("http://a.example/b/c/d;p?q");
  const Case cases[] = {
      {"g", "http://a.example/b/c/g"},
      {"./g", "http://a.example/b/c/g"},
      {"g/", "http://a.example/b/c/g/"},
      {"/g", "http://a.example/g"},
      {"//g.example", "http://g.example/"},
      {"?y", "http://a.example/b/c/d;p?y"},
      {"g?y", "http://a.example/b/c/g?y"},
      {"#s", "http://a.example/b/c/d;p?q"},
      {"g#s", "http://a.example/b/c/g"},
      {";x", "http://a.example/b/c/;x"},
      {".", "http://a.example/b/c/"},
      {"..", "http://a.example/b/"},
      {"../g", "http://a.example/b/g"},
      {"../..", "http://a.example/"},
      {"../../g", "http://a.example/g"},
      {"../../../g", "http://a.example/g"},
      {"/./g", "http://a.example/g"},
      {"g;x=1/../y", "http://a.example/b/c/y"},
      {"  g  ", "http://a.example/b/c/g"},
      {"https://other.example/x", "https://other.example/x"},
      {"http://a.example/b/c/z", "http://a.example/b/c/z"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    normalized_url out;
    url_notes notes;
    ASSERT_EQ(resolve_url(c.in, base, out, &notes), url_problem::ok);
    EXPECT_EQ(out.href(), c.want);
    EXPECT_EQ(notes.fragment_removed, c.in.find('#') != std::string_view::npos);
    ExpectConsistent(out);
  }
  const Refusal refused[] = {
      {"", url_problem::empty},
      {"g:h", url_problem::not_http},
      {"http:g", url_problem::bad_host},
      {"//g", url_problem::too_short},
      {"//user@a.example/", url_problem::has_credentials},
  };
  for (const Refusal& r : refused) {
    normalized_url out = Url("https://left.example/over");
    EXPECT_EQ(resolve_url(r.in, base, out), r.want) << r.in;
    EXPECT_TRUE(out.empty()) << r.in;
  }
}

TEST(Url, ResolvesIntoItsOwnBaseAndWithoutOne) {
  normalized_url u = Url("https://example.com/a/b.html?x");
  ASSERT_EQ(resolve_url("c.html", u, u), url_problem::ok);
  EXPECT_EQ(u.href(), "https://example.com/a/c.html");
  normalized_url out;
  EXPECT_EQ(resolve_url("c.html", normalized_url{}, out),
            url_problem::relative_without_base);
  ASSERT_EQ(resolve_url("HTTPS://Example.com/z", normalized_url{}, out),
            url_problem::ok);
  EXPECT_EQ(out.href(), "https://example.com/z");
}

TEST(Url, HasHttpSchemeIgnoresCaseButNotSpacing) {
  const struct {
    std::string_view text;
    bool want;
  } cases[] = {
      {"http://x", true},   {"https://x", true},  {"HTTP://X", true},
      {"HTTPS://X", true},  {"Https://x", true},  {"hTTp://x", true},
      {"http://", true},    {" http://x", false}, {"http:/x", false},
      {"http:x", false},    {"https:", false},    {"ftp://x", false},
      {"httpx://x", false}, {"/http://x", false}, {"", false},
  };
  for (const auto& c : cases)
    EXPECT_EQ(has_http_scheme(c.text), c.want) << c.text;
}

// RFC 3986 2.1: "%" HEXDIG HEXDIG, either case; anything else stays.
TEST(Url, PercentDecodeDecodesEveryValidEscapeOnly) {
  const struct {
    std::string_view in, out;
  } cases[] = {
      {"a%20b", "a b"},
      {"%2F", "/"},
      {"%2f", "/"},
      {"%C3%BC", "\xC3\xBC"},
      {"%", "%"},
      {"100%", "100%"},
      {"%4", "%4"},
      {"%4G", "%4G"},
      {"%%41", "%A"},
      {"%ZZ%41", "%ZZA"},
      {"%00", "\0"sv},
      {"%252F", "%2F"},
      {"", ""},
      {"plain", "plain"},
      {"%41%42%4", "AB%4"},
  };
  for (const auto& c : cases) EXPECT_EQ(percent_decode(c.in), c.out) << c.in;
}

TEST(Url, WithBaseNormalisesTheBaseToADirectory) {
  const Case cases[] = {
      {"HTTPS://Example.COM:443", "https://example.com/"},
      {"https://example.com/catalog", "https://example.com/catalog/"},
      {"https://example.com/catalog/sitemap.xml",
       "https://example.com/catalog/sitemap.xml/"},
      {"https://example.com/a/./b/../c", "https://example.com/a/c/"},
      {"http://example.com:8080/", "http://example.com:8080/"},
      {"http://bücher.example/ü/", "http://xn--bcher-kva.example/%C3%BC/"},
      {"  http://a/  ", "http://a/"},  // a directory need not be 12 long
  };
  for (const auto& c : cases) {
    const auto n = url_normalizer::with_base(c.in);
    ASSERT_TRUE(n.has_value()) << c.in << ": " << n.err().message;
    EXPECT_EQ(n->base(), c.want) << c.in;
    const auto again = url_normalizer::with_base(n->base());
    ASSERT_TRUE(again.has_value()) << c.in;
    EXPECT_EQ(again->base(), n->base());
  }
  EXPECT_EQ(url_normalizer{}.base(), "");
}

TEST(Url, WithBaseRefusesWhatCannotBeADirectory) {
  const struct {
    std::string base;
    std::string_view says;
  } cases[] = {
      {"ftp://example.com/", "not http or https"},
      {"/relative/dir/", "relative"},
      {"", "empty"},
      {"https://example.com/?q=1", "query"},
      {"https://example.com/?", "query"},
      {"https://example.com/#top", "fragment"},
      {"https://user:pw@example.com/", "password"},
      {"https://example.com:99999/", "port"},
      {"https://example.com/" + std::string(2030, 'a'), "2,048"},
  };
  for (const auto& c : cases) {
    const auto n = url_normalizer::with_base(c.base);
    ASSERT_FALSE(n.has_value()) << c.base;
    EXPECT_NE(n.err().message.find(c.says), std::string::npos)
        << n.err().message;
  }
}

// A run over several hosts: a URL is accepted under any base, relative
// references resolve against the first, and scope_of() names the base, the
// deepest when bases nest.
TEST(Url, WithBasesAcceptsAUrlUnderAnyBaseAndSaysWhich) {
  const std::vector<std::string> bases = {
      "https://www.shop.de/", "HTTPS://www.Shop.FR", "https://www.shop.de/fr/"};
  const auto n = url_normalizer::with_bases(bases);
  ASSERT_TRUE(n.has_value()) << n.err().message;
  ASSERT_EQ(n->base_count(), 3u);
  EXPECT_EQ(n->base(), "https://www.shop.de/");
  EXPECT_EQ(n->base_url(1).href(), "https://www.shop.fr/");
  const struct {
    std::string_view in, out;
    std::size_t scope;
  } cases[] = {
      {"https://www.shop.de/a", "https://www.shop.de/a", 0},
      {"/b", "https://www.shop.de/b", 0},
      {"c?x=1", "https://www.shop.de/c?x=1", 0},
      {"https://WWW.shop.fr/d", "https://www.shop.fr/d", 1},
      {"https://www.shop.de/fr/e", "https://www.shop.de/fr/e", 2},
      {"/fr/", "https://www.shop.de/fr/", 2},
      {"https://www.shop.de/fr", "https://www.shop.de/fr", 0},
  };
  for (const auto& c : cases) {
    std::string out;
    ASSERT_EQ(n->normalize(c.in, out), url_problem::ok) << c.in;
    EXPECT_EQ(out, c.out);
    EXPECT_EQ(n->scope_of(out), c.scope) << c.in;
  }
  std::string out;
  EXPECT_EQ(n->normalize("https://www.shop.it/a", out),
            url_problem::outside_base);
  EXPECT_EQ(n->normalize("http://www.shop.fr/a", out),
            url_problem::outside_base)
      << "the scheme is part of the location rule";
  normalized_url parts;
  EXPECT_EQ(n->normalize("https://www.shop.fr/x", parts), url_problem::ok);
  EXPECT_EQ(parts.host(), "www.shop.fr");

  // One base: what with_base() does; scope_of() is always 0.
  const auto one = url_normalizer::with_bases(
      std::vector<std::string>{"https://www.shop.de/"});
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ(one->base_count(), 1u);
  EXPECT_EQ(one->normalize("https://www.shop.fr/d", out),
            url_problem::outside_base);
  EXPECT_EQ(url_normalizer{}.base_count(), 0u);
}

TEST(Url, WithBasesRefusesABaseGivenTwiceOrInvalid) {
  auto twice = url_normalizer::with_bases(
      std::vector<std::string>{"https://www.shop.de/", "https://WWW.SHOP.DE"});
  ASSERT_FALSE(twice.has_value());
  EXPECT_NE(twice.err().message.find("given twice"), std::string::npos)
      << twice.err().message;
  auto bad = url_normalizer::with_bases(
      std::vector<std::string>{"https://www.shop.de/", "ftp://x/"});
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.err().message.find("ftp://x/"), std::string::npos)
      << bad.err().message;
  EXPECT_FALSE(url_normalizer::with_bases({}).has_value());
}

TEST(Url, DescribesEveryProblemWithADistinctSentence) {
  std::set<std::string_view> seen;
  for (int i = 0; i <= static_cast<int>(url_problem::outside_base); ++i) {
    const std::string_view text = describe(static_cast<url_problem>(i));
    EXPECT_TRUE(text.starts_with("URL ")) << text;
    EXPECT_TRUE(seen.insert(text).second) << "duplicate: " << text;
  }
  EXPECT_TRUE(
      describe(url_problem::not_http).starts_with("URL is not http or https"));
  EXPECT_EQ(describe(url_problem::outside_base),
            "URL is outside the base URL's scheme, host, port or directory "
            "(the sitemaps.org location rule)");
}

TEST(Url, ClearsTheOutputAndReusesItsBuffer) {
  std::string out = "leftover text that must not survive";
  out.reserve(4096);
  const char* const buffer = out.data();
  const std::size_t capacity = out.capacity();
  ASSERT_EQ(normalize_url("HTTP://Example.COM/a b/./c?q#f", out),
            url_problem::ok);
  EXPECT_EQ(out, "http://example.com/a%20b/c?q");
  EXPECT_EQ(out.data(), buffer);
  EXPECT_EQ(out.capacity(), capacity);
  const url_normalizer n = Base("https://www.example.com/");
  ASSERT_EQ(n.normalize("x/../y", out), url_problem::ok);
  EXPECT_EQ(out, "https://www.example.com/y");
  EXPECT_EQ(out.data(), buffer);
}

}  // namespace
