// The <loc> checks read a URL 16 bytes at a time where the bytes need no
// attention (value_checks.cpp, scan_url): every character that matters (a
// space, a control, < > " { } | \ ^ `, % # [ ], any byte of a non-ASCII
// character) must be seen wherever it falls, in a block or in the bytes
// after the last whole block. Each character is put at every offset of a
// URL, and the findings must not depend on the offset.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parser_support.h"

namespace sitemill {
namespace {

using testing::one_url;
using testing::parse;

// The XML text of each character to place: printable ASCII (escaped where
// XML needs it), the whitespace XML allows, DEL, and UTF-8 sequences that
// together use every lead and continuation byte valid UTF-8 has.
std::vector<std::string> pieces() {
  std::vector<std::string> out;
  for (int c = 0x20; c <= 0x7F; ++c) {
    if (c == '<') {
      out.emplace_back("&lt;");
    } else if (c == '&') {
      out.emplace_back("&amp;");
    } else {
      out.emplace_back(1, static_cast<char>(c));
    }
  }
  for (const char* s : {"\t", "&#10;", "&#13;", "  ", " \t", "%", "%2", "%4G"})
    out.emplace_back(s);
  for (int lead = 0xC2; lead <= 0xDF; ++lead)
    out.push_back(std::string{static_cast<char>(lead), '\xA0'});
  for (int cont = 0x80; cont <= 0xBF; ++cont)
    out.push_back(std::string{'\xC2', static_cast<char>(cont)});
  out.emplace_back("\xE0\xA0\x80");
  for (int lead = 0xE1; lead <= 0xEF; ++lead)
    out.push_back(std::string{static_cast<char>(lead), '\x80', '\x80'});
  out.emplace_back("\xF0\x90\x80\x80");
  for (int lead = 0xF1; lead <= 0xF4; ++lead)
    out.push_back(std::string{static_cast<char>(lead), '\x80', '\x80', '\x80'});
  out.emplace_back("\xC2\xA0");      // a Unicode space, inside the URL
  out.emplace_back("\xE2\x80\x8B");  // zero width space
  return out;
}

std::vector<std::string> codes(std::string_view loc) {
  std::vector<std::string> out;
  for (const diagnostic& d : parse(one_url(loc)).diagnostics)
    out.push_back(d.code);
  return out;
}

TEST(UrlScanBlocks, SeesEveryCharacterAtEveryOffset) {
  const std::string head = "https://www.example.com/";
  for (const std::string& piece : pieces()) {
    for (const std::string tail : {"bc/x", "zz/x"}) {
      std::vector<std::string> first;
      bool in_tail = false;  // placed once after the last whole block
      for (std::size_t k = 0; k <= 40; ++k) {
        const std::string loc = head + std::string(k, 'a') + piece + tail;
        // The URL as the checks see it: references decoded.
        std::size_t decoded = loc.size();
        if (piece.starts_with("&") && piece.ends_with(";"))
          decoded -= piece.size() - 1;
        if (head.size() + k >= decoded - decoded % 16) in_tail = true;
        const std::vector<std::string> got = codes(loc);
        if (k == 0) {
          first = got;
        } else {
          EXPECT_EQ(got, first)
              << "piece \"" << piece << "\" after " << k << " letters";
        }
      }
      EXPECT_TRUE(in_tail) << piece;
    }
  }
}

// The comparison above would pass if nothing were ever found: these
// characters are findings wherever they are.
TEST(UrlScanBlocks, FindsWhatMattersInsideABlock) {
  const std::string head = "https://www.example.com/aaaaaaaaaaaaaaaaaaaaaaa";
  for (const char* piece : {"{", "&lt;", "\"", "%zz", "\xC3\xA9", " ", "`"}) {
    const std::string loc = head + piece + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    EXPECT_FALSE(codes(loc).empty()) << piece;
  }
  EXPECT_TRUE(codes(head + "-._~=:@/?x=1&amp;b").empty());
}

}  // namespace
}  // namespace sitemill
