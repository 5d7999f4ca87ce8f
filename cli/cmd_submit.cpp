// sitemill submit: sitemap URLs submitted to Search Console and Bing
// Webmaster Tools through their APIs (the ping endpoints are retired).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "command.h"
#include "sitemill/notify/submit.h"
#include "sitemill/numbers.h"
#include "sitemill/report/notify_json.h"
#include "sitemill/small_file.h"
#include "submit_flags.h"
#include "verbose.h"
#include "vocabulary.h"

namespace sitemill::cli {

namespace {

// A key as a file or a variable holds it: without the line end an editor
// adds, or any white space around it.
std::string key_text(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  return std::string(
      s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1));
}

}  // namespace

void submit_flags::add_to(CLI::App& cmd, const char* engines_flag,
                          const char* site_flag, const char* group) {
  cmd.add_option(engines_flag, engines,
                 "Engines to submit to, comma-separated: google, bing")
      // One word per use, so the positional after it stays one.
      ->allow_extra_args(false)
      ->delimiter(',')
      ->check(CLI::IsMember({"google", "bing"}))
      ->group(group);
  cmd.add_option("--google-key", google_key,
                 "A Google service account's JSON key file (Search Console "
                 "needs the account as an Owner of the property)")
      ->envname("SITEMILL_GOOGLE_KEY")
      ->group(group);
  cmd.add_option("--bing-key-file", bing_key_file,
                 "A file holding Bing Webmaster Tools' API key (or set "
                 "SITEMILL_BING_API_KEY to the key)")
      ->group(group);
  cmd.add_option(site_flag, site,
                 "The Search Console property: https://www.example.com/ or "
                 "sc-domain:example.com (default: each sitemap's origin "
                 "and /); Bing's siteUrl too, unless sc-domain:")
      ->group(group);
  cmd.add_option("--google-api-url", google_api_url,
                 "Search Console API root (a proxy's); the token URL is the "
                 "key file's token_uri")
      ->capture_default_str()
      ->group(group);
  cmd.add_option("--bing-api-url", bing_api_url,
                 "Bing Webmaster API root (a proxy's)")
      ->capture_default_str()
      ->group(group);
}

bool submit_flags::read(submit_options& out, const char* who,
                        bool all_with_keys) const {
  auto named = [this](const char* e) {
    return std::find(engines.begin(), engines.end(), e) != engines.end();
  };
  std::string bing_key;
  if (!bing_key_file.empty()) {
    // An API key is 32 characters; a file of 64 KiB is no key file.
    auto text = read_small_file(bing_key_file, 64 << 10);
    if (!text) {
      std::fprintf(stderr, "%s: --bing-key-file %s: cannot be read: %s\n", who,
                   bing_key_file.c_str(), text.err().message.c_str());
      return false;
    }
    bing_key = key_text(*text);
    if (bing_key.empty()) {
      std::fprintf(stderr, "%s: --bing-key-file %s: empty, no API key\n", who,
                   bing_key_file.c_str());
      return false;
    }
  } else if (const char* env = std::getenv(bing_key_variable)) {
    bing_key = key_text(env);
  }
  const bool google = named("google") ||
                      (engines.empty() && all_with_keys && !google_key.empty());
  const bool bing =
      named("bing") || (engines.empty() && all_with_keys && !bing_key.empty());
  if (google && google_key.empty()) {
    std::fprintf(stderr,
                 "%s: Google needs a service account's key: give --google-key "
                 "FILE (or set SITEMILL_GOOGLE_KEY to its path)\n",
                 who);
    return false;
  }
  if (bing && bing_key.empty()) {
    std::fprintf(stderr,
                 "%s: Bing needs its API key: give --bing-key-file FILE (or "
                 "set %s)\n",
                 who, bing_key_variable);
    return false;
  }
  if (google) {
    auto key = read_google_key(google_key);
    if (!key) {
      std::fprintf(stderr, "%s: --google-key %s\n", who,
                   key.err().message.c_str());
      return false;
    }
    out.google = std::move(*key);
  }
  if (bing) out.bing_api_key = std::move(bing_key);
  out.site = site;
  out.google_api_url = google_api_url;
  out.bing_api_url = bing_api_url;
  return true;
}

std::function<void(std::string_view)> secret_free_trace(
    const submit_options& options) {
  auto trace = verbose_trace();
  if (!trace) return trace;
  return [trace, options](std::string_view line) {
    trace(hide_secrets(line, options));
  };
}

void to_cli_words(submit_announcement& done, std::span<const term> words) {
  if (done.failure) to_cli_words(done.failure->message, words);
  if (!done.report) return;
  if (done.report->token) to_cli_words(done.report->token->message, words);
  for (submit_request& q : done.report->requests)
    to_cli_words(q.message, words);
}

namespace {

struct submit_cli_options {
  std::vector<std::string> sitemaps;
  submit_flags flags;
  bool dry_run = false;
  bool quiet = false;
  bool json_out = false;
  retry_flags net;
};

int print_json(const submit_run& run, int code) {
  const bool written = json_to_stdout(
      "submit", [&](sink& out) { return write_submit_json(out, run); });
  return written ? code : exit_usage;
}

int run_submit(submit_cli_options& o) {
  const char* me = "sitemill submit";
  submit_options options;
  options.dry_run = o.dry_run;
  if (!o.flags.read(options, me, /*all_with_keys=*/true)) return exit_usage;
  if (!submits_anywhere(options)) {
    std::fprintf(stderr,
                 "%s: no engine to submit to: give --google-key FILE "
                 "(Search Console) and/or --bing-key-file FILE or %s "
                 "(Bing Webmaster Tools)\n",
                 me, bing_key_variable);
    return exit_usage;
  }
  const vocabulary words = submit_words();
  http_options http = o.net.http();
  http.trace = secret_free_trace(options);
  http_client client(std::move(http));
  o.net.apply(options.retry, me, o.quiet);

  submit_run run;
  run.dry_run = o.dry_run;
  run.submission.sitemaps = o.sitemaps;
  auto done = submit_sitemaps(client, o.sitemaps, options);
  if (!done) {
    std::string why = in_cli_words(done.err().message, words);
    std::fprintf(stderr, "%s: %s\n", me, why.c_str());
    if (!o.json_out) return exit_usage;
    run.submission.failure = error{std::move(why)};
    return print_json(run, exit_usage);
  }
  run.submission.sitemaps = done->sitemaps;
  run.submission.report = std::move(*done);
  to_cli_words(run.submission, words);
  const submit_report& r = *run.submission.report;

  std::FILE* lines = o.json_out || o.dry_run ? stderr : stdout;
  const bool show = !(o.quiet && (o.json_out || o.dry_run));
  bool cancelled = false;
  if (r.token && show && (!r.token->ok() || (o.dry_run && !o.quiet)))
    std::fprintf(lines, "google token: %s: %s\n",
                 std::string(to_string(r.token->outcome)).c_str(),
                 r.token->message.c_str());
  for (const submit_request& q : r.requests) {
    cancelled = cancelled || q.outcome == submit_outcome::cancelled;
    if (show && (!o.quiet || !q.ok()))
      std::fprintf(lines, "%s: %s: %s: %s\n",
                   std::string(to_string(q.engine)).c_str(), q.sitemap.c_str(),
                   std::string(to_string(q.outcome)).c_str(),
                   q.message.c_str());
  }
  if (show && !o.quiet)
    std::fprintf(
        lines, "%s%s %s of %s\n", o.dry_run ? "sitemill submit: " : "",
        o.dry_run ? "would submit" : "submitted",
        with_commas(o.dry_run ? r.requests.size() : r.submitted()).c_str(),
        counted(r.requests.size(), "request", "requests").c_str());
  std::fflush(stdout);
  int code = r.ok() ? exit_ok : exit_data;
  if (cancelled || interrupted()) {
    std::fprintf(stderr, "%s: interrupted\n", me);
    code = exit_interrupted;
  }
  return o.json_out ? print_json(run, code) : code;
}

}  // namespace

command_runner setup_submit(CLI::App& app) {
  auto o = std::make_shared<submit_cli_options>();
  CLI::App* cmd = app.add_subcommand(
      "submit",
      "Submit sitemaps to Google Search Console and Bing Webmaster Tools.\n"
      "Through the engines' own APIs, now that their ping endpoints are "
      "retired: Search\n"
      "Console's sitemaps.submit as a service account (a JWT signed with its "
      "key, for a\n"
      "token), Bing's SubmitFeed with an API key. Each engine whose key is "
      "given is\n"
      "asked (--to names them). 2xx is success, 429 and 5xx are retried with "
      "backoff,\n"
      "and a refusal is explained from the engine's JSON error. Keys, tokens "
      "and the\n"
      "private key are never printed.");
  cmd->add_option("sitemap", o->sitemaps, "Sitemap URLs to submit")->required();
  o->flags.add_to(*cmd, "--to", "--site", "Engines");
  cmd->add_flag("--dry-run", o->dry_run,
                "Read the keys and sign, send nothing; print each request "
                "that would be made");
  o->net.add_to(*cmd);
  cmd->add_flag("-q,--quiet", o->quiet, "Print only failures and errors");
  cmd->add_flag("--json", o->json_out,
                "Print one JSON object on stdout with the token exchange and "
                "each request's outcome, status and tries (keys: "
                "docs/report-schema.md); the lines go to stderr");
  cmd->footer(
      "Output: one line per request on stdout (ENGINE: SITEMAP: OUTCOME: "
      "MESSAGE), then a\n"
      "summary; Google's token exchange on a line of its own when it "
      "failed.\n"
      "Exit codes: 0 every request submitted (2xx), or --dry-run; 1 an "
      "engine refused a\n"
      "sitemap or the token, kept failing, or was unreachable; 2 usage error "
      "(no engine,\n"
      "a key file that cannot be read or parsed, a bad URL or --site); 130 "
      "interrupted.\n"
      "With --json, stdout holds one JSON object instead (also for refused "
      "options), the\n"
      "lines go to stderr, and the exit codes are the same.\n"
      "Examples:\n"
      "  sitemill submit --google-key sa.json "
      "https://www.example.com/sitemap.xml\n"
      "  SITEMILL_BING_API_KEY=... sitemill submit --to bing "
      "https://www.example.com/sitemap.xml\n"
      "  sitemill submit --google-key sa.json --site sc-domain:example.com "
      "https://www.example.com/sitemap.xml");
  return [o] { return run_submit(*o); };
}

}  // namespace sitemill::cli
