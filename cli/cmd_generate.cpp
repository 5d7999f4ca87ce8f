// sitemill generate: URL lists in, a published sitemap set out.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>

#include "command.h"
#include "generate/testing.h"
#include "generate_flags.h"
#include "generate_reporter.h"
#include "generate_summary.h"
#include "inspect_flags.h"
#include "kill_at.h"
#include "sitemill/crawl/crawl_source.h"
#include "sitemill/generate/generate.h"
#include "sitemill/notify/announce.h"
#include "sitemill/notify/indexnow.h"
#include "sitemill/numbers.h"
#include "sitemill/report/generate_json.h"
#include "sitemill/source/log_source.h"
#include "sitemill/source/site_source.h"
#include "sitemill/source/sitemap_source.h"
#include "submit_flags.h"
#include "verbose.h"
#include "vocabulary.h"

namespace sitemill::cli {
namespace {

struct generate_cli_options {
  generate_options run;
  // The sources, turned into run.sources in this order: lists, then
  // directories, then sitemaps, then access logs (one source for them all),
  // then crawls.
  std::vector<std::string> inputs, from_dirs, from_sitemaps, from_logs,
      from_crawls;
  crawl_options crawl;
  crawl_access_flags access;           // --header to --netrc-file
  std::vector<std::string> base_urls;  // run.base_url, then more_base_urls
  log_source_options logs;
  std::string log_priority;
  site_source_options site;
  sitemap_source_options sitemap;
  std::string input_format;
  std::string columns;
  std::string delimiter;
  std::string shard;  // run.shard, as --shard gives it (I/N, auto, auto/N)
  std::string format = "xml";
  std::string compression_name = "normal";
  bool fast = false;
  bool no_gzip = false;
  std::string index = "auto";
  bool json_out = false;
  bool quiet = false;
  std::string lastmod_policy_name = "page";
  std::string index_files;
  bool keep_index_files = false;
  bool ignore_noindex = false, ignore_canonical = false, ignore_robots = false;
  bool ignore_nofollow = false;
  bool keep_error_pages = false, keep_redirects = false;
  std::vector<std::string> rewrite_base;
  pattern_flags patterns;
  std::vector<std::string> sections;  // run.sections, as NAME=GLOB
  std::string section_by = "none";
  CLI::App* command = nullptr;
  std::string robots_path;
  std::string indexnow_key;
  std::string indexnow_endpoint{indexnow_default_endpoint};
  std::string indexnow_key_location;
  submit_flags submit;
  submit_options submitting;  // --submit's, keys read before the run
  std::string now;  // --now, a W3C datetime
  // The --from-dir --out lies inside, when --sitemaps-url was inferred.
  std::string sitemaps_inferred_from;
};

void print_json(const generate_report& r, const generate_reporter& rep,
                std::span<const announcement> announced) {
  (void)json_to_stdout("generate", [&](sink& out) {
    return write_generate_json(out, r, rep.spool(), announced);
  });
}

// --robots and the --indexnow-* flags, as announce_sets() takes them.
announce_options announcing(const generate_cli_options& o) {
  announce_options a;
  a.robots_path = o.robots_path;
  a.indexnow.key = o.indexnow_key;
  a.indexnow.endpoint = o.indexnow_endpoint;
  a.indexnow.key_location = o.indexnow_key_location;
  a.submit = o.submitting;
  const bool quiet = o.quiet;
  a.indexnow.retry.sleep = [quiet](std::chrono::milliseconds d) {
    return retry_sleep(d, "sitemill generate", quiet);
  };
  a.submit.retry.sleep = a.indexnow.retry.sleep;
  return a;
}

// After a publish: list each set in robots.txt and tell IndexNow what
// changed (announce_sets()), with the library's messages put in generate's
// words, for stderr and --json alike.
std::vector<announcement> announce(const generate_cli_options& o,
                                   const generate_report& r,
                                   std::span<const term> words) {
  http_options http;
  http.trace = secret_free_trace(o.submitting);
  http_client client(std::move(http));
  std::vector<announcement> all =
      announce_sets(client, r.sets, r.changes, announcing(o));
  for (announcement& done : all) {
    if (done.robots && done.robots->failure)
      to_cli_words(done.robots->failure->message, words);
    if (done.indexnow && done.indexnow->failure)
      to_cli_words(done.indexnow->failure->message, words);
    if (done.submit) to_cli_words(*done.submit, words);
    if (done.indexnow && done.indexnow->report) {
      for (auto& rej : done.indexnow->report->rejected)
        to_cli_words(rej.reason, words);
      for (auto& b : done.indexnow->report->batches)
        to_cli_words(b.message, words);
    }
  }
  return all;
}

// --input-format and --columns, for the lists; false after saying why not.
bool read_list_flags(const generate_cli_options& o,
                     std::optional<input_format>& format, column_list& columns,
                     char& delimiter) {
  const std::optional<char> d = read_delimiter(o.delimiter);
  if (!d) {
    std::fprintf(stderr,
                 "sitemill generate: --delimiter takes one character, tab or "
                 "auto, not \"%s\"\n",
                 o.delimiter.c_str());
    return false;
  }
  delimiter = *d;
  if (!o.input_format.empty()) {
    format = parse_input_format(o.input_format);
    if (!format) {
      std::fprintf(
          stderr,
          "sitemill generate: --input-format must be txt, tsv, csv or jsonl\n");
      return false;
    }
  }
  if (!o.columns.empty()) {
    auto cols = parse_column_list(o.columns);
    if (!cols) {
      std::fprintf(stderr, "sitemill generate: --columns: %s\n",
                   cols.err().message.c_str());
      return false;
    }
    columns = std::move(*cols);
  }
  return true;
}

// --out -: what the library cannot know refuses a set on stdout, the
// --json object and robots.txt; generate_options::output refuses the rest.
std::string stdout_refusal(const generate_cli_options& o) {
  if (o.json_out) return "--json also prints on stdout; give --out DIR";
  if (!o.robots_path.empty() || !o.submit.engines.empty())
    return "--robots and --submit announce a published set; give --out DIR";
  return {};
}

// SIGINT or SIGTERM came once the publish had begun: it was finished.
int interrupted_after_publishing(const char* what) {
  std::fprintf(stderr,
               "sitemill generate: interrupted while publishing; the publish "
               "was finished and %s is live; nothing was announced (exit 3)\n",
               what);
  return exit_interrupted_published;
}

int run_generate(generate_cli_options& o) {
  generate_options& g = o.run;
  stdout_sink to_stdout;
  if (g.out_dir == "-") {
    if (std::string why = stdout_refusal(o); !why.empty()) {
      std::fprintf(stderr, "sitemill generate: --out -: %s\n", why.c_str());
      return exit_usage;
    }
    g.out_dir.clear();
    g.output = &to_stdout;
  }
  g.base_url = o.base_urls.front();
  g.more_base_urls.assign(o.base_urls.begin() + 1, o.base_urls.end());
  o.sitemaps_inferred_from = infer_sitemaps_url(o.from_dirs, o.base_urls, g);
  // Announcing is checked before the run, so a refusal publishes nothing.
  if (!o.submit.engines.empty() &&
      !o.submit.read(o.submitting, "sitemill generate", false))
    return exit_usage;
  if (status s = check_announce_options(announcing(o), o.base_urls,
                                        /*has_changes=*/!g.state_path.empty());
      !s) {
    std::fprintf(
        stderr, "sitemill generate: %s\n",
        in_cli_words(s.err().message, generate_words(o.indexnow_key)).c_str());
    return exit_usage;
  }
  std::optional<input_format> format;
  column_list columns;
  char delimiter = 0;
  if (!read_list_flags(o, format, columns, delimiter)) return exit_usage;
  g.type = o.format == "txt" ? document_type::text : document_type::urlset;
  if (g.xsl_href == "default") {
    g.xsl_href.clear();
    g.bundled_stylesheet = true;
  }
  g.gzip = !o.no_gzip && g.output == nullptr;  // a sitemap on stdout is plain
  g.level = o.fast                         ? compression::fast
            : o.compression_name == "fast" ? compression::fast
            : o.compression_name == "best" ? compression::best
                                           : compression::normal;
  g.index = o.index == "always" ? index_mode::always : index_mode::automatic;
  if (!parse_now_flag(o.now, "generate", g.now)) return exit_usage;
  if (!o.shard.empty()) {
    const bool presplit = g.shard.presplit;
    auto shard = parse_shard(o.shard);
    if (!shard) {
      std::fprintf(
          stderr, "sitemill generate: %s\n",
          in_cli_words(shard.err().message, generate_words("")).c_str());
      return exit_usage;
    }
    g.shard = std::move(*shard);
    g.shard.presplit = presplit;
    // A shard publishes nothing: what is announced is the merged set.
    if (!o.robots_path.empty() || !o.indexnow_key.empty() ||
        !o.submit.engines.empty()) {
      std::fprintf(stderr,
                   "sitemill generate: --shard publishes nothing until "
                   "'sitemill merge': announce (--robots, --indexnow-key, "
                   "--submit) "
                   "after the merge, and give --out DIR\n");
      return exit_usage;
    }
  }

  // The directory source. --include and --exclude patterns keep the order
  // they were given in, since a later pattern wins (as in .gitignore).
  if (auto policy = parse_lastmod_policy(o.lastmod_policy_name))
    o.site.lastmod = *policy;
  if (!o.index_files.empty()) {
    o.site.index_files.clear();
    for (std::size_t start = 0; start <= o.index_files.size();) {
      std::size_t comma = o.index_files.find(',', start);
      if (comma == std::string::npos) comma = o.index_files.size();
      if (comma > start)
        o.site.index_files.push_back(
            o.index_files.substr(start, comma - start));
      start = comma + 1;
    }
  }
  o.site.map_index_files = !o.keep_index_files;
  o.site.trace = verbose_trace();
  o.run.bucket.http.trace = verbose_trace();
  o.site.rules = {.honour_noindex = !o.ignore_noindex,
                  .honour_canonical = !o.ignore_canonical,
                  .honour_robots = !o.ignore_robots,
                  .honour_nofollow = !o.ignore_nofollow};
  o.site.skip_error_pages = !o.keep_error_pages;
  o.site.honour_refresh = !o.keep_redirects;
  // The patterns, in the order given: a directory applies them to its
  // files after its defaults (*.html, *.htm), every other source to its
  // URLs' paths. Those of a config file come first (include, exclude,
  // include-regex, exclude-regex), so a flag's patterns, later, win; a flag
  // replaces the file's values of the same option.
  std::vector<site_pattern> patterns = o.patterns.in_order(*o.command);
  if (!patterns.empty()) {
    o.site.patterns = default_site_patterns();
    o.site.patterns.insert(o.site.patterns.end(), patterns.begin(),
                           patterns.end());
    g.url_patterns = std::move(patterns);
  }
  read_section_flags(o.sections, o.section_by, g);

  if (o.rewrite_base.size() == 2)
    o.sitemap.rewrite_base = {o.rewrite_base[0], o.rewrite_base[1]};

  for (const auto& path : o.inputs)
    g.sources.push_back(list_source(path, format, columns, delimiter));
  for (const auto& dir : o.from_dirs) {
    site_source_options site = o.site;
    site.root = dir;
    std::error_code ignored;
    if (!g.manifest_dir.empty() &&
        std::filesystem::equivalent(dir, g.out_dir, ignored))
      site.manifest_dir = g.manifest_dir;
    g.sources.push_back(directory_source(std::move(site)));
  }
  for (const auto& location : o.from_sitemaps) {
    sitemap_source_options sitemap = o.sitemap;
    trace_walk(sitemap, sitemap.http);
    sitemap.location = location;
    // A published set's directory or bucket prefix reads as its entry.
    if (status s = resolve_set_target(sitemap.location, sitemap.http); !s) {
      std::fprintf(stderr, "sitemill generate: %s\n", s.message().c_str());
      return exit_usage;
    }
    g.sources.push_back(sitemap_source(std::move(sitemap)));
  }

  if (!o.from_logs.empty()) {
    log_source_options logs = o.logs;
    logs.paths = o.from_logs;
    logs.priority_from_popularity = o.log_priority == "popularity";
    g.sources.push_back(log_source(std::move(logs)));
  } else if (o.logs.keep_query || !o.log_priority.empty()) {
    std::fprintf(stderr,
                 "sitemill generate: --log-keep-query and --priority "
                 "apply to the pages of --from-log; give an access log\n");
    return exit_usage;
  }

  // The reporter is made below, after the sources; the crawls' progress
  // reaches it through this pointer, set before generate() runs.
  auto crawl_reporter = std::make_shared<generate_reporter*>(nullptr);
  auto logins = crawl_credentials(o.access, o.from_crawls, o.quiet);
  if (!logins) {
    std::fprintf(stderr, "sitemill generate: %s\n",
                 logins.err().message.c_str());
    return exit_usage;
  }
  for (std::size_t k = 0; k < o.from_crawls.size(); ++k) {
    crawl_options crawl = o.crawl;
    crawl.start_url = o.from_crawls[k];
    crawl.credentials = std::move((*logins)[k]);
    crawl.images = o.site.images;
    crawl.rules = o.site.rules;
    crawl.allow_private = o.sitemap.allow_private;
    crawl.patterns = g.url_patterns;
    crawl.trace = verbose_trace();
    crawl.progress = [crawl_reporter](const crawl_progress& p) {
      if (*crawl_reporter != nullptr) (*crawl_reporter)->crawl_progress(p);
    };
    g.sources.push_back(crawl_source(std::move(crawl)));
  }

  // Lists and sitemaps carry their images themselves; a flag that would
  // change nothing is a mistake worth saying.
  if (o.site.images && o.from_dirs.empty() && o.from_crawls.empty()) {
    std::fprintf(stderr,
                 "sitemill generate: --images lists the images of the pages "
                 "of --from-dir and --from-crawl; give a site directory or a "
                 "start URL\n");
    return exit_usage;
  }

  detail::generate_testing testing;
  if (const char* spec = std::getenv("SITEMILL_TEST_KILL_AT")) {
    auto hook = kill_at_hook(spec);
    if (!hook) {
      std::fprintf(stderr,
                   "sitemill generate: SITEMILL_TEST_KILL_AT must be STEP:N\n");
      return exit_usage;
    }
    testing.hook = std::move(*hook);
  }

  const vocabulary words = generate_words(o.indexnow_key);
  generate_reporter rep(o.json_out, o.quiet, words);
  // Each duplicate with the record it repeats: listed by --json, printed
  // under -v (it costs duplicate detection 8 bytes per URL).
  g.report_duplicates = o.json_out || (verbose() && !o.quiet);
  *crawl_reporter = &rep;
  generate_report r = detail::generate(g, rep, testing);
  rep.clear_progress();
  rep.print_hidden_count();
  if (!o.quiet) print_lastmod_summary(r);

  if (r.outcome == generate_outcome::published && g.output != nullptr) {
    if (!o.quiet)
      std::fprintf(stderr,
                   "sitemill: wrote %s to stdout (%s, %s rejected, from "
                   "%s)\n",
                   counted(r.written, "URL", "URLs").c_str(),
                   counted(r.duplicates, "duplicate", "duplicates").c_str(),
                   with_commas(r.rejected).c_str(),
                   counted(r.records, "record", "records").c_str());
    int code = exit_ok;
    for (const announcement& one : announce(o, r, words))
      code = std::max(code, print_announcement(one, o.quiet));
    return code;
  }
  if (r.outcome == generate_outcome::published && !r.shard_dir.empty()) {
    if (!o.quiet) print_shard_summary(r, g.shard, g.out_dir);
    if (o.json_out) print_json(r, rep, {});
    return interrupted() ? interrupted_after_publishing("the shard") : exit_ok;
  }
  if (r.outcome == generate_outcome::published && r.dry_run) {
    if (!o.quiet) {
      print_summary(r);
      print_dry_run_announcing(announcing(o));
    }
    if (o.json_out) print_json(r, rep, {});
    return exit_ok;
  }
  if (r.outcome == generate_outcome::published) {
    if (!o.quiet) print_summary(r);
    print_sitemaps_location(r, o.robots_path, o.from_dirs,
                            o.sitemaps_inferred_from, g.out_dir, o.quiet);
    print_bookkeeping_location(r, o.from_dirs, g.out_dir, g.manifest_dir,
                               o.quiet);
    // A signal during the publish did not stop it (the journal makes it
    // finish either way); it stops what comes after.
    if (interrupted()) {
      if (o.json_out) print_json(r, rep, {});
      return interrupted_after_publishing("the new set");
    }
    const std::vector<announcement> done = announce(o, r, words);
    if (o.json_out) print_json(r, rep, done);
    int code = exit_ok;
    for (const announcement& one : done)
      code = std::max(code, print_announcement(one, o.quiet));
    return code;
  }
  if (o.json_out) print_json(r, rep, {});
  std::fprintf(stderr, "sitemill generate: %s\n",
               in_cli_words(r.message, words).c_str());
  switch (r.outcome) {
    case generate_outcome::no_valid_urls:
    case generate_outcome::strict_failed:
    case generate_outcome::needs_several_files:
      return exit_data;
    case generate_outcome::cancelled:
      return exit_interrupted;
    default:
      return exit_usage;
  }
}

}  // namespace

command_runner setup_generate(CLI::App& app) {
  auto o = std::make_shared<generate_cli_options>();
  CLI::App* cmd = app.add_subcommand(
      "generate",
      "Turn lists of a site's URLs into a published sitemap set.\n"
      "Inputs are .txt (one URL per line), .tsv/.csv (header row with loc and "
      "optional\n"
      "lastmod, changefreq, priority), .jsonl/.ndjson (one object per line), "
      "or - for\n"
      "stdin (txt unless --input-format); gzipped inputs are read as well.\n"
      "Extensions (docs/inputs.md): JSONL keys alternates, images, videos, "
      "news, e.g.\n"
      "  {\"loc\": \"https://ex.com/a\", \"alternates\": {\"de\": "
      "\"https://ex.com/de/a\"},\n"
      "   \"images\": [\"https://ex.com/a.jpg\"]}\n"
      "and CSV/TSV columns such as image, image2, image:caption, "
      "alternate:de,\n"
      "video:title, news:title, news:publication_date.\n"
      "URLs are normalised (RFC 3986), must be http(s) under --base-url, and "
      "are written\n"
      "once each; files split at 50,000 URLs / 52,428,800 bytes and get an "
      "index.\n"
      "Publishing is atomic: a failed or killed run leaves the old set as it "
      "was.");
  o->command = cmd;
  cmd->add_option(
      "inputs", o->inputs,
      "URL lists (.txt, .tsv, .csv, .jsonl, .ndjson, gzipped or not), or - for "
      "stdin");
  cmd->add_option("--base-url", o->base_urls,
                  "URL of the directory the set is published at; relative "
                  "inputs resolve against it and every URL must be at or "
                  "below it. Repeat it for a site on several hosts (or "
                  "directories): each gets its own set in OUT/HOST[/PATH]/, "
                  "holding the URLs under it; relative inputs and --from-dir "
                  "pages go to the first (docs/hosts.md)")
      ->required()
      ->allow_extra_args(false);
  cmd->add_option("--out", o->run.out_dir,
                  "Output directory (created if missing); s3://BUCKET/PREFIX/ "
                  "publishes to S3-compatible storage (AWS_* environment, "
                  "~/.aws; docs/publishing.md); - writes the one sitemap of "
                  "a small set (up to 50,000 URLs and 50 MiB) to stdout as "
                  "plain XML, and refuses a set that needs an index")
      ->required();
  add_bucket_flags(*cmd, o->run.bucket);
  cmd->add_option("--manifest-dir", o->run.manifest_dir,
                  "Where sitemill keeps the set's manifest, journal and lock "
                  "(default: .sitemill/NAME/ beside --out, NAME being "
                  "--out's own name, so a deploy of --out never carries "
                  "them; docs/publishing.md)");
  cmd->add_option("--input-format", o->input_format, "Force the input format")
      ->check(CLI::IsMember({"txt", "tsv", "csv", "jsonl", "ndjson"}));
  cmd->add_option(
      "--columns", o->columns,
      "tsv/csv columns, in one of two forms (docs/inputs.md lists every "
      "name):\n"
      "by header name, for a file whose header row has its own names: "
      "COLUMN=NAME pairs,\n"
      "e.g. loc=url,lastmod=updated_at,image=image_url,image:caption=alt "
      "(the header's\n"
      "other columns are ignored; jsonl: top-level keys by the same "
      "pairs);\nin order, for a file without a header row, e.g.\n"
      "loc,lastmod,-,image:caption (- skips a column; a first row that is "
      "still a header,\n"
      "its loc cell \"url\" or not a URL above rows of URLs, is skipped "
      "with a warning)");
  add_delimiter_flag(*cmd, o->delimiter);
  cmd->add_option("--format", o->format,
                  "Sitemap format: xml (urlset) or txt (one URL per line)")
      ->check(CLI::IsMember({"xml", "txt"}))
      ->capture_default_str();
  cmd->add_flag("--no-gzip", o->no_gzip,
                "Write plain .xml/.txt instead of .xml.gz/.txt.gz");
  cmd->add_option("--compression", o->compression_name,
                  "gzip level: fast (ISA-L), normal (libdeflate 6, smaller "
                  "than gzip -6) "
                  "or best (libdeflate 12)")
      ->check(CLI::IsMember({"fast", "normal", "best"}))
      ->capture_default_str();
  cmd->add_flag("--fast", o->fast, "Same as --compression fast");
  add_file_flags(*cmd, o->run, o->index);
  add_scale_flags(*cmd, o->shard, o->run);
  o->patterns = add_filter_flags(*cmd);
  add_section_flags(*cmd, o->sections, o->section_by);
  auto* site = "Sources: a site's output directory";
  cmd->add_option(
         "--from-dir", o->from_dirs,
         "Walk a site's output directory for pages (HTML by default; see "
         "--include). "
         "Error pages (404.html or 404/index.html at the root or a "
         "language root, a page titled 404 Not Found, --error-page), meta "
         "refresh redirect stubs, pages with meta robots noindex, a canonical "
         "link to "
         "another URL, or disallowed by the directory's robots.txt are "
         "skipped and reported")
      ->group(site);
  cmd->add_option("--lastmod", o->lastmod_policy_name,
                  "lastmod of directory pages: page (the date the page "
                  "states: article:modified_time, JSON-LD dateModified, "
                  "itemprop dateModified, og:updated_time, meta lastmod; "
                  "pages stating none are dated by content with --state, "
                  "else get no lastmod), content (when the content last "
                  "changed, needs --state), mtime (file time: a build or a "
                  "CI checkout gives every file one, which is warned about) "
                  "or none")
      ->check(CLI::IsMember({"mtime", "content", "page", "none"}))
      ->capture_default_str()
      ->group(site);
  cmd->add_option(
         "--state", o->run.state_path,
         "SQLite state file: content hashes for --lastmod content (and for "
         "--lastmod page, the pages that state no date); with it, "
         "--json lists "
         "the URLs added, changed and removed since the last published run")
      ->group(site);
  cmd->add_option("--index-files", o->index_files,
                  "File names that stand for their directory's URL (default "
                  "index.html,index.htm)")
      ->group(site);
  cmd->add_flag("--keep-index-files", o->keep_index_files,
                "List a/index.html as a/index.html, not a/")
      ->group(site);
  cmd->add_flag("--ignore-noindex", o->ignore_noindex,
                "List pages with meta robots noindex")
      ->group(site);
  cmd->add_flag("--ignore-canonical", o->ignore_canonical,
                "List pages whose canonical link names another URL")
      ->group(site);
  cmd->add_flag("--ignore-robots", o->ignore_robots,
                "List pages the site's robots.txt disallows")
      ->group(site);
  cmd->add_flag("--keep-error-pages", o->keep_error_pages,
                "List error pages: 404.html, 500.htm and 404/index.html at "
                "the site's root or a language root (de/404.html), and pages "
                "whose <title> says they are one (404 Not Found, Page not "
                "found, Error 500); pages named by --error-page are still "
                "left out")
      ->group(site);
  cmd->add_option("--error-page", o->site.error_pages,
                  "A page the site serves as its error page, left out of the "
                  "sitemap: a path inside the directory (oops.html, "
                  "errors/gone/ for its index file); repeatable")
      ->type_name("PATH")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->group(site);
  cmd->add_flag("--keep-redirects", o->keep_redirects,
                "List pages whose <meta http-equiv=\"refresh\"> sends to "
                "another URL (redirect stubs); the other rules still apply")
      ->group(site);
  cmd->add_flag("--clean-urls", o->site.clean_urls,
                "List x.html and x.htm as x, for hosts that serve them so "
                "(index files still stand for their directory)")
      ->group(site);
  cmd->add_flag("--images", o->site.images,
                "Also list each page's content images as image:image: <img> "
                "(the largest of srcset, data-src of lazy loaders), "
                "og:image; absolute http(s), any host, first 1,000 per page; "
                "not 1-pixel trackers, data: URIs or <picture> sources. "
                "hreflang alternates in <head> are always read")
      ->group(site);
  auto* maps = "Sources: existing sitemaps";
  cmd->add_option("--from-sitemap", o->from_sitemaps,
                  "Read an existing sitemap, index (children followed), text "
                  "sitemap or feed, "
                  "local or http(s), gzipped or not; its lastmod, changefreq "
                  "and priority carry "
                  "over. A directory or s3://BUCKET/PREFIX/ reads the set "
                  "published there, s3://BUCKET/KEY one object (signed as "
                  "--out s3:// signs). Fetches stay on its host and port, "
                  "and off loopback and private addresses it does not name "
                  "itself (as check's fetch scope)")
      ->group(maps);
  cmd->add_flag("--allow-private", o->sitemap.allow_private,
                "With --from-sitemap: fetch from loopback and private "
                "addresses that the location does not name (an intranet "
                "site whose name resolves to 10.x)")
      ->group(maps);
  cmd->add_option("--rewrite-base", o->rewrite_base,
                  "OLD NEW: rewrite locs starting with OLD to start with NEW "
                  "(site migrations)")
      ->expected(2)
      ->group(maps);
  add_crawl_flags(*cmd, o->from_crawls, o->crawl, o->ignore_nofollow,
                  o->access);
  add_log_flags(*cmd, o->from_logs, o->logs, o->log_priority);
  auto* notify = "Announcing the published set";
  cmd->add_option("--robots", o->robots_path,
                  "After publishing, make FILE (robots.txt) list the set's "
                  "entry as a Sitemap: line, keeping every other byte. With "
                  "several --base-url hosts, put {host} in FILE: each host's "
                  "set goes to its own robots.txt")
      ->group(notify);
  cmd->add_option(
         "--indexnow-key", o->indexnow_key,
         "After publishing, send the URLs added or changed since the last run "
         "(needs --state) to IndexNow with KEY")
      ->group(notify);
  cmd->add_option("--indexnow-endpoint", o->indexnow_endpoint,
                  "IndexNow endpoint")
      ->capture_default_str()
      ->group(notify);
  cmd->add_option("--indexnow-key-location", o->indexnow_key_location,
                  "URL of the key file when it is not https://HOST/KEY.txt")
      ->group(notify);
  o->submit.add_to(*cmd, "--submit", "--submit-site", notify);
  cmd->add_flag("--news", o->run.news,
                "Write Google News sitemaps: articles (entries with news:news) "
                "of the last two days go to NAME-news-*.xml files of at most "
                "1,000 URLs, listed in the index; older ones keep their page "
                "in the other sitemaps without the news block. Without "
                "--news, news blocks are kept whatever their age");
  cmd->add_option("--now", o->now,
                  "The time --news measures article age from (a W3C "
                  "datetime; default: the system clock)");
  add_date_flags(*cmd, o->run);
  cmd->add_flag("--dry-run", o->run.dry_run,
                "Read every input and make the set, then publish nothing: "
                "say which files it would have (with --json, the report as a "
                "run's); --out is not created, --state not written, "
                "robots.txt and IndexNow not touched; exit codes as a run's");
  cmd->add_flag("--strict", o->run.strict,
                "Publish nothing if any record is rejected or any field is "
                "invalid (exit 1)");
  cmd->add_flag(
      "--json", o->json_out,
      "Print the run's report as one JSON object on stdout (entry, files, "
      "records, written, duplicates, rejected, warnings, skipped, lastmods, "
      "sets: one per --base-url; changes with --state; announce with "
      "--robots, --indexnow-key or --submit; docs/report-schema.md)");
  cmd->add_flag("-q,--quiet", o->quiet,
                "Print only rejected records and errors on stderr");
  cmd->footer(
      "Exit codes: 0 published (--dry-run: would be); 1 nothing published "
      "because of the data "
      "(--strict and a\n"
      "bad record, or no valid URL at all); 2 usage or I/O error; 3 "
      "interrupted once\n"
      "publishing had begun: it was finished, the new set is live, nothing "
      "was announced;\n130 interrupted, nothing published.\n"
      "Example: sitemill generate --base-url https://www.example.com/ --out "
      "public/ urls.txt\n"
      "Two hosts: sitemill generate --base-url https://www.shop.de/ "
      "--base-url https://www.shop.fr/\n"
      "  --out public/ --robots 'public/{host}/robots.txt' products.csv");
  return [o] { return run_generate(*o); };
}

}  // namespace sitemill::cli
