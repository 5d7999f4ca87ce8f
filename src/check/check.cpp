// check(): each target goes to the walker (a file, stdin, a sitemap URL) or
// to site.cpp (a site URL); checker.h says where the rest is.
#include "sitemill/check/check.h"

#include <utility>

#include "check/checker.h"
#include "detail/text.h"
#include "sitemill/walk/site.h"

namespace sitemill {
namespace detail {
namespace {

walk_options walk_options_of(const check_options& o) {
  walk_options w;
  static_cast<walk_caps&>(w) = o;
  w.parse = o.parse;
  w.http = o.http;
  w.follow_indexes = o.follow_indexes;
  w.fetch_missing_children = o.fetch_children;
  w.allow_private = o.allow_private;
  return w;
}

}  // namespace

checker::checker(const check_options& options, check_observer& observer)
    : options_(options),
      observer_(observer),
      walker_(walk_options_of(options), *this),
      hreflang_(options.max_hreflang_links, options.max_hreflang_links),
      audits_(options.audit ? options.max_audit_urls : 0) {}

check_report checker::run(const std::vector<std::string>& targets) {
  for (const std::string& t : targets) {
    if (walker_.stopped()) break;
    check_target(t);
  }
  if (!report_.cancelled) report_hreflang();
  if (!report_.cancelled && options_.audit) report_audit();
  for (const auto& d : report_.documents) {
    report_.errors += d.errors;
    report_.warnings += d.warnings;
    report_.infos += d.infos;
    report_.any_unreadable = report_.any_unreadable || d.unreadable;
  }
  // The one place a run's verdict is decided; the CLI maps it to an exit
  // code and the JSON report prints it.
  report_.outcome = report_.cancelled        ? check_outcome::cancelled
                    : report_.any_unreadable ? check_outcome::unreadable
                    : report_.errors > 0 || (options_.warnings_as_errors &&
                                             report_.warnings > 0)
                        ? check_outcome::failed
                        : check_outcome::passed;
  return std::move(report_);
}

void checker::check_target(const std::string& target) {
  if (has_http_scheme(trim(target))) {
    normalized_url site;
    if (names_site(target, site))
      check_site(target, site);
    else
      walker_.walk(target);  // a URL that does not normalise is told back
    return;
  }
  std::string served_at;
  if (options_.sitemap_url &&
      normalize_url(*options_.sitemap_url, served_at) != url_problem::ok) {
    served_at.clear();
    bad_sitemap_url_ = true;
  }
  walker_.walk(target, served_at);
}

}  // namespace detail

std::string_view to_string(check_outcome outcome) noexcept {
  switch (outcome) {
    case check_outcome::passed:
      return "passed";
    case check_outcome::failed:
      return "failed";
    case check_outcome::unreadable:
      return "unreadable";
    case check_outcome::cancelled:
      return "cancelled";
  }
  return "failed";
}

check_report check(const std::vector<std::string>& targets,
                   const check_options& options, check_observer& observer) {
  detail::checker c(options, observer);
  return c.run(targets);
}

}  // namespace sitemill
