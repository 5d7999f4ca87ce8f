// generate on a shop's export whose captions hold the delimiter unquoted:
// the shifted rows are rejected at their lines, naming the text past the
// header's cells, and never published with a caption as a lastmod; a
// trailing delimiter is a warning; every row is written or reported.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/campaign.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::string base = "https://shop.example.com/";

TEST(GenerateHostileLists, ShiftedRowsAreRejectedAndNoneIsLost) {
  temp_dir t;
  write_file(t / "products.csv",
             "loc,image:caption,lastmod,image\n"
             "/p/chair,Chair,2026-10-01,/img/chair.jpg\n"
             "/p/oak-table,Oak table, oiled,2026-10-02,/img/oak.jpg\n"
             "/p/lamp,Lamp,2026-10-03,/img/lamp.jpg,\n"
             "/p/shelf,\"Shelf, pine\",2026-10-04,/img/shelf.jpg\n");
  set_expectations e;
  e.base_url = base;
  auto g = generate_and_check(
      t / "out", {"--no-gzip", "--base-url", base, t / "products.csv"}, {}, e);
  test::campaign_tally(test::campaign_kind::hostile_input, 1);
  EXPECT_THAT(all_locs(g.set),
              ElementsAre(base + "p/chair", base + "p/lamp", base + "p/shelf"));
  ASSERT_EQ(g.report["rejected"].size(), 1u) << g.report.dump();
  EXPECT_EQ(g.report["rejected"][0]["line"], 3);
  EXPECT_EQ(g.report["rejected"][0]["reason"],
            "row has 5 cells where the header has 4, and the 1 past it holds "
            "text (\"/img/oak.jpg\"): an unquoted ',' inside a cell shifts "
            "every cell after it, so the row is not read (put that cell in "
            "double quotes)");
  ASSERT_EQ(g.report["warnings"].size(), 1u) << g.report["warnings"].dump();
  EXPECT_EQ(g.report["warnings"][0]["line"], 4);
  EXPECT_EQ(g.report["warnings"][0]["reason"],
            "row has 5 cells where the header has 4; the 1 past it is empty "
            "and ignored");
  // Every row of the file is written or reported.
  EXPECT_EQ(g.report["written"].get<int>() + g.report["rejected"].size(), 4u);
}

}  // namespace
}  // namespace sitemill::testing
