#include "generate/stable_layout.h"

#include <cassert>

namespace sitemill::detail {
namespace {

struct planner {
  std::span<const prefix_tally> tallies;
  int bits;
  const layout_limits& limits;
  std::vector<layout_leaf> leaves;

  // Sums the buckets under the node. Sums are recomputed per level: the
  // trie is at most `bits` deep and a level touches every bucket once, so a
  // plan costs bits * 2^bits additions, microseconds for the 256 buckets
  // generate tallies.
  prefix_tally sum(std::uint64_t first, std::uint64_t end) const {
    prefix_tally t;
    for (std::uint64_t k = first; k < end; ++k) t += tallies[k];
    return t;
  }

  void visit(std::uint64_t prefix, int depth) {
    const int below = bits - depth;
    const std::uint64_t first = prefix << below;
    const std::uint64_t end = (prefix + 1) << below;
    const prefix_tally t = sum(first, end);
    if (t.urls == 0) return;
    if (depth == bits || limits.fits(t)) {
      leaves.push_back({prefix, depth, t, first, end});
      return;
    }
    visit(prefix << 1, depth + 1);
    visit((prefix << 1) | 1, depth + 1);
  }
};

}  // namespace

std::vector<layout_leaf> plan_leaves(std::span<const prefix_tally> tallies,
                                     int bits, const layout_limits& limits) {
  assert(bits >= 0 && bits <= 24);
  assert(tallies.size() == (std::size_t{1} << bits));
  planner p{tallies, bits, limits, {}};
  p.visit(0, 0);
  return std::move(p.leaves);
}

std::string leaf_path(const layout_leaf& leaf) {
  std::string path(static_cast<std::size_t>(leaf.depth), '0');
  for (int i = 0; i < leaf.depth; ++i)
    if ((leaf.prefix >> (leaf.depth - 1 - i)) & 1) path[i] = '1';
  return path;
}

}  // namespace sitemill::detail
