// The settle wait before and after issue 43, in one run: two real `sightline serve` processes (the built
// CLI of this checkout, and that of BENCH_SETTLE_BASE, default the commit before the change, unpacked with
// `git archive` into a temporary folder and built there), map requests back to back, the two servers
// alternating page by page (order rotating by round), on: the fixture pages of bench:map-latency; pages
// that render late or keep timers running (bench-only, inline below: a static page with a heartbeat poll,
// an animation-frame loop, single-page apps rendering after a fetch, a frame chain, timer steps and a
// poll); and 50 WCXB development pages of the tune part served offline from localhost (bench/wcxb-pages.ts).
// Reported: `timings_ms.settle` (the settle wait as the server measures it) per set, its distribution,
// the map latency as the caller sees it (p50, p90, p95 back to back), each phase's p50 and p95, how often
// a late page's rendered content was missing from the map, and the maps themselves compared (elements
// and boxes, before against after, and each side's two rounds against each other for the pages' own noise).
// Run: npm run bench:settle. Env: BENCH_SETTLE_ROUNDS (default 2), BENCH_SETTLE_REAL (default 50),
// BENCH_SETTLE_BASE (a commit). Writes bench/results/settle.json and .md.
import { writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { serveFixtures } from '../test/helpers/fixtures.ts';
import { startServer, createKey, removeDataDir, observe, type ServerProcess } from '../test/helpers/server.ts';
import { serveRealPages, type RealPageServer } from './wcxb-pages.ts';
import { wcxbAvailable, WCXB_DIR } from './read/wcxb-eval.ts';
import { quantile } from './stats.ts';
import { builtCheckout } from './old-checkout.ts';

const BASE = process.env.BENCH_SETTLE_BASE ?? 'b9c6a2e';
const ROUNDS = Number(process.env.BENCH_SETTLE_ROUNDS ?? 2);
const REAL = Number(process.env.BENCH_SETTLE_REAL ?? 50);
const FIXTURES = ['search', 'login', 'shop', 'shadow', 'frames', 'long', 'captcha', 'consent', 'big'];

const shell = (body: string) => `<!doctype html><html><head><title>t</title></head><body><h1>Late</h1><a href="/x">Home</a>${body}</body></html>`;
/** Inline pages: name, HTML, the texts a rendered map must hold. */
const LATE: [string, string, string[]][] = [
  ['heartbeat', shell('<p>Static text.</p><button>Static action</button><script>(function beat() { window.beats = (window.beats || 0) + 1; setTimeout(beat, 50); })();</script>'), ['Static action']],
  ['frame-loop', shell('<button>Loop page</button><script>(function loop() { window.n = (window.n || 0) + 1; requestAnimationFrame(loop); })();</script>'), ['Loop page']],
  ['spa-fetch', shell(`<div id="root">Loading</div><script>fetch('/slow-data').then((r) => r.json()).then((d) => requestAnimationFrame(() => {
    document.getElementById('root').innerHTML = '<button>' + d.label + '</button>'; }));</script>`), ['Fetched offer']],
  ['spa-frames', shell(`<div id="root"></div><script>let n = 0; (function frame() { if (++n < 7) { requestAnimationFrame(frame); return; }
    document.getElementById('root').innerHTML = '<button>Framed offer</button>'; })();</script>`), ['Framed offer']],
  ['spa-steps', shell(`<ul id="list"></ul><script>let i = 0; (function step() { const li = document.createElement('li');
    li.innerHTML = '<a href="/row/' + (++i) + '">Row ' + i + '</a>'; document.getElementById('list').append(li); if (i < 8) setTimeout(step, 50); })();</script>`), ['Row 8']],
  ['spa-poll', shell(`<div id="root"></div><script>setTimeout(() => { window.flag = 1; }, 250);
    (function check() { if (window.flag) document.getElementById('root').innerHTML = '<button>Polled offer</button>'; else setTimeout(check, 40); })();</script>`), ['Polled offer']],
  // The same poll when a 60 ms task lets its step and the flag's timer fire together (the race fixed by the event count).
  ['spa-poll-burst', shell(`<div id="root"></div><script>setTimeout(() => { window.flag = 1; }, 130); let n = 0;
    (function check() { if (window.flag) { document.getElementById('root').innerHTML = '<button>Burst offer</button>'; return; }
      setTimeout(check, 40); if (++n === 3) { const end = performance.now() + 60; while (performance.now() < end); } })();</script>`), ['Burst offer']],
];

/** This checkout's base commit, built in a temporary folder (node_modules shared). */
function buildBase(): { cli: string; remove(): void } {
  const { dir, remove } = builtCheckout(BASE, 'sightline-settle-base-');
  if (!existsSync(join(dir, 'build', 'cli.js'))) throw new Error(`building ${BASE} failed`);
  return { cli: join(dir, 'build', 'cli.js'), remove };
}

const late = createServer((req, res) => {
  if (req.url === '/slow-data') { setTimeout(() => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"label":"Fetched offer"}'); }, 300); return; }
  const page = LATE.find(([name]) => req.url === `/${name}`);
  res.writeHead(page ? 200 : 404, { 'content-type': 'text/html' });
  res.end(page?.[1] ?? 'not found');
});
await new Promise<void>((r) => late.listen(0, '127.0.0.1', () => r()));
const lateUrl = `http://127.0.0.1:${(late.address() as { port: number }).port}`;
const fx = await serveFixtures();
let real: RealPageServer | undefined;
if (wcxbAvailable()) real = await serveRealPages(REAL);
else console.log(`real pages skipped: no WCXB checkout at ${WCXB_DIR}/dev (set WCXB_DIR)`);

interface Target { set: string; name: string; url: string; expect: string[] }
const targets: Target[] = [
  ...FIXTURES.map((p) => ({ set: 'fixtures', name: p, url: `${fx.url}/${p}.html`, expect: [] })),
  ...LATE.map(([name, , expect]) => ({ set: 'late and timer pages', name, url: `${lateUrl}/${name}`, expect })),
  ...(real?.urls ?? []).map((u) => ({ set: 'WCXB dev (tune)', name: u.id, url: u.url, expect: [] })),
];
const SETS = [...new Set(targets.map((t) => t.set))];
const SIDES = ['before', 'after'] as const;
const flags = ['--egress-allow', '127.0.0.1/32', '--rate-limit', '100000', '--rate-burst', '100000', '--log-level', 'warn'];

const base = buildBase();
const servers: Partial<Record<typeof SIDES[number], ServerProcess>> = {};
const keys: Record<string, string> = {};
const settle: Record<string, number[]> = {}, latency: Record<string, number[]> = {}, missing: Record<string, number> = {};
/** Where a map's time went: the server's phases, and the rest (context wait and close, HTTP, JSON). */
const PHASES = ['navigation', 'settle', 'collection', 'ranking', 'other'] as const;
const phases: Record<string, Record<typeof PHASES[number], number[]>> = {};
/** The map's elements (limit 200) of the first round, per page and side: the geometry compared. */
interface Mapped { role: string; text: string; bbox: { x: number; y: number; width: number; height: number }; is_occluded: boolean }
const outputs: Record<string, Mapped[]> = {};
const loads = [loadavg()[0]];
try {
  servers.before = await startServer(flags, { cli: base.cli });
  servers.after = await startServer(flags);
  for (const side of SIDES) keys[side] = await createKey(servers[side]!.dataDir, 10_000_000);
  const map = async (side: typeof SIDES[number], t: Target, keep: boolean, round = -1) => {
    const t0 = performance.now();
    const r = await observe(servers[side]!, keys[side], { url: t.url, mode: 'map', options: { limit: 200 } });
    const ms = performance.now() - t0;
    if (r.status !== 200) { process.stderr.write(`\n${side} ${t.set} ${t.name}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}\n`); return; }
    if (!keep) return;
    (settle[`${t.set}|${side}`] ??= []).push(r.body.timings_ms.settle);
    (latency[`${t.set}|${side}`] ??= []).push(ms);
    const tm = r.body.timings_ms as Record<string, number>;
    const ph = (phases[`${t.set}|${side}`] ??= { navigation: [], settle: [], collection: [], ranking: [], other: [] });
    for (const k of PHASES) ph[k].push(k === 'other' ? ms - tm.total : tm[k]);
    const texts = new Set((r.body.interactable_elements as { text: string }[]).map((e) => e.text));
    if (round >= 0 && round < 2) outputs[`${t.set}|${t.name}|${side}|${round}`] = r.body.interactable_elements as Mapped[];
    if (t.expect.some((w) => !texts.has(w))) missing[`${t.set}|${side}`] = (missing[`${t.set}|${side}`] ?? 0) + 1;
  };
  for (const side of SIDES) for (const t of targets.slice(0, 3)) await map(side, t, false); // warm
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, t] of targets.entries()) {
      for (const side of (round + i) % 2 ? [...SIDES].reverse() : SIDES) await map(side, t, true, round);
      process.stderr.write(`\rsettle: round ${round + 1}/${ROUNDS}, page ${i + 1}/${targets.length}   `);
    }
    loads.push(loadavg()[0]);
  }
  process.stderr.write('\n');
} finally {
  for (const s of Object.values(servers)) { await s.stop(); removeDataDir(s.dataDir); }
  base.remove();
  await real?.close();
  await fx.close();
  late.close();
}

const f0 = (x: number) => x.toFixed(0);
const rows = SETS.flatMap((set) => SIDES.map((side) => {
  const s = settle[`${set}|${side}`] ?? [], l = latency[`${set}|${side}`] ?? [];
  return { set, side, n: s.length, p10: quantile(s, 0.1), p50: quantile(s, 0.5), p90: quantile(s, 0.9), max: Math.max(...s), over500: s.filter((x) => x >= 500).length,
    mean: s.reduce((a, b) => a + b, 0) / (s.length || 1), latencyP50: quantile(l, 0.5), latencyP90: quantile(l, 0.9), latencyP95: quantile(l, 0.95), missing: missing[`${set}|${side}`] ?? 0 };
}));
const lines = [
  `Before: ${BASE} (built from git). After: this checkout. ${ROUNDS} rounds, back to back, servers alternating page by page; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}.`,
  '',
  '| pages | settle | maps | settle p10 ms | p50 | p90 | max | mean | settles ≥ 500 ms | map p50 ms (back to back) | map p90 | map p95 | late content missing |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.set} | ${r.side} | ${r.n} | ${f0(r.p10)} | ${f0(r.p50)} | ${f0(r.p90)} | ${f0(r.max)} | ${f0(r.mean)} | ${r.over500} | ${f0(r.latencyP50)} | ${f0(r.latencyP90)} | ${f0(r.latencyP95)} | ${r.missing} |`),
];
lines.push('', 'Where the map\'s time goes (each phase\'s p50 / p95, ms; other: context wait and close, HTTP, JSON):', '',
  `| pages | side | ${PHASES.join(' | ')} |`, `|---|---|${PHASES.map(() => '---').join('|')}|`,
  ...SETS.flatMap((set) => SIDES.map((side) => `| ${set} | ${side} | ${PHASES.map((k) => `${f0(quantile(phases[`${set}|${side}`]?.[k] ?? [], 0.5))} / ${f0(quantile(phases[`${set}|${side}`]?.[k] ?? [], 0.95))}`).join(' | ')} |`)));

// Geometry, before against after (first round): the elements matched by role and text (in order among
// equals), those only one side has, and matched ones whose box moved more than 1 px or whose occlusion differs.
// The same side's two rounds, compared the same way, are the run-to-run noise of the pages themselves.
const PAIRS: [string, string, string][] = [['before / after (round 1)', 'before|0', 'after|0'], ['before / after (round 2)', 'before|1', 'after|1'],
  ['before, round 1 / round 2', 'before|0', 'before|1'], ['after, round 1 / round 2', 'after|0', 'after|1']];
const geometry = SETS.flatMap((set) => PAIRS.map(([label, x, y]) => {
  const g = { set, label, pages: 0, same: 0, elements: 0, onlyBefore: 0, onlyAfter: 0, moved: 0, occlusion: 0, differing: [] as string[] };
  for (const t of targets.filter((x) => x.set === set)) {
    const a = outputs[`${set}|${t.name}|${x}`], b = outputs[`${set}|${t.name}|${y}`];
    if (!a || !b) continue;
    g.pages++;
    const key = (e: Mapped) => `${e.role}|${e.text}`;
    const pool = new Map<string, Mapped[]>();
    for (const e of b) (pool.get(key(e)) ?? pool.set(key(e), []).get(key(e))!).push(e);
    let diff = 0;
    for (const e of a) {
      const m = pool.get(key(e))?.shift();
      if (!m) { g.onlyBefore++; diff++; continue; }
      g.elements++;
      if (['x', 'y', 'width', 'height'].some((k) => Math.abs(e.bbox[k as 'x'] - m.bbox[k as 'x']) > 1)) { g.moved++; diff++; }
      if (e.is_occluded !== m.is_occluded) { g.occlusion++; diff++; }
    }
    for (const rest of pool.values()) { g.onlyAfter += rest.length; diff += rest.length; }
    if (diff) g.differing.push(`${t.name} (${diff})`); else g.same++;
  }
  return g;
}));
lines.push('', 'The maps compared (up to 200 elements a page; elements matched by role and text, in order among equals; "only first/second": in one map only):', '',
  '| pages | maps compared | pages | identical | elements matched | only first | only second | box moved > 1 px | occlusion differs | pages that differ (elements) |', '|---|---|---|---|---|---|---|---|---|---|',
  ...geometry.map((g) => `| ${g.set} | ${g.label} | ${g.pages} | ${g.same} | ${g.elements} | ${g.onlyBefore} | ${g.onlyAfter} | ${g.moved} | ${g.occlusion} | ${g.differing.join(', ') || '–'} |`));
console.log(lines.join('\n'));
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/settle.md', import.meta.url), lines.join('\n') + '\n');
writeFileSync(new URL('./results/settle.json', import.meta.url), JSON.stringify({ base: BASE, rounds: ROUNDS, loads, rows, geometry, settle, latency, phases, pages: targets.map(({ set, name }) => ({ set, name })) }, null, 1));
