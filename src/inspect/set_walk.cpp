#include "inspect/set_walk.h"

#include <cstdint>
#include <memory>
#include <vector>

#include "sitemill/walk/site.h"

namespace sitemill::detail {
namespace {

class forwarding_handler final : public parse_handler {
 public:
  explicit forwarding_handler(set_visitor& v) : v_(v) {}
  void on_document(document_kind kind) override { kind_ = kind; }
  void on_entry(const parsed_entry& e) override {
    if (kind_ != document_kind::sitemapindex) v_.on_url(e, kind_);
  }
  void on_diagnostic(const diagnostic& d) override { v_.on_diagnostic(d); }

 private:
  set_visitor& v_;
  document_kind kind_ = document_kind::unknown;
};

class set_observer final : public walk_observer {
 public:
  /// `target_depth`: the depth of the documents the input names (1 for a
  /// site, whose sitemaps its robots.txt lists).
  set_observer(set_visitor& v, set_walk_outcome& out,
               std::function<bool()> cancelled, std::uint32_t target_depth)
      : v_(v),
        out_(out),
        cancelled_(std::move(cancelled)),
        target_depth_(target_depth) {}

  parse_handler& on_open(const walk_document&) override {
    handlers_.push_back(std::make_unique<forwarding_handler>(v_));
    return *handlers_.back();
  }
  void on_read(const walk_document& doc, const walk_read& r) override {
    ++out_.documents;
    if (doc.depth == target_depth_ &&
        out_.target_kind == document_kind::unknown)
      out_.target_kind = r.summary.kind;
    v_.on_document(doc, r);
    if (!r.summary.complete || r.stop != walk_stop::none ||
        !r.read_error.empty()) {
      ++out_.incomplete;
      v_.on_not_read(
          doc, r.read_error.empty() ? "not read to its end" : r.read_error);
    }
  }
  void on_done(const walk_document&, const walk_read&) override {
    handlers_.pop_back();
  }
  void on_failed(const walk_document& doc, const walk_skip& why) override {
    handlers_.pop_back();
    not_read(doc, why);
  }
  void on_skip(const walk_document& doc, const walk_skip& why) override {
    // A repeat is read once, which is all a count needs.
    if (why.reason == walk_skip_reason::already_read ||
        why.reason == walk_skip_reason::repeated)
      return;
    not_read(doc, why);
  }
  bool cancelled() override { return cancelled_ && cancelled_(); }

 private:
  void not_read(const walk_document& doc, const walk_skip& why) {
    if (doc.depth == 0 && doc.listing.source.empty()) {
      out_.unreadable = doc.source + ": " + describe(why);
      return;
    }
    ++out_.incomplete;
    v_.on_not_read(doc, describe(why));
  }

  set_visitor& v_;
  set_walk_outcome& out_;
  std::function<bool()> cancelled_;
  std::uint32_t target_depth_;
  std::vector<std::unique_ptr<forwarding_handler>> handlers_;
};

// A site: the sitemaps its robots.txt names (or /sitemap.xml), as check finds
// them. What check says of the robots.txt counts among the findings.
void walk_site(sitemap_walker& walker, const normalized_url& site,
               const set_input& in, set_visitor& visitor,
               set_walk_outcome& out) {
  const walk_document robots = site_robots_document(site);
  if (auto why = walker.admit(robots)) {
    out.unreadable = robots.source + ": " + describe(*why);
    return;
  }
  site_sitemaps found = find_site_sitemaps(walker, site, in.given);
  for (const diagnostic& d : found.diagnostics) visitor.on_diagnostic(d);
  if (found.unreadable) {
    out.unreadable = in.given + ": its robots.txt could not be fetched: " +
                     found.robots.error;
    return;
  }
  if (found.robots.stop == walk_stop::time_cap) {
    out.unreadable =
        in.given + ": the time cap was reached while its robots.txt was read";
    return;
  }
  if (found.robots.response) walker.walk_listed(robots, found.links);
}

}  // namespace

set_walk_outcome walk_set(const set_input& in, const inspect_options& options,
                          set_visitor& visitor,
                          std::function<bool()> cancelled) {
  set_walk_outcome out;
  walk_options w;
  static_cast<walk_caps&>(w) = options;
  w.parse = options.parse;
  w.http = options.http;
  w.fetch_missing_children = options.fetch_children;
  w.allow_private = options.allow_private;
  normalized_url site;
  const bool is_site = names_site(in.target, site);
  set_observer observer(visitor, out, std::move(cancelled), is_site ? 1 : 0);
  sitemap_walker walker(w, observer);
  if (is_site)
    walk_site(walker, site, in, visitor, out);
  else
    walker.walk(in.target);
  if (out.unreadable.empty() && walker.cancelled())
    out.unreadable = in.given + ": interrupted";
  return out;
}

}  // namespace sitemill::detail
