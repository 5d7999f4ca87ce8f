// sitemill merge: publishes the set the shards of a sharded generate run
// made (docs/scaling.md).
#include <cstdio>
#include <string>
#include <vector>

#include "command.h"
#include "generate_flags.h"
#include "sitemill/generate/merge.h"
#include "sitemill/numbers.h"
#include "sitemill/report/merge_json.h"
#include "verbose.h"
#include "vocabulary.h"

namespace sitemill::cli {
namespace {

struct merge_cli_options {
  merge_options run;
  bool json_out = false;
  bool quiet = false;
};

int run_merge(merge_cli_options& o) {
  o.run.cancelled = [] { return interrupted(); };
  o.run.bucket.http.trace = verbose_trace();
  const merge_report r = merge_shards(o.run);
  if (o.json_out && !json_to_stdout("merge", [&](sink& out) {
        return write_merge_json(out, r);
      }))
    return exit_usage;
  if (r.outcome == merge_outcome::published) {
    if (!o.quiet)
      std::fprintf(stderr,
                   "sitemill: merged %s and published %s to %s "
                   "(entry %s): %s written, %s, %s "
                   "rejected, %s, from %s\n",
                   counted(r.shards, "shard", "shards").c_str(),
                   counted(r.files.size(), "file", "files").c_str(),
                   o.run.out_dir.c_str(), r.entry_url.c_str(),
                   counted(r.written, "URL", "URLs").c_str(),
                   counted(r.duplicates, "duplicate", "duplicates").c_str(),
                   with_commas(r.rejected).c_str(),
                   counted(r.warnings, "warning", "warnings").c_str(),
                   counted(r.records, "record", "records").c_str());
    if (interrupted()) {  // during the publish, which was finished
      std::fprintf(stderr,
                   "sitemill merge: interrupted while publishing; the publish "
                   "was finished and the merged set is live (exit 3)\n");
      return exit_interrupted_published;
    }
    return exit_ok;
  }
  std::fprintf(stderr, "sitemill merge: %s\n",
               in_cli_words(r.message, merge_words()).c_str());
  switch (r.outcome) {
    case merge_outcome::failed:
      return exit_usage;
    case merge_outcome::cancelled:
      return exit_interrupted;
    default:
      return exit_data;
  }
}

}  // namespace

command_runner setup_merge(CLI::App& app) {
  auto o = std::make_shared<merge_cli_options>();
  CLI::App* cmd = app.add_subcommand(
      "merge",
      "Publish the set the shards of a sharded run made.\n"
      "After every 'sitemill generate --shard I/N --out DIR' of a run has "
      "finished, reads\n"
      "their shard manifests (beside DIR, in .sitemill/<name of DIR>/shards/, "
      "or the\n"
      "MANIFEST files given), checks that they are N shards of one set (each "
      "index once,\n"
      "one base URL, the same options and batch job), and publishes them in "
      "DIR as one\n"
      "run would: the sitemaps in shard order, the index last, atomically "
      "(a failed or\n"
      "killed merge leaves the previous set as it was). The shards' files "
      "are hard-linked,\n"
      "not copied, when they are on DIR's file system, and are left in "
      "place: a merge\n"
      "may be run again. docs/scaling.md.");
  cmd->add_option("manifests", o->run.manifests,
                  "Shard manifests (shard.json) to merge, instead of every "
                  "shard found beside --out");
  cmd->add_option("--out", o->run.out_dir,
                  "The shards' --out: where the set is published; an "
                  "s3://BUCKET/PREFIX/ bucket with --manifest-dir, the local "
                  "directory the shards were given")
      ->required();
  add_bucket_flags(*cmd, o->run.bucket);
  cmd->add_option("--name", o->run.name, "The set's name (generate's --name)")
      ->capture_default_str();
  cmd->add_option("--manifest-dir", o->run.manifest_dir,
                  "The bookkeeping directory generate was given "
                  "(--manifest-dir), if any");
  cmd->add_flag("--json", o->json_out,
                "Print one JSON object on stdout (keys: "
                "docs/report-schema.md)");
  cmd->add_flag("-q,--quiet", o->quiet, "Print errors only");
  cmd->footer(
      "Exit codes: 0 published; 1 the shards do not make one set (one "
      "missing or given\n"
      "twice, different options or runs), a shard file is not what its "
      "manifest says,\n"
      "or they hold no URL: nothing was published; 2 usage or I/O error; 3 "
      "interrupted\n"
      "once publishing had begun: the merged set is live; 130 interrupted, "
      "nothing published.\n"
      "Examples:\n"
      "  sitemill merge --out public\n"
      "  sitemill merge --out public --json | jq .entry_url\n"
      "  sbatch --dependency=afterok:$ARRAY_JOB --wrap 'sitemill merge --out "
      "/shared/www'\n"
      "  (a whole Slurm, Kubernetes or GNU parallel run: examples/scaling/)");
  return [o] { return run_merge(*o); };
}

}  // namespace sitemill::cli
