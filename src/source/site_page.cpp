// The directory source's judging of a file found by its walk
// (site_reader.h): error pages, robots.txt, meta refresh, noindex and
// canonical links (page_rules), the URL it is listed at, and its lastmod.
#include <algorithm>
#include <utility>

#include "detail/text.h"
#include "sitemill/date/dates.h"
#include "sitemill/date/w3c_datetime.h"
#include "sitemill/limits.h"
#include "sitemill/source/state_db.h"
#include "source/site_files.h"
#include "source/site_reader.h"

namespace sitemill::detail {
namespace {

// Google reads the first 15 MB of a page; a page many times that size is a
// mistake, and reading it whole would cost memory for nothing.
constexpr std::size_t max_html_bytes = std::size_t{64} << 20;

}  // namespace

bool site_reader::is_index(std::string_view name) const {
  return options_.map_index_files &&
         std::find(options_.index_files.begin(), options_.index_files.end(),
                   name) != options_.index_files.end();
}

bool site_reader::is_error_page(const std::string& rel,
                                std::string_view name) const {
  if (is_html_name(name) && is_error_status(name.substr(0, name.rfind('.')))) {
    return true;
  }
  if (std::find(options_.index_files.begin(), options_.index_files.end(),
                name) == options_.index_files.end()) {
    return false;
  }
  std::string_view dir = std::string_view(rel).substr(
      0, rel.size() - name.size());  // "a/404/" or ""
  if (dir.empty()) return false;
  dir.remove_suffix(1);
  return is_error_status(dir.substr(dir.rfind('/') + 1));
}

bool site_reader::names_itself(const normalized_url& canonical,
                               const std::string& rel, std::string_view name) {
  const std::string_view dir =
      std::string_view(rel).substr(0, rel.size() - name.size());
  std::string forms[3];
  std::size_t count = 0;
  forms[count++] = rel;
  if (std::find(options_.index_files.begin(), options_.index_files.end(),
                name) != options_.index_files.end()) {
    forms[count++] = dir;
    if (!dir.empty()) forms[count++] = dir.substr(0, dir.size() - 1);
  } else if (without_html_extension(name).size() != name.size()) {
    forms[count] = dir;
    forms[count++] += without_html_extension(name);
    forms[count] = forms[count - 1] + "/";
    ++count;
  }
  for (std::size_t i = 0; i < count; ++i) {
    form_.assign(normalizer_.base());
    append_url_path(form_, forms[i]);
    if (normalizer_.normalize(form_, scratch_url_) == url_problem::ok &&
        scratch_url_.href() == canonical.href()) {
      return true;
    }
  }
  return false;
}

std::string site_reader::disallowed(const normalized_url& url) const {
  if (!options_.rules.honour_robots || robots_.size() == 0) return {};
  const std::string_view target = url.path_and_query();
  return robots_.allowed(target) ? std::string{}
                                 : robots_.matching_rule(target);
}

std::string site_reader::stated_lastmod(const html_facts& facts) {
  for (std::size_t k = 0; k < stated_date_kinds; ++k) {
    const std::string& text = facts.stated_dates[k];
    if (text.empty()) continue;
    const auto kind = static_cast<stated_date_kind>(k);
    parsed_date date;
    const date_problem p =
        parse_feed_date(text, feed_date_format::rfc3339, date);
    if (p != date_problem::ok) {
      note_here(std::string(describe(kind)) + " " +
                detail::quoted_printable(text) + " is not a date (" +
                std::string(describe(p)) + "); not used as lastmod");
      continue;
    }
    if (date.value.unix_seconds() > now_) {
      note_here(std::string(describe(kind)) + " " +
                detail::quoted_printable(text) +
                " is in the future; not used as lastmod");
      continue;
    }
    char buf[max_lastmod_length];
    return std::string(buf, format_lastmod(date.value, buf));
  }
  return {};
}

bool site_reader::page(const std::string& rel, std::string_view name,
                       const std::string& path, const struct stat& st,
                       input_record& out) {
  const bool index = is_index(name);
  const std::string_view dir =
      std::string_view(rel).substr(0, rel.size() - name.size());
  if (index) {
    begin_record(out, rel, dir, false);
  } else if (options_.clean_urls &&
             without_html_extension(name).size() != name.size()) {
    begin_record(out, rel,
                 std::string(dir) + std::string(without_html_extension(name)),
                 false);
  } else {
    begin_record(out, rel, false);
  }
  // Every check compares normalised URLs; a loc the normaliser refuses
  // goes on as it is, and the entry stage reports why.
  if (normalizer_.normalize(loc_, url_) != url_problem::ok) return true;

  if (std::string rule = disallowed(url_); !rule.empty()) {
    return skip(out, "disallowed by robots.txt (" + rule + ")");
  }
  if (const std::string_view service = verification_service(name);
      !service.empty()) {
    return skip(out, "site verification file (" + std::string(service) + ")");
  }
  if (options_.skip_error_pages && is_error_page(rel, name)) {
    return skip(out, "error page (named for an HTTP error status)");
  }

  const bool html = is_html_name(name);
  const bool by_page = options_.lastmod == lastmod_policy::page;
  const bool state = options_.state != nullptr &&
                     (options_.lastmod == lastmod_policy::content || by_page);
  // Every listed HTML page is read and parsed on every run, state or no
  // state: its alternates and images come from this run's bytes.
  const bool inspect =
      html && (options_.rules.honour_noindex ||
               options_.rules.honour_canonical || options_.honour_refresh ||
               state || by_page || options_.alternates || options_.images);
  content_hash hash;
  std::string stated;
  if (inspect) {
    bool too_large = false;
    if (!read_file(path, bytes_, max_html_bytes, &too_large)) {
      return fail(out, "cannot read " + rel + ": " + describe_errno(errno));
    }
    if (too_large) {
      return fail(
          out, "cannot read " + rel + ": an HTML page over 64 MiB is not read");
    }
    html_scan_options scan;
    scan.images = options_.images;
    scan.dates = by_page;
    const html_facts facts = scan_html(bytes_, scan);
    hash = facts.hash;
    links_.resolve(url_, facts,
                   {.canonical = options_.rules.honour_canonical,
                    .refresh = options_.honour_refresh,
                    .alternates = options_.alternates,
                    .images = options_.images});
    if (!links_.refresh().empty() && links_.refresh().href() != url_.href()) {
      if (facts.refresh_seconds == 0) {
        return skip(out, "redirect (meta refresh to " +
                             std::string(links_.refresh().href()) + ")");
      }
      if (options_.trace) {
        options_.trace(source_ + ": listed: its meta refresh to " +
                       std::string(links_.refresh().href()) + " waits " +
                       std::to_string(facts.refresh_seconds) +
                       " s; only an instant one is a redirect");
      }
    }
    if (options_.rules.honour_noindex && facts.noindex) {
      return skip(out, "noindex (meta robots)");
    }
    if (!links_.canonical().empty() &&
        links_.canonical().href() != url_.href()) {
      if (!names_itself(links_.canonical(), rel, name)) {
        return skip(out, "canonical points to " +
                             std::string(links_.canonical().href()));
      }
      // The page itself under the spelling its site chose: listed so.
      url_ = links_.canonical();
      loc_.assign(url_.href());
      out.loc = loc_;
      if (std::string rule = disallowed(url_); !rule.empty()) {
        return skip(out, "disallowed by robots.txt (" + rule + ")");
      }
    }
    for (const std::string& n : links_.notes()) note_here(n);
    out.extensions = links_.extensions();
    if (by_page) stated = stated_lastmod(facts);
  } else if (state) {
    if (!hash_file(path, hash)) {
      return fail(out, "cannot read " + rel + ": " + describe_errno(errno));
    }
  }

  const std::string mtime = lastmod_from_unix_time(st.st_mtim.tv_sec);
  if (state) {
    // With a state database every listed page is offered, so that its
    // changes are tracked whichever date is published.
    auto answer = options_.state->lastmod_for(url_.href(), hash,
                                              stated.empty() ? mtime : stated);
    if (!answer) {
      error_ = std::move(answer).err().message;
      stack_.clear();
      return false;
    }
    lastmod_ = stated.empty() ? std::move(*answer) : std::move(stated);
    out.lastmod = lastmod_;
    return true;
  }
  switch (options_.lastmod) {
    case lastmod_policy::none:
    case lastmod_policy::content:  // needs a state; open refuses it
      break;
    case lastmod_policy::mtime:
      lastmod_ = mtime;
      out.lastmod = lastmod_;
      break;
    case lastmod_policy::page:
      if (stated.empty()) {
        ++undated_;
        break;
      }
      lastmod_ = std::move(stated);
      out.lastmod = lastmod_;
      break;
  }
  return true;
}

}  // namespace sitemill::detail
