// sitemill: reading a lastmod as people's data writes it, into the one
// w3c_datetime that generate writes with format_lastmod().
//
// Exports write dates as their database prints them ("2025-05-14 10:23:00",
// PostgreSQL's "2025-05-14 10:23:00.123456+02"), as mail and HTTP do
// ("Wed, 14 May 2025 10:23:00 GMT") or as a Unix time ("1747218180"). A
// lastmod_reader reads in one or more of three ways (date_format), tried in
// order until one reads the text:
//  * auto: a W3C datetime first (the common case costs nothing more), then
//    YYYY-MM-DD HH:MM[:SS[.fraction]] with a space (or T) and an optional
//    zone (Z, +hh, +hhmm, +hh:mm), RFC 5322 and HTTP dates (read by
//    parse_feed_date() and parse_http_date(), dates.h), and Unix time: 9 or
//    10 digits are seconds, 13 digits milliseconds;
//  * w3c: a W3C datetime only, exactly as parse_w3c_datetime() reads it;
//  * a pattern, a strftime-like subset (lastmod_reader::create() below).
// A date-time that names no zone is read in the reader's zone: an IANA zone
// (DST-correct) or a fixed offset, or UTC when none was given, which the
// reading says (lastmod_note::zone_assumed) so that the caller can warn.
// A lastmod_reading's `why` is static text, valid for the whole program.
#ifndef SITEMILL_LASTMOD_READING_H
#define SITEMILL_LASTMOD_READING_H

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "sitemill/date/w3c_datetime.h"
#include "sitemill/result.h"

namespace sitemill {

/// What a successful reading did that the caller may want to say.
enum class lastmod_note : std::uint8_t {
  none = 0,
  /// A date-time without a zone, read as UTC because the reader has no zone.
  zone_assumed,
  /// A local time that does not exist (the clocks skipped it, spring DST):
  /// read with the offset in force before the change, so 02:30 in a
  /// one-hour gap is 03:30 after it (as POSIX mktime, Python and JavaScript).
  dst_gap,
  /// A local time that happens twice (autumn DST): the earlier one is meant,
  /// read with the offset in force before the change.
  dst_overlap,
};

/// A sentence saying what a note means for the date, with no ": " of its own.
std::string_view describe(lastmod_note note) noexcept;

/// The outcome of reading one lastmod text.
struct lastmod_reading {
  w3c_datetime value;    ///< valid when ok()
  std::string_view why;  ///< static text saying why not; empty when ok
  lastmod_note note = lastmod_note::none;
  bool ok() const noexcept { return why.empty(); }
};

/// Reads lastmods in one date format and zone; built once per run by
/// lastmod_reader::create() and shared by the entry workers.
///
/// Thread-safe: read() is const, allocates nothing, and may be called from
/// any number of threads at once. The zone rules are the process's tz
/// database (/usr/share/zoneinfo), loaded once and never freed.
class lastmod_reader {
 public:
  /// Auto format, no zone (date-times without one are read as UTC).
  lastmod_reader() noexcept;

  /// `format`: "auto", "w3c" or a pattern (compile rules below). `zone`: ""
  /// (none), an IANA name ("Europe/Berlin", "UTC") or an offset ("+02:00",
  /// "-0530", "+02", "Z"). The errors name the option they are about,
  /// `date_format` or `time_zone`, in error::field.
  ///
  /// Pattern directives: %Y (4-digit year), %m (month, 1-2 digits), %d and
  /// %e (day, 1-2 digits, %e may be space-padded), %b or %B (English month
  /// name, abbreviated or full, any case), %H %M %S (1-2 digits), %f
  /// (fraction of a second, 1 or more digits, 9 kept), %z (Z, +hh, +hhmm or
  /// +hh:mm), %s (Unix time in seconds, alone or with %f), %% (a %). Any
  /// other character matches itself exactly. The pattern must name a whole
  /// date (%Y, %m or %b, %d or %e) or %s (then nothing but %f besides);
  /// %H and %M come together, %S needs them and %f needs %S or %s. A pattern
  /// with a time and no %z is read in the reader's zone. A zone is refused with
  /// the "w3c" format, whose date-times always name their own.
  static result<lastmod_reader> create(std::string_view format,
                                       std::string_view zone);

  /// Several formats, each as above, tried in order: the first that reads
  /// a text gives its value ("%d.%m.%Y" then "auto": a spreadsheet's dates,
  /// and whatever else auto reads). Empty: auto. At most max_formats, none
  /// given twice, each pattern within max_pattern_steps and all of them
  /// within max_total_steps. A text none reads is refused with one reason
  /// for all ("matches none of the `date_format` formats"), unless one
  /// format read its shape and found the date impossible: that reason.
  /// The zone is refused only when every format is "w3c".
  static result<lastmod_reader> create(std::span<const std::string> formats,
                                       std::string_view zone);

  /// Reads `text` (no surrounding whitespace: trim first). Never throws.
  /// Inline so that a W3C datetime, what generators write by the million,
  /// costs what parse_w3c_datetime() costs and nothing more.
  [[nodiscard]] lastmod_reading read(std::string_view text) const noexcept {
    lastmod_reading r;
    if (read_w3c(text, r.value)) return r;
    return read_slow(text);
  }

  /// read() in two steps, for a caller that keeps the value where it is
  /// parsed: true, with `out` set, when read() would give `text` as the W3C
  /// datetime it spells (no note); otherwise `out` is untouched and
  /// read_rest(text) gives what read(text) does. (A copy of the value read
  /// back right after parse_w3c_datetime() stored it field by field waits
  /// for those stores: wide loads cannot be forwarded from narrow stores.)
  [[nodiscard]] bool read_w3c(std::string_view text,
                              w3c_datetime& out) const noexcept {
    return format_ != format_kind::pattern &&
           parse_w3c_datetime(text, out) == datetime_problem::ok;
  }
  [[nodiscard]] lastmod_reading read_rest(
      std::string_view text) const noexcept {
    return read_slow(text);
  }

  /// True when the reader was given a zone.
  bool has_zone() const noexcept { return zone_kind_ != zone_kind::none; }

  /// One step of a compiled pattern; public only so that the pattern can be
  /// stored inline (a reader allocates nothing).
  struct pattern_step {
    char directive = 0;  ///< 'Y', 'm', ... or 0 for a literal
    char literal = 0;
  };
  static constexpr std::size_t max_pattern_steps = 48;
  static constexpr std::size_t max_total_steps = 96;
  static constexpr std::size_t max_formats = 8;

 private:
  enum class format_kind : std::uint8_t { automatic, w3c, pattern };
  enum class zone_kind : std::uint8_t { none, fixed, named };
  /// One format of the list; a pattern's steps are pattern_[first, end).
  struct format_entry {
    format_kind kind = format_kind::automatic;
    std::uint8_t first = 0, end = 0;
  };

  // date_pattern.cpp: appends the pattern's steps to pattern_.
  status compile_pattern(std::string_view pattern);
  status set_zone(std::string_view zone);  // time_zones.cpp
  lastmod_reading read_slow(std::string_view text) const noexcept;
  lastmod_reading read_one(const format_entry& f,
                           std::string_view text) const noexcept;
  lastmod_reading read_auto(std::string_view text) const noexcept;
  lastmod_reading read_pattern(std::string_view text, std::uint8_t first,
                               std::uint8_t end) const noexcept;
  /// Gives `local` (a date-time read without a zone) the reader's zone.
  lastmod_reading place(w3c_datetime local) const noexcept;

  format_kind format_ = format_kind::automatic;  ///< the first format's
  std::uint8_t format_count_ = 1;
  std::array<format_entry, max_formats> formats_{};
  zone_kind zone_kind_ = zone_kind::none;
  std::int16_t fixed_offset_ = 0;     ///< minutes east of UTC, zone_kind::fixed
  bool fixed_zulu_ = false;           ///< the zone was "Z" or "UTC"
  const void* named_zone_ = nullptr;  ///< a date::time_zone, zone_kind::named
  int reference_year_ = 2000;         ///< for RFC 850's two-digit years
  std::uint8_t steps_ = 0;            ///< used of pattern_, by every pattern
  std::array<pattern_step, max_total_steps> pattern_{};
};

/// Reads one date string as "auto" does with no zone (a date-time without a
/// zone is read as UTC, with lastmod_note::zone_assumed): for sources that
/// find dates in pages (article:modified_time, <time datetime>) or headers.
/// Surrounding ASCII whitespace is trimmed first. Thread-safe, no allocation.
[[nodiscard]] lastmod_reading read_date_auto(std::string_view text) noexcept;

}  // namespace sitemill

#endif  // SITEMILL_LASTMOD_READING_H
