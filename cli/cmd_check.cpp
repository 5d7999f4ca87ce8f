// sitemill check: does a sitemap (or a site's sitemaps) pass every rule?
#include <chrono>
#include <cstdio>
#include <string>

#include "colour.h"
#include "command.h"
#include "explain.h"
#include "inspect_flags.h"
#include "sitemill/check/check.h"
#include "sitemill/numbers.h"
#include "sitemill/report/check_json.h"
#include "sitemill/url/url.h"
#include "verbose.h"
#include "vocabulary.h"

namespace sitemill::cli {
namespace {

struct check_cli_options {
  std::vector<std::string> targets;
  check_options run;
  std::string sitemap_url;
  bool json_out = false;
  std::string now;  // --now, a W3C datetime
  bool no_follow = false;
  bool quiet = false;
  double timeout_s = 60;
  std::uint64_t max_time_s = 600;
  std::string explain;  // --explain's code
  const CLI::Option* explain_option = nullptr;
};

class cli_observer final : public check_observer {
 public:
  bool cancelled() override { return interrupted(); }
};

// "urlset, 12,345 URLs, 1,234,567 bytes, valid against sitemap.xsd".
std::string describe_document(const document_report& d) {
  if (d.unreadable) return "not read";
  if (d.robots_txt)
    return "robots.txt, " + counted(d.urls, "sitemap", "sitemaps") +
           " named, " + counted(d.bytes, "byte", "bytes");
  if (d.kind == document_kind::unknown)
    return d.bytes == 0 ? "nothing read"
                        : "not a sitemap, " + counted(d.bytes, "byte", "bytes");
  std::string s(to_string(d.kind));
  s +=
      ", " +
      counted(d.urls, d.kind == document_kind::sitemapindex ? "sitemap" : "URL",
              d.kind == document_kind::sitemapindex ? "sitemaps" : "URLs");
  s += ", " + counted(d.bytes, "byte", "bytes");
  if (d.kind == document_kind::urlset)
    s += d.schema_valid ? ", valid against sitemap.xsd"
                        : ", not valid against sitemap.xsd";
  else if (d.kind == document_kind::sitemapindex)
    s += d.schema_valid ? ", valid against siteindex.xsd"
                        : ", not valid against siteindex.xsd";
  return s;
}

void print_human(const check_report& r, bool quiet) {
  std::uint64_t urls = 0;
  for (const auto& d : r.documents) {
    if (!d.robots_txt && d.kind != document_kind::sitemapindex) urls += d.urls;
    if (!quiet)
      std::printf("%s: %s\n", d.source.c_str(), describe_document(d).c_str());
    for (const auto& g : d.diagnostics) {
      if (quiet && g.level != severity::error) continue;
      std::string where = d.source;
      if (g.line > 0) {
        where.append(":").append(std::to_string(g.line));
        if (g.column > 0) where.append(":").append(std::to_string(g.column));
      }
      const paint kind = g.level == severity::error     ? paint::error
                         : g.level == severity::warning ? paint::warning
                                                        : paint::info;
      std::printf("%s: %s: %s [%s]\n", where.c_str(),
                  painted(stdout, to_string(g.level), kind).c_str(),
                  g.message.c_str(), g.code.c_str());
    }
  }
  if (!quiet)
    std::printf("checked %s, %s: %s, %s\n",
                counted(r.documents.size(), "document", "documents").c_str(),
                counted(urls, "URL", "URLs").c_str(),
                counted(r.errors, "error", "errors").c_str(),
                counted(r.warnings, "warning", "warnings").c_str());
  std::fflush(stdout);
}

void print_json(const check_report& r) {
  (void)json_to_stdout("check",
                       [&](sink& out) { return write_check_json(out, r); });
}

int run_check(check_cli_options& o) {
  if (o.explain_option->count() > 0) return explain_code(o.explain);
  if (o.targets.empty()) {
    std::fprintf(stderr,
                 "sitemill check: give a sitemap file, a directory, a URL or "
                 "a site's URL to check\nRun 'sitemill check --help' for its "
                 "options.\n");
    return exit_usage;
  }
  check_options& c = o.run;
  c.follow_indexes = !o.no_follow;
  c.http.total_timeout = std::chrono::milliseconds(
      static_cast<std::int64_t>(o.timeout_s * 1000.0));
  c.http.connect_timeout =
      std::min(c.http.connect_timeout, c.http.total_timeout);
  c.max_time = std::chrono::seconds(static_cast<std::int64_t>(o.max_time_s));
  trace_walk(c, c.http);
  // A directory stands for the set published in it, as for stats, diff
  // and report: its manifest's entry, else its sitemap.xml(.gz); so does a
  // bucket's prefix (s3://BUCKET/PREFIX/), read with the same signed
  // requests as publishing.
  for (std::string& target : o.targets)
    if (status s = resolve_set_target(target, c.http); !s) {
      std::fprintf(stderr, "sitemill check: %s\n", s.message().c_str());
      return exit_usage;
    }
  if (!o.sitemap_url.empty()) {
    if (o.targets.size() != 1 || has_http_scheme(o.targets[0])) {
      std::fprintf(stderr,
                   "sitemill check: --sitemap-url names where one local file "
                   "is served; give exactly one local target with it\n");
      return exit_usage;
    }
    std::string normalized;
    const url_problem p = normalize_url(o.sitemap_url, normalized);
    if (p != url_problem::ok) {
      std::fprintf(stderr, "sitemill check: --sitemap-url %s: %s\n",
                   o.sitemap_url.c_str(), std::string(describe(p)).c_str());
      return exit_usage;
    }
    c.sitemap_url = normalized;
  }
  if (!parse_now_flag(o.now, "check", c.parse.now)) return exit_usage;

  cli_observer observer;
  check_report r = check(o.targets, c, observer);
  const vocabulary words = check_words();
  for (auto& d : r.documents)
    for (auto& g : d.diagnostics) to_cli_words(g.message, words);
  if (o.json_out)
    print_json(r);
  else
    print_human(r, o.quiet);

  switch (r.outcome) {
    case check_outcome::cancelled:
      std::fprintf(stderr, "sitemill check: interrupted\n");
      return exit_interrupted;
    case check_outcome::unreadable:
      return exit_usage;
    case check_outcome::failed:
      return exit_data;
    case check_outcome::passed:
      break;
  }
  return exit_ok;
}

}  // namespace

command_runner setup_check(CLI::App& app) {
  auto o = std::make_shared<check_cli_options>();
  CLI::App* cmd = app.add_subcommand(
      "check",
      "Check sitemaps against every rule of the sitemaps.org protocol.\n"
      "A target is a local file (.xml, .xml.gz, .txt, ...: the format is "
      "sniffed from the\n"
      "content; - reads stdin), a sitemap URL, or a site URL "
      "(https://www.example.com/),\n"
      "whose robots.txt Sitemap: lines are followed (when there are none, "
      "the common\n"
      "locations /sitemap.xml, /sitemap_index.xml, ... that answer a sitemap; "
      "-v says what\n"
      "each answered).\n"
      "Each document is checked for well-formedness, UTF-8, the namespace, "
      "the XSD\n"
      "structure and values, lastmod/changefreq/priority, the 50,000-entry "
      "and\n"
      "52,428,800-byte limits, the image, video, news and hreflang "
      "extensions (at most\n"
      "1,000 images per URL, a video's required fields, news of the last "
      "two days and at\n"
      "most 1,000 per file, hreflang codes and self links); then, in "
      "context: duplicate\n"
      "URLs (warning), hreflang return links and one URL per language "
      "across every\n"
      "document of the run (index children included), one host per file, "
      "and the\n"
      "location rule (every URL at or below the sitemap's directory, on its "
      "scheme,\n"
      "host and port) when the sitemap's URL is known: fetched, or "
      "--sitemap-url for a\n"
      "local file. An index's children are checked too "
      "(a local\n"
      "index's beside it, by their URL path); an index in an index is a "
      "warning, cycles\n"
      "and depth beyond --max-depth are errors and are not followed.\n"
      "Fetch scope: nothing is fetched beyond the targets' own hosts and "
      "ports (and\n"
      "the sitemaps their robots.txt names, on any host): an index's child "
      "on another\n"
      "host or port is not fetched, and a redirect is followed only on the "
      "host and port\n"
      "requested (http to https on the default ports included); one that "
      "leaves is an\n"
      "error naming its target, and is never requested. Loopback, private, "
      "link-local\n"
      "and unspecified addresses (127/8, 10/8, 172.16/12, 192.168/16, "
      "100.64/10,\n"
      "169.254/16, 0/8, ::1, fc00::/7, fe80::/10, IPv4-mapped forms) are "
      "judged on the\n"
      "address connected to, after DNS: only a target's own (an IP target, "
      "localhost)\n"
      "is fetched, unless --allow-private.\n"
      "Output: one line per finding, FILE:LINE:COL: severity: message "
      "[code], grouped\n"
      "by document after a header line, then a summary; every code is "
      "listed in\ndocs/diagnostics-*.md, and --explain CODE prints one's "
      "documentation.\n" +
          std::string(bucket_input_help) +
          "A child there that cannot be read is an error of the index "
          "(read-failed).");
  cmd->add_option("targets", o->targets,
                  "Files, directories holding a published set (its entry is "
                  "checked), - for stdin, sitemap URLs, site URLs, "
                  "s3://BUCKET/PREFIX/ (a set in a bucket) or "
                  "s3://BUCKET/KEY (required, unless --explain)");
  o->explain_option =
      cmd->add_option("--explain", o->explain,
                      "Print what a finding's CODE means, how to fix it and "
                      "where the rule comes from, and exit (no CODE: list "
                      "every code; an unknown one exits 2 with the nearest)")
          ->expected(0, 1)
          ->type_name("[CODE]")
          ->configurable(false);
  cmd->add_flag("--json", o->json_out,
                "Print one JSON object on stdout: {documents: [{source, type, "
                "urls, bytes, diagnostics: [{severity, code, line, column, "
                "message}], ...}], errors, warnings, ...}");
  cmd->add_flag("--warnings-as-errors", o->run.warnings_as_errors,
                "Exit 1 when there is any warning, too");
  cmd->add_flag("--lenient-schema", o->run.lenient_schema,
                "Do not count a sitemap the official schemas reject as an "
                "error by itself (schema-invalid): report only the findings "
                "at its elements, most of them warnings that search engines "
                "forgive (elements out of order, a legacy namespace)");
  cmd->add_option("--now", o->now,
                  "The time of the check, which lastmod-future and "
                  "news-too-old measure from (a W3C datetime; default: the "
                  "system clock)");
  cmd->add_option("--max-hreflang-links", o->run.max_hreflang_links,
                  "hreflang links (and pages) judged across the set at most; "
                  "about 24 bytes each while reading, twice that at the end")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_flag("--audit", o->run.audit,
                "Also fetch every URL the sitemaps list (robots.txt first, "
                "politely) and report what search engines find there: "
                "answers other than 200, redirects, noindex, canonical "
                "elsewhere, robots.txt disallows, lastmod older than "
                "Last-Modified (the audit-* codes)");
  cmd->add_option("--audit-concurrency", o->run.audit_concurrency,
                  "With --audit: requests in flight at once per host")
      ->check(CLI::Range(1u, 64u))
      ->capture_default_str();
  cmd->add_option("--max-audit-urls", o->run.max_audit_urls,
                  "With --audit: URLs fetched at most in one run (about 100 "
                  "bytes each are held until the audit)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--sitemap-url", o->sitemap_url,
                  "The URL the one local target is served at, for the "
                  "location rule (e.g. https://www.example.com/sitemap.xml)");
  cmd->add_flag("--no-follow", o->no_follow,
                "Do not check the children of sitemap indexes");
  cmd->add_flag("--fetch-children", o->run.fetch_children,
                "Fetch a local index's children that are not found beside it");
  cmd->add_flag("--allow-private", o->run.allow_private,
                "Fetch from loopback and private addresses that no target "
                "names (an intranet site whose name resolves to 10.x); "
                "hosts and ports stay in scope");
  cmd->add_option("--max-depth", o->run.max_depth,
                  "Levels followed below a target (robots.txt -> index -> "
                  "sitemap is 2)")
      ->capture_default_str();
  cmd->add_option("--max-documents", o->run.max_documents,
                  "Documents checked at most in one run")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--max-bytes", o->run.max_total_bytes,
                  "Uncompressed bytes read at most in one run (checked "
                  "between documents)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--timeout", o->timeout_s,
                  "Seconds one HTTP request may take, transfer included")
      ->check(CLI::Range(0.001, 86'400.0))
      ->capture_default_str();
  cmd->add_option("--max-time", o->max_time_s, "Seconds the whole run may take")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--max-listed", o->run.max_listed_per_code,
                  "Diagnostics listed per code and document; the rest are "
                  "counted")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--user-agent", o->run.http.user_agent,
                  "User-Agent header (default: sitemill/VERSION "
                  "(+https://github.com/sitemill/sitemill))");
  cmd->add_flag("-q,--quiet", o->quiet,
                "Print only errors: no headers, warnings, infos or summary");
  cmd->footer(
      "Exit codes: 0 no errors (warnings allowed); 1 at least one error (or "
      "a warning,\n"
      "with --warnings-as-errors). A sitemap the official schemas reject is "
      "an error\n"
      "(schema-invalid, exit 1) unless --lenient-schema. 2 a target could "
      "not be read\n"
      "at all (missing file, network failure, HTTP status other than 200, "
      "an object\n"
      "or bucket S3 refuses), or a usage error; 130 interrupted. A child of an "
      "index that cannot be read is an "
      "error of\n"
      "the index (exit 1).\n"
      "Examples:\n"
      "  sitemill check public/sitemap.xml.gz\n"
      "  sitemill check --sitemap-url https://www.example.com/sitemap.xml "
      "public/sitemap.xml\n"
      "  sitemill check https://www.example.com/sitemap.xml\n"
      "  sitemill check --json https://www.example.com/   # via robots.txt\n"
      "  sitemill check en.xml de.xml fr.xml   # hreflang return links "
      "across all three\n"
      "  sitemill check --lenient-schema --now 2026-11-23T12:00:00Z "
      "news.xml\n"
      "  sitemill check --explain hreflang-no-return\n"
      "  sitemill check s3://sitemaps/site/   # the set published there");
  return [o] { return run_check(*o); };
}

}  // namespace sitemill::cli
