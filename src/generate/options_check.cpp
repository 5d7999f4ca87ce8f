#include "generate/options_check.h"

#include <utility>
#include <vector>

#include "publish/set_outputs.h"
#include "store/s3_config.h"

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

// An out_dir that names object storage: s3:// only, and what a bucket
// cannot hold; bucket options only with one.
status check_bucket(const generate_options& o) {
  const bool bucket = store::is_s3_url(o.out_dir);
  const std::size_t scheme = o.out_dir.find("://");
  if (!bucket && scheme != std::string::npos && scheme > 0 &&
      o.out_dir.find('/') == scheme + 1)
    return error{"`out_dir` " + o.out_dir +
                     " is a URL; the one kind of URL sitemill publishes to is "
                     "an S3 bucket (s3://BUCKET/PREFIX/); give a directory "
                     "or an s3:// URL",
                 "out_dir"};
  if (!bucket) {
    if (!o.bucket.cache_control.empty())
      return error{"`cache_control` is sent with the objects of a bucket; "
                   "give an s3:// `out_dir`",
                   "cache_control"};
    if (o.bucket.keep_old.count() != 0)
      return error{"`keep_old` keeps a bucket's old objects; give an s3:// "
                   "`out_dir`",
                   "keep_old"};
    return {};
  }
  if (auto where = store::parse_s3_url(o.out_dir); !where) return where.err();
  if (o.bucket.keep_old.count() < 0)
    return error{"`keep_old` may not be negative", "keep_old"};
  for (const char c : o.bucket.cache_control)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      return error{"`cache_control` may not hold control characters",
                   "cache_control"};
  // A shard's part waits on disk for its merge: in manifest_dir, which a
  // bucket's set has no other use for (its manifest is in the bucket).
  if (o.shard.count > 0 && o.manifest_dir.empty())
    return error{"`shard`: a shard of a bucket's set is kept on disk until "
                 "its merge: give `manifest_dir`, a local directory all "
                 "shards and the merge share",
                 "shard"};
  if (o.shard.count == 0 && !o.manifest_dir.empty())
    return error{"`manifest_dir`: a bucket's manifest is kept in the bucket, "
                 "beside its prefix; leave it out with an s3:// `out_dir` "
                 "(it names where shards are kept, with `shard`)",
                 "manifest_dir"};
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
  if (o.output == nullptr)
    if (status s = check_bucket(o); !s) return s;
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

result<prepared_options> prepare_options(const generate_options& o,
                                         const generate_testing& t) {
  if (status s = check_options(o, t); !s) return s.err();
  auto normalizer = url_normalizer::with_base(o.base_url);
  if (!normalizer)
    return error{"`base_url`: " + normalizer.err().message, "base_url"};
  if (!o.more_base_urls.empty()) {
    std::vector<std::string> bases{o.base_url};
    bases.insert(bases.end(), o.more_base_urls.begin(), o.more_base_urls.end());
    normalizer = url_normalizer::with_bases(bases);
    if (!normalizer)
      return error{"`more_base_urls`: " + normalizer.err().message,
                   "more_base_urls"};
    if (status s = check_set_directories(*normalizer); !s) return s.err();
  }
  std::string sitemaps_url;
  if (!o.sitemaps_url.empty()) {
    auto at = url_normalizer::with_base(o.sitemaps_url);
    if (!at) return error{"`sitemaps_url`: " + at.err().message, "sitemaps_url"};
    sitemaps_url = at->base();
  }
  std::vector<std::string> date_formats{o.date_format};
  date_formats.insert(date_formats.end(), o.more_date_formats.begin(),
                      o.more_date_formats.end());
  auto dates = lastmod_reader::create(date_formats, o.time_zone);
  if (!dates) return dates.err();
  if (status s = check_sources(o, normalizer->base()); !s) return s.err();
  std::shared_ptr<const site_patterns> patterns;
  if (!o.url_patterns.empty()) {
    auto made = site_patterns::make(o.url_patterns);
    if (!made)
      return error{"`url_patterns`: " + made.err().message, "url_patterns"};
    patterns = std::make_shared<const site_patterns>(std::move(*made));
  }
  auto sections = section_rules::make(o);
  if (!sections) return sections.err();
  return prepared_options{
      std::move(*normalizer), std::move(*dates), std::move(patterns),
      std::make_shared<const section_rules>(std::move(*sections)),
      std::move(sitemaps_url)};
}

}  // namespace sitemill::detail
