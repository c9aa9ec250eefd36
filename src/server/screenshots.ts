// Visual-mode screenshots delivered by URL, in a blob store every instance shares: files (the default)
// or S3-compatible storage (screenshots-s3.ts, presigned GET URLs). `openScreenshotStore` picks one
// from `--screenshots`.
//
// Files: each PNG is stored under an unguessable id with its expiry in the file name
// (`<id>-<expires>.png` in <data-dir>/screenshots), and served at a signed URL
// (`/v1/screenshots/<id>.png?expires=<unix s>&sig=<hmac>`) until it expires, with no API key. The HMAC
// key lives in the data directory, so every worker, restart and instance sharing the directory signs and
// checks alike. Expired files are deleted by a sweep; a URL past its expiry answers 404 even before the
// sweep runs.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SightlineError } from '../schema/errors.ts';
import type { Route } from './http.ts';
import { sweepEvery, blobRef, BLOB_REF, type ScreenshotStore, type StoredScreenshot } from './screenshot-store.ts';
export { sweepEvery, blobRef, BLOB_REF, type ScreenshotStore, type StoredScreenshot } from './screenshot-store.ts';

export const SCREENSHOT_PATH = '/v1/screenshots/';
const ID = /^[A-Za-z0-9_-]{32}$/;
const blobExpired = (ref: string) => Number(ref.slice(0, 10)) <= Date.now() / 1000;

/** Where screenshots live: `files` (<data-dir>/screenshots) or `s3://bucket/prefix`. */
export interface ScreenshotConfig {
  dataDir: string;
  screenshotTtlS: number;
  screenshots: string;
  s3Endpoint: string;
}

/** The store `--screenshots` names. */
export async function openScreenshotStore(config: ScreenshotConfig): Promise<ScreenshotStore> {
  if (config.screenshots === 'files') return openFileScreenshots(config.dataDir, config.screenshotTtlS);
  const { openS3Screenshots } = await import('./screenshots-s3.ts'); // the AWS SDK loads only when used
  return openS3Screenshots(config.screenshots, config.s3Endpoint, config.screenshotTtlS);
}

function signingKey(dataDir: string): Buffer {
  const path = join(dataDir, 'screenshot-key');
  try {
    writeFileSync(path, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return Buffer.from(readFileSync(path, 'utf8').trim(), 'hex');
}

const notFound = () => new SightlineError('not_found', 'No such screenshot, or its URL has expired');

export function openFileScreenshots(dataDir: string, ttlSeconds: number): ScreenshotStore {
  const dir = join(dataDir, 'screenshots');
  mkdirSync(dir, { recursive: true });
  const key = signingKey(dataDir);
  const sign = (id: string, expires: number) => createHmac('sha256', key).update(`${id}.${expires}`).digest('base64url');
  const fileOf = (id: string, expires: number) => join(dir, `${id}-${expires}.png`);
  const blobs = join(dataDir, 'blobs');

  async function sweep(): Promise<number> {
    const now = Date.now() / 1000;
    let deleted = 0;
    const drop = (folder: string, expiresOf: (name: string) => number) => {
      let names: string[];
      try { names = readdirSync(folder); } catch { return; } // the folder went away: nothing to sweep (a save recreates it)
      for (const name of names) {
        const expires = expiresOf(name);
        if (expires && expires <= now) {
          try { unlinkSync(join(folder, name)); deleted++; } catch { /* another worker swept it */ }
        }
      }
    };
    drop(dir, (name) => Number(/-(\d+)\.png$/.exec(name)?.[1]));
    drop(blobs, (name) => Number(/^(\d{10})-/.exec(name)?.[1]));
    return deleted;
  }
  const stop = sweepEvery(sweep);

  return {
    async save(png, origin) {
      const id = randomBytes(24).toString('base64url');
      const expires = Math.ceil(Date.now() / 1000) + ttlSeconds;
      mkdirSync(dir, { recursive: true });
      writeFileSync(fileOf(id, expires), png);
      return { url: `${origin}${SCREENSHOT_PATH}${id}.png?expires=${expires}&sig=${sign(id, expires)}`, expires_at: new Date(expires * 1000).toISOString() };
    },
    async putBlob(data, ttlSeconds) {
      const ref = blobRef(ttlSeconds);
      mkdirSync(blobs, { recursive: true });
      writeFileSync(join(blobs, ref), data);
      return ref;
    },
    async getBlob(ref) {
      if (!BLOB_REF.test(ref) || blobExpired(ref)) return undefined;
      try { return readFileSync(join(blobs, ref)); } catch { return undefined; }
    },
    route: (req) => {
      const id = req.path.slice(SCREENSHOT_PATH.length).replace(/\.png$/, '');
      const query = new URLSearchParams(req.query);
      const expires = Number(query.get('expires'));
      const sig = Buffer.from(query.get('sig') ?? '');
      if (!ID.test(id) || !Number.isInteger(expires)) throw notFound();
      const expected = Buffer.from(sign(id, expires));
      if (sig.length !== expected.length || !timingSafeEqual(sig, expected)) throw notFound();
      const left = expires - Date.now() / 1000;
      if (left <= 0) {
        try { unlinkSync(fileOf(id, expires)); } catch { /* already gone */ }
        throw notFound();
      }
      let png: Buffer;
      try { png = readFileSync(fileOf(id, expires)); } catch { throw notFound(); }
      return { status: 200, body: png, contentType: 'image/png', headers: { 'cache-control': `private, max-age=${Math.floor(left)}` } };
    },
    sweep,
    close: stop,
  };
}
