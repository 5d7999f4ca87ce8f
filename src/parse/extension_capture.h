// sitemill internals: reading extension items (image:image, video:video,
// news:news, xhtml:link) inside a <url> into extension values, by the one
// table of sitemill/entry/extensions.h, so that what the writer can write
// the parser reads back, field for field.
//
// The capture keeps what the table models and says what it does not (an
// element or attribute no field names, text where none belongs): those are
// not kept, so the caller reports them rather than drop them silently.
#ifndef SITEMILL_PARSE_EXTENSION_CAPTURE_H
#define SITEMILL_PARSE_EXTENSION_CAPTURE_H

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "parse/context.h"
#include "sitemill/entry/extensions.h"

namespace sitemill::detail {

/// Not thread-safe; one per parser.
class extension_capture {
 public:
  /// Something the table does not model, which is not kept.
  struct unmodelled {
    text_pos at;
    std::string what;  ///< "video:tvshow/video:foo", "image:loc@x"
  };

  /// Longest text kept for one value; longer text is cut here (no field of
  /// the schemas allows anywhere near this much).
  static constexpr std::size_t max_value = 64 * 1024;
  /// Values kept for one <url>; beyond this the rest are not kept (1,000
  /// images with a few fields each fit easily).
  static constexpr std::size_t max_values = 16 * 1024;

  /// A new <url> starts: forget the previous one's values.
  void begin_entry();
  /// An item's root element starts (its namespace is `ns`). Attributes are
  /// libxml2's startElementNs array (5 pointers each).
  void begin_item(const extension_namespace& ns, std::string_view local,
                  int nb_attributes, const unsigned char** attributes,
                  text_pos at);
  /// Inside an item: an element starts (`uri` may be null), text, an
  /// element ends. end_element() returns true when the item's root ended.
  void start_element(std::string_view local, std::string_view uri,
                     int nb_attributes, const unsigned char** attributes,
                     text_pos at);
  void characters(std::string_view text);
  bool end_element();
  bool active() const noexcept { return depth_ > 0; }

  /// The current <url>'s values, views valid until the next begin_entry().
  std::span<const extension_value> values();
  /// The values of the item end_element() has just closed, views valid
  /// until the next call that changes the capture.
  std::span<const extension_value> last_item();
  /// The namespace of the last item begun; nullptr before the first.
  const extension_namespace* item_namespace() const noexcept { return ns_; }
  /// The last item begun is an element the table models (<image:image>,
  /// not <image:foo>).
  bool item_modelled() const noexcept { return item_modelled_; }
  /// What was not kept since begin_entry(); the caller reports and clears.
  std::vector<unmodelled>& not_kept() noexcept { return not_kept_; }

 private:
  struct open_element {
    std::string path;      // "publication.name"; "" for the item root
    int field = -1;        // the field whose text this element holds, or -1
    bool ignored = false;  // not modelled: its subtree is not kept
    std::size_t attrs_begin = 0;  // its pending attribute values
  };
  struct stored {
    extension_field_id field;
    std::uint32_t item;
    std::size_t begin, size;  // in text_
  };

  void read_attributes(const std::string& path, int nb_attributes,
                       const unsigned char** attributes, text_pos at);
  void keep(extension_field_id field, std::string_view text);

  const extension_namespace* ns_ = nullptr;
  bool item_modelled_ = false;
  int depth_ = 0;  // open elements of the current item; 0 outside
  std::uint32_t items_ = 0;
  std::vector<open_element> stack_;
  std::string current_text_;
  std::vector<stored> pending_attrs_;  // attribute values of open elements
  std::string attr_text_;
  std::vector<stored> stored_;
  std::string text_;
  std::vector<extension_value> values_;
  std::vector<extension_value> last_item_;
  std::vector<unmodelled> not_kept_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_PARSE_EXTENSION_CAPTURE_H
