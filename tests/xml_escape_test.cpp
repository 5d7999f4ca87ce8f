// XML escaping (PROTOCOL.md 1.2): the five characters, and nothing else.
#include "sitemill/xml_escape.h"

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
  EXPECT_EQ(escaped("http://www.example.com/view?widget=3&count>2"),
            "http://www.example.com/view?widget=3&amp;count&gt;2");  // sitemaps.org
                                                                     // FAQ
  EXPECT_EQ(escaped("<'\">&"), "&lt;&apos;&quot;&gt;&amp;");
  EXPECT_EQ(escaped(""), "");
  EXPECT_EQ(escaped("caf\xC3\xA9 %C3%A9"), "caf\xC3\xA9 %C3%A9");
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

}  // namespace
}  // namespace sitemill
