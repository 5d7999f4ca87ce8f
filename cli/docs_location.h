// Where the documents that --help and messages cite as docs/NAME.md are.
// They are installed with the program, in share/doc/sitemill/ under its
// prefix (cmake/Install.cmake). An installed sitemill finds that directory
// beside itself (<prefix>/bin/sitemill -> <prefix>/share/doc/sitemill/), so
// the package's own prefix (/usr for the Debian package, /usr/local for a
// plain `cmake --install`) is what --help names; a binary in a build tree
// has none, and its citations stay docs/NAME.md, the source tree's.
#ifndef SITEMILL_CLI_DOCS_LOCATION_H
#define SITEMILL_CLI_DOCS_LOCATION_H

#include <CLI/CLI.hpp>
#include <string>

namespace sitemill::cli {

/// The installed documentation directory, ending in '/', when this binary
/// is installed with it; "" otherwise.
const std::string& installed_docs_dir();

/// `text` with each citation "docs/NAME" pointing into installed_docs_dir(),
/// when there is one; unchanged otherwise.
std::string cite_docs(std::string text);

/// cite_docs() over every description, group name and footer of `app` and
/// its commands, so --help names the files a user has.
void cite_docs_in_help(CLI::App& app);

/// One sentence for the man pages and the program's --help: where docs/
/// is installed.
std::string docs_location_note();

}  // namespace sitemill::cli

#endif  // SITEMILL_CLI_DOCS_LOCATION_H
