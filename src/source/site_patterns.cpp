// The --include and --exclude patterns of the directory source, compiled to
// tokens and matched by simulating all the ways a path can match at once
// (an NFA), so no pattern can take exponential time, as naive backtracking
// over several '*' can.
#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <bitset>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/source/site_source.h"

namespace sitemill {
namespace {

// A compiled piece of a glob.
struct token {
  enum class kind : std::uint8_t {
    literal,   // `c`
    any,       // '?'
    set,       // [...]: the bytes in `bits`
    star,      // '*'
    any_dirs,  // "**/": zero or more whole directories
    rest,      // a final "**": anything
  };
  kind what = kind::literal;
  unsigned char c = 0;
  std::array<std::uint64_t, 4> bits{};
};
using kind = token::kind;

// A pattern longer than this is certainly a mistake; the bound keeps the
// matcher's state in a fixed-size bitset.
constexpr std::size_t max_tokens = 255;
using states = std::bitset<max_tokens + 1>;

void set_bit(token& t, unsigned char c) noexcept {
  t.bits[c >> 6] |= std::uint64_t{1} << (c & 63);
}

bool has_bit(const token& t, unsigned char c) noexcept {
  return (t.bits[c >> 6] >> (c & 63)) & 1U;
}

// Parses the bracket expression starting at glob[i] == '['. Returns the
// index after its ']', or 0 when there is no closing ']' (then '[' is an
// ordinary character, as in fnmatch).
std::size_t parse_set(std::string_view glob, std::size_t i, token& out) {
  std::size_t k = i + 1;
  bool negated = false;
  if (k < glob.size() && (glob[k] == '!' || glob[k] == '^')) {
    negated = true;
    ++k;
  }
  token t;
  t.what = kind::set;
  bool first = true;  // a ']' right after '[' or '[!' is a member
  while (k < glob.size() && (glob[k] != ']' || first)) {
    first = false;
    auto lo = static_cast<unsigned char>(glob[k]);
    if (lo == '\\' && k + 1 < glob.size()) {
      lo = static_cast<unsigned char>(glob[++k]);
    }
    if (k + 2 < glob.size() && glob[k + 1] == '-' && glob[k + 2] != ']') {
      const auto hi = static_cast<unsigned char>(glob[k + 2]);
      for (unsigned c = lo; c <= hi; ++c) {
        set_bit(t, static_cast<unsigned char>(c));
      }
      k += 3;
    } else {
      set_bit(t, lo);
      ++k;
    }
  }
  if (k >= glob.size()) return 0;
  if (negated) {
    for (auto& word : t.bits) word = ~word;
  }
  out = t;
  return k + 1;
}

std::vector<token> compile(std::string_view glob) {
  std::vector<token> tokens;
  std::size_t i = 0;
  while (i < glob.size()) {
    const bool segment_start = i == 0 || glob[i - 1] == '/';
    const char c = glob[i];
    token t;
    if (c == '*') {
      std::size_t j = i;
      while (j < glob.size() && glob[j] == '*') ++j;
      const bool globstar = j - i >= 2 && segment_start;
      if (globstar && j == glob.size()) {
        t.what = kind::rest;
        i = j;
      } else if (globstar && glob[j] == '/') {
        t.what = kind::any_dirs;
        i = j + 1;
      } else {
        t.what = kind::star;  // "a**b" is "a*b", as in git
        i = j;
      }
    } else if (c == '?') {
      t.what = kind::any;
      ++i;
    } else if (c == '\\' && i + 1 < glob.size()) {
      t.c = static_cast<unsigned char>(glob[i + 1]);
      i += 2;
    } else if (c == '[') {
      const std::size_t after = parse_set(glob, i, t);
      if (after == 0) {
        t.c = '[';
        ++i;
      } else {
        i = after;
      }
    } else {
      t.c = static_cast<unsigned char>(c);
      ++i;
    }
    tokens.push_back(t);
  }
  return tokens;
}

// Adds the states reachable without reading a character: past a '*' or a
// final '**' that matches nothing, and past a "**/" that matches no
// directory, but only where it was just entered (at the start of a
// segment): one that has consumed part of a name must reach its '/'.
void close_over(const std::vector<token>& tokens, states& s, states& entered) {
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!s[i]) continue;
    const kind k = tokens[i].what;
    if (k == kind::star || k == kind::rest ||
        (k == kind::any_dirs && entered[i])) {
      s.set(i + 1);
      entered.set(i + 1);
    }
  }
}

bool matches(const std::vector<token>& tokens, std::string_view text) {
  states current, entered;
  current.set(0);
  entered.set(0);
  close_over(tokens, current, entered);
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    states next;
    entered.reset();
    auto advance = [&](std::size_t to) {
      next.set(to);
      entered.set(to);
    };
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      if (!current[i]) continue;
      const token& t = tokens[i];
      switch (t.what) {
        case kind::literal:
          if (c == t.c) advance(i + 1);
          break;
        case kind::any:
          if (c != '/') advance(i + 1);
          break;
        case kind::set:
          if (c != '/' && has_bit(t, c)) advance(i + 1);
          break;
        case kind::star:
          if (c != '/') next.set(i);
          break;
        case kind::rest:
          next.set(i);
          break;
        case kind::any_dirs:
          next.set(i);
          if (c == '/') advance(i + 1);  // a whole directory consumed
          break;
      }
    }
    close_over(tokens, next, entered);
    if (next.none()) return false;
    current = next;
  }
  return current[tokens.size()];
}

}  // namespace

std::vector<site_pattern> default_site_patterns() {
  return {{"*.html", true}, {"*.htm", true}};
}

struct site_patterns::compiled {
  std::vector<token> tokens;
  std::unique_ptr<const RE2> regex;  // a regex pattern: tokens unused
  bool include = true;
  bool anchored = false;  // matched against the whole path, not the name
  bool dir_only = false;
};

result<site_patterns> site_patterns::make(
    const std::vector<site_pattern>& patterns) {
  auto compiled_patterns = std::make_shared<std::vector<compiled>>();
  for (const site_pattern& p : patterns) {
    std::string_view glob = p.glob;
    const std::string quoted = "pattern \"" + p.glob + "\"";
    if (glob.empty())
      return error{"an empty pattern in `patterns`", "patterns"};
    compiled c;
    c.include = p.include;
    if (p.regex) {
      RE2::Options options;
      options.set_log_errors(false);
      auto re = std::make_unique<const RE2>(p.glob, options);
      if (!re->ok())
        return error{"regular expression \"" + p.glob +
                     "\" is invalid: " + re->error()};
      c.regex = std::move(re);
      compiled_patterns->push_back(std::move(c));
      continue;
    }
    while (!glob.empty() && glob.back() == '/') {
      c.dir_only = true;
      glob.remove_suffix(1);
    }
    if (!glob.empty() && glob.front() == '/') {
      c.anchored = true;
      glob.remove_prefix(1);
    }
    if (glob.empty()) return error{quoted + " matches nothing"};
    if (glob.find('/') != std::string_view::npos) c.anchored = true;
    c.tokens = compile(glob);
    if (c.tokens.size() > max_tokens) return error{quoted + " is too long"};
    compiled_patterns->push_back(std::move(c));
  }
  site_patterns out;
  out.has_regex_ =
      std::any_of(compiled_patterns->begin(), compiled_patterns->end(),
                  [](const compiled& c) { return c.regex != nullptr; });
  out.patterns_ = std::move(compiled_patterns);
  return out;
}

site_patterns::verdict site_patterns::decide(std::string_view path,
                                             bool is_dir) const {
  if (!is_dir || !has_regex_) return decide_in(path, path, is_dir);
  std::string dir_path(path);  // as regexes see a directory: "a/b/"
  dir_path += '/';
  return decide_in(path, dir_path, is_dir);
}

site_patterns::verdict site_patterns::decide_in(std::string_view path,
                                                std::string_view regex_text,
                                                bool is_dir) const {
  const std::size_t slash = path.rfind('/');
  const std::string_view name =
      slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (!patterns_) return verdict::none;  // a default-made site_patterns
  // The last matching pattern decides, so search from the end.
  for (auto it = patterns_->rbegin(); it != patterns_->rend(); ++it) {
    if (it->regex) {
      if (RE2::PartialMatch(regex_text, *it->regex))
        return it->include ? verdict::include : verdict::exclude;
      continue;
    }
    if (it->dir_only && !is_dir) continue;
    if (matches(it->tokens, it->anchored ? path : name)) {
      return it->include ? verdict::include : verdict::exclude;
    }
  }
  return verdict::none;
}

bool site_patterns::keeps_url_path(std::string_view path) const {
  if (!patterns_) return true;
  // Every directory above the path, outermost first, as a walk meets them;
  // the path holds each one's regex text ("a/b/") already, so the entry
  // workers judge a URL without allocating.
  for (std::size_t slash = path.find('/');
       slash != std::string_view::npos && slash + 1 < path.size();
       slash = path.find('/', slash + 1)) {
    if (decide_in(path.substr(0, slash), path.substr(0, slash + 1), true) ==
        verdict::exclude)
      return false;
  }
  const bool is_dir = path.ends_with('/');
  const std::string_view regex_text = path;
  if (is_dir) path.remove_suffix(1);
  if (path.empty()) return true;  // the base URL itself
  return decide_in(path, regex_text, is_dir) != verdict::exclude;
}

bool site_patterns::matches_url_path(std::string_view path) const {
  if (!patterns_) return false;
  for (std::size_t slash = path.find('/');
       slash != std::string_view::npos && slash + 1 < path.size();
       slash = path.find('/', slash + 1)) {
    if (decide_in(path.substr(0, slash), path.substr(0, slash + 1), true) ==
        verdict::include)
      return true;
  }
  const bool is_dir = path.ends_with('/');
  const std::string_view regex_text = path;
  if (is_dir) path.remove_suffix(1);
  if (path.empty()) return false;  // the base URL itself
  return decide_in(path, regex_text, is_dir) == verdict::include;
}

}  // namespace sitemill
