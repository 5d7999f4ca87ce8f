// sitemill internals: a hand-written scanner for the XML that sitemaps are
// made of, which hands anything else back to libxml2 (docs/architecture.md,
// parse/).
//
// It reads the XML declaration (version 1.0, UTF-8), elements, attributes,
// namespace declarations, text with the 5 predefined entities and character
// references, CDATA sections, comments and processing instructions, and
// calls a sink in the layout libxml2's SAX2 startElementNs uses, so the
// reader's callbacks cannot tell the two apart. It never reports an error:
// on anything it does not take (a DOCTYPE, another encoding, CR bytes, any
// well-formedness problem, a name, depth, attribute count, namespace or token
// past its caps) it stops, and the caller reads the document again from its
// first byte with libxml2, muting what the scanner already delivered. So
// every check of well-formedness stays libxml2's, and the scanner only has
// to be right about the documents it takes whole.
//
// Untrusted input: no entity is declared or expanded beyond the 5
// predefined ones and character references; names, depth, attributes,
// interned strings and the carried partial token are all capped.
//
// Not thread-safe; one per document.
#ifndef SITEMILL_PARSE_XML_SCANNER_H
#define SITEMILL_PARSE_XML_SCANNER_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parse/context.h"
#include "parse/xml_bytes.h"

namespace sitemill::detail {

class xml_scanner {
 public:
  /// What the scanner reads, as libxml2's SAX2 callbacks give it. Names and
  /// namespace URIs are NUL-terminated and live as long as the scanner;
  /// text and attribute values only during the call. An attribute value
  /// that held a reference, a tab, a newline or a byte above 0x7F is a
  /// NUL-terminated copy with each '&' a reference stood for written as
  /// "&#38;" (libxml2 with entities unsubstituted; attribute_value.h);
  /// any other points into the input, and its end is the closing quote.
  class sink {
   public:
    virtual void on_start(const unsigned char* local,
                          const unsigned char* prefix, const unsigned char* uri,
                          int nb_attributes,
                          const unsigned char** attributes) = 0;
    virtual void on_end() = 0;
    virtual void on_characters(const unsigned char* text, int len,
                               bool cdata) = 0;

   protected:
    ~sink() = default;
  };

  explicit xml_scanner(sink& s);
  ~xml_scanner();
  xml_scanner(const xml_scanner&) = delete;
  xml_scanner& operator=(const xml_scanner&) = delete;

  /// Reads the next bytes; false once the scanner has stopped.
  bool feed(const char* data, std::size_t size);
  /// The input ended: true when the scanner read the whole document (the
  /// root closed, nothing after it but comments, PIs and whitespace); false
  /// when it stopped, now or before.
  bool finish();
  /// Stops at the current token (a sink that wants libxml2 to judge).
  void stop() noexcept { stopped_ = true; }
  bool stopped() const noexcept { return stopped_; }
  /// Bytes of a token the end of the last feed cut are waiting for more.
  bool holding() const noexcept { return !carry_.empty(); }

  /// Where the start tag being delivered begins, in lines and columns of
  /// the bytes fed, as sitemill has always computed it from libxml2's
  /// input: the line of its '<'; the column in characters when the tag is
  /// on one line, less the bytes beyond characters inside the tag; in bytes
  /// when it spans lines.
  text_pos tag_pos() const noexcept { return tag_at_; }

 private:
  enum class state : std::uint8_t { start, prolog, content, epilog };
  // What a token did: done (consumed), more (needs bytes not fed yet), or
  // stop (the scanner stopped).
  enum class step : std::uint8_t { done, more, stop };
  struct binding {
    const char* prefix;  // interned; nullptr for the default namespace
    const char* uri;     // interned; nullptr for xmlns=""
  };
  struct open_element {
    const char* qname;  // interned
    std::uint32_t qname_size;
    std::uint32_t bindings;  // bindings_.size() before its declarations
  };
  struct interned {
    const char* text;  // nullptr: a free slot
    std::uint32_t size;
    std::uint32_t hash;
  };
  struct raw_attribute {
    std::string_view prefix, local;
    const char* value_begin;
    const char* value_end;
  };

  std::size_t scan(const char* b, const char* e, bool last);
  step declaration(const char*& p, const char* e);
  step text(const char*& p, const char* e);
  step markup(const char*& p, const char* e);
  // The element's or an attribute's name at `q` (read_qname()): done,
  // more, or a halt when it is not one the scanner takes.
  step read_name(const char*& q, const char* e, std::string_view& prefix,
                 std::string_view& local);
  step start_tag(const char*& p, const char* e);
  step end_tag(const char*& p, const char* e);
  step comment(const char*& p, const char* e);
  step pi(const char*& p, const char* e);
  step cdata(const char*& p, const char* e);
  bool emit_start(std::string_view qname, std::string_view prefix,
                  std::string_view local, bool empty);
  bool emit_plain_start(std::string_view name, bool empty);
  bool attribute_value(const raw_attribute& a, std::string& out, bool& copy);
  // The interned copy of `s` (nullptr past the caps): its recent slot
  // first, the table when the slot holds another name.
  const char* intern(std::string_view s) {
    recent& r = recent_[xml_bytes::name_slot(s)];
    if (r.text != nullptr && r.size == s.size() &&
        xml_bytes::same_bytes(r.text, s.data(), s.size()))
      return r.text;
    const char* const text = intern_slow(s);
    if (text != nullptr) r = {text, s.size()};
    return text;
  }
  const char* intern_slow(std::string_view s);
  const char* lookup(const char* prefix) const;
  // Forgets the bindings from `mark` on (an element closed).
  void unbind(std::size_t mark) {
    if (bindings_.size() != mark) unbind_slow(mark);
  }
  void unbind_slow(std::size_t mark);
  void advance(const char* from, const char* to) {
    if (plain_since_mark_ && to > from) {
      column_ += static_cast<std::uint64_t>(to - from);
      line_bytes_ += static_cast<std::uint64_t>(to - from);
    } else {
      advance_slow(from, to);
    }
  }
  void advance_slow(const char* from, const char* to);
  step halt() {
    stopped_ = true;
    return step::stop;
  }

  sink& sink_;
  state state_ = state::start;
  bool stopped_ = false;
  bool finished_ = false;
  std::string carry_;  // a token cut by the end of a feed

  // Where `mark_` is (a byte of the buffer being scanned, or its end): its
  // line, its column in characters, how far it is from its line's start in
  // bytes. Brought forward only when a start tag needs it.
  const char* mark_ = nullptr;
  // What was read since `mark_` is ASCII on one line (names, plain text),
  // so a column there moves by bytes: each token that may hold a LF or a
  // byte above 0x7F clears it.
  bool plain_since_mark_ = true;
  std::uint64_t line_ = 1;
  std::uint64_t column_ = 1;
  std::uint64_t line_bytes_ = 0;
  text_pos tag_at_;

  std::vector<open_element> open_;
  std::vector<binding> bindings_;
  const char* default_uri_ = nullptr;  // lookup(nullptr), kept in step
  std::vector<raw_attribute> raw_;
  std::vector<const unsigned char*> attributes_;  // 5 per attribute
  std::vector<std::string> values_;               // copied values
  // Names and URIs, by an open-addressing table of their hashes: few and
  // short, and looked up at every tag.
  std::vector<interned> table_;
  // The name last interned in each of 64 slots chosen by its length, first
  // and last byte: a sitemap's few names each keep a slot, so most tags
  // find theirs with one comparison.
  struct recent {
    const char* text = nullptr;
    std::size_t size = 0;
  };
  std::array<recent, 64> recent_{};
  std::vector<std::unique_ptr<char[]>> strings_;
  std::size_t interned_bytes_ = 0;
  const char* xml_prefix_;
  const char* xml_ns_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_PARSE_XML_SCANNER_H
