#include "inspect/url_fields.h"

#include <cmath>
#include <cstdlib>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "detail/text.h"
#include "sitemill/date/dates.h"
#include "sitemill/entry/fields.h"
#include "sitemill/inspect/stats.h"
#include "sitemill/url/url.h"

namespace sitemill::detail {

void read_url_fields(const parsed_entry& e, document_kind kind,
                     url_fields& out) {
  (void)normalize_url(e.loc.text, out.url);  // empty on any problem

  out.lastmod_present = e.lastmod.present;
  out.lastmod.reset();
  if (e.lastmod.present) {
    w3c_datetime d;
    std::string_view text = trim(e.lastmod.text);
    std::optional<std::string> converted;
    if (kind == document_kind::rss || kind == document_kind::atom) {
      converted = feed_date_to_w3c(text);
      if (converted) text = *converted;
    }
    if (parse_w3c_datetime(text, d) == datetime_problem::ok) out.lastmod = d;
  }

  constexpr std::uint8_t none_cf = changefreq_slots - 2;
  if (!e.changefreq.present)
    out.changefreq = none_cf;
  else if (auto cf = parse_changefreq(e.changefreq.text))
    out.changefreq = static_cast<std::uint8_t>(static_cast<int>(*cf) - 1);
  else
    out.changefreq = none_cf + 1;

  constexpr std::uint8_t none_p = priority_slots - 2;
  if (!e.priority.present) {
    out.priority = none_p;
  } else if (auto p = priority::parse(e.priority.text)) {
    const double v = std::strtod(std::string(p->text()).c_str(), nullptr);
    out.priority = static_cast<std::uint8_t>(std::lround(v * 10.0));
  } else {
    out.priority = none_p + 1;
  }
}

std::uint64_t extensions_hash(
    std::span<const extension_value> values) noexcept {
  if (values.empty()) return 0;
  XXH3_state_t st;
  XXH3_64bits_reset(&st);
  for (const extension_value& v : values) {
    const std::uint64_t head = (std::uint64_t{v.field} << 32) | v.item;
    const std::uint64_t size = v.text.size();
    XXH3_64bits_update(&st, &head, sizeof head);
    XXH3_64bits_update(&st, &size, sizeof size);
    XXH3_64bits_update(&st, v.text.data(), v.text.size());
  }
  const std::uint64_t h = XXH3_64bits_digest(&st);
  return h == 0 ? 1 : h;
}

}  // namespace sitemill::detail
