// The generate pipeline through the library: outcomes, counts, naming, and
// failures that leave the published set alone.
#include "sitemill/generate/generate.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>

#include "generate/testing.h"
#include "sitemill/source/page_source.h"
#include "sitemill/source/site_source.h"
#include "support/run.h"

namespace sitemill {
namespace {

namespace fs = std::filesystem;

using testing::temp_dir;  // tests/support: a /tmp directory removed at the end

std::map<std::string, std::string> snapshot(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::ifstream in(e.path(), std::ios::binary);
    files[e.path().filename()] = {std::istreambuf_iterator<char>(in), {}};
  }
  return files;
}

std::string write_urls(const temp_dir& d, const std::string& name,
                       std::size_t n, const std::string& extra = "") {
  std::ofstream out(d / name);
  for (std::size_t i = 0; i < n; ++i) out << "/page/" << i << "\n";
  out << extra;
  return d / name;
}

struct collecting_observer : generate_observer {
  std::vector<record_issue> rejects, warns;
  void rejected(const record_issue& r) override { rejects.push_back(r); }
  void warning(const record_issue& r) override { warns.push_back(r); }
};

generate_options options(const temp_dir& d, std::vector<std::string> inputs) {
  generate_options o;
  for (auto& in : inputs) o.sources.push_back(list_source(std::move(in)));
  o.base_url = "https://www.example.com/";
  o.out_dir = d / "out";
  o.layout = file_layout::sequential;  // these tests pin numbered names
  return o;
}

TEST(Generate, PublishesOnePlainFileWithoutAnIndexAndAccountsForEveryRecord) {
  temp_dir d;
  std::string in = write_urls(d, "urls.txt", 3,
                              "/page/0\nmailto:x@example.com\n/page/1#top\n");
  collecting_observer obs;
  generate_options o = options(d, {in});
  o.gzip = false;
  generate_report r = generate(o, obs);
  ASSERT_EQ(r.outcome, generate_outcome::published) << r.message;
  EXPECT_EQ(r.entry, "sitemap.xml");
  EXPECT_EQ(r.entry_url, "https://www.example.com/sitemap.xml");
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.files[0].type, document_type::urlset);
  EXPECT_EQ(r.records, 6u);
  EXPECT_EQ(r.written, 3u);
  EXPECT_EQ(r.duplicates, 2u)
      << "/page/0 again, and /page/1 once its fragment is gone";
  EXPECT_EQ(r.rejected, 1u);
  EXPECT_EQ(r.records, r.written + r.duplicates + r.rejected);
  ASSERT_EQ(obs.rejects.size(), 1u);
  EXPECT_EQ(obs.rejects[0].line, 5u);
  EXPECT_EQ(obs.rejects[0].input, in);
  ASSERT_EQ(obs.warns.size(), 1u);
  EXPECT_EQ(obs.warns[0].line, 6u);
}

// The entry's URL is what robots.txt and Search Console are given: it must
// not change the day a site outgrows one file, nor with the format.
TEST(Generate, TheEntryIsNamedTheSameAtOneAndAt120001Urls) {
  struct form {
    const char* what;
    bool gzip;
    document_type type;
  };
  for (const form& f : {form{"gzipped", true, document_type::urlset},
                        form{"plain", false, document_type::urlset},
                        form{"text", true, document_type::text}}) {
    SCOPED_TRACE(f.what);
    temp_dir d;
    for (std::size_t urls : {1u, 120'001u}) {
      generate_options o = options(d, {write_urls(d, "urls.txt", urls)});
      o.gzip = f.gzip;
      o.type = f.type;
      generate_observer quiet;
      generate_report r = generate(o, quiet);
      ASSERT_EQ(r.outcome, generate_outcome::published) << r.message;
      EXPECT_EQ(r.entry, "sitemap.xml") << urls << " URLs";
      EXPECT_EQ(r.entry_url, "https://www.example.com/sitemap.xml");
      EXPECT_EQ(r.written, urls);
      // Only a lone plain urlset is its own entry; everything else is
      // listed by an index.
      const bool indexed = f.gzip || f.type == document_type::text ||
                           urls > max_urls_per_sitemap;
      EXPECT_EQ(r.files.back().type,
                indexed ? document_type::sitemapindex : document_type::urlset);
      EXPECT_EQ(r.files.size(), indexed ? 1 + (urls + 49'999) / 50'000 : 1u);
    }
  }
}

TEST(Generate, NamesChildrenByContentAndWritesAPlainIndex) {
  temp_dir d;
  auto o = options(d, {write_urls(d, "urls.txt", 25)});
  o.max_urls = 10;
  generate_observer quiet;
  generate_report r = generate(o, quiet);
  ASSERT_EQ(r.outcome, generate_outcome::published) << r.message;
  EXPECT_EQ(r.entry, "sitemap.xml");
  ASSERT_EQ(r.files.size(), 4u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_TRUE(
        r.files[i].path.starts_with("sitemap-" + std::to_string(i + 1) + "-"));
    EXPECT_TRUE(r.files[i].path.ends_with(".xml.gz"));
    EXPECT_EQ(r.files[i].type, document_type::urlset);
  }
  EXPECT_EQ(r.files[3].path, "sitemap.xml");
  EXPECT_EQ(r.files[3].type, document_type::sitemapindex);
  EXPECT_EQ(r.files[3].urls, 3u);
  auto files = snapshot(d / "out");
  EXPECT_NE(files["sitemap.xml"].find("<loc>https://www.example.com/" +
                                      r.files[0].path + "</loc>"),
            std::string::npos);
}

TEST(Generate, SplitsTheIndexWhenItWouldListTooManySitemaps) {
  temp_dir d;
  auto o = options(d, {write_urls(d, "urls.txt", 7)});
  o.max_urls = 1;
  detail::generate_testing three_per_index;
  three_per_index.max_index_entries = 3;
  generate_observer quiet;
  generate_report r = detail::generate(o, quiet, three_per_index);
  ASSERT_EQ(r.outcome, generate_outcome::published) << r.message;
  std::vector<std::string> indexes;
  for (const auto& f : r.files)
    if (f.type == document_type::sitemapindex) indexes.push_back(f.path);
  EXPECT_EQ(indexes, (std::vector<std::string>{"sitemap-index-1.xml",
                                               "sitemap-index-2.xml",
                                               "sitemap-index-3.xml"}));
  EXPECT_EQ(r.entry, "sitemap-index-1.xml");
  // Never nested: no index lists another index.
  for (const auto& name : indexes)
    EXPECT_EQ(snapshot(d / "out")[name].find("sitemap-index-"),
              std::string::npos);
}

TEST(Generate, TextFormatWithAnAlwaysIndex) {
  temp_dir d;
  auto o = options(d, {write_urls(d, "urls.txt", 2)});
  o.type = document_type::text;
  o.gzip = false;
  o.index = index_mode::always;
  generate_observer quiet;
  generate_report r = generate(o, quiet);
  ASSERT_EQ(r.outcome, generate_outcome::published) << r.message;
  ASSERT_EQ(r.files.size(), 2u);
  EXPECT_TRUE(r.files[0].path.ends_with(".txt"));
  EXPECT_EQ(r.files[0].type, document_type::text);
  EXPECT_EQ(snapshot(d / "out")[r.files[0].path],
            "https://www.example.com/page/0\nhttps://www.example.com/page/1\n");
}

TEST(Generate, NoValidUrlPublishesNothing) {
  temp_dir d;
  generate_observer quiet;
  auto first = generate(options(d, {write_urls(d, "good.txt", 2)}), quiet);
  ASSERT_EQ(first.outcome, generate_outcome::published);
  const auto before = snapshot(d / "out");
  std::ofstream(d / "bad.txt") << "ftp://x.example/\n\n# only comments\n";
  auto r = generate(options(d, {d / "bad.txt"}), quiet);
  EXPECT_EQ(r.outcome, generate_outcome::no_valid_urls);
  EXPECT_TRUE(r.files.empty());
  EXPECT_EQ(snapshot(d / "out"), before);
}

TEST(Generate, StrictRefusesABadFieldAndKeepsTheOldSet) {
  temp_dir d;
  generate_observer quiet;
  ASSERT_EQ(generate(options(d, {write_urls(d, "good.txt", 2)}), quiet).outcome,
            generate_outcome::published);
  const auto before = snapshot(d / "out");
  std::ofstream(d / "fields.tsv") << "loc\tpriority\n/a\t0.5\n/b\t7\n/c\t0.1\n";
  auto o = options(d, {d / "fields.tsv"});
  o.strict = true;
  collecting_observer obs;
  auto r = generate(o, obs);
  EXPECT_EQ(r.outcome, generate_outcome::strict_failed);
  EXPECT_EQ(snapshot(d / "out"), before);
  ASSERT_EQ(obs.warns.size(), 1u);
  EXPECT_EQ(obs.warns[0].line, 3u);
  EXPECT_EQ(r.records, 3u) << "strict mode reads on to report every problem";
}

TEST(Generate, CancellationPublishesNothing) {
  temp_dir d;
  struct stop_soon : generate_observer {
    bool cancelled() override { return true; }
  } obs;
  auto r = generate(options(d, {write_urls(d, "urls.txt", 10'000)}), obs);
  EXPECT_EQ(r.outcome, generate_outcome::cancelled);
  EXPECT_LT(r.records, 10'000u);
  EXPECT_TRUE(testing::list_all(d / "out").empty())
      << "a cancelled run leaves nothing, not even the --out it created";
}

// An observer that says "stop" once is heard: the run does not ask again and
// carry on with what it had read.
TEST(Generate, ACancelSaidOnceIsKept) {
  temp_dir d;
  struct stop_once : generate_observer {
    int asked = 0;
    bool cancelled() override { return ++asked == 1; }
  } obs;
  auto r = generate(options(d, {write_urls(d, "urls.txt", 10'000)}), obs);
  EXPECT_EQ(r.outcome, generate_outcome::cancelled);
  EXPECT_EQ(obs.asked, 1);
  EXPECT_TRUE(testing::list_all(d / "out").empty())
      << "a cancelled run left files";
}

// A cancel is heard in every phase before the commit, not only while
// reading: while spooled entries are written (hreflang clusters), once the
// sitemaps are compressed, and with the index staged, just before the
// publish. Each run ends cancelled and leaves nothing behind; a cancel that
// came while reading would fail the count of records read.
TEST(Generate, ACancelIsHeardInEveryPhaseBeforeTheCommit) {
  enum class phase { spooled_writing, compressed, index_staged };
  for (phase when :
       {phase::spooled_writing, phase::compressed, phase::index_staged}) {
    SCOPED_TRACE(static_cast<int>(when));
    temp_dir d;
    constexpr std::size_t n = 20'000;
    {
      std::ofstream out(d / "in.jsonl");
      for (std::size_t i = 0; i < n; ++i) {
        const std::string en =
            "https://www.example.com/en/" + std::to_string(i);
        const std::string de =
            "https://www.example.com/de/" + std::to_string(i);
        out << "{\"loc\":\"" << (i % 2 ? de : en) << "\"";
        // Only the first phase needs entries to wait for their clusters.
        if (when == phase::spooled_writing)
          out << ",\"alternates\":{\"en\":\"" << en << "\",\"de\":\"" << de
              << "\"}";
        out << "}\n";
      }
    }
    struct observer : generate_observer {
      bool armed = false;
      bool cancelled() override { return armed; }
    } obs;
    generate_options o = options(d, {d / "in.jsonl"});
    o.max_urls = 5'000;
    bool sitemaps_done = false;
    int temporaries = 0;
    detail::generate_testing t;
    t.hook = [&](publish_step step) {
      if (step == publish_step::sitemaps_finished) {
        sitemaps_done = true;
        if (when == phase::compressed) obs.armed = true;
      }
      if (step != publish_step::temporary_created) return;
      ++temporaries;
      // With clusters, the spool is the first temporary and the first
      // sitemap the second, made once every entry has been read.
      if (when == phase::spooled_writing && temporaries == 2) obs.armed = true;
      // After the sitemaps, a temporary is the index being staged.
      if (when == phase::index_staged && sitemaps_done) obs.armed = true;
    };
    auto r = detail::generate(o, obs, t);
    EXPECT_TRUE(obs.armed) << "the phase under test was never reached";
    EXPECT_EQ(r.outcome, generate_outcome::cancelled) << r.message;
    EXPECT_EQ(r.records, n) << "cancelled while reading, not in the phase";
    // Cancelled in the phase, not after it: nothing reached the index.
    if (when == phase::spooled_writing) {
      EXPECT_FALSE(sitemaps_done);
    }
    EXPECT_TRUE(testing::list_all(d / "out").empty())
        << "a cancelled run left files";
  }
}

// The observer hears progress at least at the end of each input, with the
// records read so far and the input bytes against their total: the CLI's
// progress line (rate, percentage, ETA) is drawn from it.
TEST(Generate, ProgressIsReportedAtTheEndOfEachInput) {
  temp_dir d;
  struct observer : generate_observer {
    std::vector<generate_progress> seen;
    void progress(const generate_progress& now) override {
      seen.push_back(now);
    }
  } obs;
  const std::string a = write_urls(d, "a.txt", 200'000);
  const std::string b = write_urls(d, "b.txt", 3);
  const std::uint64_t total =
      std::filesystem::file_size(a) + std::filesystem::file_size(b);
  auto r = generate(options(d, {a, b}), obs);
  ASSERT_EQ(r.outcome, generate_outcome::published) << r.message;
  ASSERT_GE(obs.seen.size(), 3u) << "every 65,536 records, and per input";
  EXPECT_EQ(obs.seen.back().records, 200'003u);
  EXPECT_EQ(obs.seen.back().input_bytes_read, total);
  auto end_of_a = std::find_if(
      obs.seen.begin(), obs.seen.end(),
      [](const generate_progress& p) { return p.records == 200'000u; });
  ASSERT_NE(end_of_a, obs.seen.end());
  EXPECT_EQ(end_of_a->input_bytes_read, std::filesystem::file_size(a));
  for (std::size_t i = 0; i < obs.seen.size(); ++i) {
    EXPECT_EQ(obs.seen[i].input_bytes_total, total) << i;
    if (i > 0) {
      EXPECT_GE(obs.seen[i].input_bytes_read, obs.seen[i - 1].input_bytes_read)
          << i;
    }
  }
  // Part-way, the bytes read are part of the first input.
  EXPECT_GT(obs.seen.front().input_bytes_read, 0u);
  EXPECT_LT(obs.seen.front().input_bytes_read, std::filesystem::file_size(a));
}

// A source whose size cannot be known (stdin, a directory, a fetch) leaves
// the total unknown: no percentage is promised.
TEST(Generate, ProgressHasNoTotalWhenASourceHasNoSize) {
  temp_dir d;
  struct observer : generate_observer {
    std::uint64_t total = 1;
    void progress(const generate_progress& now) override {
      total = now.input_bytes_total;
    }
  } obs;
  generate_options o = options(d, {write_urls(d, "a.txt", 10)});
  bool given = false;
  o.sources.push_back(page_source("one page", [&](page& p) {
    if (given) return false;
    given = true;
    p.loc = "/from-memory";
    return true;
  }));
  auto r = generate(o, obs);
  ASSERT_EQ(r.outcome, generate_outcome::published) << r.message;
  EXPECT_EQ(obs.total, 0u);
}

// An error about an option names its field, and its message names the
// option in the library's words, never by a CLI flag.
TEST(Generate, RefusesBadOptionsNamingTheField) {
  temp_dir d;
  generate_observer quiet;
  testing::write_file(d / "a-file", "x");
  struct {
    void (*change)(generate_options&, const temp_dir&);
    const char* field;     // "" when the error is not about one option
    const char* expected;  // part of the message
  } cases[] = {
      {[](generate_options& o, const temp_dir&) { o.sources.clear(); },
       "sources", "no input: give `sources`"},
      {[](generate_options& o, const temp_dir&) { o.out_dir.clear(); },
       "out_dir", "`out_dir` is required"},
      {[](generate_options& o, const temp_dir&) { o.base_url.clear(); },
       "base_url", "`base_url` is required"},
      {[](generate_options& o, const temp_dir&) { o.max_urls = 50'001; },
       "max_urls", "`max_urls` must be from 1 to 50,000"},
      {[](generate_options& o, const temp_dir&) { o.max_urls = 0; }, "max_urls",
       "`max_urls` must be from 1 to 50,000"},
      {[](generate_options& o, const temp_dir&) { o.max_bytes = 52'428'801; },
       "max_bytes", "`max_bytes` must be from 256"},
      {[](generate_options& o, const temp_dir&) {
         o.base_url = "ftp://example.com/";
       },
       "base_url", "`base_url`: "},
      {[](generate_options& o, const temp_dir&) { o.name = "../evil"; }, "name",
       "`name` may use only"},
      {[](generate_options& o, const temp_dir& t) { o.out_dir = t / "a-file"; },
       "out_dir", "is not a directory"},
      {[](generate_options& o, const temp_dir&) {
         site_source_options site;
         site.root = ".";
         site.lastmod = lastmod_policy::content;
         o.sources = {directory_source(site)};
       },
       "lastmod", "`lastmod` content needs `state_path`"},
      {[](generate_options& o, const temp_dir&) { o.shard.presplit = true; },
       "presplit", "`presplit` says how a shard's inputs are split"},
      {[](generate_options& o, const temp_dir&) {
         o.sources = {list_source("/nonexistent/urls.txt")};
       },
       "", "/nonexistent/urls.txt"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.expected);
    auto o = options(d, {write_urls(d, "urls.txt", 1)});
    c.change(o, d);
    auto r = generate(o, quiet);
    EXPECT_EQ(r.outcome, generate_outcome::failed);
    EXPECT_EQ(r.field, c.field);
    EXPECT_NE(r.message.find(c.expected), std::string::npos) << r.message;
    EXPECT_EQ(r.message.find("--"), std::string::npos) << r.message;
  }
  {  // the index limit, which only tests lower
    SCOPED_TRACE("index entries");
    auto o = options(d, {write_urls(d, "urls.txt", 1)});
    detail::generate_testing none_per_index;
    none_per_index.max_index_entries = 0;
    auto r = detail::generate(o, quiet, none_per_index);
    EXPECT_EQ(r.outcome, generate_outcome::failed);
    EXPECT_EQ(r.field, "max_index_entries");
    EXPECT_NE(r.message.find("index entries"), std::string::npos) << r.message;
    EXPECT_EQ(r.message.find("--"), std::string::npos) << r.message;
  }
}

// A disk that fills up mid-run (RLIMIT_FSIZE in a child): the run fails with
// the file named, and the set published before is exactly as it was.
TEST(Generate, ADiskFullMidRunLeavesTheOldSetByteIdentical) {
  temp_dir d;
  generate_observer quiet;
  auto o = options(d, {write_urls(d, "small.txt", 3)});
  o.gzip = false;
  ASSERT_EQ(generate(o, quiet).outcome, generate_outcome::published);
  const auto before = snapshot(d / "out");
  const std::string big = write_urls(d, "big.txt", 200'000);

  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit lim{1'000'000, 1'000'000};
    ::setrlimit(RLIMIT_FSIZE, &lim);
    auto big_run = options(d, {big});
    big_run.gzip = false;
    generate_observer silent;
    auto r = generate(big_run, silent);
    bool ok = r.outcome == generate_outcome::failed &&
              r.message.find(".sitemill-tmp-") != std::string::npos;
    ::_exit(ok ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(snapshot(d / "out"), before);
}

}  // namespace
}  // namespace sitemill
