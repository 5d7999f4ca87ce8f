// counted(): a count and the noun that agrees with it, grouped as
// with_commas() groups every count.
#include "sitemill/numbers.h"

#include <gtest/gtest.h>

namespace sitemill {
namespace {

TEST(Counted, TheNounAgreesAndTheNumberIsGrouped) {
  struct row {
    std::uint64_t n;
    const char* says;
  };
  for (const row& r : {row{0, "0 URLs"}, row{1, "1 URL"}, row{2, "2 URLs"},
                       row{999, "999 URLs"}, row{1000, "1,000 URLs"},
                       row{1234567, "1,234,567 URLs"}})
    EXPECT_EQ(counted(r.n, "URL", "URLs"), r.says);
  EXPECT_EQ(counted(1, "index", "indexes"), "1 index");
  EXPECT_EQ(counted(3, "index", "indexes"), "3 indexes");
}

}  // namespace
}  // namespace sitemill
