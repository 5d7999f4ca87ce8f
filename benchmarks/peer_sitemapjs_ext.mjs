#!/usr/bin/env node
// The peer for the extension benchmark: sitemap.js (npm "sitemap", 9.x)
// writing split sitemaps + index with SitemapAndIndexStream from the JSONL
// that make_ext_input.py makes, each page's `alternates` as sitemap.js
// `links` (<xhtml:link rel="alternate" hreflang href>) and its `images` as
// `img` (<image:image><image:loc>). The same pipeline as the shared
// peer_sitemapjs.mjs (README way, optional --coalesce), reading JSONL.
//
// usage: node peer_sitemapjs_ext.mjs INPUT.jsonl OUTDIR [--no-gzip] [--coalesce]
// sitemap.js is loaded from $PEERS_DIR/node_modules/sitemap (/tmp/bench/peers).
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createGzip } from 'node:zlib';
import { Transform, PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const args = process.argv.slice(2);
const positional = args.filter((a) => !a.startsWith('--'));
const gzip = !args.includes('--no-gzip');
const coalesce = args.includes('--coalesce');
if (positional.length !== 2) {
  console.error('usage: node peer_sitemapjs_ext.mjs INPUT.jsonl OUTDIR [--no-gzip] [--coalesce]');
  process.exit(2);
}
const [input, outDir] = positional.map((p) => resolve(p));
mkdirSync(outDir, { recursive: true });

const peersDir = process.env.PEERS_DIR || '/tmp/bench/peers';
const { SitemapAndIndexStream, SitemapStream, ReadlineStream } = await import(
  pathToFileURL(join(peersDir, 'node_modules/sitemap/dist/esm/index.js')).href
);

const hostname = 'https://www.example.com';
const publicBase = 'https://www.example.com/sitemaps/';
const ext = gzip ? '.xml.gz' : '.xml';

let items = 0;
const jsonToItems = new Transform({
  objectMode: true,
  transform(line, _enc, cb) {
    if (line.length === 0) return cb();
    const r = JSON.parse(line);
    items++;
    cb(null, {
      url: r.loc,
      lastmod: r.lastmod,
      changefreq: r.changefreq,
      priority: Number(r.priority),
      links: Object.entries(r.alternates || {}).map(([lang, url]) => ({ lang, url })),
      img: (r.images || []).map((url) => ({ url })),
    });
  },
});

// Joins small chunks into >= 64 KiB Buffers (only with --coalesce): without
// it each of sitemap.js's tiny chunks costs one zlib call.
function coalescer(min = 64 * 1024) {
  let parts = [];
  let size = 0;
  return new Transform({
    writableObjectMode: true,
    transform(chunk, _enc, cb) {
      parts.push(chunk);
      size += chunk.length;
      if (size < min) return cb();
      const out = Buffer.from(parts.join(''));
      parts = [];
      size = 0;
      cb(null, out);
    },
    flush(cb) {
      cb(null, parts.length ? Buffer.from(parts.join('')) : undefined);
    },
  });
}

const sms = new SitemapAndIndexStream({
  limit: 50000,
  lastmodDateOnly: false,
  getSitemapStream: (i) => {
    const sitemapStream = new SitemapStream({ hostname });
    const name = `sitemap-${i}${ext}`;
    const file = createWriteStream(join(outDir, name));
    const src = coalesce ? sitemapStream.pipe(coalescer()) : sitemapStream;
    const ws = gzip ? src.pipe(createGzip()).pipe(file) : src.pipe(file);
    return [new URL(name, publicBase).toString(), sitemapStream, ws];
  },
});

const t0 = process.hrtime.bigint();
await pipeline(
  new ReadlineStream({ input: createReadStream(input) }),
  jsonToItems,
  sms,
  gzip ? createGzip() : new PassThrough(),
  createWriteStream(join(outDir, `sitemap-index${ext}`)),
);
const secs = Number(process.hrtime.bigint() - t0) / 1e9;
console.error(`sitemap.js: ${items} urls with extensions, gzip=${gzip}, ${secs.toFixed(3)} s`);
