// Sharded generate and merge through the library: N shards merged publish
// the URL set of one run (byte for byte when N is 1), every record is
// judged by exactly one shard, a set of shards that is not whole is refused
// with nothing published, and a merge killed at any step leaves the old set.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "generate/testing.h"
#include "sitemill/generate/generate.h"
#include "sitemill/generate/merge.h"
#include "sitemill/generate/shard.h"
#include "support/run.h"

namespace sitemill {
namespace {

using testing::temp_dir;

constexpr const char* base = "https://www.example.com/";

// 3,000 URLs, with duplicates spelled differently (case, default port,
// dot segments, escapes), so that only normalised URLs hash alike, and
// three lines that are not URLs.
std::string write_input(const temp_dir& d) {
  std::ofstream out(d / "urls.txt");
  for (int i = 0; i < 3'000; ++i) {
    out << base << "p/" << i << "\n";
    if (i % 5 == 0) out << "HTTPS://WWW.Example.COM:443/p/" << i << "\n";
    if (i % 7 == 0) out << base << "q/../p/" << i << "\n";
    if (i % 11 == 0) out << base << "%70/" << i << "\n";
  }
  out << "mailto:someone@example.com\nftp://example.com/x\nnot a url\n";
  return d / "urls.txt";
}

struct counting : generate_observer {
  std::uint64_t rejects = 0;
  void rejected(const record_issue&) override { ++rejects; }
};

generate_options options(const std::string& input, const std::string& out) {
  generate_options o;
  o.sources.push_back(list_source(input));
  o.base_url = base;
  o.out_dir = out;
  o.max_urls = 500;
  return o;
}

generate_report run_shard(const std::string& input, const std::string& out,
                          std::uint32_t index, std::uint32_t count,
                          counting* obs = nullptr) {
  generate_options o = options(input, out);
  o.shard.index = index;
  o.shard.count = count;
  counting quiet;
  generate_report r = generate(o, obs ? *obs : quiet);
  EXPECT_EQ(r.outcome, generate_outcome::published) << r.message;
  EXPECT_FALSE(r.shard_dir.empty());
  EXPECT_TRUE(r.entry.empty()) << "a shard published an entry";
  return r;
}

// The <loc>s of every sitemap in `dir` (gzipped or not), as a multiset
// would show repeats.
std::multiset<std::string> locs_in(const std::string& dir) {
  std::multiset<std::string> locs;
  static const std::regex loc("<loc>([^<]*)</loc>");
  for (const std::string& name : testing::list_files(dir)) {
    if (name == "sitemap.xml") continue;  // the index lists files, not URLs
    const std::string text = testing::read_file(dir + "/" + name);
    for (std::sregex_iterator m(text.begin(), text.end(), loc), end; m != end;
         ++m)
      locs.insert((*m)[1]);
  }
  return locs;
}

// The documented rule, checked against another implementation of XXH3-128
// (xxhsum -H2, from Debian's xxhash, which prints the high 64 bits first):
// an export split ahead of time by that rule lands in the shards sitemill
// would choose.
TEST(Shard, TheShardOfAUrlIsTheDocumentedHashAndSpreadsEvenly) {
  temp_dir d;
  std::vector<std::string> urls = {"https://www.example.com/",
                                   "https://www.example.com/p/1",
                                   "https://www.example.com/caf%C3%A9?q=1&r=2"};
  std::vector<std::string> args{"-H2"};
  for (std::size_t i = 0; i < urls.size(); ++i) {
    testing::write_file(d / std::to_string(i), urls[i]);
    args.push_back(d / std::to_string(i));
  }
  const auto sums = testing::run_program("/usr/bin/xxhsum", args);
  ASSERT_EQ(sums.exit_code, 0) << "xxhsum (scripts/install-deps.sh) " << sums.err;
  std::istringstream lines(sums.out);
  for (const std::string& url : urls) {
    std::string hex, file;
    ASSERT_TRUE(lines >> hex >> file);
    ASSERT_EQ(hex.size(), 32u) << hex;
    const std::uint64_t high = std::stoull(hex.substr(0, 16), nullptr, 16);
    for (std::uint32_t n : {2u, 7u, 1000u})
      EXPECT_EQ(shard_of(url, n), high % n) << url << " of " << n;
  }
  EXPECT_EQ(shard_of("https://www.example.com/", 1), 0u);
  std::vector<int> per(7);
  for (int i = 0; i < 70'000; ++i)
    ++per[shard_of(std::string(base) + "p/" + std::to_string(i), 7)];
  for (int n : per) {
    EXPECT_GT(n, 9'500);
    EXPECT_LT(n, 10'500);
  }
}

TEST(Shard, ReadsItsPlaceFromTheFlagOrTheBatchEngine) {
  auto env = [](std::map<std::string, std::string> vars) {
    return [vars](const char* name) -> std::optional<std::string> {
      auto it = vars.find(name);
      if (it == vars.end()) return std::nullopt;
      return it->second;
    };
  };
  auto none = env({});
  auto s = parse_shard("2/7", none);
  ASSERT_TRUE(s) << s.err().message;
  EXPECT_EQ(s->index, 2u);
  EXPECT_EQ(s->count, 7u);
  // Slurm numbers tasks from --array's first id.
  auto slurm = env({{"SLURM_ARRAY_TASK_ID", "4"},
                    {"SLURM_ARRAY_TASK_MIN", "1"},
                    {"SLURM_ARRAY_TASK_COUNT", "4"},
                    {"SLURM_ARRAY_JOB_ID", "812"}});
  s = parse_shard("auto", slurm);
  ASSERT_TRUE(s) << s.err().message;
  EXPECT_EQ(s->index, 3u);
  EXPECT_EQ(s->count, 4u);
  EXPECT_EQ(s->job, "812");
  s = parse_shard("auto/4", env({{"JOB_COMPLETION_INDEX", "0"}}));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->index, 0u);
  s = parse_shard("auto/4", env({{"PARALLEL_SEQ", "4"}}));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->index, 3u);
  s = parse_shard("auto/4", slurm);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->index, 3u);

  const std::pair<const char*, const char*> refused[] = {
      {"7/7", "from 0 to 6"},
      {"0/0", "from 1 to"},
      {"x/3", "not a number"},
      {"3", "not I/N"},
      {"auto/4", "none is set"},
      {"auto", "SLURM_ARRAY_TASK_ID is not set"},
  };
  for (const auto& [text, why] : refused) {
    auto bad = parse_shard(text, none);
    ASSERT_FALSE(bad) << text;
    EXPECT_NE(bad.err().message.find(why), std::string::npos)
        << text << ": " << bad.err().message;
    EXPECT_EQ(bad.err().field, "shard");
  }
  auto mismatch = parse_shard("auto/5", slurm);
  ASSERT_FALSE(mismatch);
  EXPECT_NE(mismatch.err().message.find("4 tasks"), std::string::npos);
}

// N in {1, 2, 7}: the shards' URLs add up to one run's, each written once,
// every record judged once (the bad lines reported by one shard each).
TEST(Shard, ShardsMergedPublishOneRunsUrlSet) {
  temp_dir d;
  const std::string input = write_input(d);
  counting whole_obs;
  generate_report whole = generate(options(input, d / "whole"), whole_obs);
  ASSERT_EQ(whole.outcome, generate_outcome::published) << whole.message;
  const auto expected = locs_in(d / "whole");
  // 3,000 pages, and "not a url" read as a relative reference.
  ASSERT_EQ(expected.size(), 3'001u);

  for (std::uint32_t n : {1u, 2u, 7u}) {
    SCOPED_TRACE(n);
    const std::string out = d / ("sharded-" + std::to_string(n));
    counting obs;
    std::uint64_t records = 0, others = 0, duplicates = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      generate_report r = run_shard(input, out, i, n, &obs);
      records += r.records;
      others += r.other_shards;
      duplicates += r.duplicates;
      EXPECT_TRUE(testing::list_files(out).empty())
          << "a shard wrote into --out";
    }
    EXPECT_EQ(records, whole.records);
    EXPECT_EQ(duplicates, whole.duplicates);
    EXPECT_EQ(obs.rejects, whole_obs.rejects) << "a bad line reported twice";
    EXPECT_EQ(records + others, whole.records * n);

    merge_options m;
    m.out_dir = out;
    merge_report merged = merge_shards(m);
    ASSERT_EQ(merged.outcome, merge_outcome::published) << merged.message;
    EXPECT_EQ(merged.shards, n);
    EXPECT_EQ(merged.written, whole.written);
    EXPECT_EQ(merged.duplicates, whole.duplicates);
    EXPECT_EQ(merged.rejected, whole.rejected);
    EXPECT_EQ(merged.entry_url, std::string(base) + "sitemap.xml");
    EXPECT_EQ(locs_in(out), expected);
    if (n == 1) {
      EXPECT_EQ(testing::snapshot(out), testing::snapshot(d / "whole"))
          << "one shard merged is not byte for byte one run";
    }
  }
}

// A rerun of the shards and the merge publishes the same bytes; the
// previous merge's files are replaced by the publisher as for any run.
TEST(Shard, ARerunPublishesTheSameBytes) {
  temp_dir d;
  const std::string input = write_input(d);
  const std::string out = d / "out";
  std::map<std::string, std::string> first;
  for (int round = 0; round < 2; ++round) {
    for (std::uint32_t i = 0; i < 3; ++i) run_shard(input, out, i, 3);
    merge_options m;
    m.out_dir = out;
    ASSERT_EQ(merge_shards(m).outcome, merge_outcome::published);
    if (round == 0) first = testing::snapshot(out);
  }
  EXPECT_EQ(testing::snapshot(out), first);
}

// An export already split by shard_of() is read one partition per shard.
TEST(Shard, PresplitInputsAreTakenWhole) {
  temp_dir d;
  std::ofstream parts[3] = {std::ofstream(d / "part-0.txt"),
                            std::ofstream(d / "part-1.txt"),
                            std::ofstream(d / "part-2.txt")};
  for (int i = 0; i < 2'000; ++i) {
    const std::string url = std::string(base) + "x/" + std::to_string(i);
    parts[shard_of(url, 3)] << url << "\n";
  }
  for (auto& p : parts) p.close();
  const std::string out = d / "out";
  for (std::uint32_t i = 0; i < 3; ++i) {
    generate_options o = options(d / ("part-" + std::to_string(i) + ".txt"), out);
    o.shard = {i, 3, /*presplit=*/true, ""};
    generate_observer quiet;
    generate_report r = generate(o, quiet);
    ASSERT_EQ(r.outcome, generate_outcome::published) << r.message;
    EXPECT_EQ(r.other_shards, 0u) << "a presplit shard filtered records";
  }
  merge_options m;
  m.out_dir = out;
  merge_report merged = merge_shards(m);
  ASSERT_EQ(merged.outcome, merge_outcome::published) << merged.message;
  EXPECT_EQ(locs_in(out).size(), 2'000u);
}

// What makes the shards not one set is refused by name, and the set
// published before stays byte for byte.
TEST(Shard, ShardsThatAreNotOneSetAreRefusedAndNothingIsPublished) {
  temp_dir d;
  const std::string input = write_input(d);
  const std::string out = d / "out";
  for (std::uint32_t i = 0; i < 3; ++i) run_shard(input, out, i, 3);
  merge_options m;
  m.out_dir = out;
  ASSERT_EQ(merge_shards(m).outcome, merge_outcome::published);
  const auto published = testing::snapshot(out);
  const std::string shards = d / ".sitemill/out/shards";
  auto refused = [&](const merge_options& with, const std::string& why) {
    merge_report r = merge_shards(with);
    EXPECT_EQ(r.outcome, merge_outcome::refused) << r.message;
    EXPECT_NE(r.message.find(why), std::string::npos) << r.message;
    EXPECT_EQ(testing::snapshot(out), published) << "a refused merge wrote";
  };

  merge_options twice = m;
  twice.manifests = {shards + "/sitemap-0-of-3/shard.json",
                     shards + "/sitemap-1-of-3/shard.json",
                     shards + "/sitemap-1-of-3/shard.json",
                     shards + "/sitemap-2-of-3/shard.json"};
  refused(twice, "shard 1 of 3 is given more than once");

  // A shard of a run with other limits.
  generate_options other = options(input, out);
  other.max_urls = 400;
  other.shard = {1, 3, false, ""};
  generate_observer quiet;
  ASSERT_EQ(generate(other, quiet).outcome, generate_outcome::published);
  refused(m, "are not shards of one set: max_urls=500");
  run_shard(input, out, 1, 3);

  // A stale shard of a run with another count.
  run_shard(input, out, 0, 2);
  refused(m, "different shard counts");
  std::filesystem::remove_all(shards + "/sitemap-0-of-2");

  std::filesystem::remove_all(shards + "/sitemap-2-of-3");
  refused(m, "shard 2 of 3 is missing");
}

TEST(Shard, AnEmptyShardIsStillAShard) {
  temp_dir d;
  const std::string url = std::string(base) + "only";
  testing::write_file(d / "one.txt", url + "\n");
  const std::string out = d / "out";
  for (std::uint32_t i = 0; i < 4; ++i) {
    generate_report r = run_shard(d / "one.txt", out, i, 4);
    EXPECT_EQ(r.written, i == shard_of(url, 4) ? 1u : 0u);
  }
  merge_options m;
  m.out_dir = out;
  merge_report merged = merge_shards(m);
  ASSERT_EQ(merged.outcome, merge_outcome::published) << merged.message;
  EXPECT_EQ(locs_in(out), std::multiset<std::string>{url});
}

TEST(Shard, HreflangClustersCannotBeSplit) {
  temp_dir d;
  testing::write_file(
      d / "pages.jsonl",
      "{\"loc\":\"https://www.example.com/en\",\"alternates\":{\"de\":"
      "\"https://www.example.com/de\"}}\n");
  generate_options o = options(d / "pages.jsonl", d / "out");
  o.shard = {shard_of("https://www.example.com/en", 2), 2, false, ""};
  generate_observer quiet;
  generate_report r = generate(o, quiet);
  EXPECT_EQ(r.outcome, generate_outcome::failed);
  EXPECT_NE(r.message.find("pages.jsonl:1: hreflang alternates need every "
                           "page of a cluster in one run"),
            std::string::npos)
      << r.message;
}

// A merge killed at each step of its publish leaves the old set or the
// new one, whole, and the next merge publishes the new one.
TEST(Shard, AMergeKilledAtAnyStepLeavesAWholeSet) {
  temp_dir d;
  const std::string input = write_input(d);
  const std::string out = d / "out";
  merge_options m;
  m.out_dir = out;
  // Two shards of `max_urls` per file, merged unless told not to.
  auto shards_of = [&](std::size_t max_urls) {
    for (std::uint32_t i = 0; i < 2; ++i) {
      generate_options o = options(input, out);
      o.max_urls = max_urls;
      o.shard = {i, 2, false, ""};
      generate_observer quiet;
      ASSERT_EQ(generate(o, quiet).outcome, generate_outcome::published);
    }
  };
  for (publish_step step :
       {publish_step::temporary_created, publish_step::journal_written,
        publish_step::child_renamed, publish_step::children_renamed,
        publish_step::entry_renamed, publish_step::manifest_written,
        publish_step::old_removed}) {
    SCOPED_TRACE(std::string(to_string(step)));
    shards_of(500);  // the old set
    ASSERT_EQ(merge_shards(m).outcome, merge_outcome::published);
    const auto old_locs = locs_in(out);
    shards_of(300);  // the new one: every file changes
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      (void)detail::merge_shards(m, [step](publish_step s) {
        if (s == step) ::_exit(9);
      });
      ::_exit(0);
    }
    int wstatus = 0;
    ASSERT_EQ(::waitpid(pid, &wstatus, 0), pid);
    ASSERT_TRUE(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 9)
        << "the step was never reached";
    // Whatever the entry points at is whole: every child it lists exists.
    const std::string index = testing::read_file(out + "/sitemap.xml");
    static const std::regex loc("<loc>https://www.example.com/([^<]*)</loc>");
    std::size_t listed = 0;
    for (std::sregex_iterator it(index.begin(), index.end(), loc), end;
         it != end; ++it, ++listed)
      EXPECT_TRUE(std::filesystem::exists(out + "/" + (*it)[1].str()))
          << (*it)[1] << " is listed but gone";
    EXPECT_GT(listed, 0u);
    merge_report again = merge_shards(m);
    ASSERT_EQ(again.outcome, merge_outcome::published) << again.message;
    EXPECT_EQ(locs_in(out), old_locs) << "the same URLs, in other files";
    for (const published_file& f : again.files)
      if (f.type == document_type::urlset) {
        EXPECT_LE(f.urls, 300u) << f.path << " is of the old set";
      }
    EXPECT_EQ(testing::list_files(out).size(), again.files.size())
        << "files of the old set or of the killed merge were left";
  }
}

}  // namespace
}  // namespace sitemill
