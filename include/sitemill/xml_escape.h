// sitemill: XML escaping of text and attribute values. On the ground, because
// both the writers and the parser (which re-serialises elements of unknown
// namespaces, parsed_entry::foreign_xml) escape with it.
#ifndef SITEMILL_XML_ESCAPE_H
#define SITEMILL_XML_ESCAPE_H

#include <string>
#include <string_view>

namespace sitemill {

/// Appends `text` to `out` with the five characters sitemaps.org lists
/// escaped: & ' " < > become &amp; &apos; &quot; &lt; &gt;. Runs of other
/// bytes are copied in one append (pugixml's table-driven loop).
void append_xml_escaped(std::string& out, std::string_view text);

/// append_xml_escaped() for values that may hold line breaks and tabs
/// (extension values: a caption, a description) and must read back as
/// given: CR is also written as &#13;, which XML's end-of-line handling would
/// read as LF, and in an attribute value TAB, LF and CR as &#9; &#10; &#13;,
/// which attribute-value normalisation would read as spaces (XML 1.0 2.11,
/// 3.3.3).
void append_xml_escaped_exact(std::string& out, std::string_view text,
                              bool attribute);

/// The escaped length of `text`, without building it.
std::size_t xml_escaped_size(std::string_view text) noexcept;

/// Appends `escaped`, text that append_xml_escaped() wrote, with the five
/// references turned back into their characters (the inverse, for callers
/// that kept only the written bytes). Other references are copied as is.
void append_xml_unescaped(std::string& out, std::string_view escaped);

}  // namespace sitemill

#endif  // SITEMILL_XML_ESCAPE_H
