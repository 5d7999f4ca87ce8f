// The hardening campaign's tally: tests that exercise crash points, fault
// cases or hostile inputs say how many they ran, so every CI run can print
// one summary line (scripts/test.sh sums the log it names). Nothing is
// written when SITEMILL_CAMPAIGN_LOG is unset (a test run by hand).
#ifndef SITEMILL_TESTS_SUPPORT_CAMPAIGN_H
#define SITEMILL_TESTS_SUPPORT_CAMPAIGN_H

#include <cstdint>
#include <string_view>

namespace sitemill::test {

/// What a tally counts; each is one column of the summary line.
enum class campaign_kind { crash_point, fault_case, hostile_input };

/// Adds `count` exercised cases of `kind` to the run's log. Safe from
/// concurrent test processes: one O_APPEND write per call.
void campaign_tally(campaign_kind kind, std::uint64_t count);

}  // namespace sitemill::test

#endif  // SITEMILL_TESTS_SUPPORT_CAMPAIGN_H
