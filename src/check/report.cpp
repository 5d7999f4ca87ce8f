// The reports: one per document the walker opens, in the order reached,
// and each document it does not read reported where it was named (in the
// report of the index or robots.txt that lists it, at the listing line; a
// target in a report of its own). A report's findings are kept in a
// diagnostic_list (context.h), which this file implements too.
#include <algorithm>
#include <limits>
#include <string>

#include "check/checker.h"
#include "detail/text.h"

namespace sitemill::detail {

// --- diagnostic_list ---------------------------------------------------------

bool diagnostic_list::count(severity level, std::string_view code) {
  switch (level) {
    case severity::error:
      ++errors_;
      break;
    case severity::warning:
      ++warnings_;
      break;
    case severity::info:
      ++infos_;
      break;
  }
  auto it = codes_.find(code);
  if (it == codes_.end()) it = codes_.emplace(std::string(code), tally{}).first;
  it->second.level = level;
  if (it->second.listed >= max_) {
    ++it->second.unlisted;
    return false;
  }
  ++it->second.listed;
  return true;
}

void diagnostic_list::add(const diagnostic& d) {
  if (count(d.level, d.code)) kept_.push_back(d);
}

void diagnostic_list::add(diagnostic&& d) {
  if (count(d.level, d.code)) kept_.push_back(std::move(d));
}

void diagnostic_list::add(severity level, std::string_view code,
                          std::uint64_t line, std::uint64_t column,
                          std::string message) {
  add(diagnostic{level, std::string(code), line, column, std::move(message)});
}

void diagnostic_list::remove_code(std::string_view code) {
  auto it = codes_.find(code);
  if (it == codes_.end()) return;
  const std::uint64_t n = it->second.listed + it->second.unlisted;
  switch (it->second.level) {
    case severity::error:
      errors_ -= n;
      break;
    case severity::warning:
      warnings_ -= n;
      break;
    case severity::info:
      infos_ -= n;
      break;
  }
  codes_.erase(it);
  std::erase_if(kept_, [&](const diagnostic& d) { return d.code == code; });
}

void diagnostic_list::merge(diagnostic_list&& other) {
  for (diagnostic& d : other.kept_) add(std::move(d));
  for (const auto& [code, t] : other.codes_) {
    if (t.unlisted == 0) continue;
    auto it = codes_.find(code);
    if (it == codes_.end()) it = codes_.emplace(code, tally{}).first;
    it->second.level = t.level;
    it->second.unlisted += t.unlisted;
    switch (t.level) {
      case severity::error:
        errors_ += t.unlisted;
        break;
      case severity::warning:
        warnings_ += t.unlisted;
        break;
      case severity::info:
        infos_ += t.unlisted;
        break;
    }
  }
  other.kept_.clear();
  other.codes_.clear();
}

void diagnostic_list::finish_into(document_report& r) {
  // Findings about a child of an index arrive after the index's own; sort so
  // a reader goes down the file once.
  std::stable_sort(
      kept_.begin(), kept_.end(), [](const diagnostic& a, const diagnostic& b) {
        auto key = [](const diagnostic& d) {
          return d.line == 0 ? std::numeric_limits<std::uint64_t>::max()
                             : d.line;
        };
        return key(a) < key(b);
      });
  for (const auto& [code, t] : codes_) {
    if (t.unlisted == 0) continue;
    r.unlisted.push_back({code, t.level, t.unlisted});
    kept_.push_back(
        diagnostic{severity::info, "more-not-listed", 0, 0,
                   with_commas(t.unlisted) + " more " + code +
                       " diagnostics not listed (each code lists its first " +
                       with_commas(max_) + ")"});
  }
  r.diagnostics = std::move(kept_);
  kept_.clear();
  r.errors = errors_;
  r.warnings = warnings_;
  r.infos = infos_;
}

void diagnostic_list::add_into(document_report& r) {
  document_report more;
  finish_into(more);
  for (diagnostic& d : more.diagnostics) r.diagnostics.push_back(std::move(d));
  std::stable_sort(r.diagnostics.begin(), r.diagnostics.end(),
                   [](const diagnostic& a, const diagnostic& b) {
                     auto key = [](const diagnostic& d) {
                       return d.line == 0
                                  ? std::numeric_limits<std::uint64_t>::max()
                                  : d.line;
                     };
                     return key(a) < key(b);
                   });
  for (auto& u : more.unlisted) {
    auto same = std::find_if(r.unlisted.begin(), r.unlisted.end(),
                             [&](const auto& v) { return v.code == u.code; });
    if (same != r.unlisted.end())
      same->count += u.count;
    else
      r.unlisted.push_back(std::move(u));
  }
  r.errors += more.errors;
  r.warnings += more.warnings;
  r.infos += more.infos;
}

// --- the checker's reports ---------------------------------------------------

std::size_t checker::open_report(const walk_document& doc) {
  report_.documents.emplace_back();
  report_.documents.back().source = doc.source;
  report_.documents.back().parent = doc.listing.source;
  return report_.documents.size() - 1;
}

void checker::finish(std::size_t slot, diagnostic_list& diags) {
  document_report& r = report_.documents[slot];
  diags.finish_into(r);
  observer_.on_document(r);
}

void checker::not_read(const walk_document& doc, const walk_skip& why) {
  const bool listed = !doc.listing.source.empty();
  switch (why.reason) {
    case walk_skip_reason::stopped:
    case walk_skip_reason::repeated:  // a "duplicate-url" already
    case walk_skip_reason::off_site:  // an "outside-location" already
      return;
    case walk_skip_reason::bad_url:
      // A child is checked or said not to be: the parser may have told
      // what is wrong with its <loc>, not that it went unchecked.
      report(doc, "bad-target",
             std::string(listed ? "not checked: " : "") +
                 "not a URL that can be fetched: " + why.message,
             true);
      return;
    case walk_skip_reason::unsupported_scheme:
      // An index's children are fetched; only the top target may also be
      // a bucket's set or object.
      report(doc, "bad-target",
             listed ? "not checked: only local files and http(s) URLs can "
                      "be fetched"
                    : "only local files, http(s) URLs and s3://BUCKET/PREFIX/ "
                      "or s3://BUCKET/KEY can be checked",
             true);
      return;
    case walk_skip_reason::cycle:
      report(doc, "index-cycle",
             "lists an index that lists it (directly or through other "
             "indexes): a cycle, not followed",
             true);
      return;
    case walk_skip_reason::already_read:
      already_checked(doc, "it");
      return;
    case walk_skip_reason::too_deep:
      report(doc, "max-depth",
             "not checked: it is " + std::to_string(doc.depth) +
                 " levels below the target, deeper than the limit of " +
                 std::to_string(options_.max_depth) +
                 " (`max_depth`); sitemaps should be one index away from "
                 "robots.txt",
             true);
      return;
    case walk_skip_reason::cap: {
      std::string cap;
      switch (why.cap) {
        case walk_cap::documents:
          cap = "the run's cap of " + with_commas(options_.max_documents) +
                " documents (`max_documents`)";
          break;
        case walk_cap::bytes:
          cap = "the run's cap of " + with_commas(options_.max_total_bytes) +
                " bytes read (`max_total_bytes`)";
          break;
        case walk_cap::time:
          cap = "the run's time cap of " +
                std::to_string(options_.max_time.count()) + " s (`max_time`)";
          break;
      }
      report(doc, "cap-reached",
             "not checked: " + cap +
                 " was reached; it and every later document were left "
                 "unchecked",
             false);
      return;
    }
    case walk_skip_reason::child_not_found:
      report(
          doc, "child-not-found",
          (!why.path.empty()
               ? "no file " + why.path +
                     " beside the index (a local index's children are "
                     "looked for in its directory; `fetch_children` "
                     "fetches missing ones)"
           : !why.url.empty()
               ? "its URL is not below " + why.url +
                     ", the directory the index is served from, so no "
                     "file beside the index names it (`fetch_children` "
                     "fetches it)"
               : std::string("its URL names no file to look for beside "
                             "the index")) +
              (why.message.empty() ? std::string() : " (" + why.message + ")"),
          true);
      return;
    case walk_skip_reason::read_failed:
      report(doc, "read-failed", why.message, true);
      return;
    case walk_skip_reason::fetch_failed:
    case walk_skip_reason::out_of_scope:  // the message names where it led
      report(doc, "fetch-failed", why.message, true);
      return;
    case walk_skip_reason::http_status: {
      std::string m = doc.url + " answered HTTP " + std::to_string(why.status);
      if (!why.url.empty()) m += " (at " + why.url + ")";
      m += ": search engines read a sitemap only from a 200 response";
      report(doc, "http-status", std::move(m), true);
      return;
    }
    case walk_skip_reason::redirect_cycle:
      report(doc, "index-cycle",
             "redirects to " + why.url +
                 ", which lists it (directly or through other indexes): a "
                 "cycle, not followed",
             true);
      return;
    case walk_skip_reason::redirect_already_read:
      already_checked(doc, "redirects to " + why.url);
      return;
  }
}

void checker::already_checked(const walk_document& doc,
                              const std::string& what) {
  if (doc.listing.source.empty()) return;  // a target given twice: once
  open_.back().diagnostics().add(
      severity::info, "already-checked", doc.listing.line, doc.listing.column,
      "sitemap " + quote_text(doc.listing.loc) + ": " + what +
          " was already checked in this run; not checked again");
}

void checker::report(const walk_document& doc, std::string code,
                     std::string message, bool unreadable) {
  if (!doc.listing.source.empty()) {
    open_document& parent = open_.back();
    if (parent.fallback && doc.listing.line == 0 &&
        (code == "http-status" || code == "fetch-failed")) {
      // The site's /sitemap.xml, tried for want of Sitemap: lines.
      message = "no sitemap found: robots.txt names none, and " + doc.url +
                " could not be read (" + message +
                "); add 'Sitemap: <full URL>' lines to robots.txt";
      code = "no-sitemap-found";
    } else {
      message = "sitemap " + quote_text(doc.listing.loc) + ": " + message;
    }
    parent.diagnostics().add(severity::error, code, doc.listing.line,
                             doc.listing.column, std::move(message));
    return;
  }
  document_report r;
  r.source = doc.source;
  r.unreadable = unreadable;
  diagnostic_list diags(options_.max_listed_per_code);
  diags.add(severity::error, code, 0, 0, std::move(message));
  report_.documents.push_back(std::move(r));
  finish(report_.documents.size() - 1, diags);
}

}  // namespace sitemill::detail
