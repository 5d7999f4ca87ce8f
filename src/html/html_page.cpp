#include "sitemill/html/html_page.h"

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "detail/text.h"
#include "html/html_tree.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace sitemill {
namespace {

// Bumped whenever the rule in html_page.h changes, so a state database
// written under the old rule sees every page as changed once, rather than
// mixing hashes of two rules.
constexpr std::string_view hash_rule_version = "sitemill-html-content-v1\n";

using detail::iequals;
using detail::is_html_space;
using detail::istarts_with;

// HTML's whitespace, which is ASCII whitespace without \v.
std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && is_html_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_html_space(s.back())) s.remove_suffix(1);
  return s;
}

// `s` with its whitespace stripped and every run of it made one space, as
// the HTML standard's "strip and collapse ASCII whitespace".
std::string collapsed(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : trim(s)) {
    if (!is_html_space(c)) {
      out += c;
    } else if (out.back() != ' ') {
      out += ' ';
    }
  }
  return out;
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

using detail::html_attribute;
using detail::html_element;

const html_attribute* find_attribute(const html_element& e,
                                     std::string_view name) noexcept {
  return detail::find_attribute(e.attributes, name);
}

std::string_view attribute_value(const html_element& e,
                                 std::string_view name) noexcept {
  const html_attribute* a = find_attribute(e, name);
  return a != nullptr ? a->value : std::string_view{};
}

// The attributes whose values are content or links (html_page.h), sorted so
// that their order in the source does not matter.
constexpr std::string_view hashed_attributes[] = {
    "alt", "content", "href", "poster", "src", "srcset", "title"};

// The byte stream that is hashed, fed to XXH3 in pieces so that memory does
// not grow with the page (streamed XXH3 equals XXH3 of the whole stream).
// Every item is a kind byte and a length-prefixed string, so no two
// different documents can give the same stream by running items together.
class hash_stream {
 public:
  hash_stream() {
    XXH3_128bits_reset(&state_);
    bytes_.append(hash_rule_version);
  }

  void item(char kind, std::string_view text) {
    bytes_.push_back(kind);
    const auto n = static_cast<std::uint32_t>(text.size());
    for (int shift = 0; shift < 32; shift += 8) {
      bytes_.push_back(static_cast<char>((n >> shift) & 0xFF));
    }
    bytes_.append(text);
    if (bytes_.size() >= flush_bytes) flush();
  }

  // Text with every run of whitespace collapsed to one space, given in
  // pieces (text()) and ended by end_text(); nothing when it is only
  // whitespace. Leading and trailing spaces are kept: "<b>a</b> b" reads
  // differently from "<b>a</b>b".
  // Returns the bytes of `raw` that are not whitespace.
  std::size_t text(std::string_view raw) {
    // Written through a pointer into room made beforehand: a page's text
    // is most of its bytes, and appending word by word cost a fifth of
    // the scan.
    const std::size_t old_size = text_.size();
    text_.resize(old_size + raw.size());
    char* out = text_.data() + old_size;
    bool in_space = in_space_, has_text = has_text_;
    std::size_t spaces = 0;
    for (const char c : raw) {
      if (is_html_space(c)) {
        if (!in_space) *out++ = ' ';
        in_space = true;
        ++spaces;
      } else {
        *out++ = c;
        in_space = false;
        has_text = true;
      }
    }
    text_.resize(static_cast<std::size_t>(out - text_.data()));
    in_space_ = in_space;
    has_text_ = has_text;
    return raw.size() - spaces;
  }

  void end_text(char kind) {
    if (has_text_) item(kind, text_);
    text_.clear();
    has_text_ = false;
    in_space_ = false;
  }

  content_hash digest() {
    flush();
    const XXH128_hash_t h = XXH3_128bits_digest(&state_);
    return content_hash{h.high64, h.low64};
  }

 private:
  static constexpr std::size_t flush_bytes = 64 * 1024;

  void flush() {
    XXH3_128bits_update(&state_, bytes_.data(), bytes_.size());
    bytes_.clear();
  }

  XXH3_state_t state_;
  std::string bytes_;
  std::string text_;
  bool has_text_ = false;
  bool in_space_ = false;
};

bool is_robots_meta(const html_element& e) {
  return iequals(trim(attribute_value(e, "name")), "robots");
}

bool is_canonical_link(const html_element& e) {
  return has_token(attribute_value(e, "rel"), "canonical", false);
}

// Elements left out of the hash with everything inside them.
bool excluded_from_hash(const html_element& e) {
  if (find_attribute(e, "data-sitemill-ignore") != nullptr) return true;
  const std::string_view tag = e.name;
  if (tag == "script" || tag == "style" || tag == "noscript" ||
      tag == "template" || tag == "base") {
    return true;
  }
  if (tag == "meta") {
    const std::string_view name = trim(attribute_value(e, "name"));
    return !iequals(name, "robots") && !iequals(name, "description");
  }
  if (tag == "link") return !is_canonical_link(e);
  return false;
}

bool is_hreflang_alternate(const html_element& e) {
  if (!has_token(attribute_value(e, "rel"), "alternate", false) ||
      find_attribute(e, "hreflang") == nullptr ||
      find_attribute(e, "href") == nullptr) {
    return false;
  }
  // A feed or a PDF in a language is not a language version of the page.
  const html_attribute* type = find_attribute(e, "type");
  if (type == nullptr) return true;
  const std::string_view t = trim(type->value);
  return t.empty() || iequals(t, "text/html") || istarts_with(t, "text/html;");
}

// Open Graph's image properties that name the page's image. secure_url is
// left out: it is the https twin of og:image, the same picture.
bool is_og_image(const html_element& e) {
  const std::string_view property = trim(attribute_value(e, "property"));
  return iequals(property, "og:image") || iequals(property, "og:image:url");
}

// True for an <img> sized 0 or 1 pixels in either direction: a tracking
// pixel or a spacer, never content. Read as HTML's non-negative integers
// ("1", " 1px").
bool is_pixel(const html_element& e) {
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
// bound.
class image_list {
 public:
  image_list(std::vector<std::string>& out, bool& truncated, std::size_t max)
      : out_(out), truncated_(truncated), max_(max) {}

  void add(std::string_view url) {
    url = trim(url);
    if (url.empty() || is_data_uri(url) || seen_.contains(std::string(url))) {
      return;
    }
    if (out_.size() >= max_) {
      truncated_ = true;
      return;
    }
    seen_.emplace(url);
    out_.emplace_back(url);
  }

  // An <img>: its one image, the largest.
  void add_img(const html_element& e) {
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
  std::unordered_set<std::string> seen_;
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

bool is_json_ld(const html_element& e) {
  const std::string_view type = trim(attribute_value(e, "type"));
  return iequals(type, "application/ld+json");
}

void set_stated_date(std::array<std::string, stated_date_kinds>& dates,
                     stated_date_kind kind, std::string_view value) {
  std::string& slot = dates[static_cast<std::size_t>(kind)];
  value = trim(value);
  if (slot.empty() && !value.empty()) slot.assign(value);
}

// Records the dates a <meta> or <time> states, the first of each kind
// (JSON-LD is read by the scan, which has the script's text).
void read_stated_dates(const html_element& e,
                       std::array<std::string, stated_date_kinds>& dates) {
  auto set = [&](stated_date_kind kind, std::string_view value) {
    set_stated_date(dates, kind, value);
  };
  if (e.name == "meta") {
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
  } else if (e.name == "time") {
    if (trim(attribute_value(e, "itemprop")) == "dateModified")
      set(stated_date_kind::itemprop_date_modified,
          attribute_value(e, "datetime"));
  }
}

// What scan_html() reads, told by read_html() in document order.
class page_scanner final : public detail::html_reader {
 public:
  page_scanner(html_facts& facts, const html_scan_options& options)
      : facts_(facts),
        options_(options),
        images_(facts.images, facts.images_truncated, options.max_images) {}

  void open(const html_element& e) override {
    stream_.end_text('t');
    // A <template>'s content is no part of the document (HTML 4.12.3): a
    // script clones it, or nothing does.
    const bool inert =
        (!frames_.empty() && frames_.back().inert) ||
        (e.name == "template" && e.ns == detail::html_namespace::html);
    if (!inert) read_facts(e);
    const bool hashed =
        (frames_.empty() || frames_.back().hashed) && !excluded_from_hash(e);
    if (hashed) {
      stream_.item('<', e.name);
      for (const std::string_view name : hashed_attributes) {
        if (const html_attribute* a = find_attribute(e, name)) {
          stream_.item('a', name);
          (void)stream_.text(a->value);
          stream_.end_text('v');
        }
      }
    }
    // The first JSON-LD script that states a date gives it; one that does
    // not leaves the kind to the next.
    const bool json_ld = !inert && options_.dates && e.name == "script" &&
                         is_json_ld(e) && json_ld_date().empty();
    if (json_ld) json_text_.clear();
    // The document's title is its first <title>; a later one is not read.
    const bool title = !inert && !title_seen_ && e.name == "title" &&
                       e.ns == detail::html_namespace::html;
    title_seen_ = title_seen_ || title;
    frames_.push_back(frame{hashed, json_ld, inert, title});
  }

  void close() override {
    stream_.end_text('t');
    const frame f = frames_.back();
    frames_.pop_back();
    if (f.hashed) stream_.item('/', {});
    if (f.json_ld) {
      set_stated_date(facts_.stated_dates,
                      stated_date_kind::json_ld_date_modified,
                      json_ld_modified(json_text_));
    }
    if (f.title) facts_.title = collapsed(facts_.title);
  }

  void text(std::string_view text) override {
    if (frames_.empty() || frames_.back().hashed)
      facts_.text_bytes += stream_.text(text);
    if (!frames_.empty() && frames_.back().json_ld) json_text_.append(text);
    if (!frames_.empty() && frames_.back().title) facts_.title.append(text);
  }

  void comment() override { stream_.end_text('t'); }

  content_hash digest() {
    stream_.end_text('t');
    return stream_.digest();
  }

 private:
  struct frame {
    bool hashed;   // the element is in the hash (so its text is)
    bool json_ld;  // a JSON-LD script whose text is read for its date
    bool inert;    // a <template> or inside one: nothing is read
    bool title;    // the document's <title>: its text is the title
  };

  std::string& json_ld_date() {
    return facts_.stated_dates[static_cast<std::size_t>(
        stated_date_kind::json_ld_date_modified)];
  }

  void read_facts(const html_element& e) {
    const std::string_view tag = e.name;
    if (tag == "meta") {
      if (is_robots_meta(e)) {
        const std::string_view content = attribute_value(e, "content");
        const bool none = has_token(content, "none", true);
        if (none || has_token(content, "noindex", true)) facts_.noindex = true;
        if (none || has_token(content, "nofollow", true))
          facts_.nofollow = true;
      }
      if (!facts_.has_refresh &&
          iequals(trim(attribute_value(e, "http-equiv")), "refresh") &&
          refresh_url(attribute_value(e, "content"), facts_.refresh_url,
                      facts_.refresh_seconds)) {
        facts_.has_refresh = true;
      }
      if (options_.images && is_og_image(e)) {
        images_.add(attribute_value(e, "content"));
      }
    } else if (tag == "a" || tag == "area") {
      const html_attribute* href = find_attribute(e, "href");
      if (options_.links && href != nullptr) {
        if (facts_.links.size() < options_.max_links) {
          facts_.links.push_back(
              {std::string(trim(href->value)),
               has_token(attribute_value(e, "rel"), "nofollow", false)});
        } else {
          facts_.links_truncated = true;
        }
      }
    } else if (tag == "link" && e.in_head) {
      const html_attribute* href = find_attribute(e, "href");
      if (!facts_.has_canonical && href != nullptr && is_canonical_link(e)) {
        facts_.has_canonical = true;
        facts_.canonical = std::string(trim(href->value));
      }
      if (is_hreflang_alternate(e)) {
        facts_.alternates.push_back(
            {std::string(trim(attribute_value(e, "hreflang"))),
             std::string(trim(attribute_value(e, "href")))});
      }
    } else if (tag == "base") {
      const html_attribute* href = find_attribute(e, "href");
      if (!facts_.has_base && href != nullptr) {
        facts_.has_base = true;
        facts_.base = std::string(trim(href->value));
      }
    } else if (tag == "img" && options_.images) {
      images_.add_img(e);
    } else if (tag == "script" && e.ns == detail::html_namespace::html) {
      ++facts_.scripts;
    }
    if (options_.dates) read_stated_dates(e, facts_.stated_dates);
  }

  html_facts& facts_;
  const html_scan_options& options_;
  image_list images_;
  hash_stream stream_;
  std::vector<frame> frames_;
  std::string json_text_;
  bool title_seen_ = false;
};
}  // namespace

std::string_view describe(stated_date_kind kind) noexcept {
  switch (kind) {
    case stated_date_kind::article_modified_time:
      return "article:modified_time";
    case stated_date_kind::json_ld_date_modified:
      return "JSON-LD dateModified";
    case stated_date_kind::itemprop_date_modified:
      return "itemprop dateModified";
    case stated_date_kind::og_updated_time:
      return "og:updated_time";
    case stated_date_kind::meta_lastmod:
      return "meta lastmod";
  }
  return "date";
}

content_hash hash_bytes(std::string_view bytes) noexcept {
  const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  return content_hash{h.high64, h.low64};
}

html_facts scan_html(std::string_view html, const html_scan_options& options) {
  html_facts facts;
  page_scanner scanner(facts, options);
  detail::read_html(html, scanner);
  facts.hash = scanner.digest();
  return facts;
}

}  // namespace sitemill
