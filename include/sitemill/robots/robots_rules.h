// sitemill: the Allow and Disallow rules of a robots.txt, for the directory
// source (a page the site's own robots.txt forbids to every crawler is not
// listed). RFC 9309, for the user-agent `*` only.
//
//   * Groups: one or more User-agent lines, then rules. Every group naming
//     `*` (alone or next to other agents) counts, and their rules are
//     combined (RFC 9309 2.2.1). Rules before any User-agent line, and the
//     groups of named crawlers, are ignored. Sitemap and unknown lines do not
//     end a group.
//   * Matching (2.2.2): the rule whose path matches with the most octets
//     wins; on a tie Allow wins. `*` matches any run of characters, a `$` at
//     the end anchors at the end of the path. An empty Disallow (or Allow)
//     matches nothing. /robots.txt itself is always allowed (2.2.2).
//   * Percent-encoding (2.2.2): before comparing, both the rule and the path
//     have bytes outside ASCII (and spaces and controls) percent-encoded,
//     escapes of unreserved characters decoded (%62 -> b) and the hex digits
//     of the others uppercased, so "/ツ" and "/%E3%83%84" match each other.
//   * Lenient reading: a UTF-8 BOM, CR/LF/CRLF line ends, comments (`#` to
//     the end of the line), whitespace around the field and the colon, and
//     field names in any case. At most the first 500 KiB is read (2.5).
#ifndef SITEMILL_ROBOTS_RULES_H
#define SITEMILL_ROBOTS_RULES_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sitemill {

/// The rules that apply to every crawler. Immutable once parsed; thread-safe.
class robots_rules {
 public:
  /// No rules: everything allowed.
  robots_rules() = default;

  /// True when a crawler obeying the `*` group may fetch `path_and_query`
  /// ("/a/b.html?x=1", starting with '/'; an empty one is "/").
  bool allowed(std::string_view path_and_query) const;

  /// The rule that decides `path_and_query`, as written in the file with the
  /// field name normalised ("Disallow: /private/"); "" when no rule matches
  /// (allowed by default). For skip reasons.
  std::string matching_rule(std::string_view path_and_query) const;

  /// Number of Allow and Disallow rules that apply to `*` (empty ones count).
  std::size_t size() const noexcept { return rules_.size(); }

 private:
  friend robots_rules parse_robots_rules(std::string_view text);
  struct rule {
    std::string pattern;  // normalised; may contain '*' and a final '$'
    std::string written;  // the value as written, for matching_rule()
    bool allow = false;
  };
  // The deciding rule's index, or -1.
  std::ptrdiff_t decide(std::string_view path_and_query) const;
  std::vector<rule> rules_;
};

/// Reads the `*` rules of a robots.txt body. Never fails: lines it cannot
/// read are ignored, as RFC 9309 2.2 lets parsers do.
robots_rules parse_robots_rules(std::string_view text);

}  // namespace sitemill

#endif  // SITEMILL_ROBOTS_RULES_H
