// XML escaping (docs/protocol.md 1.2): the five characters, and nothing else.
#include "sitemill/write/xml_escape.h"

#include <gtest/gtest.h>

#include <random>

namespace sitemill {
namespace {

// The obvious byte-at-a-time version, to check the word-at-a-time one.
std::string reference(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string escaped(std::string_view s) {
  std::string out = "prefix:";
  append_xml_escaped(out, s);
  return out.substr(7);
}

TEST(XmlEscape, EscapesTheFiveCharactersOfTheProtocol) {
  EXPECT_EQ(
      escaped("http://www.example.com/view?widget=3&count>2"),
      "http://www.example.com/view?widget=3&amp;count&gt;2");  // sitemaps.org
                                                               // FAQ
  EXPECT_EQ(escaped("<'\">&"), "&lt;&apos;&quot;&gt;&amp;");
  EXPECT_EQ(escaped(""), "");
  EXPECT_EQ(escaped("caf\xC3\xA9 %C3%A9"), "caf\xC3\xA9 %C3%A9");
}

// XML 1.0 2.11 reads CR as LF; 3.3.3 reads TAB, LF and CR in an attribute
// value as spaces: written as references, they read back as given.
TEST(XmlEscape, ExactKeepsWhatXmlWouldNormalise) {
  struct row {
    std::string_view text;
    bool attribute;
    std::string_view written;
  };
  const row rows[] = {
      {"a\r\nb\tc\nd", false, "a&#13;\nb\tc\nd"},
      {"a\r\nb\tc\nd", true, "a&#13;&#10;b&#9;c&#10;d"},
      {"\r<&>\r", false, "&#13;&lt;&amp;&gt;&#13;"},
      {"\"'\t", true, "&quot;&apos;&#9;"},
      {"", true, ""},
      {"caf\xC3\xA9", false, "caf\xC3\xA9"},
  };
  for (const row& r : rows) {
    std::string out = "prefix:";
    append_xml_escaped_exact(out, r.text, r.attribute);
    EXPECT_EQ(out, "prefix:" + std::string(r.written)) << r.attribute;
  }
}

TEST(XmlEscape, MatchesTheByteLoopAtEveryPositionAndLength) {
  std::mt19937 rng(7);
  const std::string alphabet = "abc/%&'\"<>\xC3\xA9";
  for (std::size_t len = 0; len < 70; ++len) {
    for (int trial = 0; trial < 40; ++trial) {
      std::string s;
      for (std::size_t i = 0; i < len; ++i)
        s += alphabet[rng() % alphabet.size()];
      ASSERT_EQ(escaped(s), reference(s)) << s;
      EXPECT_EQ(xml_escaped_size(s), reference(s).size());
    }
  }
}

// Every byte value in every lane of a 16-byte block and in the tail: the
// block test folds pairs of characters together, so neighbours of the five
// (0x25, 0x3D, 0x3F, ...) must come through untouched.
TEST(XmlEscape, EveryByteAtEveryPosition) {
  for (std::size_t len = 1; len <= 40; ++len) {
    for (std::size_t at = 0; at < len; ++at) {
      for (int b = 0; b < 256; ++b) {
        std::string s(len, 'x');
        s[at] = static_cast<char>(b);
        ASSERT_EQ(escaped(s), reference(s))
            << "byte " << b << " at " << at << " of " << len;
      }
    }
  }
}

}  // namespace
}  // namespace sitemill
