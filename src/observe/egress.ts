// The egress guard: the one check every outbound request of ours passes (the read fetcher at each
// redirect, the browser through the forward proxy). Only http(s); every address a host resolves to must
// be public; connections go to the address that was checked, never to a second lookup.
import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import { SightlineError } from '../schema/errors.ts';

/** Ranges nobody may reach through us, with the reason a refusal gives. */
const BLOCKED: [string, number, 'ipv4' | 'ipv6', string][] = [
  ['0.0.0.0', 8, 'ipv4', 'unspecified'], ['10.0.0.0', 8, 'ipv4', 'private'], ['100.64.0.0', 10, 'ipv4', 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'ipv4', 'loopback'], ['169.254.0.0', 16, 'ipv4', 'link-local / cloud metadata'], ['172.16.0.0', 12, 'ipv4', 'private'],
  ['192.0.0.0', 24, 'ipv4', 'reserved'], ['192.0.2.0', 24, 'ipv4', 'documentation'], ['192.88.99.0', 24, 'ipv4', 'reserved'],
  ['192.168.0.0', 16, 'ipv4', 'private'], ['198.18.0.0', 15, 'ipv4', 'benchmarking'], ['198.51.100.0', 24, 'ipv4', 'documentation'],
  ['203.0.113.0', 24, 'ipv4', 'documentation'], ['224.0.0.0', 4, 'ipv4', 'multicast'], ['240.0.0.0', 4, 'ipv4', 'reserved'],
  ['::', 128, 'ipv6', 'unspecified'], ['::1', 128, 'ipv6', 'loopback'], ['fc00::', 7, 'ipv6', 'private (unique local)'],
  ['fe80::', 10, 'ipv6', 'link-local'], ['fec0::', 10, 'ipv6', 'site-local'], ['ff00::', 8, 'ipv6', 'multicast'],
  ['2001:db8::', 32, 'ipv6', 'documentation'], ['100::', 64, 'ipv6', 'discard'], ['2001::', 32, 'ipv6', 'Teredo'],
  ['2002::', 16, 'ipv6', '6to4'],
];

export class EgressError extends Error {
  constructor(message: string, readonly url?: string) {
    super(message);
    this.name = 'EgressError';
  }
}

/** A guard refusal as the API's error: a URL that does not parse, a name that does not resolve, or a refusal. */
export function refusalError(err: EgressError, context = ''): SightlineError {
  const code = /not a valid URL/.test(err.message) ? 'invalid_url' : /cannot resolve/.test(err.message) ? 'unreachable' : 'blocked_url';
  return new SightlineError(code, err.message + context);
}

export interface EgressGuard {
  /** Why an address may not be reached, or null when it may. */
  refuse(address: string): string | null;
  /** Resolves a host once and returns an address that may be reached; throws EgressError otherwise. */
  resolve(host: string): Promise<{ address: string; family: 4 | 6 }>;
  /** Checks a URL's scheme and host; returns the URL and the address to connect to. */
  check(raw: string): Promise<{ url: URL; address: string; family: 4 | 6 }>;
}

/** IPv4 carried inside IPv6 (::ffff:a.b.c.d, ::a.b.c.d, 64:ff9b::a.b.c.d) is judged as the IPv4 it is. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const hi = parseInt(hex[1], 16), lo = parseInt(hex[2], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/**
 * `allow`: CIDRs callers may reach even though they are blocked (SIGHTLINE_EGRESS_ALLOW; tests use it
 * for the loopback server). Nothing else opens the guard.
 */
export function createEgressGuard(allow: string[] = []): EgressGuard {
  const blocked = BLOCKED.map(([net, prefix, type, reason]) => {
    const list = new BlockList();
    list.addSubnet(net, prefix, type);
    return { list, type, reason };
  });
  const allowed = new BlockList();
  for (const cidr of allow) {
    const [net, prefix] = cidr.trim().split('/');
    const type = isIP(net) === 6 ? 'ipv6' : 'ipv4';
    if (!isIP(net)) throw new Error(`SIGHTLINE_EGRESS_ALLOW: "${cidr}" is not a CIDR`);
    allowed.addSubnet(net, prefix === undefined ? (type === 'ipv6' ? 128 : 32) : Number(prefix), type);
  }

  function refuse(address: string): string | null {
    const v4 = isIP(address) === 6 ? embeddedIpv4(address) : null;
    const ip = v4 ?? address;
    const type = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
    if (!isIP(ip)) return 'not an IP address';
    if (allowed.check(ip, type)) return null;
    for (const b of blocked) if (b.type === type && b.list.check(ip, type)) return b.reason;
    return null;
  }

  async function resolve(host: string): Promise<{ address: string; family: 4 | 6 }> {
    const bare = host.startsWith('[') ? host.slice(1, -1) : host;
    const literal = isIP(bare);
    const addresses = literal ? [{ address: bare, family: literal }] : await lookup(bare, { all: true, verbatim: true }).catch((err) => {
      throw new EgressError(`cannot resolve ${host}: ${(err as NodeJS.ErrnoException).code ?? err.message}`);
    });
    if (!addresses.length) throw new EgressError(`cannot resolve ${host}`);
    // Every address must be public: a name that also points inside must not be raced into it.
    for (const a of addresses) {
      const why = refuse(a.address);
      if (why) throw new EgressError(literal ? `${a.address} is a ${why} address: not reachable through this service`
        : `${host} resolves to ${a.address}, a ${why} address: not reachable through this service`);
    }
    return { address: addresses[0].address, family: addresses[0].family as 4 | 6 };
  }

  return {
    refuse,
    resolve,
    async check(raw) {
      let url: URL;
      try { url = new URL(raw); } catch { throw new EgressError(`not a valid URL: ${String(raw).slice(0, 200)}`); }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new EgressError(`${url.protocol} URLs are not allowed: only http and https`, raw);
      if (url.username || url.password) throw new EgressError('URLs with credentials are not allowed', raw);
      return { url, ...(await resolve(url.hostname)) };
    },
  };
}
