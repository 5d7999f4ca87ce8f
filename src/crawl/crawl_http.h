// sitemill internals: the HTTP settings of a crawl's requests, made from its
// options in one place. Every request a crawl of `start` makes goes with
// them: its pages and robots.txt (crawl_run's fetcher), its seed sitemaps
// (crawl_seeds, on the walker's client) and an audit's own requests, the
// sitemaps' walk and the URLs the crawl did not judge (audit/). So they send
// the same User-Agent, wait as long, pin the same addresses and carry the
// crawl's credentials to the start URL's origin and to no other.
#ifndef SITEMILL_CRAWL_CRAWL_HTTP_H
#define SITEMILL_CRAWL_CRAWL_HTTP_H

#include <atomic>
#include <string>

#include "sitemill/crawl/crawl_source.h"
#include "sitemill/net/http.h"
#include "sitemill/url/url.h"

namespace sitemill::detail {

/// The User-Agent a crawl sends: crawl_options::user_agent, else
/// default_user_agent().
std::string crawl_user_agent(const crawl_options& o);

/// The HTTP settings of a crawl of `start` with `o`: its User-Agent,
/// connect and total timeouts, resolve pins, `cancel`, and the credentials
/// (o.credentials) sent with every request to `start`'s origin, every
/// redirect's hop judged again (credential_headers::hook). What is the
/// caller's own is left at http_options' defaults: the body cap, redirects
/// and tracing.
http_options crawl_http_options(const crawl_options& o,
                                const normalized_url& start,
                                const std::atomic<bool>* cancel);

}  // namespace sitemill::detail

#endif  // SITEMILL_CRAWL_CRAWL_HTTP_H
