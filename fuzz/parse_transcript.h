// Everything a parse_handler hears, in order, flattened to strings: what
// the scanner's fuzz target and its differential test
// (tests/xml_scanner_differential_test.cpp) compare between the two
// reading paths. Header-only: the fuzz targets and the tests are built
// apart.
#ifndef SITEMILL_FUZZ_PARSE_TRANSCRIPT_H
#define SITEMILL_FUZZ_PARSE_TRANSCRIPT_H

#include <string>
#include <utility>
#include <vector>

#include "sitemill/parse/sitemap_parser.h"

namespace sitemill::fuzzing {

struct transcript final : parse_handler {
  std::vector<std::string> events;
  void on_document(document_kind k) override {
    events.push_back("kind " + std::string(to_string(k)));
  }
  void on_entry(const parsed_entry& e) override {
    std::string s = "entry " + std::to_string(e.index) + " " +
                    std::to_string(e.line) + ":" + std::to_string(e.column);
    for (const parsed_field* f :
         {&e.loc, &e.lastmod, &e.changefreq, &e.priority}) {
      s += '|';
      if (!f->present) continue;
      s += std::to_string(f->line) + ":" + std::to_string(f->column) + "=";
      s.append(f->text);
    }
    for (const extension_value& x : e.extensions) {
      s += "|x" + std::to_string(static_cast<int>(x.field)) + "@" +
           std::to_string(x.item) + "=";
      s.append(x.text);
    }
    s += "|f=";
    s.append(e.foreign_xml);
    events.push_back(std::move(s));
  }
  void on_diagnostic(const diagnostic& d) override {
    events.push_back("diag " + d.code + " " + std::to_string(d.line) + ":" +
                     std::to_string(d.column) + " " + d.message);
  }
};

}  // namespace sitemill::fuzzing

#endif  // SITEMILL_FUZZ_PARSE_TRANSCRIPT_H
