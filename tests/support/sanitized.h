// Whether the tests are built under AddressSanitizer: memory is then measured
// on top of its shadow and quarantine (hundreds of MiB) and runs are slower,
// so tests that bound memory or size their inputs say what they do instead.
#ifndef SITEMILL_TESTS_SUPPORT_SANITIZED_H
#define SITEMILL_TESTS_SUPPORT_SANITIZED_H

#if defined(__SANITIZE_ADDRESS__)
#define SITEMILL_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SITEMILL_TEST_SANITIZED 1
#endif
#endif

namespace sitemill::testing {

#ifdef SITEMILL_TEST_SANITIZED
inline constexpr bool sanitized_build = true;
#else
inline constexpr bool sanitized_build = false;
#endif

}  // namespace sitemill::testing

#endif  // SITEMILL_TESTS_SUPPORT_SANITIZED_H
