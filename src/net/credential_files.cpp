// The files credentials come in (credentials.h): a Netscape cookie jar and
// a netrc. Both report a line and what is wrong with it, never the line's
// words, which may be secrets.
#include <algorithm>
#include <charconv>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "detail/text.h"
#include "net/cookie_text.h"
#include "sitemill/net/credentials.h"

namespace sitemill {
namespace {

using detail::iequals;
using detail::is_control;
using detail::trim;

// Calls `each(number, line)` for every line of `text`, without its line
// end (LF or CRLF).
template <class Each>
void for_each_line(std::string_view text, Each&& each) {
  std::uint64_t number = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    if (line.ends_with('\r')) line.remove_suffix(1);
    each(++number, line);
  }
}

// TRUE or FALSE, in any case.
std::optional<bool> read_flag(std::string_view field) {
  if (iequals(field, "TRUE")) return true;
  if (iequals(field, "FALSE")) return false;
  return std::nullopt;
}

// Unix seconds, a fraction dropped (some exporters write one); a value
// past int64 is "never".
std::optional<std::int64_t> read_expiry(std::string_view field) {
  const std::size_t dot = field.find('.');
  const std::string_view whole = field.substr(0, dot);
  if (dot != std::string_view::npos) {
    const std::string_view fraction = field.substr(dot + 1);
    if (!std::all_of(fraction.begin(), fraction.end(), detail::is_ascii_digit))
      return std::nullopt;
  }
  if (whole.empty() ||
      !std::all_of(whole.begin(), whole.end(), detail::is_ascii_digit))
    return std::nullopt;
  std::int64_t seconds = 0;
  const auto [end, ec] =
      std::from_chars(whole.data(), whole.data() + whole.size(), seconds);
  if (ec == std::errc::result_out_of_range)
    return std::numeric_limits<std::int64_t>::max();
  return seconds;
}

// Why one cookie line is no cookie; "" when `c` holds it.
std::string read_cookie_line(std::string_view line, http_cookie& c) {
  std::vector<std::string_view> fields;
  for (;;) {
    const std::size_t tab = line.find('\t');
    fields.push_back(line.substr(0, tab));
    if (tab == std::string_view::npos) break;
    line.remove_prefix(tab + 1);
  }
  if (fields.size() != 7 && fields.size() != 6)
    return std::to_string(fields.size()) +
           (fields.size() == 1 ? " field" : " fields") +
           " where a cookie has 7, separated by tabs (domain, "
           "include-subdomains, path, secure, expiry, name, value)";
  std::string_view domain = trim(fields[0]);
  const bool dotted = domain.starts_with('.');
  if (dotted) domain.remove_prefix(1);
  if (domain.empty()) return "no domain (field 1)";
  if (std::any_of(domain.begin(), domain.end(), [](char ch) {
        return is_control(ch) || ch == ' ' || ch == '/';
      }))
    return "a domain (field 1) that is no host name";
  c.domain.clear();
  for (char ch : domain) c.domain.push_back(detail::ascii_lower(ch));
  const auto subdomains = read_flag(trim(fields[1]));
  if (!subdomains)
    return "the include-subdomains flag (field 2) is neither TRUE nor FALSE";
  c.include_subdomains = *subdomains || dotted;
  c.path = std::string(trim(fields[2]));
  if (!c.path.starts_with('/'))
    return "a path (field 3) that does not start with '/'";
  const auto secure = read_flag(trim(fields[3]));
  if (!secure) return "the secure flag (field 4) is neither TRUE nor FALSE";
  c.secure = *secure;
  const auto expires = read_expiry(trim(fields[4]));
  if (!expires) return "an expiry (field 5) that is not Unix seconds";
  c.expires = *expires;
  c.name = std::string(fields[5]);
  c.value = fields.size() == 7 ? std::string(fields[6]) : std::string();
  if (c.name.empty()) return "a cookie with no name (field 6)";
  if (!detail::is_cookie_name(c.name))
    return "a name (field 6) with a space, '=', ';' or a control character";
  if (!detail::is_cookie_value(c.value))
    return "a value (field 7) with ';' or a control character";
  return {};
}

// One word of a netrc line, and where the line goes on after it; false at
// the line's end. A quoted word takes curl's escapes.
bool next_word(std::string_view& line, std::string& word, bool& unclosed) {
  while (!line.empty() && detail::is_ascii_space(line.front()))
    line.remove_prefix(1);
  if (line.empty()) return false;
  word.clear();
  unclosed = false;
  if (line.front() != '"') {
    std::size_t n = 0;
    while (n < line.size() && !detail::is_ascii_space(line[n])) ++n;
    word.assign(line.substr(0, n));
    line.remove_prefix(n);
    return true;
  }
  line.remove_prefix(1);
  while (!line.empty() && line.front() != '"') {
    char c = line.front();
    line.remove_prefix(1);
    if (c == '\\' && !line.empty()) {
      c = line.front();
      line.remove_prefix(1);
      c = c == 'n' ? '\n' : c == 'r' ? '\r' : c == 't' ? '\t' : c;
    }
    word.push_back(c);
  }
  if (line.empty()) {
    unclosed = true;
  } else {
    line.remove_prefix(1);  // the closing quote
  }
  return true;
}

struct netrc_entry {
  bool is_default = false;
  std::string machine;
  std::uint64_t line = 0;
  bool has_login = false, has_password = false;
  std::string login, password;
};

}  // namespace

cookie_jar parse_cookie_jar(std::string_view text, std::int64_t now) {
  cookie_jar jar;
  for_each_line(text, [&](std::uint64_t number, std::string_view line) {
    constexpr std::string_view http_only = "#HttpOnly_";
    if (line.starts_with(http_only)) {
      line.remove_prefix(http_only.size());
    } else if (trim(line).empty() || line.starts_with('#')) {
      return;
    }
    http_cookie c;
    if (std::string why = read_cookie_line(line, c); !why.empty()) {
      jar.problems.push_back({number, std::move(why)});
    } else if (c.expires != 0 && c.expires <= now) {
      jar.expired_lines.push_back(number);
    } else {
      jar.cookies.push_back(std::move(c));
    }
  });
  return jar;
}

netrc_lookup find_netrc_login(std::string_view text, std::string_view host) {
  netrc_lookup out;
  std::vector<netrc_entry> entries;
  // The keyword whose word comes next ("" when a keyword does), and where.
  std::string pending;
  std::uint64_t pending_line = 0;
  bool in_macro = false;
  auto problem = [&](std::uint64_t line, std::string why) {
    out.problems.push_back({line, std::move(why)});
  };
  for_each_line(text, [&](std::uint64_t number, std::string_view line) {
    if (in_macro) {
      in_macro = !trim(line).empty();  // a macro ends at a blank line
      return;
    }
    std::string word;
    bool first = true, unclosed = false;
    while (next_word(line, word, unclosed)) {
      if (first && pending.empty() && word.starts_with('#')) return;
      first = false;
      if (unclosed) problem(number, "a quoted word with no closing quote");
      if (!pending.empty()) {
        netrc_entry* e = entries.empty() ? nullptr : &entries.back();
        if (pending == "machine") {
          e->machine = word;
        } else if (pending == "login" && e != nullptr) {
          e->login = word;
          e->has_login = true;
        } else if (pending == "password" && e != nullptr) {
          e->password = word;
          e->has_password = true;
        } else if (pending == "macdef") {
          in_macro = true;
          pending.clear();
          return;  // the macro's lines follow this one
        }
        pending.clear();
        continue;
      }
      if (word == "machine" || word == "default") {
        netrc_entry e;
        e.is_default = word == "default";
        e.line = number;
        entries.push_back(std::move(e));
        if (word == "machine") pending = word;
      } else if (word == "login" || word == "password" || word == "account") {
        if (entries.empty())
          problem(number, "`" + word + "` before any machine or default");
        pending = word;
      } else if (word == "macdef") {
        pending = word;
      } else {
        problem(number,
                "a word that is no netrc keyword (machine, default, login, "
                "password, account, macdef): a value with a space needs "
                "quotes");
      }
      pending_line = number;
    }
  });
  if (!pending.empty())
    problem(pending_line, "`" + pending + "` with nothing after it");

  const netrc_entry* found = nullptr;
  for (const netrc_entry& e : entries) {
    if (!e.is_default && iequals(e.machine, host)) {
      found = &e;
      break;
    }
  }
  if (found == nullptr) {
    for (const netrc_entry& e : entries) {
      if (e.is_default) {
        found = &e;
        break;
      }
    }
  }
  if (found == nullptr) return out;
  if (!found->has_login || found->login.empty()) {
    problem(found->line,
            "the entry for " + std::string(host) + " has no login");
  } else if (!found->has_password) {
    problem(found->line, "the entry for " + std::string(host) +
                             " has a login but no password");
  } else {
    out.login = netrc_login{found->login, found->password, found->line,
                            found->is_default};
  }
  return out;
}

}  // namespace sitemill
