#include "sitemill/walk/site.h"

#include <algorithm>

#include "detail/text.h"
#include "html/page_answer.h"
#include "sitemill/limits.h"
#include "sitemill/parse/sitemap_parser.h"
#include "sitemill/robots/robots.h"

namespace sitemill {
namespace {

// One byte past what find_sitemaps() reads, so it can tell a file that ends at
// the limit from one the limit cuts.
constexpr std::size_t robots_keep_bytes = max_robots_txt_bytes + 1;

std::string robots_url_of(const normalized_url& site) {
  return std::string(site.origin()) + "/robots.txt";
}

diagnostic about_file(severity level, std::string_view code,
                      std::string message) {
  diagnostic d;
  d.level = level;
  d.code = code;
  d.message = std::move(message);
  return d;
}

// The kind the one parser sees in the first bytes of an answer, and whether
// a text document's first line was a URL.
class kind_sniffer final : public parse_handler {
 public:
  void on_document(document_kind k) override { kind = k; }
  void on_entry(const parsed_entry&) override { ++entries; }
  document_kind kind = document_kind::unknown;
  std::uint64_t entries = 0;
};

// Whether the first bytes of a 200 answer are a sitemap; `verdict` says
// what they are.
bool sniff_sitemap(std::string_view body, std::string_view content_type,
                   std::string& verdict) {
  kind_sniffer k;
  parse_options o;
  o.schema_checks = false;
  {
    sitemap_parser parser(k, o);
    (void)parser.feed(body.data(), body.size());
    (void)parser.finish();
  }
  // Any text reads as a text document: only a URL on its first line makes
  // it a sitemap ("Not found" served with 200 does not).
  if (k.kind != document_kind::unknown &&
      (k.kind != document_kind::text || k.entries > 0)) {
    verdict = "a sitemap (" + std::string(to_string(k.kind)) + ")";
    return true;
  }
  const std::string_view start = detail::trim(body);
  if (detail::is_html_media_type(content_type) ||
      detail::istarts_with(start, "<!doctype html") ||
      detail::istarts_with(start, "<html"))
    verdict = "an HTML page (a soft 404), not a sitemap";
  else
    verdict = "not a sitemap";
  return false;
}

void trace(const sitemap_walker& walker, const std::string& line) {
  if (walker.caps().trace) walker.caps().trace(line);
}

}  // namespace

std::vector<walk_link> probe_common_sitemaps(
    sitemap_walker& walker, const normalized_url& site,
    const std::string& robots_url, std::vector<sitemap_probe>& probes,
    const std::function<void()>& before_each) {
  std::vector<walk_link> out;
  const std::string origin(site.origin());
  for (std::string_view path : common_sitemap_paths) {
    if (walker.stopped()) break;
    if (before_each) before_each();
    sitemap_probe p;
    p.url = origin + std::string(path);
    walk_text got = walker.peek(p.url, sitemap_probe_bytes);
    if (got.stop != walk_stop::none) break;
    std::string answered = p.url;
    if (!got.response) {
      p.verdict = "fetch failed: " + got.error;
    } else {
      p.status = got.response->status;
      normalized_url at;
      if (!got.response->effective_url.empty() &&
          normalize_url(got.response->effective_url, at) == url_problem::ok)
        answered = std::string(at.href());
      const auto same =
          std::find_if(out.begin(), out.end(),
                       [&](const walk_link& l) { return l.url == answered; });
      if (p.status != 200) {
        p.verdict = "HTTP " + std::to_string(p.status);
      } else if (same != out.end()) {
        p.verdict = "the same as " + same->source;
      } else {
        p.found =
            sniff_sitemap(got.body, got.response->content_type, p.verdict);
      }
    }
    trace(walker, "sitemap location " + p.url + ": " + p.verdict);
    if (p.found) {
      walk_link l;
      l.url = answered;  // redirected: the URL that answers
      l.source = p.url;
      l.listing = walk_listing{robots_url, p.url, 0, 0};
      out.push_back(std::move(l));
    }
    probes.push_back(std::move(p));
  }
  return out;
}

bool names_site(std::string_view target, normalized_url& site) {
  return has_http_scheme(detail::trim(target)) &&
         normalize_url(target, site) == url_problem::ok &&
         site.path_and_query() == "/";
}

walk_document site_robots_document(const normalized_url& site) {
  walk_document robots;
  robots.source = robots.url = robots_url_of(site);
  robots.fetched = true;
  return robots;
}

site_sitemaps find_site_sitemaps(sitemap_walker& walker,
                                 const normalized_url& site,
                                 std::string_view target) {
  site_sitemaps out;
  const std::string origin(site.origin());
  const std::string robots_url = robots_url_of(site);
  // Cut at what is read: a robots.txt of gigabytes is robots-truncated,
  // not downloaded to the byte cap and then unreadable.
  out.robots = walker.peek(robots_url, robots_keep_bytes);
  if (!out.robots.response) {
    if (out.robots.stop == walk_stop::none) {
      out.diagnostics.push_back(
          about_file(severity::error, "fetch-failed",
                     "robots.txt of " + std::string(target) +
                         " could not be fetched: " + out.robots.error));
      out.unreadable = true;
    }
    return out;
  }
  const http_response& r = *out.robots.response;
  const std::string where =
      r.effective_url.empty() ? robots_url : r.effective_url;
  robots_sitemaps found;
  if (r.status == 200) {
    found = find_sitemaps(out.robots.body, where);
    out.diagnostics = std::move(found.diagnostics);
    if (found.sitemaps.empty())
      out.diagnostics.push_back(about_file(
          severity::info, "no-sitemap-line",
          "robots.txt names no sitemap that can be fetched; " + origin +
              "/sitemap.xml is tried instead. Add 'Sitemap: <full URL>' "
              "lines so every search engine finds the sitemaps"));
  } else if (r.status >= 400 && r.status < 500) {
    out.diagnostics.push_back(
        about_file(severity::info, "robots-txt-missing",
                   "robots.txt answered HTTP " + std::to_string(r.status) +
                       ", so it names no sitemap; the common locations (" +
                       origin + "/sitemap.xml, ...) are tried instead"));
  } else {
    out.diagnostics.push_back(about_file(
        severity::error, "http-status",
        "robots.txt answered HTTP " + std::to_string(r.status) +
            ": crawlers treat a robots.txt they cannot read as forbidding "
            "the whole site (RFC 9309 2.3.1.4); it must answer 200, or 404 "
            "when there is none"));
  }
  out.named = found.sitemaps.size();

  // The origin that answered, after redirects, is the site's.
  normalized_url answered;
  if (normalize_url(where, answered) != url_problem::ok)
    (void)normalize_url(robots_url, answered);
  if (found.sitemaps.empty()) {
    out.fallback = true;
    out.links = probe_common_sitemaps(walker, site, robots_url, out.probes);
    if (out.links.empty() && !walker.stopped()) {
      std::string tried;
      for (const sitemap_probe& p : out.probes)
        tried += (tried.empty() ? "" : "; ") + p.url + ": " + p.verdict;
      out.diagnostics.push_back(about_file(
          severity::error, "no-sitemap-found",
          "no sitemap found: robots.txt names none, and none of the common "
          "locations answers one (" +
              tried +
              "); publish a sitemap and add 'Sitemap: <full URL>' lines to "
              "robots.txt"));
    }
  } else {
    out.links = listed_sitemaps(found, robots_url, answered);
  }
  return out;
}

std::vector<walk_link> listed_sitemaps(const robots_sitemaps& found,
                                       const std::string& robots_url,
                                       const normalized_url& answered) {
  const std::string robots_site = std::string(answered.origin()) + "/";
  std::vector<walk_link> out;
  for (const robots_sitemap& s : found.sitemaps) {
    normalized_url url;
    if (normalize_url(s.url, url) != url_problem::ok) continue;  // reported
    walk_link l;
    l.url = std::string(url.href());
    l.source = s.url;
    l.listing = walk_listing{robots_url, s.url, s.line, 0};
    if (url.origin() != answered.origin()) l.cross_submit = robots_site;
    out.push_back(std::move(l));
  }
  return out;
}

}  // namespace sitemill
