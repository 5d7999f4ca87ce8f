// sitemill: the rejected records, warnings and skipped pages of a generate
// run, kept on disk so that a report can list millions of them.
//
// A run may reject every record of a million-line list. The spool writes
// each issue to an unlinked temporary file as it comes (the memory it uses
// does not grow with the issues), and replays them, kind by kind, when a
// renderer writes the report (report/generate_json.h):
//
//   sitemill::issue_spool issues;          // a generate_observer
//   sitemill::generate_report r = sitemill::generate(options, issues);
//   sitemill::write_generate_json(out, r, issues);
//
// A front end that also prints issues as they come wraps the spool in its
// own observer and calls add().
//
// Thread-safety: none; generate() calls its observer from one thread.
#ifndef SITEMILL_REPORT_ISSUE_SPOOL_H
#define SITEMILL_REPORT_ISSUE_SPOOL_H

#include <array>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

#include "sitemill/generate/generate.h"
#include "sitemill/result.h"

namespace sitemill {

/// The lists of issues a generate report has: three of record_issue, and
/// the duplicates (add_duplicate(), for_each_duplicate()).
enum class issue_kind : std::uint8_t { rejected, warning, skipped, duplicate };

class issue_spool final : public generate_observer {
 public:
  /// Temporary files go to `temp_dir`; "" means $TMPDIR, or /tmp. Nothing is
  /// created before the first issue.
  explicit issue_spool(std::string temp_dir = "");
  ~issue_spool() override;
  issue_spool(const issue_spool&) = delete;
  issue_spool& operator=(const issue_spool&) = delete;

  /// Appends `issue` to the list of `kind`. After a failure (no temporary
  /// file, a full disk) later issues are only counted, and state() says why.
  void add(issue_kind kind, const record_issue& issue);

  void rejected(const record_issue& issue) override {
    add(issue_kind::rejected, issue);
  }
  void warning(const record_issue& issue) override {
    add(issue_kind::warning, issue);
  }
  void skipped(const record_issue& issue) override {
    add(issue_kind::skipped, issue);
  }
  void duplicate(const duplicate_record& d) override { add_duplicate(d); }

  /// Appends `d` to the list of issue_kind::duplicate, as add() does.
  void add_duplicate(const duplicate_record& d);

  /// Issues of `kind` added so far (kept or not).
  std::uint64_t count(issue_kind kind) const noexcept {
    return counts_[static_cast<std::size_t>(kind)];
  }

  /// Calls `visit` with each kept issue of `kind` (one of the three lists of
  /// record_issue; duplicates: for_each_duplicate()), in the order added. The
  /// issue passed is reused between calls: copy what must outlive one.
  /// Fails when the spool cannot be read back.
  [[nodiscard]] status for_each(
      issue_kind kind,
      const std::function<void(const record_issue&)>& visit) const;

  /// Calls `visit` with each kept duplicate, in the order added, as
  /// for_each() does.
  [[nodiscard]] status for_each_duplicate(
      const std::function<void(const duplicate_record&)>& visit) const;

  /// Success, or why some issues were not kept (the first failure).
  [[nodiscard]] status state() const { return failure_; }

 private:
  std::FILE* file_for(issue_kind kind);

  std::string temp_dir_;
  static constexpr std::size_t kinds = 4;
  // A duplicate is kept as two records: {line, input, url}, then
  // {first_line, first_input, ""}.
  bool write(issue_kind kind, const record_issue& issue);
  std::array<std::FILE*, kinds> files_{};
  std::array<std::uint64_t, kinds> counts_{};
  std::array<std::uint64_t, kinds> kept_{};  // whole records in each file
  status failure_;
};

}  // namespace sitemill

#endif  // SITEMILL_REPORT_ISSUE_SPOOL_H
