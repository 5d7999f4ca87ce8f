// The gumbo oracle: scan_html() as src/source/html_page.cpp had it while it
// was built on gumbo (commit b63ea7c), the fact-reading walk and the content
// hash of rule version 1 copied as they were.
#include "support/gumbo_reference.h"

#include <gumbo.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace sitemill::testing {
namespace {

// Bumped whenever the rule in html_page.h changes, so a state database
// written under the old rule sees every page as changed once, rather than
// mixing hashes of two rules.
constexpr std::string_view hash_rule_version = "sitemill-html-content-v1\n";

constexpr bool is_html_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

constexpr char ascii_lower(char c) noexcept {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// Local copies of the library's detail/text.h helpers, so the oracle shares
// no code with what it checks.
constexpr bool iequals(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  return true;
}

constexpr bool istarts_with(std::string_view s,
                            std::string_view prefix) noexcept {
  return s.size() >= prefix.size() &&
         iequals(s.substr(0, prefix.size()), prefix);
}

// HTML's whitespace, which is ASCII whitespace without \v.
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
  // Returns the bytes of `raw` that are not whitespace.
  std::size_t text(char kind, std::string_view raw) {
    scratch_.clear();
    bool space = false;
    std::size_t visible = 0;
    for (const char c : raw) {
      if (is_html_space(c)) {
        space = true;
        continue;
      }
      if (space) scratch_.push_back(' ');
      space = false;
      scratch_.push_back(c);
      ++visible;
    }
    if (scratch_.empty()) return 0;
    if (space) scratch_.push_back(' ');
    // A leading space is kept: "<b>a</b> b" reads differently from
    // "<b>a</b>b".
    if (is_html_space(raw.front()) && scratch_.front() != ' ') {
      scratch_.insert(scratch_.begin(), ' ');
    }
    item(kind, scratch_);
    return visible;
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

bool is_hreflang_alternate(const GumboElement& e) {
  if (!has_token(attribute_value(e, "rel"), "alternate", false) ||
      find_attribute(e, "hreflang") == nullptr ||
      find_attribute(e, "href") == nullptr) {
    return false;
  }
  // A feed or a PDF in a language is not a language version of the page.
  const GumboAttribute* type = find_attribute(e, "type");
  if (type == nullptr) return true;
  const std::string_view t = trim(type->value);
  return t.empty() || iequals(t, "text/html") || istarts_with(t, "text/html;");
}

// Open Graph's image properties that name the page's image. secure_url is
// left out: it is the https twin of og:image, the same picture.
bool is_og_image(const GumboElement& e) {
  const std::string_view property = trim(attribute_value(e, "property"));
  return iequals(property, "og:image") || iequals(property, "og:image:url");
}

// True for an <img> sized 0 or 1 pixels in either direction: a tracking
// pixel or a spacer, never content. Read as HTML's non-negative integers
// ("1", " 1px").
bool is_pixel(const GumboElement& e) {
  for (const char* name : {"width", "height"}) {
    const std::string_view v = trim(attribute_value(e, name));
    std::size_t n = 0;
    while (n < v.size() && v[n] >= '0' && v[n] <= '9') ++n;
    if (n == 0) continue;
    unsigned value = 2;
    std::from_chars(v.data(), v.data() + n, value);
    if (value <= 1) return true;
  }
  return false;
}

bool is_data_uri(std::string_view url) {
  return istarts_with(trim(url), "data:");
}

// One candidate of a srcset: its URL and its descriptor.
struct image_candidate {
  std::string_view url;
  double width = 0;    // a `w` descriptor, 0 when none
  double density = 1;  // an `x` descriptor, 1 when none
};

// Parses one candidate's descriptors ("640w", "2x", "100h"); false for an
// invalid list, which drops the candidate as the HTML standard does.
bool parse_descriptors(std::string_view list, image_candidate& c) {
  bool width = false, density = false, height = false;
  while (!list.empty()) {
    while (!list.empty() && is_html_space(list.front())) list.remove_prefix(1);
    std::size_t end = 0;
    while (end < list.size() && !is_html_space(list[end])) ++end;
    const std::string_view token = list.substr(0, end);
    list.remove_prefix(end);
    if (token.empty()) break;
    const char kind = token.back();
    const std::string_view number = token.substr(0, token.size() - 1);
    // HTML's numbers start with a digit or '.': not "+2", "inf" or "nan".
    if (number.empty() ||
        !((number[0] >= '0' && number[0] <= '9') || number[0] == '.')) {
      return false;
    }
    double value = 0;
    const auto [ptr, ec] =
        std::from_chars(number.data(), number.data() + number.size(), value);
    if (ec != std::errc() || ptr != number.data() + number.size()) {
      return false;
    }
    if (kind == 'w' && !width && !density && value > 0 &&
        number.find_first_not_of("0123456789") == std::string_view::npos) {
      width = true;
      c.width = value;
    } else if (kind == 'x' && !width && !density && value >= 0) {
      density = true;
      c.density = value;
    } else if (kind == 'h' && !height && value > 0) {
      height = true;
    } else {
      return false;
    }
  }
  return true;
}

// The largest image of an <img>'s srcset and src, as the HTML standard's
// source set orders them: by width when any candidate has a `w`
// descriptor (src is then no candidate), else by density, src counting as
// 1x unless srcset has a 1x. The first wins a tie. data: URIs are passed
// over. Empty when there is none.
std::string_view largest_image(std::string_view srcset, std::string_view src) {
  image_candidate best_width{}, best_density{};
  bool any_width = false, any_density = false, has_1x = false;
  auto consider = [&](const image_candidate& c) {
    if (c.url.empty() || is_data_uri(c.url)) return;
    if (c.width > 0) {
      if (!any_width || c.width > best_width.width) best_width = c;
      any_width = true;
    } else {
      if (!any_density || c.density > best_density.density) best_density = c;
      any_density = true;
    }
  };
  // The standard's tokenizer: a URL runs to whitespace (commas at its end
  // end the candidate); descriptors run to a comma outside parentheses.
  std::string_view s = srcset;
  while (!s.empty()) {
    while (!s.empty() && (is_html_space(s.front()) || s.front() == ','))
      s.remove_prefix(1);
    if (s.empty()) break;
    std::size_t end = 0;
    while (end < s.size() && !is_html_space(s[end])) ++end;
    image_candidate c;
    c.url = s.substr(0, end);
    s.remove_prefix(end);
    bool valid = true;
    if (c.url.back() == ',') {
      while (!c.url.empty() && c.url.back() == ',') c.url.remove_suffix(1);
    } else {
      std::size_t stop = 0;
      int depth = 0;
      while (stop < s.size() && (s[stop] != ',' || depth > 0)) {
        if (s[stop] == '(') ++depth;
        if (s[stop] == ')' && depth > 0) --depth;
        ++stop;
      }
      valid = parse_descriptors(s.substr(0, stop), c);
      s.remove_prefix(std::min(stop + 1, s.size()));
    }
    if (!valid) continue;
    if (c.width == 0 && c.density == 1) has_1x = true;
    consider(c);
  }
  if (any_width) return best_width.url;
  if (!has_1x) consider(image_candidate{trim(src), 0, 1});
  return any_density ? best_density.url : std::string_view{};
}

// The distinct image references of a page, in document order, up to a
// bound. Views in `seen_` point into the gumbo tree, which outlives it.
class image_list {
 public:
  image_list(std::vector<std::string>& out, bool& truncated, std::size_t max)
      : out_(out), truncated_(truncated), max_(max) {}

  void add(std::string_view url) {
    url = trim(url);
    if (url.empty() || is_data_uri(url) || seen_.contains(url)) return;
    if (out_.size() >= max_) {
      truncated_ = true;
      return;
    }
    seen_.insert(url);
    out_.emplace_back(url);
  }

  // An <img>: its one image, the largest.
  void add_img(const GumboElement& e) {
    if (is_pixel(e)) return;
    const std::string_view lazy_src = trim(attribute_value(e, "data-src"));
    const std::string_view lazy_srcset =
        trim(attribute_value(e, "data-srcset"));
    if (!lazy_src.empty() || !lazy_srcset.empty()) {
      add(largest_image(lazy_srcset, lazy_src));
    } else {
      add(largest_image(attribute_value(e, "srcset"),
                        attribute_value(e, "src")));
    }
  }

 private:
  std::vector<std::string>& out_;
  bool& truncated_;
  std::size_t max_;
  std::unordered_set<std::string_view> seen_;
};

// The URL of a declarative refresh's content ("0; url=/new/") and its delay
// in whole seconds, as the HTML standard's shared declarative refresh steps
// read them (the integer before any '.'; "0.5" waits 0 s, ".5" too); false
// when the content only reloads ("300") or is not a refresh at all.
bool refresh_url(std::string_view content, std::string& out,
                 std::uint32_t& seconds) {
  std::string_view s = content;
  while (!s.empty() && is_html_space(s.front())) s.remove_prefix(1);
  std::size_t time = 0;
  std::uint64_t whole = 0;
  while (time < s.size() && s[time] >= '0' && s[time] <= '9') {
    whole = std::min<std::uint64_t>(whole * 10 + (s[time] - '0'), UINT32_MAX);
    ++time;
  }
  if (time == 0 && (s.empty() || s.front() != '.')) return false;
  while (time < s.size() &&
         ((s[time] >= '0' && s[time] <= '9') || s[time] == '.')) {
    ++time;
  }
  s.remove_prefix(time);
  while (!s.empty() && is_html_space(s.front())) s.remove_prefix(1);
  if (!s.empty() && (s.front() == ';' || s.front() == ',')) s.remove_prefix(1);
  while (!s.empty() && is_html_space(s.front())) s.remove_prefix(1);
  if (s.empty()) return false;
  if (istarts_with(s, "url")) {
    std::string_view rest = s.substr(3);
    while (!rest.empty() && is_html_space(rest.front())) rest.remove_prefix(1);
    if (!rest.empty() && rest.front() == '=') {
      rest.remove_prefix(1);
      while (!rest.empty() && is_html_space(rest.front()))
        rest.remove_prefix(1);
      s = rest;
    }
  }
  if (!s.empty() && (s.front() == '"' || s.front() == '\'')) {
    const char quote = s.front();
    s.remove_prefix(1);
    s = s.substr(0, s.find(quote));
  }
  s = trim(s);
  if (s.empty()) return false;
  out.assign(s);
  seconds = static_cast<std::uint32_t>(whole);
  return true;
}

// "dateModified" of one JSON-LD node, or of the items of its "@graph".
const std::string* json_ld_date_modified(const nlohmann::json& node) {
  if (!node.is_object()) return nullptr;
  if (auto it = node.find("dateModified");
      it != node.end() && it->is_string()) {
    return it->get_ptr<const std::string*>();
  }
  if (auto graph = node.find("@graph");
      graph != node.end() && graph->is_array()) {
    for (const auto& item : *graph) {
      if (!item.is_object()) continue;
      if (auto it = item.find("dateModified");
          it != item.end() && it->is_string()) {
        return it->get_ptr<const std::string*>();
      }
    }
  }
  return nullptr;
}

// The first "dateModified" of a JSON-LD script's text; empty when none. A
// script that is not JSON is passed over, as a search engine passes it.
std::string json_ld_modified(std::string_view text) {
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded()) return {};
  if (doc.is_array()) {
    for (const auto& node : doc) {
      if (const std::string* d = json_ld_date_modified(node)) return *d;
    }
    return {};
  }
  const std::string* d = json_ld_date_modified(doc);
  return d != nullptr ? *d : std::string{};
}

bool is_json_ld(const GumboElement& e) {
  const std::string_view type = trim(attribute_value(e, "type"));
  return iequals(type, "application/ld+json");
}

// The text of a <script>: its text children, joined.
std::string script_text(const GumboElement& e) {
  std::string text;
  for (unsigned i = 0; i < e.children.length; ++i) {
    const auto* child = static_cast<const GumboNode*>(e.children.data[i]);
    if (child->type == GUMBO_NODE_TEXT || child->type == GUMBO_NODE_CDATA ||
        child->type == GUMBO_NODE_WHITESPACE) {
      text += child->v.text.text;
    }
  }
  return text;
}

// `s` stripped of whitespace, every run of it one space (document.title).
std::string collapsed(std::string_view s) {
  std::string out;
  bool space = false;
  for (const char c : trim(s)) {
    if (is_html_space(c)) {
      space = true;
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

// Records the dates a <meta>, <time> or JSON-LD <script> states, the first
// of each kind.
void read_stated_dates(const GumboElement& e,
                       std::array<std::string, stated_date_kinds>& dates) {
  auto set = [&](stated_date_kind kind, std::string_view value) {
    std::string& slot = dates[static_cast<std::size_t>(kind)];
    value = trim(value);
    if (slot.empty() && !value.empty()) slot.assign(value);
  };
  if (e.tag == GUMBO_TAG_META) {
    const std::string_view content = attribute_value(e, "content");
    const std::string_view property = trim(attribute_value(e, "property"));
    if (iequals(property, "article:modified_time"))
      set(stated_date_kind::article_modified_time, content);
    else if (iequals(property, "og:updated_time"))
      set(stated_date_kind::og_updated_time, content);
    if (iequals(trim(attribute_value(e, "name")), "lastmod"))
      set(stated_date_kind::meta_lastmod, content);
    if (trim(attribute_value(e, "itemprop")) == "dateModified")
      set(stated_date_kind::itemprop_date_modified, content);
  } else if (e.tag == GUMBO_TAG_TIME) {
    if (trim(attribute_value(e, "itemprop")) == "dateModified")
      set(stated_date_kind::itemprop_date_modified,
          attribute_value(e, "datetime"));
  } else if (e.tag == GUMBO_TAG_SCRIPT && is_json_ld(e) &&
             dates[static_cast<std::size_t>(
                       stated_date_kind::json_ld_date_modified)]
                 .empty()) {
    set(stated_date_kind::json_ld_date_modified,
        json_ld_modified(script_text(e)));
  }
}

struct frame {
  const GumboNode* node;
  unsigned next_child = 0;
  bool in_head = false;
  bool hashed = false;
};

}  // namespace

html_facts gumbo_scan_html(std::string_view html,
                           const html_scan_options& scan_options) {
  html_facts facts;
  image_list images(facts.images, facts.images_truncated,
                    scan_options.max_images);
  GumboOptions options = kGumboDefaultOptions;
  options.max_errors = 0;  // parse errors are of no use here; skip the work
  // The Encoding standard's decoder drops a leading byte order mark before
  // the tokenizer sees the text; gumbo leaves decoding to its caller, and
  // would read the mark as text that ends the head.
  if (html.substr(0, 3) == "\xEF\xBB\xBF") html.remove_prefix(3);
  GumboOutput* output =
      gumbo_parse_with_options(&options, html.data(), html.size());
  hash_stream stream;
  bool title_seen = false;
  // Iterative, so a deeply nested page cannot exhaust the stack here.
  std::vector<frame> stack;
  stack.push_back(frame{output->document, 0, false, true});
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
    const bool parent_in_head = top.in_head;
    const bool parent_hashed = top.hashed;
    switch (child.type) {
      case GUMBO_NODE_ELEMENT: {
        const GumboElement& e = child.v.element;
        if (e.tag == GUMBO_TAG_META && is_robots_meta(e)) {
          const std::string_view content = attribute_value(e, "content");
          const bool none = has_token(content, "none", true);
          if (none || has_token(content, "noindex", true)) facts.noindex = true;
          if (none || has_token(content, "nofollow", true))
            facts.nofollow = true;
        }
        if (scan_options.links &&
            (e.tag == GUMBO_TAG_A || e.tag == GUMBO_TAG_AREA) &&
            find_attribute(e, "href") != nullptr) {
          if (facts.links.size() < scan_options.max_links) {
            facts.links.push_back(
                {std::string(trim(attribute_value(e, "href"))),
                 has_token(attribute_value(e, "rel"), "nofollow", false)});
          } else {
            facts.links_truncated = true;
          }
        }
        if (e.tag == GUMBO_TAG_LINK && parent_in_head && !facts.has_canonical &&
            is_canonical_link(e) && find_attribute(e, "href") != nullptr) {
          facts.has_canonical = true;
          facts.canonical = std::string(trim(attribute_value(e, "href")));
        }
        if (e.tag == GUMBO_TAG_LINK && parent_in_head &&
            is_hreflang_alternate(e)) {
          facts.alternates.push_back(
              {std::string(trim(attribute_value(e, "hreflang"))),
               std::string(trim(attribute_value(e, "href")))});
        }
        if (e.tag == GUMBO_TAG_BASE && !facts.has_base &&
            find_attribute(e, "href") != nullptr) {
          facts.has_base = true;
          facts.base = std::string(trim(attribute_value(e, "href")));
        }
        if (e.tag == GUMBO_TAG_META && !facts.has_refresh &&
            iequals(trim(attribute_value(e, "http-equiv")), "refresh") &&
            refresh_url(attribute_value(e, "content"), facts.refresh_url,
                        facts.refresh_seconds)) {
          facts.has_refresh = true;
        }
        // The document's title: its first HTML <title>, text children.
        if (e.tag == GUMBO_TAG_TITLE &&
            e.tag_namespace == GUMBO_NAMESPACE_HTML && !title_seen) {
          title_seen = true;
          facts.title = collapsed(script_text(e));
        }
        if (e.tag == GUMBO_TAG_SCRIPT &&
            e.tag_namespace == GUMBO_NAMESPACE_HTML)
          ++facts.scripts;
        if (scan_options.dates) read_stated_dates(e, facts.stated_dates);
        if (scan_options.images) {
          if (e.tag == GUMBO_TAG_IMG) {
            images.add_img(e);
          } else if (e.tag == GUMBO_TAG_META && is_og_image(e)) {
            images.add(attribute_value(e, "content"));
          }
        }
        const bool hashed = parent_hashed && !excluded_from_hash(e);
        if (hashed) {
          stream.item('<', element_name(child));
          for (const char* name : hashed_attributes) {
            if (const GumboAttribute* a = find_attribute(e, name)) {
              stream.item('a', name);
              (void)stream.text('v', a->value);
            }
          }
        }
        // `top` may dangle after the push.
        stack.push_back(frame{
            &child, 0, parent_in_head || e.tag == GUMBO_TAG_HEAD, hashed});
        break;
      }
      case GUMBO_NODE_TEXT:
      case GUMBO_NODE_CDATA:
        if (parent_hashed)
          facts.text_bytes += stream.text('t', child.v.text.text);
        break;
      case GUMBO_NODE_DOCUMENT:
      case GUMBO_NODE_WHITESPACE:
      case GUMBO_NODE_COMMENT:
      // A <template> (gumbo's own node type) is an inert fragment, not the
      // page: neither it nor anything in it is read, as the gumbo scan did.
      case GUMBO_NODE_TEMPLATE:
        break;
    }
  }
  facts.hash = stream.digest();
  gumbo_destroy_output(&options, output);
  return facts;
}

gumbo_fixups find_gumbo_fixups(std::string_view html) {
  gumbo_fixups fixups;
  GumboOptions options = kGumboDefaultOptions;
  options.max_errors = 0;
  GumboOutput* output =
      gumbo_parse_with_options(&options, html.data(), html.size());
  // Elements the parser made without a tag of their own (implied <html>,
  // <tbody>, clones) have no source position to be out of order with.
  constexpr unsigned cloned = GUMBO_INSERTION_RECONSTRUCTED_FORMATTING_ELEMENT |
                              GUMBO_INSERTION_ADOPTION_AGENCY_CLONED;
  constexpr unsigned untagged =
      cloned | GUMBO_INSERTION_BY_PARSER | GUMBO_INSERTION_IMPLIED;
  unsigned last_offset = 0;
  // Depth first in document order: children pushed last to first.
  std::vector<const GumboNode*> pending = {output->document};
  while (!pending.empty()) {
    const GumboNode& node = *pending.back();
    pending.pop_back();
    const GumboVector* children = nullptr;
    if (node.type == GUMBO_NODE_DOCUMENT) {
      children = &node.v.document.children;
    } else if (node.type == GUMBO_NODE_ELEMENT) {
      const GumboElement& e = node.v.element;
      if ((node.parse_flags & cloned) != 0 && e.tag == GUMBO_TAG_A &&
          find_attribute(e, "href") != nullptr) {
        fixups.link_cloned = true;
      }
      if ((node.parse_flags & untagged) == 0) {
        if (e.start_pos.offset < last_offset) fixups.reordered = true;
        last_offset = std::max(last_offset, e.start_pos.offset);
      }
      children = &e.children;
    }
    if (children == nullptr) continue;
    for (unsigned i = children->length; i > 0; --i) {
      pending.push_back(static_cast<const GumboNode*>(children->data[i - 1]));
    }
  }
  gumbo_destroy_output(&options, output);
  return fixups;
}

}  // namespace sitemill::testing
