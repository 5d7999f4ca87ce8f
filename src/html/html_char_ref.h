// sitemill internals: HTML character references ("&amp;", "&#8212;",
// "&nbsp" without ';'), decoded as the HTML standard's tokenizer does
// (WHATWG HTML, 13.2.5.72 "Character reference state" to 13.2.5.80
// "Numeric character reference end state"), for the HTML tokenizer.
//
// What the standard only reports as parse errors (a missing ';', a
// noncharacter, a control) is decoded as the standard decodes it and not
// reported: the tokenizer has no use for the errors.
//
// No allocation but appending to the caller's string; no state: safe to
// call from any number of threads.
#ifndef SITEMILL_HTML_CHAR_REF_H
#define SITEMILL_HTML_CHAR_REF_H

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace sitemill::detail {

/// Decodes the character reference at the start of `s`, the text just after
/// an '&', as the HTML standard's tokenizer does; appends what it stands for
/// (UTF-8) to `out` and returns how many bytes of `s` it consumed. Returns 0
/// and appends nothing when `s` starts no reference, in which case the '&'
/// is literal text. `in_attribute`: the reference is inside an attribute
/// value, where a named reference without ';' followed by '=' or an ASCII
/// alphanumeric is left as text (historical reasons, 13.2.5.73). `s` should
/// run to the end of the input: the bytes after a name decide its meaning
/// ("&notin;" is U+2209, "&noti" is U+00AC then "i").
[[nodiscard]] std::size_t decode_char_ref(std::string_view s, bool in_attribute,
                                          std::string& out);

/// One named character reference: its name without the '&' (with the ';'
/// where the standard's table has one) and the UTF-8 of its one or two code
/// points.
struct html_named_ref {
  std::string_view name;
  std::string_view utf8;
};

/// The standard's table of named character references (13.5), all 2231
/// rows, sorted by the names' bytes; static storage.
[[nodiscard]] std::span<const html_named_ref> html_named_refs() noexcept;

}  // namespace sitemill::detail

#endif  // SITEMILL_HTML_CHAR_REF_H
