#include "sitemill/entry/entry.h"

#include "detail/text.h"

namespace sitemill {
namespace {

void warn(std::vector<field_warning>& warnings, std::string_view field,
          std::string_view value, std::string_view why) {
  std::string msg;
  msg.reserve(field.size() + value.size() + why.size() + 16);
  msg.append(field).append(" \"");
  detail::append_printable(msg, value);
  msg.append("\" dropped: ").append(why);
  warnings.push_back({std::move(msg)});
}

}  // namespace

entry_builder::outcome entry_builder::build(
    std::string_view loc, std::string_view lastmod, std::string_view freq,
    std::string_view prio, url_entry& out,
    std::vector<field_warning>& warnings) {
  outcome result = build_loc(loc, out);
  warnings.clear();
  if (result.problem == url_problem::ok)
    build_fields(lastmod, freq, prio, out, warnings);
  return result;
}

entry_builder::outcome entry_builder::build_loc(std::string_view loc,
                                                url_entry& out) {
  out = url_entry{};
  outcome result;
  result.problem = normalizer_.normalize(loc, loc_, &result.notes);
  if (result.problem == url_problem::ok) out.loc = loc_;
  return result;
}

lastmod_outcome entry_builder::build_fields(
    std::string_view lastmod, std::string_view freq, std::string_view prio,
    url_entry& out, std::vector<field_warning>& warnings) {
  warnings.clear();
  lastmod_outcome result;
  // A W3C datetime is parsed into the entry itself: a copy of it made right
  // after the parse would wait on the parse's stores (lastmod_reader's
  // read_w3c()).
  if (lastmod = detail::trim(lastmod);
      !lastmod.empty() && !dates_.read_w3c(lastmod, out.lastmod.emplace())) {
    out.lastmod.reset();
    const lastmod_reading read = dates_.read_rest(lastmod);
    if (read.ok()) {
      out.lastmod = read.value;
      result.note = read.note;
    } else {
      warn(warnings, "lastmod", lastmod, read.why);
      result.dropped = true;
    }
  }
  if (freq = detail::trim(freq); !freq.empty()) {
    if (auto value = parse_changefreq(freq))
      out.freq = *value;
    else
      warn(warnings, "changefreq", freq,
           "not one of always, hourly, daily, weekly, monthly, yearly, never");
  }
  if (prio = detail::trim(prio); !prio.empty()) {
    if (auto value = priority::parse(prio))
      out.prio = *value;
    else
      warn(warnings, "priority", prio, "not a decimal from 0.0 to 1.0");
  }
  return result;
}

}  // namespace sitemill
