// The peer of benchmarks/render_bench.sh: a plain puppeteer-core crawl of a
// script-built site, as a user of puppeteer would write it, with the same
// Chromium and the same switches sitemill uses (images off, headless, no
// sandbox as root): breadth first from the start URL, TABS pages at once,
// each loaded until the network is idle (networkidle0, sitemill's
// --render-wait idle), its a[href] links in the start URL's origin followed,
// pages with a robots noindex or a canonical elsewhere left out. Prints the
// listed URLs, one a line, sorted.
//
// usage: node render_peer_puppeteer.js START_URL TABS CHROMIUM
'use strict';
const path = require('path');
const puppeteer = require(path.join(process.env.PEERS_DIR, 'node_modules', 'puppeteer-core'));

async function main() {
  const [start, tabsText, chromium] = process.argv.slice(2);
  const tabs = Number(tabsText);
  const origin = new URL(start).origin;
  const args = ['--blink-settings=imagesEnabled=false', '--disable-dev-shm-usage', '--disable-gpu'];
  if (process.getuid && process.getuid() === 0) args.push('--no-sandbox');
  const browser = await puppeteer.launch({ executablePath: chromium, headless: true, args });
  const seen = new Set([start]);
  const queue = [start];
  const listed = [];
  async function visit(url) {
    const page = await browser.newPage();
    try {
      await page.setRequestInterception(true);
      page.on('request', (r) => {
        const type = r.resourceType();
        if (type === 'image' || type === 'font' || type === 'media' || new URL(r.url()).origin !== origin)
          r.abort('blockedbyclient');
        else r.continue();
      });
      await page.goto(url, { waitUntil: 'networkidle0', timeout: 30000 });
      const facts = await page.evaluate(() => ({
        links: Array.from(document.querySelectorAll('a[href]'), (a) => a.href),
        noindex: Array.from(document.querySelectorAll('meta[name=robots]')).some((m) => /noindex/i.test(m.content)),
        canonical: (document.querySelector('link[rel=canonical]') || {}).href || '',
      }));
      for (const href of facts.links) {
        const u = new URL(href);
        u.hash = '';
        if (u.origin === origin && !seen.has(u.href)) {
          seen.add(u.href);
          queue.push(u.href);
        }
      }
      if (!facts.noindex && (!facts.canonical || facts.canonical === url)) listed.push(url);
    } finally {
      await page.close();
    }
  }
  const running = new Set();
  while (queue.length || running.size) {
    while (queue.length && running.size < tabs) {
      const p = visit(queue.shift()).catch((e) => console.error(String(e))).then(() => running.delete(p));
      running.add(p);
    }
    await Promise.race(running);
  }
  await browser.close();
  listed.sort();
  process.stdout.write(listed.join('\n') + '\n');
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
