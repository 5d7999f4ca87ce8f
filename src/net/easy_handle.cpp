// sitemill: the libcurl setup and reading that http_client and the fetcher
// share (easy_handle.h).
#include "net/easy_handle.h"

#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "detail/text.h"
#include "sitemill/numbers.h"

namespace sitemill::detail {
namespace {

// libcurl reads proxies from the environment, as users expect, but a proxy
// would resolve "127.0.0.1" as its own loopback, so loopback never goes
// through one (this also keeps tests on the machine they run on).
std::string no_proxy_list() {
  std::string list = "localhost,127.0.0.1,::1";
  for (const char* name : {"no_proxy", "NO_PROXY"}) {
    if (const char* v = std::getenv(name); v != nullptr && *v != '\0') {
      // libcurl honours "*" (no proxy at all) only as the whole list.
      if (std::string_view(v) == "*") return "*";
      list.push_back(',');
      list.append(v);
      break;
    }
  }
  return list;
}

// A refused address is remembered for the message; false refuses it.
bool may_connect(address_guard& g, const ip_address& address) {
  if (g.scope == nullptr || g.scope->may_connect(address)) return true;
  g.refused = to_string(address);
  return false;
}

curl_socket_t on_open_socket(void* user, curlsocktype purpose,
                             curl_sockaddr* address) {
  auto& g = *static_cast<address_guard*>(user);
  if (purpose == CURLSOCKTYPE_IPCXN) {
    sockaddr_storage sa{};
    std::memcpy(&sa, &address->addr,
                std::min<std::size_t>(address->addrlen, sizeof sa));
    std::optional<ip_address> ip;
    if (sa.ss_family == AF_INET) {
      ip_address a{};
      a[10] = a[11] = 0xff;  // the IPv4-mapped form
      std::memcpy(a.data() + 12,
                  &reinterpret_cast<const sockaddr_in&>(sa).sin_addr, 4);
      ip = a;
    } else if (sa.ss_family == AF_INET6) {
      ip_address a{};
      std::memcpy(a.data(),
                  &reinterpret_cast<const sockaddr_in6&>(sa).sin6_addr, 16);
      ip = a;
    }
    // Neither IPv4 nor IPv6 (a Unix socket is never asked for): refused.
    if (!ip || !may_connect(g, *ip)) return CURL_SOCKET_BAD;
  }
  return ::socket(address->family, address->socktype, address->protocol);
}

// Called before each request, also on a connection kept from an earlier
// one, which no socket callback saw under this request's scope.
int on_prerequest(void* user, char* primary_ip, char*, int, int) {
  auto& g = *static_cast<address_guard*>(user);
  const std::optional<ip_address> ip = parse_ip_address(primary_ip);
  return ip && may_connect(g, *ip) ? CURL_PREREQFUNC_OK : CURL_PREREQFUNC_ABORT;
}

long as_long(std::chrono::milliseconds d) {
  return static_cast<long>(
      std::max<std::chrono::milliseconds::rep>(d.count(), 1));
}

}  // namespace

CURLcode curl_init_once() {
  static const CURLcode code = curl_global_init(CURL_GLOBAL_DEFAULT);
  return code;
}

easy_defaults::easy_defaults(const http_options& options)
    : user_agent_(options.user_agent.empty() ? default_user_agent()
                                             : options.user_agent),
      no_proxy_(no_proxy_list()) {
  for (const std::string& pin : options.resolve) {
    curl_slist* next = curl_slist_append(pins_, pin.c_str());
    if (next != nullptr) pins_ = next;
  }
}

easy_defaults::~easy_defaults() { curl_slist_free_all(pins_); }

void easy_defaults::apply(CURL* h, std::chrono::milliseconds connect_timeout,
                          std::chrono::milliseconds total_timeout,
                          char* error_buffer) const {
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS,
                   std::min(as_long(connect_timeout), as_long(total_timeout)));
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, as_long(total_timeout));
  // Signals are process-wide; with NOSIGNAL a threaded resolver (or none)
  // bounds DNS instead of SIGALRM.
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  // "" offers every encoding this libcurl can undo; bodies arrive decoded.
  curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(h, CURLOPT_USERAGENT, user_agent_.c_str());
  curl_easy_setopt(h, CURLOPT_NOPROXY, no_proxy_.c_str());
  error_buffer[0] = '\0';
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_buffer);
  if (pins_ != nullptr) curl_easy_setopt(h, CURLOPT_RESOLVE, pins_);
}

header_list make_header_list(
    const std::vector<std::pair<std::string, std::string>>& headers) {
  header_list list(nullptr, &curl_slist_free_all);
  auto add = [&list](const std::string& line) {
    curl_slist* next = curl_slist_append(list.get(), line.c_str());
    if (next == nullptr) return false;
    (void)list.release();
    list.reset(next);
    return true;
  };
  bool has_expect = false;
  for (const auto& [name, value] : headers) {
    has_expect = has_expect || iequals(name, "expect");
    // libcurl sends "Name;" as a header with an empty value ("Name:" would
    // remove the header instead).
    if (!add(value.empty() ? name + ";" : name + ": " + value))
      return header_list(nullptr, &curl_slist_free_all);
  }
  if (!has_expect && !add("Expect:"))
    return header_list(nullptr, &curl_slist_free_all);
  return list;
}

header_list make_header_list(
    const std::vector<std::pair<std::string, std::string>>& headers,
    const http_options& options, std::string_view url) {
  if (!options.headers_for) return make_header_list(headers);
  std::vector<std::pair<std::string, std::string>> all = headers;
  options.headers_for(url, all);
  return make_header_list(all);
}

void guard_addresses(CURL* h, address_guard* guard) {
  if (guard->scope == nullptr) return;
  curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, &on_open_socket);
  curl_easy_setopt(h, CURLOPT_OPENSOCKETDATA, guard);
  curl_easy_setopt(h, CURLOPT_PREREQFUNCTION, &on_prerequest);
  curl_easy_setopt(h, CURLOPT_PREREQDATA, guard);
}

std::string refused_address_text(const std::string& address) {
  const std::optional<ip_address> ip = parse_ip_address(address);
  return "not connected to " + address + ", a " +
         std::string(ip ? private_address_kind(*ip) : "private") +
         " address outside the fetch scope (only a target's own private "
         "address is fetched; `allow_private` allows any)";
}

std::string too_large_text(std::uint64_t max_body_bytes) {
  return "response larger than " + std::to_string(max_body_bytes) + " bytes";
}

std::string transport_error_text(CURLcode code, const char* error_buffer) {
  const char* detail = error_buffer != nullptr && error_buffer[0] != '\0'
                           ? error_buffer
                           : curl_easy_strerror(code);
  if (code == CURLE_UNSUPPORTED_PROTOCOL)
    return std::string("not an http or https URL (") + detail + ")";
  // libcurl words a timeout differently by phase and version ("Timeout was
  // reached", "Connection timeout after 300 ms", "Operation timed out
  // after ..."); one leading phrase lets a reader (and a script) tell a
  // timeout from a refusal whatever libcurl said.
  if (code == CURLE_OPERATION_TIMEDOUT)
    return std::string("timed out (") + detail + ")";
  return detail;
}

bool head_reader::take(std::string_view line) {
  // "HTTP/1.1 200 OK", "HTTP/2 404": each response of a redirect chain
  // (and each 1xx) starts with one; only the last one's headers describe
  // what is received.
  if (line.starts_with("HTTP/")) {
    head_ = http_head{};
    const std::size_t space = line.find(' ');
    const std::string_view rest = space == std::string_view::npos
                                      ? std::string_view{}
                                      : line.substr(space + 1);
    long status = 0;
    for (char c : rest.substr(0, 3))
      status = c >= '0' && c <= '9' ? status * 10 + (c - '0') : 0;
    head_.status = status;
    complete_ = false;
    return false;
  }
  // Trailers after a chunked body come through here too; they are not the
  // head.
  if (complete_) return false;
  if (trim(line).empty()) return complete_ = head_.status >= 200;
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return false;
  const std::string_view name = trim(line.substr(0, colon));
  const std::string_view value = trim(line.substr(colon + 1));
  if (iequals(name, "content-type")) {
    head_.content_type = value;
  } else if (iequals(name, "content-length")) {
    std::uint64_t n = 0;
    const auto [end, ec] =
        std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec == std::errc() && end == value.data() + value.size())
      head_.content_length = n;
  } else if (iequals(name, "location")) {
    head_.location = value;
  } else if (iequals(name, "last-modified")) {
    head_.last_modified = value;
  } else if (iequals(name, "etag")) {
    head_.etag = value;
  } else if (iequals(name, "x-robots-tag")) {
    head_.x_robots_tag.emplace_back(value);
  } else if (iequals(name, "retry-after")) {
    head_.retry_after = std::string(value);
  }
  return false;
}

std::string trace_line(std::string_view method, std::string_view url,
                       const http_response* answer, std::string_view error,
                       std::chrono::steady_clock::duration took) {
  std::string line;
  line.append(method).append(" ").append(url).append(": ");
  if (answer != nullptr) {
    line += std::to_string(answer->status);
    if (answer->redirects > 0)
      line += " from " + answer->effective_url + " after " +
              std::to_string(answer->redirects) + " redirect" +
              (answer->redirects == 1 ? "" : "s");
    line += answer->body_skipped
                ? std::string(", body not read")
                : ", " + with_commas(answer->body_bytes) + " bytes";
  } else {
    line.append("failed: ").append(error);
  }
  char in[32];
  std::snprintf(in, sizeof in, " in %.2f s",
                std::chrono::duration<double>(took).count());
  return line + in;
}

}  // namespace sitemill::detail
