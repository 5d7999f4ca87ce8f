// sitemill man: writes the man pages (man_pages.h) into a directory. Hidden
// from --help: the build runs it so the installed pages always describe the
// binary installed beside them (cmake/Docs.cmake).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "command.h"
#include "man_pages.h"
#include "sitemill/version.h"

namespace sitemill::cli {
namespace {

bool write_page(const std::filesystem::path& dir, const man_page& page) {
  const std::filesystem::path path = dir / page.file_name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << page.text;
  out.close();
  if (!out) {
    std::fprintf(stderr, "sitemill man: cannot write %s: %s\n", path.c_str(),
                 std::strerror(errno));
    return false;
  }
  return true;
}

}  // namespace

command_runner setup_man(CLI::App& app) {
  auto dir = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "man",
      "Write the man pages: sitemill.1 and sitemill-COMMAND.1 for each "
      "command.");
  cmd->group("");  // hidden: a build step, not a user's command
  cmd->add_option("--out", *dir, "Directory to write the pages into")
      ->required();
  return [&app, dir] {
    std::error_code ec;
    std::filesystem::create_directories(*dir, ec);
    if (ec) {
      std::fprintf(stderr, "sitemill man: cannot create %s: %s\n", dir->c_str(),
                   ec.message().c_str());
      return static_cast<int>(exit_usage);
    }
    for (const man_page& page :
         man_pages(describe_program(app), "sitemill " SITEMILL_VERSION_STRING))
      if (!write_page(*dir, page)) return static_cast<int>(exit_usage);
    return static_cast<int>(exit_ok);
  };
}

}  // namespace sitemill::cli
