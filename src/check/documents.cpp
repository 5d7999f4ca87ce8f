// One document as the walker reads it: the context rules while it streams
// (context.h), then what only a fetch shows (redirects, Content-Type), and
// an index's note about a child that is an index itself.
#include <string>

#include "check/checker.h"
#include "detail/text.h"

namespace sitemill::detail {
namespace {

// How the URL a document is held to is known, for "outside-location".
std::string scope_origin(const walk_document& doc, bool vouched) {
  if (vouched)
    return "root of the site, whose robots.txt names this sitemap (or the "
           "index listing it): a Sitemap: line vouches for URLs anywhere on "
           "its host";
  if (doc.cross_submit)
    return "site whose robots.txt names this sitemap (a cross-submit: its "
           "URLs must be on that site)";
  if (doc.fetched) return "directory of the sitemap's URL";
  if (!doc.listing.source.empty())
    return "directory of the URL the index lists it at";
  return "directory of the sitemap URL given (`sitemap_url`)";
}

std::string lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

}  // namespace

parse_handler& checker::on_open(const walk_document& doc) {
  if (doc.misplaced && !open_.empty()) {
    const walk_misplaced& m = *doc.misplaced;
    open_.back().diagnostics().add(
        severity::error, "child-misplaced", doc.listing.line,
        doc.listing.column,
        "sitemap " + quote_text(doc.listing.loc) +
            " is not where this index says: " + m.site_root +
            " is the site's root (it holds " + m.marker +
            "), so the index is served at " + m.index_url + " and " +
            (m.listed_path.empty()
                 ? std::string("that URL names no file of the site")
                 : "that URL is the file " + m.listed_path +
                       ", which does not exist") +
            "; the file of that name beside the index, " + doc.path +
            ", is served at " + m.served_at +
            " (checked from there). List each sitemap at the URL it is "
            "served at, or publish the sitemaps where their URLs say");
  }
  const std::size_t slot = open_report(doc);
  bool vouched = false;
  context_settings cs;
  cs.max_listed_per_code = options_.max_listed_per_code;
  if (doc.cross_submit) {
    cs.scope = *doc.cross_submit;
    cs.waive_scope_for_index = true;
  } else if (!doc.url.empty()) {
    cs.scope = doc.url;
    // In a folder of its site: its host's robots.txt may vouch for it.
    normalized_url u;
    if (normalize_url(doc.url, u) == url_problem::ok) {
      std::string root(u.origin());
      root += '/';
      if (vouched_by_lister(doc)) {
        cs.scope = root;
        vouched = true;
      } else if (u.scope_directory() != root) {
        cs.site_scope = std::move(root);
      }
    }
  }
  cs.scope_origin = scope_origin(doc, vouched);
  cs.hreflang = &hreflang_;
  cs.doc = static_cast<std::uint32_t>(hreflang_docs_.size());
  hreflang_docs_.push_back({slot, doc.path, doc.fetched ? doc.url : "", false});
  if (options_.audit) {
    cs.audit = &audits_;
    cs.slot = slot;
    if (cs.scope) audits_.set_scope(slot, *cs.scope);
  }
  auto ctx = std::make_unique<context_checker>(std::move(cs));
  if (doc.listing.source.empty() && !doc.fetched && bad_sitemap_url_)
    ctx->diagnostics().add(
        severity::error, "bad-sitemap-url", 0, 0,
        "the sitemap URL given is not an absolute http(s) URL, so the "
        "location rule was not checked");
  open_.push_back(
      open_document{slot, std::move(ctx), nullptr, false, vouched, doc.url});
  return *open_.back().context;
}

void checker::on_read(const walk_document& doc, const walk_read& read) {
  open_document& d = open_.back();
  context_checker& ctx = *d.context;
  ctx.finish();
  if (!read.read_error.empty())
    ctx.diagnostics().add(severity::error, "read-failed", 0, 0,
                          read.read_error);
  stopped_inside(read.stop, ctx.diagnostics());
  if (!read.final_url.empty()) {
    ctx.diagnostics().add(
        severity::info, "redirected", 0, 0,
        "fetched from " + read.final_url + " after " +
            std::to_string(read.redirects) +
            " redirect(s); search engines follow redirects, but the "
            "sitemap's location is the URL that answered");
    normalized_url before, after;
    (void)normalize_url(doc.url, before);
    (void)normalize_url(read.final_url, after);
    if (!doc.cross_submit &&
        after.scope_directory() != before.scope_directory())
      recheck_location(read.final_url, ctx, read.summary);
  }
  if (doc.fetched) note_content_type(read, ctx);
  if (!read.final_url.empty()) d.url = read.final_url;
  vouch_if_named(doc, read, d);
  if (!read.final_url.empty()) {
    hreflang_docs_.back().url = read.final_url;
    if (options_.audit && !doc.cross_submit)
      audits_.set_scope(d.slot, read.final_url);
  }
  const parse_summary& sum = read.summary;
  // A document that is not well-formed has no schema verdict: the finding
  // that says where it broke is the one to fix (a raw '&' is one error).
  if (!options_.lenient_schema && options_.parse.schema_checks &&
      sum.well_formed && !sum.schema_valid &&
      !sum.valid_but_unknown_namespaces &&
      (sum.kind == document_kind::urlset ||
       sum.kind == document_kind::sitemapindex)) {
    const bool index = sum.kind == document_kind::sitemapindex;
    ctx.diagnostics().add(
        severity::error, "schema-invalid", 0, 0,
        std::string("this ") + (index ? "sitemap index" : "sitemap") +
            " is not valid against the official " +
            (index ? "siteindex.xsd"
                   : "sitemap.xsd (with the image, video, news and xhtml "
                     "schemas)") +
            ": the findings above say where. Search engines may read it "
            "anyway, but validators and stricter crawlers reject it: fix "
            "them (`lenient_schema` reports only those findings)");
  }
  document_report& rep = report_.documents[d.slot];
  rep.kind = read.summary.kind;
  rep.urls = read.summary.entries;
  rep.bytes = read.summary.bytes;
  rep.schema_valid = read.summary.schema_valid;
}

void checker::on_done(const walk_document& doc, const walk_read& read) {
  open_document d = std::move(open_.back());
  open_.pop_back();
  finish(d.slot, d.context->diagnostics());
  // An index in an index: said in the outer one, at the line listing it.
  if (read.summary.kind == document_kind::sitemapindex && !open_.empty() &&
      open_.back().context && !doc.listing.source.empty())
    open_.back().diagnostics().add(
        severity::warning, "nested-index", doc.listing.line, doc.listing.column,
        "sitemap " + quote_text(doc.listing.loc) +
            " is itself a sitemap index: the protocol defines indexes of "
            "sitemaps only, and search engines may not follow an index in "
            "an index; list its sitemaps here instead");
}

void checker::on_failed(const walk_document& doc, const walk_skip& why) {
  const std::size_t slot = open_.back().slot;
  // Its report is withdrawn, and with it what its entries said.
  for (std::uint32_t i = 0; i < hreflang_docs_.size(); ++i) {
    if (hreflang_docs_[i].slot != slot || hreflang_docs_[i].withdrawn) continue;
    hreflang_docs_[i].withdrawn = true;
    hreflang_.forget(i);
  }
  open_.pop_back();
  audits_.withdraw(slot);
  report_.documents.erase(report_.documents.begin() +
                          static_cast<std::ptrdiff_t>(slot));
  not_read(doc, why);
}

void checker::on_skip(const walk_document& doc, const walk_skip& why) {
  not_read(doc, why);
}

bool checker::cancelled() {
  if (observer_.cancelled()) report_.cancelled = true;
  return report_.cancelled;
}

void checker::stopped_inside(walk_stop stop, diagnostic_list& diags) {
  if (stop != walk_stop::time_cap) return;
  diags.add(severity::error, "cap-reached", 0, 0,
            "reading stopped: the run's time cap of " +
                std::to_string(options_.max_time.count()) +
                " s (`max_time`) was reached; what was read so far is "
                "reported, and later documents were left unchecked");
}

// The location rule again, against the URL that answered after redirects:
// it is known only once the transfer is over, so the document is fetched
// once more from there and read for its locs alone. The first verdict
// stands when that fails.
void checker::recheck_location(const std::string& final_url,
                               context_checker& ctx,
                               const parse_summary& first) {
  if (first.entries == 0 || walker_.stopped()) return;
  struct location_pass final : parse_handler {
    explicit location_pass(std::size_t max) : found(max) {}
    diagnostic_list found;
    normalized_url scope;
    location_scratch buffer;
    void on_entry(const parsed_entry& e) override {
      if (e.loc.present)
        check_location(trim(e.loc.text), e.loc.line, e.loc.column, scope,
                       "directory of the sitemap's URL after redirects", buffer,
                       found);
    }
  } pass(options_.max_listed_per_code);
  (void)normalize_url(final_url, pass.scope);
  parse_options po = options_.parse;
  po.schema_checks = false;
  const walk_reread again = walker_.reread(final_url, pass, po);
  if (again.stop != walk_stop::none) {
    stopped_inside(again.stop, ctx.diagnostics());
    return;
  }
  if (!again.ok || again.summary.entries != first.entries) return;
  ctx.diagnostics().remove_code("outside-location");
  ctx.diagnostics().merge(std::move(pass.found));
}

void checker::note_content_type(const walk_read& read, context_checker& ctx) {
  const parse_summary& s = read.summary;
  if (s.kind == document_kind::unknown) return;
  std::string type = lowercase(read.content_type);
  type = std::string(trim(type.substr(0, type.find(';'))));
  const bool gzip_type = type == "application/gzip" ||
                         type == "application/x-gzip" ||
                         type == "application/octet-stream";
  bool fits;
  std::string_view expected;
  if (s.kind == document_kind::text) {
    fits = type == "text/plain" || (s.gzipped && gzip_type);
    expected = "text/plain";
  } else {
    fits = type.find("xml") != std::string::npos || (s.gzipped && gzip_type);
    expected = "application/xml or text/xml";
  }
  if (fits) return;
  ctx.diagnostics().add(
      severity::info, "content-type", 0, 0,
      (type.empty()
           ? std::string("served without a Content-Type")
           : "served as Content-Type " + quote_text(read.content_type)) +
          " for a " + std::string(to_string(s.kind)) + " document; " +
          std::string(expected) + (s.gzipped ? " (or application/gzip)" : "") +
          " is expected. Search engines read the content, but some "
          "tools trust the header");
}

}  // namespace sitemill::detail
