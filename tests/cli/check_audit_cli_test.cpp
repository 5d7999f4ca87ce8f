// `sitemill check --audit` from the command line: the findings at their
// lines with their codes, and the exit code a CI pipeline reads.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/http_server.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;

TEST(CheckAuditCli, ExitsOneAndNamesEachBadUrlAtItsLine) {
  http_server server;
  server.route("/robots.txt", text_reply(404, "none\n"));
  server.route("/ok", text_reply(200, "<html><head></head><body></body></html>",
                                 "text/html"));
  server.route(
      "/sitemap.xml",
      text_reply(
          200,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
          "<url><loc>" +
              server.url("/ok") +
              "</loc></url>\n"
              "<url><loc>" +
              server.url("/gone") +
              "</loc></url>\n"
              "</urlset>\n",
          "application/xml"));
  const run_result plain = run_sitemill({"check", server.url("/sitemap.xml")});
  EXPECT_EQ(plain.exit_code, 0) << plain.out << plain.err;

  const run_result audited =
      run_sitemill({"check", "--audit", server.url("/sitemap.xml")});
  EXPECT_EQ(audited.exit_code, 1) << audited.out << audited.err;
  const std::string all = audited.out + audited.err;
  EXPECT_THAT(all, HasSubstr(":4:"));
  EXPECT_THAT(all, HasSubstr("[audit-status]"));
  EXPECT_THAT(all, HasSubstr(server.url("/gone")));
  EXPECT_THAT(all, ::testing::Not(HasSubstr(server.url("/ok") + "\" answers")));

  const run_result json =
      run_sitemill({"check", "--audit", "--json", server.url("/sitemap.xml")});
  EXPECT_EQ(json.exit_code, 1);
  EXPECT_THAT(json.out, HasSubstr("\"code\":\"audit-status\""));
}

}  // namespace
}  // namespace sitemill::testing
