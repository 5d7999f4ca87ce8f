// Sections (generate_options::sections, docs/sections.md): which section a
// URL goes to, and the run's table of section names.
//
// section_rules is made once per run and shared by the entry workers, which
// pick each record's section name in parallel (thread-safe: immutable).
// section_table numbers the names on generate's consumer thread, in the
// order they are first met; set_writers keeps one writer sequence per
// number, and orders the files by name, so the numbers never show.
#ifndef SITEMILL_GENERATE_SECTIONS_H
#define SITEMILL_GENERATE_SECTIONS_H

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sitemill/generate/generate.h"
#include "sitemill/result.h"
#include "sitemill/source/site_source.h"

namespace sitemill::detail {

/// The section of the default section: a URL no field, rule or segment
/// names, written to files named as a set without sections names them.
inline constexpr std::uint32_t default_section = 0;

class section_rules {
 public:
  /// Fails, naming `sections`, on a rule whose name is not a section name
  /// (or is "news" with `news`), a name given twice, or a glob
  /// site_patterns refuses.
  static result<section_rules> make(const generate_options& o);

  /// What pick() found.
  struct choice {
    /// The section's name, "" for the default section: a view into the
    /// field, the path or the rules.
    std::string_view name;
    /// The field named a section that cannot be one: ignored, and the
    /// rules asked instead (an invalid field, as a bad priority is).
    std::string_view bad_field;
    /// The first segment was asked for and cannot name a section
    /// ("Blog", "news" with `news`): the URL stays in the default section.
    std::string_view bad_segment;
  };

  /// The section of a record whose section field reads `field` (untrimmed;
  /// empty: none) and whose URL's path below its base is `path`
  /// ("blog/a.html", no query).
  choice pick(std::string_view field, std::string_view path) const;

  /// Why `name` cannot name a section of this run, or "" when it can.
  std::string problem(std::string_view name) const;

 private:
  std::vector<std::pair<std::string, site_patterns>> rules_;
  bool first_segment_ = false;
  bool news_ = false;
};

/// Section names numbered in the order they are first met; 0 is the
/// default section (""). Not thread-safe.
class section_table {
 public:
  section_table();
  /// The number of `name`, which is added when new; fails when that would
  /// make more than generate_options::max_sections sections, naming the
  /// record that named it (`where`, `line`: its input and line).
  result<std::uint32_t> id_of(std::string_view name,
                              std::string_view where = {},
                              std::uint64_t line = 0);
  const std::string& name(std::uint32_t id) const { return names_[id]; }
  std::size_t size() const noexcept { return names_.size(); }

 private:
  std::deque<std::string> names_;  // a deque: ids_ holds views into it
  std::unordered_map<std::string_view, std::uint32_t> ids_;
  std::uint32_t last_ = default_section;  // most records repeat the last
};

}  // namespace sitemill::detail

#endif  // SITEMILL_GENERATE_SECTIONS_H
