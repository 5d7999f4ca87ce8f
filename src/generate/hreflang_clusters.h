// hreflang clusters made complete, for generate.
//
// Google reads an hreflang alternate only when it is returned: every page of
// a cluster must list every page of it, itself included. Inputs rarely say
// it all (page A names B as "de", B names nothing), so generate gathers
// every page's links here, joins pages that name each other (or are named
// together) into clusters, and writes the whole cluster on every member.
//
// Memory: every URL of a cluster as text, a node and a hash entry per URL,
// a claim per link: about 119 bytes per link in all, beyond generate's flat
// 64 MiB, with four-language clusters of typical URLs
// (benchmarks/extensions_bench.sh). The one part of generate that grows with
// the input, and only with the pages that carry hreflang.
//
// Not thread-safe; generate's consumer thread owns it.
#ifndef SITEMILL_GENERATE_HREFLANG_CLUSTERS_H
#define SITEMILL_GENERATE_HREFLANG_CLUSTERS_H

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sitemill/url/url.h"

namespace sitemill::detail {

class hreflang_clusters {
 public:
  /// Where a page came from, for diagnostics.
  struct origin {
    std::uint32_t input = 0;  ///< the caller's input index
    std::uint64_t line = 0;
  };
  /// One alternate a page lists.
  struct link {
    std::string_view hreflang;
    std::string_view href;
  };
  /// Something about a cluster worth a warning, at the record it is about.
  struct issue {
    origin at;
    std::string message;
  };

  /// The page `loc` (normalised, written to the set) lists `links`.
  void add_page(std::string_view loc, std::span<const link> links, origin at);

  /// Joins the clusters and decides each one's links; call once, after the
  /// last add_page(). Conflicts and members that cannot get their return
  /// links are reported through `report`, in input order. `in_set` says
  /// whether a URL is a page of the set (named pages need not list links).
  void resolve(const std::function<void(const issue&)>& report,
               const normalized_url& base,
               const std::function<bool(std::string_view)>& in_set);

  /// Appends the <xhtml:link> elements of `loc`'s cluster (every member,
  /// `loc` included), sorted by hreflang with x-default last. Appends
  /// nothing and returns false when `loc` is in no cluster.
  bool append_links(std::string_view loc, std::string& out) const;

  /// Pages in clusters and links recorded, for the report.
  std::size_t pages() const noexcept { return nodes_.size(); }
  std::size_t links() const noexcept { return claims_.size(); }
  bool empty() const noexcept { return claims_.empty(); }

 private:
  struct node {
    std::uint32_t parent;               // union-find
    std::uint32_t url_begin, url_size;  // in text_
    bool written = false;               // a page of the set (else only named)
    origin at;                          // where it was written or first named
  };
  struct claim {  // `node` is the `hreflang` member of its cluster
    std::uint32_t node;
    std::uint32_t lang_begin, lang_size;  // in text_
    origin at;
  };
  // A cluster's decided members: (hreflang, node), sorted for writing.
  struct member {
    std::uint32_t lang_begin, lang_size;
    std::uint32_t node;
  };

  std::uint32_t node_for(std::string_view url, origin at);
  std::uint32_t find(std::uint32_t n) const;
  void join(std::uint32_t a, std::uint32_t b);
  std::string_view text(std::uint32_t begin, std::uint32_t size) const {
    return std::string_view(text_).substr(begin, size);
  }

  std::string text_;  // every URL and hreflang, once
  std::vector<node> nodes_;
  std::unordered_multimap<std::uint64_t, std::uint32_t> by_hash_;
  std::vector<claim> claims_;
  // After resolve(): each root's members, [begin, end) in members_.
  std::unordered_map<std::uint32_t, std::pair<std::uint32_t, std::uint32_t>>
      cluster_of_root_;
  std::vector<member> members_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_GENERATE_HREFLANG_CLUSTERS_H
