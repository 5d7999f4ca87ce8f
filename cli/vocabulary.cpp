#include "vocabulary.h"

#include <algorithm>

namespace sitemill::cli {
namespace {

bool is_term_name(std::string_view name) {
  if (name.empty()) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

// The advice after a 403: how a CLI user publishes the key file.
std::string write_key_command(std::string_view key) {
  return "sitemill indexnow --key " + std::string(key) + " --write-key DIR";
}

}  // namespace

void to_cli_words(std::string& text, std::span<const term> words) {
  std::size_t open = text.find('`');
  if (open == std::string::npos) return;
  std::string out;
  out.reserve(text.size() + 32);
  std::size_t copied = 0;
  while (open != std::string::npos) {
    const std::size_t close = text.find('`', open + 1);
    if (close == std::string::npos) break;
    const std::string_view name =
        std::string_view(text).substr(open + 1, close - open - 1);
    const auto known =
        is_term_name(name)
            ? std::find_if(words.begin(), words.end(),
                           [&](const term& t) { return t.library == name; })
            : words.end();
    if (known == words.end()) {
      // A stray backquote (input quoted in a message may hold one): the
      // closing one may still open a term.
      open = close;
      continue;
    }
    out.append(text, copied, open - copied);
    out += known->cli;
    copied = close + 1;
    open = text.find('`', copied);
  }
  if (copied == 0) return;
  out.append(text, copied, std::string::npos);
  text = std::move(out);
}

std::string in_cli_words(std::string_view text, std::span<const term> words) {
  std::string out(text);
  to_cli_words(out, words);
  return out;
}

vocabulary generate_words(std::string_view indexnow_key) {
  return {
      {"sources",
       "list files (or - for stdin), --from-dir, --from-sitemap or "
       "--from-log"},
      {"out_dir", "--out"},
      {"output", "--out -"},
      {"manifest_dir", "--manifest-dir"},
      {"cache_control", "--cache-control"},
      {"keep_old", "--keep-old"},
      {"sitemaps_url", "--sitemaps-url"},
      {"memory_budget", "--memory-budget"},
      {"shard", "--shard"},
      {"presplit", "--shard-presplit"},
      {"base_url", "--base-url"},
      {"more_base_urls", "--base-url"},
      {"max_urls", "--max-urls"},
      {"max_bytes", "--max-bytes"},
      {"name", "--name"},
      {"xsl_href", "--xsl URL"},
      {"bundled_stylesheet", "--xsl default"},
      {"html_view", "--html"},
      {"html_page_urls", "--html-page-urls"},
      {"strict", "--strict"},
      {"dry_run", "--dry-run"},
      {"date_format", "--date-format"},
      {"time_zone", "--timezone"},
      {"lastmod", "--lastmod"},
      {"state", "--state FILE"},
      {"state_path", "--state FILE"},
      {"format", "--input-format"},
      {"columns", "--columns"},
      {"delimiter", "--delimiter"},
      {"more_date_formats", "--date-format"},
      {"patterns", "--include or --exclude"},
      {"url_patterns", "--include or --exclude"},
      {"sections", "--section"},
      {"layout", "--layout"},
      {"sections_from_first_segment", "--section-by first-segment"},
      {"from_sitemap", "--from-sitemap URL"},
      {"from_log", "--from-log FILE"},
      {"from_dir", "--from-dir DIR"},
      {"error_pages", "--error-page"},
      {"location", "--from-sitemap"},
      {"allow_private", "--allow-private"},
      {"keep_query", "--log-keep-query"},
      {"priority_from_popularity", "--priority popularity"},
      // announce_options, as check_announce_options() and announce_sets()
      // name them.
      {"robots_path", "--robots"},
      {"key", "--indexnow-key"},
      {"endpoint", "--indexnow-endpoint"},
      {"key_location", "--indexnow-key-location"},
      {"write_indexnow_key", write_key_command(indexnow_key)},
      {"google", "--google-key"},
      {"google_api_url", "--google-api-url"},
      {"bing_api_key", "--bing-key-file"},
      {"bing_api_url", "--bing-api-url"},
      {"site", "--submit-site"},
      // The crawler's (crawl_options).
      {"start_url", "--from-crawl"},
      {"honour_robots", "--ignore-robots"},
      {"render", "--render"},
      {"render_wait", "--render-wait"},
      {"render_concurrency", "--render-concurrency"},
      {"render_memory_mib", "--render-memory"},
      {"user_agent", "--user-agent"},
      {"headers", "--header"},
      {"cookies", "--cookie or --cookie-file"},
      {"user", "--user or --netrc"},
  };
}

vocabulary indexnow_words(std::string_view key) {
  return {
      {"key", "--key"},
      {"endpoint", "--endpoint"},
      {"key_location", "--key-location"},
      {"batch_size", "--batch-size"},
      {"generate_indexnow_key", "--write-key"},
      {"write_indexnow_key", write_key_command(key)},
      {"json", "--json"},
      {"urls", "--urls"},
  };
}

vocabulary submit_words() {
  return {{"google", "--google-key"},
          {"google_api_url", "--google-api-url"},
          {"bing_api_key", "--bing-key-file"},
          {"bing_api_url", "--bing-api-url"},
          {"site", "--site"}};
}

vocabulary check_words() {
  return {{"fetch_children", "--fetch-children"},
          {"allow_private", "--allow-private"},
          {"sitemap_url", "--sitemap-url"},
          {"max_depth", "--max-depth"},
          {"max_documents", "--max-documents"},
          {"max_total_bytes", "--max-bytes"},
          {"max_time", "--max-time"},
          {"lenient_schema", "--lenient-schema"},
          {"max_hreflang_links", "--max-hreflang-links"}};
}

namespace {

// How stats, diff and report read a set.
vocabulary set_reading_words() {
  return {{"set_name", "--set"},
          {"fetch_children", "--fetch-children"},
          {"allow_private", "--allow-private"}};
}

}  // namespace

vocabulary inspect_words() {
  vocabulary v = set_reading_words();
  v.push_back({"fail_on", "--fail-on"});  // diff's
  return v;
}

vocabulary report_words() {
  vocabulary v = set_reading_words();
  v.push_back({"lenient_schema", "--lenient-schema"});
  v.push_back({"max_documents", "--max-documents"});
  v.push_back({"max_total_bytes", "--max-bytes"});
  v.push_back({"max_time", "--max-time"});
  // check's own flags, which report does not repeat.
  v.push_back({"sitemap_url", "sitemill check --sitemap-url"});
  v.push_back({"max_depth", "sitemill check --max-depth"});
  v.push_back({"max_hreflang_links", "sitemill check --max-hreflang-links"});
  return v;
}

vocabulary audit_words() {
  return {{"max_pages", "--max-pages"},
          {"max_depth", "--max-depth"},
          {"max_frontier_urls", "the crawl frontier's bound"},
          {"max_sitemap_urls", "--max-sitemap-urls"},
          {"site_url", "the site URL"},
          {"honour_robots", "which audit never does"},
          {"allow_private", "--allow-private"}};
}

vocabulary robots_words() { return {{"replace", "--replace"}}; }

vocabulary merge_words() {
  return {{"out_dir", "--out"},
          {"name", "--name"},
          {"manifest_dir", "--manifest-dir"},
          {"cache_control", "--cache-control"},
          {"keep_old", "--keep-old"},
          // generate's, which a merge's advice and refusals name
          {"shard", "sitemill generate --shard"},
          {"presplit", "sitemill generate --shard-presplit"}};
}

}  // namespace sitemill::cli
