// sitemill: the HTML standard's tree construction (13.2.6), as much of it
// as reading a page needs, over html_tokenizer: it tells a reader which
// elements open and close, in document order, what text each holds, and
// whether an element is inside the document's <head>. No tree is built.
//
// Followed as the standard has it:
//   * the insertion modes around the head (initial, before html, before
//     head, in head, in head noscript, after head, in body, after body):
//     implied <html>, <head> and <body>; the head ends at the first text or
//     element that cannot be in it; a <link>, <meta>, <base>, <script>,
//     <style> or <title> between </head> and <body> goes back into the head;
//   * which elements switch the tokenizer to RCDATA, RAWTEXT, script data
//     or PLAINTEXT, and void elements, which never hold anything;
//   * end tags: an element closes at its end tag, with the elements opened
//     inside it, unless a "special" element (13.2.4.2) stands between them,
//     in which case the end tag is dropped; </p>, </li>, </dd>, </dt> and
//     the headings' end tags by their scopes;
//   * the end tags HTML lets authors omit: a <p> closes at the start of a
//     block (address, div, ul, h1...), an <li> at the next <li>, <dd>/<dt>
//     at the next of either, <option> at the next option, table cells and
//     rows at the next cell or row; and the tags it implies: <tbody> for a
//     row or cell straight in a <table>, <tr> for a cell, <colgroup> for a
//     <col>;
//   * the list of active formatting elements (13.2.4.3): a <b>, <a>,
//     <font>... that an end tag closed early is reopened before the next
//     text or inline element, with its attributes (so an <a href> left open
//     across a paragraph is a link again in the next one), with markers and
//     Noah's Ark, and at most 64 entries;
//   * a newline right after <pre>, <listing> or <textarea> is dropped;
//   * a page that ends in its head still gets its implied <body>, and a
//     <link>, <meta>, <script>, <style> or <title> after </head> is told as
//     the head's child, where the standard's tree has it;
//   * foreign content: <svg> and <math> open SVG and MathML, where
//     <![CDATA[ is text, self-closing tags close, nothing switches the
//     tokenizer, and the standard's list of HTML start tags breaks out;
//     <foreignObject>, <desc>, <title> and MathML's text integration points
//     hold HTML again.
// Not followed, because nothing a page is read for depends on them: the
// rest of the table insertion modes (foster parenting of text and elements
// misplaced in a table), the adoption agency algorithm beyond its simple
// case (a formatting element's end tag closes it with what is open in it;
// a block opened inside is not moved out), <template>'s own modes (its
// content is read as body content) and quirks mode (a <table> closes an
// open <p> as in standards mode). What they would change is where an
// element of malformed markup sits, never whether it is read. The
// differential test against gumbo (tests/html_scan_differential_test.cpp)
// measures what is left: on its 4,000 generated odd documents, 18 hash
// differently, and the repository's real pages all alike.
//
// Bounds, not the standard's, so that a hostile page costs linear time: a
// walk down the stack of open elements stops 512 elements down (an end tag
// finds nothing deeper to close), the list of active formatting elements
// keeps 64 entries, and a tag its first 256 attributes (html_tokenizer.h).
//
// Input is UTF-8; invalid sequences are read as U+FFFD and a leading byte
// order mark is skipped, as the standard's decoder does.
#ifndef SITEMILL_HTML_TREE_H
#define SITEMILL_HTML_TREE_H

#include <cstdint>
#include <span>
#include <string_view>

#include "html/html_tokenizer.h"

namespace sitemill::detail {

enum class html_namespace : std::uint8_t { html, svg, mathml };

/// An element as it opens.
struct html_element {
  std::string_view name;  ///< lowercased
  html_namespace ns = html_namespace::html;
  std::span<const html_attribute> attributes;
  bool in_head = false;  ///< the <head> element or inside it
};

/// What read_html() tells, in document order. Every open() is matched by
/// one close(), void elements included (at once); text() belongs to the
/// innermost open element. Views live until the call returns.
class html_reader {
 public:
  virtual ~html_reader() = default;
  virtual void open(const html_element& element) = 0;
  virtual void close() = 0;
  virtual void text(std::string_view text) = 0;
  /// A comment: the text before it and the text after it are two texts.
  virtual void comment() {}
};

/// Reads `html` to its end, telling `reader`. Never fails: every input is
/// read, as an HTML parser reads it. Thread-safe (no shared state).
void read_html(std::string_view html, html_reader& reader);

}  // namespace sitemill::detail

#endif  // SITEMILL_HTML_TREE_H
