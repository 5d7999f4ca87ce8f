#include "store/sigv4.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "detail/digest.h"
#include "detail/text.h"

namespace sitemill::store {
namespace {

bool unreserved(unsigned char c) noexcept {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
         (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
}

// SigV4: a header value is trimmed and inner runs of spaces become one.
std::string canonical_value(std::string_view value) {
  std::string out;
  bool space = false;
  for (const char c : detail::trim(value)) {
    if (c == ' ' || c == '\t') {
      space = true;
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  return out;
}

}  // namespace

std::string uri_encode(std::string_view bytes, bool keep_slash) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(bytes.size());
  for (const char ch : bytes) {
    const auto c = static_cast<unsigned char>(ch);
    if (unreserved(c) || (keep_slash && c == '/')) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  return out;
}

std::string canonical_query(
    const std::vector<std::pair<std::string, std::string>>& query) {
  std::vector<std::pair<std::string, std::string>> encoded;
  encoded.reserve(query.size());
  for (const auto& [name, value] : query)
    encoded.emplace_back(uri_encode(name, false), uri_encode(value, false));
  std::sort(encoded.begin(), encoded.end());
  std::string out;
  for (const auto& [name, value] : encoded) {
    if (!out.empty()) out.push_back('&');
    out += name;
    out.push_back('=');
    out += value;
  }
  return out;
}

std::string amz_date_of(long long unix_seconds) {
  using namespace std::chrono;
  const sys_seconds t{seconds{unix_seconds}};
  const auto day = floor<days>(t);
  const year_month_day ymd{day};
  const hh_mm_ss hms{t - day};
  char buf[32];
  std::snprintf(
      buf, sizeof buf, "%04d%02u%02uT%02d%02d%02dZ",
      static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
      static_cast<unsigned>(ymd.day()), static_cast<int>(hms.hours().count()),
      static_cast<int>(hms.minutes().count()),
      static_cast<int>(hms.seconds().count()));
  return buf;
}

std::string payload_sha256(std::string_view payload) {
  return detail::hex_of(detail::as_view(detail::sha256(payload)));
}

sigv4_result sign_v4(const sigv4_input& in,
                     const aws_credentials& credentials) {
  sigv4_result r;
  std::vector<std::pair<std::string, std::string>> headers;
  headers.reserve(in.headers.size());
  for (const auto& [name, value] : in.headers) {
    std::string lower(name);
    for (char& c : lower) c = detail::ascii_lower(c);
    headers.emplace_back(std::move(lower), canonical_value(value));
  }
  std::sort(headers.begin(), headers.end());

  std::string canonical_headers;
  for (const auto& [name, value] : headers) {
    canonical_headers += name + ":" + value + "\n";
    if (!r.signed_headers.empty()) r.signed_headers.push_back(';');
    r.signed_headers += name;
  }
  r.canonical_request = in.method + "\n" + in.canonical_uri + "\n" +
                        canonical_query(in.query) + "\n" + canonical_headers +
                        "\n" + r.signed_headers + "\n" + in.payload_hash;

  const std::string day = in.amz_date.substr(0, 8);
  const std::string scope =
      day + "/" + in.region + "/" + in.service + "/aws4_request";
  r.string_to_sign = "AWS4-HMAC-SHA256\n" + in.amz_date + "\n" + scope + "\n" +
                     payload_sha256(r.canonical_request);

  const auto k_date =
      detail::hmac_sha256("AWS4" + credentials.secret_access_key, day);
  const auto k_region = detail::hmac_sha256(detail::as_view(k_date), in.region);
  const auto k_service =
      detail::hmac_sha256(detail::as_view(k_region), in.service);
  const auto k_signing =
      detail::hmac_sha256(detail::as_view(k_service), "aws4_request");
  r.signature = detail::hex_of(detail::as_view(
      detail::hmac_sha256(detail::as_view(k_signing), r.string_to_sign)));
  r.authorization = "AWS4-HMAC-SHA256 Credential=" + credentials.access_key_id +
                    "/" + scope + ",SignedHeaders=" + r.signed_headers +
                    ",Signature=" + r.signature;
  return r;
}

}  // namespace sitemill::store
