#include "parse/context.h"

#include <utility>

#include "detail/text.h"
#include "sitemill/date/dates.h"
#include "sitemill/limits.h"

namespace sitemill::detail {
namespace {

constexpr std::uint64_t all_same_threshold = lastmod_all_same_entries;

}  // namespace

int doc_context::year_of(std::int64_t unix_seconds) noexcept {
  // The civil year from days since 1970 (H. Hinnant's days_from_civil,
  // inverted).
  const std::int64_t z = unix_seconds / 86'400 + 719'468;
  const std::int64_t era = (z >= 0 ? z : z - 146'096) / 146'097;
  const std::int64_t doe = z - era * 146'097;
  const std::int64_t yoe =
      (doe - doe / 1460 + doe / 36'524 - doe / 146'096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  return static_cast<int>(yoe + era * 400 + (mp >= 10 ? 1 : 0));
}

void doc_context::report(doc_code code, text_pos at, std::string message) {
  if (silent_) return;
  const doc_code_info& i = info(code);
  switch (i.level) {
    case severity::error:
      ++summary_.errors;
      break;
    case severity::warning:
      ++summary_.warnings;
      break;
    case severity::info:
      ++summary_.infos;
      break;
  }
  ++reports_;
  if (mute_reports_ > 0) {
    --mute_reports_;
    return;
  }
  diagnostic d;
  d.level = i.level;
  d.code = std::string(i.name);
  d.line = at.line;
  d.column = at.column;
  d.message = std::move(message);
  handler_.on_diagnostic(d);
}

void doc_context::set_kind(document_kind kind) {
  if (silent_) return;
  summary_.kind = kind;
  if (kind_told_ || kind == document_kind::unknown) return;
  kind_told_ = true;
  handler_.on_document(kind);
}

void doc_context::count_entry(text_pos at) {
  ++entries_seen_;
  if (entries_seen_ != max_urls_per_sitemap + 1) return;
  const bool index = summary_.kind == document_kind::sitemapindex;
  report(doc_code::too_many_entries, at,
         std::string(index ? "this index lists more than 50,000 sitemaps"
                           : "this document lists more than 50,000 URLs") +
             " (the protocol's limit; this is entry 50,001): split it into "
             "several files of at most 50,000 entries" +
             (index ? " and list them from more than one index"
                    : " and list them in a sitemap index"));
}

void doc_context::deliver(parsed_entry& entry) {
  if (silent_) return;
  entry.index = summary_.entries++;
  if (mute_entries_ > 0) {
    --mute_entries_;
    return;
  }
  handler_.on_entry(entry);
}

void doc_context::mute(std::uint64_t reports, std::uint64_t entries,
                       bool kind_told) {
  mute_reports_ = reports;
  mute_entries_ = entries;
  kind_told_ = kind_told;
}

void doc_context::note_lastmod(std::string_view text) {
  if (!lastmod_all_same_) return;
  if (text.empty()) {
    lastmod_all_same_ = false;
    return;
  }
  if (lastmod_count_++ == 0) {
    first_lastmod_.assign(text);
  } else if (text != first_lastmod_) {
    lastmod_all_same_ = false;
  }
}

void doc_context::finish_lastmod_check() {
  if (!lastmod_all_same_ || lastmod_count_ < all_same_threshold ||
      lastmod_count_ != summary_.entries)
    return;
  std::string m = "all " + with_commas(lastmod_count_) +
                  " entries have the same lastmod \"";
  append_printable(m, first_lastmod_);
  m += "\": a generator probably wrote its own run time. Give each entry the "
       "time its page last changed significantly, or leave lastmod out";
  report(doc_code::lastmod_all_same, {}, std::move(m));
}

}  // namespace sitemill::detail
