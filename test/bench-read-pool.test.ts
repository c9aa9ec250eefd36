// The read benchmark's machinery (bench/read/pool.ts, bench/read/pages.ts): real worker threads running
// parts that answer, spin past the timeout, throw or end their thread; the per-thread CPU clock; and how
// per-page outcomes add up to a reader's row. The benchmark's numbers rest on these.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { runParts, threadCpuNs, type PartOutcome } from '../bench/read/pool.ts';
import { summarise, type PageScore } from '../bench/read/pages.ts';

const WORKER = new URL('./fixtures/bench-pool-worker.ts', import.meta.url);
/** Long enough for any answering part on a loaded machine; the spinning one never answers. */
const TIMEOUT_MS = 8000;

test('every task runs every part once; a timeout, a throw and a dead thread cost one part of one task', async () => {
  const progress: number[] = [];
  const out = await runParts<number, number>([0, 1, 2, 3, 4, 5], { entry: WORKER, size: 2, timeoutMs: TIMEOUT_MS, onTask: (done) => progress.push(done) });
  const byName = (i: number) => Object.fromEntries(out[i].map((o) => [o.name, o]));
  for (const i of [0, 1, 5]) {
    assert.deepEqual(out[i].map((o) => [o.name, o.result, o.failure]), [['double', i * 2, undefined], ['work', i, undefined], ['risky', -i, undefined]]);
  }
  // Task 2: 'double' spins forever: timed out, its worker replaced, the task goes on with the others.
  assert.equal(byName(2).double.failure, 'timeout');
  assert.equal(byName(2).work.result, 2);
  assert.equal(byName(2).risky.result, -2);
  // Task 3: 'risky' throws: reported by the worker, which carries on.
  assert.equal(byName(3).risky.failure, 'error');
  assert.equal(byName(3).risky.message, 'bad page');
  assert.equal(byName(3).double.result, 6);
  // Task 4: 'risky' ends its thread: a crash of that part only.
  assert.equal(byName(4).risky.failure, 'crash');
  assert.equal(byName(4).work.result, 4);
  for (const page of out) assert.equal(new Set(page.map((o) => o.name)).size, 3, 'each part once per task');
  assert.deepEqual(progress, [1, 2, 3, 4, 5, 6]);
  // CPU time is the part's own: 'work' does 20 times as much on task 1 as on task 0 (a fixed loop, warmed
  // before the first task, so its CPU time, unlike its wall time, does not depend on the machine's load).
  const ratio = byName(1).work.cpuNs! / byName(0).work.cpuNs!;
  assert.ok(ratio > 8 && ratio < 50, `CPU time ratio ${ratio.toFixed(1)}, expected about 20`);
});

test('stop: no task is handed out once it says so; tasks not started have no outcomes', async () => {
  let finished = 0;
  const out = await runParts<number, number>([0, 1, 5, 6, 7, 8], { entry: WORKER, size: 1, timeoutMs: TIMEOUT_MS, onTask: (done) => { finished = done; }, stop: () => finished >= 2 });
  assert.deepEqual(out.map((o) => o.length), [3, 3, 0, 0, 0, 0]);
});

test('a worker that cannot start fails the run instead of respawning forever', async () => {
  await assert.rejects(runParts<number, number>([1], { entry: new URL('./fixtures/no-such-worker.ts', import.meta.url), size: 1, timeoutMs: TIMEOUT_MS }), /failed before taking a task/);
});

test('a worker that dies before its first task fails the run and stops the others: no task is handed out after', async () => {
  const progress: number[] = [];
  // Two workers on consecutive thread ids: one dies at start, the other would read all 40 tasks (1 s or more).
  const run = runParts<number, number>(Array.from({ length: 40 }, () => 1), { entry: WORKER, size: 2, timeoutMs: TIMEOUT_MS, workerData: { failEvenThreads: true }, onTask: (done) => progress.push(done) });
  await assert.rejects(run, /failed before taking a task: worker exited with code 2/);
  const atRejection = progress.length;
  await sleep(1500);
  assert.equal(progress.length, atRejection, 'the surviving worker was stopped with the run');
  assert.ok(atRejection < 40);
});

test('threadCpuNs counts the calling thread running, not waiting', async () => {
  const a = threadCpuNs();
  assert.ok(a !== null && Number.isFinite(a), 'Linux has a per-thread clock');
  await sleep(300);
  const b = threadCpuNs()!;
  assert.ok(b - a < 100e6, `waiting 300 ms cost ${(b - a) / 1e6} ms of CPU`);
  const wall0 = performance.now();
  let x = 0;
  while (performance.now() - wall0 < 200) x++;
  const c = threadCpuNs()!;
  assert.ok(c > b && c - b <= (performance.now() - wall0) * 1e6 * 1.1, `spinning 200 ms cost ${(c - b) / 1e6} ms of CPU`);
});

test('summarise: per-type means, failures scored as empty answers, pages per CPU-second over finished pages', () => {
  const page = (reader: string, f1: number | null, cpuMs: number, failure?: 'timeout'): PartOutcome<PageScore>[] =>
    [failure ? { name: reader, failure } : { name: reader, result: { f1: f1! }, cpuNs: cpuMs * 1e6 }];
  const outcomes = [page('ours', 1, 100), page('ours', 0.5, 300), page('ours', null, 0, 'timeout'), page('ours', 0.8, 600)];
  const s = summarise('ours', outcomes, ['article', 'article', 'product', 'product'], 'word-f1');
  assert.equal(s.pages, 4);
  assert.equal(s.overall, (1 + 0.5 + 0 + 0.8) / 4);
  assert.deepEqual(s.byType, { article: 0.75, product: 0.4 });
  assert.deepEqual(s.failures, { timeout: 1, crash: 0, error: 0 });
  assert.equal(s.cpuSeconds, 1);
  assert.equal(s.pagesPerSecond, 3);
  // Shingles: precision and recall averaged apart (a failure counts recall 0, no precision), F1 of the means.
  const sh = summarise('ours', [[{ name: 'ours', result: { p: 1, r: 0.5 }, cpuNs: 1e9 }], [{ name: 'ours', failure: 'crash' }]], ['article', 'article'], 'shingles');
  assert.equal(sh.precision, 1);
  assert.equal(sh.recall, 0.25);
  assert.equal(sh.overall, 2 * 0.25 / 1.25);
  // A worker that died between parts ('*') counts for every reader.
  assert.equal(summarise('old', [[{ name: '*', failure: 'crash' }]], ['forum'], 'word-f1').failures.crash, 1);
  assert.throws(() => summarise('old', [[{ name: 'ours', result: { f1: 1 } }]], ['forum'], 'word-f1'), /no outcome/);
});
