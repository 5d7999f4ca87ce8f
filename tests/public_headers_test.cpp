// The public surface is a contract: sitemill.h reaches every header under
// include/sitemill/, directly or through what it includes, unless its comment
// names the header on a "separate: sitemill/....h, why" line. The headers are
// listed from the source tree, so a new one is held to this without a list
// here. (That each compiles on its own is cmake/PublicHeaders.cmake's check.)
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path include_dir = fs::path(SITEMILL_SOURCE_DIR) / "include";
// version.h is made by CMake from cmake/version.h.in.
const fs::path built_include_dir = fs::path(SITEMILL_BUILD_DIR) / "include";

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Every `#include "sitemill/..."` of `text`, as written.
std::vector<std::string> sitemill_includes(const std::string& text) {
  static const std::regex include(R"re(#include\s+"(sitemill/[^"]+)")re");
  std::vector<std::string> out;
  for (auto m = std::sregex_iterator(text.begin(), text.end(), include);
       m != std::sregex_iterator(); ++m)
    out.push_back((*m)[1]);
  return out;
}

// The headers reached from `start`, itself included.
std::set<std::string> reached_from(const std::string& start) {
  std::set<std::string> seen;
  std::vector<std::string> todo = {start};
  while (!todo.empty()) {
    const std::string h = todo.back();
    todo.pop_back();
    if (!seen.insert(h).second) continue;
    fs::path p = include_dir / h;
    if (!fs::exists(p)) p = built_include_dir / h;
    EXPECT_TRUE(fs::exists(p)) << h << " is included but does not exist";
    for (const std::string& next : sitemill_includes(read_text(p)))
      todo.push_back(next);
  }
  return seen;
}

std::set<std::string> public_headers() {
  std::set<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(include_dir))
    if (e.is_regular_file() && e.path().extension() == ".h")
      out.insert(e.path().lexically_relative(include_dir).generic_string());
  return out;
}

// The headers sitemill.h's comment names as kept out, with why.
std::set<std::string> documented_separate() {
  static const std::regex line(R"re(//\s*separate:\s*(sitemill/\S+\.h),)re");
  const std::string text = read_text(include_dir / "sitemill/sitemill.h");
  std::set<std::string> out;
  for (auto m = std::sregex_iterator(text.begin(), text.end(), line);
       m != std::sregex_iterator(); ++m)
    out.insert((*m)[1]);
  return out;
}

TEST(PublicHeaders, TheUmbrellaReachesEveryPublicHeader) {
  const std::set<std::string> reached = reached_from("sitemill/sitemill.h");
  const std::set<std::string> separate = documented_separate();
  const std::set<std::string> headers = public_headers();
  ASSERT_GT(headers.size(), 50u) << "no headers under " << include_dir;
  for (const std::string& h : headers) {
    EXPECT_TRUE(reached.count(h) || separate.count(h))
        << h
        << " is neither included by sitemill.h nor named there as "
           "\"separate: "
        << h << ", <why>\"";
  }
}

TEST(PublicHeaders, ASeparateHeaderExistsAndIsNotIncludedAfterAll) {
  const std::set<std::string> reached = reached_from("sitemill/sitemill.h");
  for (const std::string& h : documented_separate()) {
    EXPECT_TRUE(fs::exists(include_dir / h)) << h << " is named but gone";
    EXPECT_FALSE(reached.count(h)) << h << " is named separate but included";
  }
}

}  // namespace
