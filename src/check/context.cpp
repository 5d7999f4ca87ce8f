#include "check/context.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

#include "check/audit.h"
#include "detail/text.h"
#include "sitemill/limits.h"
#include "sitemill/url/url.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace sitemill::detail {
namespace {

// A 50,000-entry file needs 50,000; a broken file of a million tiny entries
// still fits in 32 MiB of table. Past this the duplicate rule stops (and says
// so) rather than let memory follow the input.
constexpr std::size_t max_fingerprints = 1u << 20;

}  // namespace

std::span<const context_code_info> all_context_codes() noexcept {
  using enum severity;
  static constexpr context_code_info codes[] = {
      {"duplicate-url", warning, "6.D 37"},
      {"duplicate-check-stopped", info, "6.D 37"},
      {"mixed-hosts", error, "1, 6.D 38"},
      {"outside-location", error, "1.6, 1.7, 6.D 31"},
      {"bad-sitemap-url", error, "1.6"},
      {"child-not-found", error, "1.4, 6.E 41"},
      {"child-misplaced", error, "1.4, 6.E 41"},
      {"nested-index", warning, "1.4, 6.E 41"},
      {"index-cycle", error, "6.E 41, 7 E31"},
      {"already-checked", info, "6.E 41"},
      {"max-depth", error, "6.E 41"},
      {"cap-reached", error, "6.D 25"},
      {"read-failed", error, "-"},
      {"bad-target", error, "-"},
      {"fetch-failed", error, "6.E 41"},
      {"http-status", error, "6.E 41"},
      {"redirected", info, "6.E 41"},
      {"content-type", info, "6.D 24"},
      {"robots-txt-missing", info, "5"},
      {"no-sitemap-line", info, "5, 1.9"},
      {"no-sitemap-found", error, "5, 1.9"},
      {"schema-invalid", error, "6.D 28, 9.6"},
      {"hreflang-no-return", error, "3, 6.A 14"},
      {"hreflang-conflict", error, "3, 6.A 14"},
      {"hreflang-check-stopped", info, "3"},
      {"audit-status", error, "-"},
      {"audit-redirect", warning, "-"},
      {"audit-noindex", error, "-"},
      {"audit-canonical", warning, "-"},
      {"audit-robots", error, "5"},
      {"audit-robots-unreadable", warning, "5"},
      {"audit-lastmod", warning, "2.1"},
      {"audit-fetch-failed", error, "-"},
      {"audit-off-site", warning, "-"},
      {"audit-stopped", info, "-"},
      {"more-not-listed", info, "-"},
  };
  return codes;
}

// --- loc_fingerprints --------------------------------------------------------

std::uint64_t loc_fingerprints::prepare(std::string_view text) const noexcept {
  std::uint64_t fp = XXH3_64bits(text.data(), text.size());
  if (fp == 0) fp = 1;  // 0 marks an empty slot
  lines_.prefetch(fp);
  return fp;
}

loc_fingerprints::outcome loc_fingerprints::insert(std::uint64_t fp,
                                                   std::uint64_t line,
                                                   std::uint64_t& first_line) {
  // Full: a text already there is still recognised, a new one not kept.
  if (lines_.size() >= capacity_) {
    const std::size_t i = lines_.find(fp);
    if (i == lines_.npos) return outcome::full;
    first_line = lines_.payload(i);
    return outcome::seen;
  }
  const auto [i, added] = lines_.insert(fp);
  if (!added) {
    first_line = lines_.payload(i);
    return outcome::seen;
  }
  lines_.payload(i) = line;
  return outcome::added;
}

// --- host_of -----------------------------------------------------------------

namespace {

// Where the authority of an http(s) URL starts (after "//") and ends (at
// '/', '?', '#' or the end); {0, 0} for any other URL.
struct authority_span {
  std::size_t start = 0, end = 0;
};
authority_span authority_of(std::string_view url) {
  authority_span a;
  if (detail::istarts_with(url, "https://"))
    a.start = 8;
  else if (detail::istarts_with(url, "http://"))
    a.start = 7;
  else
    return a;
  // A loop, where find_first_of() would call memchr per byte.
  a.end = a.start;
  while (a.end < url.size() && url[a.end] != '/' && url[a.end] != '?' &&
         url[a.end] != '#')
    ++a.end;
  return a;
}

// The host of an http(s) URL as written: user info, port and a trailing dot
// dropped, letters in their case; empty for any other URL.
std::string_view host_as_written(std::string_view url) {
  url = trim(url);
  const authority_span span = authority_of(url);
  std::string_view authority = url.substr(span.start, span.end - span.start);
  if (std::size_t at = authority.rfind('@'); at != std::string_view::npos)
    authority.remove_prefix(at + 1);
  if (!authority.empty() && authority.front() == '[') {
    const std::size_t close = authority.find(']');
    if (close != std::string_view::npos)
      authority = authority.substr(0, close + 1);
  } else if (std::size_t colon = authority.find(':');
             colon != std::string_view::npos) {
    authority = authority.substr(0, colon);
  }
  // "example.com." names the same host as "example.com".
  if (!authority.empty() && authority.back() == '.') authority.remove_suffix(1);
  return authority;
}

}  // namespace

std::string_view host_of(std::string_view url, std::string& buffer) {
  const std::string_view host = host_as_written(url);
  if (host.empty()) return {};
  buffer.assign(host);
  for (char& c : buffer) c = detail::ascii_lower(c);
  return buffer;
}

// --- context_checker ---------------------------------------------------------

context_checker::context_checker(context_settings settings)
    : settings_(std::move(settings)),
      diagnostics_(settings_.max_listed_per_code),
      seen_(max_fingerprints),
      outside_site_(settings_.max_listed_per_code) {
  // Read once, not per entry; a scope that does not normalise stays empty,
  // and nothing is within an empty scope.
  if (settings_.scope) (void)normalize_url(*settings_.scope, scope_url_);
  if (settings_.site_scope)
    (void)normalize_url(*settings_.site_scope, site_url_);
}

void context_checker::vouch() {
  if (!settings_.site_scope) return;  // nothing was judged against it
  diagnostics_.remove_code("outside-location");
  diagnostics_.merge(std::move(outside_site_));
  outside_site_ = diagnostic_list(settings_.max_listed_per_code);
}

void context_checker::on_document(document_kind kind) { kind_ = kind; }

void context_checker::on_diagnostic(const diagnostic& d) {
  diagnostics_.add(d);
}

void context_checker::on_entry(const parsed_entry& e) {
  if (!e.loc.present) return;
  const std::string_view loc = trim(e.loc.text);
  if (loc.empty()) return;  // the parser reports an empty <loc>

  const std::uint64_t fingerprint = seen_.prepare(loc);
  check_host(loc, e);
  if (settings_.scope &&
      !(settings_.waive_scope_for_index &&
        kind_ == document_kind::sitemapindex) &&
      check_location(loc, e.loc.line, e.loc.column, scope_url_,
                     settings_.scope_origin, location_, diagnostics_)) {
    ++outside_;
    if (settings_.site_scope)
      check_location(loc, e.loc.line, e.loc.column, site_url_,
                     "root of the site, whose robots.txt names this sitemap "
                     "(or an index listing it): a Sitemap: line vouches for "
                     "URLs anywhere on its host",
                     location_, outside_site_);
  }

  if (settings_.hreflang != nullptr && kind_ != document_kind::sitemapindex &&
      settings_.hreflang->add_page(settings_.doc, fingerprint, e.extensions) ==
          hreflang_set::added::stopped_now)
    diagnostics_.add(
        severity::info, "hreflang-check-stopped", e.loc.line, e.loc.column,
        "hreflang return links and clusters are not checked in this run: "
        "it holds more hreflang links or pages than `max_hreflang_links` "
        "allows (the cap that bounds the memory they take); check fewer "
        "sitemaps at a time, or raise the cap");

  if (settings_.audit != nullptr && kind_ == document_kind::urlset &&
      !settings_.audit->add(settings_.slot, loc, trim(e.lastmod.text),
                            e.loc.line, e.loc.column))
    diagnostics_.add(
        severity::info, "audit-stopped", e.loc.line, e.loc.column,
        "URLs from here on are not audited: the run lists more than "
        "`max_audit_urls` URLs; audit fewer sitemaps at a time, or raise the "
        "cap");

  check_duplicate();
  pending_.present = true;
  pending_.fingerprint = fingerprint;
  pending_.line = e.loc.line;
  pending_.column = e.loc.column;
  pending_.text.assign(loc);
}

void context_checker::finish() { check_duplicate(); }

void context_checker::check_duplicate() {
  if (!pending_.present) return;
  pending_.present = false;
  const pending_loc& p = pending_;
  std::uint64_t first_line = 0;
  switch (seen_.insert(p.fingerprint, p.line, first_line)) {
    case loc_fingerprints::outcome::added:
      break;
    case loc_fingerprints::outcome::seen:
      diagnostics_.add_lazy(
          severity::warning, "duplicate-url", p.line, p.column, [&] {
            return "URL " + quoted_printable(p.text) +
                   " is listed again (first on line " +
                   with_commas(first_line) +
                   "): list each URL once; repeats only spend the file's "
                   "50,000-entry budget";
          });
      break;
    case loc_fingerprints::outcome::full:
      if (!seen_full_reported_) {
        seen_full_reported_ = true;
        diagnostics_.add(
            severity::info, "duplicate-check-stopped", p.line, p.column,
            "duplicates are not looked for past " + with_commas(seen_.size()) +
                " distinct URLs (the file is far over the 50,000-entry limit "
                "anyway)");
      }
      break;
  }
}

void context_checker::check_host(std::string_view loc, const parsed_entry& e) {
  // Nearly every entry starts with the first URL's scheme and authority,
  // byte for byte: no need to take its host apart.
  const std::size_t n = first_origin_.size();
  if (n != 0 && loc.size() >= n &&
      std::memcmp(loc.data(), first_origin_.data(), n) == 0 &&
      (loc.size() == n || loc[n] == '/' || loc[n] == '?' || loc[n] == '#'))
    return;
  const std::string_view host = host_of(loc, host_buffer_);
  if (host.empty()) return;  // not absolute: the parser reports it
  if (first_host_.empty()) {
    first_host_.assign(host);
    first_origin_.assign(loc.substr(0, authority_of(loc).end));
    first_host_line_ = e.loc.line;
    return;
  }
  if (host == first_host_) return;
  diagnostics_.add_lazy(
      severity::error, "mixed-hosts", e.loc.line, e.loc.column, [&] {
        return "URL " + quoted_printable(loc) + " is on host " + std::string(host) +
               ", but this file's first URL (line " +
               with_commas(first_host_line_) + ") is on " + first_host_ +
               ": all URLs in a sitemap must be on one host; put each host's "
               "URLs in its own sitemap";
      });
}

bool check_location(std::string_view loc, std::uint64_t line,
                    std::uint64_t column, const normalized_url& scope,
                    std::string_view scope_origin, location_scratch& scratch,
                    diagnostic_list& out) {
  // Only a URL that normalises can be compared; the parser reports the rest.
  // The memo gives normalize_url()'s text without parsing a known origin
  // again: a full normalisation per entry was most of a document's check.
  if (scratch.memo.normalize(loc, scratch.text) != url_problem::ok)
    return false;
  if (within_scope(scratch.text, scope)) return false;
  normalized_url& buffer = scratch.url;  // the components, for the message
  (void)normalize_url(loc, buffer);
  out.add_lazy(severity::error, "outside-location", line, column, [&] {
    std::string m = "URL " + quoted_printable(loc) + " is outside " +
                    std::string(scope.scope_directory());
    m += ", the ";
    m += scope_origin;
    m += ": search engines drop URLs that are not on the same scheme, host "
         "and port and at or below the sitemap's directory; move the sitemap "
         "up, or the URL into a sitemap of its own";
    // On its own host, one line of robots.txt is the other way (1.7).
    if (!scope.empty() && buffer.origin() == scope.origin() &&
        scope.scope_directory() != std::string(scope.origin()) + "/")
      m += ", or name the sitemap (or its index) in a Sitemap: line of the "
           "host's robots.txt, which vouches for it";
    return m;
  });
  return true;
}

}  // namespace sitemill::detail
