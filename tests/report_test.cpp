// Reports as renderers: the issue spool, the generate report's JSON (one
// writer, one reader, docs/report-schema.md) and the check report's JSON.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sitemill/report/check_json.h"
#include "sitemill/report/generate_json.h"
#include "sitemill/report/issue_spool.h"
#include "support/run.h"

namespace sitemill {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using json = nlohmann::json;

std::vector<record_issue> replay(const issue_spool& spool, issue_kind kind) {
  std::vector<record_issue> out;
  EXPECT_TRUE(
      spool.for_each(kind, [&](const record_issue& i) { out.push_back(i); }));
  return out;
}

// A sink that takes `room` bytes, then fails.
class full_sink final : public sink {
 public:
  explicit full_sink(std::size_t room) : room_(room) {}
  status write(const char*, std::size_t size) override {
    if (size > room_) return error{"disk full"};
    room_ -= size;
    return {};
  }
  status close() override { return {}; }

 private:
  std::size_t room_;
};

// A report with something in every field, strings that need escaping and
// bytes that are not UTF-8 among them.
generate_report full_report() {
  generate_report r;
  r.outcome = generate_outcome::published;
  r.entry = "sitemap.xml";
  r.entry_url = "https://www.example.com/sitemap.xml";
  r.files = {
      {"sitemap-1-0123456789ab.xml.gz", document_type::urlset, 50'000,
       10'234'567, 0},
      {"sitemap-2-ba9876543210.xml.gz", document_type::urlset, 3, 400, 0},
      {"sitemap.xml", document_type::sitemapindex, 2, 241, 0}};
  r.records = 50'010;
  r.written = 50'003;
  r.duplicates = 4;
  r.filtered = 1;
  r.rejected = 2;
  r.warnings = 1;
  r.skipped = 1;
  r.lastmods.dropped = 1;
  r.lastmods.zone_assumed = 7;
  r.lastmods.dst_adjusted = 2;
  r.lastmods.first_dropped = {{"urls.txt", 9, "2024-02-30"}};
  r.changes = state_changes{
      {"https://www.example.com/new", "https://www.example.com/ü"},
      {"https://www.example.com/\"quoted\""},
      {}};
  return r;
}

void add_issues(issue_spool& spool) {
  spool.add(issue_kind::rejected,
            {"urls.txt", 17, "URL is not http or https: ftp://x/"});
  spool.add(issue_kind::warning,
            {"urls.txt", 9, "lastmod \"2024-02-30\" dropped"});
  spool.add(issue_kind::rejected, {"<stdin>", 0, "tab\there, newline\nthere"});
  spool.add(issue_kind::skipped,
            {"public/draft.html", 0, "meta robots noindex"});
}

// --- issue_spool

TEST(IssueSpool, ReplaysEachKindInTheOrderAdded) {
  issue_spool spool;
  const record_issue binary{std::string("a\0b\xff", 4), 3,
                            std::string(100'000, 'r')};
  spool.add(issue_kind::rejected, {"one", 1, "first"});
  spool.add(issue_kind::warning, {"w", 2, ""});
  spool.add(issue_kind::rejected, binary);
  spool.add(issue_kind::rejected, {"", 0, "third"});
  EXPECT_EQ(spool.count(issue_kind::rejected), 3u);
  EXPECT_EQ(spool.count(issue_kind::warning), 1u);
  EXPECT_EQ(spool.count(issue_kind::skipped), 0u);
  EXPECT_THAT(replay(spool, issue_kind::rejected),
              ElementsAre(record_issue{"one", 1, "first"}, binary,
                          record_issue{"", 0, "third"}));
  EXPECT_THAT(replay(spool, issue_kind::warning),
              ElementsAre(record_issue{"w", 2, ""}));
  EXPECT_TRUE(replay(spool, issue_kind::skipped).empty());
  EXPECT_TRUE(spool.state());
}

TEST(IssueSpool, KeepsAddingAfterAReplay) {
  issue_spool spool;
  spool.add(issue_kind::skipped, {"a", 1, "x"});
  EXPECT_EQ(replay(spool, issue_kind::skipped).size(), 1u);
  spool.add(issue_kind::skipped, {"b", 2, "y"});
  EXPECT_THAT(
      replay(spool, issue_kind::skipped),
      ElementsAre(record_issue{"a", 1, "x"}, record_issue{"b", 2, "y"}));
}

TEST(IssueSpool, IsTheObserverOfARun) {
  testing::temp_dir t;
  testing::write_file(t / "urls.txt", "/a\nftp://x.example.com/\n/b#f\n");
  generate_options o;
  o.sources = {list_source(t / "urls.txt")};
  o.base_url = "https://www.example.com/";
  o.out_dir = t / "out";
  issue_spool spool;
  const generate_report r = generate(o, spool);
  ASSERT_EQ(r.outcome, generate_outcome::published) << r.message;
  EXPECT_EQ(spool.count(issue_kind::rejected), r.rejected);
  EXPECT_EQ(spool.count(issue_kind::warning), r.warnings);
  const auto rejected = replay(spool, issue_kind::rejected);
  ASSERT_EQ(rejected.size(), 1u);
  EXPECT_EQ(rejected[0].line, 2u);
  EXPECT_EQ(rejected[0].input, t / "urls.txt");
}

// Nowhere to keep the issues: they are still counted, the report is still
// whole JSON, and the writer says why its lists are short.
TEST(IssueSpool, SaysWhenItCannotKeepTheIssues) {
  issue_spool spool("/nonexistent/sitemill-spool");
  spool.add(issue_kind::rejected, {"urls.txt", 1, "bad"});
  EXPECT_EQ(spool.count(issue_kind::rejected), 1u);
  ASSERT_FALSE(spool.state());
  EXPECT_THAT(spool.state().message(),
              HasSubstr("/nonexistent/sitemill-spool"));
  EXPECT_TRUE(replay(spool, issue_kind::rejected).empty());

  std::string text;
  memory_sink out(&text);
  generate_report r;
  r.rejected = 1;
  const status written = write_generate_json(out, r, spool);
  EXPECT_FALSE(written);
  EXPECT_THAT(written.message(), HasSubstr("/nonexistent/sitemill-spool"));
  EXPECT_EQ(json::parse(text)["rejected"], json::array());
}

// --- the generate report

// The shape `sitemill generate --json` has always printed: one line, keys in
// this order, no spaces (README, docs/report-schema.md).
TEST(GenerateJson, WritesTheDocumentedShapeByteForByte) {
  issue_spool spool;
  add_issues(spool);
  std::string text;
  memory_sink out(&text);
  ASSERT_TRUE(write_generate_json(out, full_report(), spool));
  EXPECT_EQ(
      text,
      R"({"entry":"sitemap.xml","entry_url":"https://www.example.com/sitemap.xml","files":[)"
      R"({"path":"sitemap-1-0123456789ab.xml.gz","type":"urlset","urls":50000,"bytes":10234567},)"
      R"({"path":"sitemap-2-ba9876543210.xml.gz","type":"urlset","urls":3,"bytes":400},)"
      R"({"path":"sitemap.xml","type":"sitemapindex","urls":2,"bytes":241}],)"
      R"("records":50010,"written":50003,"duplicates":4,"filtered":1,"spilled":0,"spill_bytes":0,)"
      R"("rejected":[{"input":"urls.txt","line":17,"reason":"URL is not http or https: ftp://x/"},)"
      R"({"input":"<stdin>","line":0,"reason":"tab\there, newline\nthere"}],)"
      R"("warnings":[{"input":"urls.txt","line":9,"reason":"lastmod \"2024-02-30\" dropped"}],)"
      R"("skipped":[{"input":"public/draft.html","line":0,"reason":"meta robots noindex"}],)"
      R"("lastmods":{"dropped":1,"zone_assumed":7,"dst_adjusted":2,)"
      R"("first_dropped":[{"input":"urls.txt","line":9,"text":"2024-02-30"}]},)"
      R"("changes":{"added":["https://www.example.com/new","https://www.example.com/ü"],)"
      R"("changed":["https://www.example.com/\"quoted\""],"removed":[]}})"
      "\n");
  EXPECT_FALSE(out.closed()) << "the caller closes the sink";
}

TEST(GenerateJson, LeavesChangesOutWhenTheRunKeptNoState) {
  issue_spool spool;
  generate_report r = full_report();
  r.changes.reset();
  std::string text;
  memory_sink out(&text);
  ASSERT_TRUE(write_generate_json(out, r, spool));
  const json j = json::parse(text);
  EXPECT_FALSE(j.contains("changes"));
  EXPECT_EQ(j["rejected"], json::array());
}

// full_report() as a run over two hosts publishes it.
generate_report two_host_report() {
  generate_report r = full_report();
  r.sets = {{"https://www.example.com/", "public/www.example.com", r.entry,
             r.entry_url, true, 50'002, r.files, ""},
            {"https://shop.example.com/",
             "public/shop.example.com",
             "sitemap.xml",
             "https://shop.example.com/sitemap.xml",
             false,
             1,
             {{"sitemap.xml", document_type::urlset, 1, 240, 0}},
             ""}};
  return r;
}

TEST(GenerateJson, WritesEachSetWithWhatWasAnnouncedForIt) {
  issue_spool spool;
  announcement first, second;
  first.robots.emplace().path = "public/www.example.com/robots.txt";
  second.robots.emplace().path = "public/shop.example.com/robots.txt";
  const announcement both[] = {first, second};
  std::string text;
  memory_sink out(&text);
  ASSERT_TRUE(write_generate_json(out, two_host_report(), spool, both));
  const json j = json::parse(text);
  ASSERT_EQ(j["sets"].size(), 2u);
  EXPECT_EQ(
      j["sets"][1],
      json::parse(
          R"({"base_url":"https://shop.example.com/",)"
          R"("out_dir":"public/shop.example.com","entry":"sitemap.xml",)"
          R"("entry_url":"https://shop.example.com/sitemap.xml",)"
          R"("written":1,"dated":false,"files":[{"bytes":240,)"
          R"("path":"sitemap.xml","type":"urlset","urls":1}],)"
          R"("announce":{"robots":{"path":"public/shop.example.com/robots.txt",)"
          R"("sitemaps":[]}}})"));
  EXPECT_EQ(j["sets"][0]["announce"], j["announce"])
      << "the first set's announcement is the report's own";
  EXPECT_EQ(j["sets"][0]["written"], 50'002);
}

TEST(GenerateJson, RoundTripsEveryField) {
  issue_spool spool;
  add_issues(spool);
  const generate_report written = two_host_report();
  std::string text;
  memory_sink out(&text);
  ASSERT_TRUE(write_generate_json(out, written, spool));

  auto read = read_generate_json(text);
  ASSERT_TRUE(read) << read.err().message;
  const generate_report& r = read->report;
  EXPECT_EQ(r.outcome, generate_outcome::published);
  EXPECT_EQ(r.entry, written.entry);
  EXPECT_EQ(r.entry_url, written.entry_url);
  ASSERT_EQ(r.files.size(), written.files.size());
  for (std::size_t i = 0; i < r.files.size(); ++i) {
    EXPECT_EQ(r.files[i].path, written.files[i].path);
    EXPECT_EQ(r.files[i].type, written.files[i].type);
    EXPECT_EQ(r.files[i].urls, written.files[i].urls);
    EXPECT_EQ(r.files[i].bytes, written.files[i].bytes);
  }
  EXPECT_EQ(r.records, written.records);
  EXPECT_EQ(r.written, written.written);
  EXPECT_EQ(r.duplicates, written.duplicates);
  EXPECT_EQ(r.filtered, written.filtered);
  EXPECT_EQ(r.rejected, 2u);
  EXPECT_EQ(r.warnings, 1u);
  EXPECT_EQ(r.skipped, 1u);
  EXPECT_EQ(read->rejected, replay(spool, issue_kind::rejected));
  EXPECT_EQ(read->warnings, replay(spool, issue_kind::warning));
  EXPECT_EQ(read->skipped, replay(spool, issue_kind::skipped));
  EXPECT_EQ(r.lastmods.dropped, 1u);
  EXPECT_EQ(r.lastmods.zone_assumed, 7u);
  EXPECT_EQ(r.lastmods.dst_adjusted, 2u);
  EXPECT_EQ(r.lastmods.first_dropped, written.lastmods.first_dropped);
  ASSERT_TRUE(r.changes);
  EXPECT_EQ(r.changes->added, written.changes->added);
  EXPECT_EQ(r.changes->changed, written.changes->changed);
  EXPECT_EQ(r.changes->removed, written.changes->removed);
  ASSERT_EQ(r.sets.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const set_report &got = r.sets[i], &want = written.sets[i];
    EXPECT_EQ(got.base_url, want.base_url);
    EXPECT_EQ(got.out_dir, want.out_dir);
    EXPECT_EQ(got.entry, want.entry);
    EXPECT_EQ(got.entry_url, want.entry_url);
    EXPECT_EQ(got.written, want.written);
    EXPECT_EQ(got.dated, want.dated);
    ASSERT_EQ(got.files.size(), want.files.size());
    EXPECT_EQ(got.files.back().path, want.files.back().path);
    EXPECT_EQ(got.files.back().urls, want.files.back().urls);
  }

  // And again: what was read writes the same bytes.
  issue_spool again;
  for (const auto& i : read->rejected) again.add(issue_kind::rejected, i);
  for (const auto& i : read->warnings) again.add(issue_kind::warning, i);
  for (const auto& i : read->skipped) again.add(issue_kind::skipped, i);
  std::string second;
  memory_sink out2(&second);
  ASSERT_TRUE(write_generate_json(out2, r, again));
  EXPECT_EQ(second, text);
}

TEST(GenerateJson, AFailedRunReadsBackAsFailed) {
  issue_spool spool;
  generate_report failed;
  failed.records = 3;
  std::string text;
  memory_sink out(&text);
  ASSERT_TRUE(write_generate_json(out, failed, spool));
  auto read = read_generate_json(text);
  ASSERT_TRUE(read) << read.err().message;
  EXPECT_EQ(read->report.outcome, generate_outcome::failed);
  EXPECT_EQ(read->report.records, 3u);
  EXPECT_FALSE(read->report.changes);
}

TEST(GenerateJson, BytesThatAreNotUtf8BecomeTheReplacementCharacter) {
  issue_spool spool;
  spool.add(issue_kind::rejected, {"bad\xffname.txt", 1, "\xc3("});
  generate_report r;
  r.entry = "sitemap\xfe.xml";
  std::string text;
  memory_sink out(&text);
  ASSERT_TRUE(write_generate_json(out, r, spool));
  auto read = read_generate_json(text);
  ASSERT_TRUE(read) << read.err().message;
  EXPECT_EQ(read->report.entry, "sitemap\xEF\xBF\xBD.xml");
  ASSERT_EQ(read->rejected.size(), 1u);
  EXPECT_EQ(read->rejected[0].input, "bad\xEF\xBF\xBDname.txt");
  EXPECT_EQ(read->rejected[0].reason, "\xEF\xBF\xBD(");
}

// Reading for the changes only (IndexNow) counts the issues without keeping
// them, so a report of millions of rejections reads in little memory.
TEST(GenerateJson, CountsTheIssuesWithoutKeepingThemWhenAsked) {
  issue_spool spool;
  for (int i = 0; i < 1000; ++i)
    spool.add(issue_kind::rejected, {"urls.txt", std::uint64_t(i), "bad"});
  spool.add(issue_kind::skipped, {"a.html", 0, "noindex"});
  std::string text;
  memory_sink out(&text);
  ASSERT_TRUE(write_generate_json(out, full_report(), spool));
  auto read = read_generate_json(text, {.issues = false});
  ASSERT_TRUE(read) << read.err().message;
  EXPECT_TRUE(read->rejected.empty());
  EXPECT_TRUE(read->skipped.empty());
  EXPECT_EQ(read->report.rejected, 1000u);
  EXPECT_EQ(read->report.warnings, 0u);
  EXPECT_EQ(read->report.skipped, 1u);
  EXPECT_EQ(read->report.files.size(), 3u);
  ASSERT_TRUE(read->report.changes);
  EXPECT_EQ(read->report.changes->added.size(), 2u);
}

// A key given twice keeps its last value, counted or kept alike.
TEST(GenerateJson, CountsTheLastOfARepeatedList) {
  const char* text =
      R"({"skipped":[{"input":"a"},{"input":"b"}],"skipped":[{"input":"c"}]})";
  auto kept = read_generate_json(text);
  auto counted = read_generate_json(text, {.issues = false});
  ASSERT_TRUE(kept && counted);
  ASSERT_EQ(kept->skipped.size(), 1u);
  EXPECT_EQ(kept->skipped[0].input, "c");
  EXPECT_EQ(kept->report.skipped, 1u);
  EXPECT_EQ(counted->report.skipped, 1u);
}

TEST(GenerateJson, ReadsAHandWrittenManifest) {
  auto read = read_generate_json(R"({
    "changes": {
      "added": ["https://www.example.com/new"],
      "changed": [{"loc": "https://www.example.com/edited"}],
      "removed": ["https://www.example.com/gone"]
    },
    "generator": "something else, ignored"
  })");
  ASSERT_TRUE(read) << read.err().message;
  EXPECT_EQ(read->report.outcome, generate_outcome::failed);
  EXPECT_TRUE(read->report.files.empty());
  ASSERT_TRUE(read->report.changes);
  EXPECT_THAT(read->report.changes->added,
              ElementsAre("https://www.example.com/new"));
  EXPECT_THAT(read->report.changes->changed,
              ElementsAre("https://www.example.com/edited"));
  EXPECT_THAT(read->report.changes->removed,
              ElementsAre("https://www.example.com/gone"));
}

TEST(GenerateJson, SaysWhereAValueHasTheWrongType) {
  struct row {
    const char* json;
    const char* says;
  };
  const row rows[] = {
      {"not json", "not a JSON object"},
      {"[1,2]", "not a JSON object"},
      {R"({"entry":1})", R"("entry" is not a string)"},
      {R"({"files":{}})", R"("files" is not an array)"},
      {R"({"files":[1]})", R"("files"[0] is not an object)"},
      {R"({"files":[{"path":"a","urls":-1}]})",
       R"("files"[0].urls is not a count)"},
      {R"({"files":[{"path":"a"},{"type":"pdf"}]})",
       R"("files"[1].type is not urlset, sitemapindex, text, stylesheet or html)"},
      {R"({"records":"5"})", R"("records" is not a count)"},
      {R"({"rejected":[{"input":"a","line":1.5}]})",
       R"("rejected"[0].line is not a count)"},
      {R"({"skipped":["x"]})", R"("skipped"[0] is not an object)"},
      {R"({"changes":[]})", R"("changes" is not an object)"},
      {R"({"changes":{"added":"x"}})", R"("changes".added is not an array)"},
      {R"({"changes":{"removed":[1]}})",
       R"("changes".removed holds something that is not a URL string)"},
      {R"({"announce":{"robots":{"created":"yes"}}})",
       R"("announce".robots.created is not true or false)"},
      {R"({"announce":{"indexnow":{"batches":[{"outcome":"fine"}]}}})",
       R"("announce".indexnow.batches[0].outcome is not an IndexNow outcome)"},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.json);
    auto read = read_generate_json(r.json);
    ASSERT_FALSE(read);
    EXPECT_THAT(read.err().message, HasSubstr(r.says));
  }
}

TEST(GenerateJson, FileErrorsNameTheFile) {
  testing::temp_dir t;
  auto missing = read_generate_json_file(t / "missing.json");
  ASSERT_FALSE(missing);
  EXPECT_THAT(missing.err().message, HasSubstr(t / "missing.json"));
  EXPECT_THAT(missing.err().message, HasSubstr("cannot be read"));
  testing::write_file(t / "bad.json", R"({"files":{}})");
  auto bad = read_generate_json_file(t / "bad.json");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.err().message,
            (t / "bad.json") + R"(: "files" is not an array)");
}

TEST(GenerateJson, AFailingSinkFailsTheWrite) {
  issue_spool spool;
  add_issues(spool);
  for (std::size_t room : {std::size_t{0}, std::size_t{100}}) {
    SCOPED_TRACE(room);
    full_sink out(room);
    const status s = write_generate_json(out, full_report(), spool);
    ASSERT_FALSE(s);
    EXPECT_EQ(s.message(), "disk full");
  }
}

// What announce_set() did, with something in every field.
announcement full_announcement() {
  announcement done;
  robots_announcement& robots = done.robots.emplace();
  robots.path = "public/robots.txt";
  robots.sitemaps = {"https://www.example.com/sitemap.xml"};
  robots_update& update = robots.update.emplace();
  update.edit.added = robots.sitemaps;
  update.edit.present = {"https://www.example.com/news.xml"};
  update.edit.removed = {{4, "Sitemap: /old.xml", "repeats line 2"}};
  update.edit.notes = {"line 9: past 500 KiB"};
  update.edit.changed = true;
  update.written = true;
  indexnow_announcement& indexnow = done.indexnow.emplace();
  indexnow.urls = indexnow_urls(*full_report().changes);
  indexnow_report& sent = indexnow.report.emplace();
  sent.endpoint = "https://api.indexnow.org/indexnow";
  sent.host = "www.example.com";
  sent.key_location = "https://www.example.com/3f6c2b1a9e8d4c7b.txt";
  sent.urls = indexnow.urls.size();
  sent.duplicates = 1;
  sent.rejected = {{"https://other.example.net/x", "on host other..."}};
  indexnow_batch first;
  first.urls = 2;
  first.body = R"({"host":"www.example.com","key":"secret"})";
  first.outcome = indexnow_outcome::accepted;
  first.status = 200;
  first.attempts = {{503, "", std::chrono::milliseconds(1'000)},
                    {0, "timed out", std::chrono::milliseconds(2'000)},
                    {200, "", std::chrono::milliseconds(0)}};
  first.message = "200 OK: received";
  indexnow_batch second;
  second.urls = 1;
  second.outcome = indexnow_outcome::not_sent;
  sent.batches = {first, second};
  return done;
}

TEST(GenerateJson, CarriesWhatWasAnnounced) {
  issue_spool spool;
  const announcement done = full_announcement();
  std::string text;
  memory_sink out(&text);
  ASSERT_TRUE(write_generate_json(out, full_report(), spool, {&done, 1}));
  const std::string tail =
      R"(,"announce":{"robots":{"path":"public/robots.txt",)"
      R"("sitemaps":["https://www.example.com/sitemap.xml"],)"
      R"("added":["https://www.example.com/sitemap.xml"],)"
      R"("present":["https://www.example.com/news.xml"],)"
      R"("removed":[{"line":4,"text":"Sitemap: /old.xml",)"
      R"("reason":"repeats line 2"}],"notes":["line 9: past 500 KiB"],)"
      R"("created":false,"changed":true,"written":true},)"
      R"("indexnow":{"urls":3,"endpoint":"https://api.indexnow.org/indexnow",)"
      R"("host":"www.example.com",)"
      R"("key_location":"https://www.example.com/3f6c2b1a9e8d4c7b.txt",)"
      R"("sent":2,"accepted":2,)"
      R"("duplicates":1,"rejected":[{"url":"https://other.example.net/x",)"
      R"("reason":"on host other..."}],)"
      R"("batches":[{"urls":2,"outcome":"accepted","status":200,)"
      R"("attempts":[{"status":503,"error":"","wait_ms":1000},)"
      R"({"status":0,"error":"timed out","wait_ms":2000},)"
      R"({"status":200,"error":"","wait_ms":0}],)"
      R"("message":"200 OK: received"},)"
      R"({"urls":1,"outcome":"not sent","status":0,"attempts":[],)"
      R"("message":""}]}}})"
      "\n";
  ASSERT_GE(text.size(), tail.size());
  EXPECT_EQ(text.substr(text.size() - tail.size()), tail);
  EXPECT_EQ(text.find("secret"), std::string::npos)
      << "the bodies, and the key in them, stay out of the report";

  auto read = read_generate_json(text);
  ASSERT_TRUE(read) << read.err().message;
  ASSERT_TRUE(read->announced);
  const announcement& back = *read->announced;
  ASSERT_TRUE(back.robots && back.robots->update);
  EXPECT_EQ(back.robots->path, done.robots->path);
  EXPECT_EQ(back.robots->sitemaps, done.robots->sitemaps);
  EXPECT_EQ(back.robots->update->edit.added, done.robots->update->edit.added);
  EXPECT_EQ(back.robots->update->edit.present,
            done.robots->update->edit.present);
  ASSERT_EQ(back.robots->update->edit.removed.size(), 1u);
  EXPECT_EQ(back.robots->update->edit.removed[0].line, 4u);
  EXPECT_EQ(back.robots->update->edit.removed[0].text, "Sitemap: /old.xml");
  EXPECT_EQ(back.robots->update->edit.removed[0].reason, "repeats line 2");
  EXPECT_EQ(back.robots->update->edit.notes, done.robots->update->edit.notes);
  EXPECT_EQ(back.robots->update->edit.changed, true);
  EXPECT_EQ(back.robots->update->created, false);
  EXPECT_EQ(back.robots->update->written, true);
  EXPECT_FALSE(back.robots->failure);
  ASSERT_TRUE(back.indexnow && back.indexnow->report);
  EXPECT_EQ(back.indexnow->urls, done.indexnow->urls);
  const indexnow_report& r = *back.indexnow->report;
  const indexnow_report& w = *done.indexnow->report;
  EXPECT_EQ(r.endpoint, w.endpoint);
  EXPECT_EQ(r.host, w.host);
  EXPECT_EQ(r.key_location, w.key_location);
  EXPECT_EQ(r.urls, w.urls);
  EXPECT_EQ(r.duplicates, w.duplicates);
  ASSERT_EQ(r.rejected.size(), 1u);
  EXPECT_EQ(r.rejected[0].url, w.rejected[0].url);
  EXPECT_EQ(r.rejected[0].reason, w.rejected[0].reason);
  ASSERT_EQ(r.batches.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(r.batches[i].urls, w.batches[i].urls);
    EXPECT_EQ(r.batches[i].outcome, w.batches[i].outcome);
    EXPECT_EQ(r.batches[i].status, w.batches[i].status);
    EXPECT_EQ(r.batches[i].message, w.batches[i].message);
    ASSERT_EQ(r.batches[i].attempts.size(), w.batches[i].attempts.size());
    for (std::size_t k = 0; k < r.batches[i].attempts.size(); ++k) {
      EXPECT_EQ(r.batches[i].attempts[k].status,
                w.batches[i].attempts[k].status);
      EXPECT_EQ(r.batches[i].attempts[k].error, w.batches[i].attempts[k].error);
      EXPECT_EQ(r.batches[i].attempts[k].wait, w.batches[i].attempts[k].wait);
    }
  }
  EXPECT_EQ(back.ok(), done.ok());
}

TEST(GenerateJson, CarriesAnnouncementsThatFailedOrHadNothingToSend) {
  struct row {
    const char* what;
    announcement done;
    const char* tail;
  };
  std::vector<row> rows;
  {
    announcement failed;
    failed.robots.emplace();
    failed.robots->path = "robots.txt";
    failed.robots->failure = error{"robots.txt: read-only"};
    failed.indexnow.emplace();
    failed.indexnow->urls = {"https://www.example.com/a"};
    failed.indexnow->failure = error{"no IndexNow key", "key"};
    rows.push_back({"both failed", failed,
                    R"(,"announce":{"robots":{"path":"robots.txt",)"
                    R"("sitemaps":[],"error":"robots.txt: read-only"},)"
                    R"("indexnow":{"urls":1,"error":"no IndexNow key"}}})"});
  }
  {
    announcement quiet;
    quiet.indexnow.emplace();
    rows.push_back(
        {"nothing changed", quiet, R"(,"announce":{"indexnow":{"urls":0}}})"});
  }
  rows.push_back({"nothing asked", announcement{}, R"("removed":[]}})"});
  for (const row& r : rows) {
    SCOPED_TRACE(r.what);
    issue_spool spool;
    std::string text;
    memory_sink out(&text);
    ASSERT_TRUE(write_generate_json(out, full_report(), spool, {&r.done, 1}));
    const std::string tail = std::string(r.tail) + "\n";
    ASSERT_GE(text.size(), tail.size());
    EXPECT_EQ(text.substr(text.size() - tail.size()), tail);
    auto read = read_generate_json(text);
    ASSERT_TRUE(read) << read.err().message;
    EXPECT_EQ(read->announced.has_value(),
              r.done.robots.has_value() || r.done.indexnow.has_value());
    if (!read->announced) continue;
    EXPECT_EQ(read->announced->robots.has_value(), r.done.robots.has_value());
    if (r.done.robots) {
      EXPECT_EQ(read->announced->robots->failure->message,
                r.done.robots->failure->message);
    }
    ASSERT_TRUE(read->announced->indexnow);
    EXPECT_EQ(read->announced->indexnow->urls.empty(),
              r.done.indexnow->urls.empty());
    EXPECT_EQ(read->announced->indexnow->failure.has_value(),
              r.done.indexnow->failure.has_value());
    EXPECT_FALSE(read->announced->indexnow->report);
    EXPECT_FALSE(read->announced->ok() && !r.done.ok());
  }
}

// --- the check report

TEST(CheckJson, WritesEveryFieldOfEveryDocument) {
  check_report r;
  document_report index;
  index.source = "https://www.example.com/sitemap.xml";
  index.kind = document_kind::sitemapindex;
  index.urls = 2;
  index.bytes = 300;
  index.schema_valid = true;
  index.errors = 1;
  index.diagnostics = {{severity::error, "child-not-found", 5, 3,
                        "no file x\xff beside the index"}};
  document_report child;
  child.source = "https://www.example.com/a.xml";
  child.parent = index.source;
  child.kind = document_kind::urlset;
  child.warnings = 1;
  child.infos = 2;
  child.unreadable = true;
  child.robots_txt = true;
  r.documents = {index, child};
  r.errors = 1;
  r.warnings = 1;
  r.infos = 2;
  r.any_unreadable = true;
  r.outcome = check_outcome::unreadable;

  std::string text;
  memory_sink out(&text);
  ASSERT_TRUE(write_check_json(out, r));
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.find('\n'), text.size() - 1) << "one line";
  const json j = json::parse(text);
  EXPECT_EQ(j, json::parse(R"({
    "documents": [
      {"source": "https://www.example.com/sitemap.xml", "type": "sitemapindex",
       "urls": 2, "bytes": 300,
       "diagnostics": [{"severity": "error", "code": "child-not-found",
                        "line": 5, "column": 3,
                        "message": "no file x\ufffd beside the index"}],
       "schema_valid": true, "errors": 1, "warnings": 0, "infos": 0,
       "unreadable": false, "robots_txt": false, "parent": null},
      {"source": "https://www.example.com/a.xml", "type": "urlset",
       "urls": 0, "bytes": 0, "diagnostics": [],
       "schema_valid": false, "errors": 0, "warnings": 1, "infos": 2,
       "unreadable": true, "robots_txt": true,
       "parent": "https://www.example.com/sitemap.xml"}],
    "errors": 1, "warnings": 1, "infos": 2, "unreadable": true,
    "outcome": "unreadable"})"));
  // Keys in the order the README documents.
  EXPECT_EQ(text.rfind(R"({"documents":[{"source":)", 0), 0u);
}

TEST(CheckJson, AFailingSinkFailsTheWrite) {
  full_sink out(0);
  EXPECT_FALSE(write_check_json(out, check_report{}));
}

}  // namespace
}  // namespace sitemill
