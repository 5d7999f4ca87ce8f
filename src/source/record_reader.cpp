#include "sitemill/source/record_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "detail/fd_wait.h"
#include "detail/text.h"
#include "source/readers.h"

namespace sitemill {
namespace {

using detail::iends_with;
using detail::iequals;

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

constexpr std::string_view column_names[] = {"loc", "lastmod", "changefreq",
                                             "priority"};

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

}  // namespace

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

column_map map_header(const std::vector<std::string_view>& names,
                      std::uint64_t line,
                      std::vector<record_reader::note>& notes) {
  column_map map;
  map.kinds.assign(names.size(), column::ignored);
  bool seen[4] = {};
  std::string unknown;
  std::size_t unknown_count = 0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string_view name = trim_name(names[i]);
    std::size_t k = 0;
    while (k < 4 && !iequals(name, column_names[k])) ++k;
    if (k == 4) {
      if (unknown_count++ != 0) unknown.append(", ");
      unknown.append(quoted(name));
    } else if (seen[k]) {
      notes.push_back({line, "column " + std::string(column_names[k]) +
                                 " appears twice; only the first is read"});
    } else {
      seen[k] = true;
      map.kinds[i] = static_cast<column>(k);
    }
  }
  if (unknown_count != 0) {
    notes.push_back(
        {line, (unknown_count == 1 ? "unknown column " : "unknown columns ") +
                   unknown + " ignored"});
  }
  while (!map.kinds.empty() && map.kinds.back() == column::ignored)
    map.kinds.pop_back();
  map.has_loc = seen[0];
  return map;
}

result<std::unique_ptr<record_reader>> make_reader(
    std::unique_ptr<byte_source> source, std::string name,
    const reader_options& options, reader_tuning tuning) {
  switch (options.format) {
    case input_format::txt:
      return make_txt_reader(std::move(source), std::move(name), tuning);
    case input_format::jsonl:
      return make_jsonl_reader(std::move(source), std::move(name), tuning);
    case input_format::tsv:
    case input_format::csv:
      break;
  }
  if (!options.columns.empty()) {
    bool seen[4] = {};
    for (const column c : options.columns) {
      if (c == column::ignored) continue;
      const auto k = static_cast<std::size_t>(c);
      if (seen[k]) {
        return error{name + ": the column list names " +
                     std::string(column_names[k]) + " twice"};
      }
      seen[k] = true;
    }
    if (!seen[0]) return error{name + ": the column list has no loc column"};
  }
  if (options.format == input_format::tsv) {
    return make_tsv_reader(std::move(source), std::move(name), options.columns,
                           tuning);
  }
  return make_csv_reader(std::move(source), std::move(name), options.columns,
                         tuning);
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
