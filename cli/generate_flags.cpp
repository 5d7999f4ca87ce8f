#include "generate_flags.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <string>

namespace sitemill::cli {

void add_file_flags(CLI::App& cmd, generate_options& run, std::string& index) {
  cmd.add_option("--max-urls", run.max_urls, "URLs per file, at most 50,000")
      ->check(CLI::Range(1, 50'000))
      ->capture_default_str();
  cmd.add_option("--max-bytes", run.max_bytes,
                 "Uncompressed bytes per file, at most 52,428,800 (10485760 "
                 "gives the old "
                 "10 MB limit)")
      ->check(CLI::Range(256, 52'428'800))
      ->capture_default_str();
  cmd.add_option(
         "--index", index,
         "The entry is always NAME.xml. auto: it is an index unless the set "
         "is one plain XML file (--no-gzip, under the limits); always: an "
         "index even then")
      ->check(CLI::IsMember({"auto", "always"}))
      ->capture_default_str();
  cmd.add_option(
         "--xsl", run.xsl_href,
         "Add <?xml-stylesheet type=\"text/xsl\" href=URL?> to every XML "
         "file. default: write sitemill's own stylesheet beside the set "
         "(NAME-<hash>.xsl, published with it) and refer to it, so a browser "
         "that still applies XSLT shows each sitemap as a table (not for "
         ".xml.gz files: add --no-gzip; docs/browser-view.md)")
      ->type_name("URL|default");
  cmd.add_flag(
      "--html", run.html_view,
      "Also write a plain HTML view of the set beside it, published with it: "
      "NAME.html lists the sitemaps (URLs, newest lastmod) and links to "
      "pages of their URLs; no scripts, works in every browser and prints "
      "(docs/browser-view.md)");
  cmd.add_option("--html-page-urls", run.html_page_urls,
                 "URLs per page of the --html view")
      ->check(CLI::Range(1, 50'000))
      ->capture_default_str();
  cmd.add_option("--name", run.name,
                 "File name stem: STEM.xml, STEM-1-<hash>.xml.gz, ...")
      ->capture_default_str();
  cmd.add_option("--threads", run.threads,
                 "Compression threads (0: one per core)")
      ->capture_default_str();
  cmd.add_option(
         "--sitemaps-url", run.sitemaps_url,
         "URL --out is served at, when it is not --base-url (sitemaps in a "
         "folder of the site: --out public/sitemaps --sitemaps-url "
         "https://www.example.com/sitemaps/); the index, --robots and the "
         "entry URL name the files there. Default: --base-url, or the "
         "folder's URL when --out is inside --from-dir. Search engines take "
         "URLs outside that folder only from a robots.txt Sitemap: line "
         "(--robots; docs/publishing.md)")
      ->type_name("URL");
}

std::string infer_sitemaps_url(const std::vector<std::string>& from_dirs,
                               const std::vector<std::string>& base_urls,
                               generate_options& run) {
  // A URL (s3://BUCKET/PREFIX/) is no folder of a --from-dir, whatever the
  // file system would make of its text.
  if (!run.sitemaps_url.empty() || base_urls.size() != 1 ||
      run.out_dir.empty() || run.out_dir == "-" ||
      run.out_dir.find("://") != std::string::npos)
    return {};
  for (const std::string& dir : from_dirs) {
    std::string url = site_directory_url(dir, base_urls.front(), run.out_dir);
    if (url.empty()) continue;
    run.sitemaps_url = std::move(url);
    return dir;
  }
  return {};
}

void add_bucket_flags(CLI::App& cmd, bucket_options& bucket) {
  cmd.add_option("--cache-control", bucket.cache_control,
                 "With --out s3://: the Cache-Control every object of the set "
                 "is stored with (the children are named after their "
                 "content and never change; docs/publishing.md)");
  cmd.add_option_function<long long>(
         "--keep-old",
         [&bucket](long long seconds) {
           bucket.keep_old = std::chrono::seconds(seconds);
         },
         "With --out s3://: keep the children a new set no longer names "
         "this long (90s, 30m, 2h, 7d) for crawlers that read the old index, "
         "then delete them at the first publish after (default: at once)")
      ->transform(CLI::AsNumberWithUnit(
          std::map<std::string, long long>{
              {"s", 1}, {"m", 60}, {"h", 3600}, {"d", 86400}},
          CLI::AsNumberWithUnit::CASE_SENSITIVE))
      ->check(CLI::NonNegativeNumber);
}

void add_scale_flags(CLI::App& cmd, std::string& shard, generate_options& run) {
  auto* scale = "Scale (docs/scaling.md)";
  cmd.add_option("--shard", shard,
                 "Be shard I of N (from 0) of a sharded run: keep the URLs "
                 "that hash to I, write them beside --out, publish nothing "
                 "until 'sitemill merge'. auto: a Slurm job array's task; "
                 "auto/N: a Kubernetes Indexed Job's or GNU parallel's job")
      ->type_name("I/N|auto|auto/N")
      ->group(scale);
  cmd.add_flag("--shard-presplit", run.shard.presplit,
               "The inputs hold only this shard's URLs (an export split by "
               "the shard hash): judge every record, filter none")
      ->group(scale);
  cmd.add_option("--memory-budget", run.memory_budget,
                 "Memory for duplicate detection (16M, 256MiB, bytes); past "
                 "it, URLs are checked on disk and the same files are "
                 "written (docs/scaling.md)")
      // Checked before the conversion, which would wrap "-5" to 2^64 - 5.
      ->check(CLI::Validator(
          [](const std::string& v) {
            return v.find('-') == std::string::npos
                       ? std::string()
                       : "a size may not be negative: " + v;
          },
          "SIZE"))
      ->transform(CLI::AsSizeValue(false))
      ->default_str("16MiB");
  // Read as text: CLI11 would print the enum's values as characters.
  cmd.add_option_function<std::string>(
         "--layout",
         [&run](const std::string& v) {
           run.layout = v == "sequential" ? file_layout::sequential
                                          : file_layout::stable;
         },
         "How URLs are cut into files. stable: by URL hash, so one "
         "URL added or removed changes one or two files and their "
         "index entries, whatever its place in the input; files hold "
         "a quarter to all of --max-urls (NAME-0110-<hash>.xml.gz). "
         "sequential: in input order, full files (NAME-3-<hash>...); "
         "one URL inserted near the head changes every file")
      ->check(CLI::IsMember({"stable", "sequential"}))
      ->default_str("stable")
      ->group(scale);
}

pattern_flags add_filter_flags(CLI::App& cmd) {
  pattern_flags flags;
  auto* filters = "Filters (every source; docs/filters.md)";
  auto pattern_option = [&cmd, filters](const char* name, const char* help,
                                        const char* type) {
    return cmd.add_option(std::string(name))
        ->description(help)
        ->group(filters)
        ->type_name(type)
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  };
  flags.include = pattern_option(
      "--include",
      "List what matches GLOB, matched against the URL's path below "
      "--base-url (\"blog/**\", \"*.pdf\"), or for --from-dir the file's "
      "path; gitignore rules, the last matching pattern wins. A directory "
      "lists *.html and *.htm unless told; other sources list every URL",
      "GLOB");
  flags.exclude = pattern_option(
      "--exclude",
      "Leave out what matches GLOB (\"admin/\": a directory and all below "
      "it; \"*.pdf\": a name at any depth; \"/about.html\": from the base)",
      "GLOB");
  flags.include_regex = pattern_option(
      "--include-regex",
      "As --include, with an RE2 regular expression searched for in the "
      "path (a directory's ends in /); anchor with ^ and $",
      "RE");
  flags.exclude_regex = pattern_option(
      "--exclude-regex", "As --exclude, with an RE2 regular expression", "RE");
  return flags;
}

std::vector<site_pattern> pattern_flags::in_order(const CLI::App& cmd) const {
  std::vector<site_pattern> patterns;
  std::size_t next[4] = {};
  const CLI::Option* opts[4] = {include, exclude, include_regex, exclude_regex};
  const auto& given = cmd.parse_order();
  for (int k = 0; k < 4; ++k)
    if (opts[k]->count() > 0 &&
        std::find(given.begin(), given.end(), opts[k]) == given.end())
      for (const auto& p : opts[k]->as<std::vector<std::string>>())
        patterns.push_back({p, /*include=*/k % 2 == 0, /*regex=*/k >= 2});
  for (const CLI::Option* opt : given)
    for (int k = 0; k < 4; ++k)
      if (opt == opts[k])
        patterns.push_back({opts[k]->as<std::vector<std::string>>()[next[k]++],
                            /*include=*/k % 2 == 0, /*regex=*/k >= 2});
  return patterns;
}

void add_section_flags(CLI::App& cmd, std::vector<std::string>& sections,
                       std::string& section_by) {
  auto* group = "Sections (docs/sections.md)";
  cmd.add_option(
         "--section", sections,
         "Write the URLs whose path below --base-url matches GLOB (the "
         "language of --include: \"blog/**\", \"products/\", \"*.pdf\") to "
         "files of their own, NAME-SECTION-...-<hash>.xml.gz, listed in the one "
         "index (repeatable; the first match wins). A `section` column or "
         "JSONL key wins over the globs; a URL in no section keeps today's "
         "names. NAME: lowercase letters, digits, - and _")
      ->expected(1)
      ->allow_extra_args(false)  // one NAME=GLOB a flag, then the inputs
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->check(CLI::Validator(
          [](const std::string& v) {
            const std::size_t equals = v.find('=');
            if (equals == std::string::npos || equals + 1 == v.size())
              return "a section is NAME=GLOB (blog='blog/**'): " + v;
            if (std::string why = section_name_problem(v.substr(0, equals));
                !why.empty())
              return "\"" + v.substr(0, equals) + "\": " + why;
            return std::string();
          },
          ""))
      ->type_name("SECTION=GLOB")
      ->group(group);
  cmd.add_option("--section-by", section_by,
                 "first-segment: a URL no --section glob or section column "
                 "places goes to the section its first directory names "
                 "(blog/a.html: blog); a page at the root stays unsectioned")
      ->check(CLI::IsMember({"none", "first-segment"}))
      ->capture_default_str()
      ->group(group);
}

void read_section_flags(const std::vector<std::string>& sections,
                        const std::string& section_by, generate_options& run) {
  for (const std::string& s : sections) {
    const std::size_t equals = s.find('=');
    run.sections.push_back({s.substr(0, equals), s.substr(equals + 1)});
  }
  run.sections_from_first_segment = section_by == "first-segment";
}

void add_crawl_flags(CLI::App& cmd, std::vector<std::string>& starts,
                     crawl_options& crawl, bool& ignore_nofollow,
                     crawl_access_flags& access) {
  auto* group = "Sources: a crawl of the live site (docs/crawl.md)";
  cmd.add_option("--from-crawl", starts,
                 "Crawl the site from this URL (repeatable): pages in its "
                 "directory reached by links, answered 200 text/html, not "
                 "noindex, not canonical elsewhere; robots.txt obeyed; "
                 "--ignore-noindex, --ignore-canonical, --ignore-robots, "
                 "--images and --allow-private apply as for --from-dir and "
                 "--from-sitemap")
      ->group(group);
  add_crawl_manner_flags(cmd, crawl, ignore_nofollow, group);
  add_crawl_access_flags(cmd, access, group);
  cmd.add_flag("--seed-sitemaps", crawl.seed_sitemaps,
               "Also start from the URLs of the sitemaps robots.txt names "
               "(when it names none, those found at the common locations: "
               "/sitemap.xml, /sitemap_index.xml, ...), so pages no link "
               "reaches are found")
      ->group(group);
}

void add_crawl_manner_flags(CLI::App& cmd, crawl_options& crawl,
                            bool& ignore_nofollow, const std::string& group) {
  cmd.add_option("--concurrency", crawl.concurrency,
                 "Requests in flight at once to the crawled host")
      ->check(CLI::Range(1u, 64u))
      ->default_str("4")
      ->group(group);
  cmd.add_option("--max-pages", crawl.max_pages,
                 "Pages fetched at most; the rest are reported \"max pages\"")
      ->check(CLI::PositiveNumber)
      ->group(group);
  cmd.add_option("--max-depth", crawl.max_depth,
                 "Links followed at most from the start URL (0: the start "
                 "page only); deeper pages are reported \"max depth\"")
      ->check(CLI::NonNegativeNumber)
      ->group(group);
  cmd.add_option("--max-query-variants", crawl.max_query_variants,
                 "Distinct query strings crawled per path (calendars, "
                 "faceted search); more are reported \"trap cap\"")
      ->check(CLI::NonNegativeNumber)
      ->default_str("100")
      ->group(group);
  cmd.add_option("--max-page-size", crawl.max_page_bytes,
                 "Body bytes read per page (10MiB, 512k); a larger page is "
                 "reported \"too large\"")
      ->transform(CLI::AsSizeValue(false))
      ->default_str("10MiB")
      ->group(group);
  cmd.add_flag("--ignore-nofollow", ignore_nofollow,
               "Follow rel=\"nofollow\" links and the links of nofollow "
               "pages")
      ->group(group);
  cmd.add_option("--user-agent", crawl.user_agent,
                 "The User-Agent the crawl sends; robots.txt is obeyed for "
                 "its product token (default: sitemill/VERSION)")
      ->group(group);
  cmd.add_flag("--render", crawl.render,
               "Load each page in headless Chromium (Debian's chromium "
               "package) and read its links, canonical, robots meta and "
               "hreflang from the DOM its scripts built; the requests a page "
               "makes go through the crawl, under robots.txt, to the start "
               "URL's origin only")
      ->group(group);
  cmd.add_option_function<std::string>(
         "--render-wait",
         [&crawl](const std::string& v) {
           crawl.render_wait =
               v == "idle" ? std::chrono::milliseconds(0)
                           : std::chrono::milliseconds(static_cast<long long>(
                                 std::stod(v) * 1000 + 0.5));
         },
         "How long a rendered page settles after its load event: idle "
         "(until none of its requests has been pending for 500 ms) or "
         "seconds")
      ->check(CLI::IsMember({"idle"}) | CLI::Range(0.001, 60.0))
      ->default_str("idle")
      ->group(group);
  cmd.add_option("--render-concurrency", crawl.render_concurrency,
                 "Pages rendered at once (browser tabs)")
      ->check(CLI::Range(1u, 16u))
      ->default_str("2")
      ->group(group);
  cmd.add_option("--render-memory", crawl.render_memory_mib,
                 "Each tab's JavaScript heap at most, in MiB: a page whose "
                 "scripts need more crashes its tab and is reported "
                 "\"render failed\", the crawl goes on")
      ->check(CLI::Range(16u, 65536u))
      ->default_str("512")
      ->group(group);
}

void add_log_flags(CLI::App& cmd, std::vector<std::string>& paths,
                   log_source_options& logs, std::string& priority) {
  auto* group = "Sources: access logs";
  cmd.add_option(
         "--from-log", paths,
         "Read a web server access log (Apache or nginx combined, common or "
         "vhost_combined format; gzipped or not; - for stdin) and list the "
         "pages it shows were served, each once, at --base-url's origin, "
         "without lastmod. Left out, and counted in one note per log: "
         "requests other than GET or HEAD of a path, answers other than 2xx "
         "or 304, bots and scripts (user agents with bot, crawl, spider, "
         "curl, wget, python-requests, headless, ...; an empty one), assets "
         "(css, js, images, fonts, media, source maps, archives, feeds, "
         "txt, json), paths with a query string, other vhosts, paths outside "
         "--base-url. A line that is not a log line is rejected with its "
         "line number (docs/access-logs.md)")
      ->group(group)
      ->type_name("FILE");
  cmd.add_flag("--log-keep-query", logs.keep_query,
               "With --from-log: list requests with a query string too, "
               "each as its own URL (/search?q=a)")
      ->group(group);
  cmd.add_option("--priority", priority,
                 "popularity: with --from-log, give each page a priority "
                 "from its request count, 0.1 + 0.9 * ln(1 + count) / ln(1 "
                 "+ max count) to one decimal (the most requested page gets "
                 "1.0); the logs are read twice, so not from stdin")
      ->check(CLI::IsMember({"popularity"}))
      ->group(group);
}

void add_date_flags(CLI::App& cmd, generate_options& run) {
  auto* dates = "Dates (lastmod)";
  cmd.add_option_function<std::vector<std::string>>(
         "--date-format",
         [&run](const std::vector<std::string>& formats) {
           run.date_format = formats.front();
           run.more_date_formats.assign(formats.begin() + 1, formats.end());
         },
         "How lastmod values are read. auto: W3C datetimes "
         "(2025-05-14T10:23:00Z), SQL's 2025-05-14 10:23:00[.fraction] with an "
         "optional zone (Z, +02, +0200, +02:00; PostgreSQL's "
         "2025-05-14 10:23:00.123456+02), RFC 2822 and HTTP dates "
         "(Wed, 14 May 2025 10:23:00 GMT), Unix time (9-10 digits seconds, "
         "13 digits milliseconds). w3c: W3C datetimes only. Or a pattern of "
         "%Y %m %d %e %b %H %M %S %f %z %s %% and literal characters, e.g. "
         "\"%d/%m/%Y %H:%M\". Repeat it (up to 8) to try several in order, "
         "the first that reads a value wins: --date-format %d.%m.%Y "
         "--date-format auto. Unreadable lastmods are dropped with a warning "
         "(the URL is kept) and summed up in one line")
      ->allow_extra_args(false)
      ->type_name("FORMAT")
      ->default_str("auto")
      ->group(dates);
  cmd.add_option("--timezone", run.time_zone,
                 "Zone of lastmod date-times that name none: an IANA name "
                 "(Europe/Berlin, DST-correct) or an offset (+02:00). "
                 "Without it they are read as UTC, with a warning per input")
      ->type_name("ZONE")
      ->group(dates);
}

void add_delimiter_flag(CLI::App& cmd, std::string& delimiter) {
  cmd.add_option("--delimiter", delimiter,
                 "csv only: the character between cells, e.g. ';' (what "
                 "spreadsheets write where the decimal mark is a comma), "
                 "tab or '|'. auto: the one of , ; tab | the header row has "
                 "most of outside quotes, a tie going to the earlier in that "
                 "order (docs/inputs.md)")
      ->type_name("CHAR|tab|auto")
      ->default_str("auto");
}

std::optional<char> read_delimiter(std::string_view text) {
  if (text.empty() || text == "auto") return '\0';
  if (text == "tab" || text == "\\t") return '\t';
  if (text.size() == 1) return text.front();
  return std::nullopt;
}

}  // namespace sitemill::cli
