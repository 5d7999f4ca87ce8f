// What a crawl sends to a site behind a login (credentials.h): the checks
// of headers and cookies, and which of them go with a request.
#include "sitemill/net/credentials.h"

#include <algorithm>
#include <array>

#include "detail/digest.h"
#include "detail/text.h"
#include "net/cookie_text.h"
#include "sitemill/net/http.h"
#include "sitemill/url/url.h"

namespace sitemill {
namespace {

using detail::iequals;
using detail::is_control;
using detail::trim;

// RFC 9110 5.6.2: tchar.
bool is_token_char(char c) noexcept {
  if (detail::is_ascii_alpha(c) || detail::is_ascii_digit(c)) return true;
  constexpr std::string_view others = "!#$%&'*+-.^_`|~";
  return others.find(c) != std::string_view::npos;
}

// The headers the crawl (or libcurl under it) writes itself, or that would
// change how an answer reads: a second Host or Content-Length makes the
// request ambiguous, Accept-Encoding could bring a body libcurl does not
// undo, Range a part of a page, the validators a 304 for a page the crawl
// has no copy of.
constexpr std::array<std::string_view, 15> owned_headers = {"host",
                                                            "content-length",
                                                            "transfer-encoding",
                                                            "connection",
                                                            "keep-alive",
                                                            "upgrade",
                                                            "te",
                                                            "trailer",
                                                            "expect",
                                                            "proxy-connection",
                                                            "accept-encoding",
                                                            "range",
                                                            "if-none-match",
                                                            "if-modified-since",
                                                            "user-agent"};

std::string cookie_part_problem(std::string_view name, std::string_view value) {
  if (name.empty()) return "has no name";
  if (!detail::is_cookie_name(name))
    return "has a name with a space, '=', ';' or a control character";
  if (!detail::is_cookie_value(value))
    return "has a value with ';' or a control character";
  return {};
}

// RFC 6265 5.1.3 domain-match, with `include_subdomains` for a cookie that
// named a Domain (a host-only one must equal the host).
bool domain_matches(const http_cookie& c, std::string_view host) {
  if (c.domain.empty() || host == c.domain) return true;
  if (!c.include_subdomains || parse_ip_address(host)) return false;
  return host.size() > c.domain.size() && host.ends_with(c.domain) &&
         host[host.size() - c.domain.size() - 1] == '.';
}

// RFC 6265 5.1.4 path-match.
bool path_matches(std::string_view cookie_path, std::string_view path) {
  if (!path.starts_with(cookie_path)) return false;
  return path.size() == cookie_path.size() || cookie_path.ends_with('/') ||
         path[cookie_path.size()] == '/';
}

}  // namespace

std::string header_problem(std::string_view name, std::string_view value) {
  if (name.empty()) return "a header with no name";
  if (!std::all_of(name.begin(), name.end(), is_token_char))
    return "a header name with a character HTTP does not allow in one";
  if (std::any_of(value.begin(), value.end(),
                  [](char c) { return c != '\t' && is_control(c); }))
    return "header " + std::string(name) +
           " has a control character (a line end?) in its value";
  for (std::string_view owned : owned_headers)
    if (iequals(name, owned))
      return "header " + std::string(name) +
             (iequals(name, "user-agent")
                  ? " is the crawl's own option, `user_agent`"
                  : " is one the crawler sets itself");
  if (iequals(name, "cookie"))
    return "header Cookie: give cookies as `cookies`, which are sent where "
           "their domain and path match";
  return {};
}

result<http_header> parse_header_line(std::string_view line) {
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos)
    return error{"a header is \"Name: value\"; this one has no ':'", "headers"};
  const std::string_view name = line.substr(0, colon);
  const std::string_view value = trim(line.substr(colon + 1));
  if (std::string why = header_problem(name, value); !why.empty())
    return error{std::move(why), "headers"};
  return http_header{std::string(name), std::string(value)};
}

result<std::vector<http_cookie>> parse_cookie_list(std::string_view text) {
  std::vector<http_cookie> out;
  std::size_t piece = 0;
  while (!text.empty()) {
    const std::size_t semi = text.find(';');
    const std::string_view part = trim(text.substr(0, semi));
    text.remove_prefix(semi == std::string_view::npos ? text.size() : semi + 1);
    if (part.empty()) continue;  // "a=1;" and "a=1; ; b=2" as browsers
    ++piece;
    const std::size_t eq = part.find('=');
    if (eq == std::string_view::npos)
      return error{"cookie " + std::to_string(piece) +
                       " is not name=value (cookies are \"a=1; b=2\")",
                   "cookies"};
    http_cookie c;
    c.name = std::string(trim(part.substr(0, eq)));
    c.value = std::string(trim(part.substr(eq + 1)));
    if (std::string why = cookie_part_problem(c.name, c.value); !why.empty())
      return error{"cookie " + std::to_string(piece) + " " + why, "cookies"};
    out.push_back(std::move(c));
  }
  if (out.empty())
    return error{"no cookie given (cookies are \"a=1; b=2\")", "cookies"};
  return out;
}

status check_credentials(const site_credentials& c) {
  for (const auto& [name, value] : c.headers) {
    if (std::string why = header_problem(name, value); !why.empty())
      return error{"`headers`: " + why, "headers"};
    if (!c.user.empty() && iequals(name, "authorization"))
      return error{
          "`headers` has Authorization and `user` is set too: give "
          "the login one way",
          "headers"};
  }
  for (const http_cookie& k : c.cookies) {
    if (std::string why = cookie_part_problem(k.name, k.value); !why.empty())
      return error{"`cookies`: a cookie " + why, "cookies"};
  }
  if (std::any_of(c.user.begin(), c.user.end(),
                  [](char ch) { return ch == ':' || is_control(ch); }))
    return error{"`user` may not hold ':' or a control character (RFC 7617)",
                 "user"};
  if (std::any_of(c.password.begin(), c.password.end(), is_control))
    return error{"the password of `user` has a control character", "user"};
  return {};
}

credential_headers::credential_headers(site_credentials credentials,
                                       std::string_view origin)
    : c_(std::move(credentials)), origin_(origin) {
  if (!c_.user.empty())
    authorization_ = "Basic " + detail::base64(c_.user + ":" + c_.password);
  // RFC 6265 5.4 step 2: longer paths first; the order given otherwise.
  std::stable_sort(c_.cookies.begin(), c_.cookies.end(),
                   [](const http_cookie& a, const http_cookie& b) {
                     return a.path.size() > b.path.size();
                   });
}

void credential_headers::add(std::string_view url,
                             std::vector<http_header>& out) const {
  normalized_url u;
  if (normalize_url(url, u) != url_problem::ok || u.origin() != origin_) return;
  for (const http_header& h : c_.headers) out.push_back(h);
  if (!authorization_.empty())
    out.emplace_back("Authorization", authorization_);
  std::string cookie;
  for (const http_cookie& k : c_.cookies) {
    if ((k.secure && !u.is_https()) || !domain_matches(k, u.host()) ||
        !path_matches(k.path, u.path()))
      continue;
    if (!cookie.empty()) cookie += "; ";
    cookie.append(k.name).append("=").append(k.value);
  }
  if (!cookie.empty()) out.emplace_back("Cookie", std::move(cookie));
}

std::function<void(std::string_view, std::vector<http_header>&)>
credential_headers::hook(site_credentials credentials,
                         std::string_view origin) {
  if (credentials.empty()) return {};
  auto shared = std::make_shared<const credential_headers>(
      std::move(credentials), origin);
  return [shared](std::string_view url, std::vector<http_header>& out) {
    shared->add(url, out);
  };
}

}  // namespace sitemill
