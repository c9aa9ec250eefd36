// What both screenshot stores (screenshots.ts: files; screenshots-s3.ts: S3) are and share: the store
// interface and the periodic sweep of expired screenshots. Its own module so that neither store imports
// the other (the S3 one loads only when configured).
import type { Route } from './http.ts';

/** How often expired screenshots are deleted. */
const SWEEP_MS = 60_000;

export interface StoredScreenshot { url: string; expires_at: string }

export interface ScreenshotStore {
  save(png: Buffer, origin: string): Promise<StoredScreenshot>;
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
