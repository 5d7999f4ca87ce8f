#include "suggest.h"

#include <algorithm>

namespace sitemill::cli {
namespace {

// Levenshtein distance; the words are a few letters long.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1,
                         diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string nearest_name(std::string_view word,
                         const std::vector<std::string>& names,
                         std::size_t max_edits) {
  std::string nearest;
  std::size_t best = max_edits + 1;
  for (const std::string& name : names)
    if (const std::size_t d = edit_distance(word, name); d < best) {
      best = d;
      nearest = name;
    }
  return nearest;
}

}  // namespace sitemill::cli
