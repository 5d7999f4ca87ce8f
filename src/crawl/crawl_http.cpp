// The HTTP settings of a crawl's requests (crawl_http.h).
#include "crawl/crawl_http.h"

#include "sitemill/net/credentials.h"

namespace sitemill::detail {

std::string crawl_user_agent(const crawl_options& o) {
  return o.user_agent.empty() ? default_user_agent() : o.user_agent;
}

http_options crawl_http_options(const crawl_options& o,
                                const normalized_url& start,
                                const std::atomic<bool>* cancel) {
  http_options h;
  h.user_agent = crawl_user_agent(o);
  h.connect_timeout = o.connect_timeout;
  h.total_timeout = o.timeout;
  h.resolve = o.resolve;
  h.cancel = cancel;
  // A request to the start URL's origin (robots.txt, a page, a sitemap
  // there) is behind the site's login too; one elsewhere (a sitemap
  // robots.txt names on another host, a redirect's target) gets nothing.
  h.headers_for = credential_headers::hook(o.credentials, start.origin());
  return h;
}

}  // namespace sitemill::detail
