// The directory source at scale: makes a site of N small HTML pages, and
// times reading all of it through open_site_source() with --lastmod content
// (walk, read, parse, hash, state lookups) and the state commit.
// Driven by site_bench.sh; a plain main(), not Google Benchmark, since one
// run over 100,000 files is the measurement.
//
//   site_bench make DIR N              # N pages in DIR/s-XXX/p-YYYYY.html
//   site_bench read DIR STATE [mtime|content|none]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "sitemill/source/record_reader.h"
#include "sitemill/source/site_source.h"
#include "sitemill/source/state_db.h"

namespace {

namespace fs = std::filesystem;

int usage() {
  std::fprintf(stderr,
               "usage: site_bench make DIR N\n"
               "       site_bench read DIR STATE [mtime|content|none]\n");
  return 2;
}

// A page as a static-site generator writes it: ~1.5 KB with a head full
// of build output, navigation, a few paragraphs.
std::string page_text(unsigned section, unsigned n) {
  std::string s =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"generator\" content=\"Hugo 0.120.4\">\n"
      "<title>Page " +
      std::to_string(n) + " of section " + std::to_string(section) +
      "</title>\n<meta name=\"description\" content=\"About item " +
      std::to_string(n) +
      "\">\n<link rel=\"stylesheet\" href=\"/css/main.3f2a9c.css\">\n"
      "<script src=\"/js/app.91bc.js\" defer></script>\n</head>\n<body>\n"
      "<nav><a href=\"/\">Home</a> <a href=\"/about/\">About</a> "
      "<a href=\"/s-" +
      std::to_string(section) + "/\">Section</a></nav>\n<main>\n<h1>Item " +
      std::to_string(n) + "</h1>\n";
  for (int p = 0; p < 4; ++p) {
    s += "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do "
         "eiusmod tempor incididunt ut labore et dolore magna aliqua, item " +
         std::to_string(n * 4 + static_cast<unsigned>(p)) + ". <a href=\"/s-" +
         std::to_string(section) + "/p-" + std::to_string(n + 1) +
         ".html\">Next</a></p>\n";
  }
  s += "<img src=\"/img/item-" + std::to_string(n) +
       ".jpg\" alt=\"Item photo\">\n</main>\n<footer>&copy; Example</footer>\n"
       "</body>\n</html>\n";
  return s;
}

int make(const fs::path& dir, unsigned long count) {
  constexpr unsigned per_section = 1000;
  for (unsigned long i = 0; i < count; ++i) {
    const auto section = static_cast<unsigned>(i / per_section);
    const auto n = static_cast<unsigned>(i % per_section);
    char name[64];
    std::snprintf(name, sizeof name, "s-%03u", section);
    const fs::path sub = dir / name;
    if (n == 0) fs::create_directories(sub);
    std::snprintf(name, sizeof name, n == 0 ? "index.html" : "p-%05u.html", n);
    std::ofstream(sub / name, std::ios::binary) << page_text(section, n);
  }
  return 0;
}

int read(const std::string& dir, const std::string& state_path,
         std::string_view policy_name) {
  const auto policy = sitemill::parse_lastmod_policy(policy_name);
  if (!policy) return usage();
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<sitemill::state_db> state;
  if (*policy == sitemill::lastmod_policy::content) {
    auto opened = sitemill::state_db::open(state_path);
    if (!opened) {
      std::fprintf(stderr, "%s\n", opened.err().message.c_str());
      return 1;
    }
    state = std::move(opened).value();
    if (auto s = state->begin_run(); !s) {
      std::fprintf(stderr, "%s\n", s.message().c_str());
      return 1;
    }
  }
  sitemill::site_source_options options;
  options.root = dir;
  options.base_url = "https://www.example.com/";
  options.lastmod = *policy;
  options.state = state.get();
  auto reader = sitemill::open_site_source(options);
  if (!reader) {
    std::fprintf(stderr, "%s\n", reader.err().message.c_str());
    return 1;
  }
  sitemill::input_record record;
  unsigned long pages = 0, skipped = 0, problems = 0;
  while ((*reader)->next(record)) {
    if (!record.problem.empty()) {
      ++problems;
    } else if (!record.skipped.empty()) {
      ++skipped;
    } else {
      ++pages;
    }
  }
  if (!(*reader)->error().empty()) {
    std::fprintf(stderr, "%s\n", (*reader)->error().c_str());
    return 1;
  }
  const auto read_done = std::chrono::steady_clock::now();
  std::size_t added = 0, changed = 0, removed = 0;
  if (state) {
    auto changes = state->changes();
    if (changes) {
      added = changes->added.size();
      changed = changes->changed.size();
      removed = changes->removed.size();
    }
    if (auto s = state->commit_run(); !s) {
      std::fprintf(stderr, "%s\n", s.message().c_str());
      return 1;
    }
  }
  const auto end = std::chrono::steady_clock::now();
  const double read_s =
      std::chrono::duration<double>(read_done - start).count();
  const double total_s = std::chrono::duration<double>(end - start).count();
  // One line, key=value, for the script to put in its table.
  std::printf(
      "pages=%lu skipped=%lu problems=%lu read_s=%.3f commit_s=%.3f "
      "total_s=%.3f pages_per_s=%.0f added=%zu changed=%zu removed=%zu\n",
      pages, skipped, problems, read_s, total_s - read_s, total_s,
      static_cast<double>(pages + skipped) / total_s, added, changed, removed);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 4 && std::string_view(argv[1]) == "make") {
    return make(argv[2], std::strtoul(argv[3], nullptr, 10));
  }
  if (argc >= 4 && std::string_view(argv[1]) == "read") {
    return read(argv[2], argv[3], argc >= 5 ? argv[4] : "content");
  }
  return usage();
}
