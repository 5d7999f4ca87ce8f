// sitemill: reading a published set for a person (its numbers, and what
// changed between two): which document a given input names.
//
// An input is one of:
//   * a directory holding a published set: its manifest (found as
//     publish/bookkeeping.h says: beside the directory, or left in it by an
//     earlier build) names the entry file; with no manifest, sitemap.xml or
//     sitemap.xml.gz in it is the entry;
//   * a manifest file itself, where a set's bookkeeping is by default;
//   * a sitemap file (an index or a urlset, gzip or not, sniffed);
//   * an http(s) URL of a sitemap (fetched by the walker, under its fetch
//     scope), or of a site ("https://www.example.com/": the sitemaps its
//     robots.txt names, or /sitemap.xml, as check finds them; walk/site.h);
//   * a set published to a bucket, "s3://BUCKET/PREFIX/" (the trailing '/',
//     or the bucket alone): its manifest, kept beside the prefix as the
//     bucket publisher keeps it (a/b/ -> a/.sitemill/b/manifest-SET.json,
//     docs/publishing.md), names the entry object; with no manifest,
//     PREFIX + sitemap.xml or sitemap.xml.gz is the entry. The requests are
//     signed as publishing signs them (the AWS_* environment, ~/.aws);
//   * one object of a bucket, "s3://BUCKET/KEY" (walker.h, "Buckets").
// Every document is then read through the one sitemap_walker and parser.
#ifndef SITEMILL_INSPECT_SET_INPUT_H
#define SITEMILL_INSPECT_SET_INPUT_H

#include <optional>
#include <string>
#include <string_view>

#include "sitemill/net/http.h"
#include "sitemill/parse/sitemap_parser.h"
#include "sitemill/publish/publish.h"
#include "sitemill/result.h"
#include "sitemill/walk/walker.h"

namespace sitemill {

/// How stats and diff read their inputs; the walk's caps are the options'
/// own fields, as in check_options.
struct inspect_options : walk_caps {
  /// schema_checks is off by default: stats and diff count entries, and the
  /// XSD verdict is check's job (and most of its time).
  parse_options parse = [] {
    parse_options p;
    p.schema_checks = false;
    return p;
  }();
  http_options http;
  /// Fetch a local index's children that have no file beside it.
  bool fetch_children = false;
  /// Fetch from loopback and private addresses no input names.
  bool allow_private = false;
  /// The set to read in a directory holding several (the <set> of its
  /// manifest-<set>.json); empty: the only one, else "sitemap".
  std::string set_name;
};

/// What an input names, ready to walk.
struct set_input {
  std::string given;   ///< as the user wrote it
  std::string target;  ///< the path or URL the walker starts from
  /// The manifest, when the input is a directory with one (or a manifest).
  std::optional<published_manifest> manifest;
  /// The set's directory, for a directory or manifest; "s3://BUCKET/PREFIX/"
  /// for a set in a bucket.
  std::string directory;
};

/// Resolves `given`; an error naming it when it is a directory (or a
/// bucket's prefix) without a set, an unreadable manifest, or a directory
/// with several sets and no `set_name` to choose ("sitemap" is chosen when
/// it is one of them). For a prefix, an error also when there is no S3
/// configuration or the bucket refuses the listing or the manifest (what S3
/// said: AccessDenied, NoSuchBucket, InvalidAccessKeyId), sent with `http`'s
/// timeouts, trace and cancel flag. Whether a file, URL or object can be
/// read is found out by walking it.
result<set_input> resolve_set_input(const std::string& given,
                                    std::string_view set_name = {},
                                    const http_options& http = {});

}  // namespace sitemill

#endif  // SITEMILL_INSPECT_SET_INPUT_H
