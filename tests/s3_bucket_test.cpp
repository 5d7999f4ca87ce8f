// The bucket publisher's naming rules: where a set's bookkeeping lives
// beside its prefix, and the Content-Type of each kind of file.
#include <gtest/gtest.h>

#include "publish/bucket_publisher.h"

namespace sitemill::detail {
namespace {

TEST(BucketPublisher, BookkeepingLivesBesideThePrefixNeverUnderIt) {
  EXPECT_EQ(bucket_bookkeeping_prefix(""), ".sitemill/");
  EXPECT_EQ(bucket_bookkeeping_prefix("site/"), ".sitemill/site/");
  EXPECT_EQ(bucket_bookkeeping_prefix("a/b/"), "a/.sitemill/b/");
  EXPECT_EQ(bucket_bookkeeping_prefix("a/b/c/"), "a/b/.sitemill/c/");
}

TEST(BucketPublisher, ContentTypesNameTheFileNeverAnEncoding) {
  EXPECT_EQ(content_type_of("sitemap.xml"), "application/xml");
  EXPECT_EQ(content_type_of("sitemap-1-0123456789ab.xml.gz"),
            "application/gzip");
  EXPECT_EQ(content_type_of("sitemap-1-0123456789ab.txt"),
            "text/plain; charset=utf-8");
  EXPECT_EQ(content_type_of("sitemap-1-0123456789ab.txt.gz"),
            "application/gzip");
  EXPECT_EQ(content_type_of("sitemap-0123456789ab.xsl"), "text/xsl");
  EXPECT_EQ(content_type_of("sitemap.html"), "text/html; charset=utf-8");
}

}  // namespace
}  // namespace sitemill::detail
