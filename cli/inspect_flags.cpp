#include "inspect_flags.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "sitemill/url/url.h"
#include "verbose.h"

namespace sitemill::cli {

const char* const bucket_input_help =
    "A set published to a bucket is read back from s3://BUCKET/PREFIX/ (its "
    "manifest\n"
    "beside the prefix names the entry) or one object from s3://BUCKET/KEY, "
    "with\n"
    "requests signed as generate --out s3:// signs them (AWS_* environment,\n"
    "~/.aws): a private bucket too. An index's children are the objects "
    "beside it\n"
    "that their URLs name (below the index's URL directory, never outside "
    "its\n"
    "prefix); what S3 refuses (NoSuchKey, AccessDenied, NoSuchBucket) is "
    "said.\n";

void inspect_flags::add_to(CLI::App& cmd) {
  cmd.add_option(
      "--set", run.set_name,
      "The set to read in a directory (or s3://BUCKET/PREFIX/) holding "
      "several "
      "(its manifest-SET.json; default: the only one, else "
      "\"sitemap\")");
  cmd.add_flag("--fetch-children", run.fetch_children,
               "Fetch a local index's children that are not found beside it");
  cmd.add_flag("--allow-private", run.allow_private,
               "Fetch from loopback and private addresses no input names");
  cmd.add_option("--max-documents", run.max_documents,
                 "Documents read at most per input")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--max-bytes", run.max_total_bytes,
                 "Uncompressed bytes read at most per input")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--timeout", timeout_s,
                 "Seconds one HTTP request may take, transfer included")
      ->check(CLI::Range(0.001, 86'400.0))
      ->capture_default_str();
  cmd.add_option("--max-time", max_time_s, "Seconds one input's walk may take")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
}

inspect_options inspect_flags::options() const {
  inspect_options o = run;
  o.http.total_timeout =
      std::chrono::milliseconds(static_cast<std::int64_t>(timeout_s * 1000.0));
  o.http.connect_timeout =
      std::min(o.http.connect_timeout, o.http.total_timeout);
  o.max_time = std::chrono::seconds(static_cast<std::int64_t>(max_time_s));
  trace_walk(o, o.http);
  return o;
}

namespace {

// "s3://...", in any case: a bucket's prefix or one of its objects.
bool names_bucket(std::string_view target) {
  if (target.size() < 5) return false;
  std::string scheme(target.substr(0, 5));
  for (char& ch : scheme) ch = static_cast<char>(std::tolower(ch));
  return scheme == "s3://";
}

}  // namespace

status resolve_set_target(std::string& target, const http_options& http) {
  std::error_code ec;
  if (!names_bucket(target) &&
      (has_http_scheme(target) || !std::filesystem::is_directory(target, ec)))
    return {};
  auto in = resolve_set_input(target, {}, http);
  if (!in) {
    std::string why = in.err().message;
    if (in.err().field == "set_name")  // no --set here: name a file
      why = why.substr(0, why.find("; choose")) + "; name the set's entry file";
    return error{std::move(why)};
  }
  target = in->target;
  return {};
}

}  // namespace sitemill::cli
