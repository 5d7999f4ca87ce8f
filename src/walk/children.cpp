// The walker's two rules about what it reads: which local file a local
// index's child is (the child location rule), and which locations and
// addresses may be fetched (the fetch scope). walker.h states both.
#include <algorithm>
#include <filesystem>

#include "detail/text.h"
#include "walk/walker_impl.h"

namespace sitemill::detail {

namespace fs = std::filesystem;

local_child child_relative_path(const normalized_url& index_dir,
                                const normalized_url& child,
                                std::string_view loc) {
  std::string_view rel;
  if (!child.empty()) {
    if (!within_scope(child, index_dir))
      return {{}, std::string(index_dir.scope_directory())};
    rel = child.href().substr(index_dir.scope_directory().size());
  } else {
    rel = trim(loc);
    if (has_http_scheme(rel)) return {};  // a URL that does not normalise
  }
  rel = rel.substr(0, std::min(rel.find_first_of("?#"), rel.size()));
  std::string decoded = percent_decode(rel);
  if (decoded.empty() || decoded.back() == '/' ||
      decoded.find('\0') != std::string::npos)
    return {};
  // Never leave the index's directory: a hostile index must not make a
  // reader open (and quote) /etc/passwd, or another prefix's objects.
  if (fs::path(decoded).is_absolute()) return {};
  for (const auto& part : fs::path(decoded))
    if (part == "..") return {};
  return {std::move(decoded), {}};
}

local_child local_child_path(const std::string& index_path,
                             const normalized_url& index_dir,
                             const normalized_url& child,
                             std::string_view loc) {
  local_child c = child_relative_path(index_dir, child, loc);
  if (c.path.empty()) return c;
  // An index in the working directory (or stdin) has its children there,
  // named as they are, without "./".
  const fs::path dir =
      index_path == "-" ? fs::path() : fs::path(index_path).parent_path();
  c.path = (dir / c.path).string();
  return c;
}

namespace {

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec);
}

// What marks `dir` as a site's root: a robots.txt, which only a host's root
// has (RFC 9309 2.3), or an index.html, its home page; "" when neither.
std::string_view root_marker(const fs::path& dir) {
  for (std::string_view m : {"robots.txt", "index.html"})
    if (is_file(dir / m)) return m;
  return {};
}

// Directories looked at above an index for its site's root: deeper than
// any web root, and a bound on a hostile tree.
constexpr int max_root_levels = 32;

// The nearest directory at or above `dir` that root_marker() marks; empty
// when none is, up to the filesystem root or the root of the Git repository
// holding `dir` (a site's files are never above their repository).
fs::path nearest_site_root(fs::path dir, std::string_view& marker) {
  for (int level = 0; level < max_root_levels && !dir.empty(); ++level) {
    marker = root_marker(dir);
    if (!marker.empty()) return dir;
    std::error_code ec;
    if (fs::exists(dir / ".git", ec) || dir == dir.root_path()) break;
    dir = dir.parent_path();
  }
  marker = {};
  return {};
}

// A relative local path as the path of a URL: what would end the path or
// start an escape is escaped; normalisation encodes the rest (and writes the
// hex digits in capitals).
std::string as_url_path(std::string_view rel) {
  std::string out;
  for (const char c : rel) {
    if (c == '%' || c == '?' || c == '#') {
      out += '%';
      out += to_hex(static_cast<unsigned char>(c), 2);
    } else {
      out += c;
    }
  }
  return out;
}

// Children sampled to tell where their files are: enough to see a pattern,
// few enough that a 50,000-entry index costs no more than a glance.
constexpr std::size_t max_children_sampled = 64;

}  // namespace

namespace {

// The absolute children's URLs on the first one's origin.
std::vector<normalized_url> children_on_first_origin(
    const std::vector<child_ref>& children) {
  std::vector<normalized_url> urls;
  for (const child_ref& c : children) {
    normalized_url u;
    if (normalize_url(c.loc, u) != url_problem::ok) continue;
    if (!urls.empty() && u.origin() != urls.front().origin()) continue;
    urls.push_back(std::move(u));
  }
  return urls;
}

// The deepest directory every URL of `urls` (not empty) is at or below.
std::string_view common_directory(const std::vector<normalized_url>& urls) {
  std::string_view common = urls.front().scope_directory();
  for (const normalized_url& u : urls) {
    const std::string_view d = u.scope_directory();
    std::size_t n = 0;
    while (n < common.size() && n < d.size() && common[n] == d[n]) ++n;
    common = common.substr(0, common.rfind('/', n - 1) + 1);
  }
  return common;
}

}  // namespace

local_placement place_bucket_index(std::string_view index_name,
                                   const std::vector<child_ref>& children) {
  local_placement out;
  const std::vector<normalized_url> urls = children_on_first_origin(children);
  if (urls.empty()) return out;
  (void)normalize_url(
      std::string(common_directory(urls)) + as_url_path(index_name),
      out.index_url);
  return out;
}

local_placement place_local_index(const std::string& index_path,
                                  const std::vector<child_ref>& children) {
  local_placement out;
  const std::vector<normalized_url> urls = children_on_first_origin(children);
  if (urls.empty()) return out;
  const std::string origin(urls.front().origin());

  // Where the children's URLs put the index: their common directory, or the
  // directory above it under which the most of their files are found (a
  // root index lists en/sitemap.xml and de/sitemap.xml, or en/ alone).
  const std::string_view common = common_directory(urls);
  const std::size_t sample = std::min(urls.size(), max_children_sampled);
  std::string best(common);
  int best_found = -1;
  for (std::string dir(common);;) {
    normalized_url d;
    if (normalize_url(dir, d) == url_problem::ok) {
      int found = 0;
      for (std::size_t i = 0; i < sample; ++i) {
        const local_child c = local_child_path(index_path, d, urls[i], {});
        if (!c.path.empty() && is_file(c.path) &&
            !same_file(c.path, index_path))
          ++found;
      }
      if (found > best_found) best = dir, best_found = found;
    }
    if (dir.size() <= origin.size() + 1) break;
    dir.resize(dir.rfind('/', dir.size() - 2) + 1);
  }
  const bool from_stdin = index_path == "-";
  const fs::path index_file =
      from_stdin ? fs::path() : fs::absolute(index_path).lexically_normal();
  if (normalize_url(
          best + (from_stdin ? std::string()
                             : as_url_path(index_file.filename().string())),
          out.index_url) != url_problem::ok)
    return out;
  if (from_stdin) return out;

  // The site root those URLs imply, as many levels above the index's
  // directory as their directory is below the host's root. When it is not
  // marked as one and a directory above it is, the marked one is the site's
  // root: the children's URLs are judged from where the index really is on
  // the site. A marked directory below the implied root is a site served
  // under a path (a project's pages at https://user.github.io/project/):
  // the children are trusted.
  const fs::path index_dir = index_file.parent_path();
  std::size_t url_levels = 0;
  for (std::size_t i = origin.size() + 1; i < best.size(); ++i)
    url_levels += best[i] == '/';
  fs::path implied = index_dir;
  for (std::size_t i = 0; i < url_levels && !implied.empty(); ++i)
    implied =
        implied == implied.root_path() ? fs::path() : implied.parent_path();
  if (!implied.empty() && !root_marker(implied).empty()) return out;
  std::string_view marker;
  const fs::path root = nearest_site_root(index_dir, marker);
  if (root.empty()) return out;
  std::size_t disk_levels = 0;
  for (const fs::path& part : index_dir.lexically_relative(root))
    disk_levels += part != ".";
  if (url_levels >= disk_levels) return out;
  normalized_url by_root;
  if (normalize_url(
          origin + "/" +
              as_url_path(index_file.lexically_relative(root).generic_string()),
          by_root) != url_problem::ok ||
      by_root.scope_directory() == out.index_url.scope_directory())
    return out;
  // As the user named the index: relative to the working directory when
  // they gave a relative path.
  fs::path shown = root;
  if (fs::path(index_path).is_relative()) {
    std::error_code ec;
    const fs::path rel = root.lexically_relative(fs::current_path(ec));
    if (!ec && !rel.empty()) shown = rel;
  }
  out.site_root = shown.string();
  if (!out.site_root.empty() && out.site_root.back() != '/')
    out.site_root += '/';
  out.marker = marker;
  out.by_children = std::move(out.index_url);
  out.index_url = std::move(by_root);
  return out;
}

bool may_fetch_child(const normalized_url& child,
                     const normalized_url& index_url, bool cross_submit) {
  if (cross_submit || index_url.empty()) return true;
  return same_host(child, index_url);
}

bool has_other_scheme(std::string_view s) {
  const std::size_t colon = s.find(':');
  if (colon == std::string_view::npos || colon < 2) return false;  // "C:" aside
  for (std::size_t i = 0; i < colon; ++i) {
    const char c = s[i];
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!(alpha || (i > 0 && ((c >= '0' && c <= '9') || c == '+' || c == '-' ||
                              c == '.'))))
      return false;
  }
  return s.substr(colon).starts_with(":/");  // "://" included
}

}  // namespace sitemill::detail

namespace sitemill {

void sitemap_walker::impl::note_target(const normalized_url& url) {
  scope.allow_target_host(url.host());
}

}  // namespace sitemill
