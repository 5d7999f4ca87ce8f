// sitemill internals: the XML side of sitemap_parser. libxml2's SAX2 push
// parser reads the bytes (600 MB/s on a quiet core); the callbacks here are
// a small state machine that extracts entries and checks, natively and in
// step with the parse, what sitemap.xsd and siteindex.xsd say about the
// structure and the values. Foreign elements of the bundled extension
// namespaces are validated subtree by subtree (extension_schema.h).
//
// Hardening (docs/protocol.md checklist 25): no DTD is loaded (no
// externalSubset handler, no XML_PARSE_DTDLOAD), no entity is ever declared
// (the first declaration stops the parse), entities are never substituted (no
// XML_PARSE_NOENT), no network (XML_PARSE_NONET), and XInclude is a tree-level
// feature that a SAX parse never runs.
#ifndef SITEMILL_PARSE_XML_READER_H
#define SITEMILL_PARSE_XML_READER_H

#include <libxml/parser.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parse/attribute_value.h"
#include "parse/context.h"
#include "parse/extension_capture.h"
#include "parse/extension_rules.h"
#include "parse/extension_schema.h"
#include "parse/foreign_capture.h"
#include "parse/xml_scanner.h"

namespace sitemill::detail {

// The callbacks are the same whether libxml2 or xml_scanner reads the bytes;
// what they need to know of the reading (where the current tag starts) one
// function, element_pos(), answers for either.
class xml_reader final : private xml_scanner::sink {
 public:
  /// `skipped` says where the bytes fed start in the document: lines and
  /// columns of what the caller stripped (a BOM, whitespace) before them.
  /// `recovered`: the caller stripped whitespace before the XML declaration
  /// (E2), so the document is not well-formed even if the rest is.
  /// `scan`: read with xml_scanner, which hands over (handed_over()) on
  /// what it leaves to libxml2; the caller then reads the document again
  /// with a reader that has `scan` false.
  xml_reader(doc_context& doc, text_pos skipped, bool recovered,
             bool scan = false);
  ~xml_reader();
  xml_reader(const xml_reader&) = delete;
  xml_reader& operator=(const xml_reader&) = delete;

  /// Parses the next bytes; false once the parse has stopped.
  bool feed(const char* data, std::size_t size);
  /// Ends the document: reports truncation, an empty urlset, and the like.
  /// `input_cut`: the caller already reported that the input ends early (a
  /// cut gzip stream), so the end-of-input errors that follow from it are
  /// not told again.
  void finish(bool input_cut = false);
  /// A fatal error stopped the parse.
  bool fatal() const noexcept { return fatal_; }
  /// The scanner met something it leaves to libxml2 and stopped there:
  /// everything this reader told so far is what libxml2's reading of the
  /// same bytes tells first, and nothing after it was told.
  bool handed_over() const noexcept { return handed_over_; }
  /// Hands over when the scanner holds a token the input cut (the caller
  /// is about to tell that the input breaks there); true if it did.
  bool hand_over_mid_token();
  /// The caller stripped what strict XML forbids before the declaration.
  bool recovered() const noexcept { return recovered_; }
  /// The XSD verdict, once finished.
  bool schema_valid() const noexcept;
  /// Not schema_valid() only because of elements in namespaces without a
  /// bundled schema (parse_summary::valid_but_unknown_namespaces).
  bool valid_but_unknown_namespaces() const noexcept;

  // SAX callbacks, public for the C trampolines only.
  void on_start_document();
  void on_doctype(const unsigned char* name, const unsigned char* external_id,
                  const unsigned char* system_id);
  void on_declaration(std::string_view what, const unsigned char* name);
  void on_start(const unsigned char* local, const unsigned char* prefix,
                const unsigned char* uri, int nb_attributes,
                const unsigned char** attributes) override;
  void on_end() override;
  void on_characters(const unsigned char* text, int len, bool cdata) override;
  void on_error(const xmlError& e);
  /// An error libxml2 sent past the parser context (see error_redirect).
  void on_stray_error(std::string_view message);

 private:
  enum class mode : std::uint8_t { before_root, sitemap, rss, atom, unknown };
  enum class field : std::uint8_t {
    none,
    loc,
    lastmod,
    changefreq,
    priority,
    feed_link,
    feed_date,
    feed_guid
  };
  struct field_text {
    std::string text;
    text_pos at;
    bool present = false;
    bool overflow = false;  // longer than max_field; the rest was dropped
  };

  // Where the current start tag begins (on every element: kept inline).
  text_pos element_pos() const {
    if (scanner_ == nullptr) return libxml2_element_pos();
    const text_pos at = scanner_->tag_pos();
    return shift(at.line, at.column);
  }
  text_pos libxml2_element_pos() const;
  void hand_over();
  text_pos shift(std::uint64_t line, std::uint64_t column) const {
    if (line == 0) return {};
    text_pos p{line + skipped_.line - 1, column};
    if (line == 1 && column != 0) p.column = column + skipped_.column - 1;
    return p;
  }
  void skip_subtree() { skip_ = depth_; }
  void start_root(const unsigned char* local, const unsigned char* prefix,
                  const unsigned char* uri, int nb_attributes,
                  const unsigned char** attributes);
  void report_doctype();
  void check_halt();
  bool root_end_ahead() const;
  void start_sitemap_child(const unsigned char* local,
                           const unsigned char* prefix,
                           const unsigned char* uri, int nb_attributes,
                           const unsigned char** attributes);
  // The sitemap field named `local` (loc, lastmod, changefreq, priority):
  // its kind, its rank in the schema's order and where its text goes;
  // field::none for any other name.
  struct field_place {
    field f = field::none;
    int rank = 0;
    field_text* slot = nullptr;
  };
  field_place place_of(const unsigned char* local) noexcept;
  // Starts collecting field `f`'s text into `slot`, the field read at `at`.
  void begin_field(field f, field_text* slot, text_pos at);
  // A sitemap field with nothing to report, started; false (and nothing
  // done) for any other element, which start_sitemap_field() takes.
  bool start_plain_field(const unsigned char* local, const unsigned char* uri,
                         int nb_attributes);
  void start_sitemap_field(const unsigned char* local,
                           const unsigned char* prefix,
                           const unsigned char* uri, int nb_attributes,
                           const unsigned char** attributes);
  void start_feed_element(const unsigned char* local, const unsigned char* uri,
                          int nb_attributes, const unsigned char** attributes);
  void start_foreign(const unsigned char* local, const unsigned char* prefix,
                     const unsigned char* uri, int nb_attributes,
                     const unsigned char** attributes, text_pos at);
  void check_attributes(const unsigned char* local, int nb_attributes,
                        const unsigned char** attributes, text_pos at);
  void begin_entry(text_pos at);
  void begin_field(field f, text_pos at);
  void end_field();
  void end_sitemap_entry();
  void end_feed_entry();
  void end_extension(extension_validator::outcome outcome);
  void report_not_kept();
  void end_foreign();
  void end_item();
  bool same_ns(const unsigned char* uri) const noexcept {
    return uri == sm_ns_ || same_ns_text(uri);
  }
  bool same_ns_text(const unsigned char* uri) const noexcept;

  doc_context& doc_;
  xmlParserCtxtPtr ctxt_ = nullptr;
  std::unique_ptr<xml_scanner> scanner_;  // instead of ctxt_ when scanning
  bool handed_over_ = false;
  text_pos skipped_;
  bool recovered_ = false;

  mode mode_ = mode::before_root;
  bool index_ = false;  // a sitemapindex
  bool atom03_ = false;
  const unsigned char* sm_ns_ = nullptr;  // the root's namespace (dict-owned)
  bool ns_exact_ = false;
  int depth_ = 0;
  std::vector<const unsigned char*> names_;  // open elements' local names
  int skip_ = 0;      // depth of a subtree being skipped, 0 when none
  bool ext_ = false;  // that subtree is extension content being validated
  text_pos ext_at_;   // where that subtree starts
  int entry_depth_ = 0;
  bool entry_unqualified_ = false;  // <url xmlns=""> read as a <url>
  int channel_depth_ = 0;
  field field_ = field::none;
  field_text* slot_ = nullptr;  // where field_'s text goes
  int field_depth_ = 0;

  // The open entry.
  text_pos entry_at_;
  field_text loc_, lastmod_, changefreq_, priority_, guid_;
  // check_loc()'s trimmed <loc> (a view of loc_.text), once it has run.
  std::string_view loc_value_;
  bool loc_value_known_ = false;
  std::string stray_text_;  // text directly in <url>/<sitemap>
  bool stray_cdata_ = false;
  bool guid_permalink_ = true;
  int last_rank_ = 0;

  std::uint64_t entry_elements_ = 0;
  bool root_closed_ = false;
  bool root_text_reported_ = false;
  bool late_foreign_reported_ = false;
  bool xsd_ok_ = true;
  bool fatal_ = false;
  // The document's first bytes, up to 14: when it starts with HTML5's
  // lowercase "<!doctype html", which XML cannot read, the parse error says
  // it is a web page.
  std::string start_;
  bool finishing_ = false;
  bool input_cut_ = false;  // finish(true): end-of-input errors are told
  bool finished_ = false;
  std::string root_qname_;  // prefix:local of the root, for truncation
  std::string doctype_;     // a DOCTYPE warning waiting for the root
  text_pos doctype_at_;
  std::vector<std::string> unknown_ns_;  // reported once each
  extension_validator extensions_;
  extension_capture capture_;  // the open <url>'s extension values
  bool capturing_ = false;     // the skipped subtree is an item being read
  foreign_capture foreign_;    // the open <url>'s unknown-namespace elements
  text_pos foreign_at_;        // where the one being read starts
  std::string foreign_name_;   // and its name, for messages
  extension_rules rules_;      // Google's rules beyond the schemas
  text_pos item_at_;           // where the item being read starts
  // Parts of libxml2's messages about the item that a finding of rules_
  // already explains; such messages are not repeated.
  std::vector<std::string> covered_;
  bool unknown_ns_seen_ = false;  // elements no bundled schema can judge
  std::vector<extension_validator::problem> ext_problems_;
  std::string scratch_;
  std::string stray_error_;  // what libxml2 said past the parser context
};

}  // namespace sitemill::detail

#endif  // SITEMILL_PARSE_XML_READER_H
