#include "store/s3_client.h"

#include <charconv>
#include <chrono>
#include <thread>

#include "detail/text.h"
#include "net/exchange.h"
#include "sitemill/write/xml_escape.h"

namespace sitemill::store {
namespace {

// An answer's body is read whole only when asked (GET, a listing); a
// refusal's start is enough to quote S3's <Code> and <Message>.
constexpr std::size_t kRefusalKept = 16 * 1024;

bool virtual_host_ok(const s3_config& c, const std::string& bucket) {
  // A dotted bucket name breaks the wildcard certificate of a bucket host.
  return !c.path_style && bucket.find('.') == std::string::npos;
}

std::string host_of(std::string_view endpoint) {
  const std::size_t start = endpoint.find("//");
  return std::string(
      endpoint.substr(start == std::string_view::npos ? 0 : start + 2));
}

long long now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

std::string xml_text_of(std::string_view xml, std::string_view name) {
  const std::string open = "<" + std::string(name) + ">";
  const std::string close = "</" + std::string(name) + ">";
  const std::size_t start = xml.find(open);
  if (start == std::string_view::npos) return {};
  const std::size_t from = start + open.size();
  const std::size_t end = xml.find(close, from);
  if (end == std::string_view::npos) return {};
  std::string out;
  append_xml_unescaped(out, xml.substr(from, end - from));
  return out;
}

s3_list_page parse_list_page(std::string_view xml) {
  s3_list_page page;
  for (std::size_t at = 0;;) {
    const std::size_t open = xml.find("<Contents>", at);
    if (open == std::string_view::npos) break;
    const std::size_t close = xml.find("</Contents>", open);
    if (close == std::string_view::npos) break;
    const std::string_view item = xml.substr(open, close - open);
    s3_object o;
    o.key = xml_text_of(item, "Key");
    o.etag = xml_text_of(item, "ETag");
    const std::string size = xml_text_of(item, "Size");
    (void)std::from_chars(size.data(), size.data() + size.size(), o.size);
    page.objects.push_back(std::move(o));
    at = close;
  }
  // <Contents> children come before these in a ListBucketResult; reading
  // them outside the items keeps a key named "IsTruncated" harmless.
  const std::size_t last = xml.rfind("</Contents>");
  const std::string_view tail =
      last == std::string_view::npos ? xml : xml.substr(last);
  if (xml_text_of(tail, "IsTruncated") == "true")
    page.next_token = xml_text_of(tail, "NextContinuationToken");
  return page;
}

s3_client::s3_client(s3_config config, s3_location where, http_options http,
                     retry_policy retry)
    : config_(std::move(config)),
      where_(std::move(where)),
      retry_(std::move(retry)),
      http_(std::move(http)) {
  scope_.allow_private = true;
}

std::string s3_client::url_of(std::string_view key) const {
  return "s3://" + where_.bucket + "/" + std::string(key);
}

result<s3_client::reply> s3_client::send(
    const std::string& method, const std::string& key,
    std::vector<std::pair<std::string, std::string>> query,
    std::string_view body,
    std::vector<std::pair<std::string, std::string>> headers, bool keep_body,
    const body_receiver* stream, std::function<bool()> cancelled) {
  std::string host = host_of(config_.endpoint);
  std::string path;
  if (virtual_host_ok(config_, where_.bucket)) {
    host = where_.bucket + "." + host;
    path = "/" + uri_encode(key, true);
  } else {
    // A listing's path is the bucket's own: "/bucket", not "/bucket/".
    path = "/" + uri_encode(where_.bucket, false);
    if (!key.empty()) path += "/" + uri_encode(key, true);
  }
  const std::string scheme =
      config_.endpoint.substr(0, config_.endpoint.find("//") + 2);
  std::string url = scheme + host + path;
  const std::string query_text = canonical_query(query);
  if (!query_text.empty()) url += "?" + query_text;
  const std::string payload_hash = payload_sha256(body);

  const int max_attempts = std::max(retry_.max_attempts, 1);
  for (int attempt = 1;; ++attempt) {
    sigv4_input in;
    in.method = method;
    in.canonical_uri = path;
    in.query = query;
    in.payload_hash = payload_hash;
    in.amz_date = amz_date_of(now_seconds());
    in.region = config_.region;
    in.headers = headers;
    in.headers.emplace_back("host", host);
    in.headers.emplace_back("x-amz-content-sha256", payload_hash);
    in.headers.emplace_back("x-amz-date", in.amz_date);
    if (!config_.credentials.session_token.empty())
      in.headers.emplace_back("x-amz-security-token",
                              config_.credentials.session_token);
    const sigv4_result signed_request = sign_v4(in, config_.credentials);

    http_request request;
    request.method = method;
    request.url = url;
    request.body = std::string(body);
    request.scope = &scope_;
    request.cancelled = cancelled;
    for (const auto& h : in.headers)
      if (h.first != "host") request.headers.push_back(h);
    request.headers.emplace_back("Authorization", signed_request.authorization);

    reply r;
    auto answer = http_.send(
        request,
        [&](const char* data, std::size_t size) {
          const bool ok_status = r.head.status >= 200 && r.head.status <= 299;
          if (stream != nullptr && ok_status) return (*stream)(data, size);
          if (keep_body && ok_status) {
            r.body.append(data, size);
          } else if (r.body.size() < kRefusalKept) {
            r.body.append(data, std::min(size, kRefusalKept - r.body.size()));
          }
          return true;
        },
        [&](const http_head& h) {
          r.head.status = h.status;
          return method != "HEAD";
        });
    if (!answer) {
      if (after_request) after_request({method, key, 0});
      return error{method + " " + url_of(key) + ": " + answer.err().message};
    }
    r.status = answer->status;
    static_cast<http_head&>(r.head) = *answer;
    if (after_request) after_request({method, key, r.status});
    if (!detail::is_retryable(r.status) || attempt >= max_attempts) return r;
    const auto wait = detail::retry_wait(retry_, attempt, answer->retry_after);
    const bool go_on = retry_.sleep ? retry_.sleep(wait)
                                    : (std::this_thread::sleep_for(wait), true);
    if (!go_on) return error{method + " " + url_of(key) + ": cancelled"};
  }
}

error s3_client::refusal(const std::string& method, const std::string& key,
                         const reply& r) const {
  std::string msg =
      method + " " + url_of(key) + ": " + detail::status_text(r.status);
  const std::string code = xml_text_of(r.body, "Code");
  const std::string text = xml_text_of(r.body, "Message");
  if (!code.empty()) {
    // The server's words, quoted as untrusted text: printable, and short.
    msg += ", ";
    detail::append_printable(msg, code, 64);
    if (!text.empty()) {
      msg += ": ";
      detail::append_printable(msg, text, 300);
    }
  } else if (r.status == 403 && method == "HEAD") {
    msg +=
        " (a HEAD answer carries no reason: check the credentials and "
        "the bucket's policy)";
  }
  return error{std::move(msg)};
}

result<s3_put_outcome> s3_client::put(const std::string& key,
                                      std::string_view body,
                                      const s3_put_options& options) {
  std::vector<std::pair<std::string, std::string>> headers;
  if (!options.content_type.empty())
    headers.emplace_back("Content-Type", options.content_type);
  if (!options.cache_control.empty())
    headers.emplace_back("Cache-Control", options.cache_control);
  if (options.create_only) headers.emplace_back("If-None-Match", "*");
  auto r = send("PUT", key, {}, body, std::move(headers), false);
  if (!r) return r.err();
  if (r->status >= 200 && r->status <= 299) return s3_put_outcome::stored;
  // 409 ConditionalRequestConflict: another conditional write to the key
  // is in flight, which for a create means someone else is creating it.
  if (options.create_only && (r->status == 412 || r->status == 409))
    return s3_put_outcome::exists;
  return refusal("PUT", key, *r);
}

result<std::optional<std::string>> s3_client::get(const std::string& key) {
  auto r = send("GET", key, {}, {}, {}, true);
  if (!r) return r.err();
  if (r->status == 404) return std::optional<std::string>{};
  if (r->status < 200 || r->status > 299) return refusal("GET", key, *r);
  return std::optional<std::string>{std::move(r->body)};
}

result<s3_object> s3_client::read(const std::string& key,
                                  const body_receiver& receive,
                                  std::function<bool()> cancelled) {
  std::uint64_t received = 0;
  const body_receiver counted = [&](const char* data, std::size_t size) {
    received += size;
    return receive(data, size);
  };
  auto r = send("GET", key, {}, {}, {}, false, &counted, std::move(cancelled));
  if (!r) return r.err();
  if (r->status < 200 || r->status > 299) return refusal("GET", key, *r);
  s3_object o;
  o.key = key;
  o.size = received;
  o.etag = r->head.etag;
  o.content_type = r->head.content_type;
  return o;
}

result<std::optional<s3_object>> s3_client::head(const std::string& key) {
  auto r = send("HEAD", key, {}, {}, {}, false);
  if (!r) return r.err();
  if (r->status == 404) return std::optional<s3_object>{};
  if (r->status < 200 || r->status > 299) return refusal("HEAD", key, *r);
  s3_object o;
  o.key = key;
  o.size = r->head.content_length.value_or(0);
  o.etag = r->head.etag;
  o.content_type = r->head.content_type;
  return std::optional<s3_object>{std::move(o)};
}

status s3_client::remove(const std::string& key) {
  auto r = send("DELETE", key, {}, {}, {}, false);
  if (!r) return r.err();
  if ((r->status >= 200 && r->status <= 299) || r->status == 404) return {};
  return refusal("DELETE", key, *r);
}

result<std::vector<s3_object>> s3_client::list(const std::string& prefix,
                                               std::size_t max_objects) {
  std::vector<s3_object> all;
  std::string token;
  std::size_t pages = 0;
  for (;;) {
    std::vector<std::pair<std::string, std::string>> query = {
        {"list-type", "2"}, {"prefix", prefix}};
    if (!token.empty()) query.emplace_back("continuation-token", token);
    if (list_page_size > 0)
      query.emplace_back("max-keys", std::to_string(list_page_size));
    // A listing is of the bucket: the key part of its path is empty.
    auto r = send("GET", "", std::move(query), {}, {}, true);
    if (!r) return r.err();
    if (r->status < 200 || r->status > 299)
      return refusal("GET", "?list-type=2&prefix=" + prefix, *r);
    s3_list_page page = parse_list_page(r->body);
    for (auto& o : page.objects) all.push_back(std::move(o));
    if (max_objects > 0 && all.size() > max_objects)
      return error{"GET " + url_of("?list-type=2&prefix=" + prefix) +
                   ": the listing holds more than " +
                   std::to_string(max_objects) + " objects"};
    // A page may come back short or empty (S3 sends up to 1,000 keys); a
    // server that sends such pages for ever meets a cap in pages.
    if (max_objects > 0 && ++pages > 1 + max_objects / 100)
      return error{"GET " + url_of("?list-type=2&prefix=" + prefix) +
                   ": the listing goes on past " + std::to_string(pages - 1) +
                   " pages"};
    if (page.next_token.empty()) return all;
    if (page.next_token == token)
      return error{"GET " + url_of("?list-type=2&prefix=" + prefix) +
                   ": the server repeated its continuation token"};
    token = std::move(page.next_token);
  }
}

}  // namespace sitemill::store
