// Stopping the real server (`sightline serve`, SIGTERM as an orchestrator sends it) while Chromium works:
// a map in flight is answered and charged once before the process exits, and a Chromium that no longer
// answers (stopped with SIGSTOP) cannot hold the shutdown past its deadline.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startServer, createKey, account, removeDataDir, type ServerProcess } from './helpers/server.ts';
import { serveSlowPage, type SlowSite } from './helpers/slow-site.ts';
import { descendants } from '../src/cli/children.ts';

const PAGE = '<!doctype html><title>Slow</title><h1>Slow</h1><a href="/a">First link</a><button>Go</button>';
const flags = ['--egress-allow', '127.0.0.1/32', '--rate-limit', '1000', '--rate-burst', '1000'];
let site: SlowSite;

before(async () => { site = await serveSlowPage(PAGE); });
after(() => site.close());

function map(server: ServerProcess, key: string, url: string): Promise<Response> {
  return fetch(`${server.url}/v1/observe`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url, mode: 'map', options: { limit: 5 } }),
  });
}

/** Alive and not a zombie waiting for a reaper (a container's pid 1 may never reap). */
function running(pid: number): boolean {
  try { return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8')); } catch { return false; }
}

/** A Chromium browser process, not one of its helpers (renderers, zygotes, GPU: those carry --type= and come and go). */
function isBrowser(pid: number): boolean {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return /chrom/.test(args[0]) && !args.some((a) => a.startsWith('--type='));
  } catch { return false; }
}

test('SIGTERM while a map is in flight: the map is answered and charged once, then the server exits 0', async () => {
  const server = await startServer(flags);
  try {
    const key = await createKey(server.dataDir, 10);
    await map(server, key, `${site.url}/wait/0`).then((r) => r.arrayBuffer()); // Chromium up before the timed part
    const pending = map(server, key, `${site.url}/wait/1500`);
    for (let i = 0; i < 100 && (await account(server.dataDir, key)).held === 0; i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok((await account(server.dataDir, key)).held > 0, 'the map is in flight (its hold taken)');
    const chromium = descendants(server.proc.pid!).filter(isBrowser);
    assert.ok(chromium.length > 0, 'a Chromium browser process runs');
    server.proc.kill('SIGTERM');
    // Playwright's own SIGTERM handler would close the browser here, failing the map half the time.
    await new Promise((r) => setTimeout(r, 400));
    assert.deepEqual(chromium.filter((pid) => !running(pid)), [], 'Chromium still runs while the map is drained');
    const res = await pending;
    const body = await res.json() as { status: string; credits_used: number; interactable_elements: { text?: string }[] };
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.ok(body.interactable_elements.some((e) => /First link/.test(e.text ?? '')), 'the page was read to the end');
    assert.equal(await server.exited, 0);
    const after = await account(server.dataDir, key);
    assert.deepEqual([after.credits, after.held], [10 - 2 * body.credits_used, 0], 'both maps charged once each, nothing held');
    assert.ok(server.logs.some((l) => l.msg === 'stopped'), 'a clean stop');
  } finally {
    await server.stop();
    removeDataDir(server.dataDir);
  }
});

test('a Chromium that stopped answering cannot hold the shutdown: the server exits at its deadline and Chromium goes too', async () => {
  const server = await startServer([...flags, '--shutdown-grace-ms', '500']);
  let chromium: number[] = [];
  try {
    const key = await createKey(server.dataDir, 10);
    assert.equal((await map(server, key, `${site.url}/wait/0`).then(async (r) => { await r.arrayBuffer(); return r.status; })), 200);
    chromium = descendants(server.proc.pid!);
    assert.ok(chromium.length > 0, 'Chromium runs under the server');
    // A short-lived helper process listed a moment ago may be gone already (ESRCH): it can hold nothing.
    let stopped = 0;
    for (const pid of chromium) { try { process.kill(pid, 'SIGSTOP'); stopped++; } catch (e) { if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e; } }
    assert.ok(stopped > 0, 'Chromium stopped answering');
    const t0 = Date.now();
    server.proc.kill('SIGTERM');
    const code = await Promise.race([server.exited, new Promise((r) => setTimeout(() => r('still running'), 60_000))]);
    assert.notEqual(code, 'still running', 'the server exited');
    assert.equal(code, 1, 'a shutdown cut short says so in its exit code');
    assert.ok(server.logs.some((l) => l.msg === 'shutdown timed out: exiting now'), JSON.stringify(server.logs.slice(-5)));
    let left = chromium.filter(running);
    for (let i = 0; i < 50 && left.length; i++) { await new Promise((r) => setTimeout(r, 100)); left = chromium.filter(running); }
    assert.deepEqual(left, [], 'no Chromium process outlives the server');
    assert.ok(Date.now() - t0 < 45_000, 'within the deadline, not after a hang');
  } finally {
    for (const pid of chromium) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
    await server.stop();
    removeDataDir(server.dataDir);
  }
});

test('SIGHUP (a closed terminal) stops the server as SIGTERM does: a clean stop, exit 0', async () => {
  const server = await startServer(flags);
  try {
    server.proc.kill('SIGHUP');
    assert.equal(await server.exited, 0);
    assert.ok(server.logs.some((l) => l.msg === 'shutting down: finishing in-flight requests' && (l as { signal?: string }).signal === 'SIGHUP'), JSON.stringify(server.logs.slice(-3)));
    assert.ok(server.logs.some((l) => l.msg === 'stopped'), 'a clean stop');
  } finally {
    await server.stop();
    removeDataDir(server.dataDir);
  }
});
