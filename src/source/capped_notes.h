// sitemill internals: notes of one kind about an input's records, bounded,
// the way every list reader (txt, tsv, csv, jsonl) caps them.
#ifndef SITEMILL_SOURCE_CAPPED_NOTES_H
#define SITEMILL_SOURCE_CAPPED_NOTES_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/numbers.h"
#include "sitemill/source/record_reader.h"

namespace sitemill::detail {

/// The first `limit` notes of one kind in an input, one by one; the rest
/// counted, and told by finish() in one closing note with the count and the
/// first and last line: "250 rows in all have fewer cells than the header
/// (lines 2 to 251); only the first 100 are noted". So an input where every
/// record has the problem costs `limit` notes, not one per record, and none
/// goes untold.
///
/// The strings given to the constructor are borrowed: pass literals.
/// Not thread-safe; one per kind of note per reader.
class capped_notes {
 public:
  /// `one`, `many`: what is counted ("row", "rows"); `what`: what they did,
  /// after "in all" ("have fewer cells than the header"); `then`: what
  /// became of them, or empty ("their quotes were dropped");
  /// `dropped_value`: the notes' record_reader::note::dropped_value.
  constexpr capped_notes(std::size_t limit, std::string_view one,
                         std::string_view many, std::string_view what,
                         std::string_view then = {},
                         bool dropped_value = false) noexcept
      : limit_(limit),
        one_(one),
        many_(many),
        what_(what),
        then_(then),
        dropped_value_(dropped_value) {}

  /// Counts one on `line` and, while under the limit, adds its note to
  /// `notes` with the text `message()` returns: past the limit no message
  /// is built.
  template <class Message>
  void add(std::uint64_t line, std::vector<record_reader::note>& notes,
           Message&& message) {
    if (count_++ == 0) first_ = line;
    last_ = line;
    if (count_ <= limit_) notes.push_back({line, message(), dropped_value_});
  }

  /// At the end of the input: the closing note when more were counted than
  /// noted. Counting starts again from nothing, so a second call adds none.
  void finish(std::vector<record_reader::note>& notes) {
    if (count_ > limit_) {
      std::string m = counted(count_, one_, many_) + " in all " +
                      std::string(what_) + " (lines " + std::to_string(first_) +
                      " to " + std::to_string(last_) + ")";
      if (!then_.empty()) (m += "; ") += then_;
      m += limit_ == 1
               ? "; only the first is noted"
               : "; only the first " + std::to_string(limit_) + " are noted";
      notes.push_back({last_, std::move(m), dropped_value_});
    }
    count_ = 0;
  }

  /// How many were counted since the last finish().
  std::uint64_t count() const noexcept { return count_; }

 private:
  std::size_t limit_;
  std::string_view one_, many_, what_, then_;
  bool dropped_value_;
  std::uint64_t count_ = 0, first_ = 0, last_ = 0;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_SOURCE_CAPPED_NOTES_H
