#include "parse/extension_capture.h"

#include "parse/attribute_value.h"

namespace sitemill::detail {
namespace {

std::string_view sv(const unsigned char* s) {
  return s == nullptr ? std::string_view{}
                      : std::string_view(reinterpret_cast<const char*>(s));
}

// The field of `kind` whose key is exactly `key` and that is an element.
int element_field(extension_kind kind, std::string_view key) {
  const auto fields = extension_fields();
  const field_range r = fields_of(kind);
  for (auto id = r.first; id < r.last; ++id)
    if (fields[id].key == key) return id;
  return -1;
}

// True when some field lives inside the element at `path` (a group such as
// news:publication or video:tvshow).
bool is_group(extension_kind kind, std::string_view path) {
  const auto fields = extension_fields();
  const field_range r = fields_of(kind);
  for (auto id = r.first; id < r.last; ++id) {
    const std::string_view k = fields[id].key;
    if (k.size() > path.size() && k.starts_with(path) && k[path.size()] == '.')
      return true;
  }
  return false;
}

}  // namespace

void extension_capture::begin_entry() {
  depth_ = 0;
  items_ = 0;
  stack_.clear();
  pending_attrs_.clear();
  attr_text_.clear();
  stored_.clear();
  text_.clear();
  not_kept_.clear();
}

void extension_capture::begin_item(const extension_namespace& ns,
                                   std::string_view local, int nb_attributes,
                                   const unsigned char** attributes,
                                   text_pos at) {
  ns_ = &ns;
  depth_ = 1;
  current_text_.clear();
  open_element root;
  item_modelled_ = local == ns.item;
  if (local != ns.item) {
    root.ignored = true;
    not_kept_.push_back(
        {at, std::string(ns.prefix) + ":" + std::string(local)});
    stack_.push_back(std::move(root));
    return;
  }
  stack_.push_back(std::move(root));
  read_attributes(std::string(), nb_attributes, attributes, at);
  // The item element's own attributes come first among its values.
  for (const stored& s : pending_attrs_)
    keep(s.field, std::string_view(attr_text_).substr(s.begin, s.size));
  pending_attrs_.clear();
  attr_text_.clear();
}

void extension_capture::read_attributes(const std::string& path,
                                        int nb_attributes,
                                        const unsigned char** attrs,
                                        text_pos at) {
  const std::string prefix(ns_->prefix);
  for (int i = 0; i < nb_attributes; ++i) {
    const std::string_view name = sv(attrs[i * 5]);
    const std::string value = attribute_value(attrs + i * 5);
    if (path.empty() && ns_->kind == extension_kind::alternate &&
        name == "rel" && attrs[i * 5 + 2] == nullptr && value == "alternate")
      continue;  // the default, written when no rel is kept
    const std::string key = path + "@" + std::string(name);
    const int id =
        attrs[i * 5 + 2] == nullptr ? element_field(ns_->kind, key) : -1;
    if (id < 0) {
      std::string what = prefix + ":" +
                         (path.empty() ? std::string(ns_->item) : path) + " " +
                         std::string(name) + "=\"";
      what += value.substr(0, 40);
      what += '"';
      not_kept_.push_back({at, std::move(what)});
      continue;
    }
    stored s{static_cast<extension_field_id>(id), items_, attr_text_.size(),
             std::min(value.size(), max_value)};
    attr_text_ += value.substr(0, max_value);
    pending_attrs_.push_back(s);
  }
}

void extension_capture::start_element(std::string_view local,
                                      std::string_view uri, int nb_attributes,
                                      const unsigned char** attrs,
                                      text_pos at) {
  ++depth_;
  current_text_.clear();
  open_element e;
  e.attrs_begin = pending_attrs_.size();
  const open_element& parent = stack_.back();
  if (parent.ignored) {
    e.ignored = true;
  } else if (uri != ns_->uri) {
    e.ignored = true;
    not_kept_.push_back(
        {at, std::string("<").append(local) + "> of namespace \"" +
                 std::string(uri.substr(0, 200)) + "\" in " +
                 std::string(ns_->prefix) + ":" + std::string(ns_->item)});
  } else {
    e.path = parent.path.empty() ? std::string(local)
                                 : parent.path + "." + std::string(local);
    e.field = element_field(ns_->kind, e.path);
    if (e.field < 0 && !is_group(ns_->kind, e.path)) {
      e.ignored = true;
      not_kept_.push_back({at, std::string(ns_->prefix) + ":" + e.path});
    } else {
      read_attributes(e.path, nb_attributes, attrs, at);
    }
  }
  stack_.push_back(std::move(e));
}

void extension_capture::characters(std::string_view text) {
  if (depth_ == 0 || stack_.back().ignored || stack_.back().field < 0) return;
  if (current_text_.size() < max_value)
    current_text_.append(text.substr(0, max_value - current_text_.size()));
}

bool extension_capture::end_element() {
  if (depth_ == 0) return false;
  open_element& e = stack_.back();
  if (!e.ignored) {
    if (e.field >= 0)
      keep(static_cast<extension_field_id>(e.field), current_text_);
    // An element's attributes follow its value.
    for (std::size_t k = e.attrs_begin; k < pending_attrs_.size(); ++k)
      keep(pending_attrs_[k].field,
           std::string_view(attr_text_)
               .substr(pending_attrs_[k].begin, pending_attrs_[k].size));
  }
  pending_attrs_.resize(e.attrs_begin);
  if (pending_attrs_.empty()) attr_text_.clear();
  current_text_.clear();
  stack_.pop_back();
  --depth_;
  if (depth_ == 0) {
    ++items_;
    return true;
  }
  return false;
}

void extension_capture::keep(extension_field_id field, std::string_view text) {
  if (stored_.size() >= max_values) return;
  stored_.push_back({field, items_, text_.size(), text.size()});
  text_ += text;
}

std::span<const extension_value> extension_capture::values() {
  values_.clear();
  for (const stored& s : stored_)
    values_.push_back(
        {s.field, s.item, std::string_view(text_).substr(s.begin, s.size)});
  return values_;
}

std::span<const extension_value> extension_capture::last_item() {
  last_item_.clear();
  if (items_ == 0) return last_item_;
  std::size_t first = stored_.size();
  while (first > 0 && stored_[first - 1].item == items_ - 1) --first;
  for (std::size_t i = first; i < stored_.size(); ++i)
    last_item_.push_back(
        {stored_[i].field, stored_[i].item,
         std::string_view(text_).substr(stored_[i].begin, stored_[i].size)});
  return last_item_;
}

}  // namespace sitemill::detail
