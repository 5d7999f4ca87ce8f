#include "parse/extension_schema.h"

#include <libxml/parser.h>
#include <libxml/parserInternals.h>

#include <cstdint>
#include <cstring>
#include <mutex>

#include "detail/embedded_files.h"
#include "parse/attribute_value.h"

namespace sitemill::detail {
namespace {

const xmlChar* x(const char* s) { return reinterpret_cast<const xmlChar*>(s); }

// Set only while this thread compiles the bundled schemas: the loader then
// serves embedded files and refuses everything else.
thread_local bool compiling_bundled = false;
xmlExternalEntityLoader previous_loader = nullptr;

std::string_view embedded_name(std::string_view url) {
  // The one network import of the bundled set (xhtml1-strict.xsd).
  if (url == "http://www.w3.org/2001/xml.xsd") return "xml.xsd";
  if (url.find('/') != std::string_view::npos ||
      url.find('\\') != std::string_view::npos)
    return {};
  return url;
}

xmlParserInputPtr bundled_loader(const char* url, const char* id,
                                 xmlParserCtxtPtr ctxt) {
  if (!compiling_bundled)
    return previous_loader ? previous_loader(url, id, ctxt) : nullptr;
  if (url == nullptr) return nullptr;
  const std::string_view name = embedded_name(url);
  const std::string_view data =
      name.empty() ? std::string_view{} : embedded_file_named(name);
  if (data.empty()) return nullptr;
  // A copying buffer: 2.9.14's static buffers cut long files short.
  xmlParserInputBufferPtr buf = xmlParserInputBufferCreateMem(
      data.data(), static_cast<int>(data.size()), XML_CHAR_ENCODING_NONE);
  if (buf == nullptr) return nullptr;
  xmlParserInputPtr in = xmlNewIOInputStream(ctxt, buf, XML_CHAR_ENCODING_NONE);
  if (in == nullptr) {
    xmlFreeParserInputBuffer(buf);
    return nullptr;
  }
  in->filename = reinterpret_cast<char*>(xmlStrdup(x(url)));
  return in;
}

void ignore_error(void*, xmlErrorPtr) {}

xmlSchemaPtr compile_bundled() {
  xmlInitParser();
  previous_loader = xmlGetExternalEntityLoader();
  xmlSetExternalEntityLoader(bundled_loader);
  compiling_bundled = true;
  xmlSchemaPtr schema = nullptr;
  if (xmlSchemaParserCtxtPtr pc = xmlSchemaNewParserCtxt("all.xsd")) {
    xmlSchemaSetParserStructuredErrors(pc, ignore_error, nullptr);
    schema = xmlSchemaParse(pc);
    xmlSchemaFreeParserCtxt(pc);
  }
  compiling_bundled = false;
  xmlSetExternalEntityLoader(previous_loader);
  return schema;
}

}  // namespace

xmlSchemaPtr bundled_urlset_schema() {
  // Compiled once and never freed: it is shared by every parser of the
  // process and read-only once built.
  static xmlSchemaPtr schema = compile_bundled();
  return schema;
}

extension_validator::~extension_validator() {
  if (vctxt_ != nullptr) xmlSchemaFreeValidCtxt(vctxt_);
  if (doc_ != nullptr) xmlFreeDoc(doc_);
}

void extension_validator::reset() {
  if (root_ != nullptr) {
    xmlUnlinkNode(root_);
    xmlFreeNode(root_);
  }
  root_ = current_ = nullptr;
  depth_ = nodes_ = text_ = 0;
  overflow_ = false;
  positions_.clear();
}

xmlNsPtr extension_validator::namespace_for(const unsigned char* uri,
                                            const unsigned char* prefix) {
  if (uri == nullptr) return nullptr;
  if (xmlStrEqual(uri, XML_XML_NAMESPACE))
    return xmlSearchNsByHref(doc_, root_, uri);
  for (xmlNsPtr ns = root_->nsDef; ns != nullptr; ns = ns->next)
    if (xmlStrEqual(ns->href, uri)) return ns;
  // Prefixes only matter to QName values, which these schemas do not use;
  // a clash (one prefix bound twice in the subtree) gets a fresh one.
  if (xmlNsPtr ns = xmlNewNs(root_, uri, prefix)) return ns;
  const std::string fresh = "ns" + std::to_string(nodes_);
  return xmlNewNs(root_, uri, x(fresh.c_str()));
}

void extension_validator::start_element(const unsigned char* local,
                                        const unsigned char* prefix,
                                        const unsigned char* uri,
                                        int nb_attributes,
                                        const unsigned char** attributes,
                                        text_pos at) {
  ++depth_;
  if (overflow_) return;
  if (++nodes_ > max_nodes) {
    overflow_ = true;
    return;
  }
  if (doc_ == nullptr) doc_ = xmlNewDoc(x("1.0"));
  xmlNodePtr node = xmlNewDocNode(doc_, nullptr, local, nullptr);
  if (root_ == nullptr) {
    root_ = node;
    xmlDocSetRootElement(doc_, node);
  } else {
    xmlAddChild(current_, node);
  }
  current_ = node;
  xmlSetNs(node, namespace_for(uri, prefix));
  positions_.push_back(at);
  node->_private =
      reinterpret_cast<void*>(static_cast<std::uintptr_t>(positions_.size()));
  node->line = static_cast<unsigned short>(at.line > 65535 ? 65535 : at.line);
  for (int i = 0; i < nb_attributes; ++i) {
    const unsigned char** a = attributes + 5 * i;
    value_ = attribute_value(a);
    xmlNewNsProp(node, namespace_for(a[2], a[1]), a[0], x(value_.c_str()));
  }
}

void extension_validator::characters(const unsigned char* text, int len) {
  if (overflow_ || current_ == nullptr) return;
  text_ += static_cast<std::size_t>(len);
  if (text_ > max_text) {
    overflow_ = true;
    return;
  }
  xmlNodeAddContentLen(current_, text, len);
}

extension_validator::outcome extension_validator::end_element(
    std::vector<problem>& problems) {
  if (depth_ == 0) return outcome::open;
  if (--depth_ > 0) {
    if (!overflow_ && current_ != nullptr && current_ != root_)
      current_ = current_->parent;
    return outcome::open;
  }
  outcome result = overflow_ ? outcome::too_large : outcome::unchecked;
  xmlSchemaPtr schema = overflow_ ? nullptr : bundled_urlset_schema();
  if (schema != nullptr && root_ != nullptr) {
    if (vctxt_ == nullptr) {
      vctxt_ = xmlSchemaNewValidCtxt(schema);
      if (vctxt_ != nullptr)
        xmlSchemaSetValidStructuredErrors(vctxt_, on_error, this);
    }
    if (vctxt_ != nullptr) {
      sink_ = &problems;
      if (xmlSchemaValidateOneElement(vctxt_, root_) >= 0)
        result = outcome::checked;
      sink_ = nullptr;
    }
  }
  reset();
  return result;
}

void extension_validator::on_error(void* self, xmlErrorPtr e) {
  auto* v = static_cast<extension_validator*>(self);
  if (e == nullptr || v->sink_ == nullptr || e->level == XML_ERR_WARNING)
    return;
  text_pos at{};
  auto* node = static_cast<xmlNodePtr>(e->node);
  if (node != nullptr && node->type == XML_ATTRIBUTE_NODE) node = node->parent;
  if (node != nullptr && node->_private != nullptr) {
    const auto index = reinterpret_cast<std::uintptr_t>(node->_private);
    if (index >= 1 && index <= v->positions_.size())
      at = v->positions_[index - 1];
  } else if (!v->positions_.empty()) {
    at = v->positions_.front();
  }
  std::string message = e->message != nullptr ? e->message : "invalid";
  while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
    message.pop_back();
  v->sink_->push_back({at, std::move(message)});
}

}  // namespace sitemill::detail
