// hreflang clusters made complete, for generate.
//
// Google reads an hreflang alternate only when it is returned: every page of
// a cluster must list every page of it, itself included. Inputs rarely say
// it all (page A names B as "de", B names nothing), so generate gathers
// every page's links here, joins pages that name each other (or are named
// together) into clusters, and writes the whole cluster on every member.
//
// Memory, per URL that is in a cluster (a page or an alternate it names),
// whatever number of links name it: its text but its origin (the origins
// are kept once), a 32-byte node, 15 to 23 bytes of fingerprint table, 12
// bytes for its cluster's list once resolved, and 20 more while resolve()
// runs: about 85 bytes plus the URL's path. Repeated links cost nothing: a
// language a URL already has is not recorded again. Measured with
// benchmarks/extensions_bench.sh (1M pages in four-language clusters, paths
// of about 55 bytes): about 140 bytes per clustered URL, 35 per hreflang
// link of the input. The one part of generate that grows with the input,
// and only with the pages that carry hreflang.
//
// URLs are told apart by a 64-bit fingerprint of their text, as generate's
// duplicate detection does (detail/url_set.h): two URLs are mistaken for one
// only on a 64-bit collision, about 1 in 10^7 for a run of a million
// clustered URLs.
//
// Not thread-safe; generate's consumer thread owns it.
#ifndef SITEMILL_GENERATE_HREFLANG_CLUSTERS_H
#define SITEMILL_GENERATE_HREFLANG_CLUSTERS_H

#include <cstdint>
#include <deque>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "detail/chunked_vector.h"
#include "detail/fingerprint_table.h"
#include "sitemill/url/url.h"

namespace sitemill::detail {

class hreflang_clusters {
 public:
  /// One alternate a page lists.
  struct link {
    std::string_view hreflang;
    std::string_view href;
  };
  /// A page's place in the caller's order (generate: its spool position).
  /// Issues are reported by page, so they come out in input order without
  /// holding a message, a file name or a line number per page here.
  using page_number = std::uint32_t;

  /// The page `loc` (normalised, written to the set) lists `links`. Pages
  /// come in increasing `page` order.
  void add_page(std::string_view loc, std::span<const link> links,
                page_number page);

  /// Joins the clusters and decides each one's links; call once, after the
  /// last add_page(). Finds conflicts and members that cannot get their
  /// return links (report_issues() words them). `in_set` says whether a URL
  /// is a page of the set (named pages need not list links); `bases` tells a
  /// page missing from the input (under a base URL) from another site's.
  void resolve(const url_normalizer& bases,
               const std::function<bool(std::string_view)>& in_set);

  /// Reports the issues found at `page`, in the order found. Call with
  /// increasing page numbers (each issue is reported once).
  void report_issues(page_number page,
                     const std::function<void(std::string)>& report);

  /// Appends the <xhtml:link> elements of `loc`'s cluster (every member,
  /// `loc` included), sorted by hreflang with x-default last. Appends
  /// nothing and returns false when `loc` is in no cluster.
  bool append_links(std::string_view loc, std::string& out);

  /// True when `loc` is a page of a cluster or an alternate one names.
  bool contains(std::string_view loc) const;

  /// URLs in clusters and distinct (URL, language) links, for the report.
  std::size_t pages() const noexcept { return nodes_.size(); }
  std::size_t links() const noexcept { return links_; }
  /// Bytes of memory held (arrays at their capacity), tested against the
  /// cost per URL the header comment states.
  std::size_t memory_bytes() const noexcept;

 private:
  static constexpr std::uint32_t none = 0xffffffff;
  // A language as written (its first spelling) and the case-insensitive
  // group it belongs to, which is what conflicts and order are about.
  struct language {
    std::string_view spelling;  // in spellings_
    std::uint32_t group;     // index of the first spelling with this lowercase
    std::uint32_t rank = 0;  // writing order of its group, set by resolve()
  };
  struct node {
    std::uint64_t url;          // see url_of()
    std::uint64_t claim = 0;    // where its language was first claimed:
                                // page << 24 | link index (a link order)
    std::uint32_t parent;       // union-find
    page_number seen;           // the page that wrote it, or first named it
    std::uint32_t lang = none;  // the language claimed for it first
    bool written = false;       // a page of the set (else only named)
    bool has_language = false;  // resolve(): it won its language
  };
  // A second language claimed for one URL (an "x-default" that is also
  // the "en" page); rare, so kept apart from the nodes.
  struct extra_claim {
    std::uint64_t claim;
    std::uint32_t node, lang;
  };
  // A cluster's decided member, in writing order.
  struct member {
    std::uint32_t node, lang;
  };
  enum class issue_kind : std::uint8_t {
    lost_language,  // `node` claimed `lang`, which `other` already has
    no_self_link,   // written, but no link names its own language
    not_in_input,   // named, under a base URL, never written
    outside_base,   // named, under no base URL
  };
  struct issue {
    page_number page;
    issue_kind kind;
    std::uint32_t node, other, lang;
  };

  std::uint32_t node_for(std::string_view url, std::uint64_t fingerprint,
                         page_number page);
  std::uint32_t language_for(std::string_view hreflang);
  void claim(std::uint32_t n, std::uint32_t lang, std::uint64_t at);
  std::uint32_t find(std::uint32_t n) const;
  void join(std::uint32_t a, std::uint32_t b);
  void rank_languages();
  void decide_members();
  void find_issues(const url_normalizer& bases,
                   const std::function<bool(std::string_view)>& in_set);
  // A node's URL as its origin (shared by many) and the rest (its own).
  struct url_parts {
    std::string_view origin, rest;
  };
  url_parts url_of(std::uint32_t n) const;
  std::string url_text(std::uint32_t n) const;
  std::uint32_t origin_for(std::string_view origin);
  std::string describe(const issue& i) const;

  chunked_vector<char, 22> text_;    // every URL once, but its origin; none
                                     // spans a chunk
  std::deque<std::string> origins_;  // stable: origin_ids_ views them
  std::unordered_map<std::string_view, std::uint32_t> origin_ids_;
  std::uint32_t last_origin_ = none;
  chunked_vector<node, 16> nodes_;
  fingerprint_table<std::uint32_t> by_url_{1024};  // fingerprint -> node
  std::vector<extra_claim> extra_claims_;
  std::unordered_set<std::uint64_t> extra_keys_;  // node << 32 | group
  std::vector<language> languages_;
  std::deque<std::string> spellings_;  // stable: the maps' keys view them
  std::unordered_map<std::string_view, std::uint32_t> language_ids_;
  std::unordered_map<std::string, std::uint32_t> group_ids_;  // lowercase
  std::size_t links_ = 0;
  // After resolve(): members_[ranges_[root] .. ranges_[root + 1]) for a
  // root, issues_ in page order and the next one to report.
  std::vector<member> members_;
  std::vector<std::uint32_t> ranges_;
  std::vector<issue> issues_;
  std::size_t next_issue_ = 0;
  // The last cluster written, as XML: the members of a cluster often come
  // one after another, and each gets the same elements.
  std::uint32_t rendered_root_ = none;
  std::string rendered_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_GENERATE_HREFLANG_CLUSTERS_H
