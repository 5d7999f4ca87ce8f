// sitemill internals: sitemap_parser's pipeline, with what the public class
// does not offer: reading a document the caller can read again (a regular
// file) with sitemill's own XML scanner (parse/xml_scanner.h).
#ifndef SITEMILL_PARSE_DOCUMENT_PARSER_H
#define SITEMILL_PARSE_DOCUMENT_PARSER_H

#include <cstddef>
#include <functional>
#include <memory>

#include "sitemill/parse/sitemap_parser.h"

namespace sitemill::detail {

/// Reads the document again from its first byte, handing each block to
/// `sink` in order until the document ends or `sink` returns false. False
/// when it could not (the parse then ends with what it was given).
using reread_function = std::function<bool(
    const std::function<bool(const char* data, std::size_t size)>& sink)>;

struct parse_pipeline;

/// sitemap_parser, and what sitemap_parser is made of. With a `reread`, XML
/// is read by xml_scanner, and a document with what the scanner leaves to
/// libxml2 (a DOCTYPE, an encoding other than UTF-8, CR line ends, anything
/// not well-formed) is read again from its first byte by libxml2, through
/// `reread`, called at most once from inside feed() or finish(): the handler
/// hears everything once, and exactly what it hears without `reread`.
/// feed() returns false after that second reading, which read the rest.
/// Not thread-safe; one per document.
class document_parser {
 public:
  document_parser(parse_handler& handler, parse_options options,
                  reread_function reread = {});
  ~document_parser();
  document_parser(const document_parser&) = delete;
  document_parser& operator=(const document_parser&) = delete;

  /// sitemap_parser::feed().
  bool feed(const char* data, std::size_t size);
  /// sitemap_parser::finish().
  parse_summary finish();

 private:
  std::unique_ptr<parse_pipeline> first_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_PARSE_DOCUMENT_PARSER_H
