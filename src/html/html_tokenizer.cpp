#include "html/html_tokenizer.h"

#include <algorithm>
#include <cstring>

#include "detail/text.h"
#include "html/html_char_ref.h"

namespace sitemill::detail {
namespace {

constexpr std::size_t npos = std::string_view::npos;

constexpr bool is_alpha(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Where a tag name ends: whitespace, '/' or '>' (13.2.5.8).
constexpr bool ends_tag_name(char c) noexcept {
  return is_html_space(c) || c == '/' || c == '>';
}

constexpr std::string_view replacement_character = "\xEF\xBF\xBD";

bool contains(std::string_view s, char c) noexcept {
  return !s.empty() && std::memchr(s.data(), c, s.size()) != nullptr;
}

// How a run of characters is read (13.2.5: which states decode character
// references, and what U+0000 becomes in each).
enum class text_rules : std::uint8_t {
  data,       // references; U+0000 kept (the tree construction decides)
  rcdata,     // references; U+0000 replaced
  raw,        // no references; U+0000 replaced
  attribute,  // references with the attribute rule; U+0000 replaced
};

// `raw` as its rules read it: the view itself when there is nothing to
// change, else the result built in `buffer`.
std::string_view decode_text(std::string_view raw, text_rules rules,
                             std::string& buffer) {
  const bool references = rules != text_rules::raw;
  if (!contains(raw, '\r') && !contains(raw, '\0') &&
      !(references && contains(raw, '&'))) {
    return raw;
  }
  buffer.clear();
  std::size_t i = 0;
  while (i < raw.size()) {
    std::size_t run = i;
    while (run < raw.size() && raw[run] != '\r' && raw[run] != '\0' &&
           !(references && raw[run] == '&')) {
      ++run;
    }
    buffer.append(raw.substr(i, run - i));
    i = run;
    if (i == raw.size()) break;
    const char c = raw[i];
    if (c == '\r') {
      buffer.push_back('\n');
      i += i + 1 < raw.size() && raw[i + 1] == '\n' ? 2 : 1;
    } else if (c == '\0') {
      if (rules == text_rules::data) {
        buffer.push_back('\0');
      } else {
        buffer.append(replacement_character);
      }
      ++i;
    } else {
      const std::size_t used = decode_char_ref(
          raw.substr(i + 1), rules == text_rules::attribute, buffer);
      if (used == 0) buffer.push_back('&');
      i += 1 + used;
    }
  }
  return buffer;
}

// A tag or attribute name as the tokenizer keeps it: ASCII lowercased,
// U+0000 replaced.
std::string_view lowered_name(std::string_view raw, std::string& buffer,
                              bool& owned) {
  owned = std::any_of(raw.begin(), raw.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || c == '\0';
  });
  if (!owned) return raw;
  buffer.clear();
  for (const char c : raw) {
    if (c == '\0') {
      buffer.append(replacement_character);
    } else {
      buffer.push_back(ascii_lower(c));
    }
  }
  return buffer;
}

}  // namespace

const html_attribute* find_attribute(std::span<const html_attribute> attributes,
                                     std::string_view name) noexcept {
  for (const html_attribute& a : attributes) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

html_token html_tokenizer::next() {
  while (at_ < in_.size()) {
    html_token token;
    if (state_ != html_text_state::data) {
      token = read_raw_text();
    } else if (in_[at_] == '<' && starts_markup(at_)) {
      if (!read_markup(token)) continue;  // a DOCTYPE, "</>" or a cut tag
    } else {
      token = read_text();
    }
    if (token.type == html_token_type::text && token.text.empty()) continue;
    return token;
  }
  return html_token{};
}

// 13.2.5.6 tag open state: what a '<' starts. Anything else is text,
// the '<' with it.
bool html_tokenizer::starts_markup(std::size_t at) const noexcept {
  if (at + 1 >= in_.size()) return false;
  const char c = in_[at + 1];
  if (is_alpha(c) || c == '!' || c == '?') return true;
  // "</" at the very end is text; "</" and anything else is an end tag, a
  // "</>" that is dropped, or a bogus comment.
  return c == '/' && at + 2 < in_.size();
}

html_token html_tokenizer::read_text() {
  const std::size_t start = at_;
  std::size_t p = at_;
  for (;;) {
    p = in_.find('<', p);
    if (p == npos) {
      p = in_.size();
      break;
    }
    if (starts_markup(p)) break;
    ++p;
  }
  at_ = p;
  html_token token;
  token.type = html_token_type::text;
  token.text =
      decode_text(in_.substr(start, p - start), text_rules::data, text_buffer_);
  return token;
}

html_token html_tokenizer::read_raw_text() {
  const std::size_t start = at_;
  std::size_t end = in_.size();
  text_rules rules = text_rules::raw;
  switch (state_) {
    case html_text_state::rcdata:
      rules = text_rules::rcdata;
      end = find_raw_text_end();
      break;
    case html_text_state::rawtext:
      end = find_raw_text_end();
      break;
    case html_text_state::script:
      end = find_script_end();
      break;
    case html_text_state::plaintext:
    case html_text_state::data:
      break;
  }
  // The end tag itself is read in the data state, as any end tag.
  state_ = html_text_state::data;
  at_ = end;
  html_token token;
  token.type = html_token_type::text;
  token.text = decode_text(in_.substr(start, end - start), rules, text_buffer_);
  return token;
}

// 13.2.5.9 to 13.2.5.14: RCDATA and RAWTEXT end at an appropriate end tag
// (the name of the element that started them, then whitespace, '/' or '>').
std::size_t html_tokenizer::find_raw_text_end() {
  for (std::size_t p = at_;; ++p) {
    p = in_.find("</", p);
    if (p == npos) return in_.size();
    if (is_appropriate_end_tag(p)) return p;
  }
}

bool html_tokenizer::is_appropriate_end_tag(std::size_t at) const noexcept {
  const std::size_t name = at + 2;
  const std::size_t n = last_start_tag_.size();
  if (n == 0 || in_.size() - name <= n) return false;
  return iequals(in_.substr(name, n), last_start_tag_) &&
         ends_tag_name(in_[name + n]);
}

// 13.2.5.4 and 13.2.5.15 to 13.2.5.31: script data ends at an appropriate
// end tag, except inside "<!--" ... "-->", where "<script" opens a
// double-escaped part in which "</script>" does not end the script.
std::size_t html_tokenizer::find_script_end() {
  enum class mode : std::uint8_t { normal, escaped, double_escaped };
  mode m = mode::normal;
  int dashes = 0;  // '-' just read, up to 2: "-->" ends an escaped part
  const std::size_t n = in_.size();
  // The letters after "<" or "</" at `p`, and whether they are "script"
  // followed by whitespace, '/' or '>' (a double escape's start or end).
  auto script_word = [&](std::size_t p, std::size_t& after) {
    std::size_t e = p;
    while (e < n && is_alpha(in_[e])) ++e;
    after = e;
    return e < n && iequals(in_.substr(p, e - p), "script") &&
           ends_tag_name(in_[e]);
  };
  std::size_t p = at_;
  while (p < n) {
    if (m == mode::normal) {
      p = in_.find('<', p);
      if (p == npos) return n;
      if (in_.compare(p, 4, "<!--") == 0) {
        m = mode::escaped;
        dashes = 2;  // the script data escaped dash dash state
        p += 4;
      } else if (p + 1 < n && in_[p + 1] == '/' && is_appropriate_end_tag(p)) {
        return p;
      } else {
        ++p;
      }
      continue;
    }
    const char c = in_[p];
    if (c == '-') {
      dashes = std::min(dashes + 1, 2);
      ++p;
      continue;
    }
    if (c == '>' && dashes == 2) {
      m = mode::normal;
      dashes = 0;
      ++p;
      continue;
    }
    dashes = 0;
    if (c != '<' || p + 1 >= n) {
      ++p;
      continue;
    }
    std::size_t after = p + 1;
    if (m == mode::escaped) {
      if (in_[p + 1] == '/' && is_appropriate_end_tag(p)) return p;
      if (is_alpha(in_[p + 1]) && script_word(p + 1, after)) {
        m = mode::double_escaped;
        ++after;  // the delimiter is read with the word
      }
    } else if (in_[p + 1] == '/') {
      if (script_word(p + 2, after)) {
        m = mode::escaped;
        ++after;
      }
    }
    p = std::max(after, p + 1);
  }
  return n;
}

// At a '<' that starts markup: a tag, a comment or a CDATA section (true,
// `token` set), or a DOCTYPE, a dropped "</>" or a tag cut off by the end
// of the input (false).
bool html_tokenizer::read_markup(html_token& token) {
  const std::size_t n = in_.size();
  const char c = in_[at_ + 1];
  if (is_alpha(c)) return read_tag(false, token);
  if (c == '/') {
    const char d = in_[at_ + 2];
    if (is_alpha(d)) return read_tag(true, token);
    if (d == '>') {
      at_ += 3;  // "</>": dropped
      return false;
    }
    return skip_bogus_comment(at_ + 2, token);
  }
  if (c == '?') return skip_bogus_comment(at_ + 1, token);
  // 13.2.5.42 markup declaration open state.
  const std::size_t p = at_ + 2;
  if (in_.compare(p, 2, "--") == 0) return skip_comment(p + 2, token);
  if (n - p >= 7) {
    // Every DOCTYPE state ends at the first '>'; nothing in it is read.
    if (istarts_with(in_.substr(p), "doctype")) {
      html_token ignored;
      skip_bogus_comment(p, ignored);
      return false;
    }
    if (cdata_ && in_.compare(p, 7, "[CDATA[") == 0) {
      const std::size_t start = p + 7;
      std::size_t end = in_.find("]]>", start);
      at_ = end == npos ? n : end + 3;
      if (end == npos) end = n;
      token = html_token{};
      token.type = html_token_type::text;
      token.text = decode_text(in_.substr(start, end - start), text_rules::raw,
                               text_buffer_);
      return true;
    }
  }
  return skip_bogus_comment(p, token);
}

// 13.2.5.41 bogus comment state: to the first '>'.
bool html_tokenizer::skip_bogus_comment(std::size_t from,
                                        html_token& token) noexcept {
  const std::size_t end = in_.find('>', from);
  at_ = end == npos ? in_.size() : end + 1;
  token = html_token{};
  token.type = html_token_type::comment;
  return true;
}

// 13.2.5.43 to 13.2.5.52: a comment, from just after "<!--". "<!-->" and
// "<!--->" end at once; otherwise the comment ends at the first "--" (or
// longer run of '-') followed by '>' or by "!>", or at the end.
bool html_tokenizer::skip_comment(std::size_t from,
                                  html_token& token) noexcept {
  token = html_token{};
  token.type = html_token_type::comment;
  const std::size_t n = in_.size();
  if (from < n && in_[from] == '>') {
    at_ = from + 1;
    return true;
  }
  if (in_.compare(from, 2, "->") == 0) {
    at_ = from + 2;
    return true;
  }
  std::size_t p = from;
  for (;;) {
    p = in_.find("--", p);
    if (p == npos) {
      at_ = n;
      return true;
    }
    p += 2;
    while (p < n && in_[p] == '-') ++p;
    if (p < n && in_[p] == '>') {
      at_ = p + 1;
      return true;
    }
    if (in_.compare(p, 2, "!>") == 0) {
      at_ = p + 2;
      return true;
    }
  }
}

// 13.2.5.7 to 13.2.5.40 for one tag, from its '<' at at_. False, with at_
// at the end, when the input ends inside the tag: the standard drops it.
bool html_tokenizer::read_tag(bool end, html_token& token) {
  const std::size_t n = in_.size();
  std::size_t p = at_ + (end ? 2 : 1);
  const std::size_t name_start = p;
  while (p < n && !is_html_space(in_[p]) && in_[p] != '/' && in_[p] != '>') ++p;
  bool name_owned = false;
  const std::string_view name = lowered_name(
      in_.substr(name_start, p - name_start), tag_name_buffer_, name_owned);
  slot_count_ = 0;
  bool self_closing = false;
  for (;;) {
    // Before attribute name.
    while (p < n && is_html_space(in_[p])) ++p;
    if (p >= n) {
      at_ = n;
      return false;
    }
    if (in_[p] == '>') {
      ++p;
      break;
    }
    if (in_[p] == '/') {  // self-closing start tag state
      ++p;
      if (p < n && in_[p] == '>') {
        self_closing = true;
        ++p;
        break;
      }
      continue;  // a stray '/': read on as before an attribute name
    }
    // Attribute name: its first character is taken whatever it is ('='
    // included), the rest up to whitespace, '/', '>' or '='.
    const std::size_t attribute_start = p++;
    while (p < n && !is_html_space(in_[p]) && in_[p] != '/' && in_[p] != '>' &&
           in_[p] != '=') {
      ++p;
    }
    const std::string_view raw_name =
        in_.substr(attribute_start, p - attribute_start);
    while (p < n && is_html_space(in_[p])) ++p;  // after attribute name
    std::string_view raw_value;
    if (p < n && in_[p] == '=') {
      ++p;
      while (p < n && is_html_space(in_[p])) ++p;  // before attribute value
      if (p < n && (in_[p] == '"' || in_[p] == '\'')) {
        const std::size_t close = in_.find(in_[p], p + 1);
        if (close == npos) {
          at_ = n;
          return false;
        }
        raw_value = in_.substr(p + 1, close - p - 1);
        p = close + 1;
      } else {
        const std::size_t value_start = p;
        while (p < n && !is_html_space(in_[p]) && in_[p] != '>') ++p;
        raw_value = in_.substr(value_start, p - value_start);
      }
    }
    if (!end) add_attribute(raw_name, raw_value);
  }
  at_ = p;
  token = html_token{};
  token.type = end ? html_token_type::end_tag : html_token_type::start_tag;
  token.self_closing = self_closing;
  if (end) {
    token.name = name;
    return true;
  }
  // Bound now that the slots no longer move.
  attributes_.resize(slot_count_);
  for (std::size_t i = 0; i < slot_count_; ++i) {
    attribute_slot& s = slots_[i];
    attributes_[i] = {
        s.name_owned ? std::string_view(s.name_buffer) : s.name,
        s.value_owned ? std::string_view(s.value_buffer) : s.value};
  }
  token.attributes = std::span<const html_attribute>(attributes_);
  last_start_tag_.assign(name);
  token.name = name_owned ? std::string_view(last_start_tag_) : name;
  return true;
}

// 13.2.5.33: a repeated attribute name is a parse error and is dropped.
// Past max_attributes a tag's attributes are read and dropped: checking
// each new name against all before it is quadratic, and a hostile page can
// give one tag a million.
void html_tokenizer::add_attribute(std::string_view raw_name,
                                   std::string_view raw_value) {
  if (slot_count_ == max_attributes) return;
  if (slots_.size() == slot_count_) slots_.emplace_back();
  attribute_slot& slot = slots_[slot_count_];
  const std::string_view name =
      lowered_name(raw_name, slot.name_buffer, slot.name_owned);
  for (std::size_t i = 0; i < slot_count_; ++i) {
    const attribute_slot& other = slots_[i];
    const std::string_view other_name =
        other.name_owned ? std::string_view(other.name_buffer) : other.name;
    if (other_name == name) return;
  }
  slot.name = name;
  const std::string_view value =
      decode_text(raw_value, text_rules::attribute, slot.value_buffer);
  slot.value_owned = value.data() != raw_value.data();
  slot.value = value;
  ++slot_count_;
}

}  // namespace sitemill::detail
