// The digests against published vectors: FIPS 180-2 for SHA-256, RFC 4231
// for HMAC-SHA-256, RFC 7914 section 11 for PBKDF2-HMAC-SHA-256 (its first
// 32 bytes), RFC 4648 section 10 for Base64.
#include "detail/digest.h"

#include <gtest/gtest.h>

#include <string>

namespace sitemill::detail {
namespace {

TEST(Digest, Sha256MatchesFips180Vectors) {
  EXPECT_EQ(hex_of(as_view(sha256("abc"))),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hex_of(as_view(sha256(""))),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Digest, HmacSha256MatchesRfc4231) {
  // Test case 2: key "Jefe".
  EXPECT_EQ(hex_of(as_view(hmac_sha256("Jefe", "what do ya want for nothing?"))),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  // Test case 6: a key longer than the block size is hashed first.
  std::string key(131, '\xaa');
  EXPECT_EQ(
      hex_of(as_view(hmac_sha256(
          key, "Test Using Larger Than Block-Size Key - Hash Key First"))),
      "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

TEST(Digest, Pbkdf2Sha256MatchesRfc7914) {
  EXPECT_EQ(hex_of(as_view(pbkdf2_sha256("passwd", "salt", 1))),
            "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc");
  EXPECT_EQ(hex_of(as_view(pbkdf2_sha256("Password", "NaCl", 80'000))),
            "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56");
}

TEST(Digest, Base64MatchesRfc4648) {
  EXPECT_EQ(base64(""), "");
  EXPECT_EQ(base64("f"), "Zg==");
  EXPECT_EQ(base64("fo"), "Zm8=");
  EXPECT_EQ(base64("foo"), "Zm9v");
  EXPECT_EQ(base64("foob"), "Zm9vYg==");
  EXPECT_EQ(base64("fooba"), "Zm9vYmE=");
  EXPECT_EQ(base64("foobar"), "Zm9vYmFy");
}

TEST(Digest, Base64UrlHasNoPaddingAndTheUrlAlphabet) {
  EXPECT_EQ(base64url("f"), "Zg");
  EXPECT_EQ(base64url("\xfb\xff"), "-_8");
  EXPECT_EQ(base64("\xfb\xff"), "+/8=");
}

}  // namespace
}  // namespace sitemill::detail
