#include "support/s3_verify.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace sitemill::testing {

std::string percent_decoded(std::string_view v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] == '%' && i + 2 < v.size()) {
      out.push_back(static_cast<char>(
          std::stoi(std::string(v.substr(i + 1, 2)), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(v[i]);
    }
  }
  return out;
}

std::string sigv4_mismatch(const recorded_request& req,
                           const store::aws_credentials& credentials,
                           const std::string& region) {
  const std::string auth = req.header("Authorization").value_or("");
  const std::size_t cred = auth.find("Credential=");
  const std::size_t sh = auth.find("SignedHeaders=");
  const std::size_t sig = auth.find(",Signature=");
  if (!auth.starts_with("AWS4-HMAC-SHA256 ") || cred == std::string::npos ||
      sh == std::string::npos || sig == std::string::npos)
    return "no SigV4 Authorization header: " + auth;
  const std::string key_id =
      auth.substr(cred + 11, auth.find('/', cred) - cred - 11);
  if (key_id != credentials.access_key_id)
    return "InvalidAccessKeyId: " + key_id;
  store::sigv4_input in;
  in.method = req.method;
  in.canonical_uri = std::string(req.path());
  // The query as sent, decoded, for the signer to encode and sort again.
  const std::size_t q = req.target.find('?');
  if (q != std::string::npos) {
    std::string_view rest = std::string_view(req.target).substr(q + 1);
    while (!rest.empty()) {
      const std::size_t amp = rest.find('&');
      const std::string_view pair = rest.substr(0, amp);
      const std::size_t eq = pair.find('=');
      in.query.emplace_back(percent_decoded(pair.substr(0, eq)),
                            eq == std::string_view::npos
                                ? std::string()
                                : percent_decoded(pair.substr(eq + 1)));
      rest = amp == std::string_view::npos ? std::string_view{}
                                           : rest.substr(amp + 1);
    }
  }
  const std::string names = auth.substr(sh + 14, sig - sh - 14);
  for (std::size_t at = 0; at <= names.size();) {
    const std::size_t semi = std::min(names.find(';', at), names.size());
    const std::string name = names.substr(at, semi - at);
    auto value = req.header(name);
    if (!value) return "signed header " + name + " was not sent";
    in.headers.emplace_back(name, *value);
    at = semi + 1;
  }
  if (names.find("host") == std::string::npos) return "Host is not signed";
  const std::string payload = store::payload_sha256(req.body);
  if (req.header("x-amz-content-sha256") != payload)
    return "x-amz-content-sha256 is not the payload's hash";
  in.payload_hash = payload;
  in.amz_date = req.header("x-amz-date").value_or("");
  in.region = region;
  const store::sigv4_result expected = store::sign_v4(in, credentials);
  if (auth.substr(sig + 11) != expected.signature)
    return "SignatureDoesNotMatch; the canonical request expected:\n" +
           expected.canonical_request;
  return {};
}

namespace {

http_reply s3_error(int status, const std::string& code,
                    const std::string& message) {
  return http_reply{
      status,
      {{"Content-Type", "application/xml"}},
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + code +
          "</Code><Message>" + message +
          "</Message><RequestId>4442587FB7D0A2F9</RequestId>"
          "</Error>"};
}

// The value of `name` in a query string, decoded; "" when absent.
std::string query_value(std::string_view target, std::string_view name) {
  const std::size_t q = target.find('?');
  if (q == std::string_view::npos) return {};
  std::string_view rest = target.substr(q + 1);
  while (!rest.empty()) {
    const std::size_t amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    const std::size_t eq = pair.find('=');
    if (percent_decoded(pair.substr(0, eq)) == name)
      return eq == std::string_view::npos
                 ? std::string()
                 : percent_decoded(pair.substr(eq + 1));
    rest = amp == std::string_view::npos ? std::string_view{}
                                         : rest.substr(amp + 1);
  }
  return {};
}

}  // namespace

private_bucket::private_bucket(std::string bucket,
                               store::aws_credentials credentials)
    : bucket_(std::move(bucket)), credentials_(std::move(credentials)) {
  server_.fallback([this](const recorded_request& r) { return answer(r); });
}

void private_bucket::put(const std::string& key, std::string bytes) {
  std::lock_guard lock(mu_);
  objects_[key] = std::move(bytes);
}

std::size_t private_bucket::refused() const {
  std::lock_guard lock(mu_);
  return refused_;
}

http_reply private_bucket::answer(const recorded_request& r) {
  const std::string why = sigv4_mismatch(r, credentials_);
  std::lock_guard lock(mu_);
  if (!why.empty()) {
    ++refused_;
    if (why.starts_with("InvalidAccessKeyId"))
      return s3_error(403, "InvalidAccessKeyId",
                      "The AWS Access Key Id you provided does not exist in "
                      "our records.");
    return s3_error(403, "SignatureDoesNotMatch",
                    "The request signature we calculated does not match the "
                    "signature you provided. Check your key and signing "
                    "method.");
  }
  const std::string path = percent_decoded(r.path());
  const std::string root = "/" + bucket_;
  if (path != root && !path.starts_with(root + "/"))
    return s3_error(404, "NoSuchBucket", "The specified bucket does not exist");
  if (path == root || path == root + "/") {
    if (r.method != "GET" || query_value(r.target, "list-type") != "2")
      return s3_error(400, "InvalidRequest", "Only ListObjectsV2 is served");
    const std::string prefix = query_value(r.target, "prefix");
    std::string xml =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ListBucketResult><Name>" +
        bucket_ + "</Name><Prefix>" + prefix + "</Prefix>";
    for (const auto& [key, bytes] : objects_)
      if (key.starts_with(prefix))
        xml += "<Contents><Key>" + key + "</Key><Size>" +
               std::to_string(bytes.size()) + "</Size></Contents>";
    xml += "<IsTruncated>false</IsTruncated></ListBucketResult>";
    return http_reply{200, {{"Content-Type", "application/xml"}}, xml};
  }
  const std::string key = path.substr(root.size() + 1);
  auto it = objects_.find(key);
  if (it == objects_.end())
    return s3_error(404, "NoSuchKey", "The specified key does not exist.");
  if (r.method == "HEAD") {
    http_reply head{200, {{"Content-Type", "application/xml"}}, it->second};
    return head;
  }
  if (r.method != "GET")
    return s3_error(405, "MethodNotAllowed", "Only GET and HEAD are served");
  return http_reply{200,
                    {{"Content-Type", key.ends_with(".gz") ? "application/gzip"
                                                           : "application/xml"},
                     {"ETag", "\"e\""}},
                    it->second};
}

}  // namespace sitemill::testing
