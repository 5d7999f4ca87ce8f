#include "source/line_reader.h"

#include <algorithm>
#include <cstring>

namespace sitemill::detail {

std::string too_long_message(std::size_t max_line) {
  constexpr std::size_t mib = std::size_t{1} << 20;
  if (max_line % mib == 0) {
    return "line longer than " + std::to_string(max_line / mib) + " MiB";
  }
  return "line longer than " + std::to_string(max_line) + " bytes";
}

line_reader::line_reader(std::unique_ptr<byte_source> source, std::string name,
                         reader_tuning tuning)
    : stream_(std::move(source), std::max<std::size_t>(tuning.block_size, 1)),
      name_(std::move(name)),
      block_(std::max<std::size_t>(tuning.block_size, 1)),
      max_line_(tuning.max_line),
      cap_(block_) {
  buf_ = std::make_unique_for_overwrite<char[]>(cap_);
}

// Makes room and reads one block. False at the end of the input or on error.
bool line_reader::fill() {
  if (begin_ != 0) {
    // Only the unfinished line moves: at most max_line + 1 bytes, and usually
    // a few dozen, since lines are taken from the buffer as they complete.
    std::memmove(buf_.get(), buf_.get() + begin_, end_ - begin_);
    scan_ -= begin_;
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == cap_) {
    // A line longer than the buffer: grow, but never past what the cap needs
    // to see that a line is too long (max_line + CR + one more byte).
    const std::size_t grown =
        std::max(std::min(cap_ * 2, max_line_ + 2), cap_ + 1);
    auto bigger = std::make_unique_for_overwrite<char[]>(grown);
    std::memcpy(bigger.get(), buf_.get(), end_);
    buf_ = std::move(bigger);
    cap_ = grown;
  }
  const std::size_t got =
      stream_.read(buf_.get() + end_, std::min(block_, cap_ - end_));
  if (got == 0) {
    eof_ = true;
    if (!stream_.error().empty()) {
      error_ = name_ + ":" + std::to_string(number_) + ": " + stream_.error();
    }
    return false;
  }
  end_ += got;
  return true;
}

void line_reader::emit(line& out, std::size_t len, bool newline) {
  const char* text = buf_.get() + begin_;
  out.had_cr = len != 0 && text[len - 1] == '\r';
  if (out.had_cr) --len;
  out.number = number_++;
  out.too_long = len > max_line_;
  // A too-long line shows the same prefix however it was found (see header).
  out.text = std::string_view(text, out.too_long ? max_line_ + 1 : len);
  begin_ += len + (out.had_cr ? 1 : 0) + (newline ? 1 : 0);
  scan_ = begin_;
}

// Drops the rest of a too-long line, up to and including its '\n'.
// False on a read error.
bool line_reader::skip_rest_of_line() {
  for (;;) {
    const char* nl = static_cast<const char*>(
        std::memchr(buf_.get() + scan_, '\n', end_ - scan_));
    if (nl != nullptr) {
      begin_ = scan_ = static_cast<std::size_t>(nl - buf_.get()) + 1;
      skipping_ = false;
      return true;
    }
    begin_ = scan_ = end_;
    if (eof_ || !fill()) {
      skipping_ = false;
      return error_.empty();
    }
  }
}

bool line_reader::next(line& out) {
  if (!error_.empty()) return false;
  if (skipping_ && !skip_rest_of_line()) return false;
  if (!bom_checked_) {
    while (end_ - begin_ < 3 && !eof_ && fill()) {
    }
    if (!error_.empty()) return false;
    if (end_ - begin_ >= 3 &&
        std::memcmp(buf_.get() + begin_, "\xEF\xBB\xBF", 3) == 0) {
      begin_ += 3;
      scan_ = begin_;
    }
    bom_checked_ = true;
  }
  for (;;) {
    const char* nl = static_cast<const char*>(
        std::memchr(buf_.get() + scan_, '\n', end_ - scan_));
    if (nl != nullptr) {
      emit(out, static_cast<std::size_t>(nl - buf_.get()) - begin_, true);
      return true;
    }
    scan_ = end_;
    const std::size_t pending = end_ - begin_;
    if (pending > max_line_ + 1) {
      // Too long even if it ends in CRLF: report it now, skip it on the next
      // call, so the buffer never holds more than the cap.
      out.text = std::string_view(buf_.get() + begin_, max_line_ + 1);
      out.number = number_++;
      out.too_long = true;
      out.had_cr = false;
      skipping_ = true;
      return true;
    }
    if (eof_ || !fill()) {
      if (!error_.empty() || pending == 0) return false;
      emit(out, pending, false);
      return true;
    }
  }
}

}  // namespace sitemill::detail
