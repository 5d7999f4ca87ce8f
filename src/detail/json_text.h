// sitemill internals: how every --json report turns a JSON value into text,
// one rule for all of them (docs/report-schema.md).
#ifndef SITEMILL_DETAIL_JSON_TEXT_H
#define SITEMILL_DETAIL_JSON_TEXT_H

#include <nlohmann/json.hpp>
#include <string>

namespace sitemill::detail {

/// One line of JSON text; bytes that are not UTF-8 (a path or a URL as a
/// file had it) become U+FFFD rather than failing the whole report.
inline std::string dump_json(const nlohmann::ordered_json& value) {
  return value.dump(-1, ' ', false,
                    nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_JSON_TEXT_H
