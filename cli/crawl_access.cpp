#include "crawl_access.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>

#include "sitemill/small_file.h"
#include "sitemill/url/url.h"
#include "vocabulary.h"

namespace sitemill::cli {
namespace {

// The environment variable --user USER reads its password from, so that it
// shows neither in the process list nor in the shell's history.
constexpr const char* password_variable = "SITEMILL_PASSWORD";

// A cookie jar or a netrc: browsers' exports of every cookie they hold run
// to a few MiB; past this it is not such a file, and reading it all would
// only grow memory (and its problems with it).
constexpr std::uint64_t max_credential_file_bytes = 16 << 20;

std::optional<std::string> read_whole(const std::string& path,
                                      std::string& why) {
  auto text = read_small_file(path, max_credential_file_bytes);
  if (!text) {
    why = "cannot read " + path + ": " + text.err().message;
    return std::nullopt;
  }
  return std::move(*text);
}

// "FILE:3: why" for each problem, the first ten of them.
std::string file_problems(const std::string& path,
                          const std::vector<line_problem>& problems) {
  constexpr std::size_t shown = 10;
  std::string out;
  for (std::size_t i = 0; i < problems.size() && i < shown; ++i) {
    if (i > 0) out += "\n";
    out += path + ":" + std::to_string(problems[i].line) + ": " +
           problems[i].message;
  }
  if (problems.size() > shown)
    out += "\n(and " + std::to_string(problems.size() - shown) + " more)";
  return out;
}

std::string line_list(const std::vector<std::uint64_t>& lines) {
  std::string out;
  for (std::size_t i = 0; i < lines.size() && i < 10; ++i)
    out += (i == 0 ? "" : ", ") + std::to_string(lines[i]);
  return out + (lines.size() > 10 ? ", ..." : "");
}

// What every crawl shares: the headers and the cookies.
status read_shared(const crawl_access_flags& f, bool quiet,
                   site_credentials& out) {
  const vocabulary words = generate_words({});
  for (std::size_t i = 0; i < f.headers.size(); ++i) {
    auto h = parse_header_line(f.headers[i]);
    if (!h)
      return error{"--header #" + std::to_string(i + 1) + ": " +
                   in_cli_words(h.err().message, words)};
    out.headers.push_back(std::move(*h));
  }
  for (std::size_t i = 0; i < f.cookies.size(); ++i) {
    auto c = parse_cookie_list(f.cookies[i]);
    if (!c) {
      std::string why = "--cookie #" + std::to_string(i + 1) + ": " +
                        in_cli_words(c.err().message, words);
      std::error_code ec;
      if (f.cookies[i].find('=') == std::string::npos &&
          std::filesystem::is_regular_file(f.cookies[i], ec))
        why += "; a cookie file is --cookie-file FILE";
      return error{std::move(why)};
    }
    for (http_cookie& k : *c) out.cookies.push_back(std::move(k));
  }
  const std::int64_t now =
      std::chrono::duration_cast<std::chrono::seconds>(
          std::chrono::system_clock::now().time_since_epoch())
          .count();
  for (const std::string& path : f.cookie_files) {
    std::string why;
    const auto text = read_whole(path, why);
    if (!text) return error{"--cookie-file: " + why};
    cookie_jar jar = parse_cookie_jar(*text, now);
    if (!jar.problems.empty())
      return error{"--cookie-file: lines that are no cookie:\n" +
                   file_problems(path, jar.problems)};
    if (!quiet && !jar.expired_lines.empty())
      std::fprintf(stderr,
                   "sitemill generate: warning: %s: %zu expired cookie%s not "
                   "sent (line%s %s)%s\n",
                   path.c_str(), jar.expired_lines.size(),
                   jar.expired_lines.size() == 1 ? "" : "s",
                   jar.expired_lines.size() == 1 ? "" : "s",
                   line_list(jar.expired_lines).c_str(),
                   jar.cookies.empty() ? "; the file has no other" : "");
    for (http_cookie& k : jar.cookies) out.cookies.push_back(std::move(k));
  }
  return {};
}

// --user USER:PASSWORD, or USER with the password in the environment.
status read_user(const std::string& given, site_credentials& out) {
  const std::size_t colon = given.find(':');
  out.user = given.substr(0, colon);
  if (out.user.empty()) return error{"--user: no user name before the ':'"};
  if (colon != std::string::npos) {
    out.password = given.substr(colon + 1);
    return {};
  }
  const char* password = std::getenv(password_variable);
  if (password == nullptr)
    return error{std::string("--user ") + out.user +
                 ": no password; set it in the environment as " +
                 password_variable +
                 " (or give USER:PASSWORD, which the "
                 "process list shows)"};
  out.password = password;
  return {};
}

}  // namespace

void add_crawl_access_flags(CLI::App& cmd, crawl_access_flags& flags,
                            const char* group) {
  cmd.add_option("--header", flags.headers,
                 "Send this header with every request to the crawled site "
                 "(repeatable, as curl's -H): 'Authorization: Bearer TOKEN', "
                 "'X-Staging-Key: ...'. Only to the start URL's origin, "
                 "never after a redirect elsewhere; never printed. Not Host, "
                 "Content-Length, Connection and the like, which the crawler "
                 "sets (docs/crawl.md, Sites behind a login)")
      ->type_name("'NAME: VALUE'")
      ->group(group);
  cmd.add_option("--cookie", flags.cookies,
                 "Send these cookies to the crawled site (repeatable): a "
                 "consent or session cookie, 'consent=yes; session=abc' "
                 "(copied from a browser's developer tools)")
      ->type_name("'NAME=VALUE; ...'")
      ->group(group);
  cmd.add_option("--cookie-file", flags.cookie_files,
                 "Send the cookies of this Netscape cookie file (as curl -c "
                 "and browser extensions export cookies.txt) where their "
                 "domain, path and secure flag match the crawled site; "
                 "expired ones are dropped with a warning (repeatable)")
      ->type_name("FILE")
      ->group(group);
  cmd.add_option("--user", flags.user,
                 "HTTP basic auth for the crawled site: USER:PASSWORD, or "
                 "USER with the password in the environment variable "
                 "SITEMILL_PASSWORD (a password on the command line shows "
                 "in the process list)")
      ->type_name("USER[:PASSWORD]")
      ->group(group);
  cmd.add_flag("--netrc", flags.netrc,
               "HTTP basic auth from ~/.netrc: the login of the entry "
               "(machine, else default) for the start URL's host")
      ->group(group);
  cmd.add_option("--netrc-file", flags.netrc_file, "As --netrc, from FILE")
      ->type_name("FILE")
      ->group(group);
}

result<std::vector<site_credentials>> crawl_credentials(
    const crawl_access_flags& f, const std::vector<std::string>& start_urls,
    bool quiet) {
  std::vector<site_credentials> out;
  if (!f.given()) {
    out.resize(start_urls.size());
    return out;
  }
  if (start_urls.empty())
    return error{
        "--header, --cookie, --cookie-file, --user, --netrc and "
        "--netrc-file are sent to the site --from-crawl crawls; "
        "give a start URL"};
  const bool netrc = f.netrc || !f.netrc_file.empty();
  if (netrc && !f.user.empty())
    return error{"--user and --netrc both give a login: give one"};

  site_credentials shared;
  if (status s = read_shared(f, quiet, shared); !s) return s.err();
  if (!f.user.empty()) {
    if (status s = read_user(f.user, shared); !s) return s.err();
  }
  std::string netrc_path = f.netrc_file, netrc_text;
  if (netrc) {
    if (netrc_path.empty()) {
      const char* home = std::getenv("HOME");
      if (home == nullptr || *home == '\0')
        return error{
            "--netrc: HOME is not set; name the file with "
            "--netrc-file"};
      netrc_path = std::string(home) + "/.netrc";
    }
    std::string why;
    auto text = read_whole(netrc_path, why);
    if (!text)
      return error{(f.netrc_file.empty() ? "--netrc: " : "--netrc-file: ") +
                   why};
    netrc_text = std::move(*text);
  }

  for (const std::string& start : start_urls) {
    site_credentials c = shared;
    normalized_url url;
    if (netrc && normalize_url(start, url) == url_problem::ok) {
      netrc_lookup found = find_netrc_login(netrc_text, url.host());
      if (!found.problems.empty())
        return error{"--netrc: lines that are no netrc entry:\n" +
                     file_problems(netrc_path, found.problems)};
      if (found.login) {
        c.user = std::move(found.login->login);
        c.password = std::move(found.login->password);
      } else if (!quiet) {
        std::fprintf(stderr,
                     "sitemill generate: warning: %s has no entry for %s "
                     "(and no default): the crawl of %s sends no login\n",
                     netrc_path.c_str(), std::string(url.host()).c_str(),
                     start.c_str());
      }
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace sitemill::cli
