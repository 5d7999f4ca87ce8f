// sitemill internals: elements of namespaces sitemill has no schema for
// (a PageMap, a vendor's <mobile:mobile/>) inside a <url>, re-serialised
// from the parser's events as XML that can be written back into a <url>
// (parsed_entry::foreign_xml), so generate --from-sitemap keeps them.
//
// Never a copy of the input's bytes: every name comes from the parser (so it
// is a valid XML name), every text and attribute value is escaped again
// (sitemill/xml_escape.h), a CDATA section becomes escaped text, comments
// and processing instructions are left out (as Canonical XML without
// comments does). Whatever the input held, the fragment is well-formed
// and closes every element it opens: a hostile "]]>", "<!--" or entity
// reference comes out as text.
//
// Namespaces: each element declares what it uses that its fragment's
// ancestors have not declared the same way, so a fragment means the same
// wherever it is written (on its own, it assumes only that the default
// namespace around it is the sitemap's, as the writers' <urlset> declares).
// The prefixes the writers bind on the root (image, video, news, xhtml:
// sitemill/entry/extensions.h) are never used in a fragment, even for their
// own namespaces: a reader that matches prefixes literally would take a
// vendor's <image:loc> for an image, and the writer finds the news block by
// its prefix. Such a prefix is renamed (news -> news1), as the Namespaces
// spec allows; every other prefix is kept as written.
//
// Not thread-safe; one per parser.
#ifndef SITEMILL_PARSE_FOREIGN_CAPTURE_H
#define SITEMILL_PARSE_FOREIGN_CAPTURE_H

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sitemill::detail {

class foreign_capture {
 public:
  /// The most XML kept per <url> (all its foreign elements together): a
  /// PageMap of a few dozen attributes is a few KiB; an element that would
  /// take the <url> past this is not kept.
  static constexpr std::size_t max_bytes = 64 * 1024;

  /// A new <url> starts: forget the previous one's elements.
  void begin_entry();
  /// An element starts: the root of a foreign element when none is open
  /// (its namespace `uri` is not null), or an element inside it. Names
  /// and attributes as libxml2's startElementNs gives them (5 pointers per
  /// attribute).
  void start_element(const unsigned char* local, const unsigned char* prefix,
                     const unsigned char* uri, int nb_attributes,
                     const unsigned char** attributes);
  /// Text (a CDATA section's too) inside the open element.
  void characters(std::string_view text);
  /// The open element ends; true when it was the foreign element's root.
  bool end_element();

  /// A foreign element is open.
  bool active() const noexcept { return !open_.empty(); }
  /// The root end_element() has just closed did not fit under max_bytes
  /// and was not kept.
  bool dropped() const noexcept { return dropped_; }
  /// The <url>'s kept elements, one after another; valid until the next
  /// begin_entry().
  std::string_view xml() const noexcept { return xml_; }

 private:
  struct binding {
    std::string prefix, uri;  // prefix "" is the default namespace
  };
  struct open_element {
    std::string name;          // as written: "pm:Attribute"
    std::size_t bindings = 0;  // bindings_.size() before its declarations
    bool tag_open = false;     // "<name ..." written, '>' not yet
  };

  const std::string* lookup(std::string_view prefix) const;
  std::string_view choose_prefix(std::string_view prefix, std::string_view uri,
                                 std::size_t own,
                                 const std::vector<std::string_view>& used);
  void declare(std::string_view prefix, std::string_view uri);
  void close_start_tag();
  void check_size();

  std::string xml_;
  std::size_t root_at_ = 0;  // where the open root starts in xml_
  bool over_ = false;        // the open root went past max_bytes
  bool dropped_ = false;
  std::vector<open_element> open_;
  std::vector<binding> bindings_;  // in scope, innermost last
  std::string scratch_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_PARSE_FOREIGN_CAPTURE_H
