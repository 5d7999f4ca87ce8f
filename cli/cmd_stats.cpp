// sitemill stats: the numbers of a published set, a sitemap or a URL.
#include <cstdio>
#include <string>

#include "command.h"
#include "inspect_flags.h"
#include "sitemill/inspect/stats.h"
#include "sitemill/numbers.h"
#include "sitemill/report/stats_json.h"
#include "vocabulary.h"

namespace sitemill::cli {
namespace {

struct stats_cli_options {
  std::string input;
  inspect_flags flags;
  bool json_out = false;
  bool no_schema = false;
};

void row(const std::string& key, std::uint64_t n, std::uint64_t of) {
  std::printf("  %-24s %12s  %6s\n", key.c_str(), with_commas(n).c_str(),
              percent_of(n, of).c_str());
}

void print_human(const set_stats& s) {
  std::printf("%s (entry %s)\n", s.input.c_str(), s.entry.c_str());
  std::printf(
      "URLs: %s (%s distinct, %s)\n", with_commas(s.urls).c_str(),
      with_commas(s.distinct_urls).c_str(),
      counted(s.duplicate_entries, "duplicate entry", "duplicate entries")
          .c_str());
  std::printf("files: %s with URLs, %s, %s gzipped\n",
              with_commas(s.files).c_str(),
              counted(s.indexes, "index", "indexes").c_str(),
              with_commas(s.gzipped_documents).c_str());
  std::printf("bytes: %s uncompressed", with_commas(s.bytes).c_str());
  if (s.bytes_measured > 0)
    std::printf(", %s on disk (ratio %.3f over the files and objects read)",
                with_commas(s.bytes_on_disk).c_str(), s.compression_ratio());
  std::printf("\n");

  std::printf("\nURLs per file:\n");
  for (const auto& d : s.documents) {
    std::printf("  %-40s %-12s %12s entries %14s bytes", d.source.c_str(),
                std::string(to_string(d.kind)).c_str(),
                with_commas(d.entries).c_str(), with_commas(d.bytes).c_str());
    if (d.bytes_on_disk)
      std::printf(" %12s on disk", with_commas(*d.bytes_on_disk).c_str());
    std::printf("%s\n", d.complete ? "" : "  (not read to its end)");
  }

  if (!s.sections.empty()) {
    std::printf("\nURLs per section (%s):\n",
                s.sections_recorded ? "as the manifest records them"
                                    : "by file name");
    for (const section_stats& t : s.sections)
      std::printf("  %-24s %12s  %6s  in %s, %s bytes\n",
                  t.name.empty() ? "(default)" : t.name.c_str(),
                  with_commas(t.urls).c_str(),
                  percent_of(t.urls, s.urls).c_str(),
                  counted(t.files, "file", "files").c_str(),
                  with_commas(t.bytes).c_str());
  }

  std::printf(
      "\nURLs per top-level path (the first %s distinct counted, the %s "
      "largest listed):\n",
      with_commas(tracked_segments).c_str(),
      with_commas(listed_segments).c_str());
  for (const auto& kc : s.segments)
    row(kc.key == "/" ? "/ (the root)" : "/" + kc.key + "/", kc.count, s.urls);
  if (s.segments_other > 0) row("other", s.segments_other, s.urls);
  if (s.urls_not_parsed > 0)
    row("not an http(s) URL", s.urls_not_parsed, s.urls);

  std::printf("\nlastmod by month:\n");
  for (const auto& kc : s.lastmod_months) row(kc.key, kc.count, s.urls);
  row("none", s.lastmod_none, s.urls);
  if (s.lastmod_invalid > 0) row("not a date", s.lastmod_invalid, s.urls);

  std::printf("\nchangefreq:\n");
  for (std::size_t i = 0; i < changefreq_slots; ++i)
    if (s.changefreq[i] > 0)
      row(std::string(changefreq_label(i)), s.changefreq[i], s.urls);
  std::printf("\npriority:\n");
  for (std::size_t i = 0; i < priority_slots; ++i)
    if (s.priority[i] > 0)
      row(std::string(priority_label(i)), s.priority[i], s.urls);

  std::printf("\nextensions (URLs with one, items):\n");
  for (std::size_t k = 0; k < extension_kind_count; ++k)
    std::printf(
        "  %-24s %12s  %12s items\n",
        std::string(namespace_of(static_cast<extension_kind>(k)).name).c_str(),
        with_commas(s.extensions[k].urls).c_str(),
        with_commas(s.extensions[k].items).c_str());

  std::printf(
      "\nfindings of the parser (%s, %s, %s; "
      "run sitemill check for every rule):\n",
      counted(s.errors, "error", "errors").c_str(),
      counted(s.warnings, "warning", "warnings").c_str(),
      counted(s.infos, "info", "infos").c_str());
  for (const auto& kc : s.findings)
    std::printf("  %-40s %12s\n", kc.key.c_str(),
                with_commas(kc.count).c_str());
  if (s.not_read > 0) {
    std::printf("\ndocuments not read (or not to their end): %s\n",
                with_commas(s.not_read).c_str());
    for (const auto& m : s.not_read_examples) std::printf("  %s\n", m.c_str());
  }
  std::fflush(stdout);
}

int run_stats(stats_cli_options& o) {
  inspect_options options = o.flags.options();
  // The XSD comparison costs about a fifth of a stats run (1M URLs: 2.6 s
  // against 2.1 s; check takes 2.9 s) and gives the findings most of their
  // codes, so it is on unless asked off.
  options.parse.schema_checks = !o.no_schema;
  const vocabulary words = inspect_words();
  auto in = resolve_set_input(o.input, options.set_name, options.http);
  if (!in) {
    std::fprintf(stderr, "sitemill stats: %s\n",
                 in_cli_words(in.err().message, words).c_str());
    return exit_usage;
  }
  auto s = compute_stats(*in, options, [] { return interrupted(); });
  if (interrupted()) {
    std::fprintf(stderr, "sitemill stats: interrupted\n");
    return exit_interrupted;
  }
  if (!s) {
    std::fprintf(stderr, "sitemill stats: %s\n",
                 in_cli_words(s.err().message, words).c_str());
    return exit_usage;
  }
  if (o.json_out) {
    if (!json_to_stdout("stats",
                        [&](sink& out) { return write_stats_json(out, *s); }))
      return exit_usage;
  } else {
    print_human(*s);
  }
  return exit_ok;
}

}  // namespace

command_runner setup_stats(CLI::App& app) {
  auto o = std::make_shared<stats_cli_options>();
  CLI::App* cmd = app.add_subcommand(
      "stats",
      "Print the numbers of a sitemap set, local or remote.\n"
      "The numbers of a sitemap set: URLs, files, bytes and the gzip ratio, "
      "URLs per file\n"
      "and per top-level path, lastmod by month (and how many have none), "
      "changefreq and\n"
      "priority, hreflang/image/video/news items, duplicates, and the "
      "parser's findings\n"
      "by code. INPUT is a directory with a published set (its manifest, in "
      ".sitemill/NAME/\n"
      "beside it, else sitemap.xml or sitemap.xml.gz), a manifest, a sitemap "
      "or index "
      "file (gzip or\n"
      "not), the http(s) URL of one, or a site's root URL (the sitemaps its "
      "robots.txt\n"
      "names, else those at the common locations); an index's children are "
      "read as check "
      "reads them (beside\n"
      "a local index; fetched ones on the index's host only). Memory stays "
      "flat: counts,\n"
      "and 10-15 bytes per distinct URL for duplicates. Paths: the first "
      "1,000 distinct\n"
      "top-level segments are counted, the 50 largest listed, the rest are "
      "\"other\".\n"
      "The findings are those one document shows (with the XSD comparison, "
      "unless\n"
      "--no-schema; no cross-file rules): run sitemill check for every "
      "rule.\n" +
          std::string(bucket_input_help) +
          "Its objects' stored sizes count as bytes on disk.");
  cmd->add_option(
         "input", o->input,
         "A directory with a set, a manifest, a sitemap file, a sitemap's "
         "URL, a site's root URL, or s3://BUCKET/PREFIX/ (a set in a bucket) "
         "or s3://BUCKET/KEY")
      ->required();
  cmd->add_flag("--json", o->json_out,
                "Print one JSON object on stdout (keys: docs/stats-diff.md)");
  cmd->add_flag("--no-schema", o->no_schema,
                "Do not compare documents with the official schemas (about "
                "a fifth faster; the findings then hold little more than "
                "well-formedness)");
  o->flags.add_to(*cmd);
  cmd->footer(
      "Exit codes: 0 the numbers were printed (whatever they are); 2 the "
      "input cannot\n"
      "be read at all, or a usage error; 130 interrupted. A child that "
      "cannot be read\n"
      "is counted and named (\"documents not read\"), not an error.\n"
      "Examples:\n"
      "  sitemill stats public/                 # the set sitemill published "
      "there\n"
      "  sitemill stats public/sitemap.xml.gz\n"
      "  sitemill stats --json https://www.example.com/sitemap.xml | jq "
      ".lastmod\n"
      "  sitemill stats --set products public/  # one of several sets\n"
      "  sitemill stats https://www.example.com/  # the sitemaps robots.txt "
      "names\n"
      "  sitemill stats s3://sitemaps/site/      # the set published there");
  return [o] { return run_stats(*o); };
}

}  // namespace sitemill::cli
