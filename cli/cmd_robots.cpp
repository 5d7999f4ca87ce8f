// sitemill robots: make robots.txt list exactly the given sitemaps.
#include <cstdio>
#include <string>
#include <vector>

#include "command.h"
#include "sitemill/report/notify_json.h"
#include "sitemill/robots/robots_edit.h"
#include "sitemill/url/url.h"
#include "vocabulary.h"

namespace sitemill::cli {
namespace {

struct robots_cli_options {
  std::string path;
  std::vector<std::string> sitemaps;
  robots_edit_options edit;
  bool quiet = false;
  bool json_out = false;
};

// --json: one object on stdout whatever the edit came to, failure included.
int print_json(const robots_cli_options& o, robots_announcement robots) {
  const bool written = json_to_stdout("robots", [&](sink& out) {
    return write_robots_json(out, {o.edit.dry_run, std::move(robots)});
  });
  return written ? exit_ok : exit_usage;
}

int run_robots(robots_cli_options& o) {
  // Bad arguments are a usage error (2), before the file is touched.
  robots_announcement announced;
  announced.path = o.path;
  for (const std::string& s : o.sitemaps) {
    std::string& url = announced.sitemaps.emplace_back();
    const url_problem p = normalize_url(s, url);
    if (p == url_problem::relative_without_base) {
      std::fprintf(stderr,
                   "sitemill robots: --sitemap %s is relative; robots.txt "
                   "needs the full URL, e.g. "
                   "https://www.example.com/sitemap.xml\n",
                   s.c_str());
      return exit_usage;
    }
    if (p != url_problem::ok) {
      std::fprintf(stderr, "sitemill robots: --sitemap %s: %s\n", s.c_str(),
                   std::string(describe(p)).c_str());
      return exit_usage;
    }
  }

  const vocabulary words = robots_words();
  auto done = update_robots(o.path, o.sitemaps, o.edit);
  if (!done) {
    std::string why = in_cli_words(done.err().message, words);
    std::fprintf(stderr, "sitemill robots: %s\n", why.c_str());
    if (o.json_out) {
      announced.failure = error{std::move(why)};
      (void)print_json(o, std::move(announced));
    }
    return exit_usage;
  }
  const robots_edit& e = done->edit;
  const char* file = o.path.c_str();
  const bool dry = o.edit.dry_run;
  // --dry-run prints the file exactly as it would be written, BOM and line
  // ends included, so it can be diffed or redirected; with --json, the
  // object's "text" carries it.
  if (dry && !o.json_out) std::fwrite(e.text.data(), 1, e.text.size(), stdout);
  // Notes and reasons in the CLI's words, for stderr and --json alike.
  for (auto& note : done->edit.notes) {
    to_cli_words(note, words);
    std::fprintf(stderr, "sitemill robots: %s: warning: %s\n", file,
                 note.c_str());
  }
  for (auto& r : done->edit.removed) to_cli_words(r.reason, words);
  if (!o.quiet) {
    for (const auto& r : e.removed) {
      std::fprintf(stderr, "sitemill robots: %s:%llu: %s \"%s\": %s\n", file,
                   static_cast<unsigned long long>(r.line),
                   dry ? "would remove" : "removed", r.text.c_str(),
                   r.reason.c_str());
    }
    for (const auto& url : e.present) {
      std::fprintf(stderr, "sitemill robots: %s: already lists %s\n", file,
                   url.c_str());
    }
    for (const auto& url : e.added) {
      std::fprintf(stderr, "sitemill robots: %s: %s Sitemap: %s\n", file,
                   dry ? "would add" : "added", url.c_str());
    }
    const char* what =
        !e.changed && !done->created ? "unchanged"
        : dry ? (done->created ? "would be created" : "would be updated")
        : done->created ? "created"
                        : "updated";
    std::fprintf(stderr, "sitemill robots: %s %s\n", file, what);
  }
  if (!o.json_out) return exit_ok;
  announced.update = std::move(done).value();
  return print_json(o, std::move(announced));
}

}  // namespace

command_runner setup_robots(CLI::App& app) {
  auto o = std::make_shared<robots_cli_options>();
  CLI::App* cmd = app.add_subcommand(
      "robots",
      "Make a robots.txt file list exactly the given sitemaps as Sitemap: "
      "lines.\n"
      "Wanted URLs already listed stay where they are (the field name is "
      "matched in any\n"
      "case, the URL after normalisation); repeats of them are removed; "
      "missing ones are\n"
      "appended at the end with the file's own line ends. Every other byte "
      "(BOM, comments,\n"
      "groups, blank lines, CRLF) stays as it was. The file is created when "
      "missing and\n"
      "replaced atomically, so a crawler never reads half of it.");
  cmd->add_option("file", o->path, "The robots.txt file to edit or create")
      ->required();
  cmd->add_option("--sitemap", o->sitemaps,
                  "Absolute URL of a sitemap or sitemap index (repeatable)")
      ->required()
      ->allow_extra_args(false);
  cmd->add_flag("--replace", o->edit.replace,
                "Also remove Sitemap: lines naming other URLs");
  cmd->add_flag("--dry-run", o->edit.dry_run,
                "Write nothing; print the file as it would be on stdout");
  cmd->add_flag("-q,--quiet", o->quiet, "Print only warnings and errors");
  cmd->add_flag(
      "--json", o->json_out,
      "Print one JSON object on stdout saying what was done (keys: "
      "docs/report-schema.md); a --dry-run's file is in its \"text\"");
  cmd->footer(
      "Exit codes: 0 the file lists the sitemaps (or would, with --dry-run); "
      "2 a sitemap\n"
      "URL is not absolute http(s), or the file cannot be read or written "
      "(or is UTF-16).\n"
      "With --json, stdout holds one JSON object (also when the file cannot "
      "be read or\n"
      "written); a bad --sitemap prints none.\n"
      "Examples:\n"
      "  sitemill robots public/robots.txt --sitemap "
      "https://www.example.com/sitemap.xml\n"
      "  sitemill robots --json --dry-run public/robots.txt --sitemap "
      "https://www.example.com/sitemap.xml | jq .robots.added");
  return [o] { return run_robots(*o); };
}

}  // namespace sitemill::cli
