#include "sitemill/robots/robots_rules.h"

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "detail/text.h"
#include "robots/robots_lexer.h"

namespace sitemill {
namespace {

// RFC 9309 2.2.1: "*" alone, or followed by whitespace and anything
// (Google reads "* ; all bots" as `*` too).
bool is_star(std::string_view value) noexcept {
  return value.starts_with('*') &&
         (value.size() == 1 || detail::is_ascii_space(value[1]));
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

// A Crawl-delay value: seconds, maybe with a fraction ("10", "0.5"), at
// most a day (a larger value is a typo or a refusal, read as a day);
// anything else is ignored, as Google's and Bing's parsers do.
std::optional<double> crawl_delay_seconds(std::string_view value) {
  double seconds = 0;
  const char* end = value.data() + value.size();
  auto [p, ec] = std::from_chars(value.data(), end, seconds,
                                 std::chars_format::fixed);
  if (ec != std::errc() || p != end || !(seconds >= 0)) return std::nullopt;
  return std::min(seconds, 86400.0);
}

}  // namespace

// RFC 9309 2.2.1: a product token is letters, '_' and '-'; what follows it in
// a User-Agent header or a User-agent value ("/1.0 (+https://...)") is not
// part of it, as in Google's ExtractUserAgent().
std::string_view robots_product_token(std::string_view s) noexcept {
  std::size_t n = 0;
  while (n < s.size() &&
         ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') ||
          s[n] == '_' || s[n] == '-')) {
    ++n;
  }
  return s.substr(0, n);
}

robots_rules parse_robots_rules(std::string_view text,
                                std::string_view user_agent) {
  // Local, so that it shares this friend's access to robots_rules::rule.
  class reader final : public detail::robots_handler {
   public:
    explicit reader(std::string_view token) : token_(token) {}

    void on_line(const detail::robots_line& line) override {
      using detail::robots_key;
      if (line.key == robots_key::user_agent) {
        if (group_has_rules_) {  // a new group starts
          group_has_rules_ = false;
          for_star_ = false;
          for_us_ = false;
        }
        in_group_ = true;
        if (is_star(line.value)) {
          for_star_ = true;
        } else if (!token_.empty() &&
                   detail::iequals(robots_product_token(line.value), token_)) {
          for_us_ = true;
          named_ = true;
        }
        return;
      }
      if (line.key == robots_key::other &&
          detail::iequals(line.name, "crawl-delay")) {
        if (!in_group_) return;
        group_has_rules_ = true;
        if (auto seconds = crawl_delay_seconds(line.value)) {
          if (for_star_) star_delay_ = seconds;
          if (for_us_) our_delay_ = seconds;
        }
        return;
      }
      if (line.key != robots_key::allow && line.key != robots_key::disallow)
        return;
      if (!in_group_) return;  // a rule outside any group applies to no one
      group_has_rules_ = true;
      if (!for_us_ && !for_star_) return;
      robots_rules::rule r{comparable(line.value), std::string(line.value),
                           line.key == robots_key::allow};
      if (for_star_) star_.push_back(r);
      if (for_us_) ours_.push_back(std::move(r));
    }

    // RFC 9309 2.2.1: a crawler's own groups, even empty ones, replace `*`.
    std::vector<robots_rules::rule> finish() && {
      return named_ ? std::move(ours_) : std::move(star_);
    }
    std::optional<double> delay() const {
      return named_ ? our_delay_ : star_delay_;
    }

   private:
    std::string_view token_;
    bool in_group_ = false;         // a User-agent line has been seen
    bool group_has_rules_ = false;  // ... and rules after it
    bool for_star_ = false;         // the current group names '*'
    bool for_us_ = false;           // ... or the crawler
    bool named_ = false;            // some group names the crawler
    std::vector<robots_rules::rule> star_, ours_;
    std::optional<double> star_delay_, our_delay_;  // the group's last
  };

  reader r(robots_product_token(detail::trim(user_agent)));
  detail::lex_robots_txt(text, r);
  robots_rules out;
  out.crawl_delay_ = r.delay();
  out.rules_ = std::move(r).finish();
  return out;
}

robots_rules parse_robots_rules(std::string_view text) {
  return parse_robots_rules(text, "*");
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
