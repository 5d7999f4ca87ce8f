#include "support/crawl_site.h"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <deque>
#include <random>
#include <set>
#include <stdexcept>

#include "sitemill/robots/robots.h"
#include "sitemill/robots/robots_rules.h"
#include "sitemill/write/xml_escape.h"

namespace sitemill::testing {

struct crawl_site::page {
  int status = 200;
  /// Answered once each, in order, before `status` (429, then 200).
  std::vector<int> first_statuses;
  std::string location;  // a redirect's, as sent
  std::string content_type = "text/html; charset=utf-8";
  std::string title;
  std::string text = "A page of the crawl test site.";
  bool meta_noindex = false;
  bool meta_nofollow = false;
  bool header_noindex = false;
  std::string canonical;
  std::string base;
  std::vector<crawl_link> links;
  std::optional<std::chrono::sys_seconds> last_modified;
  std::string raw_body;    // the body of anything but HTML
  std::size_t pad_to = 0;  // HTML padded to this many bytes (the huge page)
  std::chrono::milliseconds delay{0};
};

namespace {

using page = crawl_site::page;

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool is_session_name(std::string_view name) {
  const std::string n = lower(name);
  return n == "phpsessid" || n == "sid" || n == "sessionid" ||
         n == "session_id" || n == "jsessionid";
}

// Attribute values and text are escaped as sitemill escapes XML (&, <, >,
// quotes), which HTML reads back the same.
std::string html_escape(std::string_view s) {
  std::string out;
  append_xml_escaped(out, s);
  return out;
}

std::string http_date(std::chrono::sys_seconds t) {
  const std::time_t tt = t.time_since_epoch().count();
  std::tm tm{};
  ::gmtime_r(&tt, &tm);
  static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed",
                                          "Thu", "Fri", "Sat"};
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr",
                                            "May", "Jun", "Jul", "Aug",
                                            "Sep", "Oct", "Nov", "Dec"};
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s, %02d %s %04d %02d:%02d:%02d GMT",
                kDays[tm.tm_wday], tm.tm_mday, kMonths[tm.tm_mon],
                tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
  return buf;
}

std::string render_html(const page& p) {
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<title>";
  h += html_escape(p.title);
  h += "</title>\n";
  if (p.meta_noindex || p.meta_nofollow) {
    h += "<meta name=\"robots\" content=\"";
    h += p.meta_noindex && p.meta_nofollow ? "noindex, nofollow"
         : p.meta_noindex                  ? "noindex"
                                           : "nofollow";
    h += "\">\n";
  }
  if (!p.base.empty()) h += "<base href=\"" + html_escape(p.base) + "\">\n";
  if (!p.canonical.empty())
    h += "<link rel=\"canonical\" href=\"" + html_escape(p.canonical) + "\">\n";
  h += "</head>\n<body>\n<h1>" + html_escape(p.title) + "</h1>\n<p>" + p.text +
       "</p>\n<ul>\n";
  std::size_t nofollows = 0;
  for (const crawl_link& l : p.links) {
    h += "<li><a href=\"" + html_escape(l.href) + "\"";
    // rel is a list of words: half the nofollow links carry another word too.
    if (l.nofollow)
      h += nofollows++ % 2 ? " rel=\"noopener nofollow\"" : " rel=\"nofollow\"";
    h += ">" + html_escape(l.href) + "</a></li>\n";
  }
  h += "</ul>\n";
  const std::string tail = "</body>\n</html>\n";
  if (p.pad_to > h.size() + tail.size() + 8) {
    const std::size_t fill = p.pad_to - h.size() - tail.size() - 8;
    h += "<p>";
    static constexpr std::string_view kWords = "lorem ipsum dolor sit amet ";
    for (std::size_t i = 0; i < fill; ++i) h += kWords[i % kWords.size()];
    h += "</p>\n";  // with "<p>", the 8 bytes set aside
  }
  return h + tail;
}

std::string body_of(const page& p) {
  return is_html_type(p.content_type) ? render_html(p) : p.raw_body;
}

// The <loc>s of a sitemap, in document order (the site's own sitemap: no
// CDATA, only &amp; to decode).
std::vector<std::string> sitemap_locs(std::string_view xml) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while ((at = xml.find("<loc>", at)) != std::string_view::npos) {
    const std::size_t end = xml.find("</loc>", at);
    if (end == std::string_view::npos) break;
    std::string loc(xml.substr(at + 5, end - at - 5));
    for (std::size_t a; (a = loc.find("&amp;")) != std::string::npos;)
      loc.replace(a, 5, "&");
    out.push_back(std::move(loc));
    at = end;
  }
  return out;
}

}  // namespace

bool is_html_type(std::string_view content_type) {
  std::string_view media = content_type.substr(0, content_type.find(';'));
  while (!media.empty() && media.back() == ' ') media.remove_suffix(1);
  return lower(media) == "text/html";
}

std::string crawl_url(std::string_view href, const normalized_url& base) {
  normalized_url resolved;
  if (resolve_url(href, base, resolved) != url_problem::ok) return "";
  std::string path(resolved.path());
  const std::string lowered = lower(path);
  if (const std::size_t at = lowered.find(";jsessionid=");
      at != std::string::npos) {
    const std::size_t end = path.find('/', at);
    path.erase(at, end == std::string::npos ? std::string::npos : end - at);
  }
  std::string query;
  std::string_view rest = resolved.query();
  if (!rest.empty()) rest.remove_prefix(1);
  while (!rest.empty()) {
    const std::size_t amp = rest.find('&');
    const std::string_view param = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? "" : rest.substr(amp + 1);
    if (is_session_name(param.substr(0, param.find('=')))) continue;
    query += query.empty() ? "?" : "&";
    query += param;
  }
  if (resolved.query() == "?") query = "?";  // an empty query stays as it was
  std::string out;
  const std::string joined = std::string(resolved.origin()) + path + query;
  if (normalize_url(joined, out) != url_problem::ok) return "";
  return out;
}

crawl_site::crawl_site(crawl_site_options options)
    : options_(options), server_(std::make_unique<http_server>()) {
  if (options_.pages < 20)
    throw std::invalid_argument("crawl_site: at least 20 pages");
  const std::string port = std::to_string(server_->port());
  const std::string self = "http://localhost:" + port;
  const std::string upper_self =
      "http://LOCALHOST:" + port;  // one host, upper case
  const std::string other_host = "http://127.0.0.1:" + port;
  const std::chrono::sys_seconds epoch{
      std::chrono::seconds{1704067200}};  // 2024-01-01

  auto add = [this](std::string key, page p) {
    // Keys are URLs as crawl_url() spells them: a key spelled otherwise
    // could never be looked up.
    std::string check = crawl_url(url(key), normalized_url{});
    if (check != url(key))
      throw std::logic_error("crawl_site: key not normalised: " + key);
    if (p.title.empty()) p.title = key;
    pages_[std::move(key)] = std::make_shared<const page>(std::move(p));
  };
  auto html = [](std::vector<crawl_link> links = {}) {
    page p;
    p.links = std::move(links);
    return p;
  };
  auto redirect = [](int status, std::string to) {
    page p;
    p.status = status;
    p.location = std::move(to);
    p.content_type.clear();
    return p;
  };
  auto file = [](std::string type, std::string body) {
    page p;
    p.content_type = std::move(type);
    p.raw_body = std::move(body);
    return p;
  };

  // The tree: page i's children are 3i+1..3i+3, so every page is reachable
  // from p0 and the depth grows as log3(pages); two seeded cross links each,
  // and hrefs in six spellings so that resolution and normalisation matter.
  const std::size_t n = options_.pages;
  auto tree_path = [](std::size_t i) {
    return "/site/s" + std::to_string(i % 10) + "/p" + std::to_string(i) +
           ".html";
  };
  auto tree_href = [&](std::size_t from, std::size_t to) {
    const std::string sec = "s" + std::to_string(to % 10);
    const std::string file_name = "p" + std::to_string(to) + ".html";
    const bool same = from % 10 == to % 10;
    switch ((from * 7 + to) % 6) {
      case 0:
        return same ? file_name : "../" + sec + "/" + file_name;
      case 1:
        return tree_path(to);
      case 2:
        return self + tree_path(to);
      case 3:
        return (same ? "./" + file_name : "../" + sec + "/" + file_name) +
               "#part";
      case 4:
        return upper_self + tree_path(to);
      default:
        return "/site/" + sec + "/../" + sec + "/" + file_name;
    }
  };
  std::mt19937 rng(options_.seed);
  for (std::size_t i = 0; i < n; ++i) {
    page p;
    p.title = "Page " + std::to_string(i);
    for (std::size_t c = 3 * i + 1; c <= 3 * i + 3 && c < n; ++c)
      p.links.push_back({tree_href(i, c)});
    for (int k = 0; k < 2; ++k) p.links.push_back({tree_href(i, rng() % n)});
    p.links.push_back({"../"});
    if (i % 3 == 0) p.last_modified = epoch + std::chrono::hours(i);
    add(tree_path(i), std::move(p));
  }

  // The home page: the tree's root and every trap, in this order (the order
  // is part of the answer: max_pages takes the first URLs discovered).
  page home;
  home.title = "Crawl test site";
  home.links = {
      {"s0/p0.html"},
      {"r/chain"},
      {"r/loop-a"},
      {"r/offhost"},
      {"r/to-missing"},
      {"missing-page"},
      {"gone"},
      {"broken"},
      {"busy"},
      {"unavailable"},
      {"noindex-meta"},
      {"noindex-header"},
      {"nofollow-meta"},
      {"nofollow-only", true},
      {"s5/p5.html", true},  // nofollow, but reachable through the tree
      {"canon-dup"},
      {"canon-self"},
      {"private/secret"},
      {"private/open"},
      {"private/opened"},
      {"s3/p3.html?print=1"},
      {"calendar?month=0"},
      {"shop"},
      {"s1/p1.html?PHPSESSID=abc123"},
      {"s2/p2.html;jsessionid=0A1B2C3D"},
      {"s1/p11.html?sid=77"},
      {"s2/p12.html?sessionid=x1"},
      {"s3/p13.html?Session_Id=x2"},
      {"s4/p14.html?phpsessid=x3"},
      {"session-only;jsessionid=9F"},
      {"files/doc.pdf"},
      {"files/photo.jpg"},
      {"files/notes.txt"},
      {"api/data.json"},
      {"latin1"},
      {"slow"},
      {"huge"},
      {other_host + "/site/offhost-target"},
      {"http://other.invalid/site/"},
      {"https://localhost:" + port + "/site/"},
      {"mailto:webmaster@localhost"},
      {"javascript:void(0)"},
      {"tel:+15550100"},
      {"#top"},
      {"base-page"},
      {"caf\xC3\xA9"},
      {"caf%C3%A9"},
      {"caf%c3%a9#menu"},
      {"../outside/page"},
      {"/site-extra/page"},
      {upper_self + "/site/upper-host"},
  };
  add("/site/", std::move(home));

  // Redirects: a chain whose last hop is relative, a loop, one to another
  // host (which a crawler must not follow), one to a 404.
  add("/site/r/chain", redirect(301, "/site/r/chain2"));
  add("/site/r/chain2", redirect(302, "chain-target"));
  add("/site/r/chain-target", html());
  add("/site/r/loop-a", redirect(301, "/site/r/loop-b"));
  add("/site/r/loop-b", redirect(302, self + "/site/r/loop-a"));
  add("/site/r/offhost", redirect(301, other_host + "/site/offhost-target"));
  add("/site/offhost-target", html());
  add("/site/r/to-missing", redirect(302, "/site/r/missing"));

  page gone = file("text/plain; charset=utf-8", "gone\n");
  gone.status = 410;
  add("/site/gone", std::move(gone));
  page broken = file("text/plain; charset=utf-8", "broken\n");
  broken.status = 500;
  add("/site/broken", std::move(broken));
  page busy = html();
  busy.first_statuses = {429};
  add("/site/busy", std::move(busy));
  page unavailable = html();
  unavailable.first_statuses = {503};
  add("/site/unavailable", std::move(unavailable));

  // Robots directives: noindex pages' links are followed, nofollow pages'
  // are not.
  page noindex_meta = html({{"via-noindex-meta"}});
  noindex_meta.meta_noindex = true;
  add("/site/noindex-meta", std::move(noindex_meta));
  add("/site/via-noindex-meta", html());
  page noindex_header = html({{"via-noindex-header"}});
  noindex_header.header_noindex = true;
  add("/site/noindex-header", std::move(noindex_header));
  add("/site/via-noindex-header", html());
  page nofollow_meta = html({{"via-nofollow-meta"}});
  nofollow_meta.meta_nofollow = true;
  add("/site/nofollow-meta", std::move(nofollow_meta));
  add("/site/via-nofollow-meta", html());
  add("/site/nofollow-only", html());

  // Canonicals: one elsewhere (to a tree page, linked from the tree too),
  // one to itself spelled with an upper-case host.
  page canon_dup = html({{"via-canonical"}});
  canon_dup.canonical = "/site/s7/p7.html";
  add("/site/canon-dup", std::move(canon_dup));
  add("/site/via-canonical", html());
  page canon_self = html();
  canon_self.canonical = upper_self + "/site/canon-self";
  add("/site/canon-self", std::move(canon_self));

  // robots.txt: the `*` group shuts everything, and must not apply to
  // sitemill, which has a group of its own.
  add("/robots.txt", file("text/plain; charset=utf-8",
                          "# The crawl test site\n"
                          "User-agent: *\n"
                          "Disallow: /site/\n"
                          "\n"
                          "User-agent: sitemill\n"
                          "Disallow: /site/private/\n"
                          "Disallow: /site/*?print=1\n"
                          "Allow: /site/private/open$\n"
                          "\n"
                          "Sitemap: " +
                              self + "/site/sitemap.xml\n"));
  add("/site/private/secret", html());
  add("/site/private/open", html());
  add("/site/private/opened", html());
  add("/site/sitemap.xml",
      file("application/xml",
           "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
           "<url><loc>" +
               self +
               "/site/</loc></url>\n"
               "<url><loc>" +
               self +
               "/site/orphan</loc></url>\n"
               "</urlset>\n"));
  page orphan = html();
  orphan.last_modified = epoch - std::chrono::hours(24);
  add("/site/orphan", std::move(orphan));

  add("/site/shop", html({{"shop?color=red&size=m"},
                          {"shop?color=green&size=m"},
                          {"shop?color=blue&size=m"},
                          {"shop?color=black&size=m"}}));
  add("/site/session-only", html());

  // Not HTML: none is listed, and none is read for links (the text file and
  // the JSON name pages that exist).
  add("/site/files/doc.pdf",
      file("application/pdf", "%PDF-1.4\n% a test file\n%%EOF\n"));
  add("/site/files/photo.jpg",
      file("image/jpeg", std::string("\xFF\xD8\xFF\xE0\0\x10JFIF\0", 12)));
  add("/site/files/notes.txt",
      file("text/plain", "See <a href=\"/site/via-text\">this</a>.\n"));
  add("/site/via-text", html());
  add("/site/api/data.json",
      file("application/json", "{\"next\": \"/site/via-json\"}\n"));
  add("/site/via-json", html());

  page latin1 = html({{"latin1-child"}});
  latin1.content_type = "text/html; charset=ISO-8859-1";
  latin1.text = "Caf\xE9 cr\xE8me";  // Latin-1 bytes, not UTF-8
  add("/site/latin1", std::move(latin1));
  add("/site/latin1-child", html());

  page slow = html();
  slow.delay = options_.slow_delay;
  add("/site/slow", std::move(slow));
  // The link comes first, so a crawler that reads the first bytes of a page
  // over the cap and follows them lists after-huge.
  page huge = html({{"after-huge"}});
  huge.pad_to = options_.huge_bytes;
  add("/site/huge", std::move(huge));
  add("/site/after-huge", html());

  // <base href>: "leaf" and "../up" resolve against /site/deep/dir/, not
  // against /site/base-page (where nothing is served).
  page based = html({{"leaf"}, {"../up"}});
  based.base = "/site/deep/dir/";
  add("/site/base-page", std::move(based));
  add("/site/deep/dir/leaf", html());
  add("/site/deep/up", html());

  add("/site/caf%C3%A9", html());
  add("/site/upper-host", html());
  // Out of scope on this host: above /site/, and a sibling that only
  // shares the prefix's letters.
  add("/outside/page", html());
  add("/site-extra/page", html());

  server_->fallback([this](const recorded_request& r) { return answer(r); });
}

crawl_site::~crawl_site() = default;

std::string crawl_site::start_url() const { return url("/site/"); }

std::string crawl_site::url(std::string_view path_and_query) const {
  std::string u = "http://localhost:" + std::to_string(server_->port());
  u.append(path_and_query);
  return u;
}

std::string crawl_site::resolve_entry() const {
  return "localhost:" + std::to_string(server_->port()) + ":127.0.0.1";
}

std::shared_ptr<const crawl_site::page> crawl_site::lookup(
    std::string_view key) const {
  if (const auto it = pages_.find(key); it != pages_.end()) return it->second;
  const std::size_t q = key.find('?');
  if (q == std::string_view::npos) return nullptr;
  const std::string_view path = key.substr(0, q);
  const std::string_view query = key.substr(q + 1);
  // The calendar: month=K links month K+1 for ever (and K-1).
  if (path == "/site/calendar" && query.substr(0, 6) == "month=") {
    const std::string_view digits = query.substr(6);
    if (digits.empty() || digits.size() > 9 ||
        !std::all_of(digits.begin(), digits.end(),
                     [](char c) { return c >= '0' && c <= '9'; }) ||
        (digits.size() > 1 && digits[0] == '0'))
      return nullptr;
    const long month = std::stol(std::string(digits));
    auto p = std::make_shared<page>();
    p->title = "Calendar, month " + std::to_string(month);
    p->links.push_back({"calendar?month=" + std::to_string(month + 1)});
    if (month > 0)
      p->links.push_back({"calendar?month=" + std::to_string(month - 1)});
    return p;
  }
  // Faceted search: every colour and size, each linking the combinations
  // that differ in one facet, and a sorted variant: 32 query strings.
  if (path == "/site/shop") {
    static constexpr std::string_view kColors[] = {"red", "green", "blue",
                                                   "black"};
    static constexpr std::string_view kSizes[] = {"s", "m", "l", "xl"};
    for (const auto color : kColors) {
      for (const auto size : kSizes) {
        const std::string facet =
            "color=" + std::string(color) + "&size=" + std::string(size);
        if (query != facet && query != facet + "&sort=price") continue;
        auto p = std::make_shared<page>();
        p->title = "Shop: " + facet;
        if (query == facet) {
          for (const auto s : kSizes)
            if (s != size)
              p->links.push_back({"shop?color=" + std::string(color) +
                                  "&size=" + std::string(s)});
          for (const auto c : kColors)
            if (c != color)
              p->links.push_back({"shop?color=" + std::string(c) +
                                  "&size=" + std::string(size)});
          p->links.push_back({"shop?" + facet + "&sort=price"});
        } else {
          p->links.push_back({"shop?" + facet});
        }
        return p;
      }
    }
    return nullptr;
  }
  // A printable version of any page, which robots.txt keeps sitemill from.
  if (query == "print=1") {
    if (const auto it = pages_.find(path);
        it != pages_.end() && it->second->status == 200 &&
        is_html_type(it->second->content_type)) {
      auto p = std::make_shared<page>();
      p->title = "Print: " + std::string(path);
      p->links.push_back({std::string(path)});
      return p;
    }
  }
  return nullptr;
}

namespace {
// What the server says for a URL it does not serve (http_server's own 404).
constexpr std::string_view kMissingBody = "not found\n";
constexpr std::string_view kMissingType = "text/plain; charset=utf-8";
}  // namespace

http_reply crawl_site::answer(const recorded_request& request) {
  // Any spelling of a URL (session ids, %-case, dot segments) reaches the
  // page it names, as on a real site.
  const std::string key = [&] {
    normalized_url n;
    (void)normalize_url(crawl_url(url(request.target), normalized_url{}), n);
    return std::string(n.path_and_query());
  }();
  const auto p = lookup(key);
  if (!p)
    return text_reply(404, std::string(kMissingBody),
                      std::string(kMissingType));
  if (!p->first_statuses.empty()) {
    std::lock_guard lock(once_mu_);
    const int i = answered_[key]++;
    if (i < static_cast<int>(p->first_statuses.size())) {
      const int status = p->first_statuses[static_cast<std::size_t>(i)];
      http_reply r = text_reply(status, "try again\n");
      if (status == 429) r.headers.emplace_back("Retry-After", "1");
      return r;
    }
  }
  // A page that sends Last-Modified answers a request that names the same
  // date 304, as static servers do: what a re-crawl with --state asks.
  if (p->last_modified && p->status == 200 &&
      request.header("If-Modified-Since") == http_date(*p->last_modified)) {
    http_reply unchanged;
    unchanged.status = 304;
    unchanged.headers.emplace_back("Last-Modified", http_date(*p->last_modified));
    return unchanged;
  }
  http_reply r;
  r.status = p->status;
  if (!p->content_type.empty())
    r.headers.emplace_back("Content-Type", p->content_type);
  if (!p->location.empty()) r.headers.emplace_back("Location", p->location);
  if (p->header_noindex) r.headers.emplace_back("X-Robots-Tag", "noindex");
  if (p->last_modified)
    r.headers.emplace_back("Last-Modified", http_date(*p->last_modified));
  r.body = body_of(*p);
  r.delay = p->delay;
  r.chunked = p->pad_to > 0;  // the huge page announces no length
  r.chunk_size = 64 * 1024;
  return r;
}

crawl_fetch crawl_site::model_fetch(const std::string& target) const {
  crawl_fetch f;
  normalized_url n;
  const auto p =
      normalize_url(crawl_url(target, normalized_url{}), n) == url_problem::ok
          ? lookup(n.path_and_query())
          : nullptr;
  if (!p) {
    f.status = 404;
    f.content_type = kMissingType;
    f.text = kMissingBody;
    f.body_bytes = kMissingBody.size();
    return f;
  }
  f.status = p->status;
  f.location = p->location;
  f.content_type = p->content_type;
  f.last_modified = p->last_modified;
  if (!f.location.empty()) return f;  // a redirect has no body here
  const std::string body = body_of(*p);
  f.body_bytes = body.size();
  if (!is_html_type(p->content_type)) {
    f.text = body;
    return f;
  }
  f.noindex = p->meta_noindex || p->header_noindex;
  f.nofollow = p->meta_nofollow;
  f.canonical = p->canonical;
  f.base = p->base;
  f.links = p->links;
  return f;
}

crawl_result crawl_site::crawl_with(const crawl_expectations& x,
                                    const crawl_fetcher& fetch) const {
  if (x.max_query_variants == crawl_unlimited &&
      x.max_pages == crawl_unlimited && x.max_depth == crawl_unlimited)
    throw std::invalid_argument(
        "crawl_with: the calendar never ends: set max_query_variants, "
        "max_pages or max_depth");
  normalized_url start;
  (void)normalize_url(start_url(), start);
  crawl_result r;

  const std::string robots_url = url("/robots.txt");
  const crawl_fetch robots = fetch(robots_url);
  robots_rules rules;
  if (x.respect_robots && robots.status == 200)
    rules = parse_robots_rules(robots.text, "sitemill");

  struct queued {
    std::string url;
    std::size_t depth;
  };
  std::deque<queued> queue;
  std::set<std::string> seen;
  std::set<std::string> over_depth;  // discovered too deep, not (yet) seen
  std::map<std::string, std::size_t> variants;  // path -> query strings
  auto discover = [&](const std::string& u, std::size_t depth) {
    normalized_url n;
    if (u.empty() || normalize_url(u, n) != url_problem::ok ||
        !within_scope(n, start) || seen.count(u))
      return;
    if (depth > x.max_depth) {
      over_depth.insert(u);
      return;
    }
    seen.insert(u);
    over_depth.erase(u);
    if (x.respect_robots && !rules.allowed(n.path_and_query())) {
      r.skipped[u] = "robots";
      return;
    }
    if (!n.query().empty()) {
      std::size_t& count = variants[std::string(n.path())];
      if (count >= x.max_query_variants) {
        r.skipped[u] = "trap cap";
        return;
      }
      ++count;  // seen before, so its query string is a new one
    }
    queue.push_back({u, depth});
  };

  discover(std::string(start.href()), 0);
  if (x.seed_sitemaps && robots.status == 200) {
    for (const auto& s : find_sitemaps(robots.text, robots_url).sitemaps) {
      const crawl_fetch sitemap = fetch(s.url);
      if (sitemap.status != 200) continue;
      for (const std::string& loc : sitemap_locs(sitemap.text))
        discover(crawl_url(loc, normalized_url{}), 0);
    }
  }

  std::size_t fetches = 0;
  while (!queue.empty()) {
    const queued q = std::move(queue.front());
    queue.pop_front();
    if (fetches == x.max_pages) {
      r.skipped[q.url] = "max pages";
      continue;
    }
    ++fetches;
    r.fetched.push_back(q.url);
    const crawl_fetch f = fetch(q.url);
    normalized_url here;
    (void)normalize_url(q.url, here);
    if (f.status >= 300 && f.status < 400 && !f.location.empty()) {
      r.skipped[q.url] = "redirect";
      discover(crawl_url(f.location, here), q.depth);
      continue;
    }
    if (f.status != 200) {
      r.skipped[q.url] = "status " + std::to_string(f.status);
      continue;
    }
    if (!is_html_type(f.content_type)) {
      r.skipped[q.url] = "not html";
      continue;
    }
    if (f.body_bytes > x.max_response_bytes) {
      r.skipped[q.url] = "too large";
      continue;
    }
    normalized_url base = here;
    if (!f.base.empty()) {
      normalized_url b;
      if (resolve_url(f.base, here, b) == url_problem::ok) base = b;
    }
    if (!f.nofollow) {
      for (const crawl_link& l : f.links)
        if (!l.nofollow) discover(crawl_url(l.href, base), q.depth + 1);
    }
    const std::string canonical =
        f.canonical.empty() ? "" : crawl_url(f.canonical, base);
    if (f.noindex) {
      r.skipped[q.url] = "noindex";
    } else if (!canonical.empty() && canonical != q.url) {
      r.skipped[q.url] = "canonical";
    } else {
      r.listed.push_back(q.url);
      if (f.last_modified) r.lastmod[q.url] = *f.last_modified;
    }
  }
  for (const std::string& u : over_depth) r.skipped.emplace(u, "max depth");
  std::sort(r.listed.begin(), r.listed.end());
  return r;
}

std::vector<std::string> crawl_site::expected_urls(
    const crawl_expectations& x) const {
  return crawl_with(x, [this](const std::string& u) { return model_fetch(u); })
      .listed;
}

std::map<std::string, std::string> crawl_site::expected_skips(
    const crawl_expectations& x) const {
  return crawl_with(x, [this](const std::string& u) { return model_fetch(u); })
      .skipped;
}

std::optional<std::chrono::sys_seconds> crawl_site::expected_lastmod(
    std::string_view u) const {
  normalized_url n;
  if (normalize_url(crawl_url(u, normalized_url{}), n) != url_problem::ok)
    return std::nullopt;
  const auto p = lookup(n.path_and_query());
  if (!p) return std::nullopt;
  return p->last_modified;
}

}  // namespace sitemill::testing
