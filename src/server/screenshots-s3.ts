// Screenshots in S3-compatible storage (`--screenshots s3://bucket/prefix`), shared by every instance.
// Each PNG is put under `<prefix>screenshots/<expires unix s>-<id>.png` and handed out as a presigned
// GET URL that lapses at `expires_at`: the image never passes through the API again. Credentials and
// region come from the AWS SDK's usual chain (AWS_ACCESS_KEY_ID, AWS_REGION, instance roles...);
// `--s3-endpoint` points at MinIO, Ceph or another S3-compatible server (path-style addressing then).
//
// Cleanup: the expiry leads the key with a fixed width, so keys sort by expiry and a sweep lists from
// the start of the prefix and deletes until the first live one. Every instance sweeps, so deleting an
// object another instance deleted first is harmless. A bucket lifecycle rule (expire objects under the
// prefix after 8 days, past the longest TTL) is the backstop when no instance runs (docs/deploy.md).
import { randomBytes } from 'node:crypto';
import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { SightlineError } from '../schema/errors.ts';
import { sweepEvery, blobRef, BLOB_REF, type ScreenshotStore } from './screenshot-store.ts';
import { parseS3Url } from './config.ts';

/** Seconds since the epoch, fixed width so keys sort by expiry (10 digits last until the year 2286). */
const stamp = (s: number) => String(s).padStart(10, '0');

export function openS3Screenshots(url: string, endpoint: string, ttlSeconds: number): ScreenshotStore {
  const { bucket, prefix } = parseS3Url(url);
  const client = new S3Client({
    region: process.env.AWS_REGION || 'us-east-1',
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
  });
  const dir = `${prefix}screenshots/`;
  const blobs = `${prefix}blobs/`;

  /** Deletes the expired objects under a folder whose names start with their expiry. */
  async function sweepUnder(dir: string): Promise<number> {
    const now = Math.floor(Date.now() / 1000);
    let deleted = 0;
    for (let token: string | undefined, done = false; !done;) {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: dir, ContinuationToken: token }));
      const expired: { Key: string }[] = [];
      for (const o of page.Contents ?? []) {
        const expires = Number(/^(\d{10})-/.exec(o.Key!.slice(dir.length))?.[1]);
        if (!(expires <= now)) { done = true; break; } // sorted by expiry: the rest are live
        expired.push({ Key: o.Key! });
      }
      if (expired.length) {
        await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: expired, Quiet: true } }));
        deleted += expired.length;
      }
      token = page.NextContinuationToken;
      if (!token) done = true;
    }
    return deleted;
  }
  const sweep = async () => (await sweepUnder(dir)) + (await sweepUnder(blobs));
  const stop = sweepEvery(sweep);

  return {
    async save(png) {
      const signedAt = Math.floor(Date.now() / 1000);
      const expires = signedAt + ttlSeconds;
      const key = `${dir}${stamp(expires)}-${randomBytes(24).toString('base64url')}.png`;
      try {
        await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: png, ContentType: 'image/png' }));
        // The presigned URL counts its lifetime from the signing time, so it lapses at `expires`.
        const signed = await getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: key }), { expiresIn: ttlSeconds, signingDate: new Date(signedAt * 1000) });
        return { url: signed, expires_at: new Date(expires * 1000).toISOString() };
      } catch (err) {
        // Transient on a healthy bucket: a retryable 503 (the hold is voided, nothing is charged).
        const busy = new SightlineError('busy', `Screenshot storage did not answer (${(err as Error).message}); retry later, or ask for screenshot_delivery "base64"`);
        busy.retryAfter = 1;
        throw busy;
      }
    },
    async putBlob(data, ttlSeconds) {
      const ref = blobRef(ttlSeconds);
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: `${blobs}${ref}`, Body: data, ContentType: 'application/json' }));
      return ref;
    },
    async getBlob(ref) {
      if (!BLOB_REF.test(ref) || Number(ref.slice(0, 10)) <= Date.now() / 1000) return undefined;
      try {
        const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: `${blobs}${ref}` }));
        return Buffer.from(await got.Body!.transformToByteArray());
      } catch (err) {
        if ((err as { name?: string }).name === 'NoSuchKey') return undefined;
        throw err;
      }
    },
    route: () => { throw new SightlineError('not_found', 'Screenshots are served from the S3 bucket: use the URL the response gave'); },
    sweep,
    close: () => { stop(); client.destroy(); },
  };
}
