#include "sitemill/report/finding_lines.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <map>
#include <memory>
#include <string_view>

#include "detail/text.h"
#include "detail/utf8.h"
#include "sitemill/url/url.h"
#include "source/line_reader.h"

namespace sitemill {
namespace {

// Lines between two polls of `cancelled`.
constexpr std::uint64_t poll_every = 4096;

// The byte where character `column` (1-based) starts; the end when the line
// is shorter.
std::size_t byte_of_column(std::string_view line, std::uint64_t column) {
  std::size_t i = 0;
  for (std::uint64_t c = 1; c < column && i < line.size(); ++c) {
    const std::size_t n = detail::utf8_sequence_length(line, i);
    i += n == 0 ? 1 : n;
  }
  return i;
}

// `i` moved back to the first byte of the character it is inside.
std::size_t character_start(std::string_view s, std::size_t i) {
  while (i > 0 && i < s.size() &&
         (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80)
    --i;
  return i;
}

// Up to quote_window_bytes of `line`, from its first non-blank byte or, when
// the column is further on, from half a window before it ("..." marks a cut).
std::string window_of(std::string_view line, std::uint64_t column) {
  std::size_t begin = 0;
  while (begin < line.size() && (line[begin] == ' ' || line[begin] == '\t'))
    ++begin;
  const std::size_t at = byte_of_column(line, column);
  std::string out;
  if (column > 0 && at > begin + quote_window_bytes / 2) {
    begin = character_start(line, at - quote_window_bytes / 2);
    out += "...";
  }
  // A tab is spacing, not a control byte to show as \x09.
  std::string text(line.substr(begin, quote_window_bytes + 1));
  for (char& c : text)
    if (c == '\t') c = ' ';
  detail::append_printable(out, text, quote_window_bytes);
  return out;
}

// A regular file opened for reading, or -1 (a FIFO or device named as a
// document is not read again: it could block or differ).
int open_regular(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return -1;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

void quote_finding_lines(std::vector<code_findings>& findings,
                         const std::function<bool()>& cancelled) {
  // Per local document, its wanted lines in order, and the examples on each.
  std::map<std::string, std::map<std::uint64_t, std::vector<finding_example*>>>
      wanted;
  for (code_findings& g : findings)
    for (finding_example& e : g.examples)
      if (e.line > 0 && !has_http_scheme(e.document) && e.document != "-")
        wanted[e.document][e.line].push_back(&e);

  for (auto& [path, lines] : wanted) {
    const int fd = open_regular(path);
    if (fd < 0) continue;
    detail::reader_tuning tuning;
    tuning.block_size = std::size_t{64} << 10;
    detail::line_reader reader(std::make_unique<detail::fd_source>(fd, true),
                               path, tuning);
    auto next = lines.begin();
    detail::line_reader::line l;
    while (next != lines.end() && reader.next(l)) {
      if (l.number % poll_every == 0 && cancelled && cancelled()) return;
      if (l.number < next->first) continue;
      for (finding_example* e : next->second) {
        // Of a line over the reader's cap only the start is kept: a column
        // beyond it cannot be shown.
        if (l.too_long && byte_of_column(l.text, e->column) >= l.text.size())
          continue;
        e->quote = window_of(l.text, e->column);
      }
      ++next;
    }
  }
}

}  // namespace sitemill
