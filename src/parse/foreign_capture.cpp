#include "parse/foreign_capture.h"

#include "parse/attribute_value.h"
#include "sitemill/entry/extensions.h"
#include "sitemill/limits.h"
#include "sitemill/xml_escape.h"

namespace sitemill::detail {
namespace {

std::string_view sv(const unsigned char* s) {
  return s == nullptr ? std::string_view{}
                      : std::string_view(reinterpret_cast<const char*>(s));
}

// A prefix the writers bind on the <urlset> to one of the extensions.
bool reserved(std::string_view prefix) noexcept {
  for (std::size_t k = 0; k < extension_kind_count; ++k)
    if (namespace_of(static_cast<extension_kind>(k)).prefix == prefix)
      return true;
  return false;
}

constexpr std::string_view xml_ns = "http://www.w3.org/XML/1998/namespace";

// The default namespace around a fragment: the writers' <urlset xmlns=...>.
const std::string& outer_default() {
  static const std::string ns(sitemap_namespace);
  return ns;
}

}  // namespace

void foreign_capture::begin_entry() {
  xml_.clear();
  open_.clear();
  bindings_.clear();
  over_ = false;
  dropped_ = false;
}

const std::string* foreign_capture::lookup(std::string_view prefix) const {
  for (auto b = bindings_.rbegin(); b != bindings_.rend(); ++b)
    if (b->prefix == prefix) return &b->uri;
  return prefix.empty() ? &outer_default() : nullptr;
}

void foreign_capture::declare(std::string_view prefix, std::string_view uri) {
  bindings_.push_back({std::string(prefix), std::string(uri)});
}

// The prefix the output gives `uri` on the element whose declarations start
// at bindings_[own]: the input's `prefix` when it may be kept, else the
// first of prefix1, prefix2, ... that is free on this element. `used`: the
// prefixes the input gives this element and its attributes, which a
// generated name must not take.
std::string_view foreign_capture::choose_prefix(
    std::string_view prefix, std::string_view uri, std::size_t own,
    const std::vector<std::string_view>& used) {
  auto declared_here = [&](std::string_view p) -> const binding* {
    for (std::size_t i = own; i < bindings_.size(); ++i)
      if (bindings_[i].prefix == p) return &bindings_[i];
    return nullptr;
  };
  if (!reserved(prefix)) {
    const std::string* now = lookup(prefix);
    if (now != nullptr && *now == uri) return prefix;
    if (declared_here(prefix) == nullptr) {
      declare(prefix, uri);
      return bindings_.back().prefix;
    }
  }
  for (unsigned n = 1;; ++n) {
    scratch_.assign(prefix);
    scratch_ += std::to_string(n);
    const std::string_view candidate = scratch_;
    bool taken = reserved(candidate);
    for (const std::string_view u : used) taken = taken || u == candidate;
    if (taken) continue;
    const std::string* now = lookup(candidate);
    if (now != nullptr && *now == uri) {
      // Found in scope: return a view that outlives scratch_.
      for (auto b = bindings_.rbegin(); b != bindings_.rend(); ++b)
        if (b->prefix == candidate) return b->prefix;
    }
    if (declared_here(candidate) != nullptr) continue;
    declare(candidate, uri);
    return bindings_.back().prefix;
  }
}

void foreign_capture::close_start_tag() {
  if (!open_.empty() && open_.back().tag_open) {
    xml_ += '>';
    open_.back().tag_open = false;
  }
}

void foreign_capture::check_size() {
  if (!over_ && xml_.size() > max_bytes) {
    over_ = true;
    xml_.resize(root_at_);
  }
}

void foreign_capture::start_element(const unsigned char* local,
                                    const unsigned char* prefix,
                                    const unsigned char* uri, int nb_attributes,
                                    const unsigned char** attributes) {
  if (open_.empty()) {
    root_at_ = xml_.size();
    over_ = false;
    dropped_ = false;
  }
  if (!over_) close_start_tag();
  open_element e;
  e.bindings = bindings_.size();
  if (over_) {
    open_.push_back(std::move(e));
    return;
  }
  std::vector<std::string_view> used;
  if (prefix != nullptr) used.push_back(sv(prefix));
  for (int i = 0; i < nb_attributes; ++i)
    if (attributes[5 * i + 1] != nullptr)
      used.push_back(sv(attributes[5 * i + 1]));
  // Bindings may move while names are chosen: names are copied out.
  if (uri == nullptr) {
    if (!lookup("")->empty()) declare("", "");
    e.name = sv(local);
  } else if (prefix == nullptr) {
    if (*lookup("") != sv(uri)) declare("", sv(uri));
    e.name = sv(local);
  } else {
    e.name = choose_prefix(sv(prefix), sv(uri), e.bindings, used);
    e.name += ':';
    e.name += sv(local);
  }
  std::vector<std::string> names(static_cast<std::size_t>(nb_attributes));
  for (int i = 0; i < nb_attributes; ++i) {
    const unsigned char** a = attributes + 5 * i;
    std::string& n = names[static_cast<std::size_t>(i)];
    if (a[2] != nullptr && a[1] != nullptr) {
      n = sv(a[2]) == xml_ns
              ? std::string_view("xml")
              : choose_prefix(sv(a[1]), sv(a[2]), e.bindings, used);
      n += ':';
    }
    n += sv(a[0]);
  }
  xml_ += '<';
  xml_ += e.name;
  for (std::size_t i = e.bindings; i < bindings_.size(); ++i) {
    xml_ += " xmlns";
    if (!bindings_[i].prefix.empty()) (xml_ += ':') += bindings_[i].prefix;
    xml_ += "=\"";
    append_xml_escaped_exact(xml_, bindings_[i].uri, true);
    xml_ += '"';
  }
  for (int i = 0; i < nb_attributes; ++i) {
    xml_ += ' ';
    xml_ += names[static_cast<std::size_t>(i)];
    xml_ += "=\"";
    append_xml_escaped_exact(xml_, attribute_value(attributes + 5 * i), true);
    xml_ += '"';
  }
  e.tag_open = true;
  open_.push_back(std::move(e));
  check_size();
}

void foreign_capture::characters(std::string_view text) {
  if (open_.empty() || over_ || text.empty()) return;
  close_start_tag();
  append_xml_escaped_exact(xml_, text, false);
  check_size();
}

bool foreign_capture::end_element() {
  if (open_.empty()) return false;
  open_element& e = open_.back();
  if (!over_) {
    if (e.tag_open) {
      xml_ += "/>";
    } else {
      xml_ += "</";
      xml_ += e.name;
      xml_ += '>';
    }
    check_size();
  }
  bindings_.resize(e.bindings);
  open_.pop_back();
  if (!open_.empty()) return false;
  dropped_ = over_;
  over_ = false;
  return true;
}

}  // namespace sitemill::detail
