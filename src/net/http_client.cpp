// sitemill: http_client on one reused libcurl easy handle.
//
// Every transfer starts from curl_easy_reset(), which clears the options, so
// a request never inherits another's method or body; the handle runs in a
// multi handle of its own, whose connection cache outlives each transfer, so
// keep-alive still saves the handshake. The multi handle is also what lets a
// cancel be seen within http_cancel_step in any phase (curl_multi_poll()
// returns at least that often), which curl_easy_perform() cannot promise.
//
// Redirects are followed here, one transfer per hop, not by libcurl's
// CURLOPT_FOLLOWLOCATION: libcurl 7.88 (Debian 12) has no callback that sees
// a redirect's target before it is requested, and the fetch scope must judge
// every hop before anything is sent there. Addresses are judged when a
// socket is opened (CURLOPT_OPENSOCKETFUNCTION: nothing connects to a
// refused one) and again before a request goes out on a reused connection
// (CURLOPT_PREREQFUNCTION), since the connection cache outlives a request.
#include <curl/curl.h>

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

#include "net/easy_handle.h"
#include "sitemill/net/http.h"
#include "sitemill/url/url.h"
#include "sitemill/version.h"

namespace sitemill {
namespace {

/// What the callbacks share with send() during one transfer.
struct transfer {
  const body_receiver* receive = nullptr;
  const head_receiver* on_head = nullptr;
  const std::string* url = nullptr;  // this hop's
  detail::transfer_gate gate;        // the head, the cap, an exception
  bool body_refused = false;         // the head_receiver said no
  std::uint64_t skipped_bytes = 0;   // bodies of redirects, read and dropped
  detail::address_guard guard;
};

// The redirects this client follows (RFC 9110 15.4); a 300 or 304 is an
// answer, as in browsers.
bool is_redirect(long status) noexcept {
  return status == 301 || status == 302 || status == 303 || status == 307 ||
         status == 308;
}

bool following(transfer& t) noexcept {
  return is_redirect(t.gate.reader.head().status) &&
         !t.gate.reader.head().location.empty();
}

std::size_t on_body(char* data, std::size_t size, std::size_t n, void* user) {
  auto& t = *static_cast<transfer*>(user);
  const std::size_t bytes = size * n;
  if (following(t)) {
    // Not the document; bounded all the same, so an endless redirect body
    // cannot hold the client.
    t.skipped_bytes += bytes;
    if (t.skipped_bytes > t.gate.max_body_bytes) {
      t.gate.over_cap = true;
      return 0;
    }
    return bytes;
  }
  return t.gate.body(data, bytes, [&t](const char* d, std::size_t count) {
    return t.receive == nullptr || !*t.receive || (*t.receive)(d, count);
  });
}

std::size_t on_header(char* data, std::size_t size, std::size_t n, void* user) {
  auto& t = *static_cast<transfer*>(user);
  return t.gate.header(data, size * n, [&t](http_head& head) {
    if (following(t) || t.on_head == nullptr || !*t.on_head) return true;
    head.effective_url = *t.url;
    t.body_refused = !(*t.on_head)(head);
    return !t.body_refused;  // false ends it before a byte of body is read
  });
}

}  // namespace

std::string default_user_agent() {
  return "sitemill/" SITEMILL_VERSION_STRING
         " (+https://github.com/sitemill/sitemill)";
}

struct http_client::impl {
  explicit impl(const http_options& options) : defaults(options) {}
  ~impl() {
    // The handle is never in the multi handle between transfers.
    if (handle != nullptr) curl_easy_cleanup(handle);
    if (multi != nullptr) curl_multi_cleanup(multi);
  }

  // Runs the transfer set up on `handle` to its end, looking at `cancel`
  // at least every http_cancel_step: curl_easy_perform() would block in a
  // connect or a silent server until libcurl's own timeouts, which a
  // progress callback does not cut short in every phase.
  CURLcode perform(const std::atomic<bool>* cancel,
                   const std::function<bool()>& asked, bool& cancelled);

  CURL* handle = nullptr;
  CURLM* multi = nullptr;  // holds the connection cache between requests
  CURLcode init_code = CURLE_OK;
  std::array<char, CURL_ERROR_SIZE> error_buffer{};
  detail::easy_defaults defaults;
  http_response last;
};

CURLcode http_client::impl::perform(const std::atomic<bool>* cancel,
                                    const std::function<bool()>& asked,
                                    bool& cancelled) {
  if (curl_multi_add_handle(multi, handle) != CURLM_OK)
    return CURLE_OUT_OF_MEMORY;
  CURLcode code = CURLE_OK;
  for (;;) {
    int running = 0;
    if (curl_multi_perform(multi, &running) != CURLM_OK) {
      code = CURLE_OUT_OF_MEMORY;
      break;
    }
    if (running == 0) {
      int left = 0;
      while (CURLMsg* m = curl_multi_info_read(multi, &left)) {
        if (m->msg == CURLMSG_DONE) code = m->data.result;
      }
      break;
    }
    if ((cancel != nullptr && cancel->load(std::memory_order_relaxed)) ||
        (asked && asked())) {
      cancelled = true;
      code = CURLE_ABORTED_BY_CALLBACK;
      break;
    }
    const int step = static_cast<int>(http_cancel_step.count());
    if (curl_multi_poll(multi, nullptr, 0, step, nullptr) != CURLM_OK) {
      code = CURLE_OUT_OF_MEMORY;
      break;
    }
  }
  curl_multi_remove_handle(multi, handle);
  return code;
}

http_client::http_client(http_options options)
    : options_(std::move(options)), impl_(std::make_unique<impl>(options_)) {
  impl_->init_code = detail::curl_init_once();
  if (impl_->init_code == CURLE_OK) {
    impl_->handle = curl_easy_init();
    impl_->multi = curl_multi_init();
  }
}

http_client::~http_client() = default;

result<http_response> http_client::send(const http_request& request,
                                        const body_receiver& receive,
                                        const head_receiver& head) {
  if (!options_.trace) return send_once(request, receive, head);
  const auto start = std::chrono::steady_clock::now();
  auto answer = send_once(request, receive, head);
  options_.trace(detail::trace_line(
      request.method, request.url, answer ? &*answer : nullptr,
      answer ? std::string_view{} : std::string_view(answer.err().message),
      std::chrono::steady_clock::now() - start));
  return answer;
}

result<http_response> http_client::send_once(const http_request& request,
                                             const body_receiver& receive,
                                             const head_receiver& head) {
  auto fail = [&request](std::string_view why) {
    std::string msg = request.url;
    msg.append(": ");
    msg.append(why);
    return error{std::move(msg)};
  };
  impl_->last = http_response{};
  if (impl_->handle == nullptr || impl_->multi == nullptr) {
    return fail(impl_->init_code != CURLE_OK
                    ? curl_easy_strerror(impl_->init_code)
                    : "cannot create a libcurl handle");
  }
  CURL* const h = impl_->handle;

  // A negative limit would mean "unlimited" to libcurl; this client always
  // has a bound.
  const int max_redirects = std::max(options_.max_redirects, 0);

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
    if ((options_.cancel != nullptr &&
         options_.cancel->load(std::memory_order_relaxed)) ||
        (request.cancelled && request.cancelled()))
      return fail("cancelled");
    // Made again for each hop: what headers_for adds depends on where the
    // hop goes.
    const detail::header_list header_list =
        detail::make_header_list(request.headers, options_, url);
    if (!header_list) return fail("out of memory building the request headers");
    curl_easy_reset(h);
    transfer t;
    t.receive = &receive;
    t.on_head = &head;
    t.url = &url;
    t.gate.max_body_bytes = options_.max_body_bytes;
    t.guard.scope = request.scope;

    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    impl_->defaults.apply(h, options_.connect_timeout, left,
                          impl_->error_buffer.data());
    curl_easy_setopt(h, CURLOPT_URL, url.c_str());
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, &on_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, &t);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, header_list.get());
    detail::guard_addresses(h, &t.guard);

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

    bool cancelled = false;
    const CURLcode code =
        impl_->perform(options_.cancel, request.cancelled, cancelled);
    if (t.gate.threw) std::rethrow_exception(t.gate.threw);

    static_cast<http_head&>(impl_->last) = std::move(t.gate.reader.head());
    impl_->last.body_bytes = t.gate.body_bytes;
    impl_->last.redirects = redirects;
    impl_->last.effective_url = url;

    if (t.body_refused) {
      impl_->last.body_skipped = true;
      return impl_->last;
    }
    if (code != CURLE_OK) {
      if (t.gate.over_cap)
        return fail(detail::too_large_text(t.gate.max_body_bytes));
      if (t.gate.receiver_stopped)
        return fail("the receiver stopped the transfer");
      if (cancelled) return fail("cancelled");
      if (!t.guard.refused.empty()) {
        impl_->last.out_of_scope = t.guard.refused;
        std::string why;
        if (redirects > 0) why = "redirected to " + url + ", ";
        return fail(why + detail::refused_address_text(t.guard.refused));
      }
      return fail(
          detail::transport_error_text(code, impl_->error_buffer.data()));
    }

    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    char* location = nullptr;
    curl_easy_getinfo(h, CURLINFO_REDIRECT_URL, &location);
    if (is_redirect(status) && !impl_->last.location.empty() &&
        location != nullptr) {
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
        // The host judged is the host asked for: "127.0.0.1." is sent as
        // the address it normalises to, never to DNS as a name.
        target.assign(to.href());
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
    impl_->last.status = status;
    return impl_->last;
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
