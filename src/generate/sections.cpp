#include "generate/sections.h"

#include "detail/text.h"

namespace sitemill::detail {

std::string section_rules::problem(std::string_view name) const {
  if (std::string why = section_name_problem(name); !why.empty()) return why;
  if (news_ && name == "news")
    return "\"news\" names the Google News sitemaps when `news` is on";
  return {};
}

result<section_rules> section_rules::make(const generate_options& o) {
  section_rules rules;
  rules.first_segment_ = o.sections_from_first_segment;
  rules.news_ = o.news;
  if (o.sections.size() > generate_options::max_sections)
    return error{"`sections`: at most 1,000 sections", "sections"};
  for (const section_rule& r : o.sections) {
    const std::string shown = quoted_printable(r.name);
    if (std::string why = rules.problem(r.name); !why.empty())
      return error{"`sections`: " + shown + ": " + why, "sections"};
    for (const auto& [name, patterns] : rules.rules_)
      if (name == r.name)
        return error{"`sections`: " + shown +
                         " is given twice (a section takes one glob; "
                         "a broader glob covers more)",
                     "sections"};
    auto made = site_patterns::make({site_pattern{r.glob}});
    if (!made)
      return error{"`sections`: " + shown + ": " + made.err().message,
                   "sections"};
    rules.rules_.emplace_back(r.name, std::move(*made));
  }
  return rules;
}

section_rules::choice section_rules::pick(std::string_view field,
                                          std::string_view path) const {
  choice c;
  if (field = trim(field); !field.empty()) {
    if (problem(field).empty()) {
      c.name = field;
      return c;
    }
    c.bad_field = field;
  }
  for (const auto& [name, patterns] : rules_)
    if (patterns.matches_url_path(path)) {
      c.name = name;
      return c;
    }
  if (!first_segment_) return c;
  const std::size_t slash = path.find('/');
  if (slash == std::string_view::npos || slash == 0) return c;  // the root
  const std::string_view segment = path.substr(0, slash);
  if (problem(segment).empty())
    c.name = segment;
  else
    c.bad_segment = segment;
  return c;
}

section_table::section_table() {
  names_.emplace_back();
  ids_.emplace(names_.back(), default_section);
}

result<std::uint32_t> section_table::id_of(std::string_view name,
                                           std::string_view where,
                                           std::uint64_t line) {
  if (name == names_[last_]) return last_;
  if (auto at = ids_.find(name); at != ids_.end()) return last_ = at->second;
  // The default section is not counted: max_sections are named ones.
  if (names_.size() > generate_options::max_sections) {
    std::string why;
    if (!where.empty()) ((why += where) += ':') += std::to_string(line) + ": ";
    why += "section " + quoted_printable(name) +
           " would be one more than the 1,000 `sections` a run may have "
           "(a section field or the first path segments name too many; "
           "docs/sections.md)";
    return error{std::move(why), "sections"};
  }
  names_.emplace_back(name);
  last_ = static_cast<std::uint32_t>(names_.size() - 1);
  ids_.emplace(names_.back(), last_);
  return last_;
}

}  // namespace sitemill::detail
