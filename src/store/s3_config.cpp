#include "store/s3_config.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "detail/text.h"

namespace sitemill::store {
namespace {

std::optional<std::string> read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return std::move(s).str();
}

bool valid_bucket(std::string_view b) {
  if (b.size() < 3 || b.size() > 63) return false;
  for (const char c : b)
    if (!((c >= 'a' && c <= 'z') || detail::is_ascii_digit(c) || c == '.' ||
          c == '-'))
      return false;
  return b.front() != '.' && b.front() != '-' && b.back() != '.' &&
         b.back() != '-';
}

std::string home_file(const env_reader& env, const char* variable,
                      const char* below_home) {
  if (auto set = env(variable)) return *set;
  if (auto home = env("HOME")) return *home + below_home;
  return {};
}

}  // namespace

bool is_s3_url(std::string_view out) noexcept {
  return detail::istarts_with(out, "s3://");
}

namespace {

// Why `path` (the part after the bucket's '/') is no prefix or key S3
// tools would write; "" when it is one.
std::string_view bad_path(std::string_view path) {
  for (std::size_t at = 0; at < path.size();) {
    std::size_t end = std::min(path.find('/', at), path.size());
    const std::string_view segment = path.substr(at, end - at);
    if (segment.empty() || segment == "." || segment == "..")
      return "may not hold an empty, \".\" or \"..\" segment";
    for (const char c : segment)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f || c == '\\')
        return "may not hold control characters or '\\'";
    at = end + 1;
  }
  return {};
}

constexpr std::string_view bucket_rule =
    "the bucket name must be 3 to 63 characters of a-z, 0-9, '.' "
    "and '-', starting and ending with a letter or digit";

}  // namespace

result<s3_location> parse_s3_prefix(std::string_view location) {
  auto bad = [&](std::string_view why) {
    return error{std::string(location) + ": " + std::string(why)};
  };
  if (!is_s3_url(location)) return bad("not an s3:// URL");
  std::string_view rest = location.substr(5);
  const std::size_t slash = rest.find('/');
  s3_location loc;
  loc.bucket = std::string(rest.substr(0, slash));
  if (!valid_bucket(loc.bucket)) return bad(bucket_rule);
  if (slash == std::string_view::npos) return loc;
  std::string_view prefix = rest.substr(slash + 1);
  if (const std::string_view why = bad_path(prefix); !why.empty())
    return bad("the prefix " + std::string(why));
  loc.prefix = std::string(prefix);
  if (!loc.prefix.empty() && !loc.prefix.ends_with('/')) loc.prefix += '/';
  return loc;
}

result<s3_location> parse_s3_url(std::string_view out) {
  auto loc = parse_s3_prefix(out);
  if (!loc) return error{"`out_dir` " + loc.err().message, "out_dir"};
  return loc;
}

bool names_s3_prefix(std::string_view location) noexcept {
  if (!is_s3_url(location)) return false;
  const std::string_view rest = location.substr(5);
  return rest.find('/') == std::string_view::npos || rest.ends_with('/');
}

result<s3_object_location> parse_s3_object(std::string_view location) {
  auto bad = [&](std::string_view why) {
    return error{std::string(location) + ": " + std::string(why)};
  };
  if (!is_s3_url(location)) return bad("not an s3:// URL");
  const std::string_view rest = location.substr(5);
  const std::size_t slash = rest.find('/');
  s3_object_location loc;
  loc.bucket = std::string(rest.substr(0, slash));
  if (!valid_bucket(loc.bucket)) return bad(bucket_rule);
  if (slash == std::string_view::npos || slash + 1 == rest.size() ||
      rest.ends_with('/'))
    return bad("names a prefix, not an object");
  loc.key = std::string(rest.substr(slash + 1));
  if (const std::string_view why = bad_path(loc.key); !why.empty())
    return bad("the key " + std::string(why));
  return loc;
}

std::optional<std::string> process_env(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::string(v);
}

std::optional<std::string> ini_value(std::string_view text,
                                     std::string_view section,
                                     std::string_view key) {
  bool in_section = false;
  std::optional<std::string> found;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text =
        nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const bool indented =
        !line.empty() && (line.front() == ' ' || line.front() == '\t');
    line = detail::trim(line);
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    if (line.front() == '[') {
      const std::size_t close = line.find(']');
      if (close == std::string_view::npos) continue;
      in_section =
          detail::iequals(detail::trim(line.substr(1, close - 1)), section);
      continue;
    }
    if (!in_section || indented) continue;
    const std::size_t eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    if (!detail::iequals(detail::trim(line.substr(0, eq)), key)) continue;
    const std::string_view value = detail::trim(line.substr(eq + 1));
    if (!value.empty()) found = std::string(value);  // the last one counts
  }
  return found;
}

result<s3_config> resolve_s3_config(const env_reader& env) {
  s3_config c;
  const std::string credentials_file =
      home_file(env, "AWS_SHARED_CREDENTIALS_FILE", "/.aws/credentials");
  const std::string config_file =
      home_file(env, "AWS_CONFIG_FILE", "/.aws/config");
  const std::optional<std::string> named_profile = env("AWS_PROFILE");
  const std::string profile = named_profile.value_or("default");
  const std::optional<std::string> credentials_text =
      credentials_file.empty() ? std::nullopt : read_text(credentials_file);
  const std::optional<std::string> config_text =
      config_file.empty() ? std::nullopt : read_text(config_file);
  const std::string config_section =
      profile == "default" ? profile : "profile " + profile;

  // A key of the profile: the credentials file first, then the config file.
  auto profile_value = [&](std::string_view key) -> std::optional<std::string> {
    if (credentials_text)
      if (auto v = ini_value(*credentials_text, profile, key)) return v;
    if (config_text)
      if (auto v = ini_value(*config_text, config_section, key)) return v;
    return std::nullopt;
  };
  auto has_section = [](const std::optional<std::string>& text,
                        const std::string& section) {
    if (!text) return false;
    for (std::string_view rest = *text; !rest.empty();) {
      const std::size_t nl = rest.find('\n');
      std::string_view line = detail::trim(rest.substr(0, nl));
      rest = nl == std::string_view::npos ? std::string_view{}
                                          : rest.substr(nl + 1);
      if (line.size() > 2 && line.front() == '[' && line.back() == ']' &&
          detail::iequals(detail::trim(line.substr(1, line.size() - 2)),
                          section))
        return true;
    }
    return false;
  };

  auto key_id = env("AWS_ACCESS_KEY_ID");
  auto secret = env("AWS_SECRET_ACCESS_KEY");
  if (key_id && secret) {
    c.credentials.access_key_id = *key_id;
    c.credentials.secret_access_key = *secret;
    c.credentials.session_token = env("AWS_SESSION_TOKEN").value_or("");
    c.credentials_from = "the environment (AWS_ACCESS_KEY_ID)";
  } else {
    if (named_profile && !has_section(credentials_text, profile) &&
        !has_section(config_text, config_section))
      return error{"AWS_PROFILE names profile " + profile + ", which neither " +
                   credentials_file + " nor " + config_file + " holds"};
    auto id = profile_value("aws_access_key_id");
    auto key = profile_value("aws_secret_access_key");
    if (!id || !key)
      return error{
          "no S3 credentials: set AWS_ACCESS_KEY_ID and "
          "AWS_SECRET_ACCESS_KEY, or give profile " +
          profile + " aws_access_key_id and aws_secret_access_key in " +
          (credentials_file.empty() ? std::string("~/.aws/credentials")
                                    : credentials_file)};
    c.credentials.access_key_id = std::move(*id);
    c.credentials.secret_access_key = std::move(*key);
    c.credentials.session_token =
        profile_value("aws_session_token").value_or("");
    c.credentials_from = "profile " + profile;
  }

  if (auto r = env("AWS_REGION"))
    c.region = *r;
  else if (auto d = env("AWS_DEFAULT_REGION"))
    c.region = *d;
  else if (auto p = profile_value("region"))
    c.region = *p;

  std::optional<std::string> endpoint = env("AWS_ENDPOINT_URL_S3");
  if (!endpoint) endpoint = env("AWS_ENDPOINT_URL");
  if (!endpoint) endpoint = profile_value("endpoint_url");
  if (endpoint) {
    std::string e = *endpoint;
    while (e.ends_with('/')) e.pop_back();
    if (!detail::istarts_with(e, "http://") &&
        !detail::istarts_with(e, "https://"))
      return error{"the S3 endpoint " + e + " is not an http(s) URL"};
    if (e.find('/', e.find("//") + 2) != std::string::npos)
      return error{"the S3 endpoint " + e +
                   " has a path; give only scheme, host and port"};
    c.endpoint = std::move(e);
    c.path_style = true;
  } else {
    c.endpoint = "https://s3." + c.region + ".amazonaws.com";
  }
  return c;
}

}  // namespace sitemill::store
