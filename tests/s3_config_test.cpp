// Where a bucket is and who may write it, read as the AWS CLI reads it:
// the environment first, then the profile of the shared files.
#include "store/s3_config.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "support/run.h"

namespace sitemill::store {
namespace {

using sitemill::testing::temp_dir;
using sitemill::testing::write_file;

env_reader env_of(std::map<std::string, std::string> vars) {
  return
      [vars = std::move(vars)](const char* name) -> std::optional<std::string> {
        auto it = vars.find(name);
        if (it == vars.end()) return std::nullopt;
        return it->second;
      };
}

TEST(S3Location, BucketAndPrefixAreTakenApart) {
  auto a = parse_s3_url("s3://my-bucket/sites/www/");
  ASSERT_TRUE(a) << a.err().message;
  EXPECT_EQ(a->bucket, "my-bucket");
  EXPECT_EQ(a->prefix, "sites/www/");
  auto b = parse_s3_url("s3://my-bucket/sites");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->prefix, "sites/");
  auto c = parse_s3_url("s3://my-bucket");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->prefix, "");
  auto d = parse_s3_url("s3://my-bucket/");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->prefix, "");
}

TEST(S3Location, BadBucketsAndPrefixesAreRefusedSayingWhy) {
  for (const char* bad : {"s3://", "s3://AB", "s3://Upper-Case",
                          "s3://under_score", "s3://-lead"}) {
    auto r = parse_s3_url(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.err().message.find("bucket name"), std::string::npos) << bad;
    EXPECT_EQ(r.err().field, "out_dir");
  }
  for (const char* bad : {"s3://bucket/a//b", "s3://bucket/../x",
                          "s3://bucket/a/./b", "s3://bucket//"}) {
    auto r = parse_s3_url(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.err().message.find("segment"), std::string::npos) << bad;
  }
  EXPECT_TRUE(is_s3_url("S3://b/"));
  EXPECT_FALSE(is_s3_url("s3:"));
  EXPECT_FALSE(is_s3_url("public/s3://x"));
}

TEST(S3Config, EnvironmentKeysWinAndAnEndpointMeansPathStyle) {
  auto c = resolve_s3_config(
      env_of({{"AWS_ACCESS_KEY_ID", "AKID"},
              {"AWS_SECRET_ACCESS_KEY", "SECRET"},
              {"AWS_SESSION_TOKEN", "TOKEN"},
              {"AWS_REGION", "eu-west-3"},
              {"AWS_DEFAULT_REGION", "us-west-2"},
              {"AWS_ENDPOINT_URL", "http://other:1"},
              {"AWS_ENDPOINT_URL_S3", "http://127.0.0.1:9000/"}}));
  ASSERT_TRUE(c) << c.err().message;
  EXPECT_EQ(c->credentials.access_key_id, "AKID");
  EXPECT_EQ(c->credentials.secret_access_key, "SECRET");
  EXPECT_EQ(c->credentials.session_token, "TOKEN");
  EXPECT_EQ(c->region, "eu-west-3");
  EXPECT_EQ(c->endpoint, "http://127.0.0.1:9000");
  EXPECT_TRUE(c->path_style);
}

TEST(S3Config, WithoutAnEndpointItIsAwsRegionalVirtualHosted) {
  auto c = resolve_s3_config(env_of({{"AWS_ACCESS_KEY_ID", "AKID"},
                                     {"AWS_SECRET_ACCESS_KEY", "SECRET"},
                                     {"AWS_DEFAULT_REGION", "us-west-2"},
                                     {"HOME", "/nonexistent"}}));
  ASSERT_TRUE(c) << c.err().message;
  EXPECT_EQ(c->region, "us-west-2");
  EXPECT_EQ(c->endpoint, "https://s3.us-west-2.amazonaws.com");
  EXPECT_FALSE(c->path_style);
}

TEST(S3Config, ProfileComesFromTheSharedFiles) {
  temp_dir home;
  std::filesystem::create_directories(home / ".aws");
  write_file(home / ".aws/credentials",
             "[default]\naws_access_key_id = DEFAULTID\n"
             "aws_secret_access_key = DEFAULTSECRET\n\n"
             "# the deploy profile\n[deploy]\r\n"
             "aws_access_key_id=DEPLOYID\r\n"
             "aws_secret_access_key = DEPLOYSECRET\r\n");
  write_file(home / ".aws/config",
             "[default]\nregion = us-east-2\n"
             "[profile deploy]\nregion = ap-south-1\n"
             "s3 =\n  endpoint_url = http://nested:1\n"
             "endpoint_url = http://minio.internal:9000\n");
  auto d = resolve_s3_config(env_of({{"HOME", home.path()}}));
  ASSERT_TRUE(d) << d.err().message;
  EXPECT_EQ(d->credentials.access_key_id, "DEFAULTID");
  EXPECT_EQ(d->region, "us-east-2");
  EXPECT_FALSE(d->path_style);

  auto p = resolve_s3_config(
      env_of({{"HOME", home.path()}, {"AWS_PROFILE", "deploy"}}));
  ASSERT_TRUE(p) << p.err().message;
  EXPECT_EQ(p->credentials.access_key_id, "DEPLOYID");
  EXPECT_EQ(p->credentials.secret_access_key, "DEPLOYSECRET");
  EXPECT_EQ(p->region, "ap-south-1");
  EXPECT_EQ(p->endpoint, "http://minio.internal:9000");
  EXPECT_TRUE(p->path_style);
  EXPECT_EQ(p->credentials_from, "profile deploy");

  auto missing = resolve_s3_config(
      env_of({{"HOME", home.path()}, {"AWS_PROFILE", "nope"}}));
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.err().message.find("profile nope"), std::string::npos);
}

TEST(S3Config, NoCredentialsSaysWhereItLookedWithoutASecret) {
  auto c = resolve_s3_config(
      env_of({{"HOME", "/nonexistent"}, {"AWS_ACCESS_KEY_ID", "AKIDONLY"}}));
  ASSERT_FALSE(c);
  EXPECT_NE(c.err().message.find("AWS_SECRET_ACCESS_KEY"), std::string::npos);
  EXPECT_NE(c.err().message.find("/nonexistent/.aws/credentials"),
            std::string::npos);
}

TEST(S3Config, AnEndpointMustBeSchemeHostAndPort) {
  for (const char* bad : {"ftp://h", "127.0.0.1:9000", "http://h:1/path"}) {
    auto c = resolve_s3_config(env_of({{"AWS_ACCESS_KEY_ID", "A"},
                                       {"AWS_SECRET_ACCESS_KEY", "S"},
                                       {"AWS_ENDPOINT_URL_S3", bad}}));
    EXPECT_FALSE(c) << bad;
  }
}

TEST(S3Config, IniValueReadsOneSectionsKeys) {
  const char* text =
      "; comment\n[a]\nk = 1\n[ b ]\nK = two words \n  nested = no\nk=3\n";
  EXPECT_EQ(ini_value(text, "a", "k"), "1");
  EXPECT_EQ(ini_value(text, "b", "k"), "3");  // the last one counts
  EXPECT_EQ(ini_value(text, "b", "nested"), std::nullopt);
  EXPECT_EQ(ini_value(text, "c", "k"), std::nullopt);
}

}  // namespace
}  // namespace sitemill::store
