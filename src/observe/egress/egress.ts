// The egress guard: the one check every outbound request of ours passes (the read fetcher at each
// redirect, the browser through the forward proxy). Only http(s); every address a host resolves to must
// be public; connections go to the address that was checked, never to a second lookup.
import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import { SightlineError } from '../../schema/errors.ts';

/** IPv4 ranges nobody may reach through us, with the reason a refusal gives (IANA special-purpose registry). */
const BLOCKED_V4: [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified'], ['10.0.0.0', 8, 'private'], ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'], ['169.254.0.0', 16, 'link-local / cloud metadata'], ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'], ['192.0.2.0', 24, 'documentation'], ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'], ['198.18.0.0', 15, 'benchmarking'], ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'], ['224.0.0.0', 4, 'multicast'], ['240.0.0.0', 4, 'reserved'],
];

/**
 * IPv6 is an allow-list: only global unicast (2000::/3) may be reached, less these special-purpose
 * ranges inside it. Everything outside 2000::/3 is refused by name below (loopback, unique local,
 * link-local, multicast, IPv4-compatible, SIIT, local-use NAT64...) or as "not global unicast".
 */
const BLOCKED_GLOBAL_V6: [string, number, string][] = [
  ['2001::', 23, 'IETF protocol assignment (Teredo, benchmarking, ORCHID)'], ['2001:db8::', 32, 'documentation'],
  ['2002::', 16, '6to4'], ['3fff::', 20, 'documentation'],
];

/** 16 bytes of an IPv6 address in any text form Node accepts (::, embedded dotted quad, zone ids). */
function ipv6Bytes(address: string): Uint8Array {
  const bare = address.replace(/%.*$/, '').toLowerCase();
  const words: number[] = [];
  const parse = (part: string) => {
    const out: number[] = [];
    for (const piece of part ? part.split(':') : []) {
      if (piece.includes('.')) {
        const [a, b, c, d] = piece.split('.').map(Number);
        out.push((a << 8) | b, (c << 8) | d);
      } else out.push(parseInt(piece, 16));
    }
    return out;
  };
  const gap = bare.indexOf('::');
  if (gap < 0) words.push(...parse(bare));
  else {
    const head = parse(bare.slice(0, gap)), tail = parse(bare.slice(gap + 2));
    words.push(...head, ...new Array(8 - head.length - tail.length).fill(0), ...tail);
  }
  const bytes = new Uint8Array(16);
  words.forEach((w, i) => { bytes[2 * i] = w >> 8; bytes[2 * i + 1] = w & 255; });
  return bytes;
}

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
const zeros = (n: number) => new Array<number>(n).fill(0);
const v4Of = (bytes: Uint8Array) => `${bytes[12]}.${bytes[13]}.${bytes[14]}.${bytes[15]}`;

/**
 * Classifies an IPv6 address: an IPv4 it carries that must be judged as IPv4 (IPv4-mapped and the
 * well-known NAT64 prefix, which a NAT64 gateway would forward to that IPv4), a refusal, or null
 * when it is global unicast outside the special-purpose ranges (checked by the caller).
 */
function classifyV6(bytes: Uint8Array): { v4: string } | { why: string } | null {
  if (startsWith(bytes, [...zeros(10), 0xff, 0xff])) return { v4: v4Of(bytes) }; // ::ffff:a.b.c.d
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, ...zeros(8)])) return { v4: v4Of(bytes) }; // 64:ff9b::a.b.c.d
  if (bytes.every((b) => b === 0)) return { why: 'unspecified' };
  if (startsWith(bytes, zeros(15)) && bytes[15] === 1) return { why: 'loopback' };
  if (startsWith(bytes, zeros(12))) return { why: 'IPv4-compatible (deprecated)' }; // ::a.b.c.d, e.g. [::127.0.0.1]
  if (startsWith(bytes, [...zeros(8), 0xff, 0xff, 0, 0])) return { why: 'IPv4-translated (SIIT)' }; // ::ffff:0:a.b.c.d
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, 0, 1])) return { why: 'local-use NAT64' }; // 64:ff9b:1::/48
  if ((bytes[0] & 0xfe) === 0xfc) return { why: 'private (unique local)' };
  if (bytes[0] === 0xfe && (bytes[1] & 0xc0) === 0x80) return { why: 'link-local' };
  if (bytes[0] === 0xfe && (bytes[1] & 0xc0) === 0xc0) return { why: 'site-local' };
  if (bytes[0] === 0xff) return { why: 'multicast' };
  if ((bytes[0] & 0xe0) !== 0x20) return { why: 'non-global' };
  return null;
}

export class EgressError extends Error {
  /** Why, in a few fixed words (the address range, `scheme`, `unresolvable`...): a metrics label. */
  reason = 'invalid URL';
  constructor(message: string, readonly url?: string) {
    super(message);
    this.name = 'EgressError';
  }
}

/**
 * A guard refusal as the API's error: a URL that does not parse, a name that does not resolve, or a
 * refusal. SPEC: the caller's own URL that is not http(s) is not "a valid HTTP or HTTPS URL" (400);
 * 403 is for http(s) URLs the guard refuses, and for any refused redirect (`redirected`): the caller's
 * URL was valid, the server refused to follow.
 */
export function refusalError(err: EgressError, context = '', redirected = false): SightlineError {
  if (/cannot resolve/.test(err.message)) return new SightlineError('unreachable', err.message + context);
  const invalid = !redirected && /not a valid URL|URLs are not allowed: only http/.test(err.message);
  return new SightlineError(invalid ? 'invalid_url' : 'blocked_url', err.message + context);
}

/** The URL as the guard accepts it before any lookup: it parses, is http(s) and carries no credentials
 *  (an EgressError otherwise). The route checks the caller's URL with it before holding credits. */
export function parseHttpUrl(raw: string): URL {
  let url: URL;
  try { url = new URL(raw); } catch { throw new EgressError(`not a valid URL: ${String(raw).slice(0, 200)}`); }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw Object.assign(new EgressError(`${url.protocol} URLs are not allowed: only http and https`, raw), { reason: 'scheme' });
  if (url.username || url.password) throw Object.assign(new EgressError('URLs with credentials are not allowed', raw), { reason: 'credentials' });
  return url;
}

export interface EgressGuard {
  /** Why an address may not be reached, or null when it may. */
  refuse(address: string): string | null;
  /** Resolves a host once and returns an address that may be reached; throws EgressError otherwise. */
  resolve(host: string): Promise<{ address: string; family: 4 | 6 }>;
  /** Checks a URL's scheme and host; returns the URL and the address to connect to. */
  check(raw: string): Promise<{ url: URL; address: string; family: 4 | 6 }>;
}

/** How the operator opens a refused address (the caller cannot; README "Try it on a local page"). */
function openHint(address: string, why: string): string {
  if (why === 'not an IP address') return '';
  const cidr = `${address}/${isIP(address) === 6 ? 128 : 32}`;
  return ` (the server's operator can open it with \`sightline serve --egress-allow ${cidr}\` or SIGHTLINE_EGRESS_ALLOW=${cidr})`;
}

function subnet(net: string, prefix: number, type: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  list.addSubnet(net, prefix, type);
  return list;
}

/**
 * `allow`: CIDRs callers may reach even though they are blocked (SIGHTLINE_EGRESS_ALLOW; tests use it
 * for the loopback server). Nothing else opens the guard.
 */
export function createEgressGuard(allow: string[] = []): EgressGuard {
  const blockedV4 = BLOCKED_V4.map(([net, prefix, reason]) => ({ list: subnet(net, prefix, 'ipv4'), reason }));
  const blockedV6 = BLOCKED_GLOBAL_V6.map(([net, prefix, reason]) => ({ list: subnet(net, prefix, 'ipv6'), reason }));
  const allowed = new BlockList();
  for (const cidr of allow) {
    const [net, prefix] = cidr.trim().split('/');
    const type = isIP(net) === 6 ? 'ipv6' : 'ipv4';
    if (!isIP(net)) throw new Error(`SIGHTLINE_EGRESS_ALLOW: "${cidr}" is not a CIDR`);
    allowed.addSubnet(net, prefix === undefined ? (type === 'ipv6' ? 128 : 32) : Number(prefix), type);
  }

  function refuse(address: string): string | null {
    let ip = address.replace(/^\[|\]$/g, '');
    if (!isIP(ip)) return 'not an IP address';
    if (isIP(ip) === 6) {
      if (allowed.check(ip, 'ipv6')) return null;
      const verdict = classifyV6(ipv6Bytes(ip));
      if (verdict && 'why' in verdict) return verdict.why;
      if (!verdict) {
        for (const b of blockedV6) if (b.list.check(ip, 'ipv6')) return b.reason;
        return null;
      }
      ip = verdict.v4;
    }
    if (allowed.check(ip, 'ipv4')) return null;
    for (const b of blockedV4) if (b.list.check(ip, 'ipv4')) return b.reason;
    return null;
  }

  async function resolve(host: string): Promise<{ address: string; family: 4 | 6 }> {
    const bare = host.startsWith('[') ? host.slice(1, -1) : host;
    const literal = isIP(bare);
    const addresses = literal ? [{ address: bare, family: literal }] : await lookup(bare, { all: true, verbatim: true }).catch((err) => {
      throw Object.assign(new EgressError(`cannot resolve ${host}: ${(err as NodeJS.ErrnoException).code ?? err.message}`), { reason: 'unresolvable' });
    });
    if (!addresses.length) throw Object.assign(new EgressError(`cannot resolve ${host}`), { reason: 'unresolvable' });
    // Every address must be public: a name that also points inside must not be raced into it.
    for (const a of addresses) {
      const why = refuse(a.address);
      if (why) throw Object.assign(new EgressError(`${literal ? `${a.address} is a ${why} address` : `${host} resolves to ${a.address}, a ${why} address`}: not reachable through this service${openHint(a.address, why)}`), { reason: why });
    }
    return { address: addresses[0].address, family: addresses[0].family as 4 | 6 };
  }

  return {
    refuse,
    resolve,
    async check(raw) {
      const url = parseHttpUrl(raw);
      return { url, ...(await resolve(url.hostname)) };
    },
  };
}
