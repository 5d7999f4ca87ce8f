#include "sitemill/notify/announce.h"

#include <algorithm>
#include <optional>
#include <span>

#include "sitemill/publish/bookkeeping.h"
#include "sitemill/url/url.h"

namespace sitemill {
namespace {

// "-index-K" with K a number: how the indexes of a set too large for one
// index are told apart (set_assembly.h).
bool is_index_suffix(std::string_view s) {
  if (!s.starts_with("-index-") || s.size() == 7) return false;
  return std::all_of(s.begin() + 7, s.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

// BASE/NAME for a set whose entry is BASE/NAME.xml (or BASE/NAME-index-1.xml
// for a set of several indexes), normalised; "" when it cannot be read.
std::string set_stem_url(std::string_view base_url, std::string_view entry) {
  if (!entry.ends_with(".xml")) return {};
  std::string_view stem = entry.substr(0, entry.size() - 4);
  if (const auto dash = stem.rfind("-index-");
      dash != std::string_view::npos && is_index_suffix(stem.substr(dash)))
    stem = stem.substr(0, dash);
  std::string url(base_url);
  if (!url.ends_with('/')) url.push_back('/');
  url += stem;
  std::string normalised;
  if (normalize_url(url, normalised) != url_problem::ok) return {};
  return normalised;
}

// True for the URLs an earlier run of the set named `stem_url` could have
// listed in robots.txt: the stem and an entry's ending (.xml, .xml.gz, .txt,
// .txt.gz: the entry's name before it was always NAME.xml), or an index's.
bool earlier_entry_of(std::string_view stem_url, std::string_view url) {
  if (!url.starts_with(stem_url)) return false;
  std::string_view rest = url.substr(stem_url.size());
  for (std::string_view ending : {".xml", ".xml.gz", ".txt", ".txt.gz"})
    if (rest == ending) return true;
  return rest.ends_with(".xml") &&
         is_index_suffix(rest.substr(0, rest.size() - 4));
}

constexpr std::string_view host_placeholder = "{host}";

// Why one robots.txt cannot serve the sets under `base_urls`, whose hosts
// differ, each having a robots.txt of its own; empty when it can (the path
// names each host, or they share one).
std::optional<error> robots_path_misfit(
    std::string_view robots_path, std::span<const std::string> base_urls) {
  if (robots_path.empty() ||
      robots_path.find(host_placeholder) != std::string_view::npos)
    return std::nullopt;
  std::string first_host;
  for (const std::string& b : base_urls) {
    normalized_url u;
    // A base that is no URL is for generate() to refuse, with its reason.
    if (normalize_url(b, u) != url_problem::ok) return std::nullopt;
    std::string host = host_directory(u);
    if (first_host.empty())
      first_host = std::move(host);
    else if (host != first_host)
      return error{
          "the `base_url` hosts differ, and each host has a robots.txt of its "
          "own: put {host} in the path (`robots_path` "
          "'public/{host}/robots.txt')",
          "robots_path"};
  }
  return std::nullopt;
}

}  // namespace

bool announcement::ok() const noexcept {
  if (robots && robots->failure) return false;
  if (indexnow) {
    if (indexnow->failure) return false;
    if (indexnow->report && !indexnow->report->ok()) return false;
  }
  if (submit && (submit->failure || (submit->report && !submit->report->ok())))
    return false;
  return true;
}

std::vector<std::string> indexnow_urls(const state_changes& changes) {
  std::vector<std::string> urls = changes.added;
  urls.insert(urls.end(), changes.changed.begin(), changes.changed.end());
  return urls;
}

namespace {

std::vector<std::string> sitemap_urls(const std::string& entry,
                                      const std::vector<published_file>& files,
                                      std::string_view base_url) {
  std::string base(base_url);
  if (!base.ends_with('/')) base.push_back('/');
  std::vector<std::string> urls;
  for (const published_file& f : files)
    if (f.type == document_type::sitemapindex || f.path == entry)
      urls.push_back(base + f.path);
  return urls;
}

// Where a set's files are served: its sitemaps_url, else `base_url` (a
// set_report an embedder filled before there was one).
std::string_view served_at(const set_report& set, std::string_view base_url) {
  return set.sitemaps_url.empty() ? base_url : set.sitemaps_url;
}

// One set: its entry and files, served at `sitemaps_url`; IndexNow gets
// the run's changes that lie under options.base_url (all of them, for a run
// with one).
announcement announce_one(http_client& client, const set_report& set,
                          std::string_view sitemaps_url,
                          const std::optional<state_changes>& changes,
                          const announce_options& options) {
  const std::string& entry = set.entry;
  announcement done;
  if (!options.robots_path.empty()) {
    robots_announcement& robots = done.robots.emplace();
    robots.path = options.robots_path;
    robots.sitemaps = sitemap_urls(entry, set.files, sitemaps_url);
    robots_edit_options edit;
    if (std::string stem = set_stem_url(sitemaps_url, entry); !stem.empty())
      edit.supersedes = [stem = std::move(stem)](std::string_view url) {
        return earlier_entry_of(stem, url);
      };
    auto updated = update_robots(robots.path, robots.sitemaps, edit);
    if (updated)
      robots.update = std::move(*updated);
    else
      robots.failure = std::move(updated).err();
  }

  if (!options.indexnow.key.empty() && changes) {
    indexnow_announcement& indexnow = done.indexnow.emplace();
    // The set's own URLs: a run over several hosts tells each host's
    // changes with its set. Without a base, every change is the set's.
    std::string base(options.base_url);
    if (!base.empty() && !base.ends_with('/')) base.push_back('/');
    for (std::string& url : indexnow_urls(*changes))
      if (url.starts_with(base)) indexnow.urls.push_back(std::move(url));
    if (!indexnow.urls.empty()) {
      auto sent = submit_indexnow(client, indexnow.urls, options.indexnow);
      if (sent)
        indexnow.report = std::move(*sent);
      else
        indexnow.failure = std::move(sent).err();
    }
  }
  if (submits_anywhere(options.submit)) {
    submit_announcement& submit = done.submit.emplace();
    submit.sitemaps = sitemap_urls(entry, set.files, sitemaps_url);
    auto sent = submit_sitemaps(client, submit.sitemaps, options.submit);
    if (sent)
      submit.report = std::move(*sent);
    else
      submit.failure = std::move(sent).err();
  }
  return done;
}

}  // namespace

std::vector<std::string> robots_sitemap_urls(const set_report& set,
                                             std::string_view base_url) {
  return sitemap_urls(set.entry, set.files, served_at(set, base_url));
}

bool sitemaps_cover_urls(const set_report& set) {
  return set.sitemaps_url.empty() || set.base_url.starts_with(set.sitemaps_url);
}

status check_announce_options(const announce_options& options,
                              std::span<const std::string> base_urls,
                              bool has_changes) {
  if (auto misfit = robots_path_misfit(options.robots_path, base_urls))
    return error{"`robots_path`: " + misfit->message, misfit->field};
  if (!options.indexnow.key.empty()) {
    if (!is_valid_indexnow_key(options.indexnow.key))
      return error{"`key` must be 8 to 128 of A-Z a-z 0-9 and -", "key"};
    if (!has_changes)
      return error{
          "`key` needs `state_path`, so that only the URLs added or changed "
          "since the last run are sent (as IndexNow asks)",
          "key"};
  }
  if (submits_anywhere(options.submit))
    if (status s = check_submit_options(options.submit); !s) return s;
  return {};
}

announcement announce_set(http_client& client, const set_report& set,
                          const std::optional<state_changes>& changes,
                          const announce_options& options) {
  return announce_one(client, set, served_at(set, options.base_url), changes,
                      options);
}

std::vector<announcement> announce_sets(
    http_client& client, std::span<const set_report> sets,
    const std::optional<state_changes>& changes,
    const announce_options& options) {
  std::vector<std::string> bases;
  for (const set_report& set : sets) bases.push_back(set.base_url);
  const std::optional<error> misfit =
      robots_path_misfit(options.robots_path, bases);
  std::vector<announcement> done;
  for (const set_report& set : sets) {
    announce_options one = options;
    one.base_url = set.base_url;
    if (misfit) one.robots_path.clear();
    normalized_url base;
    if (normalize_url(set.base_url, base) == url_problem::ok)
      for (std::size_t at;
           (at = one.robots_path.find(host_placeholder)) != std::string::npos;)
        one.robots_path.replace(at, host_placeholder.size(),
                                host_directory(base));
    announcement& its = done.emplace_back(
        announce_one(client, set, served_at(set, set.base_url), changes, one));
    if (misfit) {
      robots_announcement& robots = its.robots.emplace();
      robots.path = options.robots_path;
      robots.sitemaps = robots_sitemap_urls(set, set.base_url);
      robots.failure = misfit;
    }
  }
  return done;
}

}  // namespace sitemill
