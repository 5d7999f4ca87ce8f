#include "source/log_line.h"

#include <algorithm>
#include <array>
#include <iterator>

#include "detail/text.h"

namespace sitemill::detail {
namespace {

// The user agent words of bots and scripts (docs/access-logs.md), lowercase.
// Short on purpose: each is a substring no browser's agent holds.
constexpr std::string_view bot_words[] = {
    "bot",
    "crawl",
    "spider",
    "slurp",
    "curl",
    "wget",
    "python-requests",
    "python-urllib",
    "go-http-client",
    "java/",
    "libwww-perl",
    "scrapy",
    "httpclient",
    "headless",
    "lighthouse",
    "axios",
    "node-fetch",
    "facebookexternalhit",
};

// Extensions of what pages load or link to but are not pages: styles and
// scripts, images, fonts, media, source maps, archives, feeds and the
// site's machine-readable files (docs/access-logs.md), lowercase.
constexpr std::string_view asset_extensions[] = {
    "css",  "js",   "mjs",  "map",   "json", "wasm", "webmanifest", "png",
    "jpg",  "jpeg", "gif",  "webp",  "avif", "svg",  "ico",         "bmp",
    "tif",  "tiff", "woff", "woff2", "ttf",  "otf",  "eot",         "mp4",
    "webm", "ogv",  "ogg",  "mp3",   "wav",  "m4a",  "mov",         "flac",
    "avi",  "zip",  "gz",   "tgz",   "tar",  "bz2",  "xz",          "7z",
    "rar",  "xml",  "rss",  "atom",  "txt",  "csv",
};

// Bytes of an agent searched: bots name themselves early, and a bound keeps
// the lowercase copy on the stack.
constexpr std::size_t agent_prefix = 1024;

constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

// The quoted field starting at s[i] == '"', without its quotes, and the
// index after the closing quote; npos when it is not closed. Apache writes
// a quote inside as \" and a backslash as \\.
std::size_t quoted_field(std::string_view s, std::size_t i,
                         std::string_view& field) noexcept {
  for (std::size_t j = i + 1; j < s.size(); ++j) {
    if (s[j] == '\\') {
      ++j;
    } else if (s[j] == '"') {
      field = s.substr(i + 1, j - i - 1);
      return j + 1;
    }
  }
  return std::string_view::npos;
}

// "GET /a HTTP/1.1" (or HTTP/0.9's "GET /a") into method and target; both
// stay empty for anything else.
void split_request(std::string_view request, log_line& out) noexcept {
  const std::size_t sp = request.find(' ');
  if (sp == 0 || sp == std::string_view::npos) return;
  const std::string_view method = request.substr(0, sp);
  if (!std::all_of(method.begin(), method.end(),
                   [](char c) { return c >= 'A' && c <= 'Z'; }))
    return;
  std::string_view target = request.substr(sp + 1);
  const std::size_t last = target.rfind(' ');
  if (last != std::string_view::npos &&
      target.substr(last + 1).starts_with("HTTP/"))
    target = target.substr(0, last);
  if (target.empty()) return;
  out.method = method;
  out.target = target;
}

}  // namespace

std::string_view parse_log_line(std::string_view s, log_line& out) noexcept {
  out = log_line{};
  const std::size_t open = s.find('[');
  if (open == std::string_view::npos) return "no [time] field";
  // HOST IDENT USER, after vhost_combined's HOST:PORT.
  std::array<std::string_view, 4> head{};
  std::size_t tokens = 0;
  for (std::size_t i = 0; i < open;) {
    const std::size_t sp = s.find(' ', i);
    if (sp == std::string_view::npos || sp >= open)
      return "no space before the [time] field";
    if (sp == i) return "an empty field before the [time] field";
    if (tokens == head.size()) return "too many fields before the [time] field";
    head[tokens++] = s.substr(i, sp - i);
    i = sp + 1;
  }
  if (tokens < 3) return "too few fields before the [time] field";
  if (tokens == 4) out.vhost = head[0];
  const std::size_t close = s.find(']', open);
  if (close == std::string_view::npos || close == open + 1)
    return "no [time] field";
  std::size_t i = close + 1;
  if (s.substr(i, 2) != " \"") return "no quoted request after the time";
  std::string_view request;
  i = quoted_field(s, i + 1, request);
  if (i == std::string_view::npos) return "the request's quote is not closed";
  split_request(request, out);
  if (s.size() < i + 4 || s[i] != ' ' || !is_digit(s[i + 1]) ||
      !is_digit(s[i + 2]) || !is_digit(s[i + 3]) ||
      (s.size() > i + 4 && s[i + 4] != ' '))
    return "no three-digit status after the request";
  out.status =
      (s[i + 1] - '0') * 100 + (s[i + 2] - '0') * 10 + (s[i + 3] - '0');
  if (out.status < 100 || out.status > 599) return "a status out of range";
  i += 4;
  if (i >= s.size() || s[i] != ' ') return "no size after the status";
  const std::size_t size_begin = ++i;
  while (i < s.size() && s[i] != ' ') ++i;
  const std::string_view size = s.substr(size_begin, i - size_begin);
  if (size != "-" &&
      (size.empty() || !std::all_of(size.begin(), size.end(), is_digit)))
    return "a size that is not a number or -";
  // The common format ends here; combined goes on with referer and agent.
  if (i + 1 >= s.size() || s[i + 1] != '"') return {};
  std::string_view referer, agent;
  i = quoted_field(s, i + 1, referer);
  if (i == std::string_view::npos) return "the referer's quote is not closed";
  if (s.substr(i, 2) != " \"") return "a referer without a user agent";
  i = quoted_field(s, i + 1, agent);
  if (i == std::string_view::npos)
    return "the user agent's quote is not closed";
  out.has_agent = true;
  out.user_agent = agent == "-" ? std::string_view{} : agent;
  return {};
}

bool is_bot_agent(std::string_view agent) noexcept {
  if (agent.empty()) return true;
  std::array<char, agent_prefix> lower;
  const std::size_t n = std::min(agent.size(), lower.size());
  for (std::size_t k = 0; k < n; ++k) lower[k] = ascii_lower(agent[k]);
  const std::string_view text(lower.data(), n);
  return std::any_of(std::begin(bot_words), std::end(bot_words),
                     [&](std::string_view w) {
                       return text.find(w) != std::string_view::npos;
                     });
}

bool is_asset_path(std::string_view path) noexcept {
  const std::size_t slash = path.rfind('/');
  const std::string_view name =
      slash == std::string_view::npos ? path : path.substr(slash + 1);
  const std::size_t dot = name.rfind('.');
  if (dot == std::string_view::npos) return false;
  const std::string_view ext = name.substr(dot + 1);
  return std::any_of(std::begin(asset_extensions), std::end(asset_extensions),
                     [&](std::string_view a) { return iequals(ext, a); });
}

std::string_view vhost_host(std::string_view vhost) noexcept {
  const std::size_t colon = vhost.rfind(':');
  if (colon != std::string_view::npos && colon + 1 < vhost.size() &&
      std::all_of(vhost.begin() + colon + 1, vhost.end(), is_digit))
    return vhost.substr(0, colon);
  return vhost;
}

log_verdict judge_request(const log_line& line,
                          const log_scope& scope) noexcept {
  if ((line.method != "GET" && line.method != "HEAD") ||
      !line.target.starts_with('/'))
    return log_verdict::method;
  if (!((line.status >= 200 && line.status <= 299) || line.status == 304))
    return log_verdict::status;
  if (!line.vhost.empty() && !scope.host.empty() &&
      !iequals(vhost_host(line.vhost), scope.host))
    return log_verdict::host;
  const std::size_t q = line.target.find('?');
  const std::string_view path = line.target.substr(0, q);
  if (!path.starts_with(scope.directory)) return log_verdict::outside;
  if (line.has_agent && is_bot_agent(line.user_agent)) return log_verdict::bot;
  if (is_asset_path(path)) return log_verdict::asset;
  if (q != std::string_view::npos && !scope.keep_query)
    return log_verdict::query;
  return log_verdict::page;
}

}  // namespace sitemill::detail
