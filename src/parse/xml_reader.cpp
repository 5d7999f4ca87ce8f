#include "parse/xml_reader.h"

#include <libxml/globals.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>

#include <algorithm>
#include <array>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <utility>

#include "detail/text.h"
#include "parse/value_checks.h"
#include "sitemill/limits.h"

namespace sitemill::detail {
namespace {

using uchar = unsigned char;

constexpr std::string_view xsi_ns = "http://www.w3.org/2001/XMLSchema-instance";
constexpr std::string_view rdf_ns =
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
constexpr std::string_view rss1_ns = "http://purl.org/rss/1.0/";
constexpr std::string_view dc_ns = "http://purl.org/dc/elements/1.1/";
constexpr std::string_view atom03_ns = "http://purl.org/atom/ns#";

// What crawler-commons (Namespace.java) and USP accept instead of the one
// true namespace (docs/protocol.md checklist 27).
constexpr std::array<std::string_view, 11> legacy_namespaces = {
    "https://www.sitemaps.org/schemas/sitemap/0.9",
    "http://www.sitemaps.org/schemas/sitemap/0.9/",
    "https://www.sitemaps.org/schemas/sitemap/0.9/",
    "http://sitemaps.org/schemas/sitemap/0.9",
    "https://sitemaps.org/schemas/sitemap/0.9",
    "http://www.google.com/schemas/sitemap/0.9",
    "https://www.google.com/schemas/sitemap/0.9",
    "http://www.google.com/schemas/sitemap/0.84",
    "https://www.google.com/schemas/sitemap/0.84",
    "http://www.google.com/schemas/sitemap/0.90",
    "https://www.google.com/schemas/sitemap/0.90",
};

// A field longer than this cannot be a URL or a date; the rest is dropped
// so one huge value cannot grow memory.
constexpr std::size_t max_field = 64 * 1024;
// Distinct unknown namespaces reported per document.
constexpr std::size_t max_unknown_namespaces = 64;

std::string_view sv(const uchar* s) {
  return s == nullptr ? std::string_view{}
                      : std::string_view(reinterpret_cast<const char*>(s));
}

bool name_is(const uchar* s, std::string_view lit) noexcept {
  for (const char c : lit) {
    if (*s != static_cast<uchar>(c)) return false;
    ++s;
  }
  return *s == 0;
}

bool has_non_space(const uchar* t, int len) noexcept {
  for (int i = 0; i < len; ++i)
    if (!is_xml_space(static_cast<char>(t[i]))) return true;
  return false;
}

std::string element_name(const uchar* prefix, const uchar* local) {
  std::string n = "<";
  if (prefix != nullptr) {
    append_printable(n, sv(prefix), 40);
    n += ':';
  }
  append_printable(n, sv(local), 60);
  n += '>';
  return n;
}

// C trampolines: libxml2 calls these with our reader as user data.
xml_reader& self(void* ctx) { return *static_cast<xml_reader*>(ctx); }

void sax_start_document(void* ctx) { self(ctx).on_start_document(); }
void sax_internal_subset(void* ctx, const xmlChar* name, const xmlChar* eid,
                         const xmlChar* sid) {
  self(ctx).on_doctype(name, eid, sid);
}
void sax_entity_decl(void* ctx, const xmlChar* name, int, const xmlChar*,
                     const xmlChar*, xmlChar*) {
  self(ctx).on_declaration("ENTITY", name);
}
void sax_element_decl(void* ctx, const xmlChar* name, int,
                      xmlElementContentPtr) {
  self(ctx).on_declaration("ELEMENT", name);
}
void sax_attribute_decl(void* ctx, const xmlChar* elem, const xmlChar*, int,
                        int, const xmlChar*, xmlEnumerationPtr tree) {
  // The handler owns the enumeration (parser.c frees it only when no
  // handler is set).
  if (tree != nullptr) xmlFreeEnumeration(tree);
  self(ctx).on_declaration("ATTLIST", elem);
}
void sax_notation_decl(void* ctx, const xmlChar* name, const xmlChar*,
                       const xmlChar*) {
  self(ctx).on_declaration("NOTATION", name);
}
void sax_unparsed_entity_decl(void* ctx, const xmlChar* name, const xmlChar*,
                              const xmlChar*, const xmlChar*) {
  self(ctx).on_declaration("ENTITY", name);
}
// No entity is ever declared, so none is ever found; returning null (and
// not SAX2's lookup) keeps libxml2 from consulting anything else.
xmlEntityPtr sax_get_entity(void*, const xmlChar*) { return nullptr; }
void sax_start_element(void* ctx, const xmlChar* local, const xmlChar* prefix,
                       const xmlChar* uri, int, const xmlChar**,
                       int nb_attributes, int, const xmlChar** attributes) {
  self(ctx).on_start(local, prefix, uri, nb_attributes, attributes);
}
void sax_end_element(void* ctx, const xmlChar*, const xmlChar*,
                     const xmlChar*) {
  self(ctx).on_end();
}
void sax_characters(void* ctx, const xmlChar* text, int len) {
  self(ctx).on_characters(text, len, false);
}
void sax_cdata(void* ctx, const xmlChar* text, int len) {
  self(ctx).on_characters(text, len, true);
}
void sax_error(void* ctx, xmlErrorPtr e) {
  if (e != nullptr) self(ctx).on_error(*e);
}

xmlSAXHandler make_handler() {
  xmlSAXHandler h;
  std::memset(&h, 0, sizeof h);
  h.initialized = XML_SAX2_MAGIC;
  h.startDocument = sax_start_document;
  h.internalSubset = sax_internal_subset;
  h.entityDecl = sax_entity_decl;
  h.elementDecl = sax_element_decl;
  h.attributeDecl = sax_attribute_decl;
  h.notationDecl = sax_notation_decl;
  h.unparsedEntityDecl = sax_unparsed_entity_decl;
  h.getEntity = sax_get_entity;
  h.getParameterEntity = sax_get_entity;
  h.startElementNs = sax_start_element;
  h.endElementNs = sax_end_element;
  h.characters = sax_characters;
  h.ignorableWhitespace = sax_characters;
  h.cdataBlock = sax_cdata;
  h.serror = sax_error;
  return h;
}

const xmlSAXHandler& handler() {
  static const xmlSAXHandler h = make_handler();
  return h;
}

void init_libxml() {
  static const bool done = [] {
    xmlInitParser();
    return true;
  }();
  (void)done;
}

// libxml2 reports a few errors (a failed encoding conversion, "encoder
// error") not through the parser context but to the thread's generic and
// structured handlers, which print to stderr. While libxml2 runs for a
// reader, they go to the reader instead; the previous handlers come back
// after. libxml2 keeps these handlers per thread.
class error_redirect {
 public:
  explicit error_redirect(xml_reader& reader)
      : generic_(xmlGenericError),
        generic_ctx_(xmlGenericErrorContext),
        structured_(xmlStructuredError),
        structured_ctx_(xmlStructuredErrorContext) {
    xmlSetGenericErrorFunc(&reader, on_generic);
    xmlSetStructuredErrorFunc(&reader, on_structured);
  }
  ~error_redirect() {
    xmlSetGenericErrorFunc(generic_ctx_, generic_);
    xmlSetStructuredErrorFunc(structured_ctx_, structured_);
  }
  error_redirect(const error_redirect&) = delete;
  error_redirect& operator=(const error_redirect&) = delete;

 private:
  static void on_generic(void* ctx, const char* format, ...) {
    char buf[256];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buf, sizeof buf, format, args);
    va_end(args);
    self(ctx).on_stray_error(buf);
  }
  static void on_structured(void* ctx, xmlErrorPtr e) {
    if (e != nullptr && e->message != nullptr && e->level != XML_ERR_WARNING)
      self(ctx).on_stray_error(e->message);
  }

  xmlGenericErrorFunc generic_;
  void* generic_ctx_;
  xmlStructuredErrorFunc structured_;
  void* structured_ctx_;
};

}  // namespace

xml_reader::xml_reader(doc_context& doc, text_pos skipped, bool recovered,
                       bool scan)
    : doc_(doc), skipped_(skipped), recovered_(recovered) {
  init_libxml();
  names_.reserve(16);
  xml_scanner::sink& callbacks = *this;
  if (scan) scanner_ = std::make_unique<xml_scanner>(callbacks);
}

void xml_reader::hand_over() {
  scanner_->stop();
  handed_over_ = true;
}

bool xml_reader::hand_over_mid_token() {
  if (scanner_ == nullptr || handed_over_ || !scanner_->holding()) return false;
  hand_over();
  return true;
}

xml_reader::~xml_reader() {
  if (ctxt_ == nullptr) return;
  // "For expat compatibility in SAX mode", libxml2 records a declared
  // entity in a document of its own making (parser.c, xmlParseEntityDecl),
  // which the parser context does not free. The entity is never used: the
  // parse stops at the declaration and entity lookups come to us.
  if (ctxt_->myDoc != nullptr) xmlFreeDoc(ctxt_->myDoc);
  xmlFreeParserCtxt(ctxt_);
}

bool xml_reader::feed(const char* data, std::size_t size) {
  if (fatal_) return false;
  if (start_.size() < 14)
    start_.append(data, std::min(size, 14 - start_.size()));
  const error_redirect redirect(*this);
  if (scanner_ != nullptr) {
    // What the callbacks have libxml2 do (the extension schemas) may send
    // an error past a context: finish() hands such a document over.
    if (!handed_over_ && !scanner_->feed(data, size)) handed_over_ = true;
    return !handed_over_;
  }
  if (ctxt_ == nullptr) {
    // The first bytes go to the constructor, which sniffs their encoding
    // (a UTF-16 BOM); four are enough.
    const std::size_t first = std::min<std::size_t>(size, 4);
    xmlSAXHandler sax = handler();
    ctxt_ = xmlCreatePushParserCtxt(&sax, this, data, static_cast<int>(first),
                                    nullptr);
    if (ctxt_ == nullptr) {
      fatal_ = true;
      doc_.report(doc_code::not_well_formed, {},
                  "the XML parser could not start (out of memory)");
      return false;
    }
    xmlCtxtUseOptions(ctxt_, XML_PARSE_NONET);
    // Belt and braces against a changed global default: never substitute
    // entities, never load a DTD, never validate with one.
    ctxt_->replaceEntities = 0;
    ctxt_->loadsubset = 0;
    ctxt_->validate = 0;
    data += first;
    size -= first;
  }
  if (size > 0 && !fatal_) {
    xmlParseChunk(ctxt_, data, static_cast<int>(size), 0);
    // Mid-document, the end state means libxml2 halted on its own.
    if (ctxt_->instate == XML_PARSER_EOF) check_halt();
  }
  return !fatal_;
}

void xml_reader::on_stray_error(std::string_view message) {
  if (!stray_error_.empty()) return;  // the first says what went wrong
  stray_error_.assign(message.substr(0, 200));
  while (!stray_error_.empty() &&
         (stray_error_.back() == '\n' || stray_error_.back() == ' '))
    stray_error_.pop_back();
  if (stray_error_.empty()) stray_error_ = "libxml2 error";
}

void xml_reader::check_halt() {
  // Stopped without a fatal error through our handler: an encoding
  // conversion failed (bytes that do not fit the declared encoding).
  if (fatal_ || ctxt_ == nullptr) return;
  fatal_ = true;
  xsd_ok_ = false;
  std::string m = "the bytes do not fit the document's encoding";
  if (!stray_error_.empty()) {
    m += " (";
    append_printable(m, stray_error_, 160);
    m += ')';
  }
  m += ": save the file as UTF-8 and declare encoding=\"UTF-8\"";
  const xmlParserInputPtr in = ctxt_->input;
  doc_.report(doc_code::not_well_formed,
              in != nullptr
                  ? shift(static_cast<std::uint64_t>(std::max(in->line, 0)),
                          static_cast<std::uint64_t>(std::max(in->col, 0)))
                  : text_pos{},
              std::move(m));
}

void xml_reader::finish(bool input_cut) {
  if (finished_) return;
  if (scanner_ != nullptr && !handed_over_) {
    const error_redirect redirect(*this);
    // libxml2 would end with check_halt() on a stray error.
    if (!scanner_->finish() || !stray_error_.empty()) handed_over_ = true;
  }
  if (handed_over_) {
    finished_ = true;
    return;
  }
  finishing_ = true;
  input_cut_ = input_cut;
  if (ctxt_ != nullptr && !fatal_) {
    const error_redirect redirect(*this);
    const int rc = xmlParseChunk(ctxt_, nullptr, 0, 1);
    if (!input_cut && (rc == XML_ERR_INVALID_ENCODING || !stray_error_.empty()))
      check_halt();
  }
  finishing_ = false;
  finished_ = true;
  if (!fatal_) report_doctype();
  if (fatal_ || !root_closed_) return;
  if (mode_ == mode::sitemap) {
    if (entry_elements_ == 0) {
      xsd_ok_ = false;
      doc_.report(doc_code::no_entries, {},
                  index_ ? "the <sitemapindex> lists no <sitemap>: an index "
                           "needs at least one (siteindex.xsd); do not publish "
                           "an empty index"
                         : "the <urlset> has no <url>: a sitemap needs at "
                           "least one (sitemap.xsd); do not publish empty "
                           "sitemaps");
    }
    doc_.finish_lastmod_check();
  } else if ((mode_ == mode::rss || mode_ == mode::atom) &&
             doc_.entries_seen() == 0) {
    doc_.report(doc_code::feed_empty, {},
                mode_ == mode::rss
                    ? "the feed has no <item>: it gives search engines no URL"
                    : "the feed has no <entry>: it gives search engines no "
                      "URL");
  }
}

bool xml_reader::schema_valid() const noexcept {
  return finished_ && doc_.checks() && mode_ == mode::sitemap && ns_exact_ &&
         xsd_ok_ && !unknown_ns_seen_ && !fatal_ && !recovered_ &&
         root_closed_ && entry_elements_ > 0;
}

bool xml_reader::valid_but_unknown_namespaces() const noexcept {
  return unknown_ns_seen_ && finished_ && doc_.checks() &&
         mode_ == mode::sitemap && ns_exact_ && xsd_ok_ && !fatal_ &&
         !recovered_ && root_closed_ && entry_elements_ > 0;
}

text_pos xml_reader::libxml2_element_pos() const {
  // libxml2 calls startElementNs with the input at the tag's '>' (or '/>');
  // the tag starts at the last '<' before it, since '<' cannot occur in an
  // attribute value.
  const xmlParserInputPtr in = ctxt_ != nullptr ? ctxt_->input : nullptr;
  if (in == nullptr || in->cur == nullptr || in->base == nullptr) return {};
  const xmlChar* cur = in->cur;
  const xmlChar* p = cur;
  std::uint64_t newlines = 0;
  while (p > in->base) {
    --p;
    if (*p == '<') break;
    if (*p == '\n') ++newlines;
  }
  const auto line = static_cast<std::uint64_t>(in->line > 0 ? in->line : 1);
  if (*p != '<' || newlines >= line) return shift(line, 0);
  const std::uint64_t start_line = line - newlines;
  std::uint64_t column = 0;
  if (newlines == 0) {
    const auto back = static_cast<std::uint64_t>(cur - p);
    const auto col = static_cast<std::uint64_t>(in->col > 0 ? in->col : 1);
    column = col > back ? col - back : 1;
  } else {
    const xmlChar* q = p;
    while (q > in->base && q[-1] != '\n') --q;
    if (q > in->base || start_line == 1)
      column = static_cast<std::uint64_t>(p - q) + 1;
  }
  return shift(start_line, column);
}

bool xml_reader::same_ns_text(const uchar* uri) const noexcept {
  return uri != nullptr && sm_ns_ != nullptr &&
         std::strcmp(reinterpret_cast<const char*>(uri),
                     reinterpret_cast<const char*>(sm_ns_)) == 0;
}

void xml_reader::on_start_document() {
  const std::string_view declared =
      ctxt_ != nullptr ? sv(ctxt_->encoding) : std::string_view{};
  if (declared.empty() || iequals(declared, "utf-8")) return;
  std::string m = "the XML declaration says encoding=\"";
  append_printable(m, declared, 40);
  m += "\"; the protocol requires UTF-8: convert the file to UTF-8 and declare "
       "encoding=\"UTF-8\" (sitemill read it as declared)";
  doc_.report(doc_code::encoding_not_utf8, shift(1, 1), std::move(m));
}

void xml_reader::on_doctype(const uchar* name, const uchar* external_id,
                            const uchar* system_id) {
  // Reported when the root starts: a DOCTYPE with declarations ends the
  // parse first, with the error that says so.
  doctype_ = "the document has a DOCTYPE (<!DOCTYPE ";
  append_printable(doctype_, sv(name), 40);
  doctype_ += ">); a sitemap needs none, and sitemill ";
  doctype_ += external_id != nullptr || system_id != nullptr
                  ? "never loads the external DTD it names"
                  : "ignores it";
  doctype_ += ": remove it";
  doctype_at_ = ctxt_ != nullptr && ctxt_->input != nullptr
                    ? shift(static_cast<std::uint64_t>(ctxt_->input->line), 0)
                    : text_pos{};
}

void xml_reader::report_doctype() {
  if (doctype_.empty()) return;
  doc_.report(doc_code::doctype, doctype_at_, std::move(doctype_));
  doctype_.clear();
}

bool xml_reader::root_end_ahead() const {
  // At the end of input libxml2 reports the errors it had deferred while
  // waiting for a delimiter (a raw '&' waits for a ';'). The document was
  // cut short only if its root's end tag is not among the bytes still
  // unparsed.
  const xmlParserInputPtr in = ctxt_ != nullptr ? ctxt_->input : nullptr;
  if (in == nullptr || in->cur == nullptr || in->end == nullptr ||
      root_qname_.empty())
    return false;
  const std::string_view tail(reinterpret_cast<const char*>(in->cur),
                              static_cast<std::size_t>(in->end - in->cur));
  const std::string tag = "</" + root_qname_;
  for (std::size_t p = tail.find(tag); p != std::string_view::npos;
       p = tail.find(tag, p + 1)) {
    std::size_t q = p + tag.size();
    while (q < tail.size() && is_xml_space(tail[q])) ++q;
    if (q < tail.size() && tail[q] == '>') return true;
  }
  return false;
}

void xml_reader::on_declaration(std::string_view what, const uchar* name) {
  if (fatal_) return;
  fatal_ = true;
  xsd_ok_ = false;
  std::string m = "the DOCTYPE declares <!";
  m += what;
  m += ' ';
  append_printable(m, sv(name), 40);
  m += " ...>; to be safe from external-entity (XXE) and entity-expansion "
       "attacks sitemill never expands or loads declarations and stops "
       "reading here: remove the DOCTYPE, a sitemap needs none";
  const text_pos at =
      ctxt_ != nullptr && ctxt_->input != nullptr
          ? shift(static_cast<std::uint64_t>(ctxt_->input->line),
                  static_cast<std::uint64_t>(std::max(ctxt_->input->col, 0)))
          : text_pos{};
  doc_.report(doc_code::dtd_entity, at, std::move(m));
  if (ctxt_ != nullptr) xmlStopParser(ctxt_);
}

void xml_reader::on_start(const uchar* local, const uchar* prefix,
                          const uchar* uri, int nb_attributes,
                          const uchar** attributes) {
  ++depth_;
  if (names_.size() < static_cast<std::size_t>(depth_))
    names_.resize(static_cast<std::size_t>(depth_));
  names_[static_cast<std::size_t>(depth_ - 1)] = local;
  if (skip_ != 0) {
    if (ext_)
      extensions_.start_element(local, prefix, uri, nb_attributes, attributes,
                                element_pos());
    if (capturing_)
      capture_.start_element(sv(local), sv(uri), nb_attributes, attributes,
                             element_pos());
    if (foreign_.active())
      foreign_.start_element(local, prefix, uri, nb_attributes, attributes);
    return;
  }
  if (depth_ == 1) {
    start_root(local, prefix, uri, nb_attributes, attributes);
    return;
  }
  if (field_ != field::none) {
    // An element inside a value: <loc><url>...</url></loc> (E40).
    if (mode_ == mode::sitemap) {
      xsd_ok_ = false;
      doc_.report(
          doc_code::nested_element, element_pos(),
          element_name(prefix, local) + " is inside " +
              element_name(nullptr,
                           names_[static_cast<std::size_t>(field_depth_ - 1)]) +
              ", which holds only text: close the value element "
              "before it (it is ignored)");
    }
    skip_subtree();
    return;
  }
  switch (mode_) {
    case mode::sitemap:
      if (depth_ == 2) {
        start_sitemap_child(local, prefix, uri, nb_attributes, attributes);
      } else if (!start_plain_field(local, uri, nb_attributes)) {
        start_sitemap_field(local, prefix, uri, nb_attributes, attributes);
      }
      break;
    case mode::rss:
    case mode::atom:
      start_feed_element(local, uri, nb_attributes, attributes);
      break;
    case mode::before_root:
    case mode::unknown:
      skip_subtree();
      break;
  }
}

void xml_reader::start_root(const uchar* local, const uchar* prefix,
                            const uchar* uri, int nb_attributes,
                            const uchar** attributes) {
  const text_pos at = element_pos();
  const std::string_view name = sv(local);
  report_doctype();
  root_qname_.clear();
  if (prefix != nullptr) {
    root_qname_ = sv(prefix);
    root_qname_ += ':';
  }
  root_qname_ += name;
  if (name == "urlset" || name == "sitemapindex") {
    mode_ = mode::sitemap;
    index_ = name == "sitemapindex";
    doc_.set_kind(index_ ? document_kind::sitemapindex : document_kind::urlset);
    sm_ns_ = uri;
    const std::string_view ns = sv(uri);
    const std::string root = "<" + std::string(name) + ">";
    if (uri == nullptr) {
      doc_.report(doc_code::namespace_missing, at,
                  root +
                      " has no namespace; search engines read it, but "
                      "validators do not: add xmlns=\"" +
                      std::string(sitemap_namespace) + "\"");
    } else if (ns == sitemap_namespace) {
      ns_exact_ = true;
    } else {
      const bool legacy =
          std::find(legacy_namespaces.begin(), legacy_namespaces.end(), ns) !=
          legacy_namespaces.end();
      std::string m = root + " uses the namespace \"";
      append_printable(m, ns);
      m += legacy ? "\", an old or misspelled form that validators reject: "
                    "use exactly \""
                  : "\", which is not the sitemap namespace: use \"";
      m += sitemap_namespace;
      m += "\" (http, www, no trailing slash)";
      doc_.report(
          legacy ? doc_code::namespace_legacy : doc_code::namespace_wrong, at,
          std::move(m));
    }
    if (nb_attributes > 0 && doc_.checks())
      check_attributes(local, nb_attributes, attributes, at);
    return;
  }
  if (name == "rss" || (name == "RDF" && sv(uri) == rdf_ns)) {
    mode_ = mode::rss;
    doc_.set_kind(document_kind::rss);
    return;
  }
  if (name == "feed") {
    mode_ = mode::atom;
    atom03_ = sv(uri) == atom03_ns;
    doc_.set_kind(document_kind::atom);
    return;
  }
  mode_ = mode::unknown;
  std::string m = "the root element is ";
  m += element_name(nullptr, local);
  if (name == "html" || name == "HTML") {
    m += ": this is a web page, not a sitemap (perhaps an error page); point "
         "to the sitemap file itself";
  } else {
    m += ", not <urlset>, <sitemapindex>, an RSS <rss> or an Atom <feed>: "
         "this is not a sitemap";
  }
  doc_.report(doc_code::unknown_root, at, std::move(m));
  skip_subtree();
}

void xml_reader::check_attributes(const uchar* local, int nb_attributes,
                                  const uchar** attributes, text_pos at) {
  for (int i = 0; i < nb_attributes; ++i) {
    const uchar** a = attributes + 5 * i;
    if (sv(a[2]) == xsi_ns &&
        (name_is(a[0], "schemaLocation") ||
         name_is(a[0], "noNamespaceSchemaLocation") || name_is(a[0], "type")))
      continue;
    xsd_ok_ = false;
    std::string m = element_name(nullptr, local) + " has the attribute ";
    if (a[1] != nullptr) {
      append_printable(m, sv(a[1]), 40);
      m += ':';
    }
    append_printable(m, sv(a[0]), 60);
    m += ", which the sitemap schemas do not allow: remove it";
    doc_.report(doc_code::unexpected_attribute, at, std::move(m));
    return;  // one report per element is enough
  }
}

void xml_reader::start_sitemap_child(const uchar* local, const uchar* prefix,
                                     const uchar* uri, int nb_attributes,
                                     const uchar** attributes) {
  const text_pos at = element_pos();
  const bool entry_name = name_is(local, index_ ? "sitemap" : "url");
  if (uri == nullptr && sm_ns_ != nullptr && entry_name) {
    // <url xmlns="">: the sitemap namespace undeclared for the entry. No
    // schema admits it, but its URL is plain to read, as scrapy does.
    xsd_ok_ = false;
    doc_.report(doc_code::entry_no_namespace, at,
                element_name(prefix, local) +
                    " is in no namespace (xmlns=\"\" undeclares the sitemap "
                    "namespace), so validators reject it; sitemill reads it "
                    "as a " +
                    element_name(nullptr, local) +
                    " of the sitemap: remove xmlns=\"\"");
    begin_entry(at);
    entry_unqualified_ = true;
    return;
  }
  if (same_ns(uri)) {
    if (entry_name) {
      begin_entry(at);
      if (nb_attributes > 0 && doc_.checks())
        check_attributes(local, nb_attributes, attributes, at);
      return;
    }
    xsd_ok_ = false;
    if (name_is(local, "url") || name_is(local, "sitemap")) {
      doc_.report(
          doc_code::wrong_child, at,
          index_ ? "<url> in a <sitemapindex>: an index lists <sitemap> "
                   "entries that point to sitemaps; put page URLs in a "
                   "<urlset> sitemap (this entry is not read)"
                 : "<sitemap> in a <urlset>: this looks like a sitemap "
                   "index; make the root <sitemapindex> (this entry is not "
                   "read)");
    } else {
      doc_.report(doc_code::unknown_element, at,
                  element_name(prefix, local) +
                      " is not an element of the sitemap protocol: remove "
                      "it (a <" +
                      std::string(index_ ? "sitemapindex" : "urlset") +
                      "> holds only <" + (index_ ? "sitemap" : "url") +
                      "> elements and other namespaces' extensions)");
    }
    skip_subtree();
    return;
  }
  if (entry_elements_ > 0 && uri != nullptr) {
    // ##other comes before url+ in the urlset's sequence.
    xsd_ok_ = false;
    if (!late_foreign_reported_ && doc_.checks()) {
      late_foreign_reported_ = true;
      doc_.report(doc_code::element_order, at,
                  element_name(prefix, local) +
                      " comes after the first entry: the schema allows "
                      "other namespaces' elements at the top level only "
                      "before it; move it");
    }
  }
  start_foreign(local, prefix, uri, nb_attributes, attributes, at);
}

xml_reader::field_place xml_reader::place_of(const uchar* local) noexcept {
  // By the first letter, then the whole name: one comparison per field.
  if (local[0] == 'l' && name_is(local, "loc")) return {field::loc, 1, &loc_};
  if (local[0] == 'l' && name_is(local, "lastmod"))
    return {field::lastmod, 2, &lastmod_};
  if (local[0] == 'c' && name_is(local, "changefreq"))
    return {field::changefreq, 3, &changefreq_};
  if (local[0] == 'p' && name_is(local, "priority"))
    return {field::priority, 4, &priority_};
  return {};
}

bool xml_reader::start_plain_field(const uchar* local, const uchar* uri,
                                   int nb_attributes) {
  // What start_sitemap_field() does with a field in its place, once, in
  // order, without attributes: nothing to report.
  if (nb_attributes != 0 || !same_ns(uri)) return false;
  const auto [f, rank, slot] = place_of(local);
  // An index's <sitemap> has no changefreq or priority.
  if (f == field::none || (index_ && rank > 2)) return false;
  if (slot->present || rank < last_rank_) return false;
  last_rank_ = rank;
  begin_field(f, slot, element_pos());
  return true;
}

void xml_reader::begin_field(field f, field_text* slot, text_pos at) {
  field_ = f;
  field_depth_ = depth_;
  slot_ = slot;
  slot->text.clear();
  slot->present = true;
  slot->overflow = false;
  slot->at = at;
}

void xml_reader::start_sitemap_field(const uchar* local, const uchar* prefix,
                                     const uchar* uri, int nb_attributes,
                                     const uchar** attributes) {
  const text_pos at = element_pos();
  const std::string_view entry = index_ ? "<sitemap>" : "<url>";
  // In an entry read without its namespace, its fields are without it too.
  if (!same_ns(uri) && !(entry_unqualified_ && uri == nullptr)) {
    last_rank_ = 5;
    if (const extension_namespace* ns =
            index_ || uri == nullptr ? nullptr : namespace_for_uri(sv(uri))) {
      capturing_ = true;
      item_at_ = at;
      covered_.clear();
      capture_.begin_item(*ns, sv(local), nb_attributes, attributes, at);
    }
    start_foreign(local, prefix, uri, nb_attributes, attributes, at);
    return;
  }
  const auto [f, rank, slot] = place_of(local);
  if (f == field::none) {
    xsd_ok_ = false;
    doc_.report(doc_code::unknown_element, at,
                element_name(prefix, local) + " is not a child of " +
                    std::string(entry) +
                    " in the sitemap protocol: remove it (" +
                    std::string(entry) + " holds loc, " +
                    (index_ ? "lastmod" : "lastmod, changefreq, priority") +
                    " and extension elements)");
    skip_subtree();
    return;
  }
  if (index_ && (f == field::changefreq || f == field::priority)) {
    xsd_ok_ = false;
    if (doc_.checks()) {
      doc_.report(doc_code::index_entry_field, at,
                  element_name(prefix, local) +
                      " belongs in a <url>, not in an index's <sitemap> "
                      "(siteindex.xsd allows loc and lastmod): remove it");
    }
    skip_subtree();
    return;
  }
  if (slot->present) {
    xsd_ok_ = false;
    if (f == field::loc) {
      doc_.report(doc_code::duplicate_loc, at,
                  "a second <loc> in one " + std::string(entry) +
                      " is ignored: give each URL its own " +
                      std::string(entry));
    } else if (doc_.checks()) {
      doc_.report(doc_code::duplicate_element, at,
                  "a second " + element_name(prefix, local) + " in one " +
                      std::string(entry) +
                      " is ignored (the first is used): keep one");
    }
    skip_subtree();
    return;
  }
  if (rank < last_rank_) {
    xsd_ok_ = false;
    if (doc_.checks()) {
      doc_.report(doc_code::element_order, at,
                  element_name(prefix, local) + " is out of order in " +
                      std::string(entry) + ": the schema requires " +
                      (index_ ? "loc, lastmod"
                              : "loc, lastmod, changefreq, "
                                "priority") +
                      ", then extension elements (search engines read it "
                      "anyway)");
    }
  }
  last_rank_ = std::max(last_rank_, rank);
  if (nb_attributes > 0 && doc_.checks())
    check_attributes(local, nb_attributes, attributes, at);
  begin_field(f, slot, at);
}

void xml_reader::start_foreign(const uchar* local, const uchar* prefix,
                               const uchar* uri, int nb_attributes,
                               const uchar** attributes, text_pos at) {
  skip_subtree();
  if (uri == nullptr) {
    // The root has a namespace; an unqualified child is neither a sitemap
    // element nor another namespace's (##other excludes "no namespace").
    xsd_ok_ = false;
    doc_.report(doc_code::unknown_element, at,
                element_name(prefix, local) +
                    " has no namespace, so it is neither a sitemap element "
                    "nor an extension: put it in its own namespace or remove "
                    "it");
    return;
  }
  const std::string_view ns = sv(uri);
  if (!index_ && namespace_for_uri(ns) != nullptr) {
    if (!doc_.checks()) return;
    ext_ = true;
    ext_at_ = at;
    extensions_.start_element(local, prefix, uri, nb_attributes, attributes,
                              at);
    return;
  }
  // One version or a typo off a known extension: search engines ignore
  // every element of it, so it is the author's mistake, not an extension
  // sitemill merely cannot judge.
  const extension_namespace* near = index_ ? nullptr : namespace_near_uri(ns);
  // Inside a <url>, an element no schema here knows is kept as written
  // (foreign_capture.h), so generate --from-sitemap writes it back.
  const bool kept = near == nullptr && !index_ && depth_ > 2;
  if (near != nullptr)
    xsd_ok_ = false;
  else
    unknown_ns_seen_ = true;
  if (kept) {
    foreign_at_ = at;
    foreign_name_ = element_name(prefix, local);
    foreign_.start_element(local, prefix, uri, nb_attributes, attributes);
  }
  if (std::find(unknown_ns_.begin(), unknown_ns_.end(), ns.substr(0, 512)) !=
          unknown_ns_.end() ||
      unknown_ns_.size() >= max_unknown_namespaces)
    return;
  // A namespace URI may be megabytes long; the head tells them apart.
  unknown_ns_.emplace_back(ns.substr(0, 512));
  std::string m = element_name(prefix, local) + " is in the namespace \"";
  append_printable(m, ns);
  if (near != nullptr) {
    m += "\", which is not the ";
    m += near->name;
    m += " extension's: search engines ignore every element of it";
    if (!doc_.checks()) m += ", and it is not kept";
    m += ". Did you mean \"";
    m += near->uri;
    m += "\"? Declare exactly that URI";
    doc_.report(doc_code::extension_namespace_wrong, at, std::move(m));
    return;
  }
  if (index_) {
    m += "\": siteindex.xsd allows no extension elements, so strict schema "
         "validation fails; search engines ignore them";
  } else if (!doc_.checks()) {
    // Read to be written again: say what becomes of it.
    m += "\", which has no schema sitemill knows (image, video, news and "
         "xhtml do): ";
    m += kept ? "its elements are kept as written and written back into "
                "their <url> (strict validation with sitemap.xsd fails for "
                "them; search engines ignore what they do not know)"
              : "elements outside a <url> are not kept";
  } else {
    m += "\", which has no schema sitemill knows (image, video, news and "
         "xhtml do), so strict validation with sitemap.xsd fails; search "
         "engines ignore what they do not know";
  }
  doc_.report(doc_code::extension_unknown_namespace, at, std::move(m));
}

void xml_reader::start_feed_element(const uchar* local, const uchar* uri,
                                    int nb_attributes,
                                    const uchar** attributes) {
  const std::string_view ns = sv(uri);
  if (mode_ == mode::rss) {
    if (entry_depth_ == 0) {
      if (depth_ == 2 && name_is(local, "channel")) {
        channel_depth_ = 2;
      } else if (name_is(local, "item") &&
                 (depth_ == 2 || (depth_ == 3 && channel_depth_ == 2))) {
        begin_entry(element_pos());
      }
      return;
    }
    if (depth_ != entry_depth_ + 1) return;
    const bool rss_ns = uri == nullptr || ns == rss1_ns;
    if (rss_ns && name_is(local, "link") && !loc_.present) {
      begin_field(field::feed_link, element_pos());
    } else if (rss_ns && name_is(local, "pubDate") && !lastmod_.present) {
      begin_field(field::feed_date, element_pos());
    } else if (ns == dc_ns && name_is(local, "date") && !lastmod_.present) {
      begin_field(field::feed_date, element_pos());
    } else if (rss_ns && name_is(local, "guid") && !guid_.present) {
      guid_permalink_ = true;
      for (int i = 0; i < nb_attributes; ++i) {
        const uchar** a = attributes + 5 * i;
        if (name_is(a[0], "isPermaLink") && a[2] == nullptr)
          guid_permalink_ = attribute_value(a) != "false";
      }
      begin_field(field::feed_guid, element_pos());
    }
    return;
  }
  // Atom
  if (entry_depth_ == 0) {
    if (depth_ == 2 && name_is(local, "entry")) begin_entry(element_pos());
    return;
  }
  if (depth_ != entry_depth_ + 1) return;
  if (name_is(local, "link") && !loc_.present) {
    bool alternate = true, has_href = false;
    std::string href;
    for (int i = 0; i < nb_attributes; ++i) {
      const uchar** a = attributes + 5 * i;
      if (a[2] != nullptr) continue;
      if (name_is(a[0], "rel")) alternate = attribute_value(a) == "alternate";
      if (name_is(a[0], "href")) {
        href = attribute_value(a);
        has_href = true;
      }
    }
    if (alternate && has_href) {
      loc_.text = std::move(href);
      loc_.present = true;
      loc_.overflow = false;
      loc_.at = element_pos();
    }
  } else if ((name_is(local, atom03_ ? "modified" : "updated")) &&
             !lastmod_.present) {
    begin_field(field::feed_date, element_pos());
  }
}

void xml_reader::begin_entry(text_pos at) {
  ++entry_elements_;
  doc_.count_entry(at);
  entry_depth_ = depth_;
  entry_at_ = at;
  loc_.present = lastmod_.present = changefreq_.present = priority_.present =
      guid_.present = false;
  loc_value_known_ = false;
  loc_.overflow = false;
  stray_text_.clear();
  stray_cdata_ = false;
  last_rank_ = 0;
  entry_unqualified_ = false;
  capture_.begin_entry();
  foreign_.begin_entry();
  rules_.begin_entry();
}

void xml_reader::begin_field(field f, text_pos at) {
  field_text& slot = f == field::feed_link   ? loc_
                     : f == field::feed_date ? lastmod_
                                             : guid_;
  field_ = f;
  field_depth_ = depth_;
  slot_ = &slot;
  slot.text.clear();
  slot.present = true;
  slot.overflow = false;
  slot.at = at;
}

void xml_reader::on_characters(const uchar* text, int len, bool cdata) {
  if (skip_ != 0) {
    if (ext_) extensions_.characters(text, len);
    const std::string_view t(reinterpret_cast<const char*>(text),
                             static_cast<std::size_t>(len));
    if (capturing_) capture_.characters(t);
    if (foreign_.active()) foreign_.characters(t);
    return;
  }
  if (field_ != field::none) {
    field_text& slot = *slot_;
    if (slot.overflow) return;
    if (slot.text.size() + static_cast<std::size_t>(len) > max_field) {
      // Where libxml2 splits text decides what is kept: its to read.
      if (scanner_ != nullptr) return hand_over();
      slot.overflow = true;
      return;
    }
    slot.text.append(reinterpret_cast<const char*>(text),
                     static_cast<std::size_t>(len));
    return;
  }
  if (mode_ != mode::sitemap) return;
  if (entry_depth_ != 0 && depth_ == entry_depth_) {
    // Text out of place is reported as libxml2 split it: its to read.
    if (scanner_ != nullptr && (cdata || has_non_space(text, len)))
      return hand_over();
    if (cdata) stray_cdata_ = true;
    // Indentation before the first real text is not kept.
    if ((!stray_text_.empty() || has_non_space(text, len)) &&
        stray_text_.size() < max_field) {
      stray_text_.append(reinterpret_cast<const char*>(text),
                         std::min(static_cast<std::size_t>(len),
                                  max_field - stray_text_.size()));
    }
    return;
  }
  if (depth_ == 1 && (cdata || has_non_space(text, len))) {
    if (scanner_ != nullptr) return hand_over();
    // Element-only content: the schema allows whitespace only (and no
    // CDATA section at all, as libxml2 reads it).
    xsd_ok_ = false;
    if (!root_text_reported_ && doc_.checks()) {
      root_text_reported_ = true;
      const std::string_view t = trim_xml(std::string_view(
          reinterpret_cast<const char*>(text), static_cast<std::size_t>(len)));
      std::string m = t.empty() ? "a CDATA section" : "text (\"";
      if (!t.empty()) {
        append_printable(m, t, 60);
        m += "\")";
      }
      m += " directly inside the <";
      m += index_ ? "sitemapindex" : "urlset";
      m += ">, which may hold only elements: remove it";
      const xmlParserInputPtr in = ctxt_->input;
      doc_.report(doc_code::unexpected_text,
                  in != nullptr
                      ? shift(static_cast<std::uint64_t>(in->line),
                              static_cast<std::uint64_t>(std::max(in->col, 0)))
                      : text_pos{},
                  std::move(m));
    }
  }
}

void xml_reader::on_end() {
  if (skip_ != 0) {
    // The item's own rules first: what they explain, the schema's messages
    // need not repeat.
    if (capturing_ && capture_.end_element()) {
      capturing_ = false;
      end_item();
      report_not_kept();
    }
    if (foreign_.active() && foreign_.end_element()) end_foreign();
    if (ext_) {
      const auto outcome = extensions_.end_element(ext_problems_);
      if (outcome != extension_validator::outcome::open) end_extension(outcome);
    }
    if (depth_ == skip_) {
      skip_ = 0;
      ext_ = false;
    }
    --depth_;
    return;
  }
  if (field_ != field::none && depth_ == field_depth_) {
    end_field();
  } else if (entry_depth_ != 0 && depth_ == entry_depth_) {
    if (mode_ == mode::sitemap) {
      end_sitemap_entry();
    } else {
      end_feed_entry();
    }
    entry_depth_ = 0;
  } else if (depth_ == channel_depth_) {
    channel_depth_ = 0;
  }
  if (depth_ == 1) root_closed_ = true;
  --depth_;
}

void xml_reader::end_extension(extension_validator::outcome outcome) {
  if (outcome != extension_validator::outcome::checked) {
    // Not validated, so not known to be valid.
    xsd_ok_ = false;
    if (outcome == extension_validator::outcome::too_large) {
      doc_.report(doc_code::extension_too_large, ext_at_,
                  "this extension element holds more than 20,000 elements or "
                  "4 MiB of text, so it was not validated: no real extension "
                  "element is that large; split its content");
    }
  }
  for (auto& p : ext_problems_) {
    xsd_ok_ = false;
    // libxml2 writes names as {namespace}local; the usual prefixes read
    // better.
    for (std::size_t k = 0; k < extension_kind_count; ++k) {
      const extension_namespace& ns =
          namespace_of(static_cast<extension_kind>(k));
      std::string uri = "{";  // appended: g++ 12's -Wrestrict misreads "{" + s
      (uri += ns.uri) += '}';
      const std::string prefix = std::string(ns.prefix) + ":";
      for (std::size_t at; (at = p.message.find(uri)) != std::string::npos;)
        p.message.replace(at, uri.size(), prefix);
    }
    if (std::any_of(covered_.begin(), covered_.end(),
                    [&](const std::string& c) {
                      return p.message.find(c) != std::string::npos;
                    }))
      continue;
    doc_.report(
        doc_code::xsd_extension, p.at,
        "extension content does not match its bundled schema: " + p.message +
            " (search engines may ignore this extension data)");
  }
  ext_problems_.clear();
  covered_.clear();
}

void xml_reader::end_item() {
  const extension_namespace* ns = capture_.item_namespace();
  if (!doc_.checks() || ns == nullptr || !capture_.item_modelled()) return;
  rules_.item(*ns, capture_.last_item(), item_at_, doc_, covered_);
}

// What an item held that the extension table does not model. check says
// it through the schema validation (xsd-extension); a reader that only
// extracts (generate --from-sitemap) hears it here, because it is dropped.
void xml_reader::report_not_kept() {
  auto& missed = capture_.not_kept();
  if (!doc_.checks())
    for (auto& m : missed)
      doc_.report(doc_code::extension_not_kept, m.at,
                  m.what +
                      " is not part of the extension's schema, so it is not "
                      "kept (sitemill writes only what the schemas define)");
  missed.clear();
}

// A foreign element closed: kept in the fragment, or said to be too large.
void xml_reader::end_foreign() {
  if (!foreign_.dropped() || doc_.checks()) return;
  doc_.report(doc_code::extension_not_kept, foreign_at_,
              foreign_name_ +
                  " (a namespace without a schema) takes its <url> past " +
                  with_commas(foreign_capture::max_bytes) +
                  " bytes of such XML, the most kept per <url>, so it is not "
                  "kept: no real extension needs that much");
}

void xml_reader::end_field() {
  const field f = field_;
  field_ = field::none;
  field_depth_ = 0;
  if (mode_ != mode::sitemap) {
    if (f == field::feed_date)
      check_feed_date(
          lastmod_.text, lastmod_.at,
          mode_ == mode::atom ? feed_date_format::rfc3339
          : sv(names_[static_cast<std::size_t>(depth_ - 1)]) == "date"
              ? feed_date_format::w3c
              : feed_date_format::rfc822,
          doc_);
    return;
  }
  if (!doc_.checks()) return;
  switch (f) {
    case field::loc:
      if (loc_.overflow) {
        xsd_ok_ = false;
        doc_.report(doc_code::loc_too_long, loc_.at,
                    "<loc> is longer than 65,536 bytes; the protocol allows "
                    "fewer than 2,048 characters: shorten the URL (the entry "
                    "is not read)");
      } else {
        const loc_verdict v =
            check_loc(loc_.text, loc_.at, loc_source::xml, doc_, scratch_);
        xsd_ok_ &= v.xsd_valid;
        loc_value_ = v.value;
        loc_value_known_ = true;
      }
      break;
    case field::lastmod:
      xsd_ok_ &= check_lastmod(lastmod_.text, lastmod_.at, doc_);
      break;
    case field::changefreq:
      xsd_ok_ &= check_changefreq(changefreq_.text, changefreq_.at, doc_);
      break;
    case field::priority:
      xsd_ok_ &= check_priority(priority_.text, priority_.at, doc_);
      break;
    default:
      break;
  }
}

void xml_reader::end_sitemap_entry() {
  const std::string_view entry = index_ ? "<sitemap>" : "<url>";
  const std::string_view stray = trim_xml(stray_text_);
  parsed_entry e;
  e.line = entry_at_.line;
  e.column = entry_at_.column;
  if (!loc_.present) {
    xsd_ok_ = false;
    if (stray.empty()) {
      doc_.report(doc_code::missing_loc, entry_at_,
                  std::string(entry) +
                      " has no <loc>: add the URL as <loc>; the entry is "
                      "skipped");
      return;
    }
    // E27: the URL written as bare text; crawler-commons reads it, so do we.
    std::string m = std::string(entry) + " has no <loc> but holds the text \"";
    append_printable(m, stray, 80);
    m += "\": wrap the URL in <loc>...</loc> (read as its loc anyway)";
    doc_.report(doc_code::missing_loc, entry_at_, std::move(m));
    const loc_verdict v =
        check_loc(stray, entry_at_, loc_source::text, doc_, scratch_);
    e.loc = {v.value, true, entry_at_.line, entry_at_.column};
  } else {
    if (!stray.empty() || stray_cdata_) {
      xsd_ok_ = false;
      if (doc_.checks()) {
        std::string m =
            std::string(entry) + " holds text outside its child elements";
        if (!stray.empty()) {
          m += " (\"";
          append_printable(m, stray, 60);
          m += "\")";
        }
        m += ", which the schema does not allow: remove it";
        doc_.report(doc_code::unexpected_text, entry_at_, std::move(m));
      }
    }
    if (loc_.overflow) return;
    e.loc = {
        loc_value_known_ ? loc_value_ : trim_unicode_space(trim_xml(loc_.text)),
        true, loc_.at.line, loc_.at.column};
  }
  auto set = [](parsed_field& out, const field_text& in) {
    if (!in.present) return;
    out = {trim_xml(in.text), true, in.at.line, in.at.column};
  };
  set(e.lastmod, lastmod_);
  set(e.changefreq, changefreq_);
  set(e.priority, priority_);
  if (!index_) {
    e.extensions = capture_.values();
    e.foreign_xml = foreign_.xml();
    if (doc_.checks() && !e.extensions.empty())
      rules_.entry(e.loc.text, e.extensions, entry_at_, doc_);
  }
  doc_.note_lastmod(e.lastmod.text);
  doc_.deliver(e);
}

void xml_reader::end_feed_entry() {
  const std::string_view entry = mode_ == mode::rss ? "<item>" : "<entry>";
  parsed_entry e;
  e.line = entry_at_.line;
  e.column = entry_at_.column;
  if (loc_.present && !loc_.overflow) {
    const loc_verdict v =
        check_loc(loc_.text, loc_.at, loc_source::feed, doc_, scratch_);
    e.loc = {v.value, true, loc_.at.line, loc_.at.column};
  } else if (guid_.present && guid_permalink_ && !guid_.overflow &&
             (trim_xml(guid_.text).starts_with("http://") ||
              trim_xml(guid_.text).starts_with("https://"))) {
    // RSS 2.0: a guid is the item's permanent URL unless isPermaLink="false".
    const loc_verdict v =
        check_loc(guid_.text, guid_.at, loc_source::feed, doc_, scratch_);
    e.loc = {v.value, true, guid_.at.line, guid_.at.column};
  } else {
    doc_.report(doc_code::feed_item_no_link, entry_at_,
                std::string(entry) +
                    (mode_ == mode::rss
                         ? " has no <link> (nor a permalink <guid>)"
                         : " has no <link href> with rel=\"alternate\"") +
                    ": search engines cannot use it; add the article's URL");
    return;
  }
  if (lastmod_.present)
    e.lastmod = {trim_xml(lastmod_.text), true, lastmod_.at.line,
                 lastmod_.at.column};
  doc_.deliver(e);
}

void xml_reader::on_error(const xmlError& e) {
  if (e.code == XML_ERR_USER_STOP) return;  // our own xmlStopParser
  if (fatal_) return;  // what follows a fatal error is its echo
  std::string text = e.message != nullptr ? e.message : "XML error";
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.pop_back();
  for (char& c : text)
    if (c == '\n') c = ' ';
  const text_pos at = shift(static_cast<std::uint64_t>(std::max(e.line, 0)),
                            static_cast<std::uint64_t>(std::max(e.int2, 0)));
  const std::string_view entity = sv(reinterpret_cast<const uchar*>(e.str1));
  auto entity_message = [&] {
    std::string m = "the entity &";
    append_printable(m, entity, 40);
    m += "; is not defined in XML (HTML entities such as &nbsp; are not "
         "XML): write the character itself or a numeric reference such as "
         "&#160;, and & itself as &amp;";
    return m;
  };
  if (e.level == XML_ERR_WARNING) {
    doc_.report(doc_code::xml_warning, at, "XML warning: " + text);
    return;
  }
  if (e.level == XML_ERR_ERROR) {
    xsd_ok_ = false;
    if (e.domain == XML_FROM_NAMESPACE) {
      doc_.report(doc_code::namespace_error, at,
                  text +
                      ": declare each prefix with xmlns:prefix=\"...\", "
                      "usually on the root element");
    } else if (e.code == XML_WAR_UNDECLARED_ENTITY) {
      doc_.report(doc_code::entity_undefined, at, entity_message());
    } else {
      doc_.report(doc_code::not_well_formed, at,
                  "the XML is not well-formed: " + text);
    }
    return;
  }
  fatal_ = true;
  xsd_ok_ = false;
  if (finishing_ && input_cut_) return;  // the cut is the caller's finding
  if (finishing_ && depth_ > 0 && !root_end_ahead()) {
    std::string m = "the document ends before <";
    append_printable(m, sv(names_[static_cast<std::size_t>(depth_ - 1)]), 40);
    m += "> is closed: the file was cut short (" +
         with_commas(doc_.summary().entries) +
         " entries were read before the cut); fetch or regenerate it whole";
    doc_.report(doc_code::truncated, at, std::move(m));
    return;
  }
  if (e.code == XML_ERR_INVALID_ENCODING ||
      text.starts_with("Input is not proper UTF-8")) {
    doc_.report(doc_code::invalid_utf8, at,
                "bytes that are not UTF-8 (" + text +
                    "): save the file as UTF-8; if it is in another "
                    "encoding, convert it");
    return;
  }
  if (e.code == XML_ERR_UNSUPPORTED_ENCODING) {
    doc_.report(doc_code::encoding_not_utf8, at,
                text +
                    ": the protocol requires UTF-8; convert the file to "
                    "UTF-8 and declare encoding=\"UTF-8\"");
    return;
  }
  if (e.code == XML_ERR_UNDECLARED_ENTITY) {
    doc_.report(doc_code::entity_undefined, at, entity_message());
    return;
  }
  std::string m = "the XML is not well-formed: " + text;
  switch (e.code) {
    case XML_ERR_ENTITYREF_SEMICOL_MISSING:
    case XML_ERR_ENTITYREF_NO_NAME:
      m += "; a raw '&' starts an entity reference: write & as &amp;";
      break;
    case XML_ERR_NAME_REQUIRED:
      m += depth_ > 0 ? "; write a '<' in text as &lt; (and & as &amp;)"
           : detail::istarts_with(start_, "<!doctype html")
               ? "; it starts <!doctype html>: this is a web "
                 "page, not a sitemap (perhaps an error page); "
                 "point to the sitemap file itself"
               : "; the document must start with an element";
      break;
    case XML_ERR_LT_IN_ATTRIBUTE:
      m += "; write a '<' in an attribute as &lt;";
      break;
    case XML_ERR_TAG_NAME_MISMATCH:
      m += "; close elements in the reverse order they were opened";
      break;
    case XML_ERR_DOCUMENT_END:
      m += "; a document has exactly one root element: remove what follows "
           "its end tag";
      break;
    case XML_ERR_DOCUMENT_EMPTY:
      m += "; the document holds no element";
      break;
    case XML_ERR_RESERVED_XML_NAME:
      m += "; the XML declaration must be the very first thing in the file";
      break;
    default:
      m += " (xmllint --noout reports the same): fix the XML there";
      break;
  }
  doc_.report(doc_code::not_well_formed, at, std::move(m));
}

}  // namespace sitemill::detail
