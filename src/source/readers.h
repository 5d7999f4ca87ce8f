// sitemill internals: the record readers behind record_reader::open, one per
// input format, all on top of line_reader.
#ifndef SITEMILL_SOURCE_READERS_H
#define SITEMILL_SOURCE_READERS_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/source/record_reader.h"
#include "sitemill/result.h"
#include "source/line_reader.h"

namespace sitemill::detail {

/// Opens `path` ("-" is stdin) like record_reader::open, with the buffer
/// sizes of `tuning`.
result<std::unique_ptr<record_reader>> open_reader(
    const std::string& path, const reader_options& options,
    reader_tuning tuning);

/// A reader over any byte source (tests and fuzzing read from memory);
/// `name` is used in messages. Fails only on inconsistent options.
result<std::unique_ptr<record_reader>> make_reader(
    std::unique_ptr<byte_source> source, std::string name,
    const reader_options& options, reader_tuning tuning);

/// What every format shares: the lines, the error and the notes.
class line_record_reader : public record_reader {
 public:
  line_record_reader(std::unique_ptr<byte_source> source, std::string name,
                     reader_tuning tuning);

  const std::string& error() const noexcept override {
    return error_.empty() ? lines_.error() : error_;
  }
  const std::vector<note>& notes() const noexcept override { return notes_; }

 protected:
  /// Ends reading with "NAME:LINE: message".
  void stop(std::uint64_t line, std::string_view message);

  line_reader lines_;
  std::string error_;
  std::vector<note> notes_;
  std::string too_long_;  // the problem text for a line over the cap
};

/// Which record field each column of a tsv or csv row feeds.
struct column_map {
  std::vector<column> kinds;  // by column index; trailing ignored ones dropped
  bool has_loc = false;
};

/// The map for `names` (a header row; matched case-insensitively after
/// trimming spaces, tabs and CRs). Unknown and repeated names become ignored
/// columns, each reported in one note on `line`.
column_map map_header(const std::vector<std::string_view>& names,
                      std::uint64_t line,
                      std::vector<record_reader::note>& notes);

/// Stores `value` in the field of `out` that `kind` names.
inline void assign_field(input_record& out, column kind,
                         std::string_view value) {
  switch (kind) {
    case column::loc:
      out.loc = value;
      break;
    case column::lastmod:
      out.lastmod = value;
      break;
    case column::changefreq:
      out.changefreq = value;
      break;
    case column::priority:
      out.priority = value;
      break;
    case column::ignored:
      break;
  }
}

/// True for a line of nothing but spaces, tabs and CRs: not a record.
inline bool is_blank_line(std::string_view text) noexcept {
  for (const char c : text) {
    if (c != ' ' && c != '\t' && c != '\r') return false;
  }
  return true;
}

std::unique_ptr<record_reader> make_txt_reader(
    std::unique_ptr<byte_source> source, std::string name,
    reader_tuning tuning);
std::unique_ptr<record_reader> make_tsv_reader(
    std::unique_ptr<byte_source> source, std::string name,
    const std::vector<column>& columns, reader_tuning tuning);
std::unique_ptr<record_reader> make_csv_reader(
    std::unique_ptr<byte_source> source, std::string name,
    const std::vector<column>& columns, reader_tuning tuning);
std::unique_ptr<record_reader> make_jsonl_reader(
    std::unique_ptr<byte_source> source, std::string name,
    reader_tuning tuning);

}  // namespace sitemill::detail

#endif  // SITEMILL_SOURCE_READERS_H
