// Fuzzes the reader of the generate report (read_generate_json()), which
// reads files people hand to `sitemill indexnow --from-manifest`, and aborts
// when an invariant breaks, not only on a crash:
//  * whatever it accepts, the writer writes, and the reader reads that back;
//  * writing what was read is a fixed point: read(write(r)) writes the same
//    bytes again (the writer is canonical, the reader loses nothing of it);
//  * reading without the issue lists accepts what reading with them does,
//    and counts what it keeps.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>

#include "sitemill/report/generate_json.h"

namespace {

void check(bool condition) {
  if (!condition) std::abort();
}

std::string write(const sitemill::generate_json_contents& read) {
  sitemill::issue_spool spool;
  for (const auto& i : read.rejected)
    spool.add(sitemill::issue_kind::rejected, i);
  for (const auto& i : read.warnings)
    spool.add(sitemill::issue_kind::warning, i);
  for (const auto& i : read.skipped)
    spool.add(sitemill::issue_kind::skipped, i);
  std::string text;
  sitemill::memory_sink out(&text);
  std::span<const sitemill::announcement> announced;
  if (read.announced) announced = {&*read.announced, 1};
  check(static_cast<bool>(
      sitemill::write_generate_json(out, read.report, spool, announced)));
  return text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto read = sitemill::read_generate_json(text);
  const auto counted = sitemill::read_generate_json(text, {.issues = false});
  if (!read) {
    check(!read.err().message.empty());
    return 0;
  }
  // Without the lists their elements are only counted, not checked, so only
  // this way round.
  check(counted.has_value());
  check(read->report.rejected == read->rejected.size());
  check(counted->report.rejected == read->report.rejected);
  check(counted->report.warnings == read->report.warnings);
  check(counted->report.skipped == read->report.skipped);
  check(counted->rejected.empty() && counted->skipped.empty());

  const std::string once = write(*read);
  const auto again = sitemill::read_generate_json(once);
  check(again.has_value());
  check(write(*again) == once);
  return 0;
}
