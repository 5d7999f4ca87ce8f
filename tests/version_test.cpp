// sitemill/version.h: the three numbers, the string and the one number to
// compare agree with each other and with what the binary says.
#include "sitemill/version.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "support/run.h"

namespace sitemill {
namespace {

TEST(Version, TheMacrosAgree) {
  EXPECT_EQ(std::string(SITEMILL_VERSION_STRING),
            std::to_string(SITEMILL_VERSION_MAJOR) + "." +
                std::to_string(SITEMILL_VERSION_MINOR) + "." +
                std::to_string(SITEMILL_VERSION_PATCH));
  EXPECT_EQ(SITEMILL_VERSION_NUMBER, (SITEMILL_VERSION_MAJOR << 16) |
                                         (SITEMILL_VERSION_MINOR << 8) |
                                         SITEMILL_VERSION_PATCH);
  static_assert(SITEMILL_VERSION_NUMBER >= 0x000100, "usable in #if");
}

TEST(Version, TheLibraryAndTheHeadersSayTheSame) {
  EXPECT_EQ(std::string(version()), SITEMILL_VERSION_STRING);
}

TEST(Version, TheBinaryAndTheHeadersSayTheSame) {
  const testing::run_result r = testing::run_sitemill({"-V"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, std::string("sitemill ") + SITEMILL_VERSION_STRING + "\n");
}

}  // namespace
}  // namespace sitemill
