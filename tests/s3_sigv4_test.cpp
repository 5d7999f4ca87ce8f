// The SigV4 signer against the examples Amazon S3 documents with their
// signatures ("Signature Calculations for the Authorization Header:
// Transferring Payload in a Single Chunk", Amazon S3 API Reference): each
// stage (canonical request, string to sign, signature) must come out as
// printed there, byte for byte.
#include <gtest/gtest.h>

#include <string>

#include "store/sigv4.h"

namespace sitemill::store {
namespace {

const aws_credentials kExampleKeys{
    "AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", ""};
constexpr const char* kEmptyHash =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

sigv4_input example(std::string method, std::string uri) {
  sigv4_input in;
  in.method = std::move(method);
  in.canonical_uri = std::move(uri);
  in.amz_date = "20130524T000000Z";
  in.region = "us-east-1";
  return in;
}

// Example: GET Object (a range of test.txt).
TEST(SigV4, GetObjectExampleMatchesAwsDocumentation) {
  sigv4_input in = example("GET", "/test.txt");
  in.payload_hash = kEmptyHash;
  in.headers = {{"Host", "examplebucket.s3.amazonaws.com"},
                {"Range", "bytes=0-9"},
                {"x-amz-content-sha256", kEmptyHash},
                {"x-amz-date", "20130524T000000Z"}};
  const sigv4_result r = sign_v4(in, kExampleKeys);
  EXPECT_EQ(r.canonical_request,
            "GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\n"
            "range:bytes=0-9\n"
            "x-amz-content-sha256:"
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"
            "x-amz-date:20130524T000000Z\n\n"
            "host;range;x-amz-content-sha256;x-amz-date\n"
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(r.string_to_sign,
            "AWS4-HMAC-SHA256\n20130524T000000Z\n"
            "20130524/us-east-1/s3/aws4_request\n"
            "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
  EXPECT_EQ(r.signature,
            "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  EXPECT_EQ(r.authorization,
            "AWS4-HMAC-SHA256 "
            "Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/"
            "aws4_request,SignedHeaders=host;range;x-amz-content-sha256;"
            "x-amz-date,Signature="
            "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

// Example: PUT Object (test$file.text, whose '$' the key's encoding writes
// %24, with a Date and a storage class among the signed headers).
TEST(SigV4, PutObjectExampleMatchesAwsDocumentation) {
  const std::string body = "Welcome to Amazon S3.";
  const std::string hash = payload_sha256(body);
  EXPECT_EQ(hash,
            "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
  sigv4_input in = example("PUT", "/" + uri_encode("test$file.text", true));
  EXPECT_EQ(in.canonical_uri, "/test%24file.text");
  in.payload_hash = hash;
  in.headers = {{"Host", "examplebucket.s3.amazonaws.com"},
                {"Date", "Fri, 24 May 2013 00:00:00 GMT"},
                {"x-amz-date", "20130524T000000Z"},
                {"x-amz-storage-class", "REDUCED_REDUNDANCY"},
                {"x-amz-content-sha256", hash}};
  const sigv4_result r = sign_v4(in, kExampleKeys);
  EXPECT_EQ(r.canonical_request,
            "PUT\n/test%24file.text\n\n"
            "date:Fri, 24 May 2013 00:00:00 GMT\n"
            "host:examplebucket.s3.amazonaws.com\n"
            "x-amz-content-sha256:"
            "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072\n"
            "x-amz-date:20130524T000000Z\n"
            "x-amz-storage-class:REDUCED_REDUNDANCY\n\n"
            "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class\n"
            "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
  EXPECT_EQ(r.string_to_sign,
            "AWS4-HMAC-SHA256\n20130524T000000Z\n"
            "20130524/us-east-1/s3/aws4_request\n"
            "9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d");
  EXPECT_EQ(r.signature,
            "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
}

// Example: GET Bucket Lifecycle (a query parameter without a value).
TEST(SigV4, GetBucketLifecycleExampleMatchesAwsDocumentation) {
  sigv4_input in = example("GET", "/");
  in.query = {{"lifecycle", ""}};
  in.payload_hash = kEmptyHash;
  in.headers = {{"Host", "examplebucket.s3.amazonaws.com"},
                {"x-amz-date", "20130524T000000Z"},
                {"x-amz-content-sha256", kEmptyHash}};
  const sigv4_result r = sign_v4(in, kExampleKeys);
  EXPECT_NE(r.canonical_request.find("GET\n/\nlifecycle=\n"),
            std::string::npos);
  EXPECT_EQ(r.signature,
            "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
}

// Example: Get Bucket (List Objects): the query sorted by name.
TEST(SigV4, ListObjectsExampleMatchesAwsDocumentation) {
  sigv4_input in = example("GET", "/");
  in.query = {{"prefix", "J"}, {"max-keys", "2"}};
  in.payload_hash = kEmptyHash;
  in.headers = {{"Host", "examplebucket.s3.amazonaws.com"},
                {"x-amz-date", "20130524T000000Z"},
                {"x-amz-content-sha256", kEmptyHash}};
  const sigv4_result r = sign_v4(in, kExampleKeys);
  EXPECT_NE(r.canonical_request.find("GET\n/\nmax-keys=2&prefix=J\n"),
            std::string::npos);
  EXPECT_EQ(r.signature,
            "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
}

TEST(SigV4, UriEncodingKeepsOnlyUnreservedBytesAndTheKeysSlashes) {
  EXPECT_EQ(uri_encode("a/b c+d~e_f.g-h", true), "a/b%20c%2Bd~e_f.g-h");
  EXPECT_EQ(uri_encode("a/b", false), "a%2Fb");
  EXPECT_EQ(uri_encode("caf\xc3\xa9=*", false), "caf%C3%A9%3D%2A");
  EXPECT_EQ(canonical_query({{"prefix", "site/a b"}, {"list-type", "2"}}),
            "list-type=2&prefix=site%2Fa%20b");
}

TEST(SigV4, HeaderValuesAreTrimmedAndInnerSpacesFolded) {
  sigv4_input in = example("GET", "/k");
  in.payload_hash = kEmptyHash;
  in.headers = {{"X-Amz-Meta-Note", "  a   b  "}, {"Host", "h"}};
  const sigv4_result r = sign_v4(in, kExampleKeys);
  EXPECT_NE(r.canonical_request.find("host:h\nx-amz-meta-note:a b\n"),
            std::string::npos);
  EXPECT_EQ(r.signed_headers, "host;x-amz-meta-note");
}

TEST(SigV4, AmzDateIsUtcBasicFormat) {
  EXPECT_EQ(amz_date_of(1369353600), "20130524T000000Z");
  EXPECT_EQ(amz_date_of(1700000000), "20231114T221320Z");
}

TEST(SigV4, SignatureNeverContainsTheSecret) {
  sigv4_input in = example("GET", "/k");
  in.payload_hash = kEmptyHash;
  in.headers = {{"Host", "h"}};
  const sigv4_result r = sign_v4(in, kExampleKeys);
  EXPECT_EQ(r.authorization.find(kExampleKeys.secret_access_key),
            std::string::npos);
  EXPECT_EQ(r.canonical_request.find(kExampleKeys.secret_access_key),
            std::string::npos);
}

}  // namespace
}  // namespace sitemill::store
