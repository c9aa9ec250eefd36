// Map on real pages, step by step (issue 43): the 20 WCXB tune pages of bench:map-latency (bench/wcxb-pages.ts,
// offline), one request at a time back to back, in process on the page runner the server builds by default
// (--map-browsers 2, --map-spares 1, --browser-pages 4, --map-path fast) behind the egress proxy, with the
// Wasm ranker: each awaited step timed (MapJob.trace), the settle's end (quiet or at its cap) and what held
// it (SettleReport), and the CPU time of this process and of Chromium per request (from /proc). With
// BENCH_MAP_BASE=<commit> that commit's map path (unpacked with git archive, its own pool and Chromiums)
// runs beside this one, the two alternating page by page with the order rotating by round; the maps are
// compared element by element (ids, roles, names, boxes).
// Run: npm run bench:map-real (WCXB_DIR names the checkout). Env: BENCH_MAP_REAL_ROUNDS (default 3), BENCH_MAP_BASE,
// SIGHTLINE_RENDER_CHROMIUM and SIGHTLINE_CHROMIUM (the binary, chosen as the server's --render-chromium and --chromium
// choose it: by default the headless shell), BENCH_MAP_BASE_CHROMIUM (the base side's; default what that commit's
// server launched: its own --render-chromium choice, or --chromium before it had one), BENCH_MAP_PROXY_CHILD=1 (the
// egress proxy in a process of its own, its CPU reported apart).
// Writes bench/results/map-real-trace.json and .md.
import { existsSync, writeFileSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createEgressGuard } from '../src/observe/egress/egress.ts';
import { startEgressProxy } from '../src/observe/egress/egress-proxy.ts';
import { loadWasmCore } from '../src/rank/load-node.ts';
import { Ranker } from '../src/rank/ranker.ts';
import { MAP_MAX_LIMIT } from '../src/schema/observe.ts';
import { serveRealPages } from './wcxb-pages.ts';
import { wcxbAvailable, WCXB_DIR } from './read/wcxb-eval.ts';
import { builtCheckout, importFrom } from './old-checkout.ts';
import { renderChromium } from '../src/observe/browser/render-chromium.ts';
import { quantile } from './stats.ts';

const ROUNDS = Number(process.env.BENCH_MAP_REAL_ROUNDS ?? 3);
const BASE = process.env.BENCH_MAP_BASE;
if (!wcxbAvailable()) { console.log(`skipped: no WCXB checkout at ${WCXB_DIR}/dev (set WCXB_DIR)`); process.exit(0); }

/** Steps in the order they happen on the fast path; MapJob.trace names each as it ends. */
const STEPS: [string, string][] = [
  ['context+page', 'context wait (a spare, or a fresh context and page)'],
  ['route', 'route + settle watcher setup'],
  ['goto', 'navigation to DOM ready'],
  ['settle-wait', 'settle wait (collector injected alongside)'],
  ['collect', 'collection (overlays and title alongside)'],
  ['rank', 'rank (Wasm core)'],
  ['other', 'other (URL check, warnings, return; context close after the answer not included)'],
];

/** CPU seconds by process (user + system, with the children each reaped: a renderer that exited counts in
 *  its parent), of this process and of the Chromium processes it started; renderers marked (a page's parse,
 *  scripts, layout and collection run on a renderer's main thread). From /proc. */
interface CpuSnap { node: number; chromium: Map<string, { t: number; renderer: boolean; type: string; root: string }> }
function cpuSnap(): CpuSnap {
  const tick = 100;
  const fields = (pid: string) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8'); return f.slice(f.lastIndexOf(')') + 2).split(' '); };
  const parent = new Map<string, string>(), time = new Map<string, number>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try { const p = fields(pid); parent.set(pid, p[1]); time.set(pid, (Number(p[11]) + Number(p[12]) + Number(p[13]) + Number(p[14])) / tick); } catch { /* gone */ }
  }
  // Chromium processes started by this one only (other sessions share the machine).
  // The process tree's root under this one (a browser): which side's Chromium the process belongs to.
  const rootOf = (pid: string) => { for (let c = pid, p = parent.get(pid), n = 0; p && n < 8; c = p, p = parent.get(p), n++) if (p === String(process.pid)) return c; return undefined; };
  const chromium = new Map<string, { t: number; renderer: boolean; type: string; root: string }>();
  for (const pid of parent.keys()) {
    const root = rootOf(pid);
    if (!root) continue;
    let type = 'browser';
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      type = /--type=([a-z-]+)/.exec(cmd)?.[1] ?? 'browser';
      if (type === 'utility') type = `utility ${/--utility-sub-type=([\w.]+)/.exec(cmd)?.[1] ?? ''}`.trim();
    } catch { /* gone */ }
    chromium.set(pid, { t: time.get(pid)!, renderer: type === 'renderer', type, root });
  }
  const self = fields('self');
  return { node: (Number(self[11]) + Number(self[12])) / tick, chromium };
}
/** CPU between two snapshots. */
function cpuBetween(a: CpuSnap, b: CpuSnap): { node: number; chromium: number; renderer: number } {
  // In all: the trees' totals (live processes' own time and what they reaped), so each CPU second counts
  // once; the renderers: each live renderer's growth (one that exited in between is left out: a lower bound).
  const sum = (s: CpuSnap) => [...s.chromium.values()].reduce((n, x) => (x.root === proxyPid ? n : n + x.t), 0);
  let renderer = 0;
  for (const [pid, x] of b.chromium) if (x.renderer) renderer += Math.max(0, x.t - (a.chromium.get(pid)?.t ?? 0));
  return { node: b.node - a.node, chromium: sum(b) - sum(a), renderer };
}

const base = BASE ? builtCheckout(BASE, 'sightline-map-base-') : undefined;
const real = await serveRealPages();
const guard = createEgressGuard(['127.0.0.1/32']);
/** BENCH_MAP_PROXY_CHILD=1: the egress proxy runs in a Node process of its own (the same module and guard), so
 *  its CPU per map is read apart from Playwright's and the page server's. */
const proxyChild = process.env.BENCH_MAP_PROXY_CHILD === '1';
const proxy = proxyChild ? await childProxy() : await startEgressProxy(guard, () => undefined);
async function childProxy(): Promise<{ url: string; pid: number; close(): Promise<void> }> {
  const src = (m: string) => JSON.stringify(fileURLToPath(new URL(`../src/observe/egress/${m}`, import.meta.url)));
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e',
    `import { createEgressGuard } from ${src('egress.ts')}; import { startEgressProxy } from ${src('egress-proxy.ts')};
     const p = await startEgressProxy(createEgressGuard(['127.0.0.1/32']), () => undefined); console.log(p.url);`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (b: Buffer) => resolve(b.toString().trim()));
    child.once('exit', () => reject(new Error('the proxy process exited')));
  });
  return { url, pid: child.pid!, close: async () => { child.kill(); } };
}
const proxyPid = 'pid' in proxy ? String(proxy.pid) : undefined;
const ranker = new Ranker(await loadWasmCore(), { limitCap: MAP_MAX_LIMIT });
const chromiumPath = process.env.SIGHTLINE_CHROMIUM ?? '/usr/bin/chromium';
const options = { executablePath: renderChromium(process.env.SIGHTLINE_RENDER_CHROMIUM ?? 'auto', chromiumPath), proxyUrl: proxy.url, size: 4, maxQueue: 16, spares: 1 };

interface Side { name: string; runner: { withPage: unknown; close(): Promise<void> }; mapPage: typeof import('../src/observe/browser/map.ts').mapPage }
const sides: Side[] = [];
{
  const { AlternatingBrowsers } = await import('../src/observe/browser/browser-pool.ts');
  const { mapPage } = await import('../src/observe/browser/map.ts');
  if (base) {
    const old = await importFrom(base.dir, 'src/observe/browser/browser-pool.ts');
    const oldMap = await importFrom(base.dir, 'src/observe/browser/map.ts');
    const chooses = existsSync(`${base.dir}/src/observe/browser/render-chromium.ts`);
    const executablePath = process.env.BENCH_MAP_BASE_CHROMIUM
      ?? (chooses ? (await importFrom(base.dir, 'src/observe/browser/render-chromium.ts')).renderChromium(process.env.SIGHTLINE_RENDER_CHROMIUM ?? 'auto', chromiumPath) : chromiumPath);
    sides.push({ name: `before (${BASE}, ${basename(executablePath)})`, runner: new old.AlternatingBrowsers({ ...options, executablePath }, 2), mapPage: oldMap.mapPage });
  }
  sides.push({ name: `this checkout (${basename(options.executablePath)})`, runner: new AlternatingBrowsers(options, 2), mapPage });
}

interface Row { side: string; id: string; round: number; total: number; steps: Record<string, number>; settle: { ok: boolean; dom: number; timers: number; frames: number; requests: number }; cpuNode: number; cpuChromium: number; cpuRenderer: number; load: number; map: string }
const rows: Row[] = [];
const once = async (side: Side, id: string, url: string, round: number, keep: boolean) => {
  const seen: Record<string, number> = {};
  const c0 = cpuSnap();
  const t0 = performance.now();
  let last = t0;
  const trace = (s: string) => { const now = performance.now(); seen[s] = (seen[s] ?? 0) + now - last; last = now; };
  const settle = { dom: 0, timers: 0, frames: 0, requests: 0, ok: false };
  const m = await side.mapPage(side.runner as never, guard, ranker, { url, engine: 'performance', limit: 50, selectors: false, screenshot: false, annotate: false,
    dismissOverlays: false, deadlineMs: 15_000, trace, settleReport: settle });
  const total = performance.now() - t0;
  const c1 = cpuBetween(c0, cpuSnap());
  if (!keep) return;
  const known = new Set(STEPS.map(([s]) => s));
  const steps: Record<string, number> = { other: 0 };
  for (const [s, ms] of Object.entries(seen)) if (known.has(s)) steps[s] = ms; else steps.other += ms;
  steps.other += total - Object.values(seen).reduce((a, b) => a + b, 0);
  const map = JSON.stringify(m.ranked.elements.map((e) => [e.id, e.role, e.name, e.text, e.bbox]));
  rows.push({ side: side.name, id, round, total, steps, settle, cpuNode: c1.node, cpuChromium: c1.chromium, cpuRenderer: c1.renderer, load: loadavg()[0], map });
};

let runStart: CpuSnap | undefined, runEnd: CpuSnap | undefined;
/** Each browser (process tree root) by the side that launched it: the sides warm up one after the other. */
const sideOfRoot = new Map<string, string>();
try {
  for (const side of sides) {
    for (const u of real.urls.slice(0, 3)) await once(side, u.id, u.url, -1, false);
    for (const x of cpuSnap().chromium.values()) if (!sideOfRoot.has(x.root) && x.root !== proxyPid) sideOfRoot.set(x.root, side.name);
  }
  runStart = cpuSnap();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [k, u] of real.urls.entries()) {
      const order = (round + k) % 2 ? [...sides].reverse() : sides;
      for (const side of order) await once(side, u.id, u.url, round, true);
    }
    process.stderr.write(`\rround ${round + 1}/${ROUNDS}`);
  }
  runEnd = cpuSnap();
  process.stderr.write('\n');
} finally {
  for (const s of sides) await s.runner.close();
  await proxy.close();
  await real.close();
  base?.remove();
}

const p50 = (xs: number[]) => quantile(xs, 0.5);
const f0 = (x: number) => x.toFixed(0);
const loads = rows.map((r) => r.load);
const md: string[] = [
  `Map (performance engine, fast path) on the 20 real pages of bench:map-latency (WCXB tune, offline), in process on the server's default runner (2 Chromiums, 1 spare each, 4 pages), one request at a time back to back, ${ROUNDS} rounds${base ? ', sides alternating page by page' : ''}; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} (1 min, 2 cores). ms, p50 over requests (p95 for the total):`,
  '',
  `| step | ${sides.map((s) => s.name).join(' | ')} |`,
  `|---|${sides.map(() => '---|').join('')}`,
  ...STEPS.map(([s, label]) => `| ${label} | ${sides.map((side) => f0(p50(rows.filter((r) => r.side === side.name).map((r) => r.steps[s] ?? 0)))).join(' | ')} |`),
  `| **total** p50 / p95 | ${sides.map((side) => { const xs = rows.filter((r) => r.side === side.name).map((r) => r.total); return `**${f0(p50(xs))}** / ${f0(quantile(xs, 0.95))}`; }).join(' | ')} |`,
  `| CPU per request, Node + Chromium (ms, p50) | ${sides.map((side) => { const rs = rows.filter((r) => r.side === side.name); return `${f0(p50(rs.map((r) => r.cpuNode * 1000)))} + ${f0(p50(rs.map((r) => r.cpuChromium * 1000)))}`; }).join(' | ')} |`,
  `| of it in renderers (ms, p50) | ${sides.map((side) => f0(p50(rows.filter((r) => r.side === side.name).map((r) => r.cpuRenderer * 1000)))).join(' | ')} |`,
  `| CPU per request in all, Node + Chromium (ms, p50 / mean) | ${sides.map((side) => { const xs = rows.filter((r) => r.side === side.name).map((r) => (r.cpuNode + r.cpuChromium) * 1000); return `${f0(p50(xs))} / ${f0(xs.reduce((a, b) => a + b, 0) / xs.length)}`; }).join(' | ')} |`,
  `| settles ended quiet / at the cap | ${sides.map((side) => { const rs = rows.filter((r) => r.side === side.name); const q = rs.filter((r) => r.settle.ok).length; return `${q} / ${rs.length - q}`; }).join(' | ')} |`,
  '',
  'Settle wait per page (ms, median over rounds; held: the in-page hold by what was pending, dom / timers / frames, and Node\'s wait for requests):',
  '',
  `| page | ${sides.map((s) => `${s.name}: settle | held dom/timers/frames/requests | total`).join(' | ')} |`,
  `|---|${sides.map(() => '---|---|---|').join('')}`,
  ...real.urls.map((u) => `| ${u.id} | ${sides.map((side) => {
    const rs = rows.filter((r) => r.side === side.name && r.id === u.id);
    const m = (f: (r: Row) => number) => f0(p50(rs.map(f)));
    return `${m((r) => r.steps['settle-wait'] ?? 0)}${rs.some((r) => !r.settle.ok) ? ' (cap)' : ''} | ${m((r) => r.settle.dom)}/${m((r) => r.settle.timers)}/${m((r) => r.settle.frames)}/${m((r) => r.settle.requests)} | ${m((r) => r.total)}`;
  }).join(' | ')} |`),
  '',
];
// Chromium's CPU over the measured rounds by side and process type, each side's own browsers (a renderer that
// exited counts in the zygote that reaped it): per request of that side, background work (the spare made, the
// used context closed) included, whichever side's request it ran beside.
const byType = new Map<string, Map<string, number>>();
if (runStart && runEnd) {
  const add = (root: string, type: string, v: number) => {
    const side = sideOfRoot.get(root) ?? 'relaunched';
    if (!byType.has(side)) byType.set(side, new Map());
    const m = byType.get(side)!;
    m.set(type, (m.get(type) ?? 0) + v);
  };
  let proxyCpu = 0;
  for (const [pid, x] of runEnd.chromium) {
    if (x.root === proxyPid) proxyCpu += x.t - (runStart.chromium.get(pid)?.t ?? 0);
    else add(x.root, x.type, x.t - (runStart.chromium.get(pid)?.t ?? 0));
  }
  for (const [pid, x] of runStart.chromium) if (!runEnd.chromium.has(pid) && x.root !== proxyPid) add(x.root, x.type, -x.t);
  md.push('Chromium CPU per request by side and process type over the measured rounds (each side\'s own browsers; ms, mean per request of that side; renderers that exited are in the zygote\'s):', '');
  for (const [side, m] of byType) {
    const n = rows.filter((r) => r.side === side).length || rows.length;
    const all = [...m.values()].reduce((a, b) => a + b, 0);
    md.push(`- ${side}: **${f0((all * 1000) / n)}** in all; ${[...m].sort((x, y) => y[1] - x[1]).map(([t, v]) => `${t} ${f0((v * 1000) / n)}`).join(', ')}`);
  }
  md.push('', proxyPid
    ? `The egress proxy's own process (BENCH_MAP_PROXY_CHILD, both sides): ${f0((proxyCpu * 1000) / rows.length)} ms per request; this process (Playwright, the page server): ${f0(((runEnd.node - runStart.node) * 1000) / rows.length)}.`
    : `This process (both sides, the egress proxy and the page server): ${f0(((runEnd.node - runStart.node) * 1000) / rows.length)} ms per request.`, '');
}
if (base) {
  const [a, b] = sides.map((s) => s.name);
  let same = 0, n = 0;
  const diff: string[] = [];
  for (const u of real.urls) for (let round = 0; round < ROUNDS; round++) {
    const x = rows.find((r) => r.side === a && r.id === u.id && r.round === round), y = rows.find((r) => r.side === b && r.id === u.id && r.round === round);
    if (!x || !y) continue;
    n++;
    if (x.map === y.map) same++; else diff.push(`${u.id}/${round + 1}`);
  }
  // Paired by page: each page's median total on each side, then the median and mean of the differences.
  const d = real.urls.map((u) => { const m = (side: string) => p50(rows.filter((r) => r.side === side && r.id === u.id).map((r) => r.total)); return m(b) - m(a); });
  md.push(`Paired by page (${b} − ${a}, each page's median total): p50 of the differences ${f0(p50(d))} ms, mean ${f0(d.reduce((x, y) => x + y, 0) / d.length)} ms; ${d.filter((x) => x < 0).length} of ${d.length} pages faster.`, '');
  md.push(`Maps (top 50: id, role, name, text, box) identical before and after, same page and round: ${same} of ${n}${diff.length ? ` (differ: ${diff.join(', ')})` : ''}.`, '');
  // The pages' own noise: each side's later rounds against its first.
  for (const side of [a, b]) {
    const moved: string[] = [];
    let k = 0;
    for (const u of real.urls) for (let round = 1; round < ROUNDS; round++) {
      const x = rows.find((r) => r.side === side && r.id === u.id && r.round === 0), y = rows.find((r) => r.side === side && r.id === u.id && r.round === round);
      if (!x || !y) continue;
      k++;
      if (x.map !== y.map) moved.push(`${u.id}/${round + 1}`);
    }
    md.push(`${side}, each later round against its first: ${k - moved.length} of ${k} identical${moved.length ? ` (differ: ${moved.join(', ')})` : ''}.`, '');
  }
}
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/map-real-trace.json', import.meta.url), JSON.stringify({ date: new Date().toISOString(), rounds: ROUNDS, base: BASE ?? null, chromiumCpuByType: Object.fromEntries([...byType].map(([side, m]) => [side, Object.fromEntries([...m].map(([t, v]) => [t, (v * 1000) / (rows.filter((r) => r.side === side).length || rows.length)]))])), rows: rows.map(({ map: _, ...r }) => r) }, null, 2) + '\n');
writeFileSync(new URL('./results/map-real-trace.md', import.meta.url), md.join('\n'));
console.log(md.join('\n'));
