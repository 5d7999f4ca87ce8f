// sitemill internals: what a crawl does with a URL it has found, apart from
// the network: session ids removed, then scope, depth, robots.txt and the
// trap cap judged, in that order, and the URL queued or told why not.
//
// The rules (docs/crawl.md, and the acceptance site's header,
// tests/support/crawl_site.h, which tests them):
//   1. a URL already seen: nothing;
//   2. deeper than max_depth: nothing, and not marked seen, so a shorter
//      path found later still queues it (one never queued is reported
//      "max depth" at the end: too_deep());
//   3. disallowed by robots.txt: seen, reported "robots";
//   4. a URL with a query is a variant of its path; past max_query_variants
//      distinct variants of one path (a calendar, faceted search), seen and
//      reported "trap cap";
//   5. otherwise seen and queued.
// Out-of-scope URLs are not judged at all: the caller drops them.
//
// Memory: every URL seen, as its text (~50 bytes of overhead each), and a
// counter per path that has query variants. What is found and not yet
// fetched (queued, or too deep for now) is bounded: at most
// frontier_limits::max_held_urls URLs and max_held_bytes of their text.
// Past that, a link that would be kept is counted (dropped()), not kept:
// neither seen nor queued, so pages that each link to thousands of new ones
// cannot grow the crawl's memory without bound (docs/crawl.md).
#ifndef SITEMILL_CRAWL_FRONTIER_H
#define SITEMILL_CRAWL_FRONTIER_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "sitemill/robots/robots_rules.h"
#include "sitemill/url/url.h"

namespace sitemill::detail {

/// Query parameters (and the ;jsessionid path parameter) that carry a
/// session id: one page under many URLs. Compared ignoring ASCII case.
inline constexpr std::string_view session_id_parameters[] = {
    "phpsessid", "jsessionid", "sid", "sessionid", "session_id"};

/// Removes session ids from `url`: a ";jsessionid=..." path parameter and
/// every query parameter session_id_parameters names; a query left empty
/// goes with its '?'. True when something was removed (`url` is then
/// normalised again).
bool strip_session_ids(normalized_url& url);

struct frontier_limits {
  std::size_t max_depth = std::numeric_limits<std::size_t>::max();
  std::size_t max_query_variants = std::numeric_limits<std::size_t>::max();
  /// URLs held (queued and not yet taken, or too deep) at most.
  std::size_t max_held_urls = std::numeric_limits<std::size_t>::max();
  /// Bytes of URL text held at most.
  std::size_t max_held_bytes = std::numeric_limits<std::size_t>::max();
};

enum class discovery : std::uint8_t {
  queued,    ///< new: fetch it
  seen,      ///< found before
  too_deep,  ///< past max_depth (for now)
  robots,    ///< robots.txt disallows it
  trap_cap,  ///< its path has max_query_variants variants already
  dropped,   ///< the frontier is full: counted, not kept, not seen
};

class crawl_frontier {
 public:
  /// `robots` may be nullptr (rules not obeyed); not owned, must outlive.
  crawl_frontier(frontier_limits limits, const robots_rules* robots)
      : limits_(limits), robots_(robots) {}

  /// Judges `url` (normalised, session ids removed, in scope), found at
  /// `depth` links from a start URL.
  discovery discover(const normalized_url& url, std::size_t depth);

  /// URLs that were only ever found too deep, in sorted order: reported
  /// "max depth" once the crawl is over.
  std::set<std::string> too_deep() const;

  std::size_t seen() const noexcept { return seen_.size(); }

  /// A queued URL of `size` bytes left the queue (fetched and judged, or
  /// not wanted after all): its room in the frontier is free again.
  void taken(std::size_t size) noexcept {
    --held_urls_;
    held_bytes_ -= size;
  }
  /// Links discover() counted and did not keep (discovery::dropped).
  std::uint64_t dropped() const noexcept { return dropped_; }
  std::size_t held_urls() const noexcept { return held_urls_; }

 private:
  // Looked up by view: most links of a page are URLs seen before, and a
  // lookup should not copy them (a std::string per link was 5% of an
  // unchanged re-crawl's cycles).
  // Not noexcept on purpose: libstdc++ then keeps each node's hash (a
  // noexcept hash counts as cheap, and a lookup would hash every string of
  // a bucket again to walk it).
  struct text_hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const {
      return std::hash<std::string_view>{}(s);
    }
  };
  using text_set = std::unordered_set<std::string, text_hash, std::equal_to<>>;

  frontier_limits limits_;
  const robots_rules* robots_;
  text_set seen_;
  text_set too_deep_;
  std::unordered_map<std::string, std::size_t> variants_;  // by path
  std::size_t held_urls_ = 0, held_bytes_ = 0;
  std::uint64_t dropped_ = 0;

  bool room_for(std::size_t size) const noexcept {
    return held_urls_ < limits_.max_held_urls &&
           held_bytes_ + size <= limits_.max_held_bytes;
  }
  void hold(std::size_t size) noexcept {
    ++held_urls_;
    held_bytes_ += size;
  }
};

}  // namespace sitemill::detail

#endif  // SITEMILL_CRAWL_FRONTIER_H
