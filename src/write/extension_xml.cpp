// The XML of an entry's extension items (sitemill/entry/extensions.h):
// one start tag per item, its fields as child elements in the order the
// entry stage left them (schema order), nested groups (news:publication,
// video:tvshow) opened and closed around their fields, attributes on the
// start tags of their elements.
#include "sitemill/write/writer.h"
#include "sitemill/write/xml_escape.h"

namespace sitemill {
namespace {

void open_tag(std::string& out, std::string_view prefix,
              std::string_view name) {
  out += '<';
  out += prefix;
  out += ':';
  out += name;
}

void close_tag(std::string& out, std::string_view prefix,
               std::string_view name) {
  out += "</";
  out += prefix;
  out += ':';
  out += name;
  out += '>';
}

void attribute(std::string& out, std::string_view name,
               std::string_view value) {
  out += ' ';
  out += name;
  out += "=\"";
  append_xml_escaped_exact(out, value, true);
  out += '"';
}

// "publication" for "publication.name"; "" for a field not in a group.
std::string_view group_of(const extension_field& f) {
  const std::string_view k = f.key.substr(0, f.key.find('@'));
  const std::size_t dot = k.find('.');
  return dot == std::string_view::npos ? std::string_view{} : k.substr(0, dot);
}

std::string_view attribute_name(const extension_field& f) {
  return f.key.substr(f.key.find('@') + 1);
}

}  // namespace

void append_extensions(std::string& out,
                       std::span<const extension_value> values) {
  const auto fields = extension_fields();
  std::size_t i = 0;
  while (i < values.size()) {
    const std::uint32_t item = values[i].item;
    const extension_namespace& ns = namespace_of(fields[values[i].field].kind);
    open_tag(out, ns.prefix, ns.item);
    if (ns.kind == extension_kind::alternate &&
        fields[values[i].field].key != "@rel")
      attribute(out, "rel", "alternate");
    // Attributes of the item element itself ("@hreflang") come first.
    for (; i < values.size() && values[i].item == item &&
           fields[values[i].field].key.front() == '@';
         ++i)
      attribute(out, attribute_name(fields[values[i].field]), values[i].text);
    if (i == values.size() || values[i].item != item) {
      out += "/>";
      continue;
    }
    out += '>';
    std::string_view group;
    while (i < values.size() && values[i].item == item) {
      const extension_field& f = fields[values[i].field];
      const std::string_view g = group_of(f);
      if (g != group) {
        if (!group.empty()) close_tag(out, ns.prefix, group);
        if (!g.empty()) {
          open_tag(out, ns.prefix, g);
          out += '>';
        }
        group = g;
      }
      const std::string_view element = element_of(f);
      const std::string_view text = values[i].text;
      open_tag(out, ns.prefix, element);
      for (++i; i < values.size() && values[i].item == item &&
                is_attribute(fields[values[i].field]);
           ++i)
        attribute(out, attribute_name(fields[values[i].field]), values[i].text);
      out += '>';
      append_xml_escaped_exact(out, text, false);
      close_tag(out, ns.prefix, element);
    }
    if (!group.empty()) close_tag(out, ns.prefix, group);
    close_tag(out, ns.prefix, ns.item);
  }
}

}  // namespace sitemill
