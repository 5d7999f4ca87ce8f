// tsv: tab-separated, no quoting (IANA text/tab-separated-values), one
// record per row after a header row or under reader_options::columns
// (source/delimited_reader.h). Hand-written because it is several times
// faster than libcsv and fast-cpp-csv-parser, the CSV libraries Debian has
// (benchmarks/README.md, "Readers against libraries").
#include <cstring>

#include "source/delimited_reader.h"

namespace sitemill::detail {
namespace {

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
  static constexpr bool tsv = true;

  void emit_held(input_record& out) { row(held_next_, out); }
  static char delimiter() { return '\t'; }
  static std::string split_cause() {
    return "a tab inside a cell shifts every cell after it, so the row is "
           "not read (TSV cannot quote a tab: take it out of the cell, or "
           "export the file as CSV)";
  }

  // The cells of a row split() found longer than the header (extra_ is the
  // text from the first cell past the header's): how many in all, with the
  // first texts of those past the header in extra_texts_.
  std::size_t cells_past_header() {
    extra_texts_.clear();
    std::size_t cells = header_names_.size();
    std::string_view rest = extra_;
    for (;;) {
      ++cells;
      const std::size_t tab = rest.find('\t');
      const std::string_view cell = rest.substr(0, tab);
      if (!is_blank(cell) && extra_texts_.size() < max_shown_texts)
        extra_texts_.push_back(cell);
      if (tab == std::string_view::npos) return cells;
      rest.remove_prefix(tab + 1);
    }
  }
  static std::string columns_are() {
    return "its columns, split at tabs, are ";
  }

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
      row_ = {};
      out.problem = too_long_;
      return;
    }
    row_ = l.text;
    const std::size_t cells = split(l.text, out);
    if (cells < header_names_.size()) {
      check_cells(l.number, cells);
    } else if (cells > header_names_.size() && !header_names_.empty() &&
               long_row(l.number, cells_past_header(), extra_texts_)) {
      out = input_record{};
      out.line = l.number;
      out.problem = long_problem_;
      return;
    }
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
  // (A one-pass scan of the row's tabs, 16 bytes at a time with SSE2, took
  // as many instructions as glibc's AVX2 memchr per cell: 272 per bench
  // row against about 220.)
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
        // Ignored columns after the last one read: counted, not split, up
        // to one past the header's, which makes the row too long.
        std::size_t cells = n + 1;
        const std::size_t header = header_names_.size();
        for (p = tab + 1; cells <= header; ++cells) {
          p = static_cast<const char*>(std::memchr(p, '\t', end - p));
          if (p == nullptr) break;
          ++p;
        }
        // p is where cell number `cells` starts.
        if (cells > header && header != 0) extra_ = {p, std::size_t(end - p)};
        return cells;
      }
      p = tab + 1;
    }
  }

  std::string held_;                     // an undecided first row's text
  line_reader::line held_next_;          // the row read to decide it
  std::vector<std::string_view> cells_;  // extension columns' text, by index
  std::string_view extra_;  // a too-long row's text past the header's cells
  std::vector<std::string_view> extra_texts_;
  std::vector<extension_value> values_;
};

}  // namespace

std::unique_ptr<record_reader> make_tsv_reader(
    std::unique_ptr<byte_source> source, std::string name,
    const std::vector<column>& columns, const std::vector<named_column>& named,
    reader_tuning tuning) {
  return std::make_unique<tsv_reader>(std::move(source), std::move(name),
                                      columns, named, tuning);
}

}  // namespace sitemill::detail
