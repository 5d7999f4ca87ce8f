// tsv and csv: a header row naming the columns (or reader_options::columns),
// then one record per row. tsv has no quoting (IANA text/tab-separated-values);
// csv follows RFC 4180, so a quoted field may span lines. Hand-written because
// it is several times faster than libcsv and fast-cpp-csv-parser, the CSV
// libraries Debian has (benchmarks/README.md, "Readers against libraries").
#include <algorithm>
#include <cstring>

#include "source/readers.h"

namespace sitemill::detail {
namespace {

// The error for a header row without loc, with a hint when the row looks like
// data: the usual cause is a headerless file read without a column list.
std::string no_loc_message(const std::vector<std::string_view>& names) {
  std::string message = "header has no loc column";
  if (!names.empty() && names.front().find("://") != std::string_view::npos) {
    message.append(
        " (the first row looks like data: a file without a header row needs "
        "its columns named, e.g. --columns loc,lastmod)");
  }
  return message;
}

class tsv_reader final : public line_record_reader {
 public:
  tsv_reader(std::unique_ptr<byte_source> source, std::string name,
             const std::vector<column>& columns, reader_tuning tuning)
      : line_record_reader(std::move(source), std::move(name), tuning) {
    if (!columns.empty()) {
      map_ = map_columns(columns);
      have_header_ = true;
    }
  }

  bool next(input_record& out) override {
    if (!error_.empty()) return false;
    line_reader::line l;
    while (lines_.next(l)) {
      if (!l.too_long && is_blank_line(l.text)) continue;
      if (!have_header_) {
        if (!read_header(l)) return false;
        continue;
      }
      out = input_record{};
      out.line = l.number;
      if (l.too_long) {
        out.problem = too_long_;
      } else {
        split(l.text, out);
        if (!map_.slots.empty()) {
          extension_values(
              map_, [&](std::size_t i) { return cells_[i]; }, values_);
          out.extensions = values_;
        }
      }
      return true;
    }
    return false;
  }

 private:
  bool read_header(const line_reader::line& l) {
    if (l.too_long) {
      stop(l.number, "header " + too_long_);
      return false;
    }
    std::vector<std::string_view> names;
    std::string_view rest = l.text;
    for (;;) {
      const std::size_t tab = rest.find('\t');
      names.push_back(rest.substr(0, tab));
      if (tab == std::string_view::npos) break;
      rest.remove_prefix(tab + 1);
    }
    map_ = map_header(names, l.number, notes_);
    if (!map_.has_loc) {
      stop(l.number, no_loc_message(names));
      return false;
    }
    have_header_ = true;
    return true;
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

  column_map map_;
  bool have_header_ = false;
  std::vector<std::string_view> cells_;  // extension columns' text, by index
  std::vector<extension_value> values_;
};

class csv_reader final : public line_record_reader {
 public:
  csv_reader(std::unique_ptr<byte_source> source, std::string name,
             const std::vector<column>& columns, reader_tuning tuning)
      : line_record_reader(std::move(source), std::move(name), tuning),
        record_too_long_("record" + too_long_.substr(4)) {
    if (!columns.empty()) {
      map_ = map_columns(columns);
      have_header_ = true;
    }
  }

  bool next(input_record& out) override {
    if (!error_.empty()) return false;
    line_reader::line l;
    while (lines_.next(l)) {
      if (!l.too_long && is_blank_line(l.text)) continue;
      if (!have_header_) {
        if (!read_header(l)) return false;
        continue;
      }
      const std::uint64_t start = l.number;
      const outcome o = split(l, map_.roles.size());
      if (o == outcome::stop) return false;
      out = input_record{};
      out.line = start;
      if (o == outcome::problem) {
        out.problem = problem_;
      } else {
        const std::size_t n = std::min(count_, map_.roles.size());
        for (std::size_t i = 0; i < n; ++i) {
          assign_field(out, map_.roles[i], fields_[i].value());
        }
        if (!map_.slots.empty()) {
          extension_values(
              map_,
              [&](std::size_t i) {
                return i < n ? fields_[i].value() : std::string_view();
              },
              values_);
          out.extensions = values_;
        }
      }
      return true;
    }
    return false;
  }

 private:
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
    map_ = map_header(names, start, notes_);
    if (!map_.has_loc) {
      stop(start, no_loc_message(names));
      return false;
    }
    have_header_ = true;
    return true;
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

  column_map map_;
  bool have_header_ = false;
  std::vector<field> fields_;
  std::size_t count_ = 0;
  std::size_t keep_ = 0;
  std::string_view problem_;
  std::string record_too_long_;
  std::vector<extension_value> values_;
};

}  // namespace

std::unique_ptr<record_reader> make_tsv_reader(
    std::unique_ptr<byte_source> source, std::string name,
    const std::vector<column>& columns, reader_tuning tuning) {
  return std::make_unique<tsv_reader>(std::move(source), std::move(name),
                                      columns, tuning);
}

std::unique_ptr<record_reader> make_csv_reader(
    std::unique_ptr<byte_source> source, std::string name,
    const std::vector<column>& columns, reader_tuning tuning) {
  return std::make_unique<csv_reader>(std::move(source), std::move(name),
                                      columns, tuning);
}

}  // namespace sitemill::detail
