// txt: one URL per line; blank lines and '#' comments are not records.
#include "source/capped_notes.h"
#include "source/readers.h"

namespace sitemill::detail {
namespace {

bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// A byte-order mark belongs at the start of a file, where line_reader drops
// it; at the start of a later line it is a file joined onto another (cat a.txt
// b.txt), and taken as a URL it would be percent-encoded into the path.
constexpr std::string_view bom = "\xEF\xBB\xBF";
constexpr std::string_view bom_problem =
    "the line starts with a byte-order mark (U+FEFF), as a file joined onto "
    "another does, and no URL can: remove it (only a file's first line may "
    "carry one)";
constexpr std::string_view open_quote_problem =
    "the line starts with a double quote that does not close at its end, and "
    "no URL can: give the URL bare, or the file as CSV";

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
      row_ = l.too_long ? std::string_view() : l.text;
      if (l.too_long) {
        out.problem = too_long_;
      } else if (text.find('\t') != std::string_view::npos) {
        // No URL holds a raw tab: this is a row of columns (a psql or
        // spreadsheet export saved as .txt), and saying so beats rejecting
        // every row for a control character.
        out.problem = tab_problem;
      } else if (text.starts_with(bom)) {
        out.problem = bom_problem;
      } else if (text.front() == '"') {
        // A URL in double quotes (a spreadsheet's column saved as text): the
        // quotes are no part of it, and taken in they would be encoded into
        // the path as %22. One closing quote at the end and none inside is
        // that case; anything else is not a URL.
        const std::string_view inner = text.substr(1, text.size() - 1);
        if (inner.size() >= 2 && inner.back() == '"' &&
            inner.substr(0, inner.size() - 1).find('"') == std::string_view::npos) {
          out.loc = trim(inner.substr(0, inner.size() - 1));
          note_quoted(l.number);
        } else {
          out.problem = open_quote_problem;
        }
      } else {
        out.loc = text;
      }
      return true;
    }
    return finish();
  }

 private:
  // The first quoted URL is noted at its line; the rest are counted, and the
  // count said once at the end, so a file of a million quoted lines does not
  // keep a million notes.
  void note_quoted(std::uint64_t line) {
    quoted_.add(line, notes_, [] {
      return std::string("the URL is in double quotes, which were dropped");
    });
  }

  bool finish() {
    quoted_.finish(notes_);
    return false;
  }

  capped_notes quoted_{1, "line", "lines", "held a URL in double quotes",
                       "their quotes were dropped"};
};

}  // namespace

std::unique_ptr<record_reader> make_txt_reader(
    std::unique_ptr<byte_source> source, std::string name,
    reader_tuning tuning) {
  return std::make_unique<txt_reader>(std::move(source), std::move(name),
                                      tuning);
}

}  // namespace sitemill::detail
