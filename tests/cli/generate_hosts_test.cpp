// One run over several hosts (--base-url repeated): a set per host under
// OUT/HOST/, each held to its own location rule, announced in its own
// robots.txt, and each one a set `sitemill check` passes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using json = nlohmann::json;

const std::string de = "https://www.shop.de/";
const std::string fr = "https://www.shop.fr/";

set_expectations under(const std::string& base) {
  set_expectations e;
  e.base_url = base;
  return e;
}

run_result generate_hosts(const std::string& out,
                          std::vector<std::string> args) {
  std::vector<std::string> full = {"generate",   "--json", "--out",      out,
                                   "--base-url", de,       "--base-url", fr};
  full.insert(full.end(), args.begin(), args.end());
  return run_sitemill(full);
}

TEST(GenerateHosts, TwoHostsPublishTwoSetsThatEachPassCheck) {
  temp_dir t;
  write_file(t / "urls.txt",
             "https://www.shop.de/a\nhttps://www.shop.fr/b\n/c\n"
             "https://other.example/x\nhttps://WWW.SHOP.FR/e\n"
             "http://www.shop.de/f\n");
  const run_result r = generate_hosts(t / "out", {t / "urls.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;

  const published_set de_set =
      expect_valid_set(t / "out/www.shop.de", under(de));
  const published_set fr_set =
      expect_valid_set(t / "out/www.shop.fr", under(fr));
  // Relative references go to the first base.
  EXPECT_THAT(all_locs(de_set), ElementsAre(de + "a", de + "c"));
  EXPECT_THAT(all_locs(fr_set), ElementsAre(fr + "b", fr + "e"));
  for (const std::string host : {"www.shop.de", "www.shop.fr"}) {
    const run_result checked =
        run_sitemill({"check", t / ("out/" + host + "/sitemap.xml")});
    EXPECT_EQ(checked.exit_code, 0) << host << ":\n" << checked.out;
  }

  const json report = parse_report(r);
  ASSERT_EQ(report["sets"].size(), 2u);
  EXPECT_EQ(report["sets"][0]["base_url"], de);
  EXPECT_EQ(report["sets"][0]["out_dir"], t / "out/www.shop.de");
  EXPECT_EQ(report["sets"][0]["entry_url"], de + "sitemap.xml");
  EXPECT_EQ(report["sets"][0]["written"], 2);
  EXPECT_EQ(report["sets"][1]["entry_url"], fr + "sitemap.xml");
  EXPECT_EQ(report["sets"][1]["written"], 2);
  EXPECT_EQ(report["written"], 4);
  EXPECT_EQ(report["entry_url"], report["sets"][0]["entry_url"]);

  // A URL on no base's host, or on one with another scheme, is rejected
  // saying which part differs.
  ASSERT_EQ(report["rejected"].size(), 2u);
  EXPECT_EQ(report["rejected"][0]["line"], 4);
  EXPECT_THAT(report["rejected"][0]["reason"].get<std::string>(),
              HasSubstr("the host is other.example"));
  EXPECT_THAT(report["rejected"][0]["reason"].get<std::string>(),
              HasSubstr("no base URL has its scheme, host and port"));
  EXPECT_THAT(report["rejected"][1]["reason"].get<std::string>(),
              HasSubstr("the scheme is http, the base's https"));
  EXPECT_THAT(r.err, HasSubstr("published 2 files to " + t / "out/www.shop.fr" +
                               " (entry " + fr + "sitemap.xml): 2 URLs"));
  EXPECT_THAT(r.err, HasSubstr("2 sets: 4 URLs written"));
}

// Each host has its own robots.txt: "{host}" in --robots names it, and a
// path without it is refused before anything is written.
TEST(GenerateHosts, RobotsTxtIsWrittenPerHost) {
  temp_dir t;
  write_file(t / "urls.txt", "https://www.shop.de/a\nhttps://www.shop.fr/b\n");
  const run_result r = generate_hosts(
      t / "out", {"--robots", t / "out/{host}/robots.txt", t / "urls.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_raw(t / "out/www.shop.de/robots.txt"),
            "Sitemap: " + de + "sitemap.xml\n");
  EXPECT_EQ(read_raw(t / "out/www.shop.fr/robots.txt"),
            "Sitemap: " + fr + "sitemap.xml\n");
  const json report = parse_report(r);
  EXPECT_EQ(report["sets"][1]["announce"]["robots"]["path"],
            t / "out/www.shop.fr/robots.txt");

  const run_result one_file = generate_hosts(
      t / "again", {"--robots", t / "robots.txt", t / "urls.txt"});
  EXPECT_EQ(one_file.exit_code, 2);
  EXPECT_THAT(one_file.err, HasSubstr("put {host} in the path"));
  EXPECT_FALSE(std::filesystem::exists(t / "again"));
  EXPECT_FALSE(std::filesystem::exists(t / "robots.txt"));
}

// Bases nest: a URL under both goes to the deeper one, each set lists only
// its own, and one robots.txt serves both (they share a host).
TEST(GenerateHosts, NestedBasesSendEachUrlToTheDeeperOne) {
  temp_dir t;
  write_file(t / "urls.txt", "/a\n/fr/b\n/fr\n/fr/c/d\n");
  const run_result r = run_sitemill(
      {"generate", "--json", "--out", t / "out", "--base-url", de, "--base-url",
       de + "fr/", "--robots", t / "robots.txt", t / "urls.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(all_locs(expect_valid_set(t / "out/www.shop.de", under(de))),
              ElementsAre(de + "a", de + "fr"));
  EXPECT_THAT(
      all_locs(expect_valid_set(t / "out/www.shop.de/fr", under(de + "fr/"))),
      ElementsAre(de + "fr/b", de + "fr/c/d"));
  EXPECT_EQ(
      read_raw(t / "robots.txt"),
      "Sitemap: " + de + "sitemap.xml\nSitemap: " + de + "fr/sitemap.xml\n");
}

// --include/--exclude see each URL's path below its own base.
TEST(GenerateHosts, FiltersApplyBelowEachUrlsBase) {
  temp_dir t;
  write_file(t / "urls.txt",
             "https://www.shop.de/admin/x\nhttps://www.shop.fr/admin/y\n"
             "https://www.shop.fr/z\n/w\n");
  const run_result r =
      generate_hosts(t / "out", {"--exclude", "admin/", t / "urls.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(all_locs(expect_valid_set(t / "out/www.shop.de", under(de))),
              ElementsAre(de + "w"));
  EXPECT_THAT(all_locs(expect_valid_set(t / "out/www.shop.fr", under(fr))),
              ElementsAre(fr + "z"));
  EXPECT_EQ(parse_report(r)["filtered"], 2);
}

// hreflang clusters span hosts (a domain per country): every page of a
// cluster carries all its alternates, whichever set it is written to, and
// pages read before the first cluster are kept in their own sets.
TEST(GenerateHosts, HreflangClustersSpanTheHostsSets) {
  temp_dir t;
  auto line = [](const std::string& loc) {
    return "{\"loc\": \"" + loc + "\", \"alternates\": {\"de\": \"" + de +
           "p\", \"fr\": \"" + fr + "p\"}}\n";
  };
  write_file(t / "pages.jsonl", "{\"loc\": \"" + fr + "first\"}\n" +
                                    "{\"loc\": \"" + de + "first\"}\n" +
                                    line(de + "p") + line(fr + "p"));
  const run_result r = generate_hosts(t / "out", {t / "pages.jsonl"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const published_set de_set =
      expect_valid_set(t / "out/www.shop.de", under(de));
  const published_set fr_set =
      expect_valid_set(t / "out/www.shop.fr", under(fr));
  EXPECT_THAT(all_locs(de_set), ElementsAre(de + "first", de + "p"));
  EXPECT_THAT(all_locs(fr_set), ElementsAre(fr + "first", fr + "p"));
  for (const published_set* set : {&de_set, &fr_set}) {
    ASSERT_EQ(set->sitemaps().size(), 1u);
    const std::string& xml = set->sitemaps()[0]->content;
    EXPECT_THAT(xml, HasSubstr("hreflang=\"de\" href=\"" + de + "p\"/>"));
    EXPECT_THAT(xml, HasSubstr("hreflang=\"fr\" href=\"" + fr + "p\"/>"));
  }
  EXPECT_EQ(parse_report(r)["warnings"], json::array())
      << "the alternates are in the input, under a base each";
}

// A vhost log names each request's host: each page goes to its host's set,
// the deepest base on that host holding its path; a log without hosts is
// the first base's. Popularity counts a page per host.
TEST(GenerateHosts, AVhostLogListsEachHostsPagesInItsSet) {
  temp_dir t;
  auto request = [](const std::string& vhost, const std::string& path) {
    return vhost + " 203.0.113.7 - - [12/Mar/2024:10:00:00 +0000] \"GET " +
           path + " HTTP/1.1\" 200 512 \"-\" \"Mozilla/5.0 Firefox/121.0\"\n";
  };
  write_file(t / "vhost.log",
             request("www.shop.de:443", "/a") + request("www.shop.fr:443", "/a") +
                 request("www.shop.fr:443", "/a") +
                 request("WWW.SHOP.DE:80", "/fr/x") +
                 request("www.shop.it:443", "/b") +
                 request("www.shop.de:443", "/a"));
  const run_result r = run_sitemill(
      {"generate", "--json", "--out", t / "out", "--base-url", de,
       "--base-url", fr, "--base-url", de + "fr/", "--from-log",
       t / "vhost.log", "--priority", "popularity"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto de_entries =
      all_entries(expect_valid_set(t / "out/www.shop.de", under(de)));
  const auto fr_entries =
      all_entries(expect_valid_set(t / "out/www.shop.fr", under(fr)));
  const auto de_fr_entries = all_entries(
      expect_valid_set(t / "out/www.shop.de/fr", under(de + "fr/")));
  ASSERT_EQ(de_entries.size(), 1u);
  ASSERT_EQ(fr_entries.size(), 1u);
  ASSERT_EQ(de_fr_entries.size(), 1u);
  EXPECT_EQ(de_entries[0].at("loc"), de + "a");
  EXPECT_EQ(fr_entries[0].at("loc"), fr + "a");
  EXPECT_EQ(de_fr_entries[0].at("loc"), de + "fr/x");
  // Two requests each for /a on both hosts, one for /fr/x.
  EXPECT_EQ(de_entries[0].at("priority"), "1.0");
  EXPECT_EQ(fr_entries[0].at("priority"), "1.0");
  EXPECT_NE(de_fr_entries[0].at("priority"), "1.0");
  const json report = parse_report(r);
  ASSERT_EQ(report["warnings"].size(), 1u);
  EXPECT_THAT(report["warnings"][0]["reason"].get<std::string>(),
              HasSubstr("1 for another host"));
}

// A base no URL is under publishes nothing and says so; the others publish.
TEST(GenerateHosts, ABaseWithoutUrlsIsSaidAndLeftAsItWas) {
  temp_dir t;
  write_file(t / "urls.txt", "/a\n");
  const run_result r = generate_hosts(t / "out", {t / "urls.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_valid_set(t / "out/www.shop.de", under(de));
  EXPECT_FALSE(std::filesystem::exists(t / "out/www.shop.fr"));
  const json report = parse_report(r);
  EXPECT_EQ(report["sets"].size(), 1u);
  ASSERT_EQ(report["warnings"].size(), 1u);
  EXPECT_THAT(report["warnings"][0]["reason"].get<std::string>(),
              HasSubstr("no URL is under " + fr));
}

TEST(GenerateHosts, BasesThatWouldShareADirectoryAreRefused) {
  temp_dir t;
  write_file(t / "urls.txt", "/a\n");
  const run_result r =
      run_sitemill({"generate", "--out", t / "out", "--base-url", de,
                    "--base-url", "http://www.shop.de/", t / "urls.txt"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--base-url: base URLs " + de +
                               " and http://www.shop.de/ would share the "
                               "directory www.shop.de"));
  EXPECT_FALSE(std::filesystem::exists(t / "out"));

  const run_result twice =
      run_sitemill({"generate", "--out", t / "out", "--base-url", de,
                    "--base-url", "https://WWW.shop.de", t / "urls.txt"});
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_THAT(twice.err, HasSubstr("given twice"));
}

}  // namespace
}  // namespace sitemill::testing
