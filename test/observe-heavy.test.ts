// What map's performance engine loads (issue 43), through the real server and its Chromium: images,
// media and fonts are refused inside Chromium by resource type (block-heavy.ts), on both map paths and
// with the caller's headers (whose Playwright route sees every request); the stylesheets and scripts
// that make the layout and the elements load, and the stylesheet's sizes are in the map's boxes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { startServer, createKey, removeDataDir, observe } from './helpers/server.ts';

let site: Server;
let siteUrl: string;
/** Paths the site was asked for, with the header the caller's credentials add. */
const seen: { path: string; token?: string }[] = [];
const PAGE = `<!doctype html><html><head><title>Heavy</title><link rel="stylesheet" href="/style.css"><script src="/app.js"></script></head>
<body><h1>Heavy</h1><img src="/photo.png" width="400" height="300" alt="Photo"><video src="/clip.mp4" width="320" height="180"></video>
<p class="fonted">Text in a web font.</p><button id="buy">Buy</button><div id="root"></div></body></html>`;
const FILES: Record<string, [type: string, body: string]> = {
  '/page': ['text/html', PAGE],
  '/style.css': ['text/css', '@font-face { font-family: Web; src: url(/web.woff2) format("woff2"); } .fonted { font-family: Web, sans-serif; } #buy { width: 321px; height: 47px; }'],
  '/app.js': ['text/javascript', `addEventListener('DOMContentLoaded', () => { document.getElementById('root').innerHTML = '<button>Scripted action</button>'; });`],
  '/photo.png': ['image/png', ''], '/clip.mp4': ['video/mp4', ''], '/web.woff2': ['font/woff2', ''],
};

before(async () => {
  site = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    seen.push({ path, token: req.headers['x-api-token'] as string | undefined });
    const file = FILES[path];
    res.writeHead(file ? 200 : 404, { 'content-type': file?.[0] ?? 'text/plain' });
    res.end(file?.[1] ?? '');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
});
after(() => { site.closeAllConnections(); site.close(); });

test('performance map: images, media and fonts are never requested, on either map path and with the caller\'s headers; stylesheets and scripts load and shape the map', async () => {
  for (const path of ['fast', 'legacy']) {
    const server = await startServer(['--egress-allow', '127.0.0.1/32', '--rate-limit', '1000', '--rate-burst', '1000', '--map-path', path]);
    try {
      const key = await createKey(server.dataDir, 1000);
      for (const headers of [undefined, { 'X-Api-Token': 'tok-43' }]) {
        seen.length = 0;
        const r = await observe(server, key, { url: `${siteUrl}/page`, mode: 'map', ...(headers ? { headers } : {}) });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        const paths = seen.map((s) => s.path);
        const what = `${path}, ${headers ? 'with' : 'without'} headers: ${JSON.stringify(paths)}`;
        for (const p of ['/page', '/style.css', '/app.js']) assert.ok(paths.includes(p), `${p} loaded (${what})`);
        for (const p of ['/photo.png', '/clip.mp4', '/web.woff2']) assert.ok(!paths.includes(p), `${p} not requested (${what})`);
        if (headers) assert.ok(seen.every((s) => s.token === 'tok-43'), `the caller's header on every request (${what})`);
        const elements = r.body.interactable_elements as { text: string; bbox: { width: number; height: number } }[];
        assert.ok(elements.some((e) => e.text === 'Scripted action'), `the script ran (${what})`);
        const buy = elements.find((e) => e.text === 'Buy');
        assert.deepEqual(buy && [Math.round(buy.bbox.width), Math.round(buy.bbox.height)], [321, 47], `the stylesheet sized the button (${what})`);
        // The precision engine loads them all (its screenshot and lazy content need them).
      }
      seen.length = 0;
      const full = await observe(server, key, { url: `${siteUrl}/page`, mode: 'map', options: { render_quality: 'precision' } });
      assert.equal(full.status, 200, JSON.stringify(full.body));
      for (const p of ['/photo.png', '/web.woff2']) assert.ok(seen.some((s) => s.path === p), `precision requests ${p}: ${JSON.stringify(seen.map((s) => s.path))}`);
    } finally {
      await server.stop();
      removeDataDir(server.dataDir);
    }
  }
});
