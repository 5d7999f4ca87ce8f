// sitemap_parser: the pipeline of one document.
//
//   feed() -> fixed-size blocks -> gzip? (sniffed by magic, inflated with
//   the cap counted on decompressed bytes) -> sniff (BOM, whitespace, '<')
//   -> xml_reader (xml_scanner or libxml2 SAX) or text_reader -> handler
//
// When the caller can read the document again (reread_function), XML goes
// through xml_scanner; on what the scanner leaves to libxml2 the first
// reading goes silent and a second pipeline, libxml2's, reads the bytes
// again from the first, its handler muted for what the first already told.
//
// Every stage after the first sees the same blocks however the caller splits
// its feed() calls, so feeding one byte at a time gives exactly the results
// of one big feed (libxml2's push parser and the inflater report some errors at
// positions that depend on chunking; fixed blocks make them deterministic).
#include "sitemill/parse/sitemap_parser.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>

#include "detail/inflate.h"
#include "detail/text.h"
#include "parse/context.h"
#include "parse/document_parser.h"
#include "parse/text_reader.h"
#include "parse/xml_reader.h"

namespace sitemill {

std::string_view to_string(document_kind kind) noexcept {
  switch (kind) {
    case document_kind::urlset:
      return "urlset";
    case document_kind::sitemapindex:
      return "sitemapindex";
    case document_kind::text:
      return "text";
    case document_kind::rss:
      return "rss";
    case document_kind::atom:
      return "atom";
    case document_kind::unknown:
      break;
  }
  return "unknown";
}

namespace {

using detail::doc_code;
using detail::text_pos;

// 64 KiB: big enough that libxml2 and the inflater run at full speed, small
// enough to keep memory flat (two such buffers plus libxml2's own).
constexpr std::size_t block_size = 64 * 1024;
// Comments held before the first other markup, at most (see `prolog`).
constexpr std::size_t max_prolog = 64 * 1024;

std::int64_t now_unix() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// parse_file's reread_function: the file from its first byte.
bool read_again(int fd, std::size_t size,
                const std::function<bool(const char*, std::size_t)>& sink) {
  if (::lseek(fd, 0, SEEK_SET) != 0) return false;
  const auto buf = std::make_unique<char[]>(size);
  for (;;) {
    const ssize_t n = ::read(fd, buf.get(), size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0 || !sink(buf.get(), static_cast<std::size_t>(n))) return true;
  }
}

}  // namespace

namespace detail {

struct parse_pipeline {
  parse_pipeline(parse_handler& h, parse_options o, reread_function r)
      : handler(h),
        options(o),
        reread(std::move(r)),
        doc(h, options, summary,
            options.now ? std::chrono::duration_cast<std::chrono::seconds>(
                              options.now->time_since_epoch())
                              .count()
                        : now_unix()) {}

  void feed(const char* data, std::size_t size);
  void raw(const char* data, std::size_t size);
  void inflate_block(const char* data, std::size_t size);
  void content(const char* data, std::size_t size);
  void report_cap();
  void dispatch(const char* data, std::size_t size);
  void sniff_byte(char c);
  void replay_head();
  void decide();
  void feed_xml(const char* data, std::size_t size);
  bool yield_mid_token();
  void hand_over();
  void read_again();
  void stop() { stopped = true; }
  parse_summary finish();

  parse_handler& handler;
  parse_options options;
  reread_function reread;  // set: XML goes through the scanner
  parse_summary summary;
  detail::doc_context doc;
  bool stopped = false;
  bool finished = false;

  // The scanner handed over: what had been told then, and the second
  // reading, which the public calls go to from then on.
  bool handed_over = false;
  std::uint64_t told_reports = 0, told_entries = 0;
  bool told_kind = false;
  std::unique_ptr<parse_pipeline> again;

  // Staging: the caller's bytes cut into block_size pieces.
  std::unique_ptr<char[]> stage;
  std::size_t staged = 0;

  // Container.
  enum class container : unsigned char { undecided, plain, gzip };
  container kind = container::undecided;
  std::unique_ptr<detail::gzip_inflater> gz;
  bool trailing = false;  // ignoring what follows the last member
  bool gzip_truncated = false;
  std::unique_ptr<char[]> out;

  // Content.
  std::uint64_t bytes = 0;
  bool too_large_reported = false;

  // Sniffing.
  enum class sniff : unsigned char { start, space, prefix, comment, decided };
  sniff state = sniff::start;
  std::string head;        // bytes held until the decision
  text_pos skipped{1, 1};  // where the bytes after BOM and whitespace start
  bool saw_space = false;
  // Comments (and the whitespace between them) before the first other
  // markup, held to see whether an XML declaration follows them (E2).
  std::string prolog;
  text_pos cursor{1, 1};  // where the next byte of the prolog is
  void advance(char c) {
    if (c == '\n') {
      ++cursor.line;
      cursor.column = 1;
    } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      ++cursor.column;  // columns count characters, as libxml2's do
    }
  }
  bool utf16 = false;
  std::unique_ptr<detail::xml_reader> xml;
  std::unique_ptr<detail::text_reader> text;
};

void parse_pipeline::feed(const char* data, std::size_t size) {
  while (size > 0 && !stopped) {
    if (staged == 0 && size >= block_size) {
      raw(data, block_size);
      data += block_size;
      size -= block_size;
      continue;
    }
    if (!stage) stage = std::make_unique<char[]>(block_size);
    const std::size_t take = std::min(size, block_size - staged);
    std::memcpy(stage.get() + staged, data, take);
    staged += take;
    data += take;
    size -= take;
    if (staged == block_size) {
      staged = 0;
      raw(stage.get(), block_size);
    }
  }
}

void parse_pipeline::raw(const char* data, std::size_t size) {
  if (size == 0 || stopped) return;
  if (kind == container::undecided) {
    // Blocks are at least 2 bytes unless the whole input is 1 byte.
    const bool gzip = detail::starts_gzip(std::string_view(data, size));
    kind = gzip ? container::gzip : container::plain;
    if (gzip) {
      summary.gzipped = true;
      // The cap counts decompressed bytes, so a bomb stops at the cap.
      gz = std::make_unique<detail::gzip_inflater>(options.max_bytes);
      out = std::make_unique<char[]>(block_size);
    }
  }
  if (kind == container::plain) {
    content(data, size);
  } else if (!trailing) {
    inflate_block(data, size);
  }
}

void parse_pipeline::inflate_block(const char* data, std::size_t size) {
  using gz_status = detail::gzip_inflater::status;
  while (!stopped) {
    const auto s = gz->inflate(data, size, out.get(), block_size);
    data += s.consumed;
    size -= s.consumed;
    if (s.produced > 0) content(out.get(), s.produced);
    if (stopped) return;
    switch (s.result) {
      case gz_status::ok:
        // A full block may leave more output inside the inflater.
        if (s.produced == block_size) continue;
        if (size == 0 || s.consumed == 0) return;
        continue;
      case gz_status::trailing_data:
        // What gzip -d calls "trailing garbage": padding or junk after the
        // last member. Its data is complete; warn and ignore the rest.
        if (yield_mid_token()) return;
        trailing = true;
        doc.report(
            doc_code::gzip_trailing_data, {},
            "bytes that are not gzip follow the compressed data; they "
            "are ignored: publish the .gz file exactly as gzip wrote it");
        return;
      case gz_status::output_limit:
        report_cap();
        return;
      case gz_status::no_memory:
        if (yield_mid_token()) return;
        doc.report(doc_code::gzip_corrupt, {},
                   "cannot decode the gzip data (out of memory)");
        stop();
        return;
      case gz_status::corrupt: {
        if (yield_mid_token()) return;
        std::string m = "the gzip data is corrupt (";
        m += gz->message();
        m += ") after " + detail::with_commas(bytes) +
             " decompressed bytes: compress the file again with gzip";
        doc.report(doc_code::gzip_corrupt, {}, std::move(m));
        stop();
        return;
      }
    }
  }
}

void parse_pipeline::content(const char* data, std::size_t size) {
  if (stopped) return;
  const std::uint64_t room =
      options.max_bytes > bytes ? options.max_bytes - bytes : 0;
  const bool capped = size > room;
  if (capped) size = static_cast<std::size_t>(room);
  bytes += size;
  summary.bytes = bytes;
  if (size > 0) dispatch(data, size);
  if (!too_large_reported && bytes > max_bytes_per_sitemap) {
    too_large_reported = true;
    doc.report(doc_code::too_large, {},
               std::string("the document is larger than 52,428,800 bytes") +
                   (summary.gzipped ? " once uncompressed" : "") +
                   ", the protocol's 50 MB limit: split it into several "
                   "sitemaps and list them in an index");
  }
  if (capped && !stopped) report_cap();
}

// The parse stops at parse_options::max_bytes: for plain input here, for
// gzip where the inflater stops at the same count.
void parse_pipeline::report_cap() {
  if (yield_mid_token()) return;
  const std::string limit = detail::with_commas(options.max_bytes);
  const std::string read = detail::with_commas(summary.entries);
  if (summary.gzipped) {
    doc.report(doc_code::decompressed_too_large, {},
               "the gzip data decompresses to more than " + limit +
                   " bytes, so reading stopped there (a sitemap must be at "
                   "most 52,428,800 bytes uncompressed; this may be a gzip "
                   "bomb); " +
                   read + " entries were read");
  } else {
    doc.report(doc_code::input_too_large, {},
               "the document is longer than " + limit +
                   " bytes, so reading stopped there (a sitemap must be at "
                   "most 52,428,800 bytes); " +
                   read + " entries were read");
  }
  stop();
}

void parse_pipeline::dispatch(const char* data, std::size_t size) {
  while (state != sniff::decided && size > 0) {
    sniff_byte(*data++);
    --size;
  }
  if (size == 0 || stopped) return;
  if (xml) {
    feed_xml(data, size);
  } else if (text) {
    if (!text->feed(data, size)) stop();
  }
}

void parse_pipeline::sniff_byte(char c) {
  switch (state) {
    case sniff::start: {
      head.push_back(c);
      const auto b = [&](std::size_t i) {
        return static_cast<unsigned char>(head[i]);
      };
      if (head.size() == 3 && b(0) == 0xEF && b(1) == 0xBB && b(2) == 0xBF) {
        head.clear();  // the UTF-8 BOM: allowed, and not a column
        state = sniff::space;
        return;
      }
      if (head.size() < 4) return;
      if ((b(0) == 0xFF && b(1) == 0xFE) || (b(0) == 0xFE && b(1) == 0xFF) ||
          (b(0) == '<' && b(1) == 0) || (b(0) == 0 && b(1) == '<')) {
        utf16 = true;
        decide();
        return;
      }
      replay_head();  // no BOM after all
      return;
    }
    case sniff::space:
      if (is_space(c)) {
        advance(c);
        if (prolog.empty()) {
          saw_space = true;
          skipped = cursor;
        } else {
          prolog.push_back(c);
        }
        return;
      }
      state = sniff::prefix;
      head.push_back(c);
      return;
    case sniff::prefix:
      head.push_back(c);
      if (head == "<!--") {
        for (const char h : head) advance(h);
        prolog += head;
        head.clear();
        state = sniff::comment;
        return;
      }
      if (head.size() >= 6) decide();
      return;
    case sniff::comment:
      advance(c);
      prolog.push_back(c);
      if (prolog.size() >= 7 && prolog.ends_with("-->")) {
        state = sniff::space;
      } else if (prolog.size() > max_prolog) {
        // No real file opens with a comment this long: let the XML reader
        // judge it as it is.
        head.swap(prolog);
        prolog.clear();
        decide();
      }
      return;
    case sniff::decided:
      return;
  }
}

void parse_pipeline::replay_head() {
  // The bytes held while looking for a BOM go through the whitespace and
  // prefix steps, then to the reader, ahead of what follows them.
  std::string held;
  held.swap(head);
  state = sniff::space;
  dispatch(held.data(), held.size());
}

void parse_pipeline::decide() {
  state = sniff::decided;
  std::string held;
  held.swap(head);
  const auto b = [&](std::size_t i) {
    return i < held.size() ? static_cast<unsigned char>(held[i]) : 0;
  };
  if (utf16) {
    doc.report(doc_code::encoding_not_utf8, {1, 1},
               "the document is UTF-16; the protocol requires UTF-8: convert "
               "the file to UTF-8");
    const bool le = b(0) == 0xFF || b(1) == 0;
    const unsigned unit = le ? b(2) | (b(3) << 8) : (b(2) << 8) | b(3);
    const bool bom =
        (b(0) == 0xFF && b(1) == 0xFE) || (b(0) == 0xFE && b(1) == 0xFF);
    if (bom && unit != '<') {
      // UTF-16 text is not something this reader decodes.
      doc.set_kind(document_kind::text);
      stop();
      return;
    }
    xml = std::make_unique<detail::xml_reader>(doc, text_pos{1, 1}, false);
    feed_xml(held.data(), held.size());
    return;
  }
  if (b(0) == '<' || !prolog.empty()) {
    // E2: whitespace or a comment before the XML declaration is fatal in
    // strict XML; read on from the declaration, as crawler-commons and
    // scrapy do, and say so.
    const std::string_view s = held;
    const bool declaration = s.starts_with("<?xml") &&
                             (s.size() == 5 || is_space(s[5]) || s[5] == '?');
    const bool recovered = (saw_space || !prolog.empty()) && declaration;
    if (recovered) {
      doc.report(
          doc_code::xml_declaration_not_first, skipped,
          std::string(prolog.empty() ? "whitespace comes" : "a comment comes") +
              " before the XML declaration <?xml ...?>, which must be "
              "the very first thing in the file (strict XML parsers "
              "reject the file; sitemill reads on from the "
              "declaration): remove it");
      xml = std::make_unique<detail::xml_reader>(
          doc, prolog.empty() ? skipped : cursor, true, reread != nullptr);
      prolog.clear();
      feed_xml(held.data(), held.size());
      return;
    }
    // Comments before the root without a declaration are well-formed: the
    // reader gets them back.
    std::string all = std::move(prolog);
    all += held;
    prolog.clear();
    xml = std::make_unique<detail::xml_reader>(doc, skipped, false,
                                               reread != nullptr);
    feed_xml(all.data(), all.size());
    return;
  }
  // Not XML: a text sitemap, unless it is another compression format.
  const std::string_view s = held;
  std::string_view format;
  if (s.starts_with("PK\x03\x04")) {
    format = "zip";
  } else if (s.starts_with("BZh")) {
    format = "bzip2";
  } else if (s.starts_with("\xFD"
                           "7zXZ")) {
    format = "xz";
  } else if (s.starts_with("\x28\xB5\x2F\xFD")) {
    format = "zstd";
  } else if (s.starts_with("\x1F\x8B")) {
    format = "gzip inside gzip";
  }
  if (!format.empty()) {
    doc.report(doc_code::unsupported_compression, {1, 1},
               "the file is compressed with " + std::string(format) +
                   "; sitemaps may only be gzip-compressed, once: compress "
                   "the XML or text file with gzip");
    stop();
    return;
  }
  doc.set_kind(document_kind::text);
  text = std::make_unique<detail::text_reader>(doc, skipped);
  if (!text->feed(held.data(), held.size())) stop();
}

void parse_pipeline::feed_xml(const char* data, std::size_t size) {
  if (xml->feed(data, size)) return;
  if (xml->handed_over()) hand_over();
  stop();
}

// The input breaks or ends early (gzip, the byte cap) while the scanner
// holds a token it cut: libxml2 may have judged those bytes already (it
// reads a start tag to the last '>' it has), so libxml2 reads the document,
// and tells the break too, in its own order.
bool parse_pipeline::yield_mid_token() {
  if (!xml || !xml->hand_over_mid_token()) return false;
  hand_over();
  stop();
  return true;
}

void parse_pipeline::hand_over() {
  handed_over = true;
  told_reports = doc.reports();
  told_entries = summary.entries;
  told_kind = doc.kind_told();
  doc.silence();
}

void parse_pipeline::read_again() {
  parse_options o = options;
  // The same clock, so lastmod-future judges as the first reading did.
  if (!o.now)
    o.now = std::chrono::system_clock::time_point(
        std::chrono::seconds(doc.now_unix()));
  again = std::make_unique<parse_pipeline>(handler, o, reread_function{});
  again->doc.mute(told_reports, told_entries, told_kind);
  parse_pipeline& second = *again;
  reread([&second](const char* data, std::size_t size) {
    second.feed(data, size);
    return !second.stopped;
  });
}

parse_summary parse_pipeline::finish() {
  if (finished) return summary;
  finished = true;
  if (!stopped && staged > 0) {
    const std::size_t n = staged;
    staged = 0;
    raw(stage.get(), n);
  }
  if (!stopped && kind == container::gzip && !trailing)
    inflate_block(nullptr, 0);  // what the inflater still holds
  if (!stopped && kind == container::gzip && !trailing && gz->truncated() &&
      !yield_mid_token()) {
    gzip_truncated = true;
    doc.report(doc_code::gzip_truncated, {},
               "the gzip data ends early (after " + detail::with_commas(bytes) +
                   " decompressed bytes): the file was cut short; fetch or "
                   "compress it again");
  }
  if (!stopped) {
    // Fewer than four bytes in all: no BOM to tell, sniff what there is.
    if (state == sniff::start && !head.empty()) replay_head();
    if ((state == sniff::prefix || !prolog.empty()) && !stopped &&
        state != sniff::decided)
      decide();
  }
  if (!stopped) {
    if (state != sniff::decided) {
      doc.report(doc_code::empty_document, {},
                 bytes == 0 ? "the document is empty: a sitemap lists at "
                              "least one URL"
                            : "the document holds only whitespace: a sitemap "
                              "lists at least one URL");
    } else if (xml) {
      xml->finish(gzip_truncated);
      if (xml->handed_over()) hand_over();
    } else if (text) {
      text->finish();
    }
  }
  const bool reader_fatal = (xml && xml->fatal()) || (text && text->fatal());
  summary.complete = !stopped && !gzip_truncated && !reader_fatal;
  summary.well_formed =
      summary.complete && (xml == nullptr || !xml->recovered());
  summary.schema_valid =
      summary.complete && xml != nullptr && xml->schema_valid() && !utf16;
  summary.valid_but_unknown_namespaces = summary.complete && xml != nullptr &&
                                         !utf16 &&
                                         xml->valid_but_unknown_namespaces();
  summary.bytes = bytes;
  return summary;
}

document_parser::document_parser(parse_handler& handler, parse_options options,
                                 reread_function reread)
    : first_(std::make_unique<parse_pipeline>(handler, options,
                                              std::move(reread))) {}

document_parser::~document_parser() = default;

bool document_parser::feed(const char* data, std::size_t size) {
  parse_pipeline& first = *first_;
  if (first.again || first.finished || first.stopped) return false;
  first.feed(data, size);
  if (first.handed_over) {
    first.read_again();
    return false;
  }
  return !first.stopped;
}

parse_summary document_parser::finish() {
  parse_pipeline& first = *first_;
  if (!first.again) {
    const parse_summary s = first.finish();
    if (!first.handed_over) return s;
    first.read_again();
  }
  return first.again->finish();
}

}  // namespace detail

struct sitemap_parser::impl {
  impl(parse_handler& handler, parse_options options)
      : parser(handler, options) {}
  detail::document_parser parser;
};

sitemap_parser::sitemap_parser(parse_handler& handler, parse_options options)
    : impl_(std::make_unique<impl>(handler, options)) {}

sitemap_parser::~sitemap_parser() = default;

bool sitemap_parser::feed(const char* data, std::size_t size) {
  return impl_->parser.feed(data, size);
}

parse_summary sitemap_parser::finish() { return impl_->parser.finish(); }

result<parse_summary> parse_file(const std::string& path,
                                 parse_handler& handler,
                                 parse_options options) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return error{"cannot open " + path + ": " + std::strerror(errno)};
  const std::size_t size = 4 * block_size;
  struct stat st {};
  const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  // A regular file can be read again: the scanner reads it (document_parser).
  detail::document_parser parser(
      handler, options,
      regular ? detail::reread_function([fd, size](const auto& sink) {
        return read_again(fd, size, sink);
      })
              : detail::reread_function{});
  const auto buf = std::make_unique<char[]>(size);
  for (;;) {
    const ssize_t n = ::read(fd, buf.get(), size);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      return error{"cannot read " + path + ": " + std::strerror(err)};
    }
    if (n == 0) break;
    if (!parser.feed(buf.get(), static_cast<std::size_t>(n))) break;
  }
  const parse_summary summary = parser.finish();  // may read the file again
  ::close(fd);
  return summary;
}

parse_summary parse_bytes(std::string_view bytes, parse_handler& handler,
                          parse_options options) {
  sitemap_parser parser(handler, options);
  parser.feed(bytes.data(), bytes.size());
  return parser.finish();
}

}  // namespace sitemill
