// What the notify tests (robots, ping, indexnow, with and without --json)
// send: one sitemap URL, its percent-encoded form, and an IndexNow key.
#ifndef SITEMILL_TESTS_NOTIFY_SUPPORT_H
#define SITEMILL_TESTS_NOTIFY_SUPPORT_H

#include <string>

namespace sitemill::testing {

inline constexpr const char* kSitemap = "https://www.example.com/sitemap.xml";
inline constexpr const char* kKey = "3f6c2b1a9e8d4c7b";
inline const std::string kEncoded =
    "https%3A%2F%2Fwww.example.com%2Fsitemap.xml";

}  // namespace sitemill::testing

#endif  // SITEMILL_TESTS_NOTIFY_SUPPORT_H
