// sitemill internals: what the tsv and csv readers share, the start of an
// input (a header row naming the columns, in sitemill's names or in its own
// read through reader_options::named_columns; or reader_options::columns and
// no header row, a first row that still looks like one skipped with a note)
// and the rows that do not fit the header. Each format splits its rows its
// own way: tsv_reader.cpp, csv_reader.cpp.
#ifndef SITEMILL_SOURCE_DELIMITED_READER_H
#define SITEMILL_SOURCE_DELIMITED_READER_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "source/capped_notes.h"
#include "source/readers.h"

namespace sitemill::detail {

// How far a reader is into its input: the rows come after a header row
// (read by parse_column() names or by reader_options::named_columns), or
// after a first row that may still be a header (reader_options::columns).
enum class start_state : std::uint8_t {
  header,
  named_header,
  first_row,
  held_row,  // the row after an undecided first row, still to be returned
  rows,
};

inline start_state initial_state(const std::vector<column>& columns,
                                 const std::vector<named_column>& named) {
  if (!columns.empty()) return start_state::first_row;
  return named.empty() ? start_state::header : start_state::named_header;
}

// The note for a first row skipped as a header (reader_options::columns).
inline std::string header_note(std::string_view loc_cell) {
  return "first row taken as a header row, not a URL (its loc cell is " +
         quoted_printable(trim(loc_cell), 64) + ")";
}

// What tsv and csv share: the start of an input (a header row, or a
// first row that may be one) before the rows, which each splits its way.
// `Reader` provides first_row(line, out), read_header(line), emit_held(out),
// cells_of(line) (the next row's cells, for a header's hint), split_cause()
// (why a row with text past the header's cells is not read) and `tsv`.
template <class Reader>
class delimited_reader : public line_record_reader {
 protected:
  delimited_reader(std::unique_ptr<byte_source> source, std::string name,
                   const std::vector<column>& columns,
                   const std::vector<named_column>& named, reader_tuning tuning)
      : line_record_reader(std::move(source), std::move(name), tuning),
        state_(initial_state(columns, named)),
        named_(named) {
    if (!columns.empty()) map_ = map_columns(columns);
  }

  // Everything before the rows: the header, or the first row that may be
  // one, and the row held while deciding.
  bool start(input_record& out) {
    auto& self = static_cast<Reader&>(*this);
    if (state_ == start_state::held_row) {
      state_ = start_state::rows;
      self.emit_held(out);
      return true;
    }
    line_reader::line l;
    while (lines_.next(l)) {
      if (!l.too_long && is_blank_line(l.text)) continue;
      if (state_ == start_state::first_row) {
        state_ = start_state::rows;
        return self.first_row(l, out);
      }
      if (!self.read_header(l)) return false;
      state_ = start_state::rows;
      return self.next(out);
    }
    return false;
  }

  // A row with fewer cells than the header: its missing cells are read as
  // empty, which may be an export's shorthand or a row cut short, so each
  // is noted (capped_notes: the first hundred, then a count).
  void check_cells(std::uint64_t line, std::size_t cells) {
    if (cells >= header_names_.size()) return;
    short_rows_.add(line, notes_, [&] {
      std::string m = "row has " + std::to_string(cells) +
                      (cells == 1 ? " cell" : " cells") +
                      " where the header has " +
                      std::to_string(header_names_.size()) + "; ";
      const std::size_t missing = header_names_.size() - cells;
      constexpr std::size_t named = 5;  // a wide export's row may lack dozens
      for (std::size_t i = cells; i < header_names_.size() && i < cells + named;
           ++i) {
        if (i != cells) m += ", ";
        m += quoted_printable(trim(header_names_[i]), 64);
      }
      if (missing > named)
        m += " and " + std::to_string(missing - named) + " more";
      m += missing == 1 ? " is" : " are";
      m += " read as empty";
      return m;
    });
  }

  // A row with more cells (`cells`) than the header. Its cells past the
  // header's hold no text (`texts`, the first few that do, is empty): they
  // are dropped with a note (capped) and the row is read; false. Otherwise
  // a delimiter inside a cell split it, shifting every cell after it, so no
  // cell can be trusted to be in its column: true, with long_problem_ the
  // row's problem, for the row is reported and not read. (Quietly reading
  // the shifted cells would publish a caption as a lastmod, or one image's
  // URL as another's.)
  bool long_row(std::uint64_t line, std::size_t cells,
                const std::vector<std::string_view>& texts) {
    const std::size_t header = header_names_.size();
    const std::size_t past = cells - header;
    auto row_has = [&] {
      return "row has " + std::to_string(cells) +
             " cells where the header has " + std::to_string(header);
    };
    if (texts.empty()) {
      // Past the cap no message is made: a file whose every row ends in a
      // delimiter costs a count.
      long_rows_.add(line, notes_, [&] {
        return row_has() + (past == 1 ? "; the 1 past it is empty and ignored"
                                      : "; the " + std::to_string(past) +
                                            " past it are empty and ignored");
      });
      return false;
    }
    auto& self = static_cast<Reader&>(*this);
    std::string m = row_has();
    m += past == 1
             ? ", and the 1 past it holds text ("
             : ", and the " + std::to_string(past) + " past it hold text (";
    for (std::size_t i = 0; i < texts.size(); ++i) {
      if (i != 0) m += ", ";
      m += quoted_printable(trim(texts[i]), 64);
    }
    if (texts.size() == max_shown_texts && past > max_shown_texts) m += ", ...";
    m += "): ";
    m += self.split_cause();
    long_problem_ = std::move(m);
    return true;
  }

  // The end of the input: false, after the closing notes of the capped kinds.
  bool finish() {
    short_rows_.finish(notes_);
    long_rows_.finish(notes_);
    return false;
  }

  // Maps the header row's cells `names` (on line `line`); false, with
  // reading stopped, when the header lacks loc or a name of named_.
  bool map_names(const std::vector<std::string_view>& names,
                 std::uint64_t line) {
    auto& self = static_cast<Reader&>(*this);
    header_names_.assign(names.begin(), names.end());
    if (state_ == start_state::named_header) {
      auto map = map_named_header(names, named_, self.columns_are());
      if (!map) {
        stop(line, map.err().message);
        return false;
      }
      map_ = std::move(*map);
      return true;
    }
    map_ = map_header(names, line, notes_);
    if (map_.has_loc) return true;
    // The row after the header helps name the URL column.
    const std::vector<std::string> kept(names.begin(), names.end());
    std::vector<std::string_view> next_row;
    line_reader::line data;
    while (lines_.next(data)) {
      if (!data.too_long && is_blank_line(data.text)) continue;
      if (!data.too_long) next_row = self.cells_of(data);
      break;
    }
    stop(line,
         no_loc_message({kept.begin(), kept.end()}, next_row,
                        self.columns_are(), self.delimiter(), Reader::tsv));
    return false;
  }

  // The texts of cells past the header's a problem quotes, at most.
  static constexpr std::size_t max_shown_texts = 3;

  column_map map_;
  start_state state_;
  std::vector<named_column> named_;
  // The header's cells, for the note on a short row; empty without a header.
  std::vector<std::string> header_names_;
  capped_notes short_rows_{100, "row", "rows",
                           "have fewer cells than the header"};
  capped_notes long_rows_{100, "row", "rows",
                          "have more cells than the header, all empty",
                          "the empty cells were ignored"};
  std::string long_problem_;  // a row's problem made by long_row()
};

}  // namespace sitemill::detail

#endif  // SITEMILL_SOURCE_DELIMITED_READER_H
