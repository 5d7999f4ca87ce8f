#include "generate_reporter.h"

#include <unistd.h>

#include <cstdio>
#include <string>

#include "colour.h"
#include "command.h"
#include "sitemill/numbers.h"
#include "verbose.h"

namespace sitemill::cli {
namespace {

// Diagnostics printed one per line before the rest are only counted.
constexpr std::uint64_t max_printed_issues = 200;

// " (410,000/s)" once half a second has passed, so the first draws show no
// rate from too few records.
std::string rate(std::uint64_t count, double seconds) {
  if (seconds < 0.5) return {};
  return " (" +
         with_commas(
             static_cast<std::uint64_t>(static_cast<double>(count) / seconds)) +
         "/s)";
}

}  // namespace

generate_reporter::generate_reporter(bool spool, bool quiet,
                                     std::span<const term> words)
    : quiet_(quiet), words_(words) {
  if (spool) spool_.emplace();
  // Under --verbose every line is kept: no line is redrawn over them.
  progress_ = !quiet && !verbose() && ::isatty(STDERR_FILENO);
}

void generate_reporter::rejected(const record_issue& r) {
  note(r, issue_kind::rejected);
}
void generate_reporter::warning(const record_issue& r) {
  note(r, issue_kind::warning);
}
void generate_reporter::skipped(const record_issue& r) {
  note(r, issue_kind::skipped);
}

void generate_reporter::duplicate(const duplicate_record& d) {
  if (spool_) spool_->add_duplicate(d);
  if (quiet_ || !verbose()) return;
  std::string first = "an earlier record";
  if (d.first_line > 0)
    first = (d.first_input == d.input ? "line " : d.first_input + ":") +
            std::to_string(d.first_line);
  std::lock_guard lock(draw_mu_);
  clear_progress_locked();
  std::fprintf(stderr, "%s:%llu: %s: %s repeats %s\n", d.input.c_str(),
               static_cast<unsigned long long>(d.line),
               painted(stderr, "duplicate", paint::info).c_str(), d.url.c_str(),
               first.c_str());
}

void generate_reporter::progress(const generate_progress& now) {
  if (!progress_) return;
  std::lock_guard lock(draw_mu_);
  const auto at = std::chrono::steady_clock::now();
  if (at - last_draw_ < std::chrono::milliseconds(200)) return;
  last_draw_ = at;
  const double seconds = std::chrono::duration<double>(at - start_).count();
  std::string line = "sitemill: " + counted(now.records, "record", "records") +
                     rate(now.records, seconds);
  line += ", " + counted(now.files, "file", "files");
  if (now.input_bytes_total > 0) {
    const double share = static_cast<double>(now.input_bytes_read) /
                         static_cast<double>(now.input_bytes_total);
    line += ", " + std::to_string(static_cast<int>(share * 100.0)) + "% of " +
            human_bytes(now.input_bytes_total);
    if (seconds >= 0.5 && share > 0.0 && share < 1.0)
      line +=
          ", about " + clock_time(seconds * (1.0 - share) / share) + " left";
  }
  draw(line);
}

void generate_reporter::crawl_progress(const sitemill::crawl_progress& p) {
  if (!progress_) return;
  std::lock_guard lock(draw_mu_);
  if (p.done) return;  // the summary follows
  last_draw_ = std::chrono::steady_clock::now();
  std::string line = "sitemill: crawl: " + counted(p.fetched, "page", "pages") +
                     rate(p.fetched, p.seconds);
  line += ", " + with_commas(p.queued) + " queued, " + with_commas(p.listed) +
          " listed";
  if (p.errors > 0) line += ", " + counted(p.errors, "error", "errors");
  draw(line);
}

bool generate_reporter::cancelled() { return interrupted(); }

void generate_reporter::clear_progress() {
  std::lock_guard lock(draw_mu_);
  clear_progress_locked();
}

void generate_reporter::print_hidden_count() {
  if (hidden_ > 0)
    std::fprintf(
        stderr, "sitemill: %s more rejected records and warnings not shown%s\n",
        with_commas(hidden_).c_str(), spool_ ? "" : " (--json lists them all)");
}

void generate_reporter::note(const record_issue& issue, issue_kind kind) {
  record_issue mapped;
  const record_issue* in_words = &issue;
  if (issue.reason.find('`') != std::string::npos) {
    mapped = issue;
    to_cli_words(mapped.reason, words_);
    in_words = &mapped;
  }
  const record_issue& r = *in_words;
  if (spool_) spool_->add(kind, r);
  if (quiet_ && kind != issue_kind::rejected) return;
  if (printed_ >= max_printed_issues && !verbose()) {
    ++hidden_;
    return;
  }
  ++printed_;
  std::lock_guard lock(draw_mu_);
  clear_progress_locked();
  const std::string word =
      kind == issue_kind::rejected  ? painted(stderr, "rejected", paint::error)
      : kind == issue_kind::warning ? painted(stderr, "warning", paint::warning)
                                    : painted(stderr, "skipped", paint::info);
  if (r.line > 0)
    std::fprintf(stderr, "%s:%llu: %s: %s\n", r.input.c_str(),
                 static_cast<unsigned long long>(r.line), word.c_str(),
                 r.reason.c_str());
  else
    std::fprintf(stderr, "%s: %s: %s\n", r.input.c_str(), word.c_str(),
                 r.reason.c_str());
}

void generate_reporter::draw(const std::string& line) {
  std::fprintf(stderr, "\r%s\033[K", line.c_str());
  drawn_ = true;
}

void generate_reporter::clear_progress_locked() {
  if (drawn_) std::fputs("\r\033[K", stderr);
  drawn_ = false;
}

}  // namespace sitemill::cli
