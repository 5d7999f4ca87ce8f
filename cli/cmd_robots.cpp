// sitemill robots: make robots.txt list exactly the given sitemaps.
#include <cstdio>
#include <string>
#include <vector>

#include "command.h"
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
};

int run_robots(robots_cli_options& o) {
  // Bad arguments are a usage error (2), before the file is touched.
  for (const std::string& s : o.sitemaps) {
    std::string url;
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
    std::fprintf(stderr, "sitemill robots: %s\n",
                 in_cli_words(done.err().message, words).c_str());
    return exit_usage;
  }
  const robots_edit& e = done->edit;
  const char* file = o.path.c_str();
  const bool dry = o.edit.dry_run;
  // --dry-run prints the file exactly as it would be written, BOM and line
  // ends included, so it can be diffed or redirected.
  if (dry) std::fwrite(e.text.data(), 1, e.text.size(), stdout);
  for (const auto& note : e.notes) {
    std::fprintf(stderr, "sitemill robots: %s: warning: %s\n", file,
                 in_cli_words(note, words).c_str());
  }
  if (!o.quiet) {
    for (const auto& r : e.removed) {
      std::fprintf(stderr, "sitemill robots: %s:%llu: %s \"%s\": %s\n", file,
                   static_cast<unsigned long long>(r.line),
                   dry ? "would remove" : "removed", r.text.c_str(),
                   in_cli_words(r.reason, words).c_str());
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
  return exit_ok;
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
  cmd->footer(
      "Exit codes: 0 the file lists the sitemaps (or would, with --dry-run); "
      "2 a sitemap\n"
      "URL is not absolute http(s), or the file cannot be read or written "
      "(or is UTF-16).\n"
      "Example: sitemill robots public/robots.txt --sitemap "
      "https://www.example.com/sitemap.xml");
  return [o] { return run_robots(*o); };
}

}  // namespace sitemill::cli
