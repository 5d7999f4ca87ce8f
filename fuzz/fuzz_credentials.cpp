// Fuzz target for the credentials readers (net/credentials.h): the Netscape
// cookie file, the netrc, a header line and a cookie list. Beyond "no
// crash", it aborts when an invariant breaks:
//   * nothing read is ever echoed: every problem and error message is
//     printable ASCII (the input's bytes are anything), and names a line
//     within the input;
//   * a cookie read is one that can be sent: a name and value that
//     check_credentials() accepts, a path from '/', a lowercase domain
//     without its dot; the Cookie header made of them holds no line end;
//   * an accepted header line is one header_problem() accepts, without a
//     line end; an accepted cookie list is one check_credentials() accepts.
//
// Input: the text of a cookie file, a netrc, a header or a cookie list.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/net/credentials.h"

namespace {

void require(bool ok) {
  if (!ok) std::abort();
}

bool printable(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return c >= 0x20 && c < 0x7f; });
}

bool has_line_end(std::string_view s) {
  return s.find_first_of(std::string_view("\r\n\0", 3)) != s.npos;
}

void check_problems(const std::vector<sitemill::line_problem>& problems,
                    std::string_view input) {
  const auto lines =
      static_cast<std::uint64_t>(std::count(input.begin(), input.end(), '\n')) +
      1;
  for (const sitemill::line_problem& p : problems) {
    require(p.line >= 1 && p.line <= lines);
    require(printable(p.message));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);

  const sitemill::cookie_jar jar = sitemill::parse_cookie_jar(input, 1);
  check_problems(jar.problems, input);
  sitemill::site_credentials sent;
  for (const sitemill::http_cookie& c : jar.cookies) {
    require(c.path.starts_with('/'));
    require(!c.domain.empty() && !c.domain.starts_with('.'));
    require(std::none_of(c.domain.begin(), c.domain.end(),
                         [](char ch) { return ch >= 'A' && ch <= 'Z'; }));
    sent.cookies.push_back(c);
    sent.cookies.back().domain.clear();  // sent to the origin below
    sent.cookies.back().path = "/";
    sent.cookies.back().secure = false;
  }
  require(static_cast<bool>(sitemill::check_credentials(sent)));
  std::vector<sitemill::http_header> headers;
  sitemill::credential_headers(sent, "https://example.com")
      .add("https://example.com/", headers);
  for (const auto& [name, value] : headers) require(!has_line_end(value));

  const sitemill::netrc_lookup netrc =
      sitemill::find_netrc_login(input, "example.com");
  check_problems(netrc.problems, input);
  if (netrc.login) require(!netrc.login->login.empty());

  if (auto h = sitemill::parse_header_line(input)) {
    require(sitemill::header_problem(h->first, h->second).empty());
    require(!has_line_end(h->second));
  } else {
    require(printable(h.err().message));
  }

  if (auto cookies = sitemill::parse_cookie_list(input)) {
    sitemill::site_credentials given;
    given.cookies = std::move(*cookies);
    require(static_cast<bool>(sitemill::check_credentials(given)));
  } else {
    require(printable(cookies.err().message));
  }
  return 0;
}
