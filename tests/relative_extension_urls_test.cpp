// entry_builder::build_extensions resolves relative extension URLs (an
// image's "/media/a.jpg", an alternate's "../de/") against the normaliser's
// base, as a relative loc is (RFC 3986 5.2), and only absolute ones without
// a base.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "sitemill/entry/entry.h"

namespace sitemill {
namespace {

struct outcome {
  std::string text;  // the value written, "" when dropped
  std::string warning;
};

// One value of `kind`'s `key`, given with what the item needs besides it.
outcome build_one(std::string_view base, extension_kind kind,
                  std::string_view key, std::string_view text) {
  url_normalizer n;
  if (!base.empty()) n = url_normalizer::with_base(base).value();
  entry_builder builder(n);
  const extension_field_id id = *find_extension_field(kind, key);
  std::vector<extension_value> raw;
  if (kind == extension_kind::alternate)
    raw.push_back({*find_extension_field(kind, "@hreflang"), 0, "de"});
  if (kind == extension_kind::video) {
    // The rest of a valid video, in absolute URLs.
    for (const auto& [k, v] :
         {std::pair<std::string_view, std::string_view>{
              "thumbnail_loc", "https://cdn.example.net/t.jpg"},
          {"title", "T"},
          {"description", "D"},
          {"content_loc", "https://cdn.example.net/v.mp4"}})
      if (k != key) raw.push_back({*find_extension_field(kind, k), 0, v});
  }
  raw.push_back({id, 0, text});
  url_entry e;
  std::vector<field_warning> warnings;
  builder.build_extensions(raw, e, warnings);
  outcome o;
  for (const extension_value& v : e.extensions)
    if (v.field == id) o.text = std::string(v.text);
  if (!warnings.empty()) o.warning = warnings.front().message;
  return o;
}

TEST(RelativeExtensionUrls, ResolveAgainstTheBaseDirectoryAsALocDoes) {
  struct row {
    std::string_view base;
    extension_kind kind;
    std::string_view key, text, written;
  };
  using enum extension_kind;
  const std::string_view shop = "https://shop.example.com/";
  const std::string_view blog = "https://www.example.org/blog/";
  const row rows[] = {
      {shop, image, "loc", "/media/a.jpg", "https://shop.example.com/media/a.jpg"},
      {shop, image, "loc", "media/a b.jpg",
       "https://shop.example.com/media/a%20b.jpg"},
      {blog, image, "loc", "a.jpg", "https://www.example.org/blog/a.jpg"},
      {blog, image, "loc", "../a.jpg", "https://www.example.org/a.jpg"},
      {blog, image, "loc", "//cdn.example.net/a.jpg",
       "https://cdn.example.net/a.jpg"},
      // Absolute URLs elsewhere stay as they are: no location rule.
      {blog, image, "loc", "https://cdn.example.net/a.jpg",
       "https://cdn.example.net/a.jpg"},
      {blog, video, "thumbnail_loc", "/t.jpg", "https://www.example.org/t.jpg"},
      {blog, video, "content_loc", "v.mp4",
       "https://www.example.org/blog/v.mp4"},
      {blog, alternate, "@href", "de/", "https://www.example.org/blog/de/"},
      {blog, alternate, "@href", " /de/ ", "https://www.example.org/de/"},
      {blog, alternate, "@href", "android-app://com.example/p",
       "android-app://com.example/p"},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(std::string(r.base) + " " + std::string(r.text));
    const outcome o = build_one(r.base, r.kind, r.key, r.text);
    EXPECT_EQ(o.text, r.written);
    EXPECT_EQ(o.warning, "");
  }
}

TEST(RelativeExtensionUrls, WithoutABaseOnlyAbsoluteUrlsAreValid) {
  const outcome image =
      build_one("", extension_kind::image, "loc", "/media/a.jpg");
  EXPECT_EQ(image.text, "");
  EXPECT_NE(image.warning.find("image:loc \"/media/a.jpg\" dropped"),
            std::string::npos)
      << image.warning;
  const outcome link = build_one("", extension_kind::alternate, "@href", "de/");
  EXPECT_EQ(link.text, "");
  EXPECT_NE(link.warning.find("not an absolute URI"), std::string::npos)
      << link.warning;
}

}  // namespace
}  // namespace sitemill
