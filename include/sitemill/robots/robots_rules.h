// sitemill: the Allow and Disallow rules of a robots.txt (RFC 9309) for one
// crawler: the `*` groups for the directory source (a page the site's own
// robots.txt forbids to every crawler is not listed), or the groups of a named
// user-agent, for a crawler that has its own product token.
//
//   * Groups (2.2.1): one or more User-agent lines, then rules. A crawler's
//     groups are those whose User-agent lines name its product token, in any
//     case; a User-agent value is read as a product token too, so
//     "User-agent: sitemill/1.0" names "sitemill". A product token is
//     letters, '_' and '-', so "bot1" reads as "bot", as in Google's parser.
//     All of its groups are combined. Only when no group names it do the `*`
//     groups apply (alone or next to other agents, also combined). A group
//     that names both counts once. Rules before any User-agent line apply to
//     no one; Sitemap and unknown lines do not end a group (2.2.4).
//   * Matching (2.2.2): the rule whose path matches with the most octets
//     wins; on a tie Allow wins. `*` matches any run of characters, a `$` at
//     the end anchors at the end of the path. An empty Disallow (or Allow)
//     matches nothing. /robots.txt itself is always allowed (2.2.2).
//   * Percent-encoding (2.2.2): before comparing, both the rule and the path
//     have bytes outside ASCII (and spaces and controls) percent-encoded,
//     escapes of unreserved characters decoded (%62 -> b) and the hex digits
//     of the others uppercased, so "/ツ" and "/%E3%83%84" match each other.
//   * Lines are read by the one robots.txt lexer, which the Sitemap finder
//     and the editor share: a UTF-8 BOM, CR/LF/CRLF line ends, comments (`#`
//     to the end of the line), whitespace around the field and the colon,
//     field names in any case, Google's common misspellings ("Dissallow",
//     "Useragent") and a missing colon between exactly two words
//     ("Disallow /tmp/"). At most the first max_robots_txt_bytes are read
//     (2.5; limits.h), and a line that limit cuts is dropped.
#ifndef SITEMILL_ROBOTS_RULES_H
#define SITEMILL_ROBOTS_RULES_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sitemill {

/// The rules that apply to one crawler. Immutable once parsed; thread-safe.
class robots_rules {
 public:
  /// No rules: everything allowed.
  robots_rules() = default;

  /// True when the crawler the rules were read for may fetch `path_and_query`
  /// ("/a/b.html?x=1", starting with '/'; an empty one is "/").
  bool allowed(std::string_view path_and_query) const;

  /// The rule that decides `path_and_query`, as written in the file with the
  /// field name normalised ("Disallow: /private/"); "" when no rule matches
  /// (allowed by default). For skip reasons.
  std::string matching_rule(std::string_view path_and_query) const;

  /// Number of Allow and Disallow rules that apply (empty ones count).
  std::size_t size() const noexcept { return rules_.size(); }
  /// The Crawl-delay of the groups that apply, in seconds (not in RFC 9309,
  /// but widely obeyed: the last such line of those groups); std::nullopt
  /// when they have none or none that reads as a number.
  std::optional<double> crawl_delay() const noexcept { return crawl_delay_; }

 private:
  friend robots_rules parse_robots_rules(std::string_view text,
                                         std::string_view user_agent);
  struct rule {
    std::string pattern;  // normalised; may contain '*' and a final '$'
    std::string written;  // the value as written, for matching_rule()
    bool allow = false;
  };
  // The deciding rule's index, or -1.
  std::ptrdiff_t decide(std::string_view path_and_query) const;
  std::vector<rule> rules_;
  std::optional<double> crawl_delay_;
};

/// Reads the rules of a robots.txt body for the crawler whose product token
/// begins `user_agent`: a token ("sitemill") or a whole User-Agent header
/// that starts with one ("sitemill/1.0 (+https://example.com/bot)"). A value
/// that starts with no letter, '_' or '-' ("*", "") names no crawler, and only
/// the `*` groups apply. Never fails: lines it cannot read are ignored, as
/// RFC 9309 2.2 lets parsers do. Thread-safe; copies what it keeps, so
/// `text` and `user_agent` may go after the call.
robots_rules parse_robots_rules(std::string_view text,
                                std::string_view user_agent);

/// The product token a User-Agent header or User-agent value starts with
/// ("sitemill/1.0 (+https://...)" -> "sitemill"): letters, '_' and '-'.
std::string_view robots_product_token(std::string_view user_agent) noexcept;

/// The rules of the `*` groups, which every crawler without a group of its
/// own obeys: parse_robots_rules(text, "*").
robots_rules parse_robots_rules(std::string_view text);

}  // namespace sitemill

#endif  // SITEMILL_ROBOTS_RULES_H
