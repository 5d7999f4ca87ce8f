// The walker's two rules about what it reads: which local file a local
// index's child is (the child location rule), and which locations and
// addresses may be fetched (the fetch scope). walker.h states both.
#include <algorithm>
#include <filesystem>

#include "detail/text.h"
#include "walk/walker_impl.h"

namespace sitemill::detail {

namespace fs = std::filesystem;

local_child local_child_path(const std::string& index_path,
                             const normalized_url& index_dir,
                             const normalized_url& child,
                             std::string_view loc) {
  // An index in the working directory (or stdin) has its children there,
  // named as they are, without "./".
  const fs::path dir =
      index_path == "-" ? fs::path() : fs::path(index_path).parent_path();
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
  const std::string decoded = percent_decode(rel);
  if (decoded.empty() || decoded.back() == '/' ||
      decoded.find('\0') != std::string::npos)
    return {};
  // Never leave the index's directory: a hostile index must not make a
  // reader open (and quote) /etc/passwd.
  if (fs::path(decoded).is_absolute()) return {};
  for (const auto& part : fs::path(decoded))
    if (part == "..") return {};
  return {(dir / decoded).string(), {}};
}

normalized_url inferred_index_url(const std::vector<child_ref>& children) {
  normalized_url url;
  for (const child_ref& c : children)
    if (normalize_url(c.loc, url) == url_problem::ok) return url;
  return {};
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
