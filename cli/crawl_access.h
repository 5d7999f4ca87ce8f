// sitemill generate's flags for crawling a site behind a consent wall or a
// login: --header, --cookie, --cookie-file, --user, --netrc, --netrc-file,
// read into the site_credentials of each crawl (net/credentials.h). The
// files are read here, once; what they hold is never printed.
#ifndef SITEMILL_CLI_CRAWL_ACCESS_H
#define SITEMILL_CLI_CRAWL_ACCESS_H

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "sitemill/net/credentials.h"
#include "sitemill/result.h"

namespace sitemill::cli {

/// The flags as given.
struct crawl_access_flags {
  std::vector<std::string> headers;       ///< --header, "Name: value"
  std::vector<std::string> cookies;       ///< --cookie, "a=1; b=2"
  std::vector<std::string> cookie_files;  ///< --cookie-file
  std::string user;                       ///< --user, USER[:PASSWORD]
  bool netrc = false;                     ///< --netrc: ~/.netrc
  std::string netrc_file;                 ///< --netrc-file

  bool given() const noexcept {
    return !headers.empty() || !cookies.empty() || !cookie_files.empty() ||
           !user.empty() || netrc || !netrc_file.empty();
  }
};

/// Declares the flags in `group`.
void add_crawl_access_flags(CLI::App& cmd, crawl_access_flags& flags,
                            const char* group);

/// The credentials of each crawl, in the order of `start_urls`: the
/// headers, the cookies (of --cookie and every --cookie-file), and the
/// login of --user, or of the netrc's entry for the start URL's host. An
/// error, in the CLI's words and without a value, for a malformed header or
/// cookie, a file that cannot be read or has a line that is no entry (its
/// name and line), a --user without a password, or these flags without
/// --from-crawl. Unless `quiet`, warns on stderr of expired cookies
/// dropped and of a start URL's host the netrc has no entry for.
result<std::vector<site_credentials>> crawl_credentials(
    const crawl_access_flags& flags, const std::vector<std::string>& start_urls,
    bool quiet);

}  // namespace sitemill::cli

#endif  // SITEMILL_CLI_CRAWL_ACCESS_H
