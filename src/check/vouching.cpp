// A sitemap in a folder of its site (https://www.example.com/sitemaps/) may
// list URLs anywhere on its host when the host's robots.txt names it in a
// Sitemap: line: the location rule (docs/protocol.md 1.6) gives way to the
// owner's word, as for a cross-submit (1.7), and so do the children of an
// index it names. The robots.txt is read only when a document has entries
// outside its directory, once per host: fetched for a fetched sitemap, read
// from the site's root on disk for a local one (its directory, up one level
// per directory of the URL it is served at); a site target's robots.txt,
// read anyway, is remembered.
#include <filesystem>
#include <fstream>

#include "check/checker.h"
#include "sitemill/limits.h"
#include "sitemill/robots/robots.h"

namespace sitemill::detail {
namespace {

namespace fs = std::filesystem;

// The site's root on disk for `path` served at `url`: "public/" for
// public/sitemaps/sitemap.xml at https://www.example.com/sitemaps/sitemap.xml.
// Empty when the directories' names are not the URL's.
fs::path local_site_root(const std::string& path, const normalized_url& url) {
  std::string_view dir = url.path();
  dir = dir.substr(0, dir.rfind('/'));  // "/sitemaps"
  std::error_code ec;
  fs::path at = fs::absolute(fs::path(path), ec).lexically_normal();
  if (ec) return {};
  at = at.parent_path();
  while (!dir.empty()) {
    const std::size_t slash = dir.rfind('/');
    if (at.filename().string() != percent_decode(dir.substr(slash + 1)))
      return {};
    at = at.parent_path();
    dir = dir.substr(0, slash);
  }
  return at;
}

std::string read_prefix(const fs::path& file, std::size_t max) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  std::string body(max, '\0');
  in.read(body.data(), static_cast<std::streamsize>(max));
  body.resize(static_cast<std::size_t>(in.gcount()));
  return body;
}

}  // namespace

bool checker::vouched_by_lister(const walk_document& doc) const {
  if (open_.empty() || doc.url.empty()) return false;
  const open_document& lister = open_.back();
  normalized_url url, at;
  if (normalize_url(doc.url, url) != url_problem::ok) return false;
  if (lister.robots)  // a site target's robots.txt: a same-host line
    return !lister.fallback &&
           normalize_url(doc.listing.source, at) == url_problem::ok &&
           at.origin() == url.origin();
  return lister.vouched && normalize_url(lister.url, at) == url_problem::ok &&
         at.origin() == url.origin();
}

void checker::remember_robots(const std::string& origin,
                              const std::vector<walk_link>& links) {
  std::set<std::string>& named = robots_named_[origin];
  for (const walk_link& l : links) named.insert(l.url);
}

const std::set<std::string>* checker::robots_named(const walk_document& doc,
                                                   const std::string& origin) {
  if (auto it = robots_named_.find(origin); it != robots_named_.end())
    return &it->second;
  std::set<std::string>& named = robots_named_[origin];
  const std::string robots_url = origin + "/robots.txt";
  std::string body;
  if (doc.fetched) {
    const walk_text got = walker_.fetch_text(robots_url, max_robots_txt_bytes);
    if (!got.response || got.response->status != 200) return &named;
    body = got.body;
  } else {
    // An object of a bucket: no site root on disk to read a robots.txt from.
    if (doc.path.starts_with("s3://")) return &named;
    normalized_url url;
    if (normalize_url(doc.url, url) != url_problem::ok) return &named;
    const fs::path root = local_site_root(doc.path, url);
    if (root.empty()) return &named;
    body = read_prefix(root / "robots.txt", max_robots_txt_bytes);
  }
  for (const robots_sitemap& s : find_sitemaps(body, robots_url).sitemaps)
    named.insert(s.url);
  return &named;
}

void checker::vouch_if_named(const walk_document& doc, const walk_read& read,
                             open_document& d) {
  if (d.vouched || !d.context || d.context->outside() == 0 ||
      doc.cross_submit || d.url.empty() || doc.path == "-")
    return;
  normalized_url url, listed;
  // Redirected to another host: its robots.txt speaks for other URLs.
  if (normalize_url(d.url, url) != url_problem::ok ||
      normalize_url(doc.url, listed) != url_problem::ok ||
      listed.origin() != url.origin())
    return;
  const std::string origin(url.origin());
  const std::set<std::string>* named = robots_named(doc, origin);
  if (named == nullptr || named->empty()) return;
  // The document, as listed or requested and where it answered, or an
  // index above it on the same host.
  std::vector<std::string> names = {doc.url, d.url, read.final_url};
  for (const open_document& o : open_)
    if (&o != &d && o.context) names.push_back(o.url);
  for (const std::string& n : names) {
    normalized_url u;
    if (n.empty() || normalize_url(n, u) != url_problem::ok ||
        u.origin() != url.origin() || !named->count(std::string(u.href())))
      continue;
    d.vouched = true;
    d.context->vouch();
    return;
  }
}

}  // namespace sitemill::detail
