// csv: RFC 4180, so a quoted field may span lines, with cells separated by
// ',' or the delimiter given or sniffed from the first row; one record per
// row after a header row or under reader_options::columns
// (source/delimited_reader.h). Hand-written because it is several times
// faster than libcsv and fast-cpp-csv-parser, the CSV libraries Debian has
// (benchmarks/README.md, "Readers against libraries").
#include <algorithm>

#include "source/delimited_reader.h"

namespace sitemill::detail {
namespace {

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
      outcome o = split(l, map_.roles.size());
      if (o == outcome::stop) return false;
      if (o == outcome::ok) {
        if (count_ < header_names_.size()) {
          check_cells(start, count_);
        } else if (count_ > header_names_.size() && !header_names_.empty() &&
                   long_row(start, count_,
                            {extra_owned_.begin(), extra_owned_.end()})) {
          problem_ = long_problem_;
          o = outcome::problem;
        }
      }
      emit(out, o, start, fields_, count_);
      return true;
    }
    return finish();
  }

 private:
  friend delimited_reader;
  static constexpr bool tsv = false;

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
  std::string split_cause() const {
    return "an unquoted " + delimiter_name(delim_) +
           " inside a cell shifts every cell after it, so the row is not "
           "read (put that cell in double quotes)";
  }
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
    // A data row's cells past the header's: their text is looked at, so
    // that long_row() can tell empty ones from a shifted row.
    extra_owned_.clear();
    const std::size_t extra_from =
        keep == static_cast<std::size_t>(-1) || header_names_.empty()
            ? static_cast<std::size_t>(-1)
            : header_names_.size();
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
      const bool extra = count_ > extra_from;
      if (i == s.size() || s[i] != '"') {
        const std::size_t comma = s.find(delim_, i);
        if (f != nullptr)
          f->view = s.substr(i, comma == npos ? npos : comma - i);
        if (extra)
          extra_text(count_, s.substr(i, comma == npos ? npos : comma - i));
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
          if (extra) extra_text(count_, s.substr(seg), "\n");
          const std::uint64_t last = l.number;
          if (!lines_.next(l)) {
            if (!lines_.error().empty()) return outcome::stop;
            return swallowed(
                "unterminated quoted field: the quote runs to "
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
          if (extra) extra_text(count_, s.substr(seg, q + 1 - seg));
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
        if (extra) extra_text(count_, s.substr(seg, q - seg));
        i = q + 1;
        break;
      }
      if (i == s.size()) break;
      if (s[i] != delim_) {
        if (l.number != start)
          return swallowed(
              "unexpected character after a closing quote on "
              "line " +
                  std::to_string(l.number),
              start, l.number);
        problem_ = "unexpected character after a closing quote";
        return outcome::problem;
      }
      ++i;
    }
    if (overflow) return swallowed(record_too_long_, start, l.number);
    return outcome::ok;
  }

  // A piece of a cell past the header's (the cell numbered `cell`): kept,
  // copied, while the cell is among the first few with text. A quoted cell
  // comes in pieces, split at doubled quotes and line breaks.
  void extra_text(std::size_t cell, std::string_view piece,
                  std::string_view line_break = {}) {
    if (!extra_owned_.empty() && extra_cell_ == cell) {
      (extra_owned_.back() += piece) += line_break;
      return;
    }
    if (is_blank(piece) || extra_owned_.size() == max_shown_texts) return;
    extra_cell_ = cell;
    (extra_owned_.emplace_back(piece) += line_break);
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
  // The first texts of a row's cells past the header's (extra_text()).
  std::vector<std::string> extra_owned_;
  std::size_t extra_cell_ = 0;  // the cell extra_owned_.back() is of
  // An undecided first row's fields (owned), while fields_ holds the row
  // read to decide it, which start() returns next (held_row).
  std::vector<field> held_fields_;
  std::uint64_t held_start_ = 0;
  outcome held_outcome_ = outcome::ok;
};

}  // namespace

std::unique_ptr<record_reader> make_csv_reader(
    std::unique_ptr<byte_source> source, std::string name,
    const std::vector<column>& columns, const std::vector<named_column>& named,
    char delimiter, reader_tuning tuning) {
  return std::make_unique<csv_reader>(std::move(source), std::move(name),
                                      columns, named, delimiter, tuning);
}

}  // namespace sitemill::detail
