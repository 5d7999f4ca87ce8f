// Fuzz target for the HTML scan and page_links. Beyond "no crash", it
// aborts when the facts break an invariant: scanning twice gives different
// facts; reading images or stated dates changes the hash, the canonical
// link, the meta refresh or the alternates; a meta refresh without a URL, a
// stated date that is empty-but-set or untrimmed; an image reference is empty,
// a data: URI, repeated or past the bound; page_links gives more than 1,000
// images, one twice, or a URL that normalising again changes, or values that
// are not whole items (alternates with both hreflang and href, images with a
// loc); a resolved canonical or refresh URL that normalising again changes.
//
// Input: an HTML document, scanned as the page https://www.example.com/a/b.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>

#include "sitemill/html/html_page.h"
#include "sitemill/url/url.h"
#include "html/page_links.h"

namespace {

using namespace sitemill;

void require(bool ok) {
  if (!ok) std::abort();
}

bool same_facts(const html_facts& a, const html_facts& b) {
  return a.noindex == b.noindex && a.has_canonical == b.has_canonical &&
         a.canonical == b.canonical && a.has_base == b.has_base &&
         a.base == b.base && a.alternates == b.alternates &&
         a.has_refresh == b.has_refresh && a.refresh_url == b.refresh_url &&
         a.hash == b.hash;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string_view html(reinterpret_cast<const char*>(data), size);
  html_scan_options with_images;
  with_images.images = true;
  with_images.dates = true;
  with_images.max_images = 16;  // small, so the bound is crossed
  const html_facts plain = scan_html(html);
  const html_facts facts = scan_html(html, with_images);
  require(plain.images.empty() && !plain.images_truncated);
  for (const std::string& date : plain.stated_dates) require(date.empty());
  require(plain.has_refresh == !plain.refresh_url.empty());
  for (const std::string& date : facts.stated_dates) {
    require(date.empty() || (date.front() != ' ' && date.back() != ' '));
  }
  require(same_facts(plain, facts));
  const html_facts again = scan_html(html, with_images);
  require(same_facts(facts, again) && facts.images == again.images &&
          facts.stated_dates == again.stated_dates &&
          facts.images_truncated == again.images_truncated);

  require(facts.images.size() <= with_images.max_images);
  std::set<std::string> raw;
  for (const std::string& image : facts.images) {
    require(!image.empty());
    require(!(image.size() >= 5 && (image[0] | 0x20) == 'd' &&
              (image[1] | 0x20) == 'a' && (image[2] | 0x20) == 't' &&
              (image[3] | 0x20) == 'a' && image[4] == ':'));
    require(raw.insert(image).second);
  }

  normalized_url page;
  require(normalize_url("https://www.example.com/a/b", page) ==
          url_problem::ok);
  detail::page_links links;
  links.resolve(
      page, facts,
      {.canonical = true, .refresh = true, .alternates = true, .images = true});
  const auto fields = extension_fields();
  std::set<std::string> images;
  std::uint32_t item = 0;
  bool first = true;
  std::string_view hreflang_of_item;
  for (const extension_value& v : links.extensions()) {
    require(first ? v.item == 0 : (v.item == item || v.item == item + 1));
    first = false;
    item = v.item;
    const extension_field& f = fields[v.field];
    if (f.kind == extension_kind::image) {
      require(f.key == "loc");
      require(images.insert(std::string(v.text)).second);
    } else {
      require(f.kind == extension_kind::alternate);
      if (f.key == "@hreflang") hreflang_of_item = v.text;
      if (f.key == "@href") require(hreflang_of_item.data() != nullptr);
    }
    if (f.key == "loc" || f.key == "@href") {
      std::string again_href;
      require(normalize_url(v.text, again_href) == url_problem::ok);
      require(again_href == v.text);
    }
  }
  require(images.size() <= 1000);
  for (const normalized_url* resolved :
       {&links.canonical(), &links.refresh()}) {
    if (resolved->empty()) continue;
    std::string again_href;
    require(normalize_url(resolved->href(), again_href) == url_problem::ok);
    require(again_href == resolved->href());
  }
  return 0;
}
