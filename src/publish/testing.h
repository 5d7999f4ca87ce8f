// What only crash tests change in a publisher, kept out of its public face:
// the hook called after each publish_step, where a test (or the CLI's
// SITEMILL_TEST_KILL_AT, docs/publishing.md) ends the process to prove what a
// kill at that moment leaves. The tests, the generate run's outputs and the
// merge include this header; nothing else should.
#ifndef SITEMILL_PUBLISH_TESTING_H
#define SITEMILL_PUBLISH_TESTING_H

#include <functional>
#include <utility>

#include "sitemill/publish/publish.h"

namespace sitemill::detail {

struct publisher_testing {
  /// Calls `hook` after each step of p.publish(), on the publishing thread.
  static void set_after_step(publisher& p,
                             std::function<void(publish_step)> hook) {
    p.after_step_ = std::move(hook);
  }
};

}  // namespace sitemill::detail

#endif  // SITEMILL_PUBLISH_TESTING_H
