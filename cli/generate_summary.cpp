#include "generate_summary.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>

#include "command.h"
#include "sitemill/robots/robots.h"
#include "sitemill/url/url.h"

namespace sitemill::cli {
namespace {

// "published 3 files to DIR (entry URL)", and how many indexes there are.
std::string published_line(const set_report& set, std::size_t& indexes) {
  indexes = 0;
  for (const auto& f : set.files)
    indexes += f.type == document_type::sitemapindex;
  return "published " + std::to_string(set.files.size()) +
         (set.files.size() == 1 ? " file" : " files") + " to " + set.out_dir +
         " (entry " + set.entry_url + ")";
}

}  // namespace

void print_summary(const generate_report& r) {
  auto count = [](std::uint64_t n) { return std::to_string(n); };
  std::size_t indexes = 0;
  std::string line = "sitemill: ";
  if (r.sets.size() == 1) {
    line += published_line(r.sets.front(), indexes) + ": ";
  } else {
    // One line per host's set, then the run's counts.
    for (const set_report& set : r.sets) {
      std::size_t its_indexes = 0;
      std::string its = published_line(set, its_indexes);
      indexes = std::max(indexes, its_indexes);
      std::fprintf(stderr, "sitemill: %s: %s URLs\n", its.c_str(),
                   count(set.written).c_str());
    }
    line += count(r.sets.size()) + " sets: ";
  }
  line += count(r.written) + " URLs written, " + count(r.duplicates) +
          " duplicates, ";
  if (r.filtered > 0)
    line += count(r.filtered) + " filtered out by --include/--exclude, ";
  line += count(r.rejected) + " rejected, " + count(r.warnings) +
          " warnings, from " + count(r.records) + " records";
  if (r.skipped > 0)
    line += " (" + count(r.skipped) + (r.skipped == 1 ? " page" : " pages") +
            " skipped)";
  if (r.spilled > 0)
    line += "; past --memory-budget, " + count(r.spilled) +
            " records were checked for duplicates on disk (" +
            count((r.spill_bytes + (1 << 20) - 1) >> 20) +
            " MiB of temporary files)";
  // An index entry's lastmod is the newest of its file's: say why the index
  // has none rather than leave a reader to wonder.
  std::string undated;  // the sets whose index has no lastmod, and why
  for (const set_report& set : r.sets)
    if (!set.dated) (undated += undated.empty() ? "" : ", ") += set.base_url;
  if (indexes > 0 && !undated.empty())
    line += r.sets.size() == 1
                ? "; no URL has a lastmod, so neither has the index"
                : "; no URL under " + undated +
                      " has a lastmod, so neither has its index";
  std::fprintf(stderr, "%s\n", line.c_str());
  if (indexes > 1)
    std::fprintf(stderr,
                 "sitemill: %zu index files were needed; submit each of them "
                 "(see --json \"files\")\n",
                 indexes);
  if (r.sets.size() > 1)
    std::fprintf(stderr,
                 "sitemill: each set is submitted for its own host (its "
                 "robots.txt, or that host's Search Console property)\n");
}

namespace {

// True when the robots.txt of one of `from_dirs` served at the host's root
// already names `entry_url` in a Sitemap: line.
bool robots_names(const std::vector<std::string>& from_dirs,
                  const std::string& base_url, const std::string& entry_url) {
  normalized_url base;
  if (normalize_url(base_url, base) != url_problem::ok || base.path() != "/")
    return false;
  const std::string robots_url = std::string(base.origin()) + "/robots.txt";
  for (const std::string& dir : from_dirs) {
    std::ifstream in(dir + "/robots.txt", std::ios::binary);
    if (!in) continue;
    std::string text((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
    for (const robots_sitemap& s : find_sitemaps(text, robots_url).sitemaps)
      if (s.url == entry_url) return true;
  }
  return false;
}

}  // namespace

void print_sitemaps_location(const generate_report& r,
                             const std::string& robots_path,
                             const std::vector<std::string>& from_dirs,
                             const std::string& inferred_from,
                             const std::string& out_dir, bool quiet) {
  if (r.sets.size() != 1 || quiet) return;
  const set_report& set = r.sets.front();
  if (!inferred_from.empty())
    std::fprintf(stderr,
                 "sitemill: --out %s is inside --from-dir %s: the sitemaps "
                 "are served at %s (--sitemaps-url names another URL)\n",
                 out_dir.c_str(), inferred_from.c_str(),
                 set.sitemaps_url.c_str());
  if (sitemaps_cover_urls(set) || !robots_path.empty() ||
      robots_names(from_dirs, set.base_url, set.entry_url))
    return;
  std::fprintf(stderr,
               "sitemill: warning: the sitemaps at %s list URLs outside that "
               "folder (under %s), which search engines take only when the "
               "host's robots.txt names %s in a Sitemap: line: give --robots "
               "with the site's robots.txt (or add that line, or submit it "
               "in the site's Search Console property; docs/publishing.md)\n",
               set.sitemaps_url.c_str(), set.base_url.c_str(),
               set.entry_url.c_str());
}

void print_lastmod_summary(const generate_report& r) {
  const lastmod_counts& l = r.lastmods;
  if (l.dropped > 0) {
    std::string first;
    for (const lastmod_sample& d : l.first_dropped) {
      first += first.empty() ? "first " : ", ";
      first += d.input + ":" + std::to_string(d.line) + " \"" + d.text + "\"";
    }
    std::fprintf(stderr,
                 "sitemill: %llu lastmod%s dropped (%s); --date-format and "
                 "--timezone read other forms (docs/inputs.md)\n",
                 static_cast<unsigned long long>(l.dropped),
                 l.dropped == 1 ? "" : "s", first.c_str());
  }
  if (l.zone_assumed > 0)
    std::fprintf(stderr,
                 "sitemill: %llu lastmod%s without a time zone read as UTC; "
                 "--timezone names their zone\n",
                 static_cast<unsigned long long>(l.zone_assumed),
                 l.zone_assumed == 1 ? "" : "s");
}

void print_shard_summary(const generate_report& r, const shard_spec& shard,
                         const std::string& out_dir) {
  auto count = [](std::uint64_t n) { return std::to_string(n); };
  std::fprintf(stderr,
               "sitemill: shard %u of %u: %s URLs written, %s duplicates, %s "
               "rejected, %s warnings, from %s records (%s of other shards) "
               "to %s; run 'sitemill merge --out %s' once every shard is "
               "done\n",
               shard.index, shard.count, count(r.written).c_str(),
               count(r.duplicates).c_str(), count(r.rejected).c_str(),
               count(r.warnings).c_str(), count(r.records).c_str(),
               count(r.other_shards).c_str(), r.shard_dir.c_str(),
               out_dir.c_str());
}

int print_announcement(const announcement& done, bool quiet) {
  int code = exit_ok;
  if (const auto& robots = done.robots) {
    if (robots->failure) {
      std::fprintf(stderr, "sitemill generate: --robots: %s\n",
                   robots->failure->message.c_str());
      code = exit_usage;
    } else if (!quiet) {
      const std::size_t added = robots->update->edit.added.size();
      std::fprintf(stderr, "sitemill: %s %s (%zu Sitemap line%s added)\n",
                   robots->update->written ? "updated" : "left unchanged",
                   robots->path.c_str(), added, added == 1 ? "" : "s");
    }
  }
  if (const auto& indexnow = done.indexnow) {
    if (indexnow->urls.empty()) {
      if (!quiet)
        std::fprintf(stderr,
                     "sitemill: nothing changed; IndexNow not called\n");
      return code;
    }
    if (indexnow->failure) {
      std::fprintf(stderr, "sitemill generate: IndexNow: %s\n",
                   indexnow->failure->message.c_str());
      return exit_usage;
    }
    const indexnow_report& sent = *indexnow->report;
    for (const auto& rej : sent.rejected)
      std::fprintf(stderr, "sitemill: IndexNow: not sent: %s: %s\n",
                   rej.url.c_str(), rej.reason.c_str());
    for (const auto& b : sent.batches)
      if (!quiet || b.outcome != indexnow_outcome::accepted)
        std::fprintf(stderr, "sitemill: IndexNow: %s\n", b.message.c_str());
    if (!sent.ok()) code = exit_data;
  }
  return code;
}

}  // namespace sitemill::cli
