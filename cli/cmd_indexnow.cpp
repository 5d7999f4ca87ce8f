// sitemill indexnow: tell IndexNow engines which URLs changed.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "command.h"
#include "sitemill/notify/indexnow.h"
#include "sitemill/numbers.h"
#include "sitemill/report/generate_json.h"
#include "sitemill/report/notify_json.h"
#include "vocabulary.h"

namespace sitemill::cli {
namespace {

struct indexnow_cli_options {
  std::vector<std::string> urls;
  std::string urls_file;
  std::string manifest;
  std::string write_key_dir;
  indexnow_options run;
  bool quiet = false;
  bool json_out = false;
  retry_flags net;
};

// --json: the object on stdout, however the run ended.
int print_json(const indexnow_run& run, int code) {
  const bool written = json_to_stdout(
      "indexnow", [&](sink& out) { return write_indexnow_json(out, run); });
  return written ? code : exit_usage;
}

// One URL per line; blank lines and lines starting with '#' are skipped, so
// a commented list works as it is.
bool read_url_list(const std::string& path, std::vector<std::string>& out) {
  std::ifstream file;
  std::istream* in = &std::cin;
  if (path != "-") {
    file.open(path, std::ios::binary);
    if (!file) return false;
    in = &file;
  }
  std::string line;
  bool first = true;
  while (std::getline(*in, line)) {
    std::string_view s = line;
    if (first && s.starts_with("\xEF\xBB\xBF")) s.remove_prefix(3);
    first = false;
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
      s.remove_prefix(1);
    while (!s.empty() &&
           (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
      s.remove_suffix(1);
    if (s.empty() || s.front() == '#') continue;
    out.emplace_back(s);
  }
  return !in->bad();
}

int run_indexnow(indexnow_cli_options& o) {
  const char* me = "sitemill indexnow";
  const bool have_input =
      !o.urls.empty() || !o.urls_file.empty() || !o.manifest.empty();
  if (!have_input && o.write_key_dir.empty()) {
    std::fprintf(stderr,
                 "%s: no URLs; give them as arguments, with --urls FILE (- "
                 "for stdin) or --from-manifest FILE\n",
                 me);
    return exit_usage;
  }

  indexnow_run run;
  run.dry_run = o.run.dry_run;
  if (!o.write_key_dir.empty()) {
    const bool generated = o.run.key.empty();
    if (generated) o.run.key = generate_indexnow_key();
    auto path = write_indexnow_key(o.write_key_dir, o.run.key, o.run.dry_run);
    if (!path) {
      std::fprintf(
          stderr, "%s: %s\n", me,
          in_cli_words(path.err().message, indexnow_words(o.run.key)).c_str());
      return exit_usage;
    }
    // A generated key is the run's result: the user needs it for --key.
    if (generated && !o.json_out) std::printf("%s\n", o.run.key.c_str());
    run.key_file = {*path, o.run.key, generated};
    std::fprintf(stderr,
                 "%s: %s %s; publish it at the root of the site "
                 "(https://<host>/%s.txt) or give its URL with "
                 "--key-location\n",
                 me, o.run.dry_run ? "would write" : "wrote", path->c_str(),
                 o.run.key.c_str());
    if (!have_input) return o.json_out ? print_json(run, exit_ok) : exit_ok;
  }

  const vocabulary words = indexnow_words(o.run.key);
  std::vector<std::string> urls = o.urls;
  if (!o.urls_file.empty() && !read_url_list(o.urls_file, urls)) {
    std::fprintf(stderr, "%s: %s: cannot be read\n", me,
                 o.urls_file == "-" ? "<stdin>" : o.urls_file.c_str());
    return exit_usage;
  }
  if (!o.manifest.empty()) {
    auto changed = read_manifest_changes(o.manifest);
    if (!changed) {
      std::fprintf(stderr, "%s: %s\n", me,
                   in_cli_words(changed.err().message, words).c_str());
      return exit_usage;
    }
    urls.insert(urls.end(), changed->begin(), changed->end());
  }

  http_client client(o.net.http());
  o.net.apply(o.run.retry, "sitemill indexnow", o.quiet);

  auto done = submit_indexnow(client, urls, o.run);
  indexnow_announcement& submission = run.submission.emplace();
  if (!done) {
    std::string why = in_cli_words(done.err().message, words);
    std::fprintf(stderr, "%s: %s\n", me, why.c_str());
    if (!o.json_out) return exit_usage;
    submission.urls = std::move(urls);
    submission.failure = error{std::move(why)};
    return print_json(run, exit_usage);
  }
  indexnow_report& r = *done;
  for (auto& x : r.rejected) {
    to_cli_words(x.reason, words);
    std::fprintf(stderr, "%s: rejected %s: %s\n", me, x.url.c_str(),
                 x.reason.c_str());
  }
  if (urls.empty()) {
    // {"urls":0}, as generate's announce says that nothing changed.
    std::fprintf(stderr, "%s: no URLs to submit (nothing changed)\n", me);
    return o.json_out ? print_json(run, exit_ok) : exit_ok;
  }
  for (auto& b : r.batches) to_cli_words(b.message, words);
  // With --json, stdout holds the object alone and the lines people read go
  // to stderr (unless --quiet); a dry run's bodies are left out (each batch
  // counts its URLs, which are the input).
  std::FILE* lines = o.json_out ? stderr : stdout;
  const bool show_lines = !(o.json_out && o.quiet);

  const std::size_t n = r.batches.size();
  bool cancelled = false;
  for (std::size_t i = 0; i < n; ++i) {
    const indexnow_batch& b = r.batches[i];
    if (o.run.dry_run) {
      // stdout carries exactly the bodies, one JSON object per line.
      if (!o.json_out) {
        std::fwrite(b.body.data(), 1, b.body.size(), stdout);
        std::fputc('\n', stdout);
      }
      if (!o.quiet) {
        std::fprintf(stderr,
                     "%s: batch %zu/%zu: would POST %s to %s "
                     "(Content-Type: application/json; charset=utf-8)\n",
                     me, i + 1, n, counted(b.urls, "URL", "URLs").c_str(),
                     r.endpoint.c_str());
      }
      continue;
    }
    if (show_lines)
      std::fprintf(lines, "batch %zu/%zu: %s: %s: %s\n", i + 1, n,
                   counted(b.urls, "URL", "URLs").c_str(),
                   std::string(to_string(b.outcome)).c_str(),
                   b.outcome == indexnow_outcome::not_sent
                       ? "an earlier batch failed"
                       : b.message.c_str());
    cancelled = cancelled || b.outcome == indexnow_outcome::cancelled;
  }
  std::size_t failed = 0, not_sent = 0, in_batches = 0;
  for (const auto& b : r.batches) {
    in_batches += b.urls;
    if (b.outcome == indexnow_outcome::not_sent) {
      not_sent += b.urls;
    } else if (!b.ok() && b.outcome != indexnow_outcome::dry_run) {
      failed += b.urls;
    }
  }
  std::string summary =
      (o.run.dry_run ? "would send " + counted(in_batches, "URL", "URLs")
                     : "sent " + counted(r.sent(), "URL", "URLs")) +
      " of host " + (r.host.empty() ? "(none)" : r.host) + " to " + r.endpoint +
      " in " + counted(n, "batch", "batches");
  if (!o.run.dry_run) {
    summary += ": " + with_commas(r.accepted()) + " accepted, " +
               with_commas(failed) + " failed, " + with_commas(not_sent) +
               " not sent";
  }
  summary += "; " + with_commas(r.rejected.size()) + " rejected, " +
             counted(r.duplicates, "duplicate", "duplicates");
  std::FILE* where = o.run.dry_run ? stderr : lines;
  if (show_lines || o.run.dry_run)
    std::fprintf(where, "%s%s\n", o.run.dry_run ? "sitemill indexnow: " : "",
                 summary.c_str());
  std::fflush(stdout);
  int code = r.ok() ? exit_ok : exit_data;
  if (cancelled || interrupted()) {
    std::fprintf(stderr, "%s: interrupted\n", me);
    code = exit_interrupted;
  }
  if (!o.json_out) return code;
  submission.urls = std::move(urls);
  submission.report = std::move(done).value();
  return print_json(run, code);
}

}  // namespace

command_runner setup_indexnow(CLI::App& app) {
  auto o = std::make_shared<indexnow_cli_options>();
  CLI::App* cmd = app.add_subcommand(
      "indexnow",
      "Submit changed URLs to IndexNow (Bing, Yandex, Naver, Seznam, ...; "
      "not Google).\n"
      "URLs come from arguments, --urls FILE (one per line, - for stdin) "
      "and/or the\n"
      "\"changes\" of a generate manifest (added and changed URLs). They are "
      "normalised,\n"
      "deduplicated and POSTed as JSON in batches of at most 10,000, all of "
      "one host\n"
      "(--key-location's, else the first URL's): URLs of other hosts, or "
      "outside the key\n"
      "location's directory, are rejected before anything is sent. The key "
      "file\n"
      "<key>.txt, holding just the key, must be served at the site's root "
      "(or at\n"
      "--key-location); --write-key DIR creates it. 200/202 are success, "
      "429 and 5xx\n"
      "are retried with backoff, 400/403/422 are explained and end the "
      "run.");
  cmd->add_option("url", o->urls, "URLs to submit");
  cmd->add_option("--key", o->run.key,
                  "The site's IndexNow key: 8-128 of a-z A-Z 0-9 -")
      ->envname("SITEMILL_INDEXNOW_KEY");
  cmd->add_option(
      "--key-location", o->run.key_location,
      "URL of the key file when it is not https://<host>/<key>.txt; "
      "only URLs in its directory may be submitted");
  cmd->add_option("--endpoint", o->run.endpoint, "IndexNow endpoint")
      ->capture_default_str();
  cmd->add_option("--urls", o->urls_file,
                  "File of URLs, one per line (# comments and blank lines "
                  "skipped); - reads stdin");
  cmd->add_option("--from-manifest", o->manifest,
                  "A generate --json report with \"changes\": submits its "
                  "added and changed URLs");
  cmd->add_option("--write-key", o->write_key_dir,
                  "Write DIR/<key>.txt (a new random key when --key is not "
                  "given, printed on stdout)");
  cmd->add_option("--batch-size", o->run.batch_size, "URLs per POST")
      ->check(CLI::Range(1, 10'000))
      ->capture_default_str();
  cmd->add_flag("--dry-run", o->run.dry_run,
                "Send nothing; print each JSON body that would be POSTed, one "
                "per line");
  o->net.add_to(*cmd);
  cmd->add_flag("-q,--quiet", o->quiet, "Print only results and errors");
  cmd->add_flag("--json", o->json_out,
                "Print one JSON object on stdout with each batch's outcome, "
                "status and tries (keys: docs/report-schema.md); the lines "
                "go to stderr");
  cmd->footer(
      "Output: one line per batch on stdout (batch I/N: URLS: OUTCOME: "
      "MESSAGE), then a\n"
      "summary; rejected URLs on stderr.\n"
      "Exit codes: 0 every batch accepted (200/202), or nothing to send; 1 "
      "a URL was\n"
      "rejected, or the engine refused a batch or kept failing; 2 usage "
      "error (bad key,\n"
      "URL or endpoint, unreadable input, manifest without \"changes\"); "
      "130 interrupted.\n"
      "With --json, stdout holds one JSON object instead (also for a refused "
      "key or\n"
      "endpoint; none for missing or unreadable input), the lines go to "
      "stderr, and the\n"
      "exit codes are the same; a --dry-run's bodies are not printed.\n"
      "Examples:\n"
      "  sitemill indexnow --write-key public/        # prints a new key\n"
      "  sitemill indexnow --key KEY --urls changed.txt\n"
      "  sitemill indexnow --key KEY --from-manifest report.json\n"
      "  sitemill indexnow --json --key KEY --urls changed.txt | jq "
      "'.indexnow.batches'");
  return [o] { return run_indexnow(*o); };
}

}  // namespace sitemill::cli
