// sitemap-generator (the library behind sitemap-generator-cli) with the one
// setting its CLI cannot change: simplecrawler's 250 ms between requests,
// which caps the CLI at 4 requests a second whatever --max-concurrency says.
// Otherwise the CLI's defaults: query strings stripped, Last-Modified read.
//
// usage: node peer_sitemap_generator.js URL FILEPATH CONCURRENCY
// (loads the library from $PEERS_DIR/node_modules, as the other peers do)
'use strict';
const path = require('path');
const SitemapGenerator = require(path.join(process.env.PEERS_DIR, 'node_modules', 'sitemap-generator'));

const [url, filepath, concurrency] = process.argv.slice(2);
if (!url || !filepath || !(Number(concurrency) > 0)) {
  console.error('usage: node peer_sitemap_generator.js URL FILEPATH CONCURRENCY');
  process.exit(2);
}
const generator = SitemapGenerator(url, {
  filepath,
  maxConcurrency: Number(concurrency),
  stripQuerystring: true,
  lastMod: true,
});
generator.getCrawler().interval = 0;
generator.on('error', (e) => console.error(`error: ${e.url} (${e.code})`));
generator.on('done', () => process.exit(0));
generator.start();
