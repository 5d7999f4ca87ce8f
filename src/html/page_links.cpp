#include "html/page_links.h"

#include "detail/text.h"

namespace sitemill::detail {

void page_links::add(extension_field_id field, std::uint32_t item,
                     std::string_view text) {
  pending_.push_back({field, item, text_.size(), text.size()});
  text_ += text;
}

void page_links::resolve(const normalized_url& page, const html_facts& facts,
                         const page_link_options& options) {
  pending_.clear();
  text_.clear();
  values_.clear();
  notes_.clear();
  links_.clear();
  canonical_ = normalized_url{};
  refresh_ = normalized_url{};

  // The document's base URL: a <base href> that does not resolve leaves the
  // page's URL, as in a browser.
  base_ = page;
  if (facts.has_base && !facts.base.empty()) {
    const url_problem p = resolve_url(facts.base, page, scratch_);
    if (p == url_problem::ok)
      base_ = scratch_;
    else
      notes_.push_back("base URL " + quoted_printable(facts.base) +
                       " ignored: " + std::string(describe(p)));
  }

  if (options.canonical && facts.has_canonical && !facts.canonical.empty()) {
    const url_problem p = resolve_url(facts.canonical, base_, canonical_);
    if (p != url_problem::ok)
      notes_.push_back("canonical link " + quoted_printable(facts.canonical) +
                       " ignored: " + std::string(describe(p)));
  }

  if (options.refresh && facts.has_refresh) {
    const url_problem p = resolve_url(facts.refresh_url, base_, refresh_);
    if (p != url_problem::ok)
      notes_.push_back("meta refresh to " +
                       quoted_printable(facts.refresh_url) +
                       " ignored: " + std::string(describe(p)));
  }

  if (options.links) {
    // Links that do not resolve (mailto:, javascript:, a broken href) are
    // what pages are full of: left out without a note.
    for (const html_link& l : facts.links) {
      if (resolve_url(l.href, base_, scratch_) != url_problem::ok) continue;
      links_.push_back({std::string(scratch_.href()), l.nofollow});
    }
  }

  const link_field_ids& ids = link_fields();
  std::uint32_t item = 0;
  if (options.alternates) {
    for (const html_alternate& a : facts.alternates) {
      const url_problem p = resolve_url(a.href, base_, scratch_);
      if (p != url_problem::ok) {
        notes_.push_back("hreflang alternate " + quoted_printable(a.href) +
                         " (" + quoted_printable(a.hreflang) +
                         ") ignored: " + std::string(describe(p)));
        continue;
      }
      add(ids.hreflang, item, a.hreflang);
      add(ids.href, item, scratch_.href());
      ++item;
    }
  }

  if (options.images) {
    seen_images_.clear();
    const std::size_t max = namespace_of(extension_kind::image).max_items;
    std::size_t over = 0;
    for (const std::string& raw : facts.images) {
      const url_problem p = resolve_url(raw, base_, scratch_);
      if (p == url_problem::not_http) continue;  // blob:, about:blank
      if (p != url_problem::ok) {
        notes_.push_back("image " + quoted_printable(raw) +
                         " not listed: " + std::string(describe(p)));
        continue;
      }
      if (seen_images_.contains(std::string(scratch_.href()))) continue;
      if (seen_images_.size() == max) {
        ++over;
        continue;
      }
      seen_images_.emplace(scratch_.href());
      add(ids.image_loc, item++, scratch_.href());
    }
    if (over != 0 || facts.images_truncated)
      notes_.push_back("the page has more than " + with_commas(max) +
                       " images; the first " + with_commas(max) +
                       " are listed (Google reads at most " + with_commas(max) +
                       " per URL)");
  }

  for (const pending& v : pending_)
    values_.push_back(
        {v.field, v.item, std::string_view(text_).substr(v.begin, v.size)});
}

}  // namespace sitemill::detail
