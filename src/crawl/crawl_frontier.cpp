#include "crawl/crawl_frontier.h"

#include <algorithm>

#include "detail/text.h"

namespace sitemill::detail {
namespace {

bool is_session_parameter(std::string_view name) {
  return std::any_of(std::begin(session_id_parameters),
                     std::end(session_id_parameters),
                     [&](std::string_view p) { return iequals(name, p); });
}

// The path without a ";jsessionid=..." parameter (up to the next ';' or
// the end); Java servlet containers append it to every link.
std::string path_without_jsessionid(std::string_view path, bool& removed) {
  std::string out;
  std::size_t at = 0;
  for (;;) {
    const std::size_t semi = path.find(';', at);
    if (semi == std::string_view::npos) break;
    const std::size_t end = std::min(path.find(';', semi + 1), path.size());
    const std::string_view param = path.substr(semi + 1, end - semi - 1);
    const std::string_view name = param.substr(0, param.find('='));
    out.append(path.substr(at, semi - at));
    if (iequals(name, "jsessionid")) {
      removed = true;
    } else {
      out.append(path.substr(semi, end - semi));
    }
    at = end;
  }
  out.append(path.substr(at));
  return out;
}

}  // namespace

bool strip_session_ids(normalized_url& url) {
  bool removed = false;
  std::string rebuilt(url.origin());
  rebuilt += path_without_jsessionid(url.path(), removed);
  std::string_view query = url.query();
  if (!query.empty()) {
    query.remove_prefix(1);  // '?'
    std::string kept;
    while (true) {
      const std::size_t amp = query.find('&');
      const std::string_view param = query.substr(0, amp);
      const std::string_view name = param.substr(0, param.find('='));
      if (is_session_parameter(name)) {
        removed = true;
      } else if (!param.empty()) {
        if (!kept.empty()) kept += '&';
        kept += param;
      }
      if (amp == std::string_view::npos) break;
      query.remove_prefix(amp + 1);
    }
    if (!kept.empty()) {
      rebuilt += '?';
      rebuilt += kept;
    } else if (!removed) {
      rebuilt += '?';  // an empty query as written: another URL, kept
    }
  }
  if (!removed) return false;
  normalized_url again;
  if (normalize_url(rebuilt, again) != url_problem::ok) return false;
  url = std::move(again);
  return true;
}

discovery crawl_frontier::discover(const normalized_url& url,
                                   std::size_t depth) {
  const std::string_view href = url.href();
  if (seen_.contains(href)) return discovery::seen;
  if (depth > limits_.max_depth) {
    if (too_deep_.contains(href)) return discovery::too_deep;
    if (!room_for(href.size())) {
      ++dropped_;
      return discovery::dropped;
    }
    too_deep_.emplace(href);
    hold(href.size());
    return discovery::too_deep;
  }
  // Within depth: no longer "max depth" if a deeper path found it first,
  // and its room is free for what follows.
  if (const auto it = too_deep_.find(href); it != too_deep_.end()) {
    too_deep_.erase(it);
    taken(href.size());
  }
  if (robots_ != nullptr && !robots_->allowed(url.path_and_query())) {
    seen_.emplace(href);
    return discovery::robots;
  }
  const bool variant = !url.query().empty();
  if (variant) {
    const auto it = variants_.find(std::string(url.path()));
    const std::size_t so_far = it == variants_.end() ? 0 : it->second;
    if (so_far >= limits_.max_query_variants) {
      seen_.emplace(href);
      return discovery::trap_cap;
    }
  }
  // Kept only with room: a URL dropped is not seen, and not one of its
  // path's variants, so that the rules above read as if it was never found.
  if (!room_for(href.size())) {
    ++dropped_;
    return discovery::dropped;
  }
  if (variant) ++variants_[std::string(url.path())];
  seen_.emplace(href);
  hold(href.size());
  return discovery::queued;
}

std::set<std::string> crawl_frontier::too_deep() const {
  return {too_deep_.begin(), too_deep_.end()};
}

}  // namespace sitemill::detail
