// sitemill: the HTML tokenizer of the WHATWG HTML standard (13.2.5), written
// for reading pages rather than building them: it yields start tags (name
// and attributes), end tags, text and where comments are, and drops the
// content of comments, DOCTYPEs and the attributes of end tags, which
// nothing here reads.
//
// Why not a library: gumbo, the HTML5 parser sitemill read pages with, runs
// at 18 MB/s (one token per character, a tree of nodes); a crawl of 20,000
// pages spent 72% of its cycles in it (benchmarks/html_parsers_bench and
// the README's "Crawling"). Debian has no faster HTML5 parser, and
// libxml2's HTML parser reads HTML 4 (its own project replaced it with an
// HTML5 tokenizer in 2.14). This one follows the standard's states:
//   * tag, attribute and comment syntax, bogus comments, DOCTYPE, CDATA
//     sections (in foreign content only, as html_tree asks);
//   * RCDATA, RAWTEXT, script data with its escaped and double-escaped
//     states, and PLAINTEXT, as the tree construction switches to them;
//   * character references in text, RCDATA and attribute values
//     (html_char_ref.h), with the attribute rule for legacy names;
//   * tag and attribute names lowercased, the first of duplicate attributes
//     kept, U+0000 as the standard replaces it (in markup it is left to the
//     tree construction), CR and CRLF read as LF;
//   * a tag cut off by the end of the input is dropped, as the standard
//     drops it;
//   * not the standard: a tag keeps its first 256 attributes (more are
//     read and dropped), so that a hostile page costs linear time.
// Input is UTF-8 and is read as bytes: html_tree hands it over with every
// invalid sequence already replaced by U+FFFD.
//
// Text comes in runs: a run ends where a tag, a comment or a DOCTYPE
// starts, so two runs in a row (around a DOCTYPE) are one text. A run and the
// names and values of a tag are views into the input where nothing was
// decoded (the common case), else into the tokenizer's own buffers; either
// way they live until the next call to next(). Not thread-safe; one
// tokenizer per document.
#ifndef SITEMILL_HTML_TOKENIZER_H
#define SITEMILL_HTML_TOKENIZER_H

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sitemill::detail {

/// HTML's whitespace (13.2.5): tab, LF, FF, space, and CR, which the input
/// stream's preprocessing turns into LF. Not \v, unlike isspace().
constexpr bool is_html_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

/// One attribute of a start tag: name lowercased, value decoded.
struct html_attribute {
  std::string_view name;
  std::string_view value;
};

/// A comment carries nothing: it only separates the text either side of it
/// (a tree has two text nodes there).
enum class html_token_type : std::uint8_t {
  start_tag,
  end_tag,
  text,
  comment,
  eof
};

/// The state the tree construction switches the tokenizer to after a start
/// tag (13.2.6.2 and the elements' own rules).
enum class html_text_state : std::uint8_t {
  data,       ///< markup
  rcdata,     ///< <title>, <textarea>: text with character references
  rawtext,    ///< <style>, <xmp>, <iframe>, <noembed>, <noframes>
  script,     ///< <script>: script data and its escape states
  plaintext,  ///< <plaintext>: text to the end
};

struct html_token {
  html_token_type type = html_token_type::eof;
  std::string_view name;  ///< tag name, lowercased
  bool self_closing = false;
  std::span<const html_attribute> attributes;  ///< start tags only
  std::string_view text;                       ///< text, decoded
};

/// The value of the attribute `name` (lowercase), or nullptr.
const html_attribute* find_attribute(std::span<const html_attribute> attributes,
                                     std::string_view name) noexcept;

class html_tokenizer {
 public:
  /// Tokenizes `html`, which must outlive the tokenizer.
  explicit html_tokenizer(std::string_view html) : in_(html) {}

  /// The next token; html_token_type::eof at the end, and from then on.
  [[nodiscard]] html_token next();

  /// Reads what follows the start tag just returned as `state` (the tree
  /// construction's call), up to the end tag of that element.
  void switch_to(html_text_state state) noexcept { state_ = state; }

  /// Whether `<![CDATA[` opens a CDATA section (the adjusted current node is
  /// not an HTML element) rather than a bogus comment.
  void allow_cdata(bool allow) noexcept { cdata_ = allow; }

 private:
  // A tag's attribute as read: a view into the input, or, when decoding
  // changed it, into its own buffer (bound when the tag is complete, since
  // the slots may move while the tag grows).
  struct attribute_slot {
    std::string_view name, value;
    std::string name_buffer, value_buffer;
    bool name_owned = false, value_owned = false;
  };

  bool starts_markup(std::size_t at) const noexcept;
  html_token read_text();
  html_token read_raw_text();
  bool read_markup(html_token& token);
  bool read_tag(bool end, html_token& token);
  void add_attribute(std::string_view raw_name, std::string_view raw_value);
  bool skip_bogus_comment(std::size_t from, html_token& token) noexcept;
  bool skip_comment(std::size_t from, html_token& token) noexcept;
  std::size_t find_raw_text_end();
  std::size_t find_script_end();
  bool is_appropriate_end_tag(std::size_t at) const noexcept;

  std::string_view in_;
  std::size_t at_ = 0;
  html_text_state state_ = html_text_state::data;
  bool cdata_ = false;
  std::string last_start_tag_;  // names the end tag raw text looks for
  std::string tag_name_buffer_;
  std::string text_buffer_;
  static constexpr std::size_t max_attributes = 256;
  std::vector<attribute_slot> slots_;
  std::size_t slot_count_ = 0;
  std::vector<html_attribute> attributes_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_HTML_TOKENIZER_H
