// sitemill ping: the legacy sitemap ping, done correctly for the endpoints
// that still take one. There is no default endpoint: the big engines have
// all retired theirs (docs/protocol.md 4.1).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "command.h"
#include "sitemill/notify/ping.h"
#include "sitemill/report/notify_json.h"
#include "sitemill/url/url.h"

namespace sitemill::cli {
namespace {

struct ping_cli_options {
  std::vector<std::string> sitemaps;
  std::vector<std::string> endpoints;
  bool verify = false;
  bool dry_run = false;
  bool quiet = false;
  bool json_out = false;
  retry_flags net;
};

// --json: the object on stdout, however the run ended.
int print_json(const ping_run& run, int code) {
  const bool written = json_to_stdout(
      "ping", [&](sink& out) { return write_ping_json(out, run); });
  return written ? code : exit_usage;
}

int run_ping(ping_cli_options& o) {
  // Every argument is checked before anything is sent.
  for (const auto& endpoint : o.endpoints) {
    for (const auto& sitemap : o.sitemaps) {
      auto url = ping_request_url(endpoint, sitemap);
      if (!url) {
        std::fprintf(stderr, "sitemill ping: %s\n", url.err().message.c_str());
        return exit_usage;
      }
    }
  }
  http_client client(o.net.http());
  ping_options options;
  options.dry_run = o.dry_run;
  o.net.apply(options.retry, "sitemill ping", o.quiet);
  options.retry.first_wait =
      std::min(options.retry.first_wait, options.retry.max_wait);

  // With --json, stdout holds the object alone and the lines people read go
  // to stderr (unless --quiet, which keeps only results: the object's).
  std::FILE* lines = o.json_out ? stderr : stdout;
  const bool show_lines = !(o.json_out && o.quiet);
  ping_run run;
  run.dry_run = o.dry_run;
  run.verify = o.verify;
  bool all_ok = true;
  bool cancelled = false;
  for (const auto& sitemap : o.sitemaps) {
    pinged_sitemap done;
    (void)normalize_url(sitemap, done.url);  // checked above
    if (o.verify) {
      if (o.dry_run) {
        if (show_lines)
          std::fprintf(lines, "GET %s (--verify: must answer 200)\n",
                       done.url.c_str());
      } else {
        sitemap_check c = verify_sitemap(client, sitemap, options.retry);
        if (interrupted()) {
          cancelled = true;
          break;
        }
        const bool verified = c.ok;
        if (!verified) {
          if (show_lines)
            std::fprintf(lines, "%s: %s\n", c.url.c_str(), c.message.c_str());
          all_ok = false;
        } else if (!o.quiet) {
          std::fprintf(stderr, "sitemill ping: %s %s\n", c.url.c_str(),
                       c.message.c_str());
        }
        done.verified = std::move(c);
        if (!verified) {
          run.sitemaps.push_back(std::move(done));
          continue;
        }
      }
    }
    for (const auto& endpoint : o.endpoints) {
      auto r = ping_sitemap(client, endpoint, sitemap, options);
      if (!r) {  // checked above; kept for safety
        std::fprintf(stderr, "sitemill ping: %s\n", r.err().message.c_str());
        return exit_usage;
      }
      if (show_lines) {
        if (o.dry_run)
          std::fprintf(lines, "GET %s\n", r->request_url.c_str());
        else
          std::fprintf(lines, "%s: %s: %s\n", r->request_url.c_str(),
                       std::string(to_string(r->outcome)).c_str(),
                       r->message.c_str());
      }
      const ping_outcome outcome = r->outcome;
      all_ok = all_ok && r->ok();
      done.pings.push_back(std::move(r).value());
      if (outcome == ping_outcome::cancelled) {
        cancelled = true;
        break;
      }
    }
    run.sitemaps.push_back(std::move(done));
    if (cancelled) break;
  }
  std::fflush(stdout);
  int code = all_ok ? exit_ok : exit_data;
  if (cancelled || interrupted()) {
    std::fprintf(stderr, "sitemill ping: interrupted\n");
    code = exit_interrupted;
  }
  return o.json_out ? print_json(run, code) : code;
}

}  // namespace

command_runner setup_ping(CLI::App& app) {
  auto o = std::make_shared<ping_cli_options>();
  CLI::App* cmd = app.add_subcommand(
      "ping",
      "Send the legacy sitemap ping to the engines that still take it.\n"
      "The legacy sitemap ping: GET ENDPOINT?sitemap=<encoded sitemap URL> "
      "for each\n"
      "--endpoint and sitemap. The sitemap URL is normalised as every <loc> "
      "is, then\n"
      "percent-encoded as a query value. Google (2023, 404) and Bing (2022, "
      "410) have\n"
      "retired their endpoints, so there is no default: announce sitemaps "
      "with\n"
      "'sitemill robots' and changed URLs with 'sitemill indexnow' instead. "
      "404 and 410\n"
      "are reported as retired endpoints; 429 and 5xx are retried with "
      "exponential\n"
      "backoff, honouring Retry-After (each wait capped by --max-wait).");
  cmd->add_option("sitemaps", o->sitemaps,
                  "Absolute URLs of the sitemaps or indexes to announce")
      ->required();
  cmd->add_option("--endpoint", o->endpoints,
                  "Ping URL of an engine, e.g. https://www.example.org/ping "
                  "(repeatable)")
      ->required()
      ->allow_extra_args(false);
  cmd->add_flag("--verify", o->verify,
                "First check that each sitemap URL answers 200; one that "
                "does not is not pinged");
  cmd->add_flag("--dry-run", o->dry_run,
                "Send nothing; print each request that would be sent");
  o->net.add_to(*cmd);
  cmd->add_flag("-q,--quiet", o->quiet, "Print only the results");
  cmd->add_flag("--json", o->json_out,
                "Print one JSON object on stdout with every ping's outcome, "
                "status and tries (keys: docs/report-schema.md); the lines "
                "go to stderr");
  cmd->footer(
      "Output: one line per ping on stdout, REQUEST-URL: OUTCOME: MESSAGE.\n"
      "Exit codes: 0 every ping answered 2xx (or --dry-run); 1 an endpoint "
      "is retired\n"
      "(404/410), refused, unreachable or still failing after the retries, "
      "or --verify\n"
      "failed; 2 usage error (a URL that is not absolute http(s)); 130 "
      "interrupted.\n"
      "With --json, stdout holds one JSON object instead (none on a usage "
      "error), the\n"
      "lines go to stderr, and the exit codes are the same.\n"
      "Examples:\n"
      "  sitemill ping --endpoint https://www.example.org/ping "
      "https://www.example.com/sitemap.xml\n"
      "  sitemill ping --json --endpoint https://www.example.org/ping "
      "https://www.example.com/sitemap.xml | jq '.sitemaps[].pings[].outcome'");
  return [o] { return run_ping(*o); };
}

}  // namespace sitemill::cli
