// Headless Chromium for tests of what a person sees: the XSL view of a
// sitemap set, its HTML view, and later the HTML report.
//
// Debian's `chromium` package is a test dependency like any other
// (scripts/install-deps.sh installs it), so a missing browser FAILS the test
// that needs it, with a message saying how to install it: never a skip.
//
// Each call starts a fresh browser with its own profile directory; a page
// that does not finish loading within the timeout fails the test.
// Not thread-safe (GoogleTest runs tests one after another).
#ifndef SITEMILL_TESTS_SUPPORT_BROWSER_H
#define SITEMILL_TESTS_SUPPORT_BROWSER_H

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "support/http_server.h"

namespace sitemill::testing {

/// The chromium binary: $SITEMILL_CHROMIUM when set, else the first
/// `chromium` or `chromium-browser` on PATH; "" when there is none.
std::string chromium_path();

/// The DOM of `url` once loaded (XSLT applied, no scripts needed), as
/// `chromium --headless --dump-dom` prints it. Fails the test and returns ""
/// when chromium is missing, does not finish, or prints nothing. `flags`
/// go before the URL ("--blink-settings=scriptEnabled=false").
std::string browser_dom(const std::string& url,
                        const std::vector<std::string>& flags = {});

/// Writes a PNG screenshot of `url` (1200x900) to `png_path`, creating its
/// directory; fails the test when no image was written.
void browser_screenshot(const std::string& url, const std::string& png_path);

/// Where tests put screenshots for people to look at: BUILD_DIR/screenshots/
/// followed by `name` ("xsl-index.png").
std::string screenshot_path(std::string_view name);

/// Routes every regular file of `dir` (dot-files aside) on `server` at
/// "/<name>", with a Content-Type from its extension (.xml application/xml,
/// .xsl text/xsl, .html text/html, .gz application/gzip, .txt text/plain):
/// a published set served as a web server would.
void serve_directory(http_server& server, const std::string& dir);

/// The rows of the <tbody> of the table with id `table_id` in `dom` (the
/// number of "<tr" in it); 0 when there is no such table.
std::size_t table_rows(std::string_view dom, std::string_view table_id);

/// The text inside the element with id `id` ("<span id=\"url-count\">3<"
/// gives "3"); "" when there is none. Only for elements without children.
std::string element_text(std::string_view dom, std::string_view id);

}  // namespace sitemill::testing

#endif  // SITEMILL_TESTS_SUPPORT_BROWSER_H
