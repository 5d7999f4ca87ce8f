// tsv and csv: a header row naming the columns (in sitemill's names, or in
// its own read through reader_options::named_columns), or
// reader_options::columns and no header row (a first row that still looks
// like one is skipped with a note), then one record per row. tsv has no quoting
// (IANA text/tab-separated-values); csv follows RFC 4180, so a quoted field may
// span lines. Hand-written because it is several times faster than libcsv and
// fast-cpp-csv-parser, the CSV libraries Debian has (benchmarks/README.md,
// "Readers against libraries").
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "source/readers.h"

namespace sitemill::detail {
namespace {

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

start_state initial_state(const std::vector<column>& columns,
                          const std::vector<named_column>& named) {
  if (!columns.empty()) return start_state::first_row;
  return named.empty() ? start_state::header : start_state::named_header;
}

// The note for a first row skipped as a header (reader_options::columns).
std::string header_note(std::string_view loc_cell) {
  return "first row taken as a header row, not a URL (its loc cell is " +
         quoted_printable(trim(loc_cell), 64) + ")";
}

class tsv_reader;

// What tsv and csv share: the start of an input (a header row, or a
// first row that may be one) before the rows, which each splits its way.
// `Reader` provides first_row(line, out), read_header(line), emit_held(out)
// and cells_of(line) (the next row's cells, for a header's hint).
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
  // is noted (the first max_short_row_notes; the rest counted, and said
  // once at the end).
  void check_cells(std::uint64_t line, std::size_t cells) {
    if (cells >= header_names_.size()) return;
    if (short_rows_++ == 0) first_short_ = line;
    last_short_ = line;
    if (short_rows_ > max_short_row_notes) return;
    std::string m = "row has " + std::to_string(cells) +
                    (cells == 1 ? " cell" : " cells") + " where the header has " +
                    std::to_string(header_names_.size()) + "; ";
    const std::size_t missing = header_names_.size() - cells;
    constexpr std::size_t named = 5;  // a wide export's row may lack dozens
    for (std::size_t i = cells; i < header_names_.size() && i < cells + named;
         ++i) {
      if (i != cells) m += ", ";
      m += quoted_printable(trim(header_names_[i]), 64);
    }
    if (missing > named) m += " and " + std::to_string(missing - named) + " more";
    m += missing == 1 ? " is" : " are";
    m += " read as empty";
    notes_.push_back({line, std::move(m)});
  }

  // The end of the input: false, after the count of short rows not noted.
  bool finish() {
    if (short_rows_ > max_short_row_notes) {
      notes_.push_back(
          {last_short_,
           std::to_string(short_rows_) +
               " rows in all have fewer cells than the header (lines " +
               std::to_string(first_short_) + " to " +
               std::to_string(last_short_) + "); only the first " +
               std::to_string(max_short_row_notes) + " are noted"});
      short_rows_ = 0;
    }
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
    stop(line, no_loc_message({kept.begin(), kept.end()}, next_row,
                              self.columns_are(), self.delimiter(),
                              std::is_same_v<Reader, tsv_reader>));
    return false;
  }

  static constexpr std::uint64_t max_short_row_notes = 100;

  column_map map_;
  start_state state_;
  std::vector<named_column> named_;
  // The header's cells, for the note on a short row; empty without a header.
  std::vector<std::string> header_names_;
  std::uint64_t short_rows_ = 0, first_short_ = 0, last_short_ = 0;
};

class tsv_reader final : public delimited_reader<tsv_reader> {
 public:
  tsv_reader(std::unique_ptr<byte_source> source, std::string name,
             const std::vector<column>& columns,
             const std::vector<named_column>& named, reader_tuning tuning)
      : delimited_reader(std::move(source), std::move(name), columns, named,
                         tuning) {}

  bool next(input_record& out) override {
    if (!error_.empty()) return false;
    if (state_ != start_state::rows) return start(out);
    line_reader::line l;
    while (lines_.next(l)) {
      if (!l.too_long && is_blank_line(l.text)) continue;
      row(l, out);
      return true;
    }
    return finish();
  }

 private:
  friend delimited_reader;

  void emit_held(input_record& out) { row(held_next_, out); }
  static char delimiter() { return '\t'; }
  static std::string columns_are() { return "its columns, split at tabs, are "; }

  // The first row under reader_options::columns: a record, unless it looks
  // like a header (record_reader.h); then the row after it is the record.
  // Undecided, row 1 is copied and row 2 read: memory stays two rows.
  bool first_row(const line_reader::line& l, input_record& out) {
    if (l.too_long) {
      row(l, out);
      return true;
    }
    input_record probe;
    split(l.text, probe);
    if (is_url_like(probe.loc)) {
      row(l, out);
      return true;
    }
    if (is_loc_header_word(probe.loc)) {
      notes_.push_back({l.number, header_note(probe.loc)});
      return next(out);
    }
    held_.assign(l.text);
    const std::uint64_t first = l.number;
    const std::string loc_cell(probe.loc);
    while (lines_.next(held_next_)) {
      if (!held_next_.too_long && is_blank_line(held_next_.text)) continue;
      if (!held_next_.too_long) {
        probe = input_record{};
        split(held_next_.text, probe);
        if (is_url_like(probe.loc)) {
          notes_.push_back({first, header_note(loc_cell)});
          row(held_next_, out);
          return true;
        }
      }
      state_ = start_state::held_row;
      break;
    }
    // Row 1 is data; its text lives in held_ until the next call.
    line_reader::line held;
    held.text = held_;
    held.number = first;
    row(held, out);
    return true;
  }

  void row(const line_reader::line& l, input_record& out) {
    out = input_record{};
    out.line = l.number;
    if (l.too_long) {
      out.problem = too_long_;
      return;
    }
    const std::size_t cells = split(l.text, out);
    if (cells < header_names_.size()) check_cells(l.number, cells);
    if (!map_.slots.empty()) {
      extension_values(
          map_, [&](std::size_t i) { return cells_[i]; }, values_);
      out.extensions = values_;
    }
  }

  bool read_header(const line_reader::line& l) {
    if (l.too_long) {
      stop(l.number, "header " + too_long_);
      return false;
    }
    return map_names(cells_of(l), l.number);
  }

  static std::vector<std::string_view> cells_of(const line_reader::line& l) {
    std::string_view rest = l.text;
    std::vector<std::string_view> out;
    for (;;) {
      const std::size_t tab = rest.find('\t');
      out.push_back(rest.substr(0, tab));
      if (tab == std::string_view::npos) return out;
      rest.remove_prefix(tab + 1);
    }
  }

  // The hot path: memchr from tab to tab, only as far as the last column read
  // (or the header's last, to count a short row's cells). Returns the cells
  // counted: all of a row that ends first, else at least the columns read.
  std::size_t split(std::string_view text, input_record& out) {
    const char* p = text.data();
    const char* const end = p + text.size();
    const std::size_t n = map_.roles.size();
    if (!map_.slots.empty()) cells_.assign(n, {});
    for (std::size_t i = 0;; ++i) {
      const char* tab = static_cast<const char*>(std::memchr(p, '\t', end - p));
      const char* field_end = tab != nullptr ? tab : end;
      const std::string_view value(p, field_end - p);
      if (map_.roles[i] == column::role::extension) {
        cells_[i] = value;
      } else {
        assign_field(out, map_.roles[i], value);
      }
      if (tab == nullptr) return i + 1;
      if (i + 1 == n) {
        // Ignored columns after the last one read: counted, not split.
        std::size_t cells = n + 1;
        for (p = tab + 1; cells < header_names_.size(); ++cells) {
          p = static_cast<const char*>(std::memchr(p, '\t', end - p));
          if (p == nullptr) break;
          ++p;
        }
        return cells;
      }
      p = tab + 1;
    }
  }

  std::string held_;                     // an undecided first row's text
  line_reader::line held_next_;          // the row read to decide it
  std::vector<std::string_view> cells_;  // extension columns' text, by index
  std::vector<extension_value> values_;
};

class csv_reader final : public delimited_reader<csv_reader> {
 public:
  csv_reader(std::unique_ptr<byte_source> source, std::string name,
             const std::vector<column>& columns,
             const std::vector<named_column>& named, char delimiter,
             reader_tuning tuning)
      : delimited_reader(std::move(source), std::move(name), columns, named,
                         tuning),
        record_too_long_("record" + too_long_.substr(4)),
        delim_(delimiter),
        sniffed_(delimiter == 0) {}

  bool next(input_record& out) override {
    if (!error_.empty()) return false;
    if (state_ != start_state::rows) return start(out);
    line_reader::line l;
    while (lines_.next(l)) {
      if (!l.too_long && is_blank_line(l.text)) continue;
      const std::uint64_t start = l.number;
      const outcome o = split(l, map_.roles.size());
      if (o == outcome::stop) return false;
      if (o == outcome::ok && count_ < header_names_.size())
        check_cells(start, count_);
      emit(out, o, start, fields_, count_);
      return true;
    }
    return finish();
  }

 private:
  friend delimited_reader;

  // One field of the record being split: a view into the current line while
  // that is possible, a copy once the field holds "" or a line break, or
  // once the record moves on to another line (which replaces the buffer).
  struct field {
    std::string_view view;
    std::string own;
    bool owned = false;
    std::string_view value() const noexcept {
      return owned ? std::string_view(own) : view;
    }
  };

  enum class outcome { ok, problem, stop };

  // A record from the fields of a split (`count` of them, in `fields`).
  void emit(input_record& out, outcome o, std::uint64_t start,
            const std::vector<field>& fields, std::size_t count) {
    out = input_record{};
    out.line = start;
    if (o == outcome::problem) {
      out.problem = problem_;
      return;
    }
    const std::size_t n = std::min(count, map_.roles.size());
    for (std::size_t i = 0; i < n; ++i) {
      assign_field(out, map_.roles[i], fields[i].value());
    }
    if (!map_.slots.empty()) {
      extension_values(
          map_,
          [&](std::size_t i) {
            return i < n ? fields[i].value() : std::string_view();
          },
          values_);
      out.extensions = values_;
    }
  }

  // The loc cell of the record just split, empty when it has none.
  std::string_view loc_cell() const { return loc_cell_of(fields_, count_); }

  void emit_held(input_record& out) {
    emit(out, held_outcome_, held_start_, fields_, count_);
  }

  char delimiter() const { return delim_; }
  std::string columns_are() const {
    return "its columns, split at " + delimiter_name(delim_) +
           (sniffed_ ? " (the delimiter the header has most of)"
                     : " (`delimiter`)") +
           ", are ";
  }
  // The first row, header or record, names the delimiter unless it was given.
  void choose_delimiter(const line_reader::line& l) {
    if (delim_ == 0) delim_ = sniff_delimiter(l.text);
  }

  // The first row under reader_options::columns: a record, unless it looks
  // like a header (record_reader.h); then the row after it is the record.
  // Undecided, row 1's fields are copied and row 2 split into fields_:
  // memory stays two records.
  bool first_row(const line_reader::line& l, input_record& out) {
    choose_delimiter(l);
    const std::uint64_t first = l.number;
    const outcome o = split(l, map_.roles.size());
    if (o == outcome::stop) return false;
    if (o == outcome::ok) {
      const std::string_view loc = loc_cell();
      if (is_loc_header_word(loc)) {
        notes_.push_back({first, header_note(loc)});
        return next(out);
      }
      if (!is_url_like(loc)) return undecided_first_row(first, out);
    }
    emit(out, o, first, fields_, count_);
    return true;
  }

  // Row 1's loc cell is neither URL-like nor a header word: row 2 decides.
  bool undecided_first_row(std::uint64_t first, input_record& out) {
    own_views();
    std::swap(fields_, held_fields_);
    const std::size_t held_count = count_;
    const std::string loc_cell_text(loc_cell_of(held_fields_, held_count));
    line_reader::line l;
    while (lines_.next(l)) {
      if (!l.too_long && is_blank_line(l.text)) continue;
      held_start_ = l.number;
      held_outcome_ = split(l, map_.roles.size());
      if (held_outcome_ == outcome::stop) break;
      if (held_outcome_ == outcome::ok && is_url_like(loc_cell())) {
        notes_.push_back({first, header_note(loc_cell_text)});
        emit(out, held_outcome_, held_start_, fields_, count_);
        return true;
      }
      state_ = start_state::held_row;
      break;
    }
    emit(out, outcome::ok, first, held_fields_, held_count);
    return true;
  }

  std::string_view loc_cell_of(const std::vector<field>& fields,
                               std::size_t count) const {
    const std::size_t n = std::min(count, map_.roles.size());
    for (std::size_t i = 0; i < n; ++i)
      if (map_.roles[i] == column::role::loc) return fields[i].value();
    return {};
  }

  bool read_header(const line_reader::line& l) {
    choose_delimiter(l);
    const std::uint64_t start = l.number;
    const outcome o = split(l, static_cast<std::size_t>(-1));
    if (o == outcome::stop) return false;
    if (o == outcome::problem) {
      stop(start, "header: " + std::string(problem_));
      return false;
    }
    std::vector<std::string_view> names;
    for (std::size_t i = 0; i < count_; ++i)
      names.push_back(fields_[i].value());
    return map_names(names, start);
  }

  // The cells of the record starting on `l` (none when it has a problem).
  std::vector<std::string_view> cells_of(const line_reader::line& l) {
    std::vector<std::string_view> out;
    if (split(l, static_cast<std::size_t>(-1)) == outcome::ok) {
      for (std::size_t i = 0; i < count_; ++i)
        out.push_back(fields_[i].value());
    }
    return out;
  }

  void own_views() {
    const std::size_t n = std::min({count_, keep_, fields_.size()});
    for (std::size_t i = 0; i < n; ++i) {
      if (!fields_[i].owned) {
        fields_[i].own.assign(fields_[i].view);
        fields_[i].owned = true;
      }
    }
  }

  // Splits the record that starts on `l`, keeping its first `keep` fields in
  // fields_ (count_ says how many the record has). After a problem the rest
  // of the physical line is dropped: the next record starts on the next line.
  outcome split(line_reader::line l, std::size_t keep) {
    count_ = 0;
    keep_ = keep;
    if (l.too_long) {
      problem_ = too_long_;
      return outcome::problem;
    }
    constexpr auto npos = std::string_view::npos;
    const std::uint64_t start = l.number;
    std::string_view s = l.text;
    std::size_t i = 0;
    std::size_t bytes = s.size();  // of the whole record, against the cap
    bool overflow = false;
    for (;;) {
      field* f = nullptr;
      if (count_ < keep && !overflow) {
        if (fields_.size() == count_) fields_.emplace_back();
        f = &fields_[count_];
        f->view = {};
        f->own.clear();
        f->owned = false;
      }
      ++count_;
      if (i == s.size() || s[i] != '"') {
        const std::size_t comma = s.find(delim_, i);
        if (f != nullptr)
          f->view = s.substr(i, comma == npos ? npos : comma - i);
        if (comma == npos) break;
        i = comma + 1;
        continue;
      }
      std::size_t seg = ++i;  // start of the field's text not yet stored
      for (;;) {
        const std::size_t q = s.find('"', i);
        if (q == npos) {
          // The line ends inside the quotes: the field goes on, line break
          // included, on the next line. (Past the cap nothing is kept, and
          // the slots past count_ hold views of earlier records: leave them.)
          if (!overflow) own_views();
          if (f != nullptr) {
            f->own.append(s.substr(seg));
            f->own.append(l.had_cr ? "\r\n" : "\n");
          }
          const std::uint64_t last = l.number;
          if (!lines_.next(l)) {
            if (!lines_.error().empty()) return outcome::stop;
            return swallowed("unterminated quoted field: the quote runs to "
                             "the end of the input",
                             start, last);
          }
          if (l.too_long) return swallowed(too_long_, start, l.number);
          s = l.text;
          i = seg = 0;
          bytes += s.size() + 1;
          if (bytes > lines_.max_line()) {
            // Read on to the record's end, so it stays one record, but hold
            // none of it.
            overflow = true;
            f = nullptr;
          }
          continue;
        }
        if (q + 1 < s.size() && s[q + 1] == '"') {
          if (f != nullptr) {
            f->owned = true;
            f->own.append(s.substr(seg, q + 1 - seg));
          }
          i = seg = q + 2;
          continue;
        }
        if (f != nullptr) {
          if (f->owned) {
            f->own.append(s.substr(seg, q - seg));
          } else {
            f->view = s.substr(seg, q - seg);
          }
        }
        i = q + 1;
        break;
      }
      if (i == s.size()) break;
      if (s[i] != delim_) {
        if (l.number != start)
          return swallowed("unexpected character after a closing quote on "
                           "line " + std::to_string(l.number),
                           start, l.number);
        problem_ = "unexpected character after a closing quote";
        return outcome::problem;
      }
      ++i;
    }
    if (overflow) return swallowed(record_too_long_, start, l.number);
    return outcome::ok;
  }

  // A problem with a record that ran from line `first` to `last`: when that
  // is more than one line, a quote was likely left open, and the rows it
  // took are named, for they are not read.
  outcome swallowed(std::string_view what, std::uint64_t first,
                    std::uint64_t last) {
    problem_text_.assign(what);
    if (last > first) {
      const std::uint64_t taken = last - first;
      problem_text_ += "; the quoted field opened on this line took the " +
                       (taken == 1 ? std::string("line")
                                   : std::to_string(taken) + " lines") +
                       " after it (to line " + std::to_string(last) +
                       "), whose rows are not read";
    }
    problem_ = problem_text_;
    return outcome::problem;
  }

  std::vector<field> fields_;
  std::size_t count_ = 0;
  std::size_t keep_ = 0;
  std::string_view problem_;
  std::string problem_text_;  // problem_'s text when it is made for a record
  std::string record_too_long_;
  char delim_;    // between cells; 0 until the first row names it
  bool sniffed_;  // delim_ was found in the first row, not given
  std::vector<extension_value> values_;
  // An undecided first row's fields (owned), while fields_ holds the row
  // read to decide it, which start() returns next (held_row).
  std::vector<field> held_fields_;
  std::uint64_t held_start_ = 0;
  outcome held_outcome_ = outcome::ok;
};

}  // namespace

std::unique_ptr<record_reader> make_tsv_reader(
    std::unique_ptr<byte_source> source, std::string name,
    const std::vector<column>& columns, const std::vector<named_column>& named,
    reader_tuning tuning) {
  return std::make_unique<tsv_reader>(std::move(source), std::move(name),
                                      columns, named, tuning);
}

std::unique_ptr<record_reader> make_csv_reader(
    std::unique_ptr<byte_source> source, std::string name,
    const std::vector<column>& columns, const std::vector<named_column>& named,
    char delimiter, reader_tuning tuning) {
  return std::make_unique<csv_reader>(std::move(source), std::move(name),
                                      columns, named, delimiter, tuning);
}

}  // namespace sitemill::detail
