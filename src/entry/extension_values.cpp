// entry_builder::build_extensions: a reader's raw extension values judged
// against the one table (sitemill/entry/extensions.h), put in the order the
// writer emits. Invalid values and incomplete items are dropped with a
// warning, as a bad lastmod is; the URL itself is always kept.
#include <algorithm>
#include <cctype>
#include <charconv>

#include "detail/text.h"
#include "detail/utf8.h"
#include "entry/language_codes.h"
#include "sitemill/date/w3c_datetime.h"
#include "sitemill/entry/entry.h"

namespace sitemill {
namespace {

bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word(char c) {
  return is_upper(c) || is_lower(c) || is_digit(c) || c == '_';
}

// Calls `part` for each piece of `s` between `sep`s; false if any is false.
template <class F>
bool each_part(std::string_view s, char sep, F part) {
  for (;;) {
    const std::size_t at = s.find(sep);
    if (!part(s.substr(0, at))) return false;
    if (at == std::string_view::npos) return true;
    s.remove_prefix(at + 1);
  }
}

bool in_choices(std::string_view value, std::string_view choices) {
  return !each_part(choices, '|',
                    [&](std::string_view c) { return c != value; });
}

// xsd:integer / xsd:decimal lexical forms, as numbers for the range check.
std::optional<double> parse_number(std::string_view s, bool integer) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  const std::size_t dot = s.find('.');
  if (integer && dot != std::string_view::npos) return std::nullopt;
  std::string_view whole = s.substr(0, dot);
  std::string_view fraction =
      dot == std::string_view::npos ? std::string_view() : s.substr(dot + 1);
  const bool negative = !whole.empty() && whole.front() == '-';
  if (negative) whole.remove_prefix(1);
  if (whole.empty() && fraction.empty()) return std::nullopt;
  if (!std::all_of(whole.begin(), whole.end(), is_digit) ||
      !std::all_of(fraction.begin(), fraction.end(), is_digit))
    return std::nullopt;
  double value = 0;
  const std::string digits = std::string(whole.empty() ? "0" : whole) + "." +
                             std::string(fraction.empty() ? "0" : fraction);
  std::from_chars(digits.data(), digits.data() + digits.size(), value);
  return negative ? -value : value;
}

std::size_t characters(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// Written as it is, such a value would leave the sitemap not well-formed.
constexpr char xml_cannot_hold[] =
    "holds a character XML cannot carry (a control character, U+FFFE or "
    "U+FFFF)";

// True when `value` starts with an RFC 3986 scheme and its ':': an absolute
// URI, not a relative reference.
bool has_scheme(std::string_view value) {
  const std::size_t colon = value.find(':');
  return colon != std::string_view::npos && colon > 0 &&
         std::isalpha(static_cast<unsigned char>(value[0])) &&
         std::all_of(value.begin(), value.begin() + colon, [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '+' ||
                  c == '-' || c == '.';
         });
}

// What judging a URL value needs besides the value.
struct url_context {
  origin_memo& origins;
  /// The base directory relative references resolve against, as a relative
  /// loc does (url_normalizer); empty: only absolute URLs are valid.
  const normalized_url& base;
  normalized_url& scratch;
};

std::string judge_url(std::string_view value, std::string& out,
                      url_context& urls) {
  if (!urls.base.empty() && !has_scheme(detail::trim(value))) {
    // No location rule: an image or a video may live on another host,
    // and a relative one lives where a relative loc would.
    const url_problem p = resolve_url(value, urls.base, urls.scratch);
    if (p != url_problem::ok) return std::string(describe(p));
    out.assign(urls.scratch.href());
    return {};
  }
  const url_problem p = urls.origins.normalize(value, out);
  return p == url_problem::ok ? std::string() : std::string(describe(p));
}

// Why `value` is not a valid `f`, or "" when it is. `out` receives the text
// to write when it differs from `value` (a normalised URL).
std::string judge(const extension_field& f, std::string_view value,
                  std::string& out, url_context& urls) {
  using enum value_type;
  switch (f.type) {
    case url:
      return judge_url(value, out, urls);
    case any_uri: {
      const std::size_t colon = value.find(':');
      const bool scheme = has_scheme(value);
      if (!scheme && !urls.base.empty()) return judge_url(value, out, urls);
      if (!scheme) return "not an absolute URI";
      // An http(s) URI is a URL, whatever follows its scheme ("https:[//x"
      // too): judged and normalised as one.
      const std::string_view name = value.substr(0, colon);
      if (detail::iequals(name, "http") || detail::iequals(name, "https"))
        return judge_url(value, out, urls);
      if (!std::all_of(value.begin(), value.end(), [](char c) {
            return static_cast<unsigned char>(c) > 0x20 && c != 0x7F;
          }))
        return "a URI cannot hold spaces or control characters";
      // What the schema validators' xs:anyURI refuses (libxml2 parses it by
      // RFC 3986 once it has masked the characters browsers tolerate, such
      // as '<' or '"'): brackets outside a host, a second '#', a '%' that
      // starts no %XX escape.
      bool fragment = false;
      for (std::size_t i = colon + 1; i < value.size(); ++i) {
        const char c = value[i];
        if (c == '[' || c == ']')
          return "a URI cannot hold '" + std::string(1, c) +
                 "' outside its host (RFC 3986): percent-encode it";
        if (c == '#') {
          if (fragment) return "a URI has one '#' at most: percent-encode it";
          fragment = true;
        }
        if (c == '%' &&
            (i + 2 >= value.size() ||
             !std::isxdigit(static_cast<unsigned char>(value[i + 1])) ||
             !std::isxdigit(static_cast<unsigned char>(value[i + 2]))))
          return "a '%' in a URI must start a %XX escape";
      }
      if (!detail::is_valid_utf8(value)) return "not UTF-8";
      if (!detail::is_xml_text(value)) return xml_cannot_hold;
      return {};
    }
    case text:
      if (!detail::is_valid_utf8(value)) return "not UTF-8";
      if (!detail::is_xml_text(value)) return xml_cannot_hold;
      if (f.max_length != 0 && characters(value) > f.max_length)
        return "longer than " + detail::with_commas(f.max_length) +
               " characters";
      return {};
    case datetime: {
      w3c_datetime when;
      const datetime_problem p = parse_w3c_datetime(value, when);
      return p == datetime_problem::ok ? std::string()
                                       : std::string(describe(p));
    }
    case integer:
    case decimal: {
      const auto n = parse_number(value, f.type == integer);
      if (!n) return f.type == integer ? "not a whole number" : "not a number";
      if (*n < f.min)
        return "below " +
               detail::with_commas(static_cast<std::uint64_t>(f.min));
      if (*n > f.max)
        return "above " +
               detail::with_commas(static_cast<std::uint64_t>(f.max));
      return {};
    }
    case yes_no:
      return in_choices(value, "yes|Yes|YES|no|No|NO") ? std::string()
                                                       : "not yes or no";
    case choice:
      return in_choices(value, f.choices) ? std::string()
                                          : "not one of the allowed values";
    case hreflang: {
      const detail::hreflang_problem p = detail::check_hreflang(value);
      return p == detail::hreflang_problem::ok ||
                     p == detail::hreflang_problem::x_default
                 ? std::string()
                 : std::string(detail::describe(p));
    }
    case news_language:
      // Google's rule: an ISO 639 code, two or three letters, with
      // zh-cn and zh-tw as the only two that carry a region.
      return value == "zh-cn" || value == "zh-tw" ||
                     detail::is_iso639_1(value) || detail::is_iso639_2(value)
                 ? std::string()
                 : "not an ISO 639 language code (en, de, zh-cn, zh-tw)";
    case country_list:
      return each_part(value, ' ',
                       [](std::string_view c) {
                         return c.empty() || detail::is_iso3166_alpha2(c);
                       })
                 ? std::string()
                 : "not ISO 3166 country codes separated by spaces (US CA)";
    case platform_list:
      return each_part(value, ' ',
                       [](std::string_view p) {
                         return p.empty() || in_choices(p, "web|mobile|tv");
                       })
                 ? std::string()
                 : "not web, mobile or tv separated by spaces";
    case genre_list:
      return each_part(value, ',',
                       [](std::string_view g) {
                         return in_choices(detail::trim(g),
                                           "PressRelease|Satire|Blog|OpEd|"
                                           "Opinion|UserGenerated");
                       })
                 ? std::string()
                 : "not a comma-separated list of PressRelease, Satire, "
                   "Blog, OpEd, Opinion, UserGenerated";
    case ticker_list: {
      int count = 0;
      const bool shaped = each_part(value, ',', [&](std::string_view t) {
        t = detail::trim(t);
        const std::size_t colon = t.find(':');
        ++count;
        return colon != std::string_view::npos && colon > 0 &&
               colon + 1 < t.size() &&
               std::all_of(t.begin(), t.begin() + colon, is_word) &&
               std::all_of(t.begin() + colon + 1, t.end(), is_word);
      });
      return shaped && count <= 5
                 ? std::string()
                 : "not up to 5 EXCHANGE:SYMBOL tickers separated by commas";
    }
    case currency:
      return value.size() == 3 &&
                     std::all_of(value.begin(), value.end(), is_upper)
                 ? std::string()
                 : "not an ISO 4217 currency code (EUR)";
  }
  return "unknown";
}

}  // namespace

std::string extension_field_name(const extension_field& f) {
  const extension_namespace& ns = namespace_of(f.kind);
  std::string name(ns.prefix);
  name += ':';
  if (f.key.front() == '@') {
    name += ns.item;
    name += ' ';
    name += f.key.substr(1);
  } else {
    name += f.key;
    if (const auto at = name.find('@'); at != std::string::npos) name[at] = ' ';
  }
  return name;
}

std::optional<w3c_datetime> news_publication_date(
    std::span<const extension_value> values) noexcept {
  const auto fields = extension_fields();
  for (const extension_value& v : values) {
    const extension_field& f = fields[v.field];
    if (f.kind != extension_kind::news || f.key != "publication_date") continue;
    w3c_datetime when;
    if (parse_w3c_datetime(detail::trim(v.text), when) == datetime_problem::ok)
      return when;
  }
  return std::nullopt;
}

void entry_builder::build_extensions(std::span<const extension_value> raw,
                                     url_entry& out,
                                     std::vector<field_warning>& warnings) {
  const auto fields = extension_fields();
  ext_.clear();
  ext_text_.clear();
  kept_.clear();
  auto warn = [&](std::string msg) { warnings.push_back({std::move(msg)}); };
  url_context urls{origins_, normalizer_.base_url(), resolved_};

  std::size_t i = 0;
  std::uint32_t item_number = 0;
  std::size_t items_of_kind[extension_kind_count] = {};
  while (i < raw.size()) {
    // One item: the run of values with the same item number.
    const std::uint32_t item = raw[i].item;
    std::size_t end = i;
    while (end < raw.size() && raw[end].item == item) ++end;
    const extension_kind kind = fields[raw[i].field].kind;
    const extension_namespace& ns = namespace_of(kind);
    const std::size_t first = kept_.size();
    bool element_dropped = false;  // its attributes go with it
    // A link whose hreflang was given but is invalid is dropped whole: kept
    // without it, it would silently stop being an hreflang alternate.
    bool bad_hreflang = false;
    for (std::size_t v = i; v < end; ++v) {
      const extension_field& f = fields[raw[v].field];
      const bool attribute = is_attribute(f) && f.key.front() != '@';
      if (attribute && element_dropped) continue;
      if (!attribute) element_dropped = false;
      const std::string_view value = detail::trim(raw[v].text);
      std::string& normalised = normalised_;  // its capacity kept
      normalised.clear();
      std::string why = value.empty() ? (f.empty_ok ? std::string() : "empty")
                                      : judge(f, value, normalised, urls);
      if (why.empty() && attribute &&
          (kept_.size() == first ||
           element_field(kept_.back().field) != element_field(raw[v].field)))
        why = "it is an attribute of " +
              extension_field_name(fields[element_field(raw[v].field)]) +
              ", which does not come before it";
      if (why.empty() && !f.repeatable && !attribute) {
        for (std::size_t k = first; k < kept_.size(); ++k)
          if (kept_[k].field == raw[v].field)
            why = "given twice; the first is kept";
      }
      if (why.empty() && f.repeatable && f.max_repeats != 0) {
        std::uint32_t n = 0;
        for (std::size_t k = first; k < kept_.size(); ++k)
          n += kept_[k].field == raw[v].field;
        if (n >= f.max_repeats) why = "more than the schema allows in one item";
      }
      if (!why.empty()) {
        std::string m = extension_field_name(f);
        m += " \"";
        detail::append_printable(m, value);
        m += "\" dropped: ";
        m += why;
        warn(std::move(m));
        if (!attribute) element_dropped = true;
        if (f.type == value_type::hreflang) bad_hreflang = true;
        continue;
      }
      kept_value k{raw[v].field, item_number, 0, 0, !normalised.empty(), value};
      if (k.own) {
        k.begin = ext_text_.size();
        ext_text_ += normalised;
        k.end = ext_text_.size();
      }
      kept_.push_back(k);
    }
    i = end;

    // A group that lacks a field it needs (a video:tvshow without its
    // video_type) would make the item invalid by the schema: it goes, the
    // item stays.
    const field_range group_range = fields_of(kind);
    for (extension_field_id id = group_range.first; id < group_range.last;
         ++id) {
      const extension_field& f = fields[id];
      if (!f.required_in_group) continue;
      const std::string_view group = f.key.substr(0, f.key.find('.') + 1);
      auto in_group = [&](const kept_value& k) {
        return fields[k.field].key.starts_with(group);
      };
      const auto begin = kept_.begin() + static_cast<std::ptrdiff_t>(first);
      if (std::none_of(begin, kept_.end(), in_group) ||
          std::any_of(begin, kept_.end(),
                      [&](const kept_value& k) { return k.field == id; }))
        continue;
      kept_.erase(std::remove_if(begin, kept_.end(), in_group), kept_.end());
      warn(std::string(ns.prefix) + ":" +
           std::string(group.substr(0, group.size() - 1)) +
           " dropped: it has no valid " + extension_field_name(f));
    }

    // The item as a whole: required fields, Google's rules, its count.
    std::string missing;
    const field_range r = fields_of(kind);
    for (extension_field_id id = r.first; id < r.last && missing.empty();
         ++id) {
      const extension_field& f = fields[id];
      if (!f.required) continue;
      const extension_field_id owner = element_field(id);
      auto has = [&](extension_field_id want) {
        for (std::size_t k = first; k < kept_.size(); ++k)
          if (kept_[k].field == want) return true;
        return false;
      };
      if (owner != id && !has(owner)) continue;  // optional element absent
      if (!has(id)) missing = extension_field_name(f);
    }
    auto has_key = [&](std::string_view key) {
      for (std::size_t k = first; k < kept_.size(); ++k)
        if (fields[kept_[k].field].key == key) return true;
      return false;
    };
    std::string why;
    if (!missing.empty()) {
      why = "it has no valid " + missing;
    } else if (bad_hreflang) {
      why = "its hreflang is not valid";
    } else if (kind == extension_kind::video && !has_key("content_loc") &&
               !has_key("player_loc")) {
      why =
          "it has neither video:content_loc nor video:player_loc (Google "
          "needs one)";
    } else if (ns.max_items != 0 &&
               items_of_kind[static_cast<std::size_t>(kind)] >= ns.max_items) {
      why = ns.max_items == 1
                ? "a URL has at most one " + std::string(ns.prefix) + ":" +
                      std::string(ns.item)
                : "a URL has at most " + detail::with_commas(ns.max_items) +
                      " " + std::string(ns.prefix) + ":" +
                      std::string(ns.item) + " elements";
    }
    if (!why.empty()) {
      kept_.resize(first);
      warn(std::string(ns.prefix) + ":" + std::string(ns.item) +
           " dropped: " + why);
      continue;
    }
    ++items_of_kind[static_cast<std::size_t>(kind)];
    ++item_number;
  }

  // The writer's order: items by kind (stable: the input's order within a
  // kind), the values of an item by element in schema order (stable: an
  // element's attributes stay after it, repeats in the input's order).
  // Inputs nearly always come in that order already: checked first.
  const auto order = [&](const kept_value& v) {
    return std::uint64_t{static_cast<std::uint8_t>(fields[v.field].kind)} << 56 |
           std::uint64_t{v.item} << 16 | element_field(v.field);
  };
  const auto before = [&](const kept_value& a, const kept_value& b) {
    return order(a) < order(b);
  };
  if (!std::is_sorted(kept_.begin(), kept_.end(), before))
    std::stable_sort(kept_.begin(), kept_.end(), before);
  std::uint32_t renumbered = 0;
  for (std::size_t k = 0; k < kept_.size(); ++k) {
    if (k > 0 && kept_[k].item != kept_[k - 1].item) ++renumbered;
    const std::string_view text =
        kept_[k].own ? std::string_view(ext_text_).substr(
                           kept_[k].begin, kept_[k].end - kept_[k].begin)
                     : kept_[k].raw;
    ext_.push_back({kept_[k].field, renumbered, text});
  }
  out.extensions = ext_;
}

}  // namespace sitemill
