// Writer -> parser round trips: every entry that entry_builder makes and a
// writer accepts is read back by the one sitemap_parser identical and in
// order, with no diagnostic of severity error, whatever the file split, the
// format (urlset, text, sitemapindex) or the compression (STYLE.md "Round
// trips"; docs/protocol.md checklist 3-9, 11-12).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "detail/text.h"
#include "parser_support.h"
#include "sitemill/entry/entry.h"
#include "sitemill/limits.h"
#include "sitemill/parse/sitemap_parser.h"
#include "sitemill/write/sink.h"
#include "sitemill/write/writer.h"

namespace sitemill {
namespace {

using testing::parse_run;

// One record as an input list would hold it.
struct source_record {
  std::string loc, lastmod, changefreq, priority;
};

// An entry's fields as the writer must have written them; nullopt: absent.
struct written_entry {
  std::string loc;
  std::optional<std::string> lastmod, changefreq, priority;
  bool operator==(const written_entry&) const = default;
};

void PrintTo(const written_entry& e, std::ostream* os) {
  *os << "{" << e.loc << " | " << e.lastmod.value_or("-") << " | "
      << e.changefreq.value_or("-") << " | " << e.priority.value_or("-") << "}";
}

// URLs with everything that needs escaping, encoding or normalising: the
// five XML specials, non-ASCII in host, path and query, every '%' form,
// dot segments, default ports, IP hosts.
const std::vector<std::string_view> hosts = {
    "https://www.example.com",
    "http://EXAMPLE.com:8080",
    "https://b\xC3\xBC"
    "cher.example",
    "https://[2001:db8::1]",
    "https://192.0.2.1",
    "https://example.com:443",
    "HTTP://Example.COM:80",
    "https://xn--bcher-kva.example",
};
const std::vector<std::string_view> paths = {
    "/",
    "/a&b",
    "/it's",
    "/say\"hi\"",
    "/<tag>",
    "/a>b",
    "/caf\xC3\xA9",
    "/\xE6\x97\xA5\xE6\x9C\xAC/\xE3\x83\x9A\xE3\x83\xBC\xE3\x82\xB8",
    "/emoji/\xF0\x9F\x98\x80",
    "/%41%42%7e",
    "/%e2%82%ac",
    "/100%",
    "/%zz%",
    "/a b",
    "/a/./b/../c",
    "/{x}|[y]^`\\",
    "/&amp;&lt;",
    "/%26%3C%3E%22%27",
};
const std::vector<std::string_view> queries = {
    "",           "?a=1&b=2",   "?q='x'&r=\"y\"",
    "?q=<b>&c=>", "?x=%26amp;", "?u=\xC3\xA9&v",
    "?",          "?a=%2",
};
const std::vector<std::string_view> fragments = {"", "", "", "#frag", "#"};

// Every W3C form, zones east, west, Z and -00:00, 1 to 9 fraction digits,
// the ends of the year range; plus texts that are dropped.
const std::vector<std::string_view> lastmods = {
    "",
    "2024",
    "2024-02",
    "2024-02-29",
    "2024-01-15T10:30Z",
    "2024-01-15T10:30+05:30",
    "2024-01-15T23:59:59Z",
    "1999-12-31T00:00:00-08:00",
    "2024-01-15T10:30:45-00:00",
    "2024-01-15T10:30:45+00:00",
    "2024-01-15T10:30:45.5Z",
    "2024-01-15T10:30:45.123456789+14:00",
    "0001-01-01",
    "9999-12-31T23:59:59.999999999-14:00",
    " 2024-03-01\t",
    "2024-13-01",
    "2024-01-15T10:30:00",
};
const std::vector<std::string_view> changefreqs = {
    "",       "always", "hourly", "daily",  "weekly", "monthly",
    "yearly", "never",  "WEEKLY", " Daily", "bogus",
};
const std::vector<std::string_view> priorities = {
    "",     "0.0",   "0",   "0.1",         "0.5",
    ".25",  "1",     "1.0", "0.123456789", "0.0000000001",
    "0.80", "bogus", "1.5",
};

// A deterministic mix of the pieces above, plus URLs whose normalised
// length is 2,040 to 2,050 (the last accepted length is 2,047).
std::vector<source_record> tricky_records() {
  std::vector<source_record> out;
  std::uint64_t state = 42;
  auto pick = [&state](const std::vector<std::string_view>& from) {
    state = state * 6364136223846793005u + 1442695040888963407u;
    return std::string(from[(state >> 33) % from.size()]);
  };
  for (int i = 0; i < 3000; ++i) {
    source_record r;
    r.loc = pick(hosts) + pick(paths) + pick(paths).substr(1) + pick(queries) +
            pick(fragments);
    r.lastmod = pick(lastmods);
    r.changefreq = pick(changefreqs);
    r.priority = pick(priorities);
    out.push_back(std::move(r));
  }
  const std::string head = "https://example.com/";
  for (std::size_t length = 2040; length <= 2050; ++length) {
    // Plain bytes, XML specials (5 or 6 bytes each once escaped, one
    // character in the URL) and 'é' (six characters once encoded).
    std::string plain = head + std::string(length - head.size(), 'a');
    std::string specials = head;
    while (specials.size() < length)
      specials += specials.size() % 2 ? "&" : "'";
    std::string encoded = head;
    for (int k = 0; k < 300; ++k) encoded += "\xC3\xA9";
    encoded += std::string(length - head.size() - 300 * 6, 'b');
    for (std::string* loc : {&plain, &specials, &encoded})
      out.push_back({*loc, "2024-01-15T10:30:45.123+01:00", "daily", "0.5"});
  }
  return out;
}

// Files a writer made, kept after it drops their sinks.
struct memory_files {
  std::deque<std::string> data;
  sink_factory factory(std::optional<compression> gzip = std::nullopt) {
    return [this, gzip](std::size_t) -> result<std::unique_ptr<sink>> {
      data.emplace_back();
      std::unique_ptr<sink> s = std::make_unique<memory_sink>(&data.back());
      if (gzip) s = std::make_unique<gzip_sink>(std::move(s), *gzip);
      return s;
    };
  }
};

std::string lastmod_text(const w3c_datetime& value) {
  char buf[max_lastmod_length];
  return std::string(buf, format_lastmod(value, buf));
}

// Builds each record into an entry and adds the accepted ones to `writer`;
// returns what was added, as it must be read back.
std::vector<written_entry> write_all(const std::vector<source_record>& records,
                                     sitemap_writer& writer,
                                     document_type type) {
  std::vector<written_entry> added;
  entry_builder builder{url_normalizer{}};
  url_entry e;
  std::vector<field_warning> warnings;
  std::size_t rejected = 0;
  for (const auto& r : records) {
    if (builder.build(r.loc, r.lastmod, r.changefreq, r.priority, e, warnings)
            .problem != url_problem::ok) {
      ++rejected;
      continue;
    }
    EXPECT_EQ(writer.add(e), add_status::added) << e.loc;
    written_entry w{std::string(e.loc), {}, {}, {}};
    if (type != document_type::text) {
      if (e.lastmod) w.lastmod = lastmod_text(*e.lastmod);
      if (e.freq != changefreq::unset) w.changefreq = to_string(e.freq);
      if (e.prio) w.priority = std::string(e.prio->text());
    }
    added.push_back(std::move(w));
  }
  EXPECT_TRUE(writer.finish());
  // The mix must exercise both sides of the loc rules to mean anything.
  EXPECT_GT(rejected, 0u);
  EXPECT_GT(added.size(), records.size() / 2);
  return added;
}

written_entry as_written(const testing::entry_copy& e) {
  written_entry w{e.loc.text, {}, {}, {}};
  if (e.lastmod.present) w.lastmod = e.lastmod.text;
  if (e.changefreq.present) w.changefreq = e.changefreq.text;
  if (e.priority.present) w.priority = e.priority.text;
  return w;
}

// Parses every file and checks each on its own; returns all entries read,
// in file order.
std::vector<written_entry> read_all(const std::deque<std::string>& files,
                                    const std::vector<part_info>& parts,
                                    document_kind kind) {
  std::vector<written_entry> read;
  EXPECT_EQ(files.size(), parts.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    SCOPED_TRACE(::testing::Message() << "file " << i);
    const parse_run run = testing::parse(files[i]);
    for (const auto& d : run.diagnostics)
      EXPECT_NE(d.level, severity::error) << run.describe();
    EXPECT_EQ(run.summary.kind, kind);
    EXPECT_TRUE(run.summary.complete);
    if (kind != document_kind::text) {
      EXPECT_TRUE(run.summary.schema_valid);
    }
    if (i < parts.size()) {
      EXPECT_EQ(run.entries.size(), parts[i].urls);
    }
    for (const auto& e : run.entries) read.push_back(as_written(e));
  }
  return read;
}

void expect_same(const std::vector<written_entry>& read,
                 const std::vector<written_entry>& written) {
  ASSERT_EQ(read.size(), written.size());
  for (std::size_t i = 0; i < read.size(); ++i)
    ASSERT_EQ(read[i], written[i]) << "entry " << i;
}

// ---- urlset and text
// -----------------------------------------------------------

TEST(RoundTrip, UrlsetEntriesReadBackIdentical) {
  const auto records = tricky_records();
  memory_files files;
  sitemap_writer w({}, files.factory());
  const auto written = write_all(records, w, document_type::urlset);
  ASSERT_EQ(files.data.size(), 1u);
  expect_same(read_all(files.data, w.parts(), document_kind::urlset), written);
  // The mix reaches what it is meant to: the longest loc allowed, both XML
  // specials a normalised loc can keep, and percent-encoding.
  std::size_t longest = 0, amp = 0, apos = 0, pct = 0;
  for (const auto& e : written) {
    longest = std::max(longest, e.loc.size());
    amp += e.loc.find('&') != std::string::npos;
    apos += e.loc.find('\'') != std::string::npos;
    pct += e.loc.find('%') != std::string::npos;
  }
  EXPECT_EQ(longest, max_loc_length);
  EXPECT_GT(amp, 100u);
  EXPECT_GT(apos, 100u);
  EXPECT_GT(pct, 100u);
}

TEST(RoundTrip, EntriesSplitOverManyFilesReadBackInOrder) {
  const auto records = tricky_records();
  struct {
    std::size_t max_urls, max_bytes;
  } const limits[] = {{257, max_bytes_per_sitemap}, {50'000, 64 * 1024}};
  for (const auto& l : limits) {
    SCOPED_TRACE(::testing::Message()
                 << l.max_urls << " URLs, " << l.max_bytes << " bytes");
    memory_files files;
    writer_options o;
    o.max_urls = l.max_urls;
    o.max_bytes = l.max_bytes;
    sitemap_writer w(o, files.factory());
    const auto written = write_all(records, w, document_type::urlset);
    ASSERT_GT(files.data.size(), 5u);
    expect_same(read_all(files.data, w.parts(), document_kind::urlset),
                written);
  }
}

TEST(RoundTrip, AStylesheetChangesNothing) {
  const auto records = tricky_records();
  memory_files files;
  writer_options o;
  o.xsl_href = "https://example.com/style.xsl?a=1&b='2'&c=\"<3>\"";
  sitemap_writer w(o, files.factory());
  const auto written = write_all(records, w, document_type::urlset);
  expect_same(read_all(files.data, w.parts(), document_kind::urlset), written);
}

TEST(RoundTrip, GzippedUrlsetsReadBackIdentical) {
  // Checked by parsing the compressed bytes, never against golden bytes.
  const auto records = tricky_records();
  for (const compression level :
       {compression::fast, compression::normal, compression::best}) {
    SCOPED_TRACE(static_cast<int>(level));
    memory_files files;
    writer_options o;
    o.max_urls = 1000;
    sitemap_writer w(o, files.factory(level));
    const auto written = write_all(records, w, document_type::urlset);
    for (const auto& f : files.data)
      ASSERT_TRUE(f.size() > 2 && f[0] == '\x1F' && f[1] == '\x8B');
    expect_same(read_all(files.data, w.parts(), document_kind::urlset),
                written);
  }
}

TEST(RoundTrip, TextSitemapLinesReadBackIdentical) {
  const auto records = tricky_records();
  memory_files files;
  writer_options o;
  o.type = document_type::text;
  o.max_urls = 500;
  sitemap_writer w(o, files.factory());
  const auto written = write_all(records, w, document_type::text);
  ASSERT_GT(files.data.size(), 1u);
  expect_same(read_all(files.data, w.parts(), document_kind::text), written);
}

// ---- sitemapindex
// ------------------------------------------------------------

TEST(RoundTrip, IndexEntriesReadBackIdentical) {
  const auto records = tricky_records();
  entry_builder builder{url_normalizer{}};
  url_entry e;
  std::vector<field_warning> warnings;
  // index_entry views must outlive add(); keep every loc.
  std::deque<std::string> locs;
  std::vector<written_entry> written;
  memory_files files;
  index_writer w(files.factory(), 300);
  for (const auto& r : records) {
    if (builder.build(r.loc, r.lastmod, {}, {}, e, warnings).problem !=
        url_problem::ok)
      continue;
    locs.emplace_back(e.loc);
    ASSERT_EQ(w.add({locs.back(), e.lastmod}), add_status::added);
    written.push_back(
        {locs.back(),
         e.lastmod ? std::optional(lastmod_text(*e.lastmod)) : std::nullopt,
         {},
         {}});
  }
  ASSERT_TRUE(w.finish());
  ASSERT_GT(files.data.size(), 5u);
  expect_same(read_all(files.data, w.parts(), document_kind::sitemapindex),
              written);
}

// ---- lastmod values, not only their text
// -------------------------------------

TEST(RoundTrip, LastmodTextReadBackIsTheSameInstantAndZone) {
  // The writer widens YYYY and YYYY-MM to a date and adds ":00" to the
  // minutes form (checklist 7); the instant and the zone as written stay.
  std::size_t tested = 0;
  for (const std::string_view text : lastmods) {
    w3c_datetime in;
    if (parse_w3c_datetime(detail::trim(text), in) != datetime_problem::ok)
      continue;
    ++tested;
    SCOPED_TRACE(text);
    url_entry e;
    e.loc = "https://example.com/";
    e.lastmod = in;
    memory_files files;
    sitemap_writer w({}, files.factory());
    ASSERT_EQ(w.add(e), add_status::added);
    ASSERT_TRUE(w.finish());
    const parse_run run = testing::parse(files.data.at(0));
    ASSERT_EQ(run.entries.size(), 1u);
    w3c_datetime out;
    ASSERT_EQ(parse_w3c_datetime(run.entries[0].lastmod.text, out),
              datetime_problem::ok);
    EXPECT_EQ(out.unix_seconds(), in.unix_seconds());
    EXPECT_EQ(out.nanos, in.nanos);
    EXPECT_EQ(out.offset_minutes, in.offset_minutes);
    EXPECT_EQ(out.zulu, in.zulu);
    EXPECT_EQ(out.negative_zero_offset, in.negative_zero_offset);
  }
  EXPECT_EQ(tested, lastmods.size() - 3);  // "", and the two invalid ones
}

}  // namespace
}  // namespace sitemill
