#include "generate/options_check.h"

namespace sitemill::detail {
namespace {

// Smallest max_bytes accepted: room for the declaration, the root tags and
// one short URL. Entries that do not fit a file are rejected one by one.
constexpr std::size_t min_max_bytes = 256;

// What cannot go to one stream: more sets or files than one sitemap.
status check_output(const generate_options& o) {
  auto refuse = [](const std::string& what) {
    return error{"`output`: " + what + "; publish to a directory (`out_dir`)",
                 "output"};
  };
  if (!o.out_dir.empty())
    return error{"give `out_dir` or `output`, not both", "output"};
  if (!o.more_base_urls.empty())
    return refuse("several base URLs make several sets");
  if (o.shard.count > 0)
    return refuse("a shard publishes nothing until its merge");
  if (!o.sections.empty() || o.sections_from_first_segment)
    return refuse("sections are written to files of their own");
  if (o.html_view || o.bundled_stylesheet)
    return refuse(
        "the HTML view and the bundled stylesheet write files beside the "
        "sitemap");
  return {};
}

}  // namespace

status check_options(const generate_options& o, const generate_testing& t) {
  if (o.sources.empty()) return error{"no input: give `sources`", "sources"};
  if (o.output != nullptr) {
    if (status s = check_output(o); !s) return s;
  } else if (o.out_dir.empty()) {
    return error{"`out_dir` is required", "out_dir"};
  }
  if (o.base_url.empty()) return error{"`base_url` is required", "base_url"};
  if (o.max_urls < 1 || o.max_urls > max_urls_per_sitemap)
    return error{"`max_urls` must be from 1 to 50,000 (the protocol's limit)",
                 "max_urls"};
  if (o.max_bytes < min_max_bytes || o.max_bytes > max_bytes_per_sitemap)
    return error{"`max_bytes` must be from " + std::to_string(min_max_bytes) +
                     " to 52,428,800 (the protocol's limit)",
                 "max_bytes"};
  // The stem becomes part of every file name and of the index's URLs, so it
  // keeps to characters that need no escaping in either.
  if (o.name.empty() || o.name.front() == '.' ||
      o.name.find_first_not_of(
          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
          "0123456789._-") != std::string::npos)
    return error{
        "`name` may use only letters, digits, '.', '_' and '-', and may not "
        "start with '.' (it becomes part of file names and URLs)",
        "name"};
  if (t.max_index_entries < 1 || t.max_index_entries > max_sitemaps_per_index)
    return error{"index entries must be from 1 to 50,000", "max_index_entries"};
  if (o.html_view && (o.html_page_urls < 1 || o.html_page_urls > 50'000))
    return error{"`html_page_urls` must be from 1 to 50,000", "html_page_urls"};
  if (o.shard.count > 0) {
    if (o.shard.index >= o.shard.count)
      return error{"`shard`: the index must be below the count", "shard"};
    auto refuse = [](const char* what, const char* field) {
      return error{std::string("`shard`: ") + what +
                       " cannot be split over shards yet; run it as one "
                       "process",
                   field};
    };
    if (!o.more_base_urls.empty())
      return refuse("a run over several base URLs", "more_base_urls");
    if (o.html_view) return refuse("the HTML view", "html_view");
    if (!o.state_path.empty()) return refuse("a state database", "state_path");
  } else if (o.shard.presplit) {
    return error{"`presplit` says how a shard's inputs are split; give `shard`",
                 "presplit"};
  }
  if (o.dry_run && o.output != nullptr)
    return error{
        "`dry_run` makes a set in a directory: give `out_dir`, not "
        "`output`",
        "dry_run"};
  if (o.dry_run && o.shard.count > 0)
    return error{
        "`dry_run` is for a whole run; a shard publishes nothing "
        "until its merge anyway",
        "dry_run"};
  if (!o.sitemaps_url.empty() && !o.more_base_urls.empty())
    return error{
        "`sitemaps_url` names where one set is served; with several base "
        "URLs each set is served at its own base (docs/hosts.md)",
        "sitemaps_url"};
  if (o.bundled_stylesheet && !o.xsl_href.empty())
    return error{"give `xsl_href` or `bundled_stylesheet`, not both",
                 "bundled_stylesheet"};
  return {};
}

// Every source's own check, before anything is written, so that a bad
// source fails the run without touching --out.
status check_sources(const generate_options& o, std::string_view base) {
  source_context context;
  context.base_url = base;
  context.has_state = !o.state_path.empty();
  for (const auto& source : o.sources)
    if (status s = source->validate(context); !s) return s;
  return {};
}

}  // namespace sitemill::detail
