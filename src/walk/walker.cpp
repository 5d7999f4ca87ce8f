// sitemap_walker: admission (cycles, repeats, depth, caps), the events, and
// following an index's children. Reading is in read.cpp, the rules about
// children in children.cpp.
#include "sitemill/walk/walker.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <unordered_set>
#include <utility>

#include "detail/text.h"
#include "sitemill/limits.h"
#include "sitemill/numbers.h"
#include "walk/walker_impl.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace sitemill {
namespace {

namespace fs = std::filesystem;

std::uint64_t fingerprint(const std::string& key) {
  return XXH3_64bits(key.data(), key.size());
}

bool is_regular_file(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

// Passes everything to the observer's handler and keeps an index's <loc>s
// to follow once the index is read (its transfer is still running while
// its entries arrive).
class child_collector final : public parse_handler {
 public:
  child_collector(parse_handler& inner, bool collect)
      : inner_(inner), collect_(collect) {}

  void on_document(document_kind kind) override {
    kind_ = kind;
    inner_.on_document(kind);
  }
  void on_entry(const parsed_entry& e) override {
    inner_.on_entry(e);
    if (!collect_ || kind_ != document_kind::sitemapindex || !e.loc.present ||
        children.size() >= max_sitemaps_per_index)
      return;
    const std::string_view loc = detail::trim(e.loc.text);
    if (!loc.empty())
      children.push_back(
          detail::child_ref{std::string(loc), e.loc.line, e.loc.column});
  }
  void on_diagnostic(const diagnostic& d) override { inner_.on_diagnostic(d); }

  std::vector<detail::child_ref> children;

 private:
  parse_handler& inner_;
  bool collect_;
  document_kind kind_ = document_kind::unknown;
};

walk_skip skip(walk_skip_reason reason, std::string message = {}) {
  walk_skip s;
  s.reason = reason;
  s.message = std::move(message);
  return s;
}

}  // namespace

// --- admission ---------------------------------------------------------------

std::string sitemap_walker::impl::key_of(const walk_document& doc) {
  if (doc.fetched) return "url:" + doc.url;
  if (doc.path == "-" || store::is_s3_url(doc.path)) return doc.path;
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(doc.path, ec);
  return "file:" + (ec ? doc.path : p.string());
}

bool sitemap_walker::impl::is_ancestor(const std::string& key) const {
  return std::find(ancestors.begin(), ancestors.end(), key) != ancestors.end();
}

bool sitemap_walker::impl::seen(const std::string& key) const {
  return visited.contains(fingerprint(key));
}

void sitemap_walker::impl::remember(const std::string& key) {
  visited.insert(fingerprint(key));
}

bool sitemap_walker::impl::cancel_asked() {
  if (!cancelled && observer.cancelled()) cancelled = true;
  return cancelled;
}

bool sitemap_walker::impl::should_stop() {
  return cancel_asked() || steady::now() >= deadline;
}

walk_stop sitemap_walker::impl::stop_inside() {
  stopped = true;
  return cancelled ? walk_stop::cancelled : walk_stop::time_cap;
}

std::optional<walk_skip> sitemap_walker::impl::admit(const walk_document& doc,
                                                     const std::string& key) {
  if (stopped) return skip(walk_skip_reason::stopped);
  if (should_stop() && cancelled) {
    stopped = true;
    return skip(walk_skip_reason::stopped);
  }
  if (is_ancestor(key)) return skip(walk_skip_reason::cycle);
  if (seen(key)) return skip(walk_skip_reason::already_read);
  if (doc.depth > options.max_depth) return skip(walk_skip_reason::too_deep);
  std::optional<walk_cap> cap;
  if (documents >= options.max_documents)
    cap = walk_cap::documents;
  else if (bytes >= options.max_total_bytes)
    cap = walk_cap::bytes;
  else if (steady::now() >= deadline)
    cap = walk_cap::time;
  if (cap) {
    stopped = true;
    walk_skip s = skip(walk_skip_reason::cap);
    s.cap = *cap;
    return s;
  }
  ++documents;
  remember(key);
  return std::nullopt;
}

// --- walking -----------------------------------------------------------------

void sitemap_walker::impl::walk_target(const std::string& target,
                                       std::string_view served_at) {
  if (stopped) return;
  walk_document doc;
  doc.source = target;
  if (has_http_scheme(detail::trim(target))) {
    normalized_url url;
    const url_problem p = normalize_url(target, url);
    if (p != url_problem::ok) {
      observer.on_skip(
          doc, skip(walk_skip_reason::bad_url, std::string(describe(p))));
      return;
    }
    doc.fetched = true;
    doc.url = std::string(url.href());
    note_target(url);
  } else if (store::is_s3_url(detail::trim(target))) {
    auto where = store::parse_s3_object(detail::trim(target));
    if (!where) {
      observer.on_skip(
          doc, skip(walk_skip_reason::bad_url, std::move(where.err().message)));
      return;
    }
    doc.path = "s3://" + where->bucket + "/" + where->key;
    doc.url = std::string(served_at);
  } else if (detail::has_other_scheme(target)) {
    observer.on_skip(doc, skip(walk_skip_reason::unsupported_scheme));
    return;
  } else {
    doc.path = target;
    doc.url = std::string(served_at);
    normalized_url url;
    if (normalize_url(served_at, url) == url_problem::ok) note_target(url);
  }
  visit(doc);
}

void sitemap_walker::impl::walk_listed(const walk_document& lister,
                                       std::span<const walk_link> links) {
  ancestors.push_back(key_of(lister));
  for (const walk_link& link : links) {
    if (stopped) break;
    walk_document doc;
    doc.source = link.source.empty() ? link.url : link.source;
    doc.url = link.url;
    doc.fetched = true;
    doc.depth = lister.depth + 1;
    doc.cross_submit = link.cross_submit;
    doc.listing = link.listing;
    visit(doc);
  }
  ancestors.pop_back();
}

void sitemap_walker::impl::visit(walk_document& doc) {
  const std::string key = key_of(doc);
  if (auto why = admit(doc, key)) {
    if (why->reason != walk_skip_reason::stopped) observer.on_skip(doc, *why);
    return;
  }
  child_collector handler(observer.on_open(doc), options.follow_indexes);
  walk_read read;
  std::optional<walk_skip> failed = doc.fetched ? fetch(doc, handler, read)
                                    : store::is_s3_url(doc.path)
                                        ? read_bucket(doc, handler, read)
                                        : read_local(doc, handler, read);
  if (failed) {
    observer.on_failed(doc, *failed);
    return;
  }
  std::vector<std::string> keys{key};
  if (!read.final_url.empty()) {
    // Redirected: the document is the one that answered, so a cycle or a
    // repeat is judged by that URL too.
    std::string final_key = "url:" + read.final_url;
    if (is_ancestor(final_key) || seen(final_key)) {
      walk_skip s = skip(is_ancestor(final_key)
                             ? walk_skip_reason::redirect_cycle
                             : walk_skip_reason::redirect_already_read);
      s.url = read.final_url;
      observer.on_failed(doc, s);
      return;
    }
    remember(final_key);
    keys.push_back(std::move(final_key));
  }
  bytes += read.summary.bytes;
  observer.on_read(doc, read);
  if (read.summary.kind == document_kind::sitemapindex &&
      options.follow_indexes && !stopped) {
    for (const std::string& k : keys) ancestors.push_back(k);
    follow(doc, read, handler.children);
    ancestors.resize(ancestors.size() - keys.size());
  }
  observer.on_done(doc, read);
}

namespace {

// A child the site root's placement names no file for, read from where its
// children's URLs put it (walker.h): the file, and where it really is.
std::optional<std::pair<std::string, walk_misplaced>> misplaced_child(
    const walk_document& index, const detail::local_placement& place,
    const normalized_url& child, std::string_view loc) {
  if (place.by_children.empty() || child.empty()) return std::nullopt;
  detail::local_child beside =
      detail::local_child_path(index.path, place.by_children, child, loc);
  if (beside.path.empty() || !is_regular_file(beside.path)) return std::nullopt;
  walk_misplaced m;
  m.site_root = place.site_root;
  m.marker = place.marker;
  if (child.origin() == place.index_url.origin())
    m.listed_path = place.site_root + percent_decode(child.path().substr(1));
  m.index_url = place.index_url.href();
  m.served_at = std::string(place.index_url.scope_directory()) +
                std::string(child.path().substr(
                    place.by_children.scope_directory().size() -
                    place.by_children.origin().size()));
  return std::pair{std::move(beside.path), std::move(m)};
}

}  // namespace

void sitemap_walker::impl::follow(
    const walk_document& index, const walk_read& read,
    const std::vector<detail::child_ref>& children) {
  // The URL the index is at: where it answered, or where it is served.
  normalized_url index_url;
  (void)normalize_url(read.final_url.empty() ? index.url : read.final_url,
                      index_url);
  // An object of a bucket: its children are the objects beside it that
  // their URLs name (walker.h, "Buckets").
  const bool in_bucket = !index.fetched && store::is_s3_url(index.path);
  const std::string_view bucket_dir =
      in_bucket
          ? std::string_view(index.path).substr(0, index.path.rfind('/') + 1)
          : std::string_view();
  detail::local_placement place;
  if (!index.fetched && index_url.empty()) {
    place = in_bucket
                ? detail::place_bucket_index(
                      std::string_view(index.path).substr(bucket_dir.size()),
                      children)
                : detail::place_local_index(index.path, children);
    if (options.trace && !place.index_url.empty())
      options.trace("placed " + index.source + " at " +
                    std::string(place.index_url.href()) +
                    (place.site_root.empty()
                         ? std::string(" by its children's URLs")
                         : " below the site root " + place.site_root + " (" +
                               std::string(place.marker) +
                               "), not where its children's URLs put it"));
  }
  const normalized_url& local_dir =
      index.fetched || !index_url.empty() ? index_url : place.index_url;
  std::unordered_set<std::string_view> listed;
  for (const detail::child_ref& c : children) {
    if (stopped) break;
    walk_document child;
    child.source = c.loc;
    child.depth = index.depth + 1;
    child.cross_submit = index.cross_submit;
    child.listing = walk_listing{index.source, c.loc, c.line, c.column};
    if (!listed.insert(c.loc).second) {
      observer.on_skip(child, skip(walk_skip_reason::repeated));
      continue;
    }
    normalized_url child_url;
    url_problem p = normalize_url(c.loc, child_url);
    if (p == url_problem::relative_without_base && !index_url.empty())
      p = resolve_url(c.loc, index_url, child_url);
    const bool in_scope =
        p == url_problem::ok &&
        detail::may_fetch_child(child_url, index_url,
                                index.cross_submit.has_value());

    // One rule for every child that is fetched, whether its index was
    // fetched or a local child is missing: in scope, or reported off-site.
    const auto fetch_in_scope = [&] {
      if (!in_scope) {
        observer.on_skip(child, skip(walk_skip_reason::off_site));
        return false;
      }
      child.fetched = true;
      child.url = std::string(child_url.href());
      child.source = child.url;
      // Not a target: a private address the index names is judged as a
      // fetched index's would be (a local index is often someone else's).
      return true;
    };

    // An http(s) URL that does not normalise (credentials, a port above
    // 65535) names neither a file nor a fetch: told, never passed over.
    // A relative <loc> of a local index still names a file.
    if (p != url_problem::ok &&
        (index.fetched || p != url_problem::relative_without_base)) {
      observer.on_skip(
          child, skip(walk_skip_reason::bad_url, std::string(describe(p))));
      continue;
    }
    if (index.fetched) {
      if (!fetch_in_scope()) continue;
    } else if (in_bucket) {
      detail::local_child object =
          detail::child_relative_path(local_dir, child_url, c.loc);
      if (!object.path.empty()) {
        child.path = std::string(bucket_dir) + object.path;
        child.source = child.path;
        child.url = std::string(child_url.href());
      } else if (options.fetch_missing_children && p == url_problem::ok) {
        if (!fetch_in_scope()) continue;
      } else {
        walk_skip s = skip(walk_skip_reason::child_not_found);
        s.url = std::move(object.outside_of);
        observer.on_skip(child, s);
        continue;
      }
    } else {
      detail::local_child local =
          detail::local_child_path(index.path, local_dir, child_url, c.loc);
      if (!local.path.empty() && is_regular_file(local.path)) {
        child.path = std::move(local.path);
        child.source = child.path;
        child.url = std::string(child_url.href());
      } else if (auto beside =
                     misplaced_child(index, place, child_url, c.loc)) {
        child.path = std::move(beside->first);
        child.source = child.path;
        child.url = std::string(child_url.href());
        child.misplaced = std::move(beside->second);
      } else if (options.fetch_missing_children && p == url_problem::ok) {
        if (!fetch_in_scope()) continue;
      } else {
        walk_skip s = skip(walk_skip_reason::child_not_found);
        s.path = std::move(local.path);
        s.url = std::move(local.outside_of);
        if (!place.site_root.empty())
          s.message = "the index is taken to be " +
                      std::string(place.index_url.href()) + ", below " +
                      place.site_root + ", the site's root (it holds " +
                      std::string(place.marker) + ")";
        observer.on_skip(child, s);
        continue;
      }
    }
    visit(child);
  }
}

namespace {

// Why a document was not read, in a few words (the walker's message, when it
// has one, says the rest).
std::string_view reason_words(walk_skip_reason r) {
  switch (r) {
    case walk_skip_reason::stopped:
      return "the walk had stopped";
    case walk_skip_reason::bad_url:
      return "not a URL that can be fetched";
    case walk_skip_reason::unsupported_scheme:
      return "neither a local file nor an http(s) URL";
    case walk_skip_reason::cycle:
      return "an index cycle";
    case walk_skip_reason::already_read:
      return "read before";
    case walk_skip_reason::repeated:
      return "listed twice";
    case walk_skip_reason::too_deep:
      return "nested too deep";
    case walk_skip_reason::cap:
      return "a cap of the walk was reached";
    case walk_skip_reason::child_not_found:
      return "no file beside the index";
    case walk_skip_reason::off_site:
      return "on another host than its index";
    case walk_skip_reason::read_failed:
      return "cannot be read";
    case walk_skip_reason::fetch_failed:
      return "cannot be fetched";
    case walk_skip_reason::http_status:
      return "answered an HTTP error";
    case walk_skip_reason::redirect_cycle:
      return "redirects into a cycle";
    case walk_skip_reason::redirect_already_read:
      return "redirects to a document read before";
    case walk_skip_reason::out_of_scope:
      return "outside the fetch scope";
  }
  return "not read";
}

}  // namespace

std::string describe(const walk_skip& why) {
  std::string s(reason_words(why.reason));
  if (why.reason == walk_skip_reason::http_status)
    s += " (" + std::to_string(why.status) + ")";
  if (!why.message.empty()) s += ": " + why.message;
  return s;
}

namespace detail {

void traced_observer::on_read(const walk_document& doc, const walk_read& r) {
  std::string line = "read " + doc.source + ": " +
                     std::string(to_string(r.summary.kind)) + ", " +
                     with_commas(r.summary.entries) + " entries, " +
                     with_commas(r.summary.bytes) + " bytes";
  if (r.summary.gzipped) line += " (gzip)";
  if (!r.final_url.empty()) line += ", redirected to " + r.final_url;
  if (r.stop != walk_stop::none) line += ", stopped part-way";
  trace_(line);
  inner_.on_read(doc, r);
}

void traced_observer::on_failed(const walk_document& doc,
                                const walk_skip& why) {
  trace_("could not read " + doc.source + ": " + describe(why));
  inner_.on_failed(doc, why);
}

void traced_observer::on_skip(const walk_document& doc, const walk_skip& why) {
  std::string line = "skipped " + doc.source + ": " + describe(why);
  if (!doc.listing.source.empty())
    line += " (listed by " + doc.listing.source + ":" +
            std::to_string(doc.listing.line) + ")";
  trace_(line);
  inner_.on_skip(doc, why);
}

}  // namespace detail

// --- the public face ---------------------------------------------------------

sitemap_walker::sitemap_walker(walk_options options, walk_observer& observer)
    : impl_(std::make_unique<impl>(std::move(options), observer)) {}

sitemap_walker::~sitemap_walker() = default;

void sitemap_walker::walk(const std::string& target,
                          std::string_view served_at) {
  impl_->walk_target(target, served_at);
}

void sitemap_walker::walk_listed(const walk_document& lister,
                                 std::span<const walk_link> links) {
  impl_->walk_listed(lister, links);
}

std::optional<walk_skip> sitemap_walker::admit(const walk_document& doc) {
  normalized_url url;
  if (doc.fetched && doc.listing.source.empty() &&
      normalize_url(doc.url, url) == url_problem::ok)
    impl_->note_target(url);
  return impl_->admit(doc, impl::key_of(doc));
}

walk_text sitemap_walker::fetch_text(const std::string& url, std::size_t keep) {
  return impl_->fetch_text(url, keep, false);
}

walk_text sitemap_walker::peek(const std::string& url, std::size_t keep) {
  return impl_->fetch_text(url, keep, true);
}

walk_reread sitemap_walker::reread(const std::string& url,
                                   parse_handler& handler,
                                   const parse_options& options) {
  if (store::is_s3_url(url)) return impl_->reread_bucket(url, handler, options);
  return impl_->reread(url, handler, options);
}

bool sitemap_walker::stopped() const noexcept { return impl_->stopped; }
bool sitemap_walker::cancelled() const noexcept { return impl_->cancelled; }
std::uint64_t sitemap_walker::documents() const noexcept {
  return impl_->documents;
}
std::uint64_t sitemap_walker::bytes() const noexcept { return impl_->bytes; }
const walk_caps& sitemap_walker::caps() const noexcept {
  return impl_->options;
}

}  // namespace sitemill
