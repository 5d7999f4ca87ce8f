#include "generate/hreflang_clusters.h"

#include <algorithm>
#include <array>

#include "detail/text.h"
#include "sitemill/limits.h"
#include "sitemill/write/xml_escape.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace sitemill::detail {
namespace {

// A node's URL is its origin's number and the rest of its text, packed as
// text_ offset << 24 | origin << 12 | size: normalised URLs are shorter
// than 2,048 bytes (url.h), and a URL whose origin has no number (past the
// first 4,095 origins) is kept whole.
constexpr unsigned field_bits = 12;
constexpr std::uint32_t field_mask = (1u << field_bits) - 1;
constexpr std::uint32_t no_origin = field_mask;
static_assert(max_loc_length <= field_mask);

// "https://example.com" of "https://example.com/a": the text before the
// path's first '/', or "" when there is none.
std::string_view origin_part(std::string_view url) {
  const std::size_t authority = url.find("://");
  if (authority == std::string_view::npos) return {};
  const std::size_t path = url.find('/', authority + 3);
  return path == std::string_view::npos ? std::string_view()
                                        : url.substr(0, path);
}

std::uint64_t fingerprint_of(std::string_view url) {
  const std::uint64_t h = XXH3_64bits(url.data(), url.size());
  return h == 0 ? 1 : h;  // 0 marks an empty slot of the table
}

// Where a claim was made, in link order: the page, then the link's place on
// it (links beyond 2^24 on one page share the last place, which only makes
// their order among themselves arbitrary).
std::uint64_t claim_at(hreflang_clusters::page_number page, std::size_t link) {
  constexpr std::size_t last = (std::size_t{1} << 24) - 1;
  return std::uint64_t{page} << 24 | std::min(link, last);
}
hreflang_clusters::page_number page_of_claim(std::uint64_t claim) {
  return static_cast<hreflang_clusters::page_number>(claim >> 24);
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

}  // namespace

hreflang_clusters::url_parts hreflang_clusters::url_of(std::uint32_t n) const {
  const std::uint64_t packed = nodes_[n].url;
  const auto size = static_cast<std::size_t>(packed & field_mask);
  const auto origin =
      static_cast<std::uint32_t>(packed >> field_bits) & field_mask;
  const std::span<const char> run = text_.run(packed >> 2 * field_bits, size);
  return {origin == no_origin ? std::string_view() : origins_[origin],
          std::string_view(run.data(), run.size())};
}

std::string hreflang_clusters::url_text(std::uint32_t n) const {
  const url_parts u = url_of(n);
  std::string out(u.origin);
  out += u.rest;
  return out;
}

std::uint32_t hreflang_clusters::origin_for(std::string_view origin) {
  if (origin.empty()) return no_origin;
  // Most URLs share the last origin (a site's own pages): compared first.
  if (last_origin_ < origins_.size() && origins_[last_origin_] == origin)
    return last_origin_;
  if (const auto it = origin_ids_.find(origin); it != origin_ids_.end())
    return last_origin_ = it->second;
  if (origins_.size() == no_origin) return no_origin;  // the table is full
  const auto id = static_cast<std::uint32_t>(origins_.size());
  origin_ids_.emplace(origins_.emplace_back(origin), id);
  return last_origin_ = id;
}

std::uint32_t hreflang_clusters::node_for(std::string_view url,
                                          std::uint64_t fingerprint,
                                          page_number page) {
  const auto [slot, fresh] = by_url_.insert(fingerprint);
  if (!fresh) return by_url_.payload(slot);
  const auto id = static_cast<std::uint32_t>(nodes_.size());
  const std::uint32_t origin = origin_for(origin_part(url));
  const std::string_view rest =
      origin == no_origin ? url : url.substr(origins_[origin].size());
  const std::uint64_t at = text_.append_unsplit(rest);
  nodes_.push_back({.url = at << 2 * field_bits |
                           std::uint64_t{origin} << field_bits | rest.size(),
                    .parent = id,
                    .seen = page});
  by_url_.payload(slot) = id;
  return id;
}

std::uint32_t hreflang_clusters::language_for(std::string_view hreflang) {
  // A handful of languages, looked up once per link: views as keys, so a
  // lookup builds no string.
  if (const auto it = language_ids_.find(hreflang); it != language_ids_.end())
    return it->second;
  const auto id = static_cast<std::uint32_t>(languages_.size());
  const std::string& spelling = spellings_.emplace_back(hreflang);
  language_ids_.emplace(spelling, id);
  // Its group: the first spelling with the same lowercase.
  const auto group = group_ids_.try_emplace(lower(hreflang), id);
  languages_.push_back({spelling, group.first->second});
  return id;
}

void hreflang_clusters::claim(std::uint32_t n, std::uint32_t lang,
                              std::uint64_t at) {
  node& nd = nodes_[n];
  const std::uint32_t group = languages_[lang].group;
  if (nd.lang == none) {
    nd.lang = lang;
    nd.claim = at;
    ++links_;
    return;
  }
  // Said again (each page of a cluster names the others): nothing new.
  if (languages_[nd.lang].group == group) return;
  // A second language for the URL (its x-default too, said by every page
  // of its cluster again): looked up by (URL, language), since a site may
  // have one such URL per cluster.
  if (!extra_keys_.insert(std::uint64_t{n} << 32 | group).second) return;
  extra_claims_.push_back({at, n, lang});
  ++links_;
}

std::uint32_t hreflang_clusters::find(std::uint32_t n) const {
  while (nodes_[n].parent != n) n = nodes_[n].parent;
  return n;
}

void hreflang_clusters::join(std::uint32_t a, std::uint32_t b) {
  a = find(a);
  b = find(b);
  if (a == b) return;
  // The older root stays root, so a cluster is named by its first URL.
  if (a > b) std::swap(a, b);
  nodes_[b].parent = a;
}

void hreflang_clusters::add_page(std::string_view loc,
                                 std::span<const link> links,
                                 page_number page) {
  // Fingerprints first, and their slots fetched, so the table's cache
  // misses overlap instead of coming one after another.
  constexpr std::size_t batch = 16;
  std::array<std::uint64_t, batch> fps;
  const std::size_t ahead = std::min(links.size(), batch);
  const std::uint64_t loc_fp = fingerprint_of(loc);
  by_url_.prefetch(loc_fp);
  for (std::size_t k = 0; k < ahead; ++k) {
    fps[k] = fingerprint_of(links[k].href);
    by_url_.prefetch(fps[k]);
  }

  const std::uint32_t self = node_for(loc, loc_fp, page);
  if (!nodes_[self].written) {
    nodes_[self].written = true;
    nodes_[self].seen = page;
  }
  for (std::size_t k = 0; k < links.size(); ++k) {
    const std::uint64_t fp = k < ahead ? fps[k] : fingerprint_of(links[k].href);
    const std::uint32_t other = node_for(links[k].href, fp, page);
    join(self, other);
    claim(other, language_for(links[k].hreflang), claim_at(page, k));
  }
}

// Writing order: by hreflang, x-default last (the fallback reads best at
// the end), case-insensitively as hreflang is. Ranks each group once.
void hreflang_clusters::rank_languages() {
  std::vector<std::pair<std::string, std::uint32_t>> groups;
  for (std::uint32_t l = 0; l < languages_.size(); ++l)
    if (languages_[l].group == l)
      groups.emplace_back(lower(languages_[l].spelling), l);
  std::sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
    const bool ax = a.first == "x-default", bx = b.first == "x-default";
    if (ax != bx) return bx;
    return a.first < b.first;
  });
  for (std::uint32_t r = 0; r < groups.size(); ++r)
    languages_[groups[r].second].rank = r;
  for (language& l : languages_) l.rank = languages_[l.group].rank;
}

// Each cluster's members: every claim, grouped by root with a counting
// sort (no per-cluster containers), then ordered by language and claim, so
// the first claim of a language wins and any later one is a conflict.
void hreflang_clusters::decide_members() {
  const auto n = static_cast<std::uint32_t>(nodes_.size());
  // Roots once, so every later find() is one step.
  for (std::uint32_t i = 0; i < n; ++i) nodes_[i].parent = find(i);

  ranges_.assign(std::size_t{n} + 1, 0);
  for (std::uint32_t i = 0; i < n; ++i)
    if (nodes_[i].lang != none) ++ranges_[nodes_[i].parent + 1];
  for (const extra_claim& e : extra_claims_)
    ++ranges_[nodes_[e.node].parent + 1];
  for (std::uint32_t i = 0; i < n; ++i) ranges_[i + 1] += ranges_[i];

  struct candidate {
    std::uint64_t claim;
    std::uint32_t node, lang;
  };
  std::vector<candidate> all(ranges_[n]);
  {
    std::vector<std::uint32_t> next(ranges_.begin(), ranges_.end() - 1);
    for (std::uint32_t i = 0; i < n; ++i)
      if (nodes_[i].lang != none)
        all[next[nodes_[i].parent]++] = {nodes_[i].claim, i, nodes_[i].lang};
    for (const extra_claim& e : extra_claims_)
      all[next[nodes_[e.node].parent]++] = {e.claim, e.node, e.lang};
  }
  std::vector<extra_claim>().swap(extra_claims_);
  std::unordered_set<std::uint64_t>().swap(extra_keys_);

  members_.clear();
  members_.reserve(all.size());
  for (std::uint32_t root = 0; root < n; ++root) {
    const std::uint32_t begin = ranges_[root], end = ranges_[root + 1];
    // Written from here: members_ never runs ahead of `all`, so the
    // ranges can be rewritten in place.
    ranges_[root] = static_cast<std::uint32_t>(members_.size());
    if (begin == end) continue;
    std::sort(all.begin() + begin, all.begin() + end,
              [this](const candidate& a, const candidate& b) {
                const std::uint32_t ra = languages_[a.lang].rank,
                                    rb = languages_[b.lang].rank;
                return ra != rb ? ra < rb : a.claim < b.claim;
              });
    for (std::uint32_t k = begin; k < end; ++k) {
      const candidate& c = all[k];
      if (k > begin &&
          languages_[all[k - 1].lang].rank == languages_[c.lang].rank) {
        // The language is taken: the winner is the member before it.
        issues_.push_back({page_of_claim(c.claim), issue_kind::lost_language,
                           c.node, members_.back().node, c.lang});
        continue;
      }
      members_.push_back({c.node, c.lang});
      nodes_[c.node].has_language = true;
    }
  }
  ranges_[n] = static_cast<std::uint32_t>(members_.size());
  members_.shrink_to_fit();
}

void hreflang_clusters::find_issues(
    const url_normalizer& bases,
    const std::function<bool(std::string_view)>& in_set) {
  for (std::uint32_t i = 0; i < nodes_.size(); ++i) {
    const node& nd = nodes_[i];
    if (nd.written && !nd.has_language) {
      issues_.push_back({nd.seen, issue_kind::no_self_link, i, none, none});
    } else if (!nd.written && nd.has_language && !in_set(url_text(i))) {
      std::string u;
      const bool inside = bases.normalize(url_text(i), u) == url_problem::ok;
      issues_.push_back(
          {nd.seen,
           inside ? issue_kind::not_in_input : issue_kind::outside_base, i,
           none, none});
    }
  }
  // Page order; at one page, conflicts first, in claim order, then nodes.
  std::stable_sort(
      issues_.begin(), issues_.end(),
      [](const issue& a, const issue& b) { return a.page < b.page; });
}

void hreflang_clusters::resolve(
    const url_normalizer& bases,
    const std::function<bool(std::string_view)>& in_set) {
  issues_.clear();
  next_issue_ = 0;
  rank_languages();
  decide_members();
  find_issues(bases, in_set);
}

std::string hreflang_clusters::describe(const issue& i) const {
  const std::string url = url_text(i.node);
  switch (i.kind) {
    case issue_kind::lost_language: {
      std::string m = "hreflang \"";
      append_printable(m, languages_[i.lang].spelling);
      m += "\" names both " + url_text(i.other) + " and " + url +
           " in one cluster: the first is kept";
      return m;
    }
    case issue_kind::no_self_link:
      return "page " + url +
             " is in an hreflang cluster but no link names its own language: "
             "add its self link (it is written with the other pages' links "
             "only)";
    case issue_kind::not_in_input:
      return "alternate " + url +
             " is not in the input, so its own return links are not written: "
             "add the page, or remove the link";
    case issue_kind::outside_base:
      return "alternate " + url +
             " is outside the base URL, so its return links must come from "
             "that site's own sitemap";
  }
  return {};
}

void hreflang_clusters::report_issues(
    page_number page, const std::function<void(std::string)>& report) {
  while (next_issue_ < issues_.size() && issues_[next_issue_].page <= page) {
    const issue& i = issues_[next_issue_++];
    if (i.page == page) report(describe(i));
  }
}

bool hreflang_clusters::contains(std::string_view loc) const {
  return by_url_.find(fingerprint_of(loc)) != by_url_.npos;
}

bool hreflang_clusters::append_links(std::string_view loc, std::string& out) {
  const std::size_t slot = by_url_.find(fingerprint_of(loc));
  if (slot == by_url_.npos) return false;
  const std::uint32_t root = nodes_[by_url_.payload(slot)].parent;
  if (root != rendered_root_) {
    const std::uint32_t begin = ranges_[root], end = ranges_[root + 1];
    if (begin == end) return false;
    rendered_.clear();
    for (std::uint32_t m = begin; m < end; ++m) {
      rendered_ += "<xhtml:link rel=\"alternate\" hreflang=\"";
      append_xml_escaped(rendered_, languages_[members_[m].lang].spelling);
      rendered_ += "\" href=\"";
      const url_parts u = url_of(members_[m].node);
      append_xml_escaped(rendered_, u.origin);
      append_xml_escaped(rendered_, u.rest);
      rendered_ += "\"/>";
    }
    rendered_root_ = root;
  }
  out += rendered_;
  return true;
}

std::size_t hreflang_clusters::memory_bytes() const noexcept {
  return text_.memory_bytes() + nodes_.memory_bytes() + by_url_.memory_bytes() +
         extra_claims_.capacity() * sizeof(extra_claim) +
         extra_keys_.size() * 32 +  // a node and a bucket, roughly
         members_.capacity() * sizeof(member) +
         ranges_.capacity() * sizeof(std::uint32_t) +
         issues_.capacity() * sizeof(issue);
}

}  // namespace sitemill::detail
