// API keys: random, shown once, stored only as a SHA-256 hash. The prefix identifies a key in listings.
import { randomBytes, createHash } from 'node:crypto';

const KEY_PREFIX = 'sl_';
/** Characters of the key kept in clear for listings (`sl_` plus 8). */
const SHOWN = 11;

export function generateKey(): string {
  return KEY_PREFIX + randomBytes(24).toString('base64url');
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function keyPrefix(key: string): string {
  return key.slice(0, SHOWN);
}

/** A string shaped like one of our keys (cheap check before hashing a header). */
export function looksLikeKey(key: string): boolean {
  return key.startsWith(KEY_PREFIX) && key.length === KEY_PREFIX.length + 32 && /^[A-Za-z0-9_-]+$/.test(key.slice(KEY_PREFIX.length));
}
