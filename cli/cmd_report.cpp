// sitemill report: one self-contained HTML page with the numbers of a set
// (compute_stats) and every finding of check, grouped by code.
//
// Two reads of the set, on two threads: compute_stats() without the XSD
// comparison, and check() with it. One pass would need check's observer to
// see the entries (it sees one document_report per document). On one core
// the two reads take 1.7 times check's time (docs/report.md has the
// measurement), within the 2x the issue sets; a second core lets them
// overlap.
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <thread>

#include "command.h"
#include "docs_location.h"
#include "inspect_flags.h"
#include "sitemill/atomic_file.h"
#include "sitemill/check/check.h"
#include "sitemill/inspect/stats.h"
#include "sitemill/report/finding_lines.h"
#include "sitemill/report/report_html.h"
#include "vocabulary.h"

namespace sitemill::cli {
namespace {

struct report_cli_options {
  std::string input;
  std::string output;
  inspect_flags flags;
  bool lenient_schema = false;
};

class interruptible final : public check_observer {
 public:
  bool cancelled() override { return interrupted(); }
};

check_options check_options_for(const inspect_options& in, bool lenient) {
  check_options c;
  c.lenient_schema = lenient;
  static_cast<walk_caps&>(c) = in;
  c.http = in.http;
  c.fetch_children = in.fetch_children;
  c.allow_private = in.allow_private;
  return c;
}

int fail(const std::string& message) {
  std::fprintf(stderr, "sitemill report: %s\n", message.c_str());
  return exit_usage;
}

// Without -o the report goes here, in the working directory.
constexpr const char* default_report_file = "sitemap-report.html";

// The default file may be replaced only when it is missing or an earlier
// report (its head holds report_html_marker): a page of the user's own of
// that name is never overwritten without -o naming it.
bool replaceable_by_default(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return true;
  std::string head(2048, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return head.find(report_html_marker) != std::string::npos;
}

int run_report(report_cli_options& o) {
  const inspect_options options = o.flags.options();
  const vocabulary words = report_words();
  const bool by_default = o.output.empty();
  if (by_default) {
    o.output = default_report_file;
    // Said before reading, so a long read does not end in a refusal.
    if (!replaceable_by_default(o.output))
      return fail(o.output +
                  " exists and is not a sitemill report: not replaced; name "
                  "the file with -o (-o " +
                  o.output + " replaces it)");
  }
  auto in = resolve_set_input(o.input, options.set_name, options.http);
  if (!in) return fail(in_cli_words(in.err().message, words));
  // The two reads run side by side: each is one thread's, and they share
  // nothing but the files. check compares with the schemas; counting need
  // not do it again (options.parse.schema_checks is off). A jthread, so
  // that an exception out of check() still joins it.
  std::optional<result<set_stats>> s;
  std::jthread counting([&] {
    s.emplace(compute_stats(*in, options, [] { return interrupted(); }));
  });
  interruptible observer;
  check_report checked = check(
      {in->target}, check_options_for(options, o.lenient_schema), observer);
  counting.join();
  std::vector<code_findings> findings;
  if (!interrupted()) {
    if (!*s) return fail(in_cli_words(s->err().message, words));
    findings = group_findings(checked);
    for (auto& group : findings)
      for (auto& example : group.examples) to_cli_words(example.message, words);
    quote_finding_lines(findings, [] { return interrupted(); });
  }
  if (interrupted()) {
    std::fprintf(stderr, "sitemill report: interrupted\n");
    return exit_interrupted;
  }
  std::string html;
  const std::string& docs = installed_docs_dir();
  append_report_html(html, **s, findings, docs.empty() ? "docs/" : docs);
  if (o.output == "-") {
    stdout_sink out;
    status written = out.write(html.data(), html.size());
    if (written) written = out.close();
    if (!written) return fail(written.message());
  } else if (status w = write_file_atomically(o.output, html); !w) {
    return fail("-o " + o.output + ": " + w.message());
  } else if (by_default) {
    std::fprintf(stderr, "sitemill report: wrote %s\n", o.output.c_str());
  }
  return exit_ok;
}

}  // namespace

command_runner setup_report(CLI::App& app) {
  auto o = std::make_shared<report_cli_options>();
  CLI::App* cmd = app.add_subcommand(
      "report",
      "Write one HTML page about a sitemap set: numbers, charts, findings.\n"
      "One self-contained HTML page about a sitemap set, for a person: "
      "totals (URLs,\n"
      "files, bytes, gzip ratio), URLs per file and per top-level path, "
      "lastmod by month\n"
      "(and the share without one), changefreq and priority as charts, "
      "extensions, and\n"
      "every finding of sitemill check grouped by code with its count and "
      "first 20\n"
      "examples (document, line, message). No scripts, nothing fetched "
      "when opened;\n"
      "prints well. The page summarises: the first 1,000 documents and the "
      "50 largest\n"
      "top-level paths are listed, so it stays small for 10^6 URLs. INPUT "
      "is what\n"
      "sitemill stats reads: a directory with a published set, a manifest, "
      "a sitemap\n"
      "or index file, its http(s) URL, a site's root URL, or a set in a "
      "bucket\n"
      "(s3://BUCKET/PREFIX/, read with signed requests as stats reads it). "
      "The set is\n"
      "read twice (stats, then check).");
  cmd->add_option(
         "input", o->input,
         "A directory with a set, a manifest, a sitemap file, a sitemap's "
         "URL, a site's root URL, or s3://BUCKET/PREFIX/ (a set in a bucket) "
         "or s3://BUCKET/KEY")
      ->required();
  cmd->add_option("-o,--output", o->output,
                  "The HTML file to write (replaced atomically); - for "
                  "stdout. Default: sitemap-report.html in the working "
                  "directory, said on stderr, and never replacing a file of "
                  "that name that is not an earlier report");
  cmd->add_flag("--lenient-schema", o->lenient_schema,
                "As check's: a document the official schemas reject is no "
                "error of its own, only its findings at the elements are "
                "listed");
  o->flags.add_to(*cmd);
  cmd->footer(
      "Exit codes: 0 the report was written (whatever it finds); 2 the "
      "input cannot be\n"
      "read at all, the output cannot be written (or, without -o, "
      "sitemap-report.html\n"
      "is a file of another kind), or a usage error; 130 interrupted.\n"
      "Examples:\n"
      "  sitemill report public/                 (writes sitemap-report.html)\n"
      "  sitemill report public/ -o report.html\n"
      "  sitemill report https://www.example.com/sitemap.xml -o - > "
      "report.html\n"
      "  sitemill report --set products public/ -o products.html\n"
      "  sitemill report s3://sitemaps/site/ -o report.html");
  return [o] { return run_report(*o); };
}

}  // namespace sitemill::cli
