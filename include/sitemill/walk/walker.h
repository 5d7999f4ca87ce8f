// sitemill: the one sitemap walker, for everything that reads a tree of
// sitemaps (check, generate --from-sitemap, and later stats, diff and the
// crawler's seeding).
//
// Reading. A location is a local file, "-" (stdin), an http(s) URL or an
// object of a bucket ("s3://BUCKET/KEY", below). Its
// bytes stream in blocks into the one sitemap_parser, which sniffs gzip by
// its magic bytes, inflates it through the one inflater (concatenated
// members; parse_options::max_bytes caps the decompressed size) and calls
// the handler the observer gives for that document. Memory stays flat:
// nothing holds a whole document, and visited documents are remembered as
// 64-bit fingerprints of their keys (a file's canonical path, a URL).
//
// Following. When walk_options::follow_indexes is set, the <loc>s of a
// sitemapindex are followed, depth first, in the order listed (a repeat of
// a <loc> in one index only once; at most 50,000 per index):
//   * a relative <loc> resolves against the index's URL, as a browser
//     would (it is still an error the parser reports);
//   * the child of a fetched index is fetched;
//   * the child of a local index is read from the local file the child
//     location rule names, below; when there is none, it is fetched only
//     with walk_options::fetch_missing_children, and is otherwise
//     "child_not_found".
//
// The child location rule (a local index): a child is read from the index's
// directory, at the path of its URL below the index's URL directory,
// percent-decoded ("https://example.com/maps/part/a%20b.xml" listed by
// "https://example.com/maps/index.xml" is "part/a b.xml" beside the index).
// The index's URL is the one it is known at (walk()'s `served_at`, or the
// <loc> its own index lists it at). When it is not known, it is placed from
// its children and the directory tree (docs/diagnostics-context.md,
// "Where a local index's children are"):
//   1. by its children: on the origin of its first absolute child, the
//      directory of those children's URLs in common, or the directory above
//      it under which most of their files are found beside the index (a
//      sample of 64; never counting the index itself), the deepest on a tie:
//      a root sitemap.xml listing en/sitemap.xml and de/sitemap.xml is at
//      the host's root;
//   2. by the site root: that placement implies a site root on disk (as many
//      levels above the index's directory as that directory is below the
//      host's root). When the implied directory holds neither a robots.txt
//      nor an index.html, and the nearest directory at or above the index's
//      that holds one (looking no higher than a Git repository's root or 32
//      levels) is above the implied one, that one is the site root: the
//      index is at its path below it, on the children's origin. (One below
//      the implied root is a site served under a path prefix, and the
//      children are trusted.) A child its URL then names no file for, but
//      that placement 1 finds beside the index, is read from there and told
//      as misplaced (walk_document::misplaced): the index says the child is
//      where it is not served.
// A child whose URL is not at or below the index's directory (another host,
// another scheme or port, a directory above or beside) names no local file,
// so two children on two hosts never map to one file. A relative <loc> of an
// index whose URL is unknown is a path relative to the index's directory.
// A local path never leaves the index's directory: "..", absolute paths and
// NUL bytes (decoded or not) name no file.
//
// Buckets. An object "s3://BUCKET/KEY" is read with a GET signed as
// publishing signs (AWS Signature Version 4; keys, region and endpoint from
// the AWS_* environment and ~/.aws, docs/publishing.md), its body streamed
// into the parser under the same caps, time cap and cancellation as an
// HTTP body; 429 and 5xx are asked again with backoff, never past the time
// cap. A refusal fails the document (read_failed) with S3's status, code
// and message ("GET s3://b/k: 404 Not Found, NoSuchKey: The specified key
// does not exist."); no configuration fails it saying where it looked. An
// index read from a bucket is a local index whose directory is the key's:
// its children are the objects beside it that the child location rule
// names (the child's URL below the index's URL directory, percent-decoded,
// never "..", so never outside the index's prefix or bucket), read from
// the bucket the same way, so a private bucket reads whole. The index's URL
// is the one it is known at (walk()'s `served_at`, a <loc> listing it),
// else the directory its absolute children's URLs have in common on the
// first one's origin (a set sitemill published lists its children beside
// its entry). A child its URL puts elsewhere is "child_not_found", or
// fetched over HTTP(S) within the fetch scope with fetch_missing_children,
// as a local index's. Requests go to the configured endpoint only (a
// redirect elsewhere is refused): the endpoint is the user's configuration,
// so it may be a loopback or private address.
//
// Fetch scope: the walker alone decides whether a location may be fetched,
// and every request it makes carries the scope (http.h, fetch_scope), which
// the HTTP client checks on every hop before anything is sent there.
//   * Hosts. Targets may be fetched; so may the sitemaps a robots.txt names
//     (walk_listed()), on any host, since the site vouches for them (a
//     cross-submit, docs/protocol.md 1.7). A child of an index is fetched only
//     on the host and port of the index's URL (after redirects for a fetched
//     index), or anywhere when the index is a cross-submit or a local file
//     whose URL is not known (the user's own file); elsewhere it is
//     "off_site". A redirect is followed only to the host and port of the
//     URL requested; another is "out_of_scope", with its target, and is
//     never requested. Hosts are compared as normalised (without case or a
//     trailing dot, url.h); ports exactly, except that http and https on their
//     default ports are one host (same_host(), url.h), so an upgrade to
//     https is followed.
//   * Addresses. Loopback, private, shared, link-local, unique-local and
//     unspecified addresses (private_address_kind(), http.h; IPv4-mapped
//     IPv6 forms included) are not connected to, judged on the address
//     libcurl is about to connect to, after DNS: a name resolving to
//     127.0.0.1 is refused like 127.0.0.1 ("out_of_scope", nothing is sent).
//     Except the targets' own: the address of a target URL written as an IP
//     literal (or of the URL a local target is served at), the loopback
//     addresses for a target named "localhost" (RFC 6761 6.3). A child's
//     address is never allowed by the index listing it, a local one
//     included (a downloaded index must not reach 169.254.169.254).
//     walk_options::allow_private lifts the address rule (an intranet
//     site whose name resolves to 10.0.0.7).
//   * Children that cannot be fetched. A child whose <loc> is an http(s)
//     URL that does not normalise (credentials, a port above 65535) is
//     "bad_url", for a local index too: every child is read or told.
// Caps, one set per walker (walk_caps): depth below the target, documents
// read, uncompressed bytes read (checked between documents; each document
// is bounded by parse_options::max_bytes) and wall time (also checked
// between blocks, and a request's timeout is cut to the time left). The
// first cap reached is told once and the walk stops. Cycles (a document
// that lists one of its own ancestors, directly or through a redirect) are
// not followed; a document reached twice is read once. Cancellation is
// polled between blocks, and while a request waits for its answer
// (http_request::cancelled), so a silent server does not hold it.
//
// Events. Everything the walker decides is told to the walk_observer, on the
// walker's thread, in order: for each document either on_skip() (not read),
// or on_open() and then either on_failed() (it could not be read) or
// on_read() (read; its children's events follow) and on_done(). Each
// on_skip() or on_failed() of a child carries the listing: the index's
// source and the <loc>'s text, line and column.
//
// Not thread-safe: one walker per thread. Walkers on different threads are
// independent.
#ifndef SITEMILL_WALK_WALKER_H
#define SITEMILL_WALK_WALKER_H

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "sitemill/net/http.h"
#include "sitemill/parse/sitemap_parser.h"

namespace sitemill {

/// The caps of one walk; check_options and sitemap_source_options carry
/// them as their own fields.
struct walk_caps {
  /// Levels followed below a target: a target is depth 0, robots.txt ->
  /// index -> sitemap reaches depth 2.
  std::uint32_t max_depth = 4;
  std::uint64_t max_documents = 1'000;  ///< documents read at most
  /// Uncompressed bytes read at most, checked before each document.
  std::uint64_t max_total_bytes = 4ull * 1024 * 1024 * 1024;
  std::chrono::seconds max_time{600};  ///< from the walker's construction
  /// Told one line per document the walk reads, skips or cannot read, and
  /// why ("skipped https://a.example/s.xml: on another host than its
  /// index"): the CLI's --verbose. Empty: nothing. Called on the walker's
  /// thread; fetches are told by http_options::trace.
  std::function<void(std::string_view line)> trace;
};

struct walk_options : walk_caps {
  parse_options parse;
  /// For every request; an empty user_agent means default_user_agent(). A
  /// request's total timeout is shortened to what is left of max_time.
  http_options http;
  /// Read an index's children; off, only the targets (and the sitemaps
  /// given to walk_listed()) are read.
  bool follow_indexes = true;
  /// Fetch a local index's child that has no local file (within the fetch
  /// scope); off, such a child is skipped as child_not_found.
  bool fetch_missing_children = false;
  /// Connect to loopback and private addresses anywhere (see "Fetch scope"
  /// above); off, only to the targets' own.
  bool allow_private = false;
};

/// Where a document was named.
struct walk_listing {
  /// The source of the index (or robots.txt) that lists it; empty for a
  /// target.
  std::string source;
  std::string loc;  ///< as listed, trimmed
  std::uint64_t line = 0, column = 0;
};

/// A local index's child read from a file its <loc> does not name: the
/// site's root on disk says the index is elsewhere on the site than its
/// children's URLs do (the child location rule, above).
struct walk_misplaced {
  std::string site_root;  ///< the directory taken as the site's root, with '/'
  std::string marker;     ///< what marks it: "robots.txt" or "index.html"
  /// The file the <loc> names below the site root (it does not exist);
  /// empty when the <loc> is on another host than the children's first.
  std::string listed_path;
  std::string index_url;  ///< the URL the index is served at, from the root
  std::string served_at;  ///< the URL the file read is served at
};

/// A document the walker reads or decides not to read.
struct walk_document {
  /// A target as given; a child's local path, or its normalised URL (for a
  /// child skipped before its location was known: its <loc> text).
  std::string source;
  /// The file read, "-" for stdin, "s3://BUCKET/KEY" for an object of a
  /// bucket; empty when fetched.
  std::string path;
  /// Fetched: the normalised URL requested. Local: the normalised URL it is
  /// served at when known (walk()'s `served_at`, or the <loc> listing it),
  /// else empty.
  std::string url;
  bool fetched = false;
  std::uint32_t depth = 0;
  /// "https://site/" when it is (or is listed by) a sitemap that a robots.txt
  /// on another host names: a cross-submit, docs/protocol.md 1.7.
  std::optional<std::string> cross_submit;
  walk_listing listing;
  /// Set for a local index's child read from beside the index although its
  /// <loc> puts it elsewhere on the site (see walk_misplaced).
  std::optional<walk_misplaced> misplaced;
};

enum class walk_cap : std::uint8_t { documents, bytes, time };

/// Why a document was not read.
enum class walk_skip_reason : std::uint8_t {
  // Decided before reading (on_skip).
  stopped,  ///< the walk had stopped (a cap, a cancel): told only by admit()
  bad_url,  ///< an http(s) location that does not normalise; message says why
  unsupported_scheme,  ///< a target that is neither a path nor http(s)
  cycle,               ///< it lists one of its ancestors: not followed
  already_read,        ///< read before in this walk (or a target given twice)
  repeated,            ///< its <loc> came before in the same index
  too_deep,            ///< deeper than max_depth
  cap,                 ///< a cap was reached (see `cap`); the walk stops
  child_not_found,     ///< a local index's child with no file, not fetched
  off_site,  ///< a child outside the fetch scope (see the header comment)
  // Found once reading began (on_failed).
  read_failed,     ///< a file that could not be opened or read at all
  fetch_failed,    ///< the request failed before an HTTP status
  http_status,     ///< an answer other than 200 (the body is not a sitemap)
  redirect_cycle,  ///< it redirected to one of its ancestors
  redirect_already_read,  ///< it redirected to a document read before
  /// A redirect or an address outside the fetch scope: not requested
  /// (message says which; url is the redirect's target, if one).
  out_of_scope,
};

struct walk_skip {
  walk_skip_reason reason = walk_skip_reason::stopped;
  /// What went wrong, for read_failed ("cannot open a.xml: No such file or
  /// directory"), fetch_failed (the transport error), out_of_scope (where
  /// the request would have gone) and bad_url (the URL problem); for
  /// child_not_found, how the index was placed when the site root on disk
  /// placed it; empty otherwise.
  std::string message;
  walk_cap cap = walk_cap::documents;  ///< for cap
  long status = 0;                     ///< for http_status
  /// http_status: the URL that answered, as the client saw it (empty when
  /// it was the one requested). redirect_*: the normalised URL redirected
  /// to. out_of_scope: the redirect's target as sent (empty when an
  /// address was refused). child_not_found: the directory URL the child is not
  /// below, when that is why it names no file.
  std::string url;
  /// child_not_found: the local file looked for; empty when the child's
  /// URL names none.
  std::string path;
};

/// Why a document was not read, in a few words, with its message
/// ("answered an HTTP error (404)", "cannot be read: cannot open a.xml: No
/// such file or directory").
std::string describe(const walk_skip& why);

/// How a document's reading ended early.
enum class walk_stop : std::uint8_t { none, time_cap, cancelled };

/// What reading a document gave.
struct walk_read {
  parse_summary summary;
  /// Fetched and redirected: the normalised URL that answered (its location
  /// from then on); empty otherwise.
  std::string final_url;
  int redirects = 0;
  std::string content_type;  ///< fetched (or read from a bucket): as sent
  /// Read from a bucket: the object's bytes as stored (before any gunzip).
  std::optional<std::uint64_t> stored_bytes;
  walk_stop stop = walk_stop::none;  ///< the walk stopped inside it
  /// A local read error after some bytes ("reading stopped after 1,024
  /// bytes: Input/output error"); what came before was parsed.
  std::string read_error;
};

/// Told what the walker decides. Called on the walker's thread.
class walk_observer {
 public:
  virtual ~walk_observer() = default;
  /// A document is about to be read: the handler its entries and
  /// diagnostics go to, which must stay valid until on_failed() or
  /// on_done() for it.
  virtual parse_handler& on_open(const walk_document& doc) = 0;
  /// It was read (whole, up to a fatal error, or up to a stop); for an
  /// index, its children's events follow.
  virtual void on_read(const walk_document& /*doc*/, const walk_read& /*r*/) {}
  /// Its children, if any, are done; `r` is what on_read() had.
  virtual void on_done(const walk_document& /*doc*/, const walk_read& /*r*/) {}
  /// An opened document could not be read; what its handler got is void.
  virtual void on_failed(const walk_document& /*doc*/,
                         const walk_skip& /*why*/) {}
  /// A document was not read (never opened).
  virtual void on_skip(const walk_document& /*doc*/, const walk_skip& /*why*/) {
  }
  /// Polled between blocks of input; true stops the walk.
  virtual bool cancelled() { return false; }
};

/// A sitemap named by a document that is not a sitemap (a robots.txt).
struct walk_link {
  std::string url;     ///< normalised
  std::string source;  ///< as reported (as the lister wrote it); url if empty
  walk_listing listing;
  std::optional<std::string> cross_submit;  ///< see walk_document
};

/// A whole body fetched with fetch_text().
struct walk_text {
  /// The answer (any status), or none when the request failed.
  std::optional<http_response> response;
  std::string error;  ///< the transport error when there is no response
  std::string body;   ///< at most `keep` bytes of it
  walk_stop stop = walk_stop::none;
};

/// A document read again with reread().
struct walk_reread {
  parse_summary summary;
  bool ok = false;  ///< answered 200, and read to the end without a stop
  walk_stop stop = walk_stop::none;
};

class sitemap_walker {
 public:
  /// The time cap starts now. `observer` must outlive the walker.
  sitemap_walker(walk_options options, walk_observer& observer);
  ~sitemap_walker();
  sitemap_walker(const sitemap_walker&) = delete;
  sitemap_walker& operator=(const sitemap_walker&) = delete;

  /// Walks a target: a path, "-" for stdin, an http(s) URL, or an object
  /// "s3://BUCKET/KEY". `served_at` is the normalised URL a local target
  /// (or an object) is served at, when known.
  void walk(const std::string& target, std::string_view served_at = {});

  /// Walks the sitemaps `lister` names (a robots.txt that admit() let in
  /// and fetch_text() read) as its children, one level below it, with
  /// `lister` as their ancestor. Any host (a cross-submit); their redirects
  /// and addresses are held to the fetch scope.
  void walk_listed(const walk_document& lister,
                   std::span<const walk_link> links);

  /// Lets a fetched document that is not a sitemap (a robots.txt) into the
  /// walk as walk() would, counting it against the caps; none when it may
  /// be read, else why not (nothing is told to the observer). A document
  /// listed by none (a site target's robots.txt) is a target for the fetch
  /// scope: its address is one of the targets' own.
  std::optional<walk_skip> admit(const walk_document& doc);

  /// GETs `url` under the walk's time cap and cancellation, keeping the
  /// first `keep` bytes of the body; its size counts against the byte cap.
  walk_text fetch_text(const std::string& url, std::size_t keep);

  /// As fetch_text(), but the transfer ends once `keep` bytes of the body
  /// are in: a look at a location that may hold a large sitemap (a site's
  /// common sitemap locations, walk/site.h). What came counts against the
  /// byte cap; the response is the head that answered.
  walk_text peek(const std::string& url, std::size_t keep);

  /// Fetches a document again into `handler` (check reads a redirected
  /// sitemap twice): a URL, or an object "s3://BUCKET/KEY"; its bytes
  /// count against the byte cap.
  walk_reread reread(const std::string& url, parse_handler& handler,
                     const parse_options& options);

  /// True once a cap or a cancel has stopped the walk.
  bool stopped() const noexcept;
  /// True once the observer's cancelled() said so.
  bool cancelled() const noexcept;
  std::uint64_t documents() const noexcept;
  std::uint64_t bytes() const noexcept;
  /// The caps the walk runs under.
  const walk_caps& caps() const noexcept;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace sitemill

#endif  // SITEMILL_WALK_WALKER_H
