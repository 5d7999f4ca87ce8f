#include "check/hreflang_set.h"

#include <algorithm>

#include "detail/text.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace sitemill::detail {
namespace {

// A bijection of (cluster, language) onto nonzero 64-bit keys: an odd
// multiplier and a xorshift are both invertible, so keys never collide.
std::uint64_t claim_key(std::uint32_t root, std::uint32_t language) noexcept {
  std::uint64_t k =
      (std::uint64_t{root} << 32 | language) * 0x9E3779B97F4A7C15ull;
  k ^= k >> 29;
  return k == 0 ? 1 : k;
}

bool before(const auto& a, const auto& b) {
  if (a.page != b.page) return a.page < b.page;
  if (a.target != b.target) return a.target < b.target;
  return a.language < b.language;
}

}  // namespace

std::uint64_t hreflang_set::fingerprint(std::string_view url) noexcept {
  url = trim(url);
  const std::uint64_t fp = XXH3_64bits(url.data(), url.size());
  return fp == 0 ? 1 : fp;  // 0 marks an empty slot
}

void hreflang_set::stop() {
  stopped_ = true;
  links_ = {};
  pages_ = fingerprint_table<>();
  unplaced_ = {};
}

void hreflang_set::place_pages() {
  if (unplaced_.empty()) return;
  // Sized at once for every listed page (the table grows before 80% load),
  // and the list let go: the run's peak stays near what the table alone
  // held while growing.
  if (pages_.size() == 0)
    pages_ = fingerprint_table<>(
        std::max<std::size_t>(64, unplaced_.size() * 5 / 4 + 2));
  for (const std::uint64_t page : unplaced_) pages_.insert(page);
  unplaced_ = {};
}

std::uint32_t hreflang_set::intern(std::string_view hreflang) {
  hreflang = trim(hreflang);
  // A set uses a few dozen languages: a scan beats hashing a fresh string
  // for every link; the map serves a hostile run of many.
  if (languages_.size() <= 64)
    for (std::uint32_t i = 0; i < languages_.size(); ++i)
      if (iequals(languages_[i], hreflang)) return i;
  std::string key(hreflang);
  for (char& c : key) c = ascii_lower(c);
  const auto [it, fresh] = language_ids_.try_emplace(
      key, static_cast<std::uint32_t>(languages_.size()));
  if (fresh) languages_.push_back(std::move(key));
  return it->second;
}

hreflang_set::added hreflang_set::add_page(
    std::uint32_t doc, std::uint64_t page,
    std::span<const extension_value> values) {
  const auto fields = extension_fields();
  if (stopped_) {
    // Said once, and only to a run that has links to judge: a large run
    // without hreflang passes the page cap and needs no word about it.
    if (announced_) return added::stopped;
    for (const extension_value& v : values)
      if (fields[v.field].kind == extension_kind::alternate &&
          fields[v.field].key == "@hreflang") {
        announced_ = true;
        return added::stopped_now;
      }
    return added::stopped;
  }
  // Growth by half, as for the links. The table, which counts distinct
  // pages, is needed only to judge links or when the list alone could pass
  // the cap.
  if (unplaced_.size() == unplaced_.capacity())
    unplaced_.reserve(std::max<std::size_t>(1024, unplaced_.size() * 3 / 2));
  unplaced_.push_back(page);
  if (pages_.size() + unplaced_.size() > max_pages_) place_pages();
  // An item's @hreflang and @href, adjacent as the capture delivers them.
  for (std::size_t i = 0; i < values.size();) {
    const std::uint32_t item = values[i].item;
    std::string_view lang, href;
    bool has_lang = false, has_href = false;
    for (; i < values.size() && values[i].item == item; ++i) {
      const extension_field& f = fields[values[i].field];
      if (f.kind != extension_kind::alternate) continue;
      if (f.key == "@hreflang") lang = values[i].text, has_lang = true;
      if (f.key == "@href") href = values[i].text, has_href = true;
    }
    if (!has_lang || !has_href) continue;  // not an hreflang alternate
    // Growth by half, not the library's doubling: at most 36 bytes a link.
    if (links_.size() == links_.capacity())
      links_.reserve(std::max<std::size_t>(1024, links_.size() * 3 / 2));
    links_.push_back({page, fingerprint(href), doc, intern(lang)});
  }
  if (links_.size() > max_links_ || pages_.size() > max_pages_ ||
      languages_.size() > 0xFFFF) {
    announced_ = !links_.empty();
    stop();
    return announced_ ? added::stopped_now : added::stopped;
  }
  return added::ok;
}

void hreflang_set::forget(std::uint32_t doc) {
  std::erase_if(links_, [&](const link& l) { return l.doc == doc; });
}

std::vector<hreflang_set::finding> hreflang_set::judge() {
  std::vector<finding> out;
  if (stopped_ || links_.empty()) return out;
  place_pages();

  // Clusters: pages joined by their links (union-find over node ids).
  fingerprint_table<std::uint32_t> node_of;
  std::vector<std::uint32_t> parent;
  auto node = [&](std::uint64_t fp) {
    const auto [slot, fresh] = node_of.insert(fp);
    if (fresh) {
      node_of.payload(slot) = static_cast<std::uint32_t>(parent.size());
      parent.push_back(static_cast<std::uint32_t>(parent.size()));
    }
    return node_of.payload(slot);
  };
  auto root = [&](std::uint32_t n) {
    while (parent[n] != n) n = parent[n] = parent[parent[n]];
    return n;
  };
  for (const link& l : links_) {
    const std::uint32_t a = root(node(l.page)), b = root(node(l.target));
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }

  // One URL per language in a cluster; the first claim, in reading order,
  // is the one the others are compared with. Two claims of one page are the
  // parser's hreflang-duplicate-language.
  struct claim {
    std::uint32_t first = 0;
    bool reported = false;
  };
  fingerprint_table<claim> claims;
  for (std::uint32_t i = 0; i < links_.size(); ++i) {
    const link& l = links_[i];
    const std::uint32_t r = root(node(l.target));
    const auto [slot, fresh] = claims.insert(claim_key(r, l.language));
    claim& c = claims.payload(slot);
    if (fresh) {
      c.first = i;
      continue;
    }
    const link& first = links_[c.first];
    if (c.reported || first.target == l.target || first.page == l.page)
      continue;
    c.reported = true;
    out.push_back({finding::kind::conflict, l.doc, l.page, l.target, l.language,
                   first.doc, first.page, first.target});
  }

  // Return links: B is a page of the set, so its links are all known.
  std::sort(links_.begin(), links_.end(), before<link, link>);
  auto links_to = [&](std::uint64_t from, std::uint64_t to) {
    const link probe{from, to, 0, 0};
    const auto it = std::lower_bound(links_.begin(), links_.end(), probe,
                                     before<link, link>);
    return it != links_.end() && it->page == from && it->target == to;
  };
  for (std::size_t i = 0; i < links_.size(); ++i) {
    const link& l = links_[i];
    if (l.page == l.target) continue;
    if (i > 0 && links_[i - 1].page == l.page &&
        links_[i - 1].target == l.target)
      continue;  // one finding per pair, whatever its languages
    if (pages_.find(l.target) == pages_.npos) continue;
    if (links_to(l.target, l.page)) continue;
    out.push_back(
        {finding::kind::no_return, l.doc, l.page, l.target, l.language});
  }
  std::stable_sort(
      out.begin(), out.end(),
      [](const finding& a, const finding& b) { return a.doc < b.doc; });
  return out;
}

}  // namespace sitemill::detail
