// Man pages written from the option table (option_table.h): sitemill(1),
// the overview, and sitemill-COMMAND(1) for each visible command, so the
// pages say what the built binary's --help says.
#ifndef SITEMILL_CLI_MAN_PAGES_H
#define SITEMILL_CLI_MAN_PAGES_H

#include <string>
#include <string_view>
#include <vector>

#include "option_table.h"

namespace sitemill::cli {

struct man_page {
  std::string file_name;  ///< "sitemill.1", "sitemill-generate.1"
  std::string text;       ///< roff, man(7) macros
};

/// sitemill.1 first, then one page per command in --help's order.
/// `version` goes into each page's footer ("sitemill 0.1.0").
std::vector<man_page> man_pages(const program_entry& program,
                                std::string_view version);

}  // namespace sitemill::cli

#endif  // SITEMILL_CLI_MAN_PAGES_H
