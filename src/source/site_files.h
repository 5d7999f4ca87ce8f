// sitemill internals: what the directory source needs of a file besides
// walking to it: what its name says (an HTML page, an error page), the URL
// path it is served at, and its bytes (read up to a limit, or hashed). Kept
// apart from the walk and from the page rules, which both use them.
#ifndef SITEMILL_SOURCE_SITE_FILES_H
#define SITEMILL_SOURCE_SITE_FILES_H

#include <cstddef>
#include <string>
#include <string_view>

#include "sitemill/html/html_page.h"

namespace sitemill::detail {

/// A name ending in .html, .htm or .xhtml, in any case.
bool is_html_name(std::string_view name) noexcept;

/// The name without its .html or .htm (any case); the name itself
/// otherwise.
std::string_view without_html_extension(std::string_view name) noexcept;

/// An HTTP error status as a page name: three digits, 400 to 599.
bool is_error_status(std::string_view stem) noexcept;

/// The service whose site-verification file `name` is ("Google Search
/// Console" for google<16 hex>.html); empty for any other name. A site
/// owner uploads such a file so that the service can fetch it and see the
/// owner controls the site; it is no page of the site and belongs in no
/// sitemap. The names are the services' own forms, matched whole:
/// google<16 hex>.html, yandex_<16 hex>.html, BingSiteAuth.xml (any case),
/// naver<32 hex>.html, pinterest-<5 hex>.html, baidu_verify_<code>.html.
std::string_view verification_service(std::string_view name) noexcept;

/// Appends a relative file path as URL path text. UTF-8 stays as it is (the
/// normaliser encodes it), but what the normaliser would read as URL syntax
/// ('%', '?', '#') or refuse (controls, bytes that are not UTF-8) is
/// percent-encoded here, so every file name gets a URL.
void append_url_path(std::string& out, std::string_view path);

/// strerror(err), as a string.
std::string describe_errno(int err);

/// Reads up to `limit` bytes of the file at `path`; `too_large`, when
/// given, is set when the file has more. False with errno set on failure.
bool read_file(const std::string& path, std::string& out, std::size_t limit,
               bool* too_large = nullptr);

/// XXH3-128 of a file's bytes, read in blocks so any size works. False
/// with errno set on failure.
bool hash_file(const std::string& path, content_hash& out);

}  // namespace sitemill::detail

#endif  // SITEMILL_SOURCE_SITE_FILES_H
