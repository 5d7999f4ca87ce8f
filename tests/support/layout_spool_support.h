// What the stable layout's spool tests share: fresh temporary names, and a
// reader that keeps every leaf with its records, checking that the spool
// begins and ends each leaf once.
#ifndef SITEMILL_TESTS_SUPPORT_LAYOUT_SPOOL_SUPPORT_H
#define SITEMILL_TESTS_SUPPORT_LAYOUT_SPOOL_SUPPORT_H

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "generate/layout_spool.h"
#include "support/run.h"

namespace sitemill::testing {

struct collected_leaf {
  detail::layout_leaf leaf;
  std::vector<std::string> payloads;
};

struct leaf_collector : detail::layout_spool::reader {
  std::vector<collected_leaf> leaves;
  bool open = false;
  status begin(const detail::layout_leaf& l) override {
    EXPECT_FALSE(open);
    open = true;
    leaves.push_back({l, {}});
    return {};
  }
  status entry(std::string_view payload) override {
    EXPECT_TRUE(open);
    leaves.back().payloads.emplace_back(payload);
    return {};
  }
  status end(const detail::layout_leaf&) override {
    open = false;
    return {};
  }
};

// Fresh names, as a run's temporaries have (a level below reuses files
// while another level's are alive): one counter for every copy, since each
// level below has one.
inline detail::layout_spool::temp_namer layout_namer(const temp_dir& d) {
  return [&d, n = std::make_shared<int>(0)](std::string_view what) {
    return d / (std::to_string((*n)++) + "-" + std::string(what));
  };
}

}  // namespace sitemill::testing

#endif  // SITEMILL_TESTS_SUPPORT_LAYOUT_SPOOL_SUPPORT_H
