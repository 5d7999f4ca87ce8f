#include "parse/extension_rules.h"

#include <algorithm>
#include <optional>

#include "detail/text.h"
#include "entry/language_codes.h"
#include "parse/value_checks.h"
#include "sitemill/entry/entry.h"
#include "sitemill/limits.h"

namespace sitemill::detail {
namespace {

// Links of one <url> compared pairwise; no real page has more alternates
// than there are languages, and this keeps a hostile <url> linear.
constexpr std::size_t max_links_compared = 256;

std::string quote(std::string_view s) {
  std::string out = "\"";
  append_printable(out, s, 200);
  out += '"';
  return out;
}

const std::string_view& key_of(const extension_value& v) {
  return extension_fields()[v.field].key;
}

struct link {
  std::string_view hreflang, href;
};

// The <xhtml:link> items of a <url> that carry an hreflang, in order.
std::vector<link> links_of(std::span<const extension_value> values) {
  std::vector<link> out;
  std::optional<std::uint32_t> item;
  link current;
  bool has_lang = false, has_href = false;
  // A link without href names no page: hreflang-missing-href says so, and
  // it takes no part in the rules between links.
  auto flush = [&] {
    if (item && has_lang && has_href) out.push_back(current);
    current = {};
    has_lang = has_href = false;
  };
  for (const extension_value& v : values) {
    if (extension_fields()[v.field].kind != extension_kind::alternate) continue;
    if (!item || *item != v.item) {
      flush();
      item = v.item;
    }
    if (key_of(v) == "@hreflang") {
      current.hreflang = trim_xml(v.text);
      has_lang = true;
    } else if (key_of(v) == "@href") {
      current.href = trim_xml(v.text);
      has_href = true;
    }
  }
  flush();
  return out;
}

}  // namespace

std::string suggest_hreflang(std::string_view tag) {
  std::string s(trim_xml(tag));
  std::replace(s.begin(), s.end(), '_', '-');
  // "UK" is reserved in ISO 3166-1 but not assigned: the code is GB.
  if (s.size() > 3 && iequals(std::string_view(s).substr(s.size() - 3), "-uk"))
    s.replace(s.size() - 2, 2, "GB");
  const hreflang_problem p = check_hreflang(s);
  if (s == tag ||
      (p != hreflang_problem::ok && p != hreflang_problem::x_default))
    return {};
  return s;
}

void extension_rules::item(const extension_namespace& ns,
                           std::span<const extension_value> values, text_pos at,
                           doc_context& doc,
                           std::vector<std::string>& covered) {
  auto has = [&](std::string_view key) {
    return std::any_of(
        values.begin(), values.end(),
        [&](const extension_value& v) { return key_of(v) == key; });
  };
  switch (ns.kind) {
    case extension_kind::image:
      if (++images_ == ns.max_items + 1)
        doc.report(doc_code::image_too_many, at,
                   "this <url> has more than " + with_commas(ns.max_items) +
                       " <image:image> elements (this is number " +
                       with_commas(images_) +
                       "): Google reads at most 1,000 images per page and "
                       "ignores the rest; keep the 1,000 that matter");
      return;
    case extension_kind::video: {
      std::vector<std::string_view> missing;
      for (std::string_view key : {"thumbnail_loc", "title", "description"})
        if (!has(key)) {
          missing.push_back(key);
          covered.push_back("Expected is ( video:" + std::string(key) + " )");
        }
      const bool no_media = !has("content_loc") && !has("player_loc");
      if (missing.empty() && !no_media) return;
      std::string m = "<video:video> has no ";
      for (std::size_t i = 0; i < missing.size(); ++i) {
        if (i > 0) m += i + 1 == missing.size() && !no_media ? " and " : ", ";
        m += "video:";
        m += missing[i];
      }
      if (no_media) {
        if (!missing.empty()) m += " and no ";
        m += "video:content_loc or video:player_loc";
      }
      m += ": Google needs a thumbnail, a title, a description and the video "
           "file or player, and shows no video without them; add them";
      doc.report(doc_code::video_missing_field, at, std::move(m));
      return;
    }
    case extension_kind::news: {
      if (++news_ == max_news_per_sitemap + 1)
        doc.report(
            doc_code::news_too_many, at,
            "this document has more than " + with_commas(max_news_per_sitemap) +
                " <news:news> elements (this is number " + with_commas(news_) +
                "): a Google News sitemap lists at most 1,000 "
                "articles; split it, or keep only the last two days");
      const auto when = news_publication_date(values);
      if (!when) return;  // missing or malformed: the schema says so
      const std::int64_t age = doc.now_unix() - when->unix_seconds();
      if (age <= max_news_age_seconds) return;
      std::string date;
      for (const extension_value& v : values)
        if (key_of(v) == "publication_date") date = trim_xml(v.text);
      doc.report(doc_code::news_too_old, at,
                 "news:publication_date " + quote(date) + " is " +
                     with_commas(static_cast<std::uint64_t>(age / 86'400)) +
                     " days before the time of the check: a Google News "
                     "sitemap lists only articles of the last two days; "
                     "remove this <news:news> block (the <url> may stay)");
      return;
    }
    case extension_kind::alternate: {
      if (!has("@href")) {
        std::string m = "<xhtml:link> has no href";
        for (const extension_value& v : values)
          if (key_of(v) == "@hreflang")
            m += " (hreflang " + quote(v.text) + ")";
        m += ": an alternate names the URL of the page in its language, and "
             "search engines ignore one without it; add href=\"(that page's "
             "URL)\" or remove the link";
        doc.report(doc_code::hreflang_missing_href, at, std::move(m));
      }
      for (const extension_value& v : values) {
        if (key_of(v) != "@hreflang") continue;
        const std::string_view tag = trim_xml(v.text);
        const hreflang_problem p = check_hreflang(tag);
        if (p == hreflang_problem::ok || p == hreflang_problem::x_default)
          continue;
        std::string m = "hreflang " + quote(tag) + " is not valid: ";
        m += describe(p);
        const std::string better = suggest_hreflang(tag);
        m += better.empty() ? std::string(
                                  "; write a language (de), a language and "
                                  "region (de-AT), or x-default")
                            : "; did you mean " + quote(better) + "?";
        m += " Search engines ignore this alternate";
        doc.report(doc_code::hreflang_invalid, at, std::move(m));
        covered.push_back("attribute 'hreflang'");
      }
      return;
    }
  }
}

void extension_rules::entry(std::string_view loc,
                            std::span<const extension_value> values,
                            text_pos at, doc_context& doc) {
  std::vector<link> links = links_of(values);
  std::erase_if(links, [](const link& l) {
    const hreflang_problem p = check_hreflang(l.hreflang);
    return p != hreflang_problem::ok && p != hreflang_problem::x_default;
  });
  if (links.empty()) return;
  if (links.size() > max_links_compared) links.resize(max_links_compared);

  // One language, one URL (x-default included: one fallback per page).
  for (std::size_t i = 0; i < links.size(); ++i) {
    bool first = true;
    for (std::size_t j = 0; j < i && first; ++j)
      first = !iequals(links[j].hreflang, links[i].hreflang);
    if (!first) continue;
    for (std::size_t j = i + 1; j < links.size(); ++j) {
      if (!iequals(links[j].hreflang, links[i].hreflang) ||
          links[j].href == links[i].href)
        continue;
      doc.report(doc_code::hreflang_duplicate_language, at,
                 "hreflang " + quote(links[i].hreflang) + " names both " +
                     quote(links[i].href) + " and " + quote(links[j].href) +
                     " on this page: one language has one URL; keep the "
                     "right one, or give them different regions");
      break;
    }
  }

  const bool only_default = std::all_of(
      links.begin(), links.end(),
      [](const link& l) { return iequals(l.hreflang, "x-default"); });
  if (only_default) {
    doc.report(doc_code::hreflang_x_default_only, at,
               "this page's only hreflang alternate is x-default: x-default "
               "names the fallback among languages, so it means nothing "
               "alone; list the page's language versions (itself included), "
               "or remove it");
    return;
  }
  const bool self = std::any_of(links.begin(), links.end(),
                                [&](const link& l) { return l.href == loc; });
  if (!self)
    doc.report(doc_code::hreflang_no_self, at,
               "this page lists " + with_commas(links.size()) +
                   " hreflang alternate" + (links.size() == 1 ? "" : "s") +
                   " but not itself: each page lists every language version, "
                   "its own included; add <xhtml:link rel=\"alternate\" "
                   "hreflang=\"(its language)\" href=" +
                   quote(loc) + "/>");
}

}  // namespace sitemill::detail
