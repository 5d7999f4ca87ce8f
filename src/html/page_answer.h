// sitemill internals: what an HTTP answer for a page says about indexing,
// read the one way for every fetch of pages (the crawler, check --audit).
#ifndef SITEMILL_HTML_PAGE_ANSWER_H
#define SITEMILL_HTML_PAGE_ANSWER_H

#include <string>
#include <string_view>

#include "sitemill/net/http.h"

namespace sitemill::detail {

/// True when a Content-Type's media type is text/html, in any case and
/// whatever its parameters ("text/html; charset=ISO-8859-1").
bool is_html_media_type(std::string_view content_type) noexcept;

/// Adds the noindex and nofollow of one X-Robots-Tag header value for the
/// crawler whose product token is `token`: directives for every crawler,
/// or those after a "token:" that names this one ("googlebot: noindex" is
/// not for sitemill). "none" is both.
void read_x_robots_tag(std::string_view value, std::string_view token,
                       bool& noindex, bool& nofollow) noexcept;

/// For an answer whose body is not wanted (a redirect, a 404, a PDF):
/// whether to read and drop the body rather than refuse it. Refusing ends
/// the transfer by closing its connection, which the next request to the
/// host could have used; a stated body of at most 64 KiB costs less to
/// read.
bool drain_unwanted_body(const http_head& head) noexcept;

/// A Last-Modified header as the lastmod text generate writes
/// (format_lastmod()); "" when it is not an HTTP-date.
std::string lastmod_from_http(std::string_view last_modified);

}  // namespace sitemill::detail

#endif  // SITEMILL_HTML_PAGE_ANSWER_H
