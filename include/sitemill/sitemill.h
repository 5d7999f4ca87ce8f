// sitemill: a toolkit for the sitemaps.org protocol. This header includes
// every public component. Data flows one way:
//
//   record_reader (source) -> entry_builder (entry) -> sitemap_writer (writer)
//     -> sink (file_sink, gzip_sink, memory_sink) -> publisher (atomic publish)
//
// check() reads through the same sitemap_parser as --from-sitemap; notify.h
// announces a published set. generate() runs the whole writing pipeline:
//
//   sitemill::generate_options o;
//   o.inputs = {"urls.txt"};
//   o.base_url = "https://www.example.com/";
//   o.out_dir = "public";
//   sitemill::generate_observer quiet;
//   auto report = sitemill::generate(o, quiet);
//
// Errors on the hot path are values (url_problem, add_status, status,
// result<T>); the library throws only std::bad_alloc.
#ifndef SITEMILL_SITEMILL_H
#define SITEMILL_SITEMILL_H

#include "sitemill/check.h"
#include "sitemill/diagnostic.h"
#include "sitemill/entry.h"
#include "sitemill/fields.h"
#include "sitemill/generate.h"
#include "sitemill/html_page.h"
#include "sitemill/http.h"
#include "sitemill/limits.h"
#include "sitemill/notify.h"
#include "sitemill/publish.h"
#include "sitemill/record_reader.h"
#include "sitemill/result.h"
#include "sitemill/robots.h"
#include "sitemill/robots_rules.h"
#include "sitemill/sink.h"
#include "sitemill/site_source.h"
#include "sitemill/sitemap_parser.h"
#include "sitemill/sitemap_source.h"
#include "sitemill/state_db.h"
#include "sitemill/url.h"
#include "sitemill/w3c_datetime.h"
#include "sitemill/writer.h"
#include "sitemill/xml_escape.h"

#endif  // SITEMILL_SITEMILL_H
