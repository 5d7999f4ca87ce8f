#include "generate_summary.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>

#include "command.h"
#include "docs_location.h"
#include "sitemill/numbers.h"
#include "sitemill/publish/bookkeeping.h"
#include "sitemill/robots/robots.h"
#include "sitemill/source/site_source.h"
#include "sitemill/url/url.h"

namespace sitemill::cli {
namespace {

// "published 3 files to DIR (entry URL)" ("would publish" in a dry run),
// and how many indexes there are.
std::string published_line(const set_report& set, bool dry_run,
                           std::size_t& indexes) {
  indexes = 0;
  for (const auto& f : set.files)
    indexes += f.type == document_type::sitemapindex;
  return (dry_run ? "would publish " : "published ") +
         counted(set.files.size(), "file", "files") + " to " + set.out_dir +
         " (entry " + set.entry_url + ")";
}

// A dry run's list of a set's files: what each would be, as the set's
// manifest would record it. A few dozen lines at most: --json has them all.
void print_files(const set_report& set) {
  constexpr std::size_t shown = 20;
  for (std::size_t i = 0; i < set.files.size() && i < shown; ++i) {
    const published_file& f = set.files[i];
    std::string what(to_string(f.type));
    if (f.type == document_type::sitemapindex)
      what += ", " + counted(f.urls, "sitemap", "sitemaps");
    else if (f.type == document_type::urlset || f.type == document_type::text)
      what += ", " + counted(f.urls, "URL", "URLs");
    what += ", " + human_bytes(f.bytes) + " uncompressed";
    std::fprintf(stderr, "sitemill:   %s (%s)%s\n", f.path.c_str(),
                 what.c_str(), f.path == set.entry ? ", the entry" : "");
  }
  if (set.files.size() > shown)
    std::fprintf(
        stderr, "sitemill:   and %s (--json lists every one)\n",
        counted(set.files.size() - shown, "more file", "more files").c_str());
}

// One line per section, the default one first, then by name; a few dozen
// at most: --json has them all.
void print_sections(const std::vector<section_total>& sections, bool dry_run) {
  if (sections.empty()) return;
  constexpr std::size_t shown = 30;
  std::size_t width = 0;
  for (const section_total& t : sections)
    width = std::max(width, t.name.empty() ? 9 : t.name.size());
  std::fprintf(stderr, "sitemill: %s%s:\n",
               counted(sections.size(), "section", "sections").c_str(),
               dry_run ? " would be written" : "");
  for (std::size_t i = 0; i < sections.size() && i < shown; ++i) {
    const section_total& t = sections[i];
    const std::string name = t.name.empty() ? "(default)" : t.name;
    std::fprintf(stderr, "sitemill:   %-*s %s in %s, %s uncompressed\n",
                 static_cast<int>(width), name.c_str(),
                 counted(t.urls, "URL", "URLs").c_str(),
                 counted(t.files, "file", "files").c_str(),
                 human_bytes(t.bytes).c_str());
  }
  if (sections.size() > shown)
    std::fprintf(
        stderr, "sitemill:   and %s (--json lists every one)\n",
        counted(sections.size() - shown, "more section", "more sections")
            .c_str());
}

}  // namespace

void print_summary(const generate_report& r) {
  auto count = [](std::uint64_t n) { return with_commas(n); };
  std::size_t indexes = 0;
  std::string line = "sitemill: ";
  if (r.sets.size() == 1) {
    line += published_line(r.sets.front(), r.dry_run, indexes) + ": ";
    if (r.dry_run) {
      line.pop_back();  // the space after ':'
      std::fprintf(stderr, "%s\n", line.c_str());
      print_files(r.sets.front());
      line = "sitemill: ";
    }
  } else {
    // One line per host's set, then the run's counts.
    for (const set_report& set : r.sets) {
      std::size_t its_indexes = 0;
      std::string its = published_line(set, r.dry_run, its_indexes);
      indexes = std::max(indexes, its_indexes);
      std::fprintf(stderr, "sitemill: %s: %s\n", its.c_str(),
                   counted(set.written, "URL", "URLs").c_str());
      if (r.dry_run) print_files(set);
    }
    line += counted(r.sets.size(), "set", "sets") + ": ";
  }
  line += counted(r.written, "URL", "URLs") +
          (r.dry_run ? " would be written, " : " written, ") +
          counted(r.duplicates, "duplicate", "duplicates") + ", ";
  if (r.filtered > 0)
    line += count(r.filtered) + " filtered out by --include/--exclude, ";
  line += count(r.rejected) + " rejected, " +
          counted(r.warnings, "warning", "warnings") + ", from " +
          counted(r.records, "record", "records");
  if (r.skipped > 0)
    line += " (" + counted(r.skipped, "page", "pages") + " skipped)";
  if (r.spilled > 0)
    line += "; past --memory-budget, " +
            counted(r.spilled, "record was", "records were") +
            " checked for duplicates on disk (" +
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
  print_sections(r.sections, r.dry_run);
  if (indexes > 1)
    std::fprintf(stderr,
                 "sitemill: %s index files %s needed; submit each of them "
                 "(see --json \"files\")\n",
                 count(indexes).c_str(), r.dry_run ? "would be" : "were");
  if (r.dry_run && r.changes)
    std::fprintf(stderr,
                 "sitemill: against --state: %s added, %s changed, %s "
                 "removed\n",
                 counted(r.changes->added.size(), "URL", "URLs").c_str(),
                 count(r.changes->changed.size()).c_str(),
                 count(r.changes->removed.size()).c_str());
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

void print_bookkeeping_location(const generate_report& r,
                                const std::vector<std::string>& from_dirs,
                                const std::string& out_dir,
                                const std::string& manifest_dir, bool quiet) {
  if (quiet || r.sets.empty() || !manifest_dir.empty() || out_dir.empty() ||
      out_dir == "-" || out_dir.find("://") != std::string::npos)
    return;
  auto book = default_bookkeeping_dir(out_dir);
  if (!book) return;
  for (const std::string& dir : from_dirs) {
    const std::string served =
        site_directory_url(dir, r.sets.front().base_url, *book);
    if (served.empty()) continue;
    std::fprintf(stderr,
                 "sitemill: warning: the set's bookkeeping (its lock, manifest "
                 "and journal) is kept in %s, inside --from-dir %s, so a "
                 "deploy of it serves them at %s: give --manifest-dir a "
                 "directory outside %s (%s)\n",
                 book->c_str(), dir.c_str(), served.c_str(), dir.c_str(),
                 cite_docs("docs/publishing.md").c_str());
    return;
  }
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
                 "sitemill: %s dropped (%s); --date-format and "
                 "--timezone read other forms (%s)\n",
                 counted(l.dropped, "lastmod", "lastmods").c_str(),
                 first.c_str(), cite_docs("docs/inputs.md").c_str());
  }
  if (l.zone_assumed > 0)
    std::fprintf(stderr,
                 "sitemill: %s without a time zone read as UTC; "
                 "--timezone names their zone\n",
                 counted(l.zone_assumed, "lastmod", "lastmods").c_str());
}

void print_shard_summary(const generate_report& r, const shard_spec& shard,
                         const std::string& out_dir) {
  std::fprintf(stderr,
               "sitemill: shard %u of %u: %s written, %s, %s "
               "rejected, %s, from %s (%s of other shards) "
               "to %s; run 'sitemill merge --out %s' once every shard is "
               "done\n",
               shard.index, shard.count,
               counted(r.written, "URL", "URLs").c_str(),
               counted(r.duplicates, "duplicate", "duplicates").c_str(),
               with_commas(r.rejected).c_str(),
               counted(r.warnings, "warning", "warnings").c_str(),
               counted(r.records, "record", "records").c_str(),
               with_commas(r.other_shards).c_str(), r.shard_dir.c_str(),
               out_dir.c_str());
}

void print_dry_run_announcing(const announce_options& asked) {
  std::string untouched;
  if (!asked.robots_path.empty()) untouched = asked.robots_path + " not edited";
  if (!asked.indexnow.key.empty())
    untouched +=
        (untouched.empty() ? "" : ", ") + std::string("IndexNow not called");
  if (submits_anywhere(asked.submit))
    untouched += (untouched.empty() ? "" : ", ") +
                 std::string("no sitemap submitted (--submit)");
  std::fprintf(stderr, "sitemill: dry run: nothing was published%s%s\n",
               untouched.empty() ? "" : "; ", untouched.c_str());
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
      std::fprintf(stderr, "sitemill: %s %s (%s added)\n",
                   robots->update->written ? "updated" : "left unchanged",
                   robots->path.c_str(),
                   counted(added, "Sitemap line", "Sitemap lines").c_str());
    }
  }
  if (const auto& submit = done.submit) {
    if (submit->failure) {
      std::fprintf(stderr, "sitemill generate: --submit: %s\n",
                   submit->failure->message.c_str());
      code = exit_usage;
    } else {
      const submit_report& r = *submit->report;
      if (r.token && !r.token->ok())
        std::fprintf(stderr, "sitemill: submit: google token: %s\n",
                     r.token->message.c_str());
      for (const submit_request& q : r.requests)
        if (!quiet || !q.ok())
          std::fprintf(stderr, "sitemill: submit: %s: %s: %s\n",
                       std::string(to_string(q.engine)).c_str(),
                       q.sitemap.c_str(), q.message.c_str());
      if (!r.ok()) code = std::max(code, int{exit_data});
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
