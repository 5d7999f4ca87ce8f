#include "sitemill/source/html_page.h"

#include <gumbo.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace sitemill {
namespace {

// Bumped whenever the rule in html_page.h changes, so a state database
// written under the old rule sees every page as changed once, rather than
// mixing hashes of two rules.
constexpr std::string_view hash_rule_version = "sitemill-html-content-v1\n";

constexpr bool is_html_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

bool iequals(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char c = a[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    char d = b[i];
    if (d >= 'A' && d <= 'Z') d = static_cast<char>(d - 'A' + 'a');
    if (c != d) return false;
  }
  return true;
}

std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && is_html_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_html_space(s.back())) s.remove_suffix(1);
  return s;
}

// True when the whitespace-separated (or, with `comma`, comma-separated)
// list `list` has `word`, case-insensitively.
bool has_token(std::string_view list, std::string_view word, bool comma) {
  while (!list.empty()) {
    std::size_t end = 0;
    while (end < list.size() &&
           (comma ? list[end] != ',' : !is_html_space(list[end]))) {
      ++end;
    }
    if (iequals(trim(list.substr(0, end)), word)) return true;
    list.remove_prefix(std::min(end + 1, list.size()));
  }
  return false;
}

const GumboAttribute* find_attribute(const GumboElement& e,
                                     const char* name) noexcept {
  return gumbo_get_attribute(&e.attributes, name);
}

std::string_view attribute_value(const GumboElement& e,
                                 const char* name) noexcept {
  const GumboAttribute* a = find_attribute(e, name);
  return a != nullptr ? std::string_view(a->value) : std::string_view{};
}

// The attributes whose values are content or links (html_page.h), sorted so
// that their order in the source does not matter.
constexpr const char* hashed_attributes[] = {"alt", "content", "href", "poster",
                                             "src", "srcset",  "title"};

// Builds the byte stream that is hashed. Every item is a kind byte and a
// length-prefixed string, so no two different documents can give the same
// stream by running items together.
class hash_stream {
 public:
  hash_stream() { bytes_.append(hash_rule_version); }

  void item(char kind, std::string_view text) {
    bytes_.push_back(kind);
    const auto n = static_cast<std::uint32_t>(text.size());
    for (int shift = 0; shift < 32; shift += 8) {
      bytes_.push_back(static_cast<char>((n >> shift) & 0xFF));
    }
    bytes_.append(text);
  }

  // Text with whitespace runs collapsed to one space; nothing for text that
  // is only whitespace.
  void text(char kind, std::string_view raw) {
    scratch_.clear();
    bool space = false;
    for (const char c : raw) {
      if (is_html_space(c)) {
        space = true;
        continue;
      }
      if (space) scratch_.push_back(' ');
      space = false;
      scratch_.push_back(c);
    }
    if (scratch_.empty()) return;
    if (space) scratch_.push_back(' ');
    // A leading space is kept: "<b>a</b> b" reads differently from
    // "<b>a</b>b".
    if (is_html_space(raw.front()) && scratch_.front() != ' ') {
      scratch_.insert(scratch_.begin(), ' ');
    }
    item(kind, scratch_);
  }

  content_hash digest() const noexcept {
    const XXH128_hash_t h = XXH3_128bits(bytes_.data(), bytes_.size());
    return content_hash{h.high64, h.low64};
  }

 private:
  std::string bytes_;
  std::string scratch_;
};

std::string element_name(const GumboNode& node) {
  const GumboElement& e = node.v.element;
  if (e.tag != GUMBO_TAG_UNKNOWN) return gumbo_normalized_tagname(e.tag);
  GumboStringPiece piece = e.original_tag;
  gumbo_tag_from_original_text(&piece);
  std::string name(piece.data != nullptr ? piece.data : "", piece.length);
  for (char& c : name) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return name;
}

bool is_robots_meta(const GumboElement& e) {
  return iequals(trim(attribute_value(e, "name")), "robots");
}

bool is_canonical_link(const GumboElement& e) {
  return has_token(attribute_value(e, "rel"), "canonical", false);
}

// Elements left out of the hash with everything inside them.
bool excluded_from_hash(const GumboElement& e) {
  if (find_attribute(e, "data-sitemill-ignore") != nullptr) return true;
  switch (e.tag) {
    case GUMBO_TAG_SCRIPT:
    case GUMBO_TAG_STYLE:
    case GUMBO_TAG_NOSCRIPT:
    case GUMBO_TAG_TEMPLATE:
    case GUMBO_TAG_BASE:
      return true;
    case GUMBO_TAG_META: {
      const std::string_view name = trim(attribute_value(e, "name"));
      return !iequals(name, "robots") && !iequals(name, "description");
    }
    case GUMBO_TAG_LINK:
      return !is_canonical_link(e);
    default:
      return false;
  }
}

struct frame {
  const GumboNode* node;
  unsigned next_child = 0;
  bool hashed = false;
  bool in_head = false;
};

}  // namespace

content_hash hash_bytes(std::string_view bytes) noexcept {
  const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  return content_hash{h.high64, h.low64};
}

html_facts scan_html(std::string_view html) {
  html_facts facts;
  GumboOptions options = kGumboDefaultOptions;
  options.max_errors = 0;  // parse errors are of no use here; skip the work
  GumboOutput* output =
      gumbo_parse_with_options(&options, html.data(), html.size());
  hash_stream stream;
  // Iterative, so a deeply nested page cannot exhaust the stack here.
  std::vector<frame> stack;
  stack.push_back(frame{output->document, 0, true, false});
  while (!stack.empty()) {
    frame& top = stack.back();
    const GumboNode& node = *top.node;
    const GumboVector& children = node.type == GUMBO_NODE_DOCUMENT
                                      ? node.v.document.children
                                      : node.v.element.children;
    if (top.next_child == children.length) {
      if (top.hashed && node.type != GUMBO_NODE_DOCUMENT) stream.item('/', {});
      stack.pop_back();
      continue;
    }
    const auto& child =
        *static_cast<const GumboNode*>(children.data[top.next_child++]);
    const bool parent_hashed = top.hashed;
    const bool parent_in_head = top.in_head;
    switch (child.type) {
      case GUMBO_NODE_TEXT:
      case GUMBO_NODE_CDATA:
        if (parent_hashed) stream.text('t', child.v.text.text);
        break;
      case GUMBO_NODE_ELEMENT: {
        const GumboElement& e = child.v.element;
        if (e.tag == GUMBO_TAG_META && is_robots_meta(e) &&
            (has_token(attribute_value(e, "content"), "noindex", true) ||
             has_token(attribute_value(e, "content"), "none", true))) {
          facts.noindex = true;
        }
        if (e.tag == GUMBO_TAG_LINK && parent_in_head && !facts.has_canonical &&
            is_canonical_link(e) && find_attribute(e, "href") != nullptr) {
          facts.has_canonical = true;
          facts.canonical = std::string(trim(attribute_value(e, "href")));
        }
        const bool hashed = parent_hashed && !excluded_from_hash(e);
        if (hashed) {
          stream.item('<', element_name(child));
          for (const char* name : hashed_attributes) {
            if (const GumboAttribute* a = find_attribute(e, name)) {
              stream.item('a', name);
              stream.text('v', a->value);
            }
          }
        }
        // `top` may dangle after the push.
        stack.push_back(frame{&child, 0, hashed,
                              parent_in_head || e.tag == GUMBO_TAG_HEAD});
        break;
      }
      case GUMBO_NODE_DOCUMENT:
      case GUMBO_NODE_WHITESPACE:
      case GUMBO_NODE_COMMENT:
      case GUMBO_NODE_TEMPLATE:
        break;
    }
  }
  facts.hash = stream.digest();
  gumbo_destroy_output(&options, output);
  return facts;
}

}  // namespace sitemill
