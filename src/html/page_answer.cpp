#include "html/page_answer.h"

#include "detail/text.h"
#include "sitemill/date/dates.h"
#include "sitemill/date/w3c_datetime.h"

namespace sitemill::detail {

bool is_html_media_type(std::string_view content_type) noexcept {
  const std::string_view media = content_type.substr(0, content_type.find(';'));
  return iequals(trim(media), "text/html");
}

void read_x_robots_tag(std::string_view value, std::string_view token,
                       bool& noindex, bool& nofollow) noexcept {
  bool ours = true;
  while (!value.empty()) {
    const std::size_t comma = value.find(',');
    std::string_view d = trim(value.substr(0, comma));
    value = comma == std::string_view::npos ? std::string_view{}
                                            : value.substr(comma + 1);
    // "unavailable_after: DATE" is a directive with a colon of its own;
    // any other "name:" names the crawler the directives after it are for.
    const std::size_t colon = d.find(':');
    if (colon != std::string_view::npos &&
        !iequals(trim(d.substr(0, colon)), "unavailable_after")) {
      ours = iequals(trim(d.substr(0, colon)), token);
      d = trim(d.substr(colon + 1));
    }
    if (!ours) continue;
    const bool none = iequals(d, "none");
    if (none || iequals(d, "noindex")) noindex = true;
    if (none || iequals(d, "nofollow")) nofollow = true;
  }
}

bool drain_unwanted_body(const http_head& head) noexcept {
  return head.content_length && *head.content_length <= 64 * 1024;
}

std::string lastmod_from_http(std::string_view last_modified) {
  parsed_date d;
  const int year = 2000;  // only rfc850's two-digit years need it
  if (parse_http_date(trim(last_modified), year, d) != date_problem::ok)
    return {};
  char buf[max_lastmod_length];
  return std::string(buf, format_lastmod(d.value, buf));
}

}  // namespace sitemill::detail
