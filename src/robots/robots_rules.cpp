#include "sitemill/robots/robots_rules.h"

#include <cstddef>
#include <string>
#include <string_view>

#include "detail/text.h"
#include "sitemill/limits.h"

namespace sitemill {
namespace {

using detail::iequals;

constexpr bool is_space(char c) noexcept { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

constexpr bool is_unreserved(unsigned char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
}

void append_escape(std::string& out, unsigned char c) {
  constexpr char digits[] = "0123456789ABCDEF";
  out.push_back('%');
  out.push_back(digits[c >> 4]);
  out.push_back(digits[c & 15]);
}

// RFC 9309 2.2.2's comparison form, applied to rules and paths alike so
// that either spelling of a character matches the other: non-ASCII bytes,
// spaces and controls escaped; escapes of unreserved characters decoded;
// other escapes uppercased; a '%' that starts no escape becomes %25.
std::string comparable(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '%') {
      const int hi = i + 2 < s.size() ? hex_value(s[i + 1]) : -1;
      const int lo = hi >= 0 ? hex_value(s[i + 2]) : -1;
      if (lo < 0) {
        out.append("%25");
        continue;
      }
      const auto decoded = static_cast<unsigned char>(hi * 16 + lo);
      if (is_unreserved(decoded)) {
        out.push_back(static_cast<char>(decoded));
      } else {
        append_escape(out, decoded);
      }
      i += 2;
    } else if (c >= 0x80 || c <= 0x20 || c == 0x7F) {
      append_escape(out, c);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

// `pattern` ('*' any run, a final '$' anchors) matches a prefix of `path`.
// Greedy leftmost search of each '*'-separated piece is exact for a
// pattern whose only wildcard is '*'.
bool matches(std::string_view pattern, std::string_view path) noexcept {
  const bool anchored = !pattern.empty() && pattern.back() == '$';
  if (anchored) pattern.remove_suffix(1);
  std::size_t star = pattern.find('*');
  if (star == std::string_view::npos) {
    return anchored ? path == pattern : path.starts_with(pattern);
  }
  if (!path.starts_with(pattern.substr(0, star))) return false;
  std::size_t pos = star;
  pattern.remove_prefix(star + 1);
  for (;;) {
    star = pattern.find('*');
    const std::string_view piece = pattern.substr(0, star);
    if (star == std::string_view::npos) {
      if (!anchored) return path.find(piece, pos) != std::string_view::npos;
      return path.size() - pos >= piece.size() && path.ends_with(piece);
    }
    const std::size_t found = path.find(piece, pos);
    if (found == std::string_view::npos) return false;
    pos = found + piece.size();
    pattern.remove_prefix(star + 1);
  }
}

}  // namespace

robots_rules parse_robots_rules(std::string_view text) {
  robots_rules out;
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  if (text.size() > max_robots_txt_bytes) {
    // A line cut by the limit is dropped whole: half a rule could forbid
    // more than the whole one.
    text = text.substr(0, max_robots_txt_bytes);
    const std::size_t end = text.find_last_of("\r\n");
    text = end == std::string_view::npos ? std::string_view{}
                                         : text.substr(0, end);
  }
  bool in_group = false;         // a User-agent line has been seen
  bool group_has_rules = false;  // ... and rules after it
  bool for_everyone = false;     // the current group names '*'
  while (!text.empty()) {
    const std::size_t end = text.find_first_of("\r\n");
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    line = line.substr(0, line.find('#'));
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view field = trim(line.substr(0, colon));
    const std::string_view value = trim(line.substr(colon + 1));
    if (iequals(field, "user-agent")) {
      if (group_has_rules) {  // a new group starts
        group_has_rules = false;
        for_everyone = false;
      }
      in_group = true;
      // The product token is the value up to any space ("* ; comment").
      const std::string_view token =
          value.substr(0, value.find_first_of(" \t"));
      if (token == "*") for_everyone = true;
      continue;
    }
    const bool allow = iequals(field, "allow");
    if (!allow && !iequals(field, "disallow")) continue;
    if (!in_group) continue;  // a rule outside any group applies to no one
    group_has_rules = true;
    if (!for_everyone) continue;
    out.rules_.push_back(
        robots_rules::rule{comparable(value), std::string(value), allow});
  }
  return out;
}

std::ptrdiff_t robots_rules::decide(std::string_view path_and_query) const {
  if (rules_.empty()) return -1;
  if (path_and_query.empty()) path_and_query = "/";
  const std::string path = comparable(path_and_query);
  if (path.substr(0, path.find('?')) == "/robots.txt") return -1;
  std::ptrdiff_t best = -1;
  std::size_t best_length = 0;
  for (std::size_t i = 0; i < rules_.size(); ++i) {
    const rule& r = rules_[i];
    if (r.pattern.empty()) continue;  // "Disallow:" alone allows everything
    if (!matches(r.pattern, path)) continue;
    const std::size_t length = r.pattern.size();
    if (best < 0 || length > best_length ||
        (length == best_length && r.allow && !rules_[best].allow)) {
      best = static_cast<std::ptrdiff_t>(i);
      best_length = length;
    }
  }
  return best;
}

bool robots_rules::allowed(std::string_view path_and_query) const {
  const std::ptrdiff_t i = decide(path_and_query);
  return i < 0 || rules_[i].allow;
}

std::string robots_rules::matching_rule(std::string_view path_and_query) const {
  const std::ptrdiff_t i = decide(path_and_query);
  if (i < 0) return {};
  return (rules_[i].allow ? "Allow: " : "Disallow: ") + rules_[i].written;
}

}  // namespace sitemill
