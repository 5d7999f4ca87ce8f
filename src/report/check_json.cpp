#include "sitemill/report/check_json.h"

#include <nlohmann/json.hpp>

#include "detail/json_text.h"

namespace sitemill {

status write_check_json(sink& out, const check_report& r) {
  using json = nlohmann::ordered_json;
  json docs = json::array();
  for (const auto& d : r.documents) {
    json diags = json::array();
    for (const auto& g : d.diagnostics)
      diags.push_back({{"severity", to_string(g.level)},
                       {"code", g.code},
                       {"line", g.line},
                       {"column", g.column},
                       {"message", g.message}});
    docs.push_back(
        {{"source", d.source},
         {"type", to_string(d.kind)},
         {"urls", d.urls},
         {"bytes", d.bytes},
         {"diagnostics", std::move(diags)},
         {"schema_valid", d.schema_valid},
         {"errors", d.errors},
         {"warnings", d.warnings},
         {"infos", d.infos},
         {"unreadable", d.unreadable},
         {"robots_txt", d.robots_txt},
         {"parent", d.parent.empty() ? json(nullptr) : json(d.parent)}});
  }
  const json top = {
      {"documents", std::move(docs)},   {"errors", r.errors},
      {"warnings", r.warnings},         {"infos", r.infos},
      {"unreadable", r.any_unreadable}, {"outcome", to_string(r.outcome)}};
  std::string text = detail::dump_json(top);
  text.push_back('\n');
  return out.write(text.data(), text.size());
}

}  // namespace sitemill
