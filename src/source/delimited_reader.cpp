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

// The error for a header row without loc (and no names given): the
// header's cells, and the column list that would read it, named as
// list_source() takes it (`columns`: the library names options, result.h). A
// header row that looks like data (a URL in its first cell) is the usual
// headerless file read without a column list; otherwise the URL column is the
// one with a usual name (url, link), or the first whose value in the next row
// is a URL.
std::string no_loc_message(const std::vector<std::string_view>& names,
                           const std::vector<std::string_view>& next_row) {
  std::string message = "header has no loc column";
  if (!names.empty() && names.front().find("://") != std::string_view::npos) {
    return message.append(
        " (the first row looks like data: a file without a header row needs "
        "its columns named, e.g. `columns` loc,lastmod)");
  }
  message.append("; its columns are " + header_cells(names));
  std::size_t url = 0;
  while (url < names.size() && !is_loc_header_word(names[url])) ++url;
  if (url == names.size()) {
    url = 0;
    while (url < names.size() &&
           !(url < next_row.size() && is_url_like(next_row[url])))
      ++url;
  }
  const std::string_view name = url == names.size() ? "" : trim(names[url]);
  // A name a column list cannot hold, or one that would need more than
  // simple quoting in a shell, gets the general form.
  const bool plain =
      name.find_first_of(" \"$`\\!*?;&|<>()[]{}~#") == std::string_view::npos;
  if (name.empty() || name.size() > 64 ||
      name.find_first_of(",='") != std::string_view::npos ||
      std::any_of(name.begin(), name.end(), [](char c) {
        return static_cast<unsigned char>(c) < 0x20;
      })) {
    return message.append(
        "; to read a column as loc, map it by name: `columns` loc=NAME");
  }
  return message.append("; to read " + quoted_printable(name, 64) +
                        " as loc, map it by name: `columns` " +
                        (plain ? "" : "'") + "loc=" + std::string(name) +
                        (plain ? "" : "'"));
}

// The note for a first row skipped as a header (reader_options::columns).
std::string header_note(std::string_view loc_cell) {
  return "first row taken as a header row, not a URL (its loc cell is " +
         quoted_printable(trim(loc_cell), 64) + ")";
}

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

  // Maps the header row's cells `names` (on line `line`); false, with
  // reading stopped, when the header lacks loc or a name of named_.
  bool map_names(const std::vector<std::string_view>& names,
                 std::uint64_t line) {
    if (state_ == start_state::named_header) {
      auto map = map_named_header(names, named_);
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
      if (!data.too_long) next_row = static_cast<Reader&>(*this).cells_of(data);
      break;
    }
    stop(line, no_loc_message({kept.begin(), kept.end()}, next_row));
    return false;
  }

  column_map map_;
  start_state state_;
  std::vector<named_column> named_;
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
    return false;
  }

 private:
  friend delimited_reader;

  void emit_held(input_record& out) { row(held_next_, out); }

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
    split(l.text, out);
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

  // The hot path: memchr from tab to tab, only as far as the last column read.
  void split(std::string_view text, input_record& out) {
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
      if (tab == nullptr || i + 1 == n) return;
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
             const std::vector<named_column>& named, reader_tuning tuning)
      : delimited_reader(std::move(source), std::move(name), columns, named,
                         tuning),
        record_too_long_("record" + too_long_.substr(4)) {}

  bool next(input_record& out) override {
    if (!error_.empty()) return false;
    if (state_ != start_state::rows) return start(out);
    line_reader::line l;
    while (lines_.next(l)) {
      if (!l.too_long && is_blank_line(l.text)) continue;
      const std::uint64_t start = l.number;
      const outcome o = split(l, map_.roles.size());
      if (o == outcome::stop) return false;
      emit(out, o, start, fields_, count_);
      return true;
    }
    return false;
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

  // The first row under reader_options::columns: a record, unless it looks
  // like a header (record_reader.h); then the row after it is the record.
  // Undecided, row 1's fields are copied and row 2 split into fields_:
  // memory stays two records.
  bool first_row(const line_reader::line& l, input_record& out) {
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
        const std::size_t comma = s.find(',', i);
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
          if (!lines_.next(l)) {
            if (!lines_.error().empty()) return outcome::stop;
            problem_ = "unterminated quoted field";
            return outcome::problem;
          }
          if (l.too_long) {
            problem_ = too_long_;
            return outcome::problem;
          }
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
      if (s[i] != ',') {
        problem_ = "unexpected character after a closing quote";
        return outcome::problem;
      }
      ++i;
    }
    if (overflow) {
      problem_ = record_too_long_;
      return outcome::problem;
    }
    return outcome::ok;
  }

  std::vector<field> fields_;
  std::size_t count_ = 0;
  std::size_t keep_ = 0;
  std::string_view problem_;
  std::string record_too_long_;
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
    reader_tuning tuning) {
  return std::make_unique<csv_reader>(std::move(source), std::move(name),
                                      columns, named, tuning);
}

}  // namespace sitemill::detail
