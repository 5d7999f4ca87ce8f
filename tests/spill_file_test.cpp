// The spill file: what is appended is read back byte for byte, in pieces
// that straddle its blocks, as often as asked, past the page cache where the
// file system allows it and through it where not; it goes with its object.
#include "detail/spill_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "support/run.h"

namespace sitemill::detail {
namespace {

using testing::temp_dir;

// Appends pieces of 1 byte to 300 KiB (so blocks of 1 MiB end inside
// them) and reads them back twice.
void round_trip(const std::string& dir, bool bypass_cache) {
  auto made = spill_file::create(dir + "/spill", bypass_cache);
  ASSERT_TRUE(made) << made.err().message;
  spill_file f = std::move(*made);
  if (!bypass_cache) {
    EXPECT_FALSE(f.direct());
  }
  std::mt19937 random(7);
  std::vector<std::string> pieces;
  std::uint64_t total = 0;
  while (total < (std::uint64_t{5} << 20) + 12'345) {
    std::string piece(1 + random() % (300 << 10), '\0');
    for (char& c : piece) c = static_cast<char>(random());
    ASSERT_TRUE(f.append(piece.data(), piece.size()));
    total += piece.size();
    pieces.push_back(std::move(piece));
  }
  EXPECT_EQ(f.size(), total);
  for (int pass = 0; pass < 2; ++pass) {
    ASSERT_TRUE(f.rewind());
    for (const std::string& want : pieces) {
      std::string got(want.size(), '\0');
      auto r = f.read(got.data(), got.size());
      ASSERT_TRUE(r) << r.err().message;
      ASSERT_TRUE(*r);
      ASSERT_TRUE(got == want) << "pass " << pass;
    }
    char byte;
    auto end = f.read(&byte, 1);
    ASSERT_TRUE(end);
    EXPECT_FALSE(*end) << "bytes past the end (the last block's padding?)";
  }
  EXPECT_FALSE(f.append("x", 1)) << "appended after reading began";
}

TEST(SpillFile, ReadsBackWhatWasAppendedPastThePageCache) {
  temp_dir d;
  // Under /tmp: ext4 on the machines the project runs on, which takes
  // O_DIRECT; elsewhere the file says it went through the cache.
  round_trip(d.path(), /*bypass_cache=*/true);
  RecordProperty("direct", spill_file::create(d / "probe")->direct() ? 1 : 0);
}

TEST(SpillFile, ReadsBackThroughThePageCache) {
  temp_dir d;
  round_trip(d.path(), /*bypass_cache=*/false);
}

TEST(SpillFile, ATruncatedFileIsAnErrorNotAnEnd) {
  temp_dir d;
  auto f = spill_file::create(d / "spill");
  ASSERT_TRUE(f);
  ASSERT_TRUE(f->append("0123456789", 10));
  ASSERT_TRUE(f->rewind());
  char buf[16];
  auto r = f->read(buf, 16);
  ASSERT_FALSE(r) << "16 bytes read from a file of 10";
  EXPECT_NE(r.err().message.find(d / "spill"), std::string::npos);
}

TEST(SpillFile, GoesWithItsObjectAndRefusesAnExistingPath) {
  temp_dir d;
  {
    auto f = spill_file::create(d / "spill");
    ASSERT_TRUE(f);
    ASSERT_TRUE(f->append("abc", 3));
    ASSERT_TRUE(f->rewind());
    EXPECT_TRUE(std::filesystem::exists(d / "spill"));
  }
  EXPECT_FALSE(std::filesystem::exists(d / "spill"));
  testing::write_file(d / "taken", "mine");
  auto taken = spill_file::create(d / "taken");
  ASSERT_FALSE(taken);
  EXPECT_EQ(testing::read_raw(d / "taken"), "mine") << "a file not its own";
}

}  // namespace
}  // namespace sitemill::detail
