// sitemill internals: one line of a web server access log, and the rules
// that decide whether the request it records is a page of the site
// (docs/access-logs.md). Used by the access log source (log_source.cpp).
#ifndef SITEMILL_SOURCE_LOG_LINE_H
#define SITEMILL_SOURCE_LOG_LINE_H

#include <cstdint>
#include <string_view>

namespace sitemill::detail {

/// The fields of a log line the source uses, as views into the line (quoted
/// fields without their quotes, escapes such as \" left as written).
struct log_line {
  /// vhost_combined's leading "%v:%p" ("www.example.com:443"); empty for
  /// the combined and common formats.
  std::string_view vhost;
  std::string_view method;  ///< "GET"; empty when the request is not one
  /// The request target as sent: "/a/b?x=1". Empty when the request field
  /// is not METHOD TARGET [PROTOCOL] ("-", bytes of a TLS handshake).
  std::string_view target;
  int status = 0;  ///< the final status, 100 to 599 (Apache's %>s)
  /// True for combined and vhost_combined: a referer and a user agent
  /// follow the size. The common format has neither.
  bool has_agent = false;
  std::string_view user_agent;  ///< empty when absent or "-"
};

/// Splits an Apache or nginx log line in the combined, common or
/// vhost_combined format:
///   [VHOST] HOST IDENT USER [TIME] "REQUEST" STATUS SIZE ["REFERER" "AGENT"]
/// Fields after the agent (nginx adds some) are ignored; TIME is not read.
/// Returns "" and fills `out`, or why the line is not a log line.
std::string_view parse_log_line(std::string_view text, log_line& out) noexcept;

/// Why a log line's request is or is not listed, in the order the reasons
/// are tried: a request is counted under the first that applies.
enum class log_verdict : std::uint8_t {
  method,   ///< not a GET or HEAD of a path ("POST", "OPTIONS *", "-")
  status,   ///< answered other than 2xx or 304
  host,     ///< vhost_combined: a host other than the base URL's
  outside,  ///< the path is not at or below the base URL's directory
  bot,      ///< a bot's user agent (is_bot_agent())
  asset,    ///< an asset's path (is_asset_path())
  query,    ///< a query string, and they are not kept
  page,     ///< listed
};
inline constexpr int log_verdict_count = 8;

/// What a request is judged against. Views are borrowed.
struct log_scope {
  std::string_view host;       ///< the base URL's host, lowercase
  std::string_view directory;  ///< the base URL's path: "/", "/blog/"
  bool keep_query = false;
};

/// The host of a vhost_combined "%v:%p" field: "www.example.com" of
/// "www.example.com:443". The port is the server's, which may differ from
/// a base URL's (both http and https logged), so the host alone decides.
std::string_view vhost_host(std::string_view vhost) noexcept;

/// The verdict on the request `line` records.
log_verdict judge_request(const log_line& line,
                          const log_scope& scope) noexcept;

/// True for a user agent of a bot or a script: one that contains (ASCII
/// case ignored) one of the words docs/access-logs.md lists ("bot",
/// "crawl", "spider", "curl", ...), and an empty one.
bool is_bot_agent(std::string_view agent) noexcept;

/// True for a path (without query) whose last segment ends in an asset's
/// extension (".css", ".js", ".png", ".woff2", ".map", ".zip", ".xml", ...;
/// docs/access-logs.md has the list), ASCII case ignored.
bool is_asset_path(std::string_view path) noexcept;

}  // namespace sitemill::detail

#endif  // SITEMILL_SOURCE_LOG_LINE_H
