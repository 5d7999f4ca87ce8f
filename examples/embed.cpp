// Embedding sitemill: turn URLs a program already has into sitemap files.
// Built by examples/CMakeLists.txt; with an installed sitemill:
//   g++ -std=c++20 embed.cpp $(pkg-config --cflags --libs sitemill)
#include <sitemill/sitemill.h>

#include <cstdio>

// The headers say which sitemill they are (sitemill/version.h).
static_assert(SITEMILL_VERSION_NUMBER >= 0x000100, "sitemill 0.1 or later");
#include <deque>
#include <string>

int main() {
  // ... and the library which it is: they differ when a shared libsitemill
  // was upgraded under the program.
  std::printf("sitemill %s (headers %s)\n", sitemill::version(),
              SITEMILL_VERSION_STRING);
  // Every URL is normalised and held to the base's location rule.
  auto normalizer =
      sitemill::url_normalizer::with_base("https://www.example.com/");
  if (!normalizer) return 2;
  sitemill::entry_builder builder(*normalizer);

  // Files go to memory here; at most 2 URLs per file, to show rotation.
  std::deque<std::string> files;
  sitemill::writer_options options;
  options.max_urls = 2;
  sitemill::sitemap_writer writer(options, [&](std::size_t) {
    files.emplace_back();
    return sitemill::result<std::unique_ptr<sitemill::sink>>(
        std::make_unique<sitemill::memory_sink>(&files.back()));
  });

  const char* pages[][2] = {{"/", "2024-05-01"},
                            {"/caf\xC3\xA9?q=a&b", "2024-05-02T10:00:00Z"},
                            {"products/", ""},
                            {"ftp://elsewhere.example/", ""}};
  std::vector<sitemill::field_warning> warnings;
  for (const auto& [loc, lastmod] : pages) {
    sitemill::url_entry entry;
    auto built = builder.build(loc, lastmod, "", "", entry, warnings);
    if (built.problem != sitemill::url_problem::ok) {
      std::printf("skipped %s: %s\n", loc,
                  std::string(sitemill::describe(built.problem)).c_str());
      continue;
    }
    if (writer.add(entry) != sitemill::add_status::added) return 1;
  }
  if (!writer.finish()) return 1;
  for (const auto& f : files) std::printf("--- file ---\n%s", f.c_str());
  return files.size() == 2 && writer.parts()[0].urls == 2 ? 0 : 1;
}
