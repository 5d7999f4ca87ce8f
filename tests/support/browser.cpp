#include "support/browser.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "support/run.h"

namespace sitemill::testing {
namespace {

// Long enough for a cold start on a loaded 2-core machine; a page of a
// small set renders in about a second.
constexpr std::chrono::milliseconds browser_timeout{60'000};

std::string content_type_of(std::string_view name) {
  if (name.ends_with(".xml")) return "application/xml";
  if (name.ends_with(".xsl")) return "text/xsl";
  if (name.ends_with(".html")) return "text/html; charset=utf-8";
  if (name.ends_with(".gz")) return "application/gzip";
  if (name.ends_with(".txt")) return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

// Runs chromium headless with `args` after the common ones, in a profile
// directory of its own. Empty result.out when chromium is missing.
run_result run_chromium(const std::vector<std::string>& args) {
  const std::string chromium = chromium_path();
  if (chromium.empty()) {
    ADD_FAILURE() << "chromium is not installed: the browser tests need "
                     "Debian's chromium package (run scripts/install-deps.sh, "
                     "or set SITEMILL_CHROMIUM to a Chromium binary)";
    return {};
  }
  temp_dir profile;
  std::vector<std::string> all = {
      "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
      "--disable-extensions", "--disable-background-networking",
      // Chromium 156 puts a banner on pages made by XSLT, which it is
      // removing; the tests look at the page itself.
      "--disable-features=GenerateXSLTWarningBanner",
      "--user-data-dir=" + profile.path()};
  all.insert(all.end(), args.begin(), args.end());
  run_options o;
  o.timeout = browser_timeout;
  run_result r = run_program(chromium, all, o);
  if (r.timed_out)
    ADD_FAILURE() << chromium << " did not finish within "
                  << browser_timeout.count() << " ms";
  return r;
}

}  // namespace

std::string chromium_path() {
  if (const char* env = std::getenv("SITEMILL_CHROMIUM"); env && *env)
    return env;
  const char* path = std::getenv("PATH");
  std::string_view dirs = path ? path : "/usr/bin:/bin";
  for (const char* name : {"chromium", "chromium-browser"}) {
    for (std::size_t at = 0; at <= dirs.size();) {
      std::size_t end = std::min(dirs.find(':', at), dirs.size());
      std::string candidate(dirs.substr(at, end - at));
      at = end + 1;
      if (candidate.empty()) continue;
      candidate += '/';
      candidate += name;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
  }
  return "";
}

std::string browser_dom(const std::string& url,
                        const std::vector<std::string>& flags) {
  std::vector<std::string> args = flags;
  args.push_back("--dump-dom");
  args.push_back(url);
  run_result r = run_chromium(args);
  if (r.out.empty() && !chromium_path().empty())
    ADD_FAILURE() << "chromium printed no DOM for " << url << ":\n" << r.err;
  return r.out;
}

void browser_screenshot(const std::string& url, const std::string& png_path) {
  std::filesystem::create_directories(
      std::filesystem::path(png_path).parent_path());
  std::filesystem::remove(png_path);
  run_chromium({"--window-size=1200,900", "--hide-scrollbars",
                "--screenshot=" + png_path, url});
  std::error_code ec;
  const auto size = std::filesystem::file_size(png_path, ec);
  EXPECT_TRUE(!ec && size > 0)
      << "no screenshot of " << url << " at " << png_path;
}

std::string screenshot_path(std::string_view name) {
  return std::string(SITEMILL_BUILD_DIR) + "/screenshots/" + std::string(name);
}

void serve_directory(http_server& server, const std::string& dir) {
  for (const std::string& name : list_files(dir))
    server.route("/" + name, text_reply(200, read_raw(dir + "/" + name),
                                        content_type_of(name)));
}

std::size_t table_rows(std::string_view dom, std::string_view table_id) {
  const std::size_t table = dom.find("id=\"" + std::string(table_id) + "\"");
  if (table == std::string_view::npos) return 0;
  const std::size_t body = dom.find("<tbody", table);
  const std::size_t end = dom.find("</tbody>", table);
  if (body == std::string_view::npos || end == std::string_view::npos) return 0;
  std::size_t rows = 0;
  for (std::size_t at = dom.find("<tr", body); at < end;
       at = dom.find("<tr", at + 3))
    ++rows;
  return rows;
}

std::string element_text(std::string_view dom, std::string_view id) {
  const std::size_t at = dom.find("id=\"" + std::string(id) + "\"");
  if (at == std::string_view::npos) return "";
  const std::size_t open = dom.find('>', at);
  const std::size_t close = dom.find('<', open);
  if (open == std::string_view::npos || close == std::string_view::npos)
    return "";
  return std::string(dom.substr(open + 1, close - open - 1));
}

}  // namespace sitemill::testing
