// Requests CM sends out (webhooks, ESPI notifications: signed-delivery.ts) go only where an
// outsider's server may be: the destination is resolved and checked at connect time, on the very address the
// socket connects to, so no spelling of a URL (0x7f000001, [::ffff:127.0.0.1], a name that
// resolves to loopback now and not at creation) reaches CM's own network. An administrator may
// allow networks by CIDR (CM_OUTBOUND_ALLOW_CIDRS). Security probe 2026-11-27, finding 2.

import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import os from 'node:os';

/** Loopback, unspecified, private, shared, link-local (metadata), benchmarking, multicast, reserved. */
const REFUSED_IPV4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
/** Unspecified and IPv4-compatible, loopback, NAT64, discard, unique-local (fd00:ec2::254), link-local, site-local, multicast. */
const REFUSED_IPV6: [string, number][] = [
  ['::', 96],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
];

const familyOf = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** A destination refused: the log says only this, never what answered there. */
export class AddressNotAllowed extends Error {
  constructor() {
    super('refused: address not allowed');
  }
}

/** Parses `10.1.0.0/16,192.168.5.7` (CM_OUTBOUND_ALLOW_CIDRS) into ranges; undefined when an entry is not one. */
export function parseCidrs(text: string): { address: string; prefix: number }[] | undefined {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const ranges = entries.map((entry) => {
    const [address = '', prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    if (family === 0 || rest.length > 0) return undefined;
    if (prefix === undefined) return { address, prefix: bits };
    const value = Number(prefix);
    return /^\d{1,3}$/.test(prefix) && value <= bits ? { address, prefix: value } : undefined;
  });
  return ranges.every((range) => range !== undefined) ? ranges : undefined;
}

/** Where outbound requests may go: anywhere public, plus the allowed networks; never CM's own addresses unless allowed. */
export class OutboundPolicy {
  private readonly refused = new BlockList();
  private readonly allowed = new BlockList();

  constructor(allow: readonly { address: string; prefix: number }[] = []) {
    for (const [address, prefix] of REFUSED_IPV4) this.refused.addSubnet(address, prefix, 'ipv4');
    for (const [address, prefix] of REFUSED_IPV6) this.refused.addSubnet(address, prefix, 'ipv6');
    for (const addresses of Object.values(os.networkInterfaces()))
      for (const { address } of addresses ?? []) this.refused.addAddress(address, familyOf(address));
    for (const { address, prefix } of allow) this.allowed.addSubnet(address, prefix, familyOf(address));
  }

  allows(address: string): boolean {
    const family = familyOf(address);
    return this.allowed.check(address, family) || !this.refused.check(address, family);
  }

  /** A lookup for sockets: resolves as dns.lookup does and fails when any address is refused. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const first = addresses[0];
      if (!first || addresses.some(({ address }) => !this.allows(address)))
        return callback(new AddressNotAllowed(), '', 0);
      if (options.all)
        return (callback as unknown as (e: null, all: dns.LookupAddress[]) => void)(null, addresses);
      return callback(null, first.address, first.family);
    });
  };

  /** Refuses a URL whose host is, or now resolves to, an address not allowed (an early answer to a person; sending checks again). */
  async check(url: string): Promise<void> {
    const host = hostOf(new URL(url));
    if (isIP(host)) {
      if (!this.allows(host)) throw new AddressNotAllowed();
      return;
    }
    const addresses = await dns.promises.lookup(host, { all: true }).catch(() => []);
    if (addresses.some(({ address }) => !this.allows(address))) throw new AddressNotAllowed();
  }

  /**
   * POSTs `body` to `url` and answers the status; redirects are not followed. Fails with
   * AddressNotAllowed for a refused destination, before any byte is sent to it.
   */
  post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<number> {
    const target = new URL(url);
    const host = hostOf(target);
    if (isIP(host) && !this.allows(host)) return Promise.reject(new AddressNotAllowed());
    const client = target.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const request = client.request(
        target,
        {
          method: 'POST',
          headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
          lookup: this.lookup,
          agent: false,
          signal: AbortSignal.timeout(timeoutMs),
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.once('error', reject);
      request.end(body);
    });
  }
}

const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Why a request failed, in words for an administrator, naming nothing about what answered (or not) inside. */
export function outboundFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof AddressNotAllowed) return error.message;
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'))
    return `no answer within ${Math.round(timeoutMs / 1000)} s`;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host name not found';
  if (typeof code === 'string' && /CERT|TLS|SSL|SELF_SIGNED/.test(code)) return 'secure connection failed';
  return 'could not connect';
}
