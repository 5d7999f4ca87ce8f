// check(): walks targets, indexes and robots.txt files, streaming each
// document through sitemap_parser and the context rules (check/context.h).
#include "sitemill/check/check.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "check/context.h"
#include "detail/text.h"
#include "sitemill/robots/robots.h"
#include "sitemill/url/url.h"

namespace sitemill {
namespace {

namespace fs = std::filesystem;
using detail::context_checker;
using detail::context_settings;
using detail::diagnostic_list;
using detail::with_commas;
using steady = std::chrono::steady_clock;

// Big enough that a read(2) costs nothing next to parsing it, small enough to
// notice a cancel or the time cap within a few milliseconds.
constexpr std::size_t block_size = 256 * 1024;

// One byte past what find_sitemaps() reads, so it can tell a file that ends at
// the limit from one the limit cuts.
constexpr std::size_t robots_keep_bytes = max_robots_txt_bytes + 1;

// After the parser has stopped (a fatal error), a body is still received up
// to this much more, so that the response's status can be known; a larger
// remainder is cut off and the response taken as the document it was.
constexpr std::uint64_t drain_bytes = 1024 * 1024;

std::string quote_text(std::string_view s) {
  std::string out = "\"";
  detail::append_printable(out, s, 300);
  out += '"';
  return out;
}

// "ftp://...", "file:/..." and the like: a scheme that is not a path.
bool has_other_scheme(std::string_view s) {
  const std::size_t colon = s.find(':');
  if (colon == std::string_view::npos || colon < 2) return false;  // "C:" aside
  for (std::size_t i = 0; i < colon; ++i) {
    const char c = s[i];
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!(alpha || (i > 0 && ((c >= '0' && c <= '9') || c == '+' || c == '-' ||
                              c == '.'))))
      return false;
  }
  return s.substr(colon).starts_with(":/");  // "://" included
}

// The local file a local index's child is expected at: the child URL's path
// below the index's URL when that is known and the child is under it, else
// the last segment of the child's path, in the index's directory. Empty when
// the URL names no file (it ends with '/'). Either URL may be empty.
std::string local_child_path(const std::string& index_path,
                             const normalized_url& index_url,
                             const normalized_url& child_url,
                             std::string_view child_loc) {
  // An index in the working directory (or stdin) has its children there,
  // named as they are, without "./".
  const fs::path dir =
      index_path == "-" ? fs::path() : fs::path(index_path).parent_path();
  std::string_view rel;
  if (within_scope(child_url, index_url)) {
    rel = child_url.href().substr(index_url.scope_directory().size());
  } else {
    std::string_view p =
        child_url.empty() ? detail::trim(child_loc) : child_url.path();
    p = p.substr(0, std::min(p.find_first_of("?#"), p.size()));
    rel =
        p.substr(p.rfind('/') == std::string_view::npos ? 0 : p.rfind('/') + 1);
  }
  rel = rel.substr(0, std::min(rel.find_first_of("?#"), rel.size()));
  std::string decoded = percent_decode(rel);
  if (decoded.empty() || decoded.back() == '/' ||
      decoded.find('\0') != std::string::npos)
    return {};
  // Never leave the index's directory: a hostile index must not make the
  // check read (and quote) /etc/passwd.
  if (fs::path(decoded).is_absolute()) return {};
  for (const auto& part : fs::path(decoded))
    if (part == "..") return {};
  return (dir / decoded).string();
}

bool is_regular_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string canonical_key(const std::string& path) {
  if (path == "-") return "-";
  std::error_code ec;
  fs::path p = fs::weakly_canonical(path, ec);
  return "file:" + (ec ? path : p.string());
}

std::string lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// Why a document could not be checked.
struct failure {
  std::string code;
  std::string message;
  bool unreadable = true;  ///< for a target: it could not be read at all
};

// Where a document was named: the diagnostics of the index or robots.txt
// that lists it and the listing's position, or nothing for a target.
struct listing {
  diagnostic_list* parent = nullptr;
  std::string parent_source;
  std::string loc;
  std::uint64_t line = 0, column = 0;
  /// A site's /sitemap.xml, tried for want of Sitemap: lines.
  bool fallback = false;
};

struct job {
  bool remote = false;
  /// Remote: the normalised URL; local: where it is served, or "".
  std::string url;
  std::string path;    ///< local: the file, "-" for stdin
  std::string source;  ///< as reported
  std::uint32_t depth = 0;
  /// "https://site/" when a robots.txt on another host named this sitemap
  /// (a cross-submit, PROTOCOL.md 1.7).
  std::optional<std::string> cross_submit;
  std::string scope_origin;  ///< how the URL is known, for messages
  listing from;
};

struct read_outcome {
  std::optional<failure> failed;
  parse_summary summary;
  http_response response;  ///< remote only
};

class checker {
 public:
  checker(const check_options& options, check_observer& observer)
      : options_(options),
        observer_(observer),
        deadline_(steady::now() + options.max_time) {}

  check_report run(const std::vector<std::string>& targets) {
    for (const std::string& t : targets) {
      if (stopped_) break;
      check_target(t);
    }
    for (const auto& d : report_.documents) {
      report_.errors += d.errors;
      report_.warnings += d.warnings;
      report_.infos += d.infos;
      report_.any_unreadable = report_.any_unreadable || d.unreadable;
    }
    return std::move(report_);
  }

 private:
  // --- targets ---------------------------------------------------------------

  void check_target(const std::string& target) {
    job j;
    j.source = target;
    if (has_http_scheme(detail::trim(target))) {
      normalized_url url;
      const url_problem p = normalize_url(target, url);
      if (p != url_problem::ok) {
        fail(j, failure{"bad-target", "not a URL that can be fetched: " +
                                          std::string(describe(p))});
        return;
      }
      if (url.path_and_query() == "/") {
        check_site(target, url);
        return;
      }
      j.remote = true;
      j.url = std::string(url.href());
      j.scope_origin = "directory of the sitemap's URL";
      check_document(j);
      return;
    }
    if (has_other_scheme(target)) {
      fail(j, failure{"bad-target",
                      "only local files and http(s) URLs can be checked"});
      return;
    }
    j.path = target;
    if (options_.sitemap_url) {
      std::string url;
      if (normalize_url(*options_.sitemap_url, url) == url_problem::ok) {
        j.url = std::move(url);
        j.scope_origin = "directory of the sitemap URL given (--sitemap-url)";
      } else {
        bad_sitemap_url_ = true;
      }
    }
    check_document(j);
  }

  // A site: its robots.txt's Sitemap: lines, or /sitemap.xml without any.
  void check_site(const std::string& target, const normalized_url& site) {
    const std::string origin(site.origin());
    const std::string robots_url = origin + "/robots.txt";
    job robots;
    robots.source = robots_url;
    if (!admit(robots, key_of_url(robots_url))) return;

    const std::size_t slot = report_.documents.size();
    report_.documents.emplace_back();
    report_.documents[slot].source = robots_url;
    report_.documents[slot].robots_txt = true;
    report_.documents[slot].kind = document_kind::text;
    diagnostic_list diags(options_.max_listed_per_code);

    std::string body;
    bool timed_out = false;
    http_client& client = http();
    auto r = client.send(
        http_request{"GET", robots_url, {}, {}},
        [&](const char* data, std::size_t size) {
          if (should_stop()) {
            timed_out = true;
            return false;
          }
          if (body.size() < robots_keep_bytes)
            body.append(data, std::min(size, robots_keep_bytes - body.size()));
          return true;
        });
    document_report& rep = report_.documents[slot];
    if (!r && hit_run_deadline()) timed_out = true;
    if (!r) {
      if (timed_out) {
        stop_inside(diags);
      } else {
        diags.add(severity::error, "fetch-failed", 0, 0,
                  "robots.txt of " + target +
                      " could not be fetched: " + r.err().message);
        rep.unreadable = true;
      }
      finish(slot, diags);
      return;
    }
    rep.bytes = r->body_bytes;
    bytes_ += r->body_bytes;
    robots_sitemaps found;
    const long status = r->status;
    const std::string where =
        r->effective_url.empty() ? robots_url : r->effective_url;
    if (status == 200) {
      found = find_sitemaps(body, where);
      for (auto& d : found.diagnostics) diags.add(std::move(d));
      if (found.sitemaps.empty())
        diags.add(severity::info, "no-sitemap-line", 0, 0,
                  "robots.txt names no sitemap that can be fetched; " + origin +
                      "/sitemap.xml is tried instead. Add 'Sitemap: <full "
                      "URL>' lines so every search engine finds the sitemaps");
    } else if (status >= 400 && status < 500) {
      diags.add(severity::info, "robots-txt-missing", 0, 0,
                "robots.txt answered HTTP " + std::to_string(status) +
                    ", so it names no sitemap; " + origin +
                    "/sitemap.xml is tried instead");
    } else {
      diags.add(severity::error, "http-status", 0, 0,
                "robots.txt answered HTTP " + std::to_string(status) +
                    ": crawlers treat a robots.txt they cannot read as "
                    "forbidding the whole site (RFC 9309 2.3.1.4); it must "
                    "answer 200, or 404 when there is none");
    }
    rep.urls = found.sitemaps.size();

    // The origin that answered, after redirects, is the site's.
    normalized_url answered;
    if (normalize_url(where, answered) != url_problem::ok)
      (void)normalize_url(robots_url, answered);
    const std::string robots_site = std::string(answered.origin()) + "/";
    std::vector<job> children;
    if (found.sitemaps.empty()) {
      job c;
      c.remote = true;
      c.url = origin + "/sitemap.xml";
      c.source = c.url;
      c.depth = 1;
      c.scope_origin = "directory of the sitemap's URL";
      c.from = listing{&diags, robots_url, c.url, 0, 0, true};
      children.push_back(std::move(c));
    }
    for (const robots_sitemap& s : found.sitemaps) {
      job c;
      c.source = s.url;
      c.depth = 1;
      c.from = listing{&diags, robots_url, s.url, s.line, 0, false};
      normalized_url url;
      if (normalize_url(s.url, url) != url_problem::ok) continue;  // reported
      c.url = std::string(url.href());
      c.remote = true;
      c.scope_origin = "directory of the sitemap's URL";
      if (url.origin() != answered.origin()) {
        c.cross_submit = robots_site;
        c.scope_origin =
            "site whose robots.txt names this sitemap (a cross-submit: its "
            "URLs must be on that site)";
      }
      children.push_back(std::move(c));
    }
    ancestors_.push_back(key_of_url(robots_url));
    for (job& c : children) {
      if (stopped_) break;
      check_document(c);
    }
    ancestors_.pop_back();
    finish(slot, diags);
  }

  // --- one document ----------------------------------------------------------

  // Checks one document and, for an index, its children; returns its kind
  // (unknown when it was not checked).
  document_kind check_document(job& j) {
    const std::string key =
        j.remote ? key_of_url(j.url) : canonical_key(j.path);
    if (!admit(j, key)) return document_kind::unknown;

    const std::size_t slot = report_.documents.size();
    report_.documents.emplace_back();
    report_.documents[slot].source = j.source;
    report_.documents[slot].parent = j.from.parent_source;

    context_settings cs;
    cs.max_listed_per_code = options_.max_listed_per_code;
    cs.collect_children = options_.follow_indexes;
    if (j.cross_submit) {
      cs.scope = *j.cross_submit;
      cs.waive_scope_for_index = true;
    } else if (!j.url.empty()) {
      cs.scope = j.url;
    }
    cs.scope_origin = j.scope_origin;
    auto ctx = std::make_unique<context_checker>(std::move(cs));
    if (!j.from.parent && !j.remote && bad_sitemap_url_)
      ctx->diagnostics().add(
          severity::error, "bad-sitemap-url", 0, 0,
          "the sitemap URL given is not an absolute http(s) URL, so the "
          "location rule was not checked");

    read_outcome got = j.remote ? fetch(j, *ctx) : read_local(j, *ctx);
    if (got.failed) {
      report_.documents.erase(report_.documents.begin() +
                              static_cast<std::ptrdiff_t>(slot));
      fail(j, std::move(*got.failed));
      return document_kind::unknown;
    }

    std::vector<std::string> keys{key};
    std::string effective = j.url;
    if (j.remote) {
      std::string e;
      if (!got.response.effective_url.empty() &&
          normalize_url(got.response.effective_url, e) == url_problem::ok &&
          e != j.url) {
        const std::string ekey = key_of_url(e);
        if (is_ancestor(ekey)) {
          report_.documents.erase(report_.documents.begin() +
                                  static_cast<std::ptrdiff_t>(slot));
          fail(j, failure{"index-cycle",
                          "redirects to " + e +
                              ", which lists it (directly or through other "
                              "indexes): a cycle, not followed"});
          return document_kind::unknown;
        }
        if (!visited_.insert(ekey).second) {
          report_.documents.erase(report_.documents.begin() +
                                  static_cast<std::ptrdiff_t>(slot));
          already_checked(j, "redirects to " + e);
          return document_kind::unknown;
        }
        keys.push_back(ekey);
        ctx->diagnostics().add(
            severity::info, "redirected", 0, 0,
            "fetched from " + e + " after " +
                std::to_string(got.response.redirects) +
                " redirect(s); search engines follow redirects, but the "
                "sitemap's location is the URL that answered");
        effective = std::move(e);
        normalized_url before, after;
        (void)normalize_url(j.url, before);
        (void)normalize_url(effective, after);
        if (!j.cross_submit &&
            after.scope_directory() != before.scope_directory())
          recheck_location(effective, *ctx, got.summary);
      }
      note_content_type(got.response, got.summary, *ctx);
    }

    bytes_ += got.summary.bytes;
    document_report& rep = report_.documents[slot];
    rep.kind = got.summary.kind;
    rep.urls = got.summary.entries;
    rep.bytes = got.summary.bytes;
    rep.schema_valid = got.summary.schema_valid;

    if (got.summary.kind == document_kind::sitemapindex &&
        options_.follow_indexes && !stopped_) {
      for (const std::string& k : keys) ancestors_.push_back(k);
      follow_children(j, effective, *ctx);
      ancestors_.resize(ancestors_.size() - keys.size());
    }
    const document_kind kind = got.summary.kind;
    finish(slot, ctx->diagnostics());
    return kind;
  }

  void follow_children(const job& index, const std::string& index_url,
                       context_checker& ctx) {
    std::vector<detail::child_ref> children = std::move(ctx.children());
    ctx.children().clear();
    std::unordered_set<std::string> listed;  // repeats are "duplicate-url"
    normalized_url index_at;  // stays empty for a local index without a URL
    (void)normalize_url(index_url, index_at);
    for (const detail::child_ref& c : children) {
      if (stopped_) break;
      if (!listed.insert(c.loc).second) continue;
      job child;
      child.depth = index.depth + 1;
      child.cross_submit = index.cross_submit;
      child.from = listing{&ctx.diagnostics(), index.source, c.loc, c.line,
                           c.column,           false};
      normalized_url child_at;
      url_problem p = normalize_url(c.loc, child_at);
      if (p == url_problem::relative_without_base && !index_at.empty()) {
        // Reported by the parser as not absolute; followed as a browser
        // would resolve it, so the rest of the tree is still checked.
        auto base = url_normalizer::with_base(index_at.scope_directory());
        if (base) p = base->normalize(c.loc, child_at);
      }
      std::string url(p == url_problem::ok ? child_at.href() : "");

      if (index.remote) {
        if (url.empty()) continue;  // the parser reported the <loc>
        // Off the index's host is beyond the site being checked (and an
        // "outside-location" error already); a cross-submit may point
        // anywhere its robots.txt allows.
        std::string a, b;
        if (!index.cross_submit &&
            detail::host_of(url, a) != detail::host_of(index_url, b))
          continue;
        child.remote = true;
        child.url = std::move(url);
        child.source = child.url;
        child.scope_origin = "directory of the sitemap's URL";
      } else {
        std::string path =
            local_child_path(index.path, index_at, child_at, c.loc);
        if (!path.empty() && is_regular_file(path)) {
          child.path = std::move(path);
          child.source = child.path;
          child.url = std::move(url);
          child.scope_origin = "directory of the URL the index lists it at";
        } else if (options_.fetch_children && !url.empty()) {
          child.remote = true;
          child.url = std::move(url);
          child.source = child.url;
          child.scope_origin = "directory of the sitemap's URL";
        } else {
          fail(child,
               failure{"child-not-found",
                       path.empty()
                           ? std::string("its URL names no file to look for "
                                         "beside the index")
                           : "no file " + path +
                                 " beside the index (a local index's "
                                 "children are looked for in its directory; "
                                 "`fetch_children` fetches missing ones)"});
          continue;
        }
      }
      const document_kind kind = check_document(child);
      if (kind == document_kind::sitemapindex)
        ctx.diagnostics().add(
            severity::warning, "nested-index", c.line, c.column,
            "sitemap " + quote_text(c.loc) +
                " is itself a sitemap index: the protocol defines indexes of "
                "sitemaps only, and search engines may not follow an index in "
                "an index; list its sitemaps here instead");
    }
  }

  // --- reading ---------------------------------------------------------------

  read_outcome read_local(const job& j, context_checker& ctx) {
    read_outcome out;
    const bool stdin_target = j.path == "-";
    const int fd =
        stdin_target ? 0 : ::open(j.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      out.failed = failure{
          "read-failed", "cannot open " + j.path + ": " + std::strerror(errno)};
      return out;
    }
    if (!buffer_) buffer_ = std::make_unique<char[]>(block_size);
    sitemap_parser parser(ctx, options_.parse);
    std::uint64_t total = 0;
    for (;;) {
      if (should_stop()) {
        stop_inside(ctx.diagnostics());
        break;
      }
      const ssize_t n = ::read(fd, buffer_.get(), block_size);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        const std::string why = std::strerror(errno);
        if (total == 0) {
          if (!stdin_target) ::close(fd);
          out.failed =
              failure{"read-failed", "cannot read " + j.path + ": " + why};
          return out;
        }
        ctx.diagnostics().add(
            severity::error, "read-failed", 0, 0,
            "reading stopped after " + with_commas(total) + " bytes: " + why);
        break;
      }
      if (n == 0) break;
      total += static_cast<std::uint64_t>(n);
      if (!parser.feed(buffer_.get(), static_cast<std::size_t>(n))) break;
    }
    if (!stdin_target) ::close(fd);
    out.summary = parser.finish();
    ctx.finish();
    return out;
  }

  read_outcome fetch(const job& j, context_checker& ctx) {
    read_outcome out;
    http_client& client = http();
    auto parser = std::make_unique<sitemap_parser>(ctx, options_.parse);
    bool parser_stopped = false, cut_off = false, timed_out = false;
    std::uint64_t drained = 0;
    auto r = client.send(http_request{"GET", j.url, {}, {}},
                         [&](const char* data, std::size_t size) {
                           if (should_stop()) {
                             timed_out = true;
                             return false;
                           }
                           if (!parser_stopped) {
                             parser_stopped = !parser->feed(data, size);
                             return true;
                           }
                           drained += size;
                           if (drained > drain_bytes) {
                             cut_off = true;
                             return false;
                           }
                           return true;
                         });
    out.summary = parser->finish();
    ctx.finish();
    // The request's timeout is cut to what is left of the run, so a timeout
    // then is the run's time cap, not the server's fault.
    if (!r && hit_run_deadline()) timed_out = true;
    if (!r) {
      if (timed_out || cut_off) {
        // Stopped by us: what was read is the document, status unknown.
        out.response.status = 200;
        if (timed_out) stop_inside(ctx.diagnostics());
        return out;
      }
      out.failed = failure{"fetch-failed", r.err().message};
      return out;
    }
    out.response = std::move(*r);
    if (out.response.status != 200) {
      std::string m =
          j.url + " answered HTTP " + std::to_string(out.response.status);
      if (!out.response.effective_url.empty() &&
          out.response.effective_url != j.url)
        m += " (at " + out.response.effective_url + ")";
      m += ": search engines read a sitemap only from a 200 response";
      out.failed = failure{"http-status", std::move(m)};
    }
    return out;
  }

  // The location rule again, against the URL that answered after redirects:
  // it is known only once the transfer is over, so the document is fetched
  // once more from there and read for its locs alone. The first verdict
  // stands when that fails.
  void recheck_location(const std::string& effective, context_checker& ctx,
                        const parse_summary& first) {
    if (first.entries == 0 || stopped_) return;
    struct location_pass final : parse_handler {
      explicit location_pass(std::size_t max) : found(max) {}
      diagnostic_list found;
      normalized_url scope;
      normalized_url buffer;
      void on_entry(const parsed_entry& e) override {
        if (e.loc.present)
          detail::check_location(detail::trim(e.loc.text), e.loc.line,
                                 e.loc.column, scope,
                                 "directory of the sitemap's URL after "
                                 "redirects",
                                 buffer, found);
      }
    } pass(options_.max_listed_per_code);
    (void)normalize_url(effective, pass.scope);
    parse_options po = options_.parse;
    po.schema_checks = false;
    sitemap_parser parser(pass, po);
    bool timed_out = false;
    auto r = http().send(http_request{"GET", effective, {}, {}},
                         [&](const char* data, std::size_t size) {
                           if (should_stop()) {
                             timed_out = true;
                             return false;
                           }
                           return parser.feed(data, size);
                         });
    const parse_summary s = parser.finish();
    bytes_ += s.bytes;
    if (timed_out) {
      stop_inside(ctx.diagnostics());
      return;
    }
    if (!r || r->status != 200 || s.entries != first.entries) return;
    ctx.diagnostics().remove_code("outside-location");
    ctx.diagnostics().merge(std::move(pass.found));
  }

  void note_content_type(const http_response& r, const parse_summary& s,
                         context_checker& ctx) {
    if (s.kind == document_kind::unknown) return;
    std::string type = lowercase(r.content_type);
    type = std::string(detail::trim(type.substr(0, type.find(';'))));
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
             : "served as Content-Type " + quote_text(r.content_type)) +
            " for a " + std::string(to_string(s.kind)) + " document; " +
            std::string(expected) +
            (s.gzipped ? " (or application/gzip)" : "") +
            " is expected. Search engines read the content, but some "
            "tools trust the header");
  }

  // --- bookkeeping
  // -------------------------------------------------------------

  // Whether a document may be checked now: caps, cycles, repeats and depth.
  // Reports why not, and counts it as started when it may.
  bool admit(const job& j, const std::string& key) {
    if (stopped_) return false;
    if (should_stop() && report_.cancelled) {
      stopped_ = true;
      return false;
    }
    if (is_ancestor(key)) {
      fail(j, failure{"index-cycle",
                      "lists an index that lists it (directly or through "
                      "other indexes): a cycle, not followed"});
      return false;
    }
    if (visited_.contains(key)) {
      already_checked(j, "it");
      return false;
    }
    if (j.depth > options_.max_depth) {
      fail(j, failure{"max-depth",
                      "not checked: it is " + std::to_string(j.depth) +
                          " levels below the target, deeper than the limit "
                          "of " +
                          std::to_string(options_.max_depth) +
                          " (--max-depth); sitemaps should be one index "
                          "away from robots.txt"});
      return false;
    }
    std::string cap;
    if (documents_ >= options_.max_documents)
      cap = "the run's cap of " + with_commas(options_.max_documents) +
            " documents (--max-documents)";
    else if (bytes_ >= options_.max_total_bytes)
      cap = "the run's cap of " + with_commas(options_.max_total_bytes) +
            " bytes read (--max-bytes)";
    else if (steady::now() >= deadline_)
      cap = "the run's time cap of " +
            std::to_string(options_.max_time.count()) + " s (--max-time)";
    if (!cap.empty()) {
      stopped_ = true;
      fail(j, failure{"cap-reached",
                      "not checked: " + cap +
                          " was reached; it and every later document were "
                          "left unchecked",
                      false});
      return false;
    }
    ++documents_;
    visited_.insert(key);
    return true;
  }

  void already_checked(const job& j, const std::string& what) {
    if (!j.from.parent) return;  // a target given twice is checked once
    j.from.parent->add(severity::info, "already-checked", j.from.line,
                       j.from.column,
                       "sitemap " + quote_text(j.from.loc) + ": " + what +
                           " was already checked in this run; not checked "
                           "again");
  }

  bool is_ancestor(const std::string& key) const {
    return std::find(ancestors_.begin(), ancestors_.end(), key) !=
           ancestors_.end();
  }

  // Polled between blocks: the observer's cancel, or the run's time cap.
  bool should_stop() {
    if (observer_.cancelled()) {
      report_.cancelled = true;
      return true;
    }
    return steady::now() >= deadline_;
  }

  // Whether a failed request ran into the run's time cap: its timeout was
  // cut to the time left, and libcurl's timers may fire a hair early.
  bool hit_run_deadline() const {
    return client_capped_ &&
           steady::now() + std::chrono::milliseconds(100) >= deadline_;
  }

  // Ends the run in the middle of a document: the cap is reported there.
  void stop_inside(diagnostic_list& diags) {
    if (stopped_) return;
    stopped_ = true;
    if (report_.cancelled) return;
    diags.add(severity::error, "cap-reached", 0, 0,
              "reading stopped: the run's time cap of " +
                  std::to_string(options_.max_time.count()) +
                  " s (--max-time) was reached; what was read so far is "
                  "reported, and later documents were left unchecked");
  }

  // Reports a document that could not be checked where it was named.
  void fail(const job& j, failure f) {
    if (j.from.parent) {
      std::string code = std::move(f.code);
      std::string message =
          "sitemap " + quote_text(j.from.loc) + ": " + f.message;
      if (j.from.fallback &&
          (code == "http-status" || code == "fetch-failed")) {
        code = "no-sitemap-found";
        message = "no sitemap found: robots.txt names none, and " + j.url +
                  " could not be read (" + f.message +
                  "); add 'Sitemap: <full URL>' lines to robots.txt";
      }
      j.from.parent->add(severity::error, code, j.from.line, j.from.column,
                         std::move(message));
      return;
    }
    document_report r;
    r.source = j.source;
    r.unreadable = f.unreadable;
    diagnostic_list diags(options_.max_listed_per_code);
    diags.add(severity::error, f.code, 0, 0, std::move(f.message));
    report_.documents.push_back(std::move(r));
    finish(report_.documents.size() - 1, diags);
  }

  void finish(std::size_t slot, diagnostic_list& diags) {
    document_report& r = report_.documents[slot];
    diags.finish_into(r);
    observer_.on_document(r);
  }

  static std::string key_of_url(std::string_view url) {
    return "url:" + std::string(url);
  }

  // One client for the run, so connections are reused; remade with a shorter
  // timeout once less than one request's worth of the run's time is left.
  http_client& http() {
    const auto left =
        std::max(std::chrono::duration_cast<std::chrono::milliseconds>(
                     deadline_ - steady::now()),
                 std::chrono::milliseconds(1));
    if (client_ && left >= client_->options().total_timeout) return *client_;
    http_options o = options_.http;
    if (o.user_agent.empty()) o.user_agent = default_user_agent();
    client_capped_ = left < o.total_timeout;
    o.total_timeout = std::min(o.total_timeout, left);
    o.connect_timeout = std::min(o.connect_timeout, o.total_timeout);
    client_ = std::make_unique<http_client>(o);
    return *client_;
  }

  const check_options& options_;
  check_observer& observer_;
  const steady::time_point deadline_;
  check_report report_;
  std::unique_ptr<http_client> client_;
  std::unique_ptr<char[]> buffer_;
  std::unordered_set<std::string> visited_;
  std::vector<std::string> ancestors_;
  std::uint64_t documents_ = 0;
  std::uint64_t bytes_ = 0;
  bool stopped_ = false;
  bool bad_sitemap_url_ = false;
  bool client_capped_ = false;  // client_'s timeout is the time left
};

}  // namespace

check_report check(const std::vector<std::string>& targets,
                   const check_options& options, check_observer& observer) {
  checker c(options, observer);
  return c.run(targets);
}

}  // namespace sitemill
