#include "sitemill/report/notify_json.h"

#include "report/notify_objects.h"

namespace sitemill {
namespace {

using detail::ordered_json;

status write_line(sink& out, const ordered_json& top) {
  std::string text = detail::dump_json(top);
  text.push_back('\n');
  return out.write(text.data(), text.size());
}

}  // namespace

status write_robots_json(sink& out, const robots_run& run) {
  ordered_json top = {{"dry_run", run.dry_run},
                      {"robots", detail::robots_object(run.robots)}};
  // Without --json a dry run prints the file itself on stdout; with it, the
  // file travels here so that nothing is lost.
  if (run.dry_run && run.robots.update)
    top["text"] = run.robots.update->edit.text;
  return write_line(out, top);
}

status write_ping_json(sink& out, const ping_run& run) {
  ordered_json sitemaps = ordered_json::array();
  for (const pinged_sitemap& s : run.sitemaps) {
    ordered_json verify = nullptr;
    if (run.verify) {
      sitemap_check not_fetched;
      not_fetched.url = s.url;
      not_fetched.message = "not fetched: a dry run sends nothing";
      verify = s.verified ? detail::sitemap_check_object(*s.verified, true)
                          : detail::sitemap_check_object(not_fetched, false);
    }
    ordered_json pings = ordered_json::array();
    for (const ping_report& p : s.pings)
      pings.push_back(detail::ping_object(p));
    sitemaps.push_back({{"url", s.url},
                        {"verify", std::move(verify)},
                        {"pings", std::move(pings)}});
  }
  return write_line(
      out, {{"dry_run", run.dry_run}, {"sitemaps", std::move(sitemaps)}});
}

status write_indexnow_json(sink& out, const indexnow_run& run) {
  ordered_json top = {{"dry_run", run.dry_run}};
  if (const auto& k = run.key_file) {
    top["key_file"] = {{"path", k->path},
                       {"key", k->key},
                       {"generated", k->generated},
                       {"written", !run.dry_run}};
  }
  if (run.submission)
    top["indexnow"] = detail::indexnow_object(*run.submission);
  return write_line(out, top);
}

status write_submit_json(sink& out, const submit_run& run) {
  return write_line(out, {{"dry_run", run.dry_run},
                          {"submit", detail::submit_object(run.submission)}});
}

}  // namespace sitemill
