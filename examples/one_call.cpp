// One call: pages a program holds become a published sitemap set (files
// split at the protocol's limits, gzip, an index, published atomically).
// Built by examples/CMakeLists.txt; with an installed sitemill:
//   g++ -std=c++20 one_call.cpp $(pkg-config --cflags --libs sitemill)
//   ./a.out public
#include <sitemill/sitemill.h>

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  struct product {
    std::string path, updated;
  };
  const std::vector<product> products = {{"shoes/red", "2026-11-20"},
                                         {"shoes/blue", "2026-11-21T09:30:00Z"},
                                         {"hats/", ""}};

  sitemill::generate_options g;
  g.base_url = "https://shop.example.com/";
  g.out_dir = argc > 1 ? argv[1] : "public";
  std::size_t i = 0;
  g.sources = {sitemill::page_source("products", [&](sitemill::page& p) {
    if (i == products.size()) return false;
    p.loc = products[i].path;
    p.lastmod = products[i].updated;
    ++i;
    return true;
  })};

  sitemill::generate_observer quiet;
  const sitemill::generate_report r = sitemill::generate(g, quiet);
  if (r.outcome != sitemill::generate_outcome::published) {
    std::fprintf(stderr, "not published: %s\n", r.message.c_str());
    return 1;
  }
  std::printf("%s: %llu URLs\n", r.entry_url.c_str(),
              static_cast<unsigned long long>(r.written));
  return r.written == products.size() ? 0 : 1;
}
