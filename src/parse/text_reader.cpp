#include "parse/text_reader.h"

#include <algorithm>
#include <cstring>
#include <string_view>

#include "detail/text.h"
#include "detail/utf8.h"
#include "parse/value_checks.h"

namespace sitemill::detail {
namespace {

// A NUL this early means a binary file (an image, a zip, UTF-16), not text.
constexpr std::size_t binary_probe = 1024;

// "scheme://...", or "http:"/"https:" with the slashes wrong (still a URL
// attempt, which check_loc explains better than "not a URL").
bool looks_like_url(std::string_view s) noexcept {
  auto alpha = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  };
  if (s.empty() || !alpha(s[0])) return false;
  std::size_t i = 1;
  while (i < s.size() && (alpha(s[i]) || (s[i] >= '0' && s[i] <= '9') ||
                          s[i] == '+' || s[i] == '-' || s[i] == '.'))
    ++i;
  if (i >= s.size() || s[i] != ':') return false;
  if (s.substr(i + 1).starts_with("//")) return true;
  std::string scheme(s.substr(0, i));
  for (char& c : scheme) c = static_cast<char>(c | 0x20);
  return scheme == "http" || scheme == "https";
}

}  // namespace

text_reader::text_reader(doc_context& doc, text_pos start)
    : doc_(doc), line_no_(start.line), first_column_(start.column) {
  line_.reserve(256);
}

bool text_reader::feed(const char* data, std::size_t size) {
  if (fatal_) return false;
  if (seen_ < binary_probe) {
    const std::size_t n = std::min<std::size_t>(
        size, static_cast<std::size_t>(binary_probe - seen_));
    if (std::memchr(data, 0, n) != nullptr) {
      fatal_ = true;
      doc_.report(doc_code::binary_content, {line_no_, 0},
                  "the file holds NUL bytes, so it is binary, not a text "
                  "sitemap nor XML (UTF-16 text counts as binary here): a "
                  "sitemap is UTF-8 XML or text, optionally gzipped");
      return false;
    }
  }
  seen_ += size;
  while (size > 0) {
    const auto* nl = static_cast<const char*>(std::memchr(data, '\n', size));
    const std::size_t chunk =
        nl != nullptr ? static_cast<std::size_t>(nl - data) : size;
    if (line_.size() < max_line)
      line_.append(data, std::min(chunk, max_line - line_.size()));
    line_bytes_ += chunk;
    if (nl == nullptr) break;
    end_line();
    data += chunk + 1;
    size -= chunk + 1;
  }
  return true;
}

void text_reader::finish() {
  if (!fatal_ && line_bytes_ > 0) end_line();
}

void text_reader::end_line() {
  const std::uint64_t number = line_no_++;
  const std::uint64_t base = first_column_;
  first_column_ = 1;
  const bool overflow = line_bytes_ > line_.size();
  std::string_view raw = line_;
  if (!overflow && !raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
  std::size_t lead = 0;
  while (lead < raw.size() && is_ascii_space(raw[lead])) ++lead;
  const std::string_view text = trim(raw);
  const text_pos at{number, base + lead};
  if (text.empty()) {
    // Blank lines carry nothing; the protocol's "one URL per line" is not
    // broken by them, so they pass silently.
  } else if (overflow) {
    doc_.report(doc_code::loc_too_long, at,
                "line " + with_commas(number) +
                    " is longer than 65,536 bytes; "
                    "a URL must have fewer than 2,048 characters (the line is "
                    "skipped)");
  } else if (!is_valid_utf8(text)) {
    doc_.report(doc_code::invalid_utf8, at,
                "line " + with_commas(number) +
                    " has bytes that are not UTF-8: save the file as UTF-8 "
                    "(the line is skipped)");
  } else if (!looks_like_url(text)) {
    std::string m = "line " + with_commas(number) + " is not a URL (\"";
    append_printable(m, text, 80);
    m += "\"): a text sitemap holds one absolute URL per line and nothing "
         "else";
    if (text.starts_with("www.")) m += "; begin it with https://";
    doc_.report(doc_code::text_not_url, at, std::move(m));
  } else {
    doc_.count_entry(at);
    const loc_verdict v = check_loc(text, at, loc_source::text, doc_, scratch_);
    parsed_entry e;
    e.loc = {v.value, true, at.line, at.column};
    e.line = at.line;
    e.column = at.column;
    doc_.deliver(e);
  }
  line_.clear();
  line_bytes_ = 0;
}

}  // namespace sitemill::detail
