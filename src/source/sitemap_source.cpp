// --from-sitemap: existing sitemaps read through the one sitemap_walker.
//
// The walker pushes entries as bytes arrive (from a file or a libcurl
// callback) while a record_reader is pulled. A producer thread runs the
// walk and hands owned records over a small bounded queue, so memory stays
// flat however large the sitemaps are. What the walker decides not to read
// becomes a record with a problem, at the line of the index that lists it.
#include "sitemill/source/sitemap_source.h"

#include <sys/stat.h>

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "detail/text.h"
#include "sitemill/date/dates.h"
#include "sitemill/entry/entry.h"
#include "sitemill/url/url.h"
#include "store/s3_config.h"

namespace sitemill {
namespace {

// Records waiting for the consumer; enough to keep both sides busy.
constexpr std::size_t queue_capacity = 4'096;

struct owned_record {
  std::string source, loc, lastmod, changefreq, priority, problem;
  std::uint64_t line = 0;
  // Extension values, their text in ext_text (offsets, because the record
  // moves through the queue and a moved string may move its bytes).
  struct ext {
    extension_field_id field;
    std::uint32_t item;
    std::size_t begin, size;
  };
  std::vector<ext> exts;
  std::string ext_text;
  std::string foreign_xml;  // the parser's, written back as is
};

// `url` with `from` replaced by `to` when it starts with it (--rewrite-base).
std::string rebased(
    std::string_view url,
    const std::optional<std::pair<std::string, std::string>>& rewrite) {
  if (rewrite && url.starts_with(rewrite->first))
    return rewrite->second + std::string(url.substr(rewrite->first.size()));
  return std::string(url);
}

class collecting_handler final : public parse_handler {
 public:
  using sink = std::function<void(owned_record&&)>;
  collecting_handler(std::string source, bool is_input,
                     const sitemap_source_options& o, sink emit)
      : source_(std::move(source)),
        is_input_(is_input),
        o_(o),
        emit_(std::move(emit)) {}

  void on_document(document_kind kind) override { kind_ = kind; }

  void on_entry(const parsed_entry& e) override {
    if (kind_ == document_kind::sitemapindex) return;  // the walker follows
    owned_record r;
    r.source = source_;
    r.line = e.line;
    r.loc = rebased(e.loc.text, o_.rewrite_base);
    // Every extension value is kept; URLs on the old base move with the
    // pages (an alternate or image on the site being migrated).
    const auto fields = extension_fields();
    bool page_read = false;
    for (const extension_value& v : e.extensions) {
      const std::size_t begin = r.ext_text.size();
      const value_type type = fields[v.field].type;
      if (type == value_type::url || type == value_type::any_uri) {
        std::string_view url = detail::trim(v.text);
        // A relative link on a page means what a browser makes of it there:
        // resolved against the page's <loc>, and said, since a sitemap's
        // URLs must be absolute.
        if (!url.empty() && !has_http_scheme(url) &&
            normalize_url(url, resolved_) ==
                url_problem::relative_without_base) {
          if (!page_read) {
            page_read = true;
            (void)normalize_url(e.loc.text, page_);
          }
          if (!page_.empty() &&
              resolve_url(url, page_, resolved_) == url_problem::ok) {
            warn(e.line, extension_field_name(fields[v.field]) + " \"" +
                             std::string(url) + "\" is relative: read as " +
                             std::string(resolved_.href()) +
                             ", resolved against the page's <loc> (a "
                             "sitemap's URLs must be absolute)");
            url = resolved_.href();
          }
        }
        if (type == value_type::url)
          r.ext_text += rebased(url, o_.rewrite_base);
        else
          r.ext_text += url == detail::trim(v.text) ? v.text : url;
      } else {
        r.ext_text += v.text;
      }
      r.exts.push_back({v.field, v.item, begin, r.ext_text.size() - begin});
    }
    if (e.lastmod.present) {
      r.lastmod = std::string(e.lastmod.text);
      // Feeds carry RFC 822 (RSS) or RFC 3339 (Atom) dates; the entry stage
      // reads W3C datetimes, so convert what can be converted. What cannot
      // is passed on as written, for the entry stage to report; check warns
      // feed-date-invalid for exactly those dates.
      if (kind_ == document_kind::rss || kind_ == document_kind::atom)
        if (auto w3c = feed_date_to_w3c(r.lastmod)) r.lastmod = *w3c;
    }
    // Elements no schema here knows, as the parser re-serialised them
    // (never the input's bytes), so they survive the round trip; opaque,
    // so --rewrite-base does not reach URLs inside them.
    r.foreign_xml = e.foreign_xml;
    if (e.changefreq.present) r.changefreq = std::string(e.changefreq.text);
    if (e.priority.present) r.priority = std::string(e.priority.text);
    emit_(std::move(r));
  }

  void on_diagnostic(const diagnostic& d) override {
    if (d.level == severity::error && first_error_.empty())
      first_error_ = "line " + std::to_string(d.line) + ": " + d.message;
    // Extension content that cannot be written again is named, never
    // dropped without a word: so is an extension one namespace version off,
    // whose elements the parser (as search engines) does not read. So is
    // what the parser read past although it is not valid XML or not in the
    // sitemap namespace: the URLs are recovered, the file still needs a fix.
    if (d.code == "extension-not-kept" ||
        d.code == "extension-unknown-namespace" ||
        d.code == "extension-namespace-wrong" ||
        d.code == "xml-declaration-not-first" ||
        d.code == "entry-no-namespace") {
      warn(d.line, d.message);
    }
  }

  void warn(std::uint64_t line, std::string message) {
    // The input's own lines are the note's; a child's are named in the
    // message, since a note's line is the input's.
    if (is_input_)
      warnings_.push_back({line, std::move(message)});
    else
      warnings_.push_back(
          {0, source_ + ":" + std::to_string(line) + ": " + message});
  }

  const std::string& first_error() const { return first_error_; }
  std::vector<record_reader::note>& warnings() { return warnings_; }

 private:
  std::string source_;
  bool is_input_;  // the input itself, not a child an index lists
  const sitemap_source_options& o_;
  sink emit_;
  document_kind kind_ = document_kind::unknown;
  std::string first_error_;
  std::vector<record_reader::note> warnings_;
  normalized_url page_, resolved_;  // scratch: an entry's loc, a link
};

// Why a document was not read, in the words of a record's problem (or, for
// the top document, of error()).
std::string describe_skip(const walk_document& doc, const walk_skip& why,
                          const walk_caps& caps) {
  const std::string& s = doc.source;
  switch (why.reason) {
    case walk_skip_reason::stopped:
      break;
    case walk_skip_reason::bad_url:
      return "sitemap " + s +
             " is not a URL that can be fetched: " + why.message;
    case walk_skip_reason::unsupported_scheme:
      return s + ": only local files and http(s) URLs can be read";
    case walk_skip_reason::cycle:
      return "sitemap " + s +
             " lists an index that lists it (an index cycle); not read again";
    case walk_skip_reason::already_read:
    case walk_skip_reason::repeated:
      return "sitemap " + s + " is listed again; read once";
    case walk_skip_reason::too_deep:
      return "index nested deeper than " + std::to_string(caps.max_depth) +
             "; " + s + " not read";
    case walk_skip_reason::cap:
      switch (why.cap) {
        case walk_cap::documents:
          return "more than " + std::to_string(caps.max_documents) +
                 " sitemaps; " + s + " and the rest were not read";
        case walk_cap::bytes:
          return "more than " + detail::with_commas(caps.max_total_bytes) +
                 " bytes read; " + s + " and the rest were not read";
        case walk_cap::time:
          return "the time cap of " + std::to_string(caps.max_time.count()) +
                 " s was reached; " + s + " and the rest were not read";
      }
      break;
    case walk_skip_reason::child_not_found:
      return "sitemap " + s + " has no file beside the index" +
             (why.path.empty() ? std::string() : " (" + why.path + ")") +
             " and no URL that can be fetched" +
             (why.message.empty() ? std::string() : " (" + why.message + ")");
    case walk_skip_reason::off_site:
      return "sitemap " + s +
             " is on another host or port than the index listing it; not "
             "fetched";
    case walk_skip_reason::read_failed:
    case walk_skip_reason::fetch_failed:
    case walk_skip_reason::out_of_scope:
      return "cannot read sitemap " + s + ": " + why.message;
    case walk_skip_reason::http_status:
      return "cannot read sitemap " + s + ": " + s + ": HTTP status " +
             std::to_string(why.status);
    case walk_skip_reason::redirect_cycle:
      return "sitemap " + s + " redirects to " + why.url +
             ", which lists it (an index cycle); not read again";
    case walk_skip_reason::redirect_already_read:
      return "sitemap " + s + " redirects to " + why.url +
             ", which was already read; read once";
  }
  return "sitemap " + s + " was not read";
}

class sitemap_reader final : public record_reader, walk_observer {
 public:
  explicit sitemap_reader(sitemap_source_options o) : o_(std::move(o)) {
    o_.parse.schema_checks = false;
    producer_ = std::thread([this] { produce(); });
  }

  ~sitemap_reader() override {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    space_.notify_all();
    producer_.join();
  }

  bool next(input_record& out) override {
    std::unique_lock lock(mu_);
    data_.wait(lock, [&] { return !queue_.empty() || done_; });
    if (queue_.empty()) return false;
    current_ = std::move(queue_.front());
    queue_.pop_front();
    space_.notify_one();
    out = input_record{};
    out.line = current_.line;
    out.loc = current_.loc;
    out.lastmod = current_.lastmod;
    out.changefreq = current_.changefreq;
    out.priority = current_.priority;
    out.problem = current_.problem;
    out.source = current_.source;
    ext_values_.clear();
    for (const auto& x : current_.exts)
      ext_values_.push_back(
          {x.field, x.item,
           std::string_view(current_.ext_text).substr(x.begin, x.size)});
    out.extensions = ext_values_;
    out.foreign_xml = current_.foreign_xml;
    return true;
  }

  // Read only after next() returned false, when the producer has finished.
  const std::string& error() const noexcept override { return error_; }
  const std::vector<note>& notes() const noexcept override { return notes_; }

 private:
  // --- the walk's events (on the producer thread) ---

  parse_handler& on_open(const walk_document& doc) override {
    if (doc.misplaced) {
      // Read, for the URLs it holds; but the index being migrated lists it
      // where the site does not serve it.
      const walk_misplaced& m = *doc.misplaced;
      std::string why = "sitemap " + doc.listing.loc + " is read from " +
                        doc.path + " beside the index, which " + m.site_root +
                        " (the site's root: it holds " + m.marker +
                        ") serves at " + m.served_at +
                        ", not at the URL listed";
      std::lock_guard lock(mu_);
      // The input's own lines are the note's; a child index's are named.
      if (doc.depth == 1)
        notes_.push_back({doc.listing.line, std::move(why)});
      else
        notes_.push_back({0, doc.listing.source + ":" +
                                 std::to_string(doc.listing.line) + ": " +
                                 why});
    }
    handlers_.push_back(std::make_unique<collecting_handler>(
        doc.source, doc.depth == 0, o_,
        [this](owned_record&& r) { push(std::move(r)); }));
    return *handlers_.back();
  }

  void on_read(const walk_document& doc, const walk_read& r) override {
    if (r.stop == walk_stop::time_cap)
      problem(doc.source, 0,
              "reading stopped: the time cap of " +
                  std::to_string(o_.max_time.count()) +
                  " s was reached; the entries before were read, later "
                  "sitemaps were not");
    if (!r.read_error.empty())
      problem(doc.source, 0,
              "cannot read sitemap " + doc.source + ": " + r.read_error);
    // A document that gave nothing because of what it is (a web page, a
    // feed of another kind, a broken file) says why, in check's words,
    // rather than leave the run to end with "no valid URL".
    if (r.summary.entries == 0 && r.stop == walk_stop::none &&
        r.read_error.empty() && !handlers_.back()->first_error().empty()) {
      problem(doc.source, 0,
              "not read as a sitemap: " + handlers_.back()->first_error());
    } else if (!r.summary.complete && r.stop == walk_stop::none &&
               r.read_error.empty()) {
      std::lock_guard lock(mu_);
      notes_.push_back({0, doc.source + ": reading stopped at " +
                               handlers_.back()->first_error() + "; the " +
                               std::to_string(r.summary.entries) +
                               " entries before it were read"});
    }
  }

  void on_done(const walk_document&, const walk_read&) override {
    close_handler();
  }

  void on_failed(const walk_document& doc, const walk_skip& why) override {
    close_handler();
    not_read(doc, why);
  }

  // The document's warnings become the input's notes.
  void close_handler() {
    {
      std::lock_guard lock(mu_);
      for (auto& w : handlers_.back()->warnings())
        notes_.push_back(std::move(w));
    }
    handlers_.pop_back();
  }

  void on_skip(const walk_document& doc, const walk_skip& why) override {
    not_read(doc, why);
  }

  bool cancelled() override {
    return stopped() || (o_.http.cancel != nullptr &&
                         o_.http.cancel->load(std::memory_order_relaxed));
  }

  void not_read(const walk_document& doc, const walk_skip& why) {
    if (doc.listing.source.empty()) {
      // The top document: nothing to generate from.
      if (top_error_.empty())
        top_error_ =
            why.reason == walk_skip_reason::read_failed ||
                    why.reason == walk_skip_reason::fetch_failed
                ? why.message
            : why.reason == walk_skip_reason::http_status
                ? doc.source + ": HTTP status " + std::to_string(why.status)
                : describe_skip(doc, why, o_);
      return;
    }
    problem(doc.listing.source, doc.listing.line, describe_skip(doc, why, o_));
  }

  void problem(const std::string& source, std::uint64_t line, std::string why) {
    owned_record r;
    r.source = source;
    r.line = line;
    r.problem = std::move(why);
    push(std::move(r));
  }

  // --- the queue ---

  bool push(owned_record&& r) {
    std::unique_lock lock(mu_);
    space_.wait(lock, [&] { return stop_ || queue_.size() < queue_capacity; });
    if (stop_) return false;
    queue_.push_back(std::move(r));
    data_.notify_one();
    return true;
  }

  bool stopped() {
    std::lock_guard lock(mu_);
    return stop_;
  }

  void produce() {
    walk_options w;
    static_cast<walk_caps&>(w) = o_;
    w.parse = o_.parse;
    w.http = o_.http;
    w.fetch_missing_children = true;
    w.allow_private = o_.allow_private;
    {
      sitemap_walker walker(std::move(w), *this);
      walker.walk(o_.location);
    }
    std::lock_guard lock(mu_);
    error_ = std::move(top_error_);
    done_ = true;
    data_.notify_all();
  }

  sitemap_source_options o_;
  std::vector<std::unique_ptr<collecting_handler>> handlers_;  // open ones
  std::string top_error_;                                      // producer only
  std::thread producer_;
  std::mutex mu_;
  std::condition_variable data_, space_;
  std::deque<owned_record> queue_;
  owned_record current_;
  std::vector<extension_value> ext_values_;  // views of current_.ext_text
  bool done_ = false;
  bool stop_ = false;
  std::string error_;
  std::vector<note> notes_;
};

}  // namespace

result<std::unique_ptr<record_reader>> open_sitemap_source(
    const sitemap_source_options& options) {
  if (options.location.empty())
    return sitemill::error{"`location` needs a path or URL", "location"};
  if (options.location != "-" && !has_http_scheme(options.location) &&
      !store::is_s3_url(options.location)) {  // the walker reads objects
    struct stat st;
    if (::stat(options.location.c_str(), &st) != 0)
      return sitemill::error{"cannot open " + options.location + ": " +
                             std::strerror(errno)};
  }
  return std::unique_ptr<record_reader>(
      std::make_unique<sitemap_reader>(options));
}

namespace {

class sitemap_location final : public record_source {
 public:
  explicit sitemap_location(sitemap_source_options o) : o_(std::move(o)) {}
  std::string name() const override { return o_.location; }
  result<std::unique_ptr<record_reader>> open(
      const source_context& context) const override {
    if (context.stop == nullptr || o_.http.cancel != nullptr)
      return open_sitemap_source(o_);
    sitemap_source_options o = o_;
    o.http.cancel = context.stop;  // the walk polls it too: cancelled()
    return open_sitemap_source(o);
  }

 private:
  sitemap_source_options o_;
};

}  // namespace

std::shared_ptr<const record_source> sitemap_source(
    sitemap_source_options options) {
  return std::make_shared<sitemap_location>(std::move(options));
}

}  // namespace sitemill
