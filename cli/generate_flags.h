// sitemill generate's flags that a library options struct holds as they are
// given, by group; each add_* is called where its group stands in --help.
// cmd_generate.cpp declares the flags it maps itself.
#ifndef SITEMILL_CLI_GENERATE_FLAGS_H
#define SITEMILL_CLI_GENERATE_FLAGS_H

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "crawl_access.h"
#include "sitemill/crawl/crawl_source.h"
#include "sitemill/generate/generate.h"
#include "sitemill/source/log_source.h"
#include "sitemill/source/site_source.h"

namespace sitemill::cli {

/// --max-urls, --max-bytes, --index (as given, in `index`), --xsl, --html,
/// --html-page-urls, --name, --threads, --sitemaps-url: the set's files.
void add_file_flags(CLI::App& cmd, generate_options& run, std::string& index);

/// When --sitemaps-url was not given, one base URL is, and run.out_dir (a
/// directory, not a URL such as s3://) lies inside one of `from_dirs` (sitemaps in a folder of the site), sets
/// run.sitemaps_url to the URL that folder is served at and returns that
/// --from-dir; "" otherwise.
std::string infer_sitemaps_url(const std::vector<std::string>& from_dirs,
                               const std::vector<std::string>& base_urls,
                               generate_options& run);

/// A bucket (--out s3://BUCKET/PREFIX/): --cache-control, --keep-old
/// (seconds, or a number with s, m, h or d).
void add_bucket_flags(CLI::App& cmd, bucket_options& bucket);

/// Scale: --shard (as given, in `shard`, for parse_shard()),
/// --shard-presplit, --memory-budget, --layout.
void add_scale_flags(CLI::App& cmd, std::string& shard, generate_options& run);

/// --include, --exclude, --include-regex, --exclude-regex: one ordered list,
/// since a later pattern wins (as in .gitignore).
struct pattern_flags {
  CLI::Option* include = nullptr;
  CLI::Option* exclude = nullptr;
  CLI::Option* include_regex = nullptr;
  CLI::Option* exclude_regex = nullptr;

  /// The patterns `cmd` was given, in order: those of a config file first
  /// (include, exclude, include-regex, exclude-regex), so a flag's
  /// patterns, later, win; a flag replaces the file's values of the same
  /// option.
  std::vector<site_pattern> in_order(const CLI::App& cmd) const;
};
pattern_flags add_filter_flags(CLI::App& cmd);

/// --section NAME=GLOB (validated as given) and --section-by.
void add_section_flags(CLI::App& cmd, std::vector<std::string>& sections,
                       std::string& section_by);
/// What add_section_flags() read, into run.sections and
/// run.sections_from_first_segment.
void read_section_flags(const std::vector<std::string>& sections,
                        const std::string& section_by, generate_options& run);

/// A crawl: --from-crawl (its start URLs, in `starts`) and its limits and
/// manners, --concurrency to --user-agent; --ignore-nofollow in
/// `ignore_nofollow`, a page rule (page_rules) the command maps with the
/// other --ignore-* flags; getting in (--header to --netrc-file,
/// crawl_access.h) in `access`.
void add_crawl_flags(CLI::App& cmd, std::vector<std::string>& starts,
                     crawl_options& crawl, bool& ignore_nofollow,
                     crawl_access_flags& access);

/// How a crawl goes, shared by generate --from-crawl and audit: its limits
/// and manners, --concurrency, --max-pages, --max-depth,
/// --max-query-variants, --max-page-size, --ignore-nofollow (in
/// `ignore_nofollow`) and --user-agent, in `group` of --help.
void add_crawl_manner_flags(CLI::App& cmd, crawl_options& crawl,
                            bool& ignore_nofollow, const std::string& group);

/// Access logs: --from-log (in `paths`), --log-keep-query, --priority (as
/// given, in `priority`).
void add_log_flags(CLI::App& cmd, std::vector<std::string>& paths,
                   log_source_options& logs, std::string& priority);

/// Dates: --date-format, --timezone.
void add_date_flags(CLI::App& cmd, generate_options& run);

/// --delimiter, into `delimiter` as typed; read_delimiter() reads it.
void add_delimiter_flag(CLI::App& cmd, std::string& delimiter);

/// A --delimiter value as reader_options::delimiter takes it: "auto" (or
/// nothing) 0, "tab" or a tab '\t', else its one character; std::nullopt
/// for anything longer.
std::optional<char> read_delimiter(std::string_view text);

}  // namespace sitemill::cli

#endif  // SITEMILL_CLI_GENERATE_FLAGS_H
