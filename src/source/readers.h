// sitemill internals: the record readers behind record_reader::open, one per
// input format, all on top of line_reader.
#ifndef SITEMILL_SOURCE_READERS_H
#define SITEMILL_SOURCE_READERS_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "detail/text.h"
#include "sitemill/result.h"
#include "sitemill/source/record_reader.h"
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
  std::uint64_t bytes_read() const noexcept override {
    return lines_.bytes_read();
  }

  /// The line the last record was read from, when its fields are views of
  /// it as it stands (tsv, txt); empty otherwise. Valid as the record's
  /// views are. A view of the record outside it (a problem's text) is
  /// possible: the caller checks. Lets a consumer copy a record in one
  /// piece instead of field by field.
  std::string_view row() const noexcept { return row_; }

 protected:
  std::string_view row_;
  /// Ends reading with "NAME:LINE: message".
  void stop(std::uint64_t line, std::string_view message);

  line_reader lines_;
  std::string error_;
  std::vector<note> notes_;
  std::string too_long_;  // the problem text for a line over the cap
};

/// True for a line of nothing but spaces, tabs and CRs: not a record.
inline bool is_blank_line(std::string_view text) noexcept {
  for (const char c : text) {
    if (c != ' ' && c != '\t' && c != '\r') return false;
  }
  return true;
}

/// True for a cell of nothing but ASCII whitespace: no value.
inline bool is_blank(std::string_view text) noexcept {
  return detail::trim(text).empty();
}

/// The extension a list input names by `name`, ASCII case ignored:
/// "alternate", "image", "video", "news", or a namespace's prefix or name
/// ("xhtml", "hreflang"); std::nullopt otherwise.
std::optional<extension_kind> extension_named(std::string_view name) noexcept;

/// The name list inputs give `kind`: "alternate", "image", "video", "news"
/// (a JSONL key may add an "s": "alternates", "images", "videos").
std::string_view input_name(extension_kind kind) noexcept;

/// One extension value a tsv or csv row may give: the cell of `column`, or
/// for an alternate:LANG column, LANG as the link's hreflang (`fixed`).
struct extension_slot {
  extension_field_id field = 0;
  std::uint32_t group = 0;  // slots of one item are adjacent, one group
  std::size_t column = 0;
  bool fixed = false;
};

/// Which record field each column of a tsv or csv row feeds.
struct column_map {
  std::vector<column> kinds;  // by column index; trailing ignored ones dropped
  /// kinds[i].what, packed: the split loops read one byte per cell.
  std::vector<column::role> roles;
  bool has_loc = false;
  /// The extension columns, in the order their values go into a record:
  /// item by item, an attribute after its element.
  std::vector<extension_slot> slots;
};

/// The map for `names` (a header row; parse_column() names). Unknown and
/// repeated names become ignored columns, each reported in one note on
/// `line`.
column_map map_header(const std::vector<std::string_view>& names,
                      std::uint64_t line,
                      std::vector<record_reader::note>& notes);

/// The map for a column list that make_reader accepted.
column_map map_columns(const std::vector<column>& columns);

/// The map for a header row (`names`) read by name
/// (reader_options::named_columns): the cells `named` names, the others
/// ignored. An error message naming each name the header lacks, and the
/// header's cells after `columns_are` ("its columns are "), when one is
/// missing.
result<column_map> map_named_header(const std::vector<std::string_view>& names,
                                    const std::vector<named_column>& named,
                                    std::string_view columns_are);

/// A header row's cells for a message: "url", "updated_at", ... (the first
/// 20, quoted and shortened).
std::string header_cells(const std::vector<std::string_view>& names);

/// True for a cell whose text (trimmed) starts as a list's URLs do:
/// "SCHEME://" (RFC 3986 scheme) or "/". Header detection's test of a loc
/// cell (reader_options::columns).
bool is_url_like(std::string_view cell) noexcept;

/// True for a usual header name of a URL column: loc, url, link, href, uri,
/// location, address, page, permalink (ASCII case ignored, trimmed).
bool is_loc_header_word(std::string_view cell) noexcept;

/// The delimiter of a csv whose first row (its header, or its first record
/// under a column list) is `line`: of ',' ';' tab '|', the one found most
/// often outside double quotes, a tie going to the earlier in that order, so
/// a row with none of them is comma-separated (RFC 4180). Quotes are
/// counted on this line only: a header cell that runs onto the next line
/// hides nothing of this one.
char sniff_delimiter(std::string_view line) noexcept;

/// The error for a header row (its cells `names`) without loc, when no
/// names were given: the header's cells after `columns_are` ("its columns
/// are "), and the column list that would read it, or the delimiter, when
/// the header is one cell holding another than `delimiter` (the one that
/// split it; `tsv`: the format cannot take another). `next_row`: the cells
/// of the row after the header, to find the URL column by its value.
std::string no_loc_message(const std::vector<std::string_view>& names,
                           const std::vector<std::string_view>& next_row,
                           std::string_view columns_are, char delimiter,
                           bool tsv);

/// How a message names a delimiter: "','", "';'", "tab", "'|'".
std::string delimiter_name(char delimiter);

/// Stores `value` in the core field of `out` that `kind` names (extension
/// columns go through extension_values()).
inline void assign_field(input_record& out, column::role kind,
                         std::string_view value) {
  switch (kind) {
    case column::role::loc:
      out.loc = value;
      break;
    case column::role::lastmod:
      out.lastmod = value;
      break;
    case column::role::changefreq:
      out.changefreq = value;
      break;
    case column::role::priority:
      out.priority = value;
      break;
    case column::role::section:
      out.section = value;
      break;
    case column::role::extension:
    case column::role::ignored:
      break;
  }
}

/// A row's extension values into `out` (replaced), from `cell(i)`, the
/// text of column i (empty past the row's end). An empty or blank cell is
/// no value, and an item none of whose cells has text is no item, so a row
/// without an image has none. Views borrow from the cells and from `map`.
template <class Cell>
void extension_values(const column_map& map, Cell cell,
                      std::vector<extension_value>& out) {
  out.clear();
  const auto& slots = map.slots;
  std::uint32_t item = 0;
  for (std::size_t first = 0; first < slots.size();) {
    std::size_t end = first;
    bool any = false;
    for (; end < slots.size() && slots[end].group == slots[first].group; ++end)
      any = any || (!slots[end].fixed && !is_blank(cell(slots[end].column)));
    if (any) {
      for (std::size_t s = first; s < end; ++s) {
        const std::string_view text = slots[s].fixed
                                          ? map.kinds[slots[s].column].hreflang
                                          : cell(slots[s].column);
        if (!is_blank(text)) out.push_back({slots[s].field, item, text});
      }
      ++item;
    }
    first = end;
  }
}

std::unique_ptr<record_reader> make_txt_reader(
    std::unique_ptr<byte_source> source, std::string name,
    reader_tuning tuning);
std::unique_ptr<record_reader> make_tsv_reader(
    std::unique_ptr<byte_source> source, std::string name,
    const std::vector<column>& columns, const std::vector<named_column>& named,
    reader_tuning tuning);
/// `delimiter`: 0 to take the one sniff_delimiter() finds in the first row.
std::unique_ptr<record_reader> make_csv_reader(
    std::unique_ptr<byte_source> source, std::string name,
    const std::vector<column>& columns, const std::vector<named_column>& named,
    char delimiter, reader_tuning tuning);
std::unique_ptr<record_reader> make_jsonl_reader(
    std::unique_ptr<byte_source> source, std::string name,
    const std::vector<named_column>& named, reader_tuning tuning);

}  // namespace sitemill::detail

#endif  // SITEMILL_SOURCE_READERS_H
