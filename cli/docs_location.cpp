#include "docs_location.h"

#include <unistd.h>

#include <filesystem>

namespace sitemill::cli {
namespace {

// CMAKE_INSTALL_BINDIR and CMAKE_INSTALL_DOCDIR, relative to the prefix.
#ifndef SITEMILL_INSTALL_BINDIR
#define SITEMILL_INSTALL_BINDIR "bin"
#endif
#ifndef SITEMILL_INSTALL_DOCDIR
#define SITEMILL_INSTALL_DOCDIR "share/doc/sitemill"
#endif

std::string find_installed_docs() {
  std::error_code ec;
  const std::filesystem::path exe =
      std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  std::filesystem::path prefix = exe.parent_path();
  for (const auto& part : std::filesystem::path(SITEMILL_INSTALL_BINDIR)) {
    (void)part;
    prefix = prefix.parent_path();
  }
  if (exe.parent_path() != prefix / SITEMILL_INSTALL_BINDIR) return {};
  const std::filesystem::path docs = prefix / SITEMILL_INSTALL_DOCDIR;
  // diagnostics.md stands for the whole directory: a prefix with only the
  // licence in share/doc/sitemill has no docs to point at.
  if (!std::filesystem::is_regular_file(docs / "diagnostics.md", ec)) return {};
  return docs.string() + "/";
}

bool cites_at(const std::string& text, std::size_t at) {
  if (at > 0) {
    const char before = text[at - 1];
    if (before != ' ' && before != '(' && before != '\n' && before != '\'')
      return false;
  }
  const std::size_t name = at + 5;  // past "docs/"
  return name < text.size() &&
         ((text[name] >= 'a' && text[name] <= 'z') || text[name] == '*');
}

void cite_in(CLI::App& app) {
  app.description(cite_docs(app.get_description()));
  app.footer(cite_docs(app.get_footer()));
  for (CLI::Option* o : app.get_options()) {
    o->description(cite_docs(o->get_description()));
    o->group(cite_docs(o->get_group()));
  }
  for (CLI::App* sub : app.get_subcommands({})) cite_in(*sub);
}

}  // namespace

const std::string& installed_docs_dir() {
  static const std::string dir = find_installed_docs();
  return dir;
}

std::string cite_docs(std::string text) {
  const std::string& dir = installed_docs_dir();
  if (dir.empty()) return text;
  for (std::size_t at = text.find("docs/"); at != std::string::npos;
       at = text.find("docs/", at)) {
    if (!cites_at(text, at)) {
      at += 5;
      continue;
    }
    text.replace(at, 5, dir);
    at += dir.size();
  }
  return text;
}

void cite_docs_in_help(CLI::App& app) {
  if (!installed_docs_dir().empty()) cite_in(app);
}

std::string docs_location_note() {
  const std::string& dir = installed_docs_dir();
  if (!dir.empty()) return "Documentation: " + dir;
  return "Documentation: docs/NAME.md cited here is installed as "
         "share/doc/sitemill/NAME.md under the prefix sitemill is installed "
         "in (/usr/share/doc/sitemill/ from the Debian package)";
}

}  // namespace sitemill::cli
