// txt: one URL per line; blank lines and '#' comments are not records.
#include "source/readers.h"

namespace sitemill::detail {
namespace {

bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

constexpr std::string_view tab_problem =
    "the line holds a tab, which no URL can: it looks like tab-separated "
    "columns; read the file as TSV (name it .tsv, or give `format` tsv, and "
    "`columns` when it has no header row)";

class txt_reader final : public line_record_reader {
 public:
  using line_record_reader::line_record_reader;

  bool next(input_record& out) override {
    line_reader::line l;
    while (lines_.next(l)) {
      const std::string_view text = trim(l.text);
      // A too-long line may still be a comment: its start is known. One of
      // blanks only is reported, since the rest of it is not.
      if (!text.empty() && text.front() == '#') continue;
      if (text.empty() && !l.too_long) continue;
      out = input_record{};
      out.line = l.number;
      if (l.too_long) {
        out.problem = too_long_;
      } else if (text.find('\t') != std::string_view::npos) {
        // No URL holds a raw tab: this is a row of columns (a psql or
        // spreadsheet export saved as .txt), and saying so beats rejecting
        // every row for a control character.
        out.problem = tab_problem;
      } else {
        out.loc = text;
      }
      return true;
    }
    return false;
  }
};

}  // namespace

std::unique_ptr<record_reader> make_txt_reader(
    std::unique_ptr<byte_source> source, std::string name,
    reader_tuning tuning) {
  return std::make_unique<txt_reader>(std::move(source), std::move(name),
                                      tuning);
}

}  // namespace sitemill::detail
