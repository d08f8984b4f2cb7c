/**
 * Webhook targets must not reach the server's own network (server-side request forgery): a URL
 * whose host resolves to a loopback, private, link-local, shared (CGNAT), multicast or reserved
 * address is refused when registered and again when each delivery connects (the lookup the
 * socket uses checks the address it is about to dial, so a name re-pointed after registration
 * — DNS rebinding — is refused too). An administrator allows private targets with
 * WEBHOOK_ALLOW_PRIVATE=true (an ERP on the same LAN).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

export const allowPrivateTargets = (): boolean => /^(1|true|yes)$/i.test(process.env.WEBHOOK_ALLOW_PRIVATE ?? '');

/** Whether an address is one a webhook may not reach (IPv4-mapped and NAT64 IPv6 judged by their IPv4). */
export function isPrivateAddress(address: string): boolean {
  const kind = isIP(address);
  if (kind === 4) return blocked.check(address, 'ipv4');
  if (kind !== 6) return true;
  const v4 = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (v4) return blocked.check(v4, 'ipv4');
  const mappedHex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (mappedHex) {
    const n = (parseInt(mappedHex[1], 16) << 16) | parseInt(mappedHex[2], 16);
    return blocked.check([24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.'), 'ipv4');
  }
  return blocked.check(address, 'ipv6');
}

export type UrlProblem = 'format' | 'scheme' | 'credentials' | 'unresolved' | 'private';

/** Checks a webhook URL before it is stored: http(s), no user info, every address it resolves to public (unless allowed). */
export async function checkTargetUrl(raw: string, resolve = dnsLookupAll): Promise<UrlProblem | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'format';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'scheme';
  if (url.username || url.password) return 'credentials';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return 'unresolved';
  }
  if (!addresses.length) return 'unresolved';
  if (!allowPrivateTargets() && addresses.some(isPrivateAddress)) return 'private';
  return null;
}

export function dnsLookupAll(host: string): Promise<string[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(host, { all: true }, (err, list: LookupAddress[]) => (err ? reject(err) : resolve(list.map((a) => a.address)))),
  );
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** The `lookup` of a delivery's socket: resolves as usual, then refuses a private address (unless allowed). */
export function guardedLookup(hostname: string, options: object, callback: LookupCallback): void {
  dnsLookup(hostname, { ...(options as object), all: true }, (err, list: LookupAddress[]) => {
    if (err) return callback(err, '');
    const bad = !allowPrivateTargets() && list.some((a) => isPrivateAddress(a.address));
    if (bad || !list.length) {
      const refused = Object.assign(new Error(`webhook target ${hostname} resolves to a private or loopback address`), { code: 'EPRIVATE' });
      return callback(refused, '');
    }
    if ((options as { all?: boolean }).all) return callback(null, list);
    callback(null, list[0].address, list[0].family);
  });
}
