// HTML parsing for the crawler and the directory source: what scan_html()
// costs per page next to the parsers it could stand on. scan_html() was
// gumbo (18 MB/s; perf put 72% of a 20,000-page crawl's cycles in it, which
// kept the crawl short of issue 12's 10x) and is now sitemill's own
// tokenizer and tree construction (src/html/html_tokenizer.h); gumbo and
// libxml2's HTML parser (HTML 4 rules) stay here as the yardsticks, on a
// page like crawl_bench.sh's (11 KB: a head, a nav of ten links,
// paragraphs of text).
//
//   build/benchmarks/html_parsers_bench
//
// Bytes counted are the page's; rates are over CPU time.
#include <benchmark/benchmark.h>
#include <gumbo.h>
#include <libxml/HTMLparser.h>

#include <random>
#include <string>

#include "sitemill/html/html_page.h"

namespace {

const std::string& page() {
  static const std::string html = [] {
    static const char* const words[] = {
        "engine",   "content", "modified", "body", "fragment", "page",
        "protocol", "query",   "robots",   "host", "html",     "index",
        "search",   "date",    "redirect", "link", "canonical"};
    std::mt19937 rng(7);
    std::string h =
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">"
        "\n<title>Page 1</title>\n<meta name=\"viewport\" "
        "content=\"width=device-width\">\n<link rel=\"stylesheet\" "
        "href=\"/style.css\">\n</head>\n<body>\n<header><a href=\"/\">Home</a> "
        "<h1>Page 1</h1></header>\n<nav><ul>\n";
    for (int i = 0; i < 10; ++i) {
      const std::string n = std::to_string(rng() % 20000);
      h += "<li><a href=\"/s" + std::to_string(rng() % 100) + "/p" + n +
           ".html\">Page " + n + "</a></li>\n";
    }
    h += "</ul></nav>\n<main>\n";
    while (h.size() < 10'500) {
      h += "<p>";
      for (int w = 0; w < 28; ++w) {
        h += words[rng() % (sizeof words / sizeof words[0])];
        h += w == 27 ? "." : " ";
      }
      h += "</p>\n";
    }
    return h + "</main>\n<footer>sitemill</footer>\n</body>\n</html>\n";
  }();
  return html;
}

void count_bytes(benchmark::State& state) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(page().size()));
}

// What the crawler runs per page: every fact, links included, and the
// content hash.
void BM_ScanHtml(benchmark::State& state) {
  sitemill::html_scan_options o;
  o.links = true;
  for (auto _ : state) {
    sitemill::html_facts f = sitemill::scan_html(page(), o);
    benchmark::DoNotOptimize(f.links.data());
  }
  count_bytes(state);
}
BENCHMARK(BM_ScanHtml);

// gumbo alone: the tree it builds, and nothing read from it.
void BM_Gumbo(benchmark::State& state) {
  GumboOptions options = kGumboDefaultOptions;
  options.max_errors = 0;
  for (auto _ : state) {
    GumboOutput* out =
        gumbo_parse_with_options(&options, page().data(), page().size());
    benchmark::DoNotOptimize(out);
    gumbo_destroy_output(&options, out);
  }
  count_bytes(state);
}
BENCHMARK(BM_Gumbo);

// libxml2's HTML parser building its tree (HTML 4 rules, not HTML5's).
void BM_Libxml2Tree(benchmark::State& state) {
  for (auto _ : state) {
    htmlDocPtr doc = htmlReadMemory(
        page().data(), static_cast<int>(page().size()), nullptr, "utf-8",
        HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET |
            HTML_PARSE_RECOVER | HTML_PARSE_COMPACT);
    benchmark::DoNotOptimize(doc);
    xmlFreeDoc(doc);
  }
  count_bytes(state);
}
BENCHMARK(BM_Libxml2Tree);

// libxml2's HTML parser through SAX, counting <a> elements: no tree.
void BM_Libxml2Sax(benchmark::State& state) {
  htmlSAXHandler sax{};
  sax.startElement = [](void* ctx, const xmlChar* name, const xmlChar**) {
    if (name[0] == 'a' && name[1] == 0) ++*static_cast<int*>(ctx);
  };
  int anchors = 0;
  for (auto _ : state) {
    htmlParserCtxtPtr ctxt = htmlCreatePushParserCtxt(
        &sax, &anchors, nullptr, 0, nullptr, XML_CHAR_ENCODING_UTF8);
    htmlCtxtUseOptions(ctxt, HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                                 HTML_PARSE_NONET | HTML_PARSE_RECOVER);
    htmlParseChunk(ctxt, page().data(), static_cast<int>(page().size()), 1);
    htmlFreeParserCtxt(ctxt);
  }
  benchmark::DoNotOptimize(anchors);
  count_bytes(state);
}
BENCHMARK(BM_Libxml2Sax);

}  // namespace

BENCHMARK_MAIN();
