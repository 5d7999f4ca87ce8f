// sitemill: a toolkit for the sitemaps.org protocol. This header includes
// every public header under include/sitemill/ (the contract:
// tests/public_headers_test.cpp fails when one is not reached from here, and
// the build compiles each header on its own). A header that must stay out,
// one that pulls in a heavy dependency say, is named in this comment on a
// line "separate: sitemill/<folder>/<name>.h, <why>"; none is today, as no
// public header includes anything but the standard library. Data flows one
// way:
//
//   record_reader (source) -> entry_builder (entry) -> sitemap_writer (writer)
//     -> sink (file_sink, gzip_sink, memory_sink) -> publisher (atomic publish)
//
// The crawler (crawl/crawl_source.h) and the access-log source
// (source/log_source.h) are record sources too; html/html_page.h reads the
// facts of an HTML page. check(), --from-sitemap and the inspect/ pieces
// (compute_stats(), diff_sets()) read through one sitemap_walker
// (walk/walker.h) and one sitemap_parser; announce_set() (announce.h) lists a
// published set in robots.txt and tells IndexNow what changed; report/ renders
// the reports as JSON. audit_site() (audit/audit.h) compares a site's
// sitemaps with a crawl of its links. generate() runs the whole writing
// pipeline:
//
//   sitemill::generate_options o;
//   o.sources = {sitemill::list_source("urls.txt")};
//   o.base_url = "https://www.example.com/";
//   o.out_dir = "public";
//   sitemill::generate_observer quiet;
//   auto report = sitemill::generate(o, quiet);
//
// Errors on the hot path are values (url_problem, add_status, status,
// result<T>); the library throws only std::bad_alloc.
#ifndef SITEMILL_SITEMILL_H
#define SITEMILL_SITEMILL_H

#include "sitemill/atomic_file.h"
#include "sitemill/audit/audit.h"
#include "sitemill/check/check.h"
#include "sitemill/crawl/crawl_pages.h"
#include "sitemill/crawl/crawl_source.h"
#include "sitemill/date/dates.h"
#include "sitemill/date/lastmod_reading.h"
#include "sitemill/date/w3c_datetime.h"
#include "sitemill/diagnostic.h"
#include "sitemill/entry/entry.h"
#include "sitemill/entry/extensions.h"
#include "sitemill/entry/fields.h"
#include "sitemill/generate/generate.h"
#include "sitemill/generate/merge.h"
#include "sitemill/generate/shard.h"
#include "sitemill/html/html_page.h"
#include "sitemill/inspect/diff.h"
#include "sitemill/inspect/set_input.h"
#include "sitemill/inspect/stats.h"
#include "sitemill/limits.h"
#include "sitemill/net/credentials.h"
#include "sitemill/net/fetcher.h"
#include "sitemill/net/http.h"
#include "sitemill/notify/announce.h"
#include "sitemill/notify/indexnow.h"
#include "sitemill/notify/ping.h"
#include "sitemill/notify/submit.h"
#include "sitemill/numbers.h"
#include "sitemill/parse/sitemap_parser.h"
#include "sitemill/publish/bookkeeping.h"
#include "sitemill/publish/bucket.h"
#include "sitemill/publish/publish.h"
#include "sitemill/publish/set_assembly.h"
#include "sitemill/report/audit_html.h"
#include "sitemill/report/audit_json.h"
#include "sitemill/report/check_json.h"
#include "sitemill/report/diff_json.h"
#include "sitemill/report/finding_lines.h"
#include "sitemill/report/generate_json.h"
#include "sitemill/report/issue_spool.h"
#include "sitemill/report/merge_json.h"
#include "sitemill/report/notify_json.h"
#include "sitemill/report/report_html.h"
#include "sitemill/report/stats_json.h"
#include "sitemill/result.h"
#include "sitemill/robots/robots.h"
#include "sitemill/robots/robots_edit.h"
#include "sitemill/robots/robots_rules.h"
#include "sitemill/small_file.h"
#include "sitemill/source/log_source.h"
#include "sitemill/source/page_source.h"
#include "sitemill/source/record_reader.h"
#include "sitemill/source/record_source.h"
#include "sitemill/source/site_source.h"
#include "sitemill/source/sitemap_source.h"
#include "sitemill/source/state_db.h"
#include "sitemill/url/url.h"
#include "sitemill/version.h"
#include "sitemill/walk/site.h"
#include "sitemill/walk/walker.h"
#include "sitemill/write/html_view.h"
#include "sitemill/write/sink.h"
#include "sitemill/write/stylesheet.h"
#include "sitemill/write/writer.h"
#include "sitemill/write/xml_escape.h"

#endif  // SITEMILL_SITEMILL_H
