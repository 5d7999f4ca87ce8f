// sitemill diff: what changed between two sets, sitemaps or URLs.
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

#include "command.h"
#include "inspect_flags.h"
#include "sitemill/inspect/diff.h"
#include "sitemill/numbers.h"
#include "sitemill/report/diff_json.h"
#include "vocabulary.h"

namespace sitemill::cli {
namespace {

struct diff_cli_options {
  std::string old_input, new_input;
  inspect_flags flags;
  bool json_out = false;
  std::size_t limit = 10;
  std::vector<std::string> fail_on;
};

// The first `limit` examples of each class, for the human summary.
class example_observer final : public diff_observer {
 public:
  example_observer(std::size_t limit, diff_json_writer* json)
      : limit_(limit), json_(json) {}

  void on_file(const file_difference& d) override {
    if (json_) return json_->file(d);
    std::string line = d.old_path.empty()   ? d.new_path
                       : d.new_path.empty() ? d.old_path
                       : d.old_path == d.new_path
                           ? d.new_path
                           : d.old_path + " -> " + d.new_path;
    keep(d.kind, std::move(line));
  }

  void on_url(const url_difference& d) override {
    if (json_) return json_->url(d);
    for (std::size_t c = 0; c < diff_class_count; ++c) {
      if (!(d.classes & (1u << c))) continue;
      const auto k = static_cast<diff_class>(c);
      if (examples_[c].size() >= limit_) continue;
      std::string line(d.url);
      if (k == diff_class::lastmod_forward ||
          k == diff_class::lastmod_backward || k == diff_class::lastmod_lost ||
          k == diff_class::lastmod_gained) {
        const std::string now =
            d.new_lastmod.empty() ? "(none)" : std::string(d.new_lastmod);
        // OLD's text comes when OLD is read again (on_old_lastmod()); until
        // then the instant the table kept stands in for it.
        if (d.old_lastmod)
          waiting_[std::string(d.url)].push_back({c, examples_[c].size(), now});
        line += "  " +
                (d.old_lastmod ? utc_datetime(*d.old_lastmod)
                               : std::string("(none)")) +
                " -> " + now;
      }
      keep(k, std::move(line));
    }
  }

  // Each lastmod is shown as its file has it: OLD's too.
  bool wants_old_lastmod_text() override { return json_ == nullptr; }
  void on_old_lastmod(std::string_view url, std::string_view text) override {
    const auto found = waiting_.find(std::string(url));
    if (found == waiting_.end()) return;
    for (const waiting& w : found->second)
      examples_[w.class_index][w.example] =
          std::string(url) + "  " + std::string(text) + " -> " + w.new_text;
    waiting_.erase(found);
  }

  bool cancelled() override { return interrupted(); }

  const std::vector<std::string>& examples(diff_class c) const {
    return examples_[static_cast<std::size_t>(c)];
  }

 private:
  void keep(diff_class c, std::string line) {
    auto& v = examples_[static_cast<std::size_t>(c)];
    if (v.size() < limit_) v.push_back(std::move(line));
  }

  // A lastmod example whose OLD text is still to come.
  struct waiting {
    std::size_t class_index, example;
    std::string new_text;
  };

  std::size_t limit_;
  diff_json_writer* json_;
  std::array<std::vector<std::string>, diff_class_count> examples_;
  std::unordered_map<std::string, std::vector<waiting>> waiting_;
};

std::string_view what_it_means(diff_class c) {
  switch (c) {
    case diff_class::added:
      return "URLs only NEW lists";
    case diff_class::removed:
      return "URLs only OLD lists";
    case diff_class::lastmod_forward:
      return "lastmod moved forward";
    case diff_class::lastmod_backward:
      return "lastmod moved BACKWARD: suspicious (a stale export, a "
             "restored backup, a clock?)";
    case diff_class::lastmod_gained:
      return "a lastmod where there was none";
    case diff_class::lastmod_lost:
      return "no lastmod where there was one";
    case diff_class::changefreq:
      return "another changefreq";
    case diff_class::priority:
      return "another priority";
    case diff_class::extensions:
      return "other hreflang, image, video or news items";
    case diff_class::files_added:
      return "files only NEW's manifest lists";
    case diff_class::files_removed:
      return "files only OLD's manifest lists";
    case diff_class::files_renamed:
      return "the same bytes under a new name";
    case diff_class::files_changed:
      return "the same name, other bytes";
  }
  return "";
}

void print_human(const diff_cli_options& o, const diff_summary& s,
                 const example_observer& ex) {
  std::printf("OLD %s: %s in %s\n", o.old_input.c_str(),
              counted(s.old_urls, "URL", "URLs").c_str(),
              counted(s.old_files, "file", "files").c_str());
  std::printf("NEW %s: %s in %s\n", o.new_input.c_str(),
              counted(s.new_urls, "URL", "URLs").c_str(),
              counted(s.new_files, "file", "files").c_str());
  if (s.same()) {
    std::printf(
        "same: no URL or field differs%s\n",
        s.files_compared ? ", and the manifests list the same files" : "");
    return;
  }
  std::printf("%s added, %s removed, %s\n",
              with_commas(s.count(diff_class::added)).c_str(),
              with_commas(s.count(diff_class::removed)).c_str(),
              counted(s.changed_urls, "changed URL", "changed URLs").c_str());
  for (std::size_t c = 0; c < diff_class_count; ++c) {
    const auto k = static_cast<diff_class>(c);
    const std::uint64_t n = s.count(k);
    if (n == 0) continue;
    std::printf("%s: %s (%s)\n", std::string(to_string(k)).c_str(),
                with_commas(n).c_str(), std::string(what_it_means(k)).c_str());
    for (const auto& line : ex.examples(k)) std::printf("  %s\n", line.c_str());
    if (n > ex.examples(k).size())
      std::printf("  ... and %s more (--limit, or --json for all)\n",
                  with_commas(n - ex.examples(k).size()).c_str());
  }
  std::fflush(stdout);
}

int run_diff(diff_cli_options& o) {
  const vocabulary words = inspect_words();
  std::vector<diff_guard> guards;
  if (!o.fail_on.empty()) {
    std::string all;
    for (const auto& g : o.fail_on) all += (all.empty() ? "" : ",") + g;
    auto parsed = parse_diff_guards(all);
    if (!parsed) {
      std::fprintf(stderr, "sitemill diff: %s\n",
                   in_cli_words(parsed.err().message, words).c_str());
      return exit_usage;
    }
    guards = std::move(*parsed);
  }
  const inspect_options options = o.flags.options();
  auto old_set = resolve_set_input(o.old_input, options.set_name, options.http);
  auto new_set =
      old_set ? resolve_set_input(o.new_input, options.set_name, options.http)
              : old_set;
  for (const auto* in : {&old_set, &new_set})
    if (!*in) {
      std::fprintf(stderr, "sitemill diff: %s\n",
                   in_cli_words(in->err().message, words).c_str());
      return exit_usage;
    }

  stdout_sink out;
  std::optional<diff_json_writer> json;
  if (o.json_out) json.emplace(out, o.old_input, o.new_input);
  example_observer observer(o.limit, json ? &*json : nullptr);
  auto s = diff_sets(*old_set, *new_set, options, observer);
  if (interrupted()) {
    std::fprintf(stderr, "sitemill diff: interrupted\n");
    return exit_interrupted;
  }
  if (!s) {
    std::fprintf(stderr, "sitemill diff: %s\n",
                 in_cli_words(s.err().message, words).c_str());
    return exit_usage;
  }

  std::vector<guard_verdict> verdicts;
  bool tripped = false;
  for (const auto& g : guards) {
    verdicts.push_back(judge(g, *s));
    tripped |= verdicts.back().tripped;
  }
  if (json) {
    status written = json->finish(*s, verdicts);
    if (written) written = out.close();
    if (!written) {
      std::fprintf(stderr, "sitemill diff: --json: %s\n",
                   written.message().c_str());
      return exit_usage;
    }
  } else {
    print_human(o, *s, observer);
  }
  for (const auto& v : verdicts)
    if (v.tripped)
      std::fprintf(stderr, "sitemill diff: guard tripped: %s\n",
                   v.sentence.c_str());
  if (!guards.empty()) return tripped ? exit_data : exit_ok;
  return s->same() ? exit_ok : exit_data;
}

}  // namespace

command_runner setup_diff(CLI::App& app) {
  auto o = std::make_shared<diff_cli_options>();
  CLI::App* cmd = app.add_subcommand(
      "diff",
      "Say what changed between two sitemap sets, with guards for CI.\n"
      "What changed between two sitemap sets: URLs added and removed, "
      "lastmod moved\n"
      "forward or BACKWARD (suspicious), gained or lost, another changefreq, "
      "priority or\n"
      "extension items (hreflang, image, video, news), and, when both are "
      "directories with\n"
      "a manifest, files added, removed, renamed (same bytes) or changed. "
      "OLD and NEW are\n"
      "each a directory with a published set, a manifest, a sitemap or "
      "index file, its\n"
      "http(s) URL, or a site's root URL (the sitemaps its robots.txt names). "
      "URLs are\n"
      "compared normalised; lastmods as instants. Both "
      "sets must be\n"
      "read whole: a missing child or a truncated file is an error, not a "
      "mass removal.\n"
      "Memory: 30-45 bytes per OLD URL (no URL text is kept; OLD is read "
      "twice to name\n"
      "removed URLs).\n" +
          std::string(bucket_input_help) +
          "Two sets with manifests (directories, buckets) are compared file by "
          "file too.");
  cmd->add_option("old", o->old_input,
                  "The set before (a directory, manifest, file, URL or "
                  "s3://BUCKET/PREFIX/)")
      ->required();
  cmd->add_option("new", o->new_input, "The set after (as OLD)")->required();
  cmd->add_flag("--json", o->json_out,
                "Print every difference as one JSON object, streamed: {old, "
                "new, files: [...], urls: [{url, changes, old_lastmod, "
                "new_lastmod}], summary} (docs/stats-diff.md)");
  cmd->add_option("--limit", o->limit,
                  "Examples printed per class in the summary")
      ->capture_default_str();
  cmd->add_option(
      "--fail-on", o->fail_on,
      "Exit 1 only when a guard trips: CLASS>N or CLASS>N%, comma-separated "
      "or repeated; N% is of OLD's URLs (files-*: of the files OLD's manifest "
      "lists). "
      "CLASS: added, removed, changed, lastmod-forward, lastmod-backward, "
      "lastmod-gained, lastmod-lost, changefreq, priority, extensions, "
      "files-added, files-removed, files-renamed, files-changed, any");
  o->flags.add_to(*cmd);
  cmd->footer(
      "Exit codes: without --fail-on, 0 the sets are the same, 1 they "
      "differ (as diff(1));\n"
      "with --fail-on, 1 when a guard trips (a line on stderr says which), "
      "else 0; 2 an\n"
      "input cannot be read whole, or a usage error; 130 interrupted.\n"
      "Examples:\n"
      "  sitemill diff yesterday/ public/\n"
      "  sitemill diff public/ https://www.example.com/  # built vs live\n"
      "  sitemill diff --json old.xml.gz new.xml.gz > changes.json\n"
      "  sitemill diff --fail-on 'removed>10%,lastmod-backward>0' \\\n"
      "      https://www.example.com/sitemap.xml staging/   # in CI, before "
      "publishing\n"
      "  sitemill diff --limit 50 old/sitemap.xml new/sitemap.xml\n"
      "  sitemill diff public/ s3://sitemaps/site/   # built vs published");
  return [o] { return run_diff(*o); };
}

}  // namespace sitemill::cli
