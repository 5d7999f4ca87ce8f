// The entry spool's records (entry_spool.h): every field of every entry comes
// back as it went in, whatever it shares with the first entry, however its
// numbers move from one entry to the next, across the file's blocks, read
// twice; a plain entry takes a fraction of its fixed-head size; and a file
// changed on disk is an error, not a crash or a wrong entry.
#include "generate/entry_spool.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "support/run.h"

namespace sitemill::detail {
namespace {

using testing::temp_dir;

// An entry with the storage its views point into.
struct owned_entry {
  std::string loc, xml;
  std::uint32_t links_at = 0;
  std::optional<w3c_datetime> lastmod, news;
  extension_mask uses = 0;
  std::uint32_t input = 0, set = 0, section = 0;
  std::uint64_t line = 0, fingerprint = 0;
  std::uint64_t deferred = spooled_entry::not_deferred;
  std::vector<std::pair<std::string, std::string>> links;

  spooled_entry view(std::vector<hreflang_clusters::link>& storage) const {
    spooled_entry e;
    e.loc = loc;
    e.xml = xml;
    e.links_at = links_at;
    e.lastmod = lastmod;
    e.news_published = news;
    e.uses = uses;
    e.input = input;
    e.line = line;
    e.set = set;
    e.section = section;
    e.fingerprint = fingerprint;
    e.deferred = deferred;
    storage.clear();
    for (const auto& [lang, href] : links) storage.push_back({lang, href});
    e.links = storage;
    return e;
  }
};

w3c_datetime date(std::mt19937_64& random) {
  w3c_datetime d;
  d.year = static_cast<std::int16_t>(1990 + random() % 40);
  d.month = static_cast<std::uint8_t>(1 + random() % 12);
  d.day = static_cast<std::uint8_t>(1 + random() % 28);
  d.hour = static_cast<std::uint8_t>(random() % 24);
  d.nanos = static_cast<std::uint32_t>(random() % 1'000'000'000);
  d.offset_minutes =
      static_cast<std::int16_t>(static_cast<int>(random() % 1681) - 840);
  d.form = datetime_form::seconds;
  return d;
}

// Entries that vary every field, and the extremes of each.
std::vector<owned_entry> varied_entries(std::size_t n) {
  std::mt19937_64 random(7);
  std::vector<owned_entry> out;
  const std::string host = "<url><loc>https://www.example.com/";
  for (std::size_t i = 0; i < n; ++i) {
    owned_entry e;
    const auto kind = random() % 8;
    std::string path = "p/" + std::to_string(random() % 100000);
    if (kind == 0) path.assign(random() % 400, 'x');  // shares more than 255
    e.xml = (kind == 1 ? "<url><loc>http://other.example/" : host) + path +
            "</loc></url>";
    if (kind == 2) e.xml.clear();
    if (i % 997 == 3) e.xml.assign(2'500'000, 'y');  // larger than a block
    e.links_at = static_cast<std::uint32_t>(
        e.xml.empty() ? 0 : random() % (e.xml.size() + 1));
    if (random() % 3 == 0) e.loc = "https://www.example.com/" + path;
    if (random() % 2) {
      e.lastmod = date(random);
      // Bytes w3c_datetime's padding would hold: kept as they are.
      e.lastmod->zulu = random() % 2;
    }
    if (random() % 5 == 0) e.news = date(random);
    e.uses = static_cast<extension_mask>(random());
    e.input = random() % 10 == 0 ? spooled_entry::no_input
                                 : static_cast<std::uint32_t>(random() % 4);
    e.set = static_cast<std::uint32_t>(random() % 3 == 0 ? random() : 0);
    e.section = static_cast<std::uint32_t>(random() % 300);
    // Lines mostly rise by one, sometimes jump back or far ahead.
    const std::uint64_t before = out.empty() ? 0 : out.back().line;
    e.line = random() % 7 == 0 ? random() : before + 1;
    e.fingerprint = random();
    if (random() % 2) e.deferred = random() % 5 == 0 ? random() % 1000 : i;
    for (auto k = random() % 4; kind == 4 && k > 0; --k)
      e.links.emplace_back(
          "de-" + std::to_string(k),
          "https://www.example.de/" + std::to_string(random()));
    out.push_back(std::move(e));
  }
  return out;
}

void expect_same(const spooled_entry& got, const owned_entry& want,
                 std::size_t i) {
  SCOPED_TRACE(i);
  EXPECT_EQ(got.loc, want.loc);
  ASSERT_EQ(got.xml, want.xml);
  EXPECT_EQ(got.links_at, want.links_at);
  ASSERT_EQ(got.lastmod.has_value(), want.lastmod.has_value());
  if (want.lastmod) {
    EXPECT_EQ(0,
              std::memcmp(&*got.lastmod, &*want.lastmod, sizeof(w3c_datetime)));
  }
  ASSERT_EQ(got.news_published.has_value(), want.news.has_value());
  EXPECT_EQ(got.uses, want.uses);
  EXPECT_EQ(got.input, want.input);
  EXPECT_EQ(got.line, want.line);
  EXPECT_EQ(got.set, want.set);
  EXPECT_EQ(got.section, want.section);
  EXPECT_EQ(got.fingerprint, want.fingerprint);
  EXPECT_EQ(got.deferred, want.deferred);
  ASSERT_EQ(got.links.size(), want.links.size());
  for (std::size_t k = 0; k < want.links.size(); ++k) {
    EXPECT_EQ(got.links[k].hreflang, want.links[k].first);
    EXPECT_EQ(got.links[k].href, want.links[k].second);
  }
}

TEST(EntrySpool, EveryFieldComesBackWhateverItSharesAndHowItsNumbersMove) {
  temp_dir d;
  auto spool = entry_spool::create(d / "spool");
  ASSERT_TRUE(spool) << spool.err().message;
  const auto entries = varied_entries(3000);
  std::vector<hreflang_clusters::link> storage;
  for (const owned_entry& e : entries) ASSERT_TRUE(spool->add(e.view(storage)));
  EXPECT_EQ(spool->entries(), entries.size());
  for (int pass = 0; pass < 2; ++pass) {
    SCOPED_TRACE(pass);
    ASSERT_TRUE(spool->rewind());
    std::size_t i = 0;
    while (auto got = spool->next()) {
      ASSERT_LT(i, entries.size());
      expect_same(*got, entries[i], i);
      ++i;
    }
    EXPECT_EQ(spool->error(), "");
    EXPECT_EQ(i, entries.size());
  }
}

// The bench's plain entry, one after another: a few bytes of numbers and
// the path where the fixed head alone took 48 bytes.
TEST(EntrySpool, APlainEntryLeavesOutWhatItSharesAndCodesItsNumbersSmall) {
  temp_dir d;
  auto spool = entry_spool::create(d / "spool");
  ASSERT_TRUE(spool);
  constexpr std::size_t n = 10'000;
  std::uint64_t xml_bytes = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string xml = "<url><loc>https://www.example.com/products/item-" +
                            std::to_string(i) + "</loc></url>";
    xml_bytes += xml.size();
    spooled_entry e;
    e.xml = xml;
    e.links_at = static_cast<std::uint32_t>(xml.size() - 6);
    e.input = 0;
    e.line = i + 1;
    e.fingerprint = i * 0x9e3779b97f4a7c15u;
    e.deferred = 1'000'000 + i;
    ASSERT_TRUE(spool->add(e));
  }
  // Per entry: the length (4), flags (1), fingerprint (8), nine varints of a
  // byte, uses and shared (2), and the xml past `.../products/item-`.
  const std::uint64_t shared =
      std::string_view("<url><loc>https://www.example.com/products/item-")
          .size();
  EXPECT_LE(spool->bytes(), n * (4 + 1 + 8 + 9 + 2) + xml_bytes - n * shared);
  ASSERT_TRUE(spool->rewind());
  std::size_t i = 0;
  while (auto got = spool->next()) {
    EXPECT_EQ(got->deferred, 1'000'000 + i);
    EXPECT_EQ(got->line, i + 1);
    ++i;
  }
  EXPECT_EQ(i, n);
  EXPECT_EQ(spool->error(), "");
}

// A spool file changed under the run: each read ends in an error naming the
// file, never in a wrong entry or a huge allocation.
TEST(EntrySpool, AChangedFileIsAnErrorNotAWrongEntry) {
  const auto entries = varied_entries(400);
  for (const char fill : {'\x00', '\xff', '\x7f'}) {
    for (const off_t at : {off_t{0}, off_t{4}, off_t{13}}) {
      SCOPED_TRACE(std::to_string(static_cast<unsigned char>(fill)) + " at " +
                   std::to_string(at));
      temp_dir d;
      const std::string path = d / "spool";
      auto spool = entry_spool::create(path);
      ASSERT_TRUE(spool);
      std::vector<hreflang_clusters::link> storage;
      // Small entries only, so that the whole file is read back from disk
      // after the change.
      std::size_t added = 0;
      for (const owned_entry& e : entries) {
        if (e.xml.size() > 4096) continue;
        ASSERT_TRUE(spool->add(e.view(storage)));
        ++added;
      }
      // Written out in full by the first rewind, changed, then read again.
      ASSERT_TRUE(spool->rewind());
      const int fd = ::open(path.c_str(), O_WRONLY);
      ASSERT_GE(fd, 0);
      const std::string garbage(64, fill);
      ASSERT_EQ(::pwrite(fd, garbage.data(), garbage.size(), at),
                static_cast<ssize_t>(garbage.size()));
      ::close(fd);
      ASSERT_TRUE(spool->rewind());
      std::size_t read = 0;
      while (spool->next()) ++read;
      // The first record's length (0), flags and fingerprint (4), varints
      // (13): each change breaks a length or a varint. (A change inside an
      // entry's text would be read as such: the spool has no checksum.)
      EXPECT_NE(spool->error(), "") << read << " of " << added << " read";
      EXPECT_LT(read, added);
    }
  }
}

}  // namespace
}  // namespace sitemill::detail
