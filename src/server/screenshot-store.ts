// What both screenshot stores (screenshots.ts: files; screenshots-s3.ts: S3) are and share: the store
// interface and the periodic sweep of expired screenshots. Its own module so that neither store imports
// the other (the S3 one loads only when configured).
import { randomBytes } from 'node:crypto';
import type { Route } from './http.ts';

/** How often expired screenshots are deleted. */
const SWEEP_MS = 60_000;

export interface StoredScreenshot { url: string; expires_at: string }

export interface ScreenshotStore {
  save(png: Buffer, origin: string): Promise<StoredScreenshot>;
  /** Keeps bytes for `ttlSeconds` in the same store (large cached observe results); resolves their reference. */
  putBlob(data: Buffer, ttlSeconds: number): Promise<string>;
  /** The bytes behind a reference, or undefined when they expired or never were. */
  getBlob(ref: string): Promise<Buffer | undefined>;
  /** GET /v1/screenshots/* (files; S3 URLs go to the bucket, so this route answers 404 there). */
  route: Route;
  /** Deletes expired screenshots; resolves how many. */
  sweep(): Promise<number>;
  close(): void;
}

/** Sweeps now and every SWEEP_MS; the returned function stops it. Failures are retried next time. */
export function sweepEvery(sweep: () => Promise<number>): () => void {
  const run = () => { sweep().catch(() => { /* the next sweep retries */ }); };
  const timer = setInterval(run, SWEEP_MS);
  timer.unref();
  run();
  return () => clearInterval(timer);
}

/** A blob's reference: its expiry (unix s, fixed width so names sort by it) and an unguessable id. */
export const BLOB_REF = /^\d{10}-[A-Za-z0-9_-]{32}$/;
export const blobRef = (ttlSeconds: number) => `${String(Math.ceil(Date.now() / 1000) + ttlSeconds).padStart(10, '0')}-${randomBytes(24).toString('base64url')}`;
