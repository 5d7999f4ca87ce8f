// sitemill internals: validation of extension content (image, video, news,
// xhtml:link) against the bundled schemas, without validating the whole
// document with libxml2 (which runs at a fifth of the parser's speed).
//
// sitemap.xsd admits foreign elements through `<xsd:any namespace="##other"
// processContents="strict">`: such an element must match a global element
// declaration of a loaded schema. So each foreign subtree is rebuilt as a
// small libxml2 tree and validated on its own against all.xsd, which is
// exactly what the strict wildcard asks; everything else in the document is
// checked natively by xml_reader.
#ifndef SITEMILL_PARSE_EXTENSION_SCHEMA_H
#define SITEMILL_PARSE_EXTENSION_SCHEMA_H

#include <libxml/tree.h>
#include <libxml/xmlschemas.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "parse/context.h"

namespace sitemill::detail {

/// all.xsd with every schema it imports, compiled once per process from the
/// embedded files only (no file or network access), thread-safe. nullptr
/// only if the bundled schemas do not compile, which tests rule out.
xmlSchemaPtr bundled_urlset_schema();

/// Rebuilds and validates one foreign subtree at a time. Memory is bounded:
/// a subtree beyond max_nodes elements or max_text bytes is not kept and is
/// reported as too large to check. Not thread-safe; one per parser.
class extension_validator {
 public:
  struct problem {
    text_pos at;
    std::string message;
  };

  static constexpr std::size_t max_nodes = 20'000;
  static constexpr std::size_t max_text = 4 * 1024 * 1024;

  extension_validator() = default;
  ~extension_validator();
  extension_validator(const extension_validator&) = delete;
  extension_validator& operator=(const extension_validator&) = delete;

  /// An element of the subtree starts (the first call starts the subtree).
  /// The arguments are those of libxml2's startElementNs.
  void start_element(const unsigned char* local, const unsigned char* prefix,
                     const unsigned char* uri, int nb_attributes,
                     const unsigned char** attributes, text_pos at);
  void characters(const unsigned char* text, int len);
  /// What end_element() did.
  enum class outcome : unsigned char {
    open,       ///< an inner element ended; the subtree goes on
    checked,    ///< the root ended and the subtree was validated
    too_large,  ///< the root ended; the subtree was too large to keep
    unchecked,  ///< the root ended; the schemas are unavailable
  };

  /// An element ends; the root's end validates the subtree and appends what
  /// is wrong to `problems`.
  outcome end_element(std::vector<problem>& problems);

 private:
  void reset();
  xmlNsPtr namespace_for(const unsigned char* uri, const unsigned char* prefix);
  static void on_error(void* self, xmlErrorPtr e);

  xmlDocPtr doc_ = nullptr;
  xmlSchemaValidCtxtPtr vctxt_ = nullptr;
  xmlNodePtr root_ = nullptr;
  xmlNodePtr current_ = nullptr;
  std::size_t depth_ = 0;
  std::size_t nodes_ = 0;
  std::size_t text_ = 0;
  bool overflow_ = false;
  std::vector<text_pos> positions_;  // node->_private holds index + 1
  std::vector<problem>* sink_ = nullptr;
  std::string value_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_PARSE_EXTENSION_SCHEMA_H
