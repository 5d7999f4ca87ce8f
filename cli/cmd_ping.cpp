// sitemill ping: the legacy sitemap ping, done correctly for the endpoints
// that still take one. There is no default endpoint: the big engines have
// all retired theirs (PROTOCOL.md 4.1).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "command.h"
#include "sitemill/notify/ping.h"
#include "sitemill/url/url.h"

namespace sitemill::cli {
namespace {

struct ping_cli_options {
  std::vector<std::string> sitemaps;
  std::vector<std::string> endpoints;
  bool verify = false;
  bool dry_run = false;
  bool quiet = false;
  retry_flags net;
};

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

  bool all_ok = true;
  bool cancelled = false;
  for (const auto& sitemap : o.sitemaps) {
    if (o.verify) {
      if (o.dry_run) {
        std::string url;
        (void)normalize_url(sitemap, url);
        std::printf("GET %s (--verify: must answer 200)\n", url.c_str());
      } else {
        const sitemap_check c = verify_sitemap(client, sitemap, options.retry);
        if (interrupted()) {
          cancelled = true;
          break;
        }
        if (!c.ok) {
          std::printf("%s: %s\n", c.url.c_str(), c.message.c_str());
          all_ok = false;
          continue;
        }
        if (!o.quiet) {
          std::fprintf(stderr, "sitemill ping: %s %s\n", c.url.c_str(),
                       c.message.c_str());
        }
      }
    }
    for (const auto& endpoint : o.endpoints) {
      auto r = ping_sitemap(client, endpoint, sitemap, options);
      if (!r) {  // checked above; kept for safety
        std::fprintf(stderr, "sitemill ping: %s\n", r.err().message.c_str());
        return exit_usage;
      }
      if (o.dry_run) {
        std::printf("GET %s\n", r->request_url.c_str());
        continue;
      }
      std::printf("%s: %s: %s\n", r->request_url.c_str(),
                  std::string(to_string(r->outcome)).c_str(),
                  r->message.c_str());
      if (r->outcome == ping_outcome::cancelled) {
        cancelled = true;
        break;
      }
      all_ok = all_ok && r->ok();
    }
    if (cancelled) break;
  }
  std::fflush(stdout);
  if (cancelled || interrupted()) {
    std::fprintf(stderr, "sitemill ping: interrupted\n");
    return exit_interrupted;
  }
  return all_ok ? exit_ok : exit_data;
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
  cmd->footer(
      "Output: one line per ping on stdout, REQUEST-URL: OUTCOME: MESSAGE.\n"
      "Exit codes: 0 every ping answered 2xx (or --dry-run); 1 an endpoint "
      "is retired\n"
      "(404/410), refused, unreachable or still failing after the retries, "
      "or --verify\n"
      "failed; 2 usage error (a URL that is not absolute http(s)); 130 "
      "interrupted.\n"
      "Example: sitemill ping --endpoint https://www.example.org/ping "
      "https://www.example.com/sitemap.xml");
  return [o] { return run_ping(*o); };
}

}  // namespace sitemill::cli
