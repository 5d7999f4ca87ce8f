// sitemill audit: does a site's sitemap match the site? Its sitemaps read,
// its links crawled, and the differences listed (audit/audit.h).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "colour.h"
#include "command.h"
#include "generate_flags.h"
#include "sitemill/atomic_file.h"
#include "sitemill/audit/audit.h"
#include "sitemill/numbers.h"
#include "sitemill/report/audit_html.h"
#include "sitemill/report/audit_json.h"
#include "verbose.h"
#include "vocabulary.h"

namespace sitemill::cli {
namespace {

struct audit_cli_options {
  std::string site;
  audit_options run;
  bool ignore_nofollow = false;
  crawl_access_flags access;  // --header to --netrc-file
  bool json_out = false;
  bool quiet = false;
  std::string html;  // --html FILE
  std::vector<std::string> fail_on;
};

// --fail-on's classes, comma-separated or repeated; std::nullopt after
// telling stderr which word is not one.
std::optional<std::vector<audit_class>> read_fail_on(
    const std::vector<std::string>& given) {
  std::vector<audit_class> out;
  if (given.empty())
    return std::vector<audit_class>{audit_class::not_indexable};
  for (const std::string& g : given) {
    std::size_t start = 0;
    while (start <= g.size()) {
      const std::size_t comma = std::min(g.find(',', start), g.size());
      const std::string word = g.substr(start, comma - start);
      start = comma + 1;
      if (word == "orphans")
        out.push_back(audit_class::orphan);
      else if (word == "missing")
        out.push_back(audit_class::missing);
      else if (word == "not-indexable")
        out.push_back(audit_class::not_indexable);
      else if (word != "none") {
        std::fprintf(stderr,
                     "sitemill audit: --fail-on %s: not a class; give "
                     "orphans, missing, not-indexable or none\n",
                     word.c_str());
        return std::nullopt;
      }
    }
  }
  return out;
}

void print_findings(const char* label, paint kind,
                    const std::vector<audit_finding>& list) {
  for (const audit_finding& f : list) {
    std::string line = f.url + ": " + f.message + " [" + f.reason + "]";
    if (!f.linked_from.empty()) line += ", linked from " + f.linked_from;
    if (!f.sitemap.empty()) line += " (in " + f.sitemap + ")";
    std::printf("%s: %s\n", painted(stdout, label, kind).c_str(), line.c_str());
  }
}

void print_human(const audit_report& r, std::span<const audit_class> fail_on,
                 bool quiet) {
  auto kind = [&](audit_class c) {
    return std::find(fail_on.begin(), fail_on.end(), c) != fail_on.end()
               ? paint::error
               : paint::warning;
  };
  if (!quiet) {
    for (const std::string& s : r.sitemaps)
      std::printf("sitemap: %s%s\n", s.c_str(),
                  r.discovered ? " (found at a common location)" : "");
    if (r.sitemaps.empty()) std::printf("sitemap: none found\n");
  }
  print_findings("orphan", kind(audit_class::orphan), r.orphans);
  print_findings("missing", kind(audit_class::missing), r.missing);
  print_findings("not indexable", kind(audit_class::not_indexable),
                 r.not_indexable);
  if (!quiet) {
    for (const std::string& n : r.notes)
      std::printf("%s: %s\n", painted(stdout, "note", paint::info).c_str(),
                  n.c_str());
    std::printf(
        "audited %s: %s, %s crawled: %s, %s, %s\n", r.site.c_str(),
        counted(r.sitemap_urls, "sitemap URL", "sitemap URLs").c_str(),
        counted(r.crawled_urls, "URL", "URLs").c_str(),
        counted(r.orphans.size(), "orphan", "orphans").c_str(),
        counted(r.missing.size(), "missing page", "missing pages").c_str(),
        counted(r.not_indexable.size(), "URL not indexable",
                "URLs not indexable")
            .c_str());
  }
  std::fflush(stdout);
}

int run_audit(audit_cli_options& o) {
  const auto fail_on = read_fail_on(o.fail_on);
  if (!fail_on) return exit_usage;
  audit_options& a = o.run;
  a.crawl.rules.honour_nofollow = !o.ignore_nofollow;
  a.crawl.trace = verbose_trace();
  // A site behind a login is audited with the crawl's credentials, read
  // as generate reads them (the site URL is the one start URL).
  auto logins = crawl_credentials(o.access, {a.site_url}, o.quiet);
  if (!logins) {
    std::fprintf(stderr, "sitemill audit: %s\n", logins.err().message.c_str());
    return exit_usage;
  }
  a.crawl.credentials = std::move(logins->front());
  http_options unused;
  trace_walk(a.walk, unused);

  // The library stops on a flag; a signal sets interrupted(), which this
  // thread turns into the flag.
  std::atomic<bool> stop{false}, over{false};
  a.stop = &stop;
  std::thread watch([&] {
    while (!over.load()) {
      if (interrupted()) stop = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  audit_report r = audit_site(a);
  over = true;
  watch.join();

  const vocabulary words = audit_words();
  to_cli_words(r.error, words);
  for (std::string& n : r.notes) to_cli_words(n, words);
  if (r.cancelled) {
    std::fprintf(stderr, "sitemill audit: interrupted\n");
    return exit_interrupted;
  }
  if (!r.error.empty() && !o.json_out) {
    std::fprintf(stderr, "sitemill audit: %s\n", r.error.c_str());
    return exit_usage;
  }
  if (o.json_out) {
    if (!json_to_stdout("audit", [&](sink& out) {
          return write_audit_json(out, r, *fail_on);
        }))
      return exit_usage;
  } else {
    print_human(r, *fail_on, o.quiet);
  }
  if (!o.html.empty()) {
    std::string page;
    append_audit_html(page, r, *fail_on);
    if (status w = write_file_atomically(o.html, page); !w) {
      std::fprintf(stderr, "sitemill audit: --html %s: %s\n", o.html.c_str(),
                   w.message().c_str());
      return exit_usage;
    }
  }
  if (!r.error.empty()) {
    std::fprintf(stderr, "sitemill audit: %s\n", r.error.c_str());
    return exit_usage;
  }
  return audit_outcome(r, *fail_on) == "failed" ? exit_data : exit_ok;
}

}  // namespace

command_runner setup_audit(CLI::App& app) {
  auto o = std::make_shared<audit_cli_options>();
  CLI::App* cmd = app.add_subcommand(
      "audit",
      "Compare a site's sitemaps with a crawl of its links: orphans, "
      "missing pages, URLs not indexable.\n"
      "The site's sitemaps are found (robots.txt's Sitemap: lines, else the "
      "common locations\n"
      "/sitemap.xml, /sitemap_index.xml, ...) and read, its pages crawled from "
      "the root by their links (as "
      "generate --from-crawl\n"
      "crawls, robots.txt obeyed, without seeding from the sitemaps), and "
      "three lists\n"
      "reported, each URL with its reason and the page that links to it:\n"
      "  orphans        sitemap URLs no crawled page links to;\n"
      "  missing        pages the crawl reached that search engines would "
      "index\n"
      "                 (200, HTML, not noindex, no canonical elsewhere) "
      "and no sitemap lists;\n"
      "  not indexable  sitemap URLs that answer other than 200, redirect, "
      "are noindex,\n"
      "                 are canonicalised elsewhere, are disallowed by "
      "robots.txt, or are\n"
      "                 on another host (the crawl's verdict where it "
      "reached them; the\n"
      "                 others fetched as check --audit fetches).\n"
      "docs/audit.md has the rules.");
  cmd->add_option("site", o->run.site_url,
                  "The site's root URL (https://www.example.com/)")
      ->required();
  cmd->add_flag("--json", o->json_out,
                "Print one JSON object on stdout: {site, sitemaps, totals, "
                "orphans, missing, not_indexable: [{url, reason, message, "
                "linked_from, sitemap, ...}], notes, outcome} "
                "(docs/report-schema.md)");
  cmd->add_option("--html", o->html,
                  "Also write the audit as one HTML page to FILE, in the "
                  "style of sitemill report")
      ->type_name("FILE");
  cmd->add_option("--fail-on", o->fail_on,
                  "Exit 1 when these classes have findings: orphans, "
                  "missing, not-indexable (comma-separated or repeated), or "
                  "none. Default: not-indexable")
      ->type_name("CLASSES");
  cmd->add_flag("-q,--quiet", o->quiet,
                "Print only the findings: no sitemaps, notes or summary");
  cmd->add_flag("--allow-private", o->run.crawl.allow_private,
                "Fetch from loopback and private addresses the site's URL "
                "does not name itself (an intranet site)");
  cmd->add_option("--max-sitemap-urls", o->run.max_sitemap_urls,
                  "Distinct sitemap URLs compared at most (about 120 bytes "
                  "each, plus the URL, are held)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  // generate --from-crawl's own declarations: a crawl option added there
  // (rendering pages, say) is audit's too, and audit_site() passes
  // crawl_options through unchanged.
  add_crawl_manner_flags(*cmd, o->run.crawl, o->ignore_nofollow,
                         "The crawl (as generate --from-crawl's)");
  add_crawl_access_flags(*cmd, o->access,
                         "The crawl (as generate --from-crawl's)");
  cmd->footer(
      "Exit codes: 0 no finding of a --fail-on class (by default: every "
      "sitemap URL is\n"
      "indexable); 1 at least one; 2 the audit could not be done (the "
      "site's robots.txt\n"
      "unreadable, a site URL that is not a root), or a usage error; 130 "
      "interrupted.\n"
      "Examples:\n"
      "  sitemill audit https://www.example.com/\n"
      "  sitemill audit --json --max-pages 5000 https://www.example.com/ > "
      "audit.json\n"
      "  sitemill audit --html audit.html --fail-on orphans,not-indexable "
      "https://www.example.com/");
  return [o] { return run_audit(*o); };
}

}  // namespace sitemill::cli
