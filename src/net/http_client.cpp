// sitemill: http_client on one reused libcurl easy handle.
//
// Every transfer starts from curl_easy_reset(), which clears the options but
// keeps the connection cache, so a request never inherits another's method
// or body while keep-alive still saves the handshake.
//
// Redirects are followed here, one transfer per hop, not by libcurl's
// CURLOPT_FOLLOWLOCATION: libcurl 7.88 (Debian 12) has no callback that sees
// a redirect's target before it is requested, and the fetch scope must judge
// every hop before anything is sent there. Addresses are judged when a
// socket is opened (CURLOPT_OPENSOCKETFUNCTION: nothing connects to a
// refused one) and again before a request goes out on a reused connection
// (CURLOPT_PREREQFUNCTION), since the connection cache outlives a request.
#include <curl/curl.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "detail/text.h"
#include "sitemill/net/http.h"
#include "sitemill/report/numbers.h"
#include "sitemill/url/url.h"
#include "sitemill/version.h"

namespace sitemill {
namespace {

// curl_global_init() is not thread-safe in every libcurl build; once per
// process is all it needs, and it is never undone (other code in the
// process may still use libcurl at exit).
CURLcode global_init() {
  static const CURLcode code = curl_global_init(CURL_GLOBAL_DEFAULT);
  return code;
}

bool iequals(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

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

/// What the callbacks share with send() during one transfer.
struct transfer {
  const body_receiver* receive = nullptr;
  std::uint64_t max_body_bytes = 0;
  std::uint64_t body_bytes = 0;
  bool over_cap = false;
  bool receiver_stopped = false;
  const std::atomic<bool>* cancel = nullptr;
  bool cancelled = false;
  std::exception_ptr receiver_threw;
  /// The current response's status line and headers as they arrive; a
  /// 1xx's are replaced by the next response's.
  http_response seen;
  bool has_location = false;        // the current response names a Location
  std::uint64_t skipped_bytes = 0;  // bodies of redirects, read and dropped
  const fetch_scope* scope = nullptr;
  std::string refused_address;  // the last address the scope refused
};

// The redirects this client follows (RFC 9110 15.4); a 300 or 304 is an
// answer, as in browsers.
bool is_redirect(long status) noexcept {
  return status == 301 || status == 302 || status == 303 || status == 307 ||
         status == 308;
}

bool following(const transfer& t) noexcept {
  return is_redirect(t.seen.status) && t.has_location;
}

std::size_t on_body(char* data, std::size_t size, std::size_t n, void* user) {
  auto& t = *static_cast<transfer*>(user);
  const std::size_t bytes = size * n;
  if (following(t)) {
    // Not the document; bounded all the same, so an endless redirect body
    // cannot hold the client.
    t.skipped_bytes += bytes;
    if (t.skipped_bytes > t.max_body_bytes) {
      t.over_cap = true;
      return 0;
    }
    return bytes;
  }
  if (bytes > t.max_body_bytes - t.body_bytes) {
    t.over_cap = true;
    return 0;  // anything other than `bytes` aborts with CURLE_WRITE_ERROR
  }
  t.body_bytes += bytes;
  if (t.receive == nullptr || !*t.receive || bytes == 0) return bytes;
  // An exception must not unwind through libcurl's C frames; it is carried
  // across and rethrown once curl_easy_perform() has returned.
  try {
    if (!(*t.receive)(data, bytes)) {
      t.receiver_stopped = true;
      return 0;
    }
  } catch (...) {
    t.receiver_threw = std::current_exception();
    return 0;
  }
  return bytes;
}

// libcurl calls it while a transfer runs, idle ones too; non-zero aborts.
int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto& t = *static_cast<transfer*>(user);
  t.cancelled = t.cancel->load(std::memory_order_relaxed);
  return t.cancelled ? 1 : 0;
}

std::size_t on_header(char* data, std::size_t size, std::size_t n, void* user) {
  auto& t = *static_cast<transfer*>(user);
  const std::size_t bytes = size * n;
  const std::string_view line(data, bytes);
  try {
    // Each response of a redirect chain (and each 1xx) starts with a status
    // line; only the headers of the last one describe what was received.
    if (line.starts_with("HTTP/")) {
      t.seen = http_response{};
      t.has_location = false;
      // "HTTP/1.1 200 OK", "HTTP/2 404"
      std::string_view rest = line.substr(line.find(' ') + 1);
      long status = 0;
      for (char c : rest.substr(0, 3))
        status = c >= '0' && c <= '9' ? status * 10 + (c - '0') : 0;
      t.seen.status = status;
      return bytes;
    }
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) return bytes;
    const std::string_view name = detail::trim(line.substr(0, colon));
    const std::string_view value = detail::trim(line.substr(colon + 1));
    if (iequals(name, "retry-after")) t.seen.retry_after = std::string(value);
    if (iequals(name, "content-type")) t.seen.content_type = std::string(value);
    if (iequals(name, "location") && !value.empty()) t.has_location = true;
  } catch (...) {
    return 0;  // std::bad_alloc: abort the transfer rather than unwind
  }
  return bytes;
}

// A refused address is remembered for the message; false refuses it.
bool may_connect(transfer& t, const ip_address& address) {
  if (t.scope == nullptr || t.scope->may_connect(address)) return true;
  t.refused_address = to_string(address);
  return false;
}

curl_socket_t on_open_socket(void* user, curlsocktype purpose,
                             curl_sockaddr* address) {
  auto& t = *static_cast<transfer*>(user);
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
    if (!ip || !may_connect(t, *ip)) return CURL_SOCKET_BAD;
  }
  return ::socket(address->family, address->socktype, address->protocol);
}

// Called before each request, also on a connection kept from an earlier
// one, which no socket callback saw under this request's scope.
int on_prerequest(void* user, char* primary_ip, char*, int, int) {
  auto& t = *static_cast<transfer*>(user);
  const std::optional<ip_address> ip = parse_ip_address(primary_ip);
  return ip && may_connect(t, *ip) ? CURL_PREREQFUNC_OK : CURL_PREREQFUNC_ABORT;
}

}  // namespace

std::string default_user_agent() {
  return "sitemill/" SITEMILL_VERSION_STRING
         " (+https://github.com/sitemill/sitemill)";
}

struct http_client::impl {
  CURL* handle = nullptr;
  CURLcode init_code = CURLE_OK;
  std::array<char, CURL_ERROR_SIZE> error_buffer{};
  std::string user_agent;
  std::string no_proxy;
  curl_slist* pins = nullptr;  // http_options::resolve
  http_response last;

  ~impl() {
    if (handle != nullptr) curl_easy_cleanup(handle);
    curl_slist_free_all(pins);
  }
};

http_client::http_client(http_options options)
    : options_(std::move(options)), impl_(std::make_unique<impl>()) {
  impl_->init_code = global_init();
  if (impl_->init_code == CURLE_OK) impl_->handle = curl_easy_init();
  impl_->user_agent =
      options_.user_agent.empty() ? default_user_agent() : options_.user_agent;
  impl_->no_proxy = no_proxy_list();
  for (const std::string& pin : options_.resolve) {
    curl_slist* next = curl_slist_append(impl_->pins, pin.c_str());
    if (next != nullptr) impl_->pins = next;
  }
}

http_client::~http_client() = default;

result<http_response> http_client::send(const http_request& request,
                                        const body_receiver& receive) {
  if (!options_.trace) return send_once(request, receive);
  const auto start = std::chrono::steady_clock::now();
  auto answer = send_once(request, receive);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  char took[32];
  std::snprintf(took, sizeof took, " in %.2f s", seconds);
  std::string line = request.method + " " + request.url + ": ";
  if (answer) {
    line += std::to_string(answer->status);
    if (answer->redirects > 0)
      line += " from " + answer->effective_url + " after " +
              std::to_string(answer->redirects) + " redirect" +
              (answer->redirects == 1 ? "" : "s");
    line += ", " + with_commas(answer->body_bytes) + " bytes";
  } else {
    line += "failed: " + answer.err().message;
  }
  options_.trace(line + took);
  return answer;
}

result<http_response> http_client::send_once(const http_request& request,
                                             const body_receiver& receive) {
  auto fail = [&request](std::string_view why) {
    std::string msg = request.url;
    msg.append(": ");
    msg.append(why);
    return error{std::move(msg)};
  };
  impl_->last = http_response{};
  if (impl_->handle == nullptr) {
    return fail(impl_->init_code != CURLE_OK
                    ? curl_easy_strerror(impl_->init_code)
                    : "cannot create a libcurl handle");
  }
  CURL* const h = impl_->handle;

  // A negative limit would mean "unlimited" to libcurl; this client always
  // has a bound.
  const int max_redirects = std::max(options_.max_redirects, 0);

  curl_slist* headers = nullptr;
  auto add_header = [&headers](const std::string& line) {
    curl_slist* next = curl_slist_append(headers, line.c_str());
    if (next == nullptr) return false;
    headers = next;
    return true;
  };
  bool headers_ok = true;
  bool has_expect = false;
  for (const auto& [name, value] : request.headers) {
    has_expect = has_expect || iequals(name, "expect");
    // libcurl sends "Name;" as a header with an empty value ("Name:" would
    // remove the header instead).
    headers_ok = headers_ok &&
                 add_header(value.empty() ? name + ";" : name + ": " + value);
  }
  // A body over 1 MiB (an IndexNow batch) would make libcurl wait for a
  // "100 Continue" that many servers never send.
  if (!has_expect) headers_ok = headers_ok && add_header("Expect:");
  if (!headers_ok) {
    curl_slist_free_all(headers);
    return fail("out of memory building the request headers");
  }
  const std::unique_ptr<curl_slist, void (*)(curl_slist*)> header_list(
      headers, &curl_slist_free_all);

  // The total timeout covers every hop of a redirect chain, as it did when
  // libcurl followed them.
  const auto deadline =
      std::chrono::steady_clock::now() + options_.total_timeout;
  std::string url = request.url;
  std::string method = request.method;
  bool with_body = true;     // false once a redirect has turned it into a GET
  normalized_url requested;  // for the scope's same_host, parsed once
  int redirects = 0;
  for (;;) {
    curl_easy_reset(h);
    impl_->error_buffer[0] = '\0';
    transfer t;
    t.receive = &receive;
    t.max_body_bytes = options_.max_body_bytes;
    t.scope = request.scope;

    const long left = static_cast<long>(std::max<std::int64_t>(
        1, std::chrono::duration_cast<std::chrono::milliseconds>(
               deadline - std::chrono::steady_clock::now())
               .count()));
    curl_easy_setopt(h, CURLOPT_URL, url.c_str());
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(
        h, CURLOPT_CONNECTTIMEOUT_MS,
        std::min(static_cast<long>(options_.connect_timeout.count()), left));
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, left);
    // Signals are process-wide; with NOSIGNAL a threaded resolver (or none)
    // bounds DNS instead of SIGALRM.
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    // "" offers every encoding this libcurl can undo; bodies arrive decoded.
    curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(h, CURLOPT_USERAGENT, impl_->user_agent.c_str());
    curl_easy_setopt(h, CURLOPT_NOPROXY, impl_->no_proxy.c_str());
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, impl_->error_buffer.data());
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, &on_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, &t);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, header_list.get());
    if (impl_->pins != nullptr)
      curl_easy_setopt(h, CURLOPT_RESOLVE, impl_->pins);
    if (request.scope != nullptr) {
      curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, &on_open_socket);
      curl_easy_setopt(h, CURLOPT_OPENSOCKETDATA, &t);
      curl_easy_setopt(h, CURLOPT_PREREQFUNCTION, &on_prerequest);
      curl_easy_setopt(h, CURLOPT_PREREQDATA, &t);
    }
    if (options_.cancel != nullptr) {
      if (options_.cancel->load(std::memory_order_relaxed))
        return fail("cancelled");
      t.cancel = options_.cancel;
      curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, &on_progress);
      curl_easy_setopt(h, CURLOPT_XFERINFODATA, &t);
      curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
    }

    if (method == "GET") {
      curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
    } else if (method == "HEAD") {
      curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
    } else {
      if (method != "POST") {
        curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method.c_str());
      }
      if (with_body && (method == "POST" || !request.body.empty())) {
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE,
                         static_cast<curl_off_t>(request.body.size()));
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, request.body.data());
      }
    }

    const CURLcode code = curl_easy_perform(h);
    if (t.receiver_threw) std::rethrow_exception(t.receiver_threw);

    impl_->last = std::move(t.seen);
    impl_->last.body_bytes = t.body_bytes;
    impl_->last.redirects = redirects;
    impl_->last.effective_url = url;

    if (code != CURLE_OK) {
      if (t.over_cap) {
        return fail("response larger than " +
                    std::to_string(options_.max_body_bytes) + " bytes");
      }
      if (t.receiver_stopped) return fail("the receiver stopped the transfer");
      if (t.cancelled) return fail("cancelled");
      if (!t.refused_address.empty()) {
        impl_->last.out_of_scope = t.refused_address;
        const std::optional<ip_address> ip =
            parse_ip_address(t.refused_address);
        std::string why;
        if (redirects > 0) why = "redirected to " + url + ", ";
        why += "not connected to " + t.refused_address + ", a " +
               std::string(ip ? private_address_kind(*ip) : "private") +
               " address outside the fetch scope (only a target's own "
               "private address is fetched; `allow_private` allows any)";
        return fail(why);
      }
      const char* detail = impl_->error_buffer[0] != '\0'
                               ? impl_->error_buffer.data()
                               : curl_easy_strerror(code);
      if (code == CURLE_UNSUPPORTED_PROTOCOL) {
        return fail(std::string("not an http or https URL (") + detail + ")");
      }
      return fail(detail);
    }

    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    char* location = nullptr;
    curl_easy_getinfo(h, CURLINFO_REDIRECT_URL, &location);
    if (is_redirect(status) && t.has_location && location != nullptr) {
      // libcurl resolved the Location against `url`: the target as it
      // would request it.
      std::string target = location;
      if (redirects >= max_redirects) {
        return fail("more than " + std::to_string(max_redirects) +
                    " redirects");
      }
      if (!has_http_scheme(target)) {
        return fail("redirected to " + target + ", which is not http or https");
      }
      if (request.scope != nullptr && request.scope->same_host) {
        if (requested.empty()) (void)normalize_url(request.url, requested);
        normalized_url to;
        if (normalize_url(target, to) != url_problem::ok ||
            !same_host(to, requested)) {
          impl_->last.out_of_scope = target;
          return fail("redirected to " + target +
                      ", outside the fetch scope (only " +
                      std::string(requested.authority()) +
                      " is fetched for it); not followed");
        }
      }
      ++redirects;
      // RFC 9110 15.4.4: a 303 is fetched with GET; 15.4.2/15.4.3: so are a
      // 301 and 302 after a POST, as browsers do. 307 and 308 repeat it.
      if ((status == 303 && method != "HEAD") ||
          ((status == 301 || status == 302) && method == "POST")) {
        method = "GET";
        with_body = false;
      }
      url = std::move(target);
      continue;
    }

    http_response response;
    response.status = status;
    response.effective_url = url;
    char* content_type = nullptr;
    curl_easy_getinfo(h, CURLINFO_CONTENT_TYPE, &content_type);
    if (content_type != nullptr) response.content_type = content_type;
    response.retry_after = impl_->last.retry_after;
    response.body_bytes = t.body_bytes;
    response.redirects = redirects;
    impl_->last = response;
    return response;
  }
}

const http_response& http_client::last_response() const noexcept {
  return impl_->last;
}

result<std::pair<http_response, std::string>> http_client::get(
    const std::string& url) {
  std::string body;
  http_request request;
  request.url = url;
  auto response = send(request, [&body](const char* data, std::size_t size) {
    body.append(data, size);
    return true;
  });
  if (!response) return std::move(response).err();
  return std::pair{std::move(response).value(), std::move(body)};
}

}  // namespace sitemill
