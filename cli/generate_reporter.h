// sitemill generate's voice while it runs: each rejected record, warning
// and skipped page on stderr (the first few hundred, then only a count), a
// progress line redrawn on a terminal, and every issue kept for --json.
#ifndef SITEMILL_CLI_GENERATE_REPORTER_H
#define SITEMILL_CLI_GENERATE_REPORTER_H

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>

#include "sitemill/crawl/crawl_source.h"
#include "sitemill/generate/generate.h"
#include "sitemill/report/issue_spool.h"
#include "vocabulary.h"

namespace sitemill::cli {

/// Prints issues to stderr as FILE:LINE: kind: reason, in the command's
/// words, keeps every one in an issue_spool for --json so memory stays flat,
/// and draws a progress line on a terminal. The generate run and a crawl's
/// thread may call it at once.
class generate_reporter final : public generate_observer {
 public:
  /// `spool`: keep every issue for --json; `quiet`: print rejections only;
  /// `words` must outlive the reporter.
  generate_reporter(bool spool, bool quiet, std::span<const term> words);

  void rejected(const record_issue& r) override;
  void warning(const record_issue& r) override;
  void skipped(const record_issue& r) override;
  /// Kept for --json; printed under -v only ("FILE:LINE: duplicate: URL
  /// repeats line N"), counted in the summary otherwise.
  void duplicate(const duplicate_record& d) override;
  /// "sitemill: 1,234,567 records (410,000/s), 25 files, 43% of 120 MB,
  /// about 0:07 left": the rate always, the share and the time left when
  /// every input's size is known.
  void progress(const generate_progress& now) override;
  bool cancelled() override;

  /// "sitemill: crawl: 1,234 pages (456/s), 789 queued, 1,100 listed,
  /// 3 errors", from the crawl's own thread (crawl_options::progress).
  void crawl_progress(const sitemill::crawl_progress& p);

  /// Erases the progress line, so the run's summary starts on a clean line.
  void clear_progress();
  /// How many issues were counted but not printed, if any.
  void print_hidden_count();

  /// Every issue of the run; only with `spool`.
  const issue_spool& spool() const { return *spool_; }

 private:
  void note(const record_issue& issue, issue_kind kind);
  void draw(const std::string& line);
  void clear_progress_locked();

  bool quiet_;
  std::span<const term> words_;
  bool progress_ = false;
  std::mutex draw_mu_;  // the crawl's progress comes from its own thread
  bool drawn_ = false;
  std::optional<issue_spool> spool_;
  std::uint64_t printed_ = 0;
  std::uint64_t hidden_ = 0;
  std::chrono::steady_clock::time_point last_draw_{};
  std::chrono::steady_clock::time_point start_ =
      std::chrono::steady_clock::now();
};

}  // namespace sitemill::cli

#endif  // SITEMILL_CLI_GENERATE_REPORTER_H
