// sitemill internals: text sitemaps, one URL per line (docs/protocol.md 1.5 and
// checklist 22-23): UTF-8, LF or CRLF, blank lines skipped, each URL checked
// like a <loc>, anything else reported with its line number.
#ifndef SITEMILL_PARSE_TEXT_READER_H
#define SITEMILL_PARSE_TEXT_READER_H

#include <cstddef>
#include <cstdint>
#include <string>

#include "parse/context.h"

namespace sitemill::detail {

class text_reader {
 public:
  /// A line longer than this cannot hold a URL; the rest is not kept.
  static constexpr std::size_t max_line = 64 * 1024;

  /// `start` is where the bytes fed begin in the document (after a BOM and
  /// the blank lines the caller already skipped).
  text_reader(doc_context& doc, text_pos start);

  /// Reads the next bytes; false once reading has stopped (binary content).
  bool feed(const char* data, std::size_t size);
  void finish();
  bool fatal() const noexcept { return fatal_; }

 private:
  void end_line();

  doc_context& doc_;
  std::string line_;
  std::uint64_t line_no_;
  std::uint64_t first_column_;    // column of the first byte fed, on line 1
  std::uint64_t line_bytes_ = 0;  // bytes of the current line, kept or not
  std::uint64_t seen_ = 0;        // bytes fed so far
  bool fatal_ = false;
  std::string scratch_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_PARSE_TEXT_READER_H
