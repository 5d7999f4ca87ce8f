// jsonl / ndjson: one JSON object per line (RFC 8259), keys loc, lastmod,
// changefreq and priority, and the extensions as nested values (alternates,
// images, videos, news; docs/inputs.md) whose keys are the table's
// (sitemill/entry/extensions.h). The JSON itself is read by
// detail/json_lexer.h (views into the line, a number's text as written, the
// column of an error); this file maps keys onto record fields and extension
// values.
#include <algorithm>
#include <optional>
#include <string>

#include "detail/json_lexer.h"
#include "detail/text.h"
#include "sitemill/entry/entry.h"
#include "source/capped_notes.h"
#include "source/readers.h"

namespace sitemill::detail {
namespace {

constexpr std::size_t field_count = 5;
constexpr std::string_view key_names[field_count] = {
    "loc", "lastmod", "changefreq", "priority", "section"};
constexpr std::string_view type_problems[field_count] = {
    "field loc must be a string", "field lastmod must be a string",
    "field changefreq must be a string",
    "field priority must be a number or a string",
    "field section must be a string"};
constexpr std::string_view duplicate_problems[field_count] = {
    "duplicate key loc", "duplicate key lastmod", "duplicate key changefreq",
    "duplicate key priority", "duplicate key section"};

// Values nested deeper are refused: recursion depth stays bounded on any line.
constexpr int max_depth = 256;

// Distinct unknown keys remembered per input, each noted once; a file
// whose keys are all different (data in key position) cannot grow memory.
constexpr std::size_t max_unknown_keys = 64;

// The element text in an object that also gives the element's attributes:
// "price": {"value": "1.99", "currency": "EUR"}.
constexpr std::string_view value_key = "value";

// Each extension's top-level key with an "s" (news has none).
constexpr std::string_view plural_names[extension_kind_count] = {
    "alternates", "images", "videos", "news"};

// The extension a top-level key names: "image" or "images", and so on.
std::optional<extension_kind> extension_key(std::string_view key) noexcept {
  for (std::size_t k = 0; k < extension_kind_count; ++k) {
    const auto kind = static_cast<extension_kind>(k);
    const std::string_view name = input_name(kind);
    // Called for every unknown key of every line: most differ at once.
    if (key.empty() || key.front() != name.front()) continue;
    if (key == name || (key.size() == name.size() + 1 && key.back() == 's' &&
                        name.back() != 's' && key.starts_with(name)))
      return kind;
  }
  return std::nullopt;
}

// true and false are the spelling a JSON user gives a yes/no field.
bool takes_yes_no(const extension_field& f) noexcept {
  return f.type == value_type::yes_no ||
         (f.type == value_type::choice &&
          f.choices.find("yes") != std::string_view::npos);
}

// An element with attribute fields ("price" has "price@currency").
bool has_attributes(extension_field_id id) noexcept {
  const auto fields = extension_fields();
  return id + 1u < fields.size() &&
         element_field(static_cast<extension_field_id>(id + 1)) == id;
}

// Fields of `kind` under the nested element `group` ("tvshow.").
bool is_group(extension_kind kind, std::string_view group) noexcept {
  const auto fields = extension_fields();
  const field_range r = fields_of(kind);
  for (extension_field_id id = r.first; id < r.last; ++id)
    if (fields[id].key.starts_with(group)) return true;
  return false;
}

// What a JSON value at `c` is, for a message.
std::string_view json_type(char c) noexcept {
  switch (c) {
    case '{':
      return "an object";
    case '[':
      return "a list";
    case '"':
      return "a string";
    case 't':
    case 'f':
      return "true or false";
    default:
      return "a number";
  }
}

class jsonl_reader final : public line_record_reader {
 public:
  jsonl_reader(std::unique_ptr<byte_source> source, std::string name,
               const std::vector<named_column>& named, reader_tuning tuning)
      : line_record_reader(std::move(source), std::move(name), tuning),
        renamed_(!named.empty()) {
    for (std::size_t k = 0; k < field_count; ++k) keys_[k] = key_names[k];
    std::vector<column> extension_columns;
    for (const named_column& n : named) {
      if (n.what.what == column::role::ignored) continue;
      if (n.what.what == column::role::extension) {
        extension_columns.push_back(n.what);
        extension_keys_.push_back(n.name);
        continue;
      }
      keys_[static_cast<std::size_t>(n.what.what)] = n.name;
    }
    // Extension fields read from top-level keys go through the same map as
    // a CSV's extension columns, so their items form the same way.
    if (!extension_columns.empty()) {
      extension_map_ = map_columns(extension_columns);
      extension_cells_.resize(extension_columns.size());
    }
    for (std::size_t k = 0; k < field_count; ++k) {
      if (keys_[k] == key_names[k]) {
        type_problems_[k] = type_problems[k];
        duplicate_problems_[k] = duplicate_problems[k];
        continue;
      }
      const std::string shown = quoted_printable(keys_[k], 64);
      type_problems_[k] =
          std::string(type_problems[k])
              .replace(6, key_names[k].size(),
                       shown + " (read as " + std::string(key_names[k]) + ")");
      duplicate_problems_[k] = "duplicate key " + shown;
    }
  }

  bool next(input_record& out) override {
    line_reader::line l;
    while (lines_.next(l)) {
      if (!l.too_long && is_blank_line(l.text)) continue;
      out = input_record{};
      out.line = l.number;
      if (l.too_long) {
        out.problem = too_long_;
      } else if (!parse(l.text)) {
        out.problem = problem_;
        // An invalid line is one problem, without its notes.
        if (has_notes_) {
          line_notes_.clear();
          new_keys_.clear();
          has_notes_ = false;
        }
      } else {
        out.loc = values_[0];
        out.lastmod = values_[1];
        out.changefreq = values_[2];
        out.priority = values_[3];
        out.section = values_[4];
        if (has_extensions_) out.extensions = ext_;
        if (has_notes_) commit_notes(l.number);
      }
      return true;
    }
    wrong_types_.finish(notes_);
    return false;
  }

 private:
  // Parses one line into values_; false with problem_ set when it is not an
  // object with usable values.
  bool parse(std::string_view text) {
    lex_.reset(text);
    for (std::size_t k = 0; k < field_count; ++k) {
      values_[k] = {};
      seen_[k] = false;
    }
    has_extensions_ = false;  // the rest is reset at the first extension key
    for (auto& cell : extension_cells_) cell = {};
    std::string_view type_problem;
    lex_.skip_space();
    if (lex_.at_end() || lex_.peek() != '{') {
      problem_ = "invalid JSON: the line is not a JSON object";
      return false;
    }
    const bool ok = lex_.each_member(scratch_, [&](std::string_view key) {
      std::size_t k = 0;
      // The usual keys are compile-time constants: compared inline.
      if (!renamed_) {
        while (k < field_count && key != key_names[k]) ++k;
      } else {
        while (k < field_count && key != keys_[k]) ++k;
      }
      if (k < field_count) {
        if (seen_[k] && type_problem.empty())
          type_problem = duplicate_problems_[k];
        seen_[k] = true;
        return parse_field(k, type_problem);
      }
      if (!extension_keys_.empty()) {
        const std::size_t i = extension_key_index(key);
        if (i != extension_keys_.size()) return parse_extension_cell(i);
      }
      if (const auto kind = extension_key(key)) {
        begin_extensions();
        top_key_ = key.size() == input_name(*kind).size()
                       ? input_name(*kind)
                       : plural_names[static_cast<std::size_t>(*kind)];
        return parse_extension(*kind);
      }
      // With keys read by name (loc=url), the others are the export's
      // own columns, not typos: ignored without a note, as in a CSV.
      if (!renamed_) unknown_key({}, key);
      return lex_.skip_value(0, scratch_);
    });
    if (!ok) return invalid();
    lex_.skip_space();
    if (!lex_.at_end()) {
      lex_.fail("unexpected text after the object");
      return invalid();
    }
    if (!extension_cells_.empty()) add_extension_cells();
    // Only a well-formed line gets a type problem: "invalid JSON" comes first.
    if (!type_problem.empty()) {
      problem_ = type_problem;
      return false;
    }
    return true;
  }

  bool parse_field(std::size_t k, std::string_view& type_problem) {
    if (lex_.at_end()) return lex_.fail("expected a value");
    const char c = lex_.peek();
    if (c == '"') return lex_.read_string(values_[k], owned_[k]);
    if (json_lexer::starts_number(c)) {
      std::string_view number;
      if (!lex_.read_number(number)) return false;
      if (k == 3) {
        values_[k] = number;
      } else if (type_problem.empty()) {
        type_problem = type_problems_[k];
      }
      return true;
    }
    if (c == 'n') return lex_.literal("null");  // null: the field is absent
    if (!lex_.skip_value(0, scratch_)) return false;
    if (type_problem.empty()) type_problem = type_problems_[k];
    return true;
  }

  // --- extensions: values for ext_, never judged (the entry stage does).

  void begin_extensions() {
    if (has_extensions_) return;
    ext_.clear();
    arena_.clear();
    next_item_ = 0;
    has_extensions_ = true;
  }

  [[gnu::noinline]] std::size_t extension_key_index(
      std::string_view key) const noexcept {
    std::size_t i = 0;
    while (i < extension_keys_.size() && key != extension_keys_[i]) ++i;
    return i;
  }

  // The value of a top-level key read as extension column `i`
  // (reader_options::named_columns): a string, a number, true/false for a
  // yes/no field, or null; anything else is noted and dropped.
  [[gnu::noinline]] bool parse_extension_cell(std::size_t i) {
    const extension_field& f =
        extension_fields()[extension_map_.kinds[i].field];
    const char c = lex_.peek();
    std::string_view& cell = extension_cells_[i];
    if (c == '"') {
      if (!lex_.read_string(cell, scratch_)) return false;
      if (cell.data() == scratch_.data()) {
        begin_extensions();
        cell = own(cell);
      }
      return true;
    }
    if (json_lexer::starts_number(c)) {
      if (!lex_.read_number(cell)) return false;
      return true;
    }
    if (c == 'n') return lex_.literal("null");
    if ((c == 't' || c == 'f') && takes_yes_no(f)) {
      cell = c == 't' ? "yes" : "no";
      return lex_.literal(c == 't' ? "true" : "false");
    }
    if (!lex_.skip_value(1, scratch_)) return false;
    wrong_type(
        extension_field_name(f), c,
        takes_yes_no(f) ? "a string or true/false" : "a string or a number");
    return true;
  }

  // The items of the extension cells, after the line's own items.
  [[gnu::noinline]] void add_extension_cells() {
    extension_values(
        extension_map_, [&](std::size_t i) { return extension_cells_[i]; },
        cell_values_);
    if (cell_values_.empty()) return;
    begin_extensions();
    std::uint32_t items = 0;
    for (extension_value v : cell_values_) {
      items = std::max(items, v.item + 1);
      v.item += next_item_;
      ext_.push_back(v);
    }
    next_item_ += items;
  }

  // The value of an extension's top-level key: one item, a list of items,
  // or for alternates an object of hreflang: href.
  bool parse_extension(extension_kind kind) {
    if (lex_.at_end()) return lex_.fail("expected a value");
    if (lex_.peek() == 'n') return lex_.literal("null");
    if (lex_.peek() == '{' && kind == extension_kind::alternate)
      return parse_language_map();
    if (lex_.peek() != '[') return parse_item(kind);
    return lex_.each_element([&] { return parse_item(kind); });
  }

  // One item: an object of the kind's fields, or for a kind with a loc
  // (images) that URL alone.
  bool parse_item(extension_kind kind) {
    if (lex_.at_end()) return lex_.fail("expected a value");
    const std::size_t first = ext_.size();
    bool ok = true;
    if (lex_.peek() == '{') {
      ok = parse_fields(kind, {}, 2);
    } else if (lex_.peek() == 'n') {
      return lex_.literal("null");
    } else if (const auto loc = find_extension_field(kind, "loc");
               loc && lex_.peek() != '[') {
      ok = parse_scalar(*loc);
    } else {
      const char c = lex_.peek();
      if (!lex_.skip_value(2, scratch_)) return false;
      wrong_type(
          "\"" + std::string(top_key_) + "\" item", c,
          kind == extension_kind::image ? "a URL or an object" : "an object");
      return true;
    }
    end_item(first);
    return ok;
  }

  // "alternates": {"de": "https://...", "x-default": {"href": ...}}
  bool parse_language_map() {
    const extension_field_id hreflang =
        *find_extension_field(extension_kind::alternate, "@hreflang");
    const extension_field_id href =
        *find_extension_field(extension_kind::alternate, "@href");
    return lex_.each_member(scratch_, [&](std::string_view language) {
      if (language.data() == scratch_.data()) language = own(language);
      const std::size_t first = ext_.size();
      if (lex_.peek() == 'n') return lex_.literal("null");
      ext_.push_back({hreflang, next_item_, language});
      const bool ok = lex_.peek() == '{'
                          ? parse_fields(extension_kind::alternate, {}, 2)
                          : parse_scalar(href);
      // An href of the wrong type: no link at all, not a bare hreflang.
      if (ext_.size() == first + 1) ext_.pop_back();
      end_item(first);
      return ok;
    });
  }

  // The members of an item object, or of a nested element's object
  // (`group` "tvshow." for "tvshow": {...}): each key names a field
  // group + key of the table.
  bool parse_fields(extension_kind kind, std::string_view group, int depth) {
    return lex_.each_member(scratch_, [&](std::string_view key) {
      name_.assign(group).append(key);
      if (const auto id = find_extension_field(kind, name_))
        return parse_values(*id, depth + 1);
      name_.push_back('.');
      if (!is_group(kind, name_)) {
        name_.pop_back();
        unknown_key(kind, name_);
        return lex_.skip_value(depth + 1, scratch_);
      }
      if (lex_.peek() == '{') {
        const std::string nested = name_;
        return parse_fields(kind, nested, depth + 1);
      }
      if (lex_.peek() == 'n') return lex_.literal("null");
      const char c = lex_.peek();
      if (!lex_.skip_value(depth + 1, scratch_)) return false;
      name_.pop_back();
      wrong_type(std::string(input_name(kind)) + " \"" + name_ + "\"", c,
                 "an object");
      return true;
    });
  }

  // A field's value: text, or a list of them (a repeatable field, or one
  // given twice for the entry stage to report).
  bool parse_values(extension_field_id id, int depth) {
    if (lex_.peek() != '[') return parse_value(id, depth);
    return lex_.each_element([&] {
      if (lex_.peek() != '[') return parse_value(id, depth + 1);
      if (!lex_.skip_value(depth + 1, scratch_)) return false;
      wrong_type(extension_field_name(extension_fields()[id]), '[',
                 "a string or a number");
      return true;
    });
  }

  // One value of a field: a scalar, or for an element with attributes an
  // object {"value": ..., "currency": ...} (the element's value first).
  bool parse_value(extension_field_id id, int depth) {
    if (lex_.peek() != '{' || !has_attributes(id)) return parse_scalar(id);
    const extension_field& f = extension_fields()[id];
    const std::size_t first = ext_.size();
    const bool ok = lex_.each_member(scratch_, [&](std::string_view key) {
      std::optional<extension_field_id> target = id;
      if (key != value_key) {
        name_.assign(f.key).append("@").append(key);
        target = find_extension_field(f.kind, name_);
      }
      if (target) return parse_scalar(*target);
      unknown_key(f.kind, name_);
      return lex_.skip_value(depth + 1, scratch_);
    });
    if (!ok) return false;
    // {"currency": "EUR", "value": "1.99"}: the value goes first.
    for (std::size_t v = first; v < ext_.size(); ++v) {
      if (ext_[v].field == id) {
        std::rotate(ext_.begin() + first, ext_.begin() + v,
                    ext_.begin() + v + 1);
        break;
      }
    }
    return true;
  }

  // A string, number, true/false (for yes/no fields) or null as the text
  // of field `id`; anything else is noted and dropped.
  bool parse_scalar(extension_field_id id) {
    const extension_field& f = extension_fields()[id];
    const char c = lex_.peek();
    if (c == '"') {
      std::string_view text;
      if (!lex_.read_string(text, scratch_)) return false;
      if (text.data() == scratch_.data()) text = own(text);
      ext_.push_back({id, next_item_, text});
      return true;
    }
    if (json_lexer::starts_number(c)) {
      std::string_view number;
      if (!lex_.read_number(number)) return false;
      ext_.push_back({id, next_item_, number});
      return true;
    }
    if (c == 'n') return lex_.literal("null");
    if ((c == 't' || c == 'f') && takes_yes_no(f)) {
      if (!lex_.literal(c == 't' ? "true" : "false")) return false;
      ext_.push_back({id, next_item_, c == 't' ? "yes" : "no"});
      return true;
    }
    if (!lex_.skip_value(4, scratch_)) return false;
    wrong_type(
        extension_field_name(f), c,
        takes_yes_no(f) ? "a string or true/false" : "a string or a number");
    return true;
  }

  // Ends the item whose values start at ext_[first]. An attribute given
  // apart from its element ("price@currency" before "price", or after a
  // "tag") moves behind the element's last value and its attributes, where
  // the entry stage looks for it; one with no element stays for the entry
  // stage to report.
  void end_item(std::size_t first) {
    if (ext_.size() == first) return;
    // Only flat attribute keys can be out of place, and only a hostile line
    // has hundreds: the bound keeps it linear.
    constexpr std::size_t max_reordered = 256;
    if (ext_.size() - first <= max_reordered) {
      for (std::size_t v = first; v < ext_.size();) {
        const extension_value x = ext_[v];
        const extension_field_id element = element_field(x.field);
        if (element == x.field ||
            (v > first && element_field(ext_[v - 1].field) == element)) {
          ++v;
          continue;
        }
        ext_.erase(ext_.begin() + static_cast<std::ptrdiff_t>(v));
        std::size_t to = 0;
        for (std::size_t e = first; e < ext_.size(); ++e)
          if (ext_[e].field == element) to = e + 1;
        if (to == 0) {  // no element: the entry stage reports it
          ext_.insert(ext_.begin() + static_cast<std::ptrdiff_t>(v), x);
          ++v;
          continue;
        }
        while (to < ext_.size() && ext_[to].field != element &&
               element_field(ext_[to].field) == element)
          ++to;
        ext_.insert(ext_.begin() + static_cast<std::ptrdiff_t>(to), x);
        // Inserted at or before v, the next value moved to v + 1; inserted
        // after it, the next value is at v (and x is in place when reached).
        if (to <= v) ++v;
      }
    }
    ++next_item_;
  }

  // `text` (decoded into scratch_) copied where it lives until the next
  // line. The arena is sized to the line once, before its first copy, so
  // earlier views into it stay valid: decoded text is never longer than
  // the JSON that spells it.
  std::string_view own(std::string_view text) {
    if (arena_.empty()) arena_.reserve(lex_.size());
    const std::size_t at = arena_.size();
    arena_.append(text);
    return std::string_view(arena_).substr(at);
  }

  // An unknown key, noted once per input: `kind` empty for a top-level key.
  // Called for every unknown key of every line, so a key seen before costs
  // a comparison, not a string.
  void unknown_key(std::optional<extension_kind> kind, std::string_view key) {
    const int k = kind ? static_cast<int>(*kind) : -1;
    for (const auto& seen : unknown_keys_)
      if (seen.kind == k && seen.key == key) return;
    for (const auto& seen : new_keys_)
      if (seen.kind == k && seen.key == key) return;
    new_keys_.push_back({k, std::string(key)});
    has_notes_ = true;
  }

  void wrong_type(std::string what, char c, std::string_view expected) {
    std::string m = std::move(what);
    m += " dropped: ";
    m += json_type(c);
    m += " where ";
    m += expected;
    m += " was expected";
    line_notes_.push_back(std::move(m));
    has_notes_ = true;
  }

  // The notes of a line that parsed: kept only for lines that did, so an
  // invalid line is one problem, not a problem and notes.
  void commit_notes(std::uint64_t line) {
    for (auto& key : new_keys_) {
      if (unknown_keys_.size() == max_unknown_keys) {
        if (!unknown_capped_) {
          notes_.push_back({line, "more than " +
                                      std::to_string(max_unknown_keys) +
                                      " distinct unknown keys; the others "
                                      "are ignored without a note"});
          unknown_capped_ = true;
        }
        break;
      }
      std::string m = "unknown ";
      if (key.kind >= 0) {
        m += input_name(static_cast<extension_kind>(key.kind));
        m += ' ';
      }
      m += "key \"";
      detail::append_printable(m, key.key, 64);
      m += "\" ignored";
      notes_.push_back({line, std::move(m)});
      unknown_keys_.push_back(std::move(key));
    }
    for (auto& m : line_notes_)
      wrong_types_.add(line, notes_, [&m] { return std::move(m); });
    new_keys_.clear();
    line_notes_.clear();
    has_notes_ = false;
  }

  // false, with the lexer's error as the line's problem.
  bool invalid() {
    const json_error& e = lex_.error();
    problem_text_ = "invalid JSON: ";
    problem_text_.append(e.reason);
    problem_text_.append(" at column ");
    problem_text_.append(std::to_string(e.offset + 1));
    problem_ = problem_text_;
    return false;
  }

  // The top-level key of each core field (reader_options::named_columns),
  // and the problems that name it.
  std::string keys_[field_count];
  std::string type_problems_[field_count];
  std::string duplicate_problems_[field_count];
  bool renamed_ = false;
  // Extension fields read from top-level keys (image=image_url): the keys,
  // their map, this line's text of each, and the values made of them.
  std::vector<std::string> extension_keys_;
  column_map extension_map_;
  std::vector<std::string_view> extension_cells_;
  std::vector<extension_value> cell_values_;

  json_lexer lex_;
  std::string_view values_[field_count];
  std::string owned_[field_count];
  bool seen_[field_count] = {};
  std::string scratch_;
  std::string_view problem_;
  std::string problem_text_;

  // Plain lines pay one flag for the extensions: ext_, arena_ and
  // next_item_ are reset at a line's first extension key.
  bool has_extensions_ = false;
  std::vector<extension_value> ext_;  // the line's extension values
  std::string arena_;                 // their decoded text (own())
  std::uint32_t next_item_ = 0;
  // The extension key being read, for notes: a constant, not a copy of
  // the key, as a string copy per line was 1% of reading a JSONL list.
  std::string_view top_key_;
  std::string name_;  // a field key being looked up
  struct unknown {
    int kind;  // an extension_kind, or -1 for a top-level key
    std::string key;
  };
  std::vector<std::string> line_notes_;  // until the line parses
  std::vector<unknown> new_keys_;        // until the line parses
  std::vector<unknown> unknown_keys_;    // noted already in this input
  bool has_notes_ = false;               // line_notes_ or new_keys_ hold some
  bool unknown_capped_ = false;
  // Values of the wrong JSON type: a file where every line has one says so
  // in the first ones and a count, not a million notes.
  capped_notes wrong_types_{100,
                            "extension value",
                            "extension values",
                            "were of the wrong JSON type",
                            "they were dropped",
                            /*dropped_value=*/true};
};

}  // namespace

std::unique_ptr<record_reader> make_jsonl_reader(
    std::unique_ptr<byte_source> source, std::string name,
    const std::vector<named_column>& named, reader_tuning tuning) {
  return std::make_unique<jsonl_reader>(std::move(source), std::move(name),
                                        named, tuning);
}

}  // namespace sitemill::detail
