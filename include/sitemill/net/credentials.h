// sitemill: what a crawl sends to be let into a site behind a consent wall
// or a login (request headers, cookies, HTTP basic auth), the readers of the
// files they come in (a Netscape cookie jar, a netrc), and the one place
// that decides which of them go with a request.
//
// Sent to one origin only (scheme, host and port: the crawl's), and
// decided again for every request and every hop of a redirect
// (http_options::headers_for), so a redirect to another origin goes without
// them. A cookie goes only where its own domain, path and secure flag also
// admit it (RFC 6265 5.4). Values are never written into a message: the
// readers name a line and what is wrong with it, never what it holds.
//
// What is not done: Set-Cookie answers are not kept. The cookies sent are
// those given, on every request alike, so a crawl's requests do not depend
// on the order its answers came in, and a rerun asks what the run before
// it asked.
#ifndef SITEMILL_NET_CREDENTIALS_H
#define SITEMILL_NET_CREDENTIALS_H

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sitemill/result.h"

namespace sitemill {

/// A request header: name, value.
using http_header = std::pair<std::string, std::string>;

/// A cookie to send, with where it may go (a cookie jar's fields).
struct http_cookie {
  /// The host it is for, lowercase, without a leading dot; "" for the host
  /// of whatever origin the credentials are sent to (a cookie given as
  /// "name=value" only).
  std::string domain;
  /// Also sent to hosts below `domain` (a jar's include-subdomains flag; a
  /// domain written with a leading dot). Never for an IP address.
  bool include_subdomains = false;
  /// Sent for request paths at or below this one (RFC 6265 5.1.4).
  std::string path = "/";
  /// Sent over https only.
  bool secure = false;
  /// Unix seconds after which it is gone; 0: a session cookie.
  std::int64_t expires = 0;
  std::string name;
  std::string value;
  bool operator==(const http_cookie&) const = default;
};

/// What a crawl sends to the origin it crawls. Empty: nothing.
struct site_credentials {
  /// Sent as given ("X-Staging-Token", "..."), in order; header_problem()
  /// says which may not be.
  std::vector<http_header> headers;
  /// Sent as one Cookie header, those that match the request (RFC 6265
  /// 5.4: longer paths first, else in this order).
  std::vector<http_cookie> cookies;
  /// HTTP basic auth (RFC 7617) when not empty, sent with every request
  /// without waiting for a 401 (as curl's --user does). No ':' in it.
  std::string user;
  std::string password;

  bool empty() const noexcept {
    return headers.empty() && cookies.empty() && user.empty();
  }
};

/// Why `name: value` may not be a header of site_credentials: "" when it
/// may. Refused: a name that is not an HTTP token (RFC 9110 5.6.2), a value
/// with a control character other than tab (a CR or LF would start another
/// header), and the headers the crawl sets itself or that would change how
/// an answer is read: Host, Content-Length, Transfer-Encoding, Connection,
/// Keep-Alive, Upgrade, TE, Trailer, Expect, Proxy-Connection,
/// Accept-Encoding, Range, If-None-Match, If-Modified-Since, User-Agent
/// (its own option) and Cookie (`cookies`). Names the header, never its
/// value.
std::string header_problem(std::string_view name, std::string_view value);

/// "Name: value" (as curl's -H takes it; spaces around the value dropped)
/// as a header, checked with header_problem(). The error names the header,
/// never its value.
result<http_header> parse_header_line(std::string_view line);

/// "a=1; b=2" (as a Cookie header, and curl's -b, write cookies) as
/// cookies for the host they are sent to (domain "", path "/"). Refused: a
/// piece without '=' or with an empty name, and a name or value with a
/// control character; the error numbers the piece, never quotes it.
result<std::vector<http_cookie>> parse_cookie_list(std::string_view text);

/// A problem with one line of a file; `line` counts from 1.
struct line_problem {
  std::uint64_t line = 0;
  std::string message;  ///< what is wrong, without the line's values
};

/// A Netscape cookie file, as read.
struct cookie_jar {
  std::vector<http_cookie> cookies;  ///< in file order, expired ones not
  /// The lines of cookies that had expired by `now`: dropped.
  std::vector<std::uint64_t> expired_lines;
  std::vector<line_problem> problems;  ///< lines that are no cookie
};

/// Reads a Netscape cookie file, as curl (-c) and browser extensions
/// ("cookies.txt") write it: one cookie a line, seven fields separated by
/// tabs: domain, include-subdomains (TRUE or FALSE), path, secure (TRUE or
/// FALSE), expiry (Unix seconds; 0 for a session cookie; a fraction is
/// dropped), name, value (a line of six fields has an empty value). A
/// line starting "#HttpOnly_" is a cookie (the prefix marks it HttpOnly,
/// which a crawler sends all the same); any other starting '#', and blank
/// lines, are comments. CRLF line ends are read. Never fails: every line
/// that is no cookie is a problem with its number; a cookie that expired
/// at or before `now` (Unix seconds) is dropped and its line listed.
cookie_jar parse_cookie_jar(std::string_view text, std::int64_t now);

/// A login a netrc gives for a host.
struct netrc_login {
  std::string login;
  std::string password;
  std::uint64_t line = 0;   ///< where its `machine` (or `default`) is
  bool is_default = false;  ///< the `default` entry, no `machine` matched
};

/// What a netrc says for one host.
struct netrc_lookup {
  std::optional<netrc_login> login;    ///< none when nothing matched
  std::vector<line_problem> problems;  ///< the file's, wherever they are
};

/// Reads a netrc (as ftp, curl and git read ~/.netrc) and finds the login
/// of `host` (a URL's host, as normalized_url::host() gives it): the first
/// `machine` entry naming it (any case), else the `default` entry. Words
/// are separated by spaces, tabs and line ends; a word may be quoted
/// ("pass word", with \" \\ \n \r \t escapes, as curl reads them).
/// Keywords: machine NAME, default, login NAME, password WORD, account
/// WORD (read, not used), macdef NAME (its lines, up to a blank one, are
/// skipped). A line whose first word starts with '#' is a comment. Never
/// fails: a keyword without its word, a word that is no keyword, a login
/// or password outside an entry, and an entry with a login but no password
/// are problems with their line.
netrc_lookup find_netrc_login(std::string_view text, std::string_view host);

/// The headers `credentials` adds to requests for one origin: prepared
/// once (the Authorization value encoded, the checks made), then asked per
/// request. Immutable once made, so one may serve many threads.
class credential_headers {
 public:
  /// For requests to `origin` ("https://www.example.com", as
  /// normalized_url::origin() writes it).
  credential_headers(site_credentials credentials, std::string_view origin);

  /// Appends to `out` what goes with a request for `url`: nothing unless
  /// `url` (absolute, normalised here) is on the origin; then the
  /// headers, Authorization for `user`, and a Cookie header of the cookies
  /// whose domain, path and secure flag match `url`.
  void add(std::string_view url, std::vector<http_header>& out) const;

  /// add() as http_options::headers_for takes it, sharing this object;
  /// empty when the credentials are.
  static std::function<void(std::string_view, std::vector<http_header>&)> hook(
      site_credentials credentials, std::string_view origin);

 private:
  site_credentials c_;
  std::string origin_;
  std::string authorization_;  // "Basic ..." when a user is given
};

/// Whether `c` may be sent: an error (its field `headers`, `cookies` or
/// `user`) for a header header_problem() refuses, Authorization as a
/// header with `user` set too, a `user` with ':' or a control character,
/// a password with a control character, a cookie with an empty name, or a
/// cookie name or value with ';' or a control character. Names the header
/// or cookie, never a value.
status check_credentials(const site_credentials& c);

}  // namespace sitemill

#endif  // SITEMILL_NET_CREDENTIALS_H
