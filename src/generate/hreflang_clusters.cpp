#include "generate/hreflang_clusters.h"

#include <algorithm>
#include <map>

#include "detail/text.h"
#include "sitemill/write/xml_escape.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace sitemill::detail {
namespace {

std::uint64_t hash_of(std::string_view s) {
  return XXH3_64bits(s.data(), s.size());
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

// Writing order: by hreflang, x-default last (the fallback reads best at
// the end), case-insensitively as hreflang is.
bool before(std::string_view a, std::string_view b) {
  const bool ax = iequals(a, "x-default"), bx = iequals(b, "x-default");
  if (ax != bx) return bx;
  return lower(a) < lower(b);
}

}  // namespace

std::uint32_t hreflang_clusters::node_for(std::string_view url, origin at) {
  const std::uint64_t h = hash_of(url);
  auto [first, last] = by_hash_.equal_range(h);
  for (auto it = first; it != last; ++it) {
    const node& n = nodes_[it->second];
    if (text(n.url_begin, n.url_size) == url) return it->second;
  }
  const auto id = static_cast<std::uint32_t>(nodes_.size());
  nodes_.push_back({id, static_cast<std::uint32_t>(text_.size()),
                    static_cast<std::uint32_t>(url.size()), false, at});
  text_ += url;
  by_hash_.emplace(h, id);
  return id;
}

std::uint32_t hreflang_clusters::find(std::uint32_t n) const {
  while (nodes_[n].parent != n) n = nodes_[n].parent;
  return n;
}

void hreflang_clusters::join(std::uint32_t a, std::uint32_t b) {
  a = find(a);
  b = find(b);
  if (a == b) return;
  // The older root stays root, so a cluster is named by its first page.
  if (a > b) std::swap(a, b);
  nodes_[b].parent = a;
  // Path halving on the way keeps later finds short.
  for (std::uint32_t n = b; nodes_[n].parent != a;) {
    const std::uint32_t next = nodes_[n].parent;
    nodes_[n].parent = a;
    n = next;
  }
}

void hreflang_clusters::add_page(std::string_view loc,
                                 std::span<const link> links, origin at) {
  const std::uint32_t page = node_for(loc, at);
  if (!nodes_[page].written) {
    nodes_[page].written = true;
    nodes_[page].at = at;
  }
  for (const link& l : links) {
    const std::uint32_t other = node_for(l.href, at);
    join(page, other);
    claims_.push_back({other, static_cast<std::uint32_t>(text_.size()),
                       static_cast<std::uint32_t>(l.hreflang.size()), at});
    text_ += l.hreflang;
  }
}

void hreflang_clusters::resolve(
    const std::function<void(const issue&)>& report, const normalized_url& base,
    const std::function<bool(std::string_view)>& in_set) {
  std::vector<issue> issues;
  // Each cluster's languages, the first claim of a language winning.
  std::map<std::pair<std::uint32_t, std::string>, std::uint32_t> taken;
  std::vector<std::vector<member>> by_root(nodes_.size());
  std::vector<bool> has_language(nodes_.size(), false);
  for (const claim& c : claims_) {
    const std::uint32_t root = find(c.node);
    const std::string_view lang = text(c.lang_begin, c.lang_size);
    auto [it, fresh] = taken.try_emplace({root, lower(lang)}, c.node);
    if (!fresh) {
      if (it->second != c.node) {
        const node& kept = nodes_[it->second];
        const node& other = nodes_[c.node];
        std::string m = "hreflang \"";
        append_printable(m, lang);
        m += "\" names both " +
             std::string(text(kept.url_begin, kept.url_size)) + " and " +
             std::string(text(other.url_begin, other.url_size)) +
             " in one cluster: the first is kept";
        issues.push_back({c.at, std::move(m)});
      }
      continue;
    }
    by_root[root].push_back({c.lang_begin, c.lang_size, c.node});
    has_language[c.node] = true;
  }

  members_.clear();
  cluster_of_root_.clear();
  for (std::uint32_t root = 0; root < by_root.size(); ++root) {
    auto& list = by_root[root];
    if (list.empty()) continue;
    std::stable_sort(list.begin(), list.end(),
                     [&](const member& a, const member& b) {
                       return before(text(a.lang_begin, a.lang_size),
                                     text(b.lang_begin, b.lang_size));
                     });
    const auto begin = static_cast<std::uint32_t>(members_.size());
    members_.insert(members_.end(), list.begin(), list.end());
    cluster_of_root_.emplace(
        root, std::pair{begin, static_cast<std::uint32_t>(members_.size())});
  }

  for (std::uint32_t n = 0; n < nodes_.size(); ++n) {
    const node& nd = nodes_[n];
    const std::string url(text(nd.url_begin, nd.url_size));
    if (nd.written && !has_language[n]) {
      issues.push_back(
          {nd.at, "page " + url +
                      " is in an hreflang cluster but no link names its own "
                      "language: add its self link (it is written with the "
                      "other pages' links only)"});
    } else if (!nd.written && has_language[n] && !in_set(url)) {
      normalized_url u;
      const bool inside =
          normalize_url(url, u) == url_problem::ok && within_scope(u, base);
      issues.push_back(
          {nd.at,
           inside ? "alternate " + url +
                        " is not in the input, so its own return links are "
                        "not written: add the page, or remove the link"
                  : "alternate " + url +
                        " is outside the base URL, so its return links must "
                        "come from that site's own sitemap"});
    }
  }
  std::stable_sort(issues.begin(), issues.end(),
                   [](const issue& a, const issue& b) {
                     return a.at.input != b.at.input ? a.at.input < b.at.input
                                                     : a.at.line < b.at.line;
                   });
  for (const issue& i : issues) report(i);
}

bool hreflang_clusters::append_links(std::string_view loc,
                                     std::string& out) const {
  auto [first, last] = by_hash_.equal_range(hash_of(loc));
  for (auto it = first; it != last; ++it) {
    const node& n = nodes_[it->second];
    if (text(n.url_begin, n.url_size) != loc) continue;
    const auto cluster = cluster_of_root_.find(find(it->second));
    if (cluster == cluster_of_root_.end()) return false;
    for (std::uint32_t m = cluster->second.first; m < cluster->second.second;
         ++m) {
      const member& mb = members_[m];
      const node& target = nodes_[mb.node];
      out += "<xhtml:link rel=\"alternate\" hreflang=\"";
      append_xml_escaped(out, text(mb.lang_begin, mb.lang_size));
      out += "\" href=\"";
      append_xml_escaped(out, text(target.url_begin, target.url_size));
      out += "\"/>";
    }
    return true;
  }
  return false;
}

}  // namespace sitemill::detail
