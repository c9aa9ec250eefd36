// Visual screenshots in S3-compatible storage, end to end: the real server process puts each PNG in a
// bucket of a local S3-compatible server (s3rver from npm) and hands out presigned GET URLs. s3rver
// enforces a presigned URL's expiry but not its SigV4 signature, so this test checks the signature
// itself (`sigV4Valid`, from the credentials, as S3 would). Not shown here about real S3: IAM
// policies, bucket lifecycle rules (the cleanup backstop in docs/deploy.md), regions and TLS.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, createHmac } from 'node:crypto';
import S3rver from 's3rver';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { startServer, createKey, balance, removeDataDir, observe, type ServerProcess } from './helpers/server.ts';
import { serveFixtures, type FixtureServer } from './helpers/fixtures.ts';
import { readPng } from './helpers/png.ts';

const TTL_S = 2;
const BUCKET = 'shots';
const CREDS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };
let s3dir: string;
let s3: S3rver;
let endpoint: string;
let site: FixtureServer;
let server: ServerProcess;
let key: string;
let client: S3Client;

async function startS3(port = 0): Promise<string> {
  s3 = new S3rver({ address: '127.0.0.1', port, silent: true, directory: s3dir, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const address = await s3.run() as { port: number };
  return `http://127.0.0.1:${address.port}`;
}
const flags = () => ['--egress-allow', '127.0.0.1/32', '--rate-limit', '1000', '--rate-burst', '1000', '--screenshot-ttl-s', String(TTL_S),
  '--screenshots', `s3://${BUCKET}/team-a`, '--s3-endpoint', endpoint];
const objects = async () => ((await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'team-a/screenshots/' }))).Contents ?? []).map((o) => o.Key!);
const visual = (s: ServerProcess) => observe(s, key, { url: `${site.url}/login.html`, mode: 'visual', options: { limit: 3 } });

/** Whether a presigned GET URL carries a valid SigV4 query signature for the S3RVER secret (host-only
 *  signed headers, unsigned payload: what the SDK's presigner produces). */
function sigV4Valid(url: URL, secret = 'S3RVER'): boolean {
  const q = [...url.searchParams].filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => [encodeURIComponent(k), encodeURIComponent(v)]).sort(([a], [b]) => (a! < b! ? -1 : 1)).map(([k, v]) => `${k}=${v}`).join('&');
  const canonical = ['GET', url.pathname, q, `host:${url.host}`, '', 'host', 'UNSIGNED-PAYLOAD'].join('\n');
  const date = url.searchParams.get('X-Amz-Date')!;
  const scope = url.searchParams.get('X-Amz-Credential')!.split('/').slice(1).join('/');
  const toSign = ['AWS4-HMAC-SHA256', date, scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  const hmac = (k: string | Buffer, d: string) => createHmac('sha256', k).update(d).digest();
  const [day, region, service, end] = scope.split('/');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day!), region!), service!), end!);
  return createHmac('sha256', key).update(toSign).digest('hex') === url.searchParams.get('X-Amz-Signature');
}

before(async () => {
  s3dir = mkdtempSync(join(tmpdir(), 'sightline-s3-'));
  endpoint = await startS3();
  client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  site = await serveFixtures();
  server = await startServer(flags(), { env: CREDS });
  key = await createKey(server.dataDir, 100);
});

after(async () => {
  await server.stop();
  removeDataDir(server.dataDir);
  await site.close();
  client.destroy();
  await s3.close();
  rmSync(s3dir, { recursive: true, force: true });
});

test('a visual screenshot is put in the bucket and served by a presigned URL that lapses at expires_at', async () => {
  const r = await visual(server);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const shot = r.body.screenshot;
  assert.equal(shot.type, 'url');
  const url = new URL(shot.url);
  assert.equal(url.origin, endpoint, 'the image comes from the bucket, not through the API');
  assert.match(url.pathname, new RegExp(`^/${BUCKET}/team-a/screenshots/\\d{10}-[\\w-]{32}\\.png$`));
  assert.equal(url.searchParams.get('X-Amz-Expires'), String(TTL_S));
  const expires = Date.parse(shot.expires_at);
  assert.ok(expires > Date.now() && expires <= Date.now() + (TTL_S + 1) * 1000, shot.expires_at);
  assert.deepEqual(await objects(), [url.pathname.slice(`/${BUCKET}/`.length)]);

  const res = await fetch(shot.url); // no API key, no AWS credentials: the signature is the permission
  assert.equal(res.status, 200);
  const png = Buffer.from(await res.arrayBuffer());
  assert.equal(png.length, shot.size_bytes);
  assert.deepEqual([readPng(png).width, readPng(png).height], [1280, 800]);

  assert.ok(sigV4Valid(url), 'a valid SigV4 signature');
  assert.equal(sigV4Valid(url, 'another-secret'), false, 'the check can fail');
  const longer = new URL(shot.url);
  longer.searchParams.set('X-Amz-Expires', '3600');
  assert.equal(sigV4Valid(longer), false, 'the lifetime is signed: a longer one breaks the signature');

  await new Promise((res) => setTimeout(res, expires - Date.now() + 1100));
  assert.equal((await fetch(shot.url)).status, 403, 'past expires_at the URL lapses');
});

test('the sweep deletes expired screenshots from the bucket (every instance sweeps on start)', async () => {
  const r = await visual(server);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.ok((await objects()).length >= 1);
  await new Promise((res) => setTimeout(res, TTL_S * 1000 + 1100));
  // A second instance on the same bucket sweeps when it starts.
  const second = await startServer(flags(), { env: CREDS });
  try {
    for (let i = 0; i < 50 && (await objects()).length; i++) await new Promise((res) => setTimeout(res, 100));
    assert.deepEqual(await objects(), [], 'expired objects are gone');
  } finally {
    await second.stop();
    removeDataDir(second.dataDir);
  }
});

test('storage down: 503 busy with a clear message, the hold voided, nothing charged', async () => {
  const before = await balance(server.dataDir, key);
  const port = Number(new URL(endpoint).port);
  await s3.close();
  try {
    const r = await visual(server);
    assert.equal(r.status, 503, JSON.stringify(r.body));
    assert.equal(r.body.error, 'busy');
    assert.equal(r.retryAfter, '1');
    assert.match(r.body.message, /Screenshot storage did not answer.*base64/);
    assert.equal(await balance(server.dataDir, key), before, 'nothing charged');
    const inline = await observe(server, key, { url: `${site.url}/login.html`, mode: 'visual', options: { limit: 3, screenshot_delivery: 'base64' } });
    assert.equal(inline.status, 200, 'base64 delivery does not need the bucket');
  } finally {
    await startS3(port);
  }
  const again = await visual(server);
  assert.equal(again.status, 200, 'storage back: screenshots are stored again');
});

test('a bad --screenshots value stops the server with a clear message', async () => {
  await assert.rejects(startServer(['--screenshots', 'ftp://nope']), /--screenshots "ftp:\/\/nope": must be files or s3:\/\/bucket\[\/prefix\]/);
});

test('a large cached read is kept in the bucket beside the screenshots and answers the next request', async () => {
  const { createServer } = await import('node:http');
  let loads = 0;
  const page = createServer((_, res) => {
    loads++;
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<html><body><article><h1>Large</h1>${Array.from({ length: 1500 }, (_, i) => `<p>Paragraph ${i} of a page whose read is larger than a store row.</p>`).join('')}</article></body></html>`);
  });
  await new Promise<void>((r) => page.listen(0, '127.0.0.1', () => r()));
  try {
    const url = `http://127.0.0.1:${(page.address() as { port: number }).port}/large`;
    const first = await observe(server, key, { url, options: { max_age_s: 600, contentLimit: 500_000 } });
    assert.equal(first.body.cached, false);
    const blobs = ((await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'team-a/blobs/' }))).Contents ?? []);
    assert.equal(blobs.length, 1);
    assert.ok(blobs[0].Size! > 64 * 1024);
    const second = await observe(server, key, { url, options: { max_age_s: 600, contentLimit: 500_000 } });
    assert.equal(second.body.cached, true);
    assert.equal(second.body.content, first.body.content);
    assert.equal(loads, 1);
  } finally {
    page.close();
  }
});
