#include "sitemill/source/record_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "detail/fd_wait.h"
#include "detail/text.h"
#include "source/readers.h"

namespace sitemill {
namespace {

using detail::iends_with;
using detail::iequals;
using detail::trim;

std::string_view trim_name(std::string_view s) noexcept {
  while (!s.empty() &&
         (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

constexpr std::string_view core_names[] = {"loc", "lastmod", "changefreq",
                                           "priority", "section"};

constexpr std::string_view input_names[extension_kind_count] = {
    "alternate", "image", "video", "news"};

// A KEY of a KIND:KEY column: a key of the table, or the last part of
// exactly one nested key ("name" for "publication.name"), so a spreadsheet
// user need not type the XML's nesting when it is unambiguous.
std::optional<extension_field_id> find_column_key(extension_kind kind,
                                                  std::string_view key) {
  if (auto id = find_extension_field(kind, key)) return id;
  if (key.find_first_of(".@") != std::string_view::npos) return std::nullopt;
  const auto fields = extension_fields();
  const field_range r = fields_of(kind);
  std::optional<extension_field_id> found;
  for (extension_field_id id = r.first; id < r.last; ++id) {
    const std::string_view k = fields[id].key;
    const std::size_t dot = k.rfind('.');
    if (dot == std::string_view::npos ||
        k.find('@') != std::string_view::npos || k.substr(dot + 1) != key)
      continue;
    if (found) return std::nullopt;
    found = id;
  }
  return found;
}

// The LANG of alternate:LANG: a language tag's letters, digits and hyphens
// ("de", "de-CH", "x-default"). Whether it is a valid tag is the entry
// stage's question, asked of every link.
bool is_language_text(std::string_view s) noexcept {
  if (s.empty()) return false;
  for (const char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '-'))
      return false;
  }
  return true;
}

// Two columns that would fill the same value: the second is not read
// (a repeatable field's column may come again: one more value).
bool same_column(const column& a, const column& b) noexcept {
  if (a.what != b.what || a.what == column::role::ignored) return false;
  if (a.what != column::role::extension) return true;
  // The attributes of a repeatable element repeat with it.
  return a.field == b.field && a.item == b.item &&
         iequals(a.hreflang, b.hreflang) &&
         !extension_fields()[element_field(a.field)].repeatable;
}

// A header name as it goes into a note: quoted, and short, since a header
// cell can be up to a line long.
std::string quoted(std::string_view name) {
  constexpr std::size_t shown = 64;
  std::string out = "\"";
  out.append(name.substr(0, shown));
  if (name.size() > shown) out.append("...");
  out.append("\"");
  return out;
}

// A named column list reads each name once and fills each column once.
std::optional<error> check_named_columns(const std::vector<named_column>& named,
                                         const std::string& input) {
  for (std::size_t i = 0; i < named.size(); ++i) {
    if (trim_name(named[i].name).empty())
      return error{input + ": the column list maps " +
                   column_name(named[i].what) + " to an empty name"};
    for (std::size_t j = 0; j < i; ++j) {
      if (same_column(named[j].what, named[i].what)) {
        return error{input + ": the column list names " +
                     column_name(named[i].what) + " twice"};
      }
      if (iequals(trim_name(named[j].name), trim_name(named[i].name))) {
        return error{input + ": the column list reads " +
                     quoted(trim_name(named[i].name)) + " twice"};
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<column> parse_column(std::string_view name) {
  name = trim_name(name);
  for (std::size_t k = 0; k < std::size(core_names); ++k)
    if (iequals(name, core_names[k]))
      return column{static_cast<column::role>(k)};
  // KIND[N][:KEY]
  const std::size_t colon = name.find(':');
  const std::string_view head = name.substr(0, colon);
  std::size_t digits = head.size();
  while (digits > 0 && head[digits - 1] >= '0' && head[digits - 1] <= '9')
    --digits;
  const auto kind = detail::extension_named(head.substr(0, digits));
  if (!kind) return std::nullopt;
  column c{column::role::extension};
  if (digits != head.size()) {
    // "image2" is the second image: numbers count from 1, without zeros
    // in front, up to a bound no URL reaches (1,000 images).
    const std::string_view number = head.substr(digits);
    if (number.front() == '0' || number.size() > 5) return std::nullopt;
    for (const char d : number) c.item = c.item * 10 + (d - '0');
    --c.item;
  }
  const std::string_view given =
      colon == std::string_view::npos ? "loc" : name.substr(colon + 1);
  std::string key(given);
  for (char& ch : key) ch = detail::ascii_lower(ch);
  if (auto id = find_column_key(*kind, key)) {
    c.field = *id;
    return c;
  }
  if (*kind == extension_kind::alternate && digits == head.size() &&
      colon != std::string_view::npos && is_language_text(given)) {
    c.field = *find_extension_field(extension_kind::alternate, "@href");
    c.hreflang = std::string(given);
    return c;
  }
  return std::nullopt;
}

std::string column_name(const column& c) {
  if (c.what == column::role::ignored) return "-";
  if (c.what != column::role::extension)
    return std::string(core_names[static_cast<std::size_t>(c.what)]);
  const extension_field& f = extension_fields()[c.field];
  std::string name(detail::input_name(f.kind));
  if (c.item != 0) name += std::to_string(c.item + 1);
  name += ':';
  if (!c.hreflang.empty()) return name + c.hreflang;
  name += f.key.front() == '@' ? f.key.substr(1) : f.key;
  return name;
}

result<column_list> parse_column_list(std::string_view text) {
  column_list list;
  bool by_name = false;
  std::size_t count = 0;
  for (std::size_t start = 0; start <= text.size(); ++count) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    const std::string_view item = trim_name(text.substr(start, comma - start));
    start = comma + 1;
    const std::size_t equals = item.find('=');
    if (count != 0 && by_name != (equals != std::string_view::npos)) {
      return error{
          "a column list is either in order (loc,lastmod,-,image) "
          "or by header name (loc=url,lastmod=updated_at), not "
          "both: " +
          quoted(item)};
    }
    by_name = equals != std::string_view::npos;
    if (item.empty() || item == "-") {
      list.in_order.push_back(column::ignored);
      continue;
    }
    const std::string_view name = item.substr(0, equals);
    auto c = parse_column(name);
    if (!c) {
      return error{
          "unknown column " + quoted(trim_name(name)) +
          "; a column is loc, lastmod, changefreq, priority, section or an "
          "extension column (image, image2:caption, alternate:de, "
          "news:title, video:thumbnail_loc; docs/inputs.md), and "
          "- skips a cell of a list in order"};
    }
    if (!by_name) {
      list.in_order.push_back(std::move(*c));
      continue;
    }
    const std::string_view header = trim_name(item.substr(equals + 1));
    if (header.empty())
      return error{quoted(item) + " names no header column after the ="};
    list.by_name.push_back({std::string(header), std::move(*c)});
  }
  return list;
}

std::optional<input_format> parse_input_format(std::string_view name) noexcept {
  if (iequals(name, "txt")) return input_format::txt;
  if (iequals(name, "tsv")) return input_format::tsv;
  if (iequals(name, "csv")) return input_format::csv;
  if (iequals(name, "jsonl") || iequals(name, "ndjson"))
    return input_format::jsonl;
  return std::nullopt;
}

std::optional<input_format> format_from_path(std::string_view path) noexcept {
  if (iends_with(path, ".gz")) path.remove_suffix(3);
  const std::size_t slash = path.find_last_of('/');
  if (slash != std::string_view::npos) path.remove_prefix(slash + 1);
  const std::size_t dot = path.find_last_of('.');
  // A name that is only an extension (".tsv") is a hidden file, not a type.
  if (dot == std::string_view::npos || dot == 0) return std::nullopt;
  return parse_input_format(path.substr(dot + 1));
}

result<std::unique_ptr<record_reader>> record_reader::open(
    const std::string& path, const reader_options& options) {
  return detail::open_reader(path, options, detail::reader_tuning{});
}

namespace detail {

line_record_reader::line_record_reader(std::unique_ptr<byte_source> source,
                                       std::string name, reader_tuning tuning)
    : lines_(std::move(source), std::move(name), tuning),
      too_long_(too_long_message(tuning.max_line)) {}

void line_record_reader::stop(std::uint64_t line, std::string_view message) {
  error_ = lines_.name() + ":" + std::to_string(line) + ": ";
  error_.append(message);
}

std::optional<extension_kind> extension_named(std::string_view name) noexcept {
  for (std::size_t k = 0; k < extension_kind_count; ++k) {
    const auto kind = static_cast<extension_kind>(k);
    const extension_namespace& ns = namespace_of(kind);
    if (iequals(name, input_names[k]) || iequals(name, ns.prefix) ||
        iequals(name, ns.name))
      return kind;
  }
  return std::nullopt;
}

std::string_view input_name(extension_kind kind) noexcept {
  return input_names[static_cast<std::size_t>(kind)];
}

column_map map_columns(const std::vector<column>& columns) {
  column_map map;
  map.kinds = columns;
  while (!map.kinds.empty() && map.kinds.back() == column::ignored)
    map.kinds.pop_back();
  for (const column& c : map.kinds) map.roles.push_back(c.what);
  // Items: one per (kind, number) and one per alternate:LANG, numbered in
  // the writer's order of kinds; within an item, values by element in the
  // table's order, the n-th column of a repeated field with the n-th of
  // its attributes, an attribute after its element.
  struct item_key {
    extension_kind kind;
    bool by_language;
    std::uint32_t item;
    std::size_t first_column;
  };
  std::vector<item_key> items;
  struct pending {
    extension_slot slot;
    std::size_t item;  // into items
    extension_field_id element;
    std::uint32_t repeat;
  };
  std::vector<pending> values;
  const auto fields = extension_fields();
  for (std::size_t i = 0; i < map.kinds.size(); ++i) {
    const column& c = map.kinds[i];
    if (c.what == column::role::loc) map.has_loc = true;
    if (c.what != column::role::extension) continue;
    const extension_kind kind = fields[c.field].kind;
    std::size_t it = 0;
    while (it < items.size() &&
           !(items[it].kind == kind &&
             items[it].by_language == !c.hreflang.empty() &&
             (c.hreflang.empty()
                  ? items[it].item == c.item
                  : iequals(map.kinds[items[it].first_column].hreflang,
                            c.hreflang))))
      ++it;
    if (it == items.size())
      items.push_back({kind, !c.hreflang.empty(), c.item, i});
    std::uint32_t repeat = 0;
    for (const pending& p : values)
      repeat += p.item == it && p.slot.field == c.field;
    values.push_back(
        {{c.field, 0, i, false}, it, element_field(c.field), repeat});
    if (!c.hreflang.empty()) {
      const extension_field_id hreflang =
          *find_extension_field(extension_kind::alternate, "@hreflang");
      values.push_back({{hreflang, 0, i, true}, it, hreflang, 0});
    }
  }
  std::vector<std::uint32_t> order(items.size());
  for (std::uint32_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) {
    if (items[a].kind != items[b].kind) return items[a].kind < items[b].kind;
    if (items[a].by_language != items[b].by_language)
      return !items[a].by_language;
    return items[a].item < items[b].item;
  });
  std::vector<std::uint32_t> group(items.size());
  for (std::uint32_t k = 0; k < order.size(); ++k) group[order[k]] = k;
  std::stable_sort(values.begin(), values.end(),
                   [&](const pending& a, const pending& b) {
                     if (group[a.item] != group[b.item])
                       return group[a.item] < group[b.item];
                     if (a.element != b.element) return a.element < b.element;
                     if (a.repeat != b.repeat) return a.repeat < b.repeat;
                     return a.slot.field < b.slot.field;
                   });
  for (pending& p : values) {
    p.slot.group = group[p.item];
    map.slots.push_back(p.slot);
  }
  return map;
}

column_map map_header(const std::vector<std::string_view>& names,
                      std::uint64_t line,
                      std::vector<record_reader::note>& notes) {
  std::vector<column> kinds(names.size(), column::ignored);
  std::string unknown;
  std::size_t unknown_count = 0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    auto c = parse_column(names[i]);
    if (!c) {
      if (unknown_count++ != 0) unknown.append(", ");
      unknown.append(quoted(trim_name(names[i])));
      continue;
    }
    bool repeated = false;
    for (std::size_t j = 0; j < i && !repeated; ++j)
      repeated = same_column(kinds[j], *c);
    if (repeated) {
      notes.push_back({line, "column " + column_name(*c) +
                                 " appears twice; only the first is read"});
    } else {
      kinds[i] = std::move(*c);
    }
  }
  if (unknown_count != 0) {
    notes.push_back(
        {line, (unknown_count == 1 ? "unknown column " : "unknown columns ") +
                   unknown + " ignored"});
  }
  return map_columns(kinds);
}

std::string header_cells(const std::vector<std::string_view>& names) {
  // A header may have hundreds of cells; a message names the first ones.
  constexpr std::size_t shown = 20;
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < shown; ++i) {
    if (i != 0) out.append(", ");
    out.append(quoted(trim_name(names[i])));
  }
  if (names.size() > shown)
    out.append(" and " + std::to_string(names.size() - shown) + " more");
  return out;
}

result<column_map> map_named_header(const std::vector<std::string_view>& names,
                                    const std::vector<named_column>& named,
                                    std::string_view columns_are) {
  std::vector<column> kinds(names.size(), column::ignored);
  std::string missing;
  std::size_t missing_count = 0;
  for (const named_column& n : named) {
    const std::string_view want = trim_name(n.name);
    std::size_t i = 0;
    while (i < names.size() && !iequals(trim_name(names[i]), want)) ++i;
    if (i == names.size()) {
      if (missing_count++ != 0) missing.append(", ");
      missing.append(quoted(want) + " (for " + column_name(n.what) + ")");
      continue;
    }
    kinds[i] = n.what;
  }
  if (missing_count != 0) {
    return error{std::string(missing_count == 1 ? "header has no column "
                                                : "header has no columns ") +
                 missing + "; " + std::string(columns_are) +
                 header_cells(names)};
  }
  return map_columns(kinds);
}

bool is_url_like(std::string_view cell) noexcept {
  cell = trim(cell);
  if (!cell.empty() && cell.front() == '/') return true;
  // RFC 3986 scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then "://".
  std::size_t i = 0;
  while (i < cell.size() &&
         ((cell[i] >= 'a' && cell[i] <= 'z') ||
          (cell[i] >= 'A' && cell[i] <= 'Z') ||
          (i != 0 && ((cell[i] >= '0' && cell[i] <= '9') || cell[i] == '+' ||
                      cell[i] == '-' || cell[i] == '.'))))
    ++i;
  return i != 0 && cell.substr(i).starts_with("://");
}

char sniff_delimiter(std::string_view line) noexcept {
  constexpr char candidates[] = {',', ';', '\t', '|'};
  std::size_t counts[std::size(candidates)] = {};
  bool quoted = false;
  for (const char c : line) {
    // "" inside quotes toggles twice: the cell stays quoted.
    if (c == '"') quoted = !quoted;
    if (quoted) continue;
    for (std::size_t k = 0; k < std::size(candidates); ++k)
      counts[k] += c == candidates[k];
  }
  std::size_t best = 0;
  for (std::size_t k = 1; k < std::size(candidates); ++k)
    if (counts[k] > counts[best]) best = k;
  return candidates[best];
}

std::string delimiter_name(char delimiter) {
  if (delimiter == '\t') return "tab";
  std::string name = "'";
  append_printable(name, std::string_view(&delimiter, 1));
  return name + "'";
}

// The error for a header row without loc (and no names given): the
// header's cells, and the column list that would read it, named as
// list_source() takes it (`columns`: the library names options, result.h). A
// header row that looks like data (a URL in its first cell) is the usual
// headerless file read without a column list; otherwise the URL column is the
// one with a usual name (url, link), or the first whose value in the next row
// is a URL.
// `columns_are` says how the row was split ("its columns, split at ';' ...,
// are "), and `delimiter` is what split it: a header of one cell that holds
// another delimiter was split at the wrong one, and the message says which
// to give.
std::string no_loc_message(const std::vector<std::string_view>& names,
                           const std::vector<std::string_view>& next_row,
                           std::string_view columns_are, char delimiter,
                           bool tsv) {
  std::string message = "header has no loc column";
  if (!names.empty() && names.front().find("://") != std::string_view::npos) {
    return message.append(
        " (the first row looks like data: a file without a header row needs "
        "its columns named, e.g. `columns` loc,lastmod)");
  }
  message.append("; " + std::string(columns_are) + header_cells(names));
  if (names.size() == 1) {
    const char other = sniff_delimiter(names.front());
    if (other != delimiter &&
        names.front().find(other) != std::string_view::npos) {
      return message.append(
          tsv && other != '\t'
              ? "; it is one cell holding " + delimiter_name(other) +
                    ": to split it there, read the file as csv (`format` "
                    "csv" +
                    (other == ',' ? "" : ", `delimiter` " + std::string(1, other)) +
                    ")"
              : "; it is one cell holding " + delimiter_name(other) +
                    ": to split it there, give `delimiter` " +
                    (other == '\t' ? std::string("tab")
                                    : std::string(1, other)));
    }
  }
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

bool is_loc_header_word(std::string_view cell) noexcept {
  static constexpr std::string_view words[] = {"loc",     "url",  "link",
                                               "href",    "uri",  "location",
                                               "address", "page", "permalink"};
  cell = trim(cell);
  return std::any_of(std::begin(words), std::end(words),
                     [&](std::string_view w) { return iequals(cell, w); });
}

result<std::unique_ptr<record_reader>> make_reader(
    std::unique_ptr<byte_source> source, std::string name,
    const reader_options& options, reader_tuning tuning) {
  const auto& named = options.named_columns;
  switch (options.format) {
    case input_format::txt:
      return make_txt_reader(std::move(source), std::move(name), tuning);
    case input_format::jsonl:
      if (auto problem = check_named_columns(named, name)) return *problem;
      return make_jsonl_reader(std::move(source), std::move(name), named,
                               tuning);
    case input_format::tsv:
    case input_format::csv:
      break;
  }
  // A quote or a line break cannot separate cells: RFC 4180 gives them
  // their own meaning.
  if (const char d = options.delimiter;
      d == '"' || d == '\n' || d == '\r')
    return error{name + ": " + delimiter_name(d) +
                 " cannot separate cells (a quote or a line break)"};
  if (!options.columns.empty() && !named.empty()) {
    return error{name +
                 ": the columns are given both in order and by header name"};
  }
  if (!options.columns.empty()) {
    const auto& cols = options.columns;
    for (std::size_t i = 0; i < cols.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (same_column(cols[j], cols[i])) {
          return error{name + ": the column list names " +
                       column_name(cols[i]) + " twice"};
        }
      }
    }
    if (std::find(cols.begin(), cols.end(), column::loc) == cols.end())
      return error{name + ": the column list has no loc column"};
  }
  if (auto problem = check_named_columns(named, name)) return *problem;
  if (!named.empty() &&
      std::none_of(named.begin(), named.end(), [](const named_column& n) {
        return n.what == column::loc;
      })) {
    return error{name + ": the column list has no loc column"};
  }
  if (options.format == input_format::tsv) {
    if (options.delimiter != 0 && options.delimiter != '\t')
      return error{name + ": a tsv input is tab-separated; to read one "
                          "separated by " +
                   delimiter_name(options.delimiter) +
                   ", read it as csv (`format` csv)"};
    return make_tsv_reader(std::move(source), std::move(name), options.columns,
                           named, tuning);
  }
  return make_csv_reader(std::move(source), std::move(name), options.columns,
                         named, options.delimiter, tuning);
}

result<std::unique_ptr<record_reader>> open_reader(
    const std::string& path, const reader_options& options,
    reader_tuning tuning) {
  if (path == "-") {
    return make_reader(
        std::make_unique<fd_source>(STDIN_FILENO, false, options.stop),
        "<stdin>", options, tuning);
  }
  // A FIFO's writer may never come: do not wait for it in open(2).
  const int fd = detail::open_for_reading(path.c_str());
  if (fd < 0) {
    return error{"cannot open " + path + ": " + std::strerror(errno)};
  }
  auto source = std::make_unique<fd_source>(fd, true, options.stop);
  struct stat st {};
  if (::fstat(fd, &st) == 0) {
    // open(2) accepts a directory; say so now rather than as a read error.
    if (S_ISDIR(st.st_mode)) {
      return error{"cannot open " + path + ": " + std::strerror(EISDIR)};
    }
    if (S_ISREG(st.st_mode)) ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  }
  return make_reader(std::move(source), path, options, tuning);
}

}  // namespace detail
}  // namespace sitemill
