// sitemill: the one robots.txt lexer (RFC 9309 2.2), shared by the Sitemap
// finder (robots.cpp), the Allow/Disallow matcher (robots_rules.cpp) and the
// editor (robots_edit.cpp), so that what one of them takes for a record every
// other does too. Modelled on google/robotstxt's ParseRobotsTxt(): it never
// fails, and hands each line to a handler with what it holds and what had to
// be forgiven to read it.
//
// Internal rather than public: the three consumers are the API; the line
// record's fields are free to change with them.
//
// Reading, where RFC 9309 leaves room (google/robotstxt is the reference):
//   * A UTF-8 BOM is skipped; a UTF-16 byte order mark stops everything
//     (RFC 9309 2.3 requires UTF-8, and a UTF-16 file read as bytes has a NUL
//     in every other byte, so no line of it means what it seems to).
//   * Lines end at LF, CR or CRLF.
//   * '#' starts a comment wherever it stands (RFC 9309 2.2's grammar has no
//     '#' in a value; Google's parser does the same).
//   * Whitespace is any ASCII space (detail::is_ascii_space), as Google strips
//     it: a stray form feed at the end of "Disallow: /a" is not part of the
//     path. It may surround the key, the colon and the value.
//   * Keys are matched whole and in any case, with the common misspellings
//     Google's parser accepts ("useragent", "dissallow", "site-map", ...)
//     and "sitemaps"; RFC 9309 2.2.4 lets crawlers be that lenient. Unlike
//     Google, "Sitemapindex:" or "Disallowed:" is not read as a prefix match:
//     a longer key is another key.
//   * A missing colon is forgiven when the line is exactly two words, as
//     Google does ("Disallow /a", "Sitemap https://x/s.xml"); with more words
//     the line is no record ("Disallow /a /b" could be prose). The key ends at
//     the first whitespace or ':', so the colon of "https:" never counts.
//   * At most `limit` bytes are read (RFC 9309 2.5; the BOM counts, being part
//     of the file). A line the limit cuts is dropped whole, so half a path or
//     half a URL is never read; a line whose line end is the first byte past
//     the limit is complete and read.
#ifndef SITEMILL_ROBOTS_ROBOTS_LEXER_H
#define SITEMILL_ROBOTS_ROBOTS_LEXER_H

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

#include "sitemill/limits.h"

namespace sitemill::detail {

/// What a line's key is.
enum class robots_key : std::uint8_t {
  none,  ///< no record: blank, comment only, or not "key: value"
  user_agent,
  allow,
  disallow,
  sitemap,
  other,  ///< a record with any other key ("Crawl-delay", "Host", "https")
};

/// `name` classified, whole and ignoring ASCII case; `misspelled` is set for a
/// forgiven spelling ("Site-map", "Useragent", "Dissallow").
robots_key classify_robots_key(std::string_view name,
                               bool* misspelled = nullptr) noexcept;

/// One line as the lexer read it. Every view points into the body given to
/// lex_robots_txt() and lives as long as it does.
struct robots_line {
  std::uint64_t number = 0;   ///< 1-based
  std::string_view text;      ///< the line, comment included, no line end
  std::string_view line_end;  ///< "\n", "\r\n", "\r", or "" at the very end
  /// `text` before any '#', without surrounding whitespace; "" for a blank or
  /// comment-only line.
  std::string_view content;
  robots_key key = robots_key::none;
  /// The key as written ("Site-map"). Also set for a line of three words or
  /// more without a colon (key none), to its first word, so that a consumer
  /// can say why "Sitemap a b" was not read.
  std::string_view name;
  std::string_view value;      ///< without surrounding whitespace
  bool misspelled = false;     ///< `name` is a forgiven misspelling
  bool missing_colon = false;  ///< "key value" with whitespace for the colon

  /// The line's bytes, its line end included.
  std::string_view bytes() const noexcept {
    return {text.data(), text.size() + line_end.size()};
  }
  /// 1-based column of `part` (a view into `text`), in characters as every
  /// diagnostic counts them (diagnostic.h): UTF-8 continuation bytes before
  /// it do not count.
  std::uint64_t column(std::string_view part) const noexcept {
    std::uint64_t n = 1;
    for (const char* p = text.data(); p < part.data(); ++p)
      n += (static_cast<unsigned char>(*p) & 0xC0) != 0x80;
    return n;
  }
};

/// Receives the lines of a robots.txt in order, blank and comment lines too.
class robots_handler {
 public:
  virtual void on_line(const robots_line& line) = 0;

 protected:
  ~robots_handler() = default;
};

/// What lex_robots_txt() could not say line by line.
struct robots_lex_result {
  bool utf16 = false;       ///< a UTF-16 byte order mark: no line was read
  bool truncated = false;   ///< the body is longer than the limit
  std::size_t bom = 0;      ///< bytes of UTF-8 BOM skipped before line 1
  std::uint64_t lines = 0;  ///< lines handed to the handler
};

/// No limit: every byte is read (the editor, which must keep them all).
inline constexpr std::size_t robots_no_limit =
    std::numeric_limits<std::size_t>::max();

/// Splits `body` into lines and calls `handler.on_line()` for each, in order,
/// reading at most `limit` bytes of it. With no limit, the BOM and the lines'
/// bytes() put together are `body`. Never fails; a line that is not a record
/// comes with key none. Thread-safe; keeps no state.
robots_lex_result lex_robots_txt(std::string_view body, robots_handler& handler,
                                 std::size_t limit = max_robots_txt_bytes);

}  // namespace sitemill::detail

#endif  // SITEMILL_ROBOTS_ROBOTS_LEXER_H
