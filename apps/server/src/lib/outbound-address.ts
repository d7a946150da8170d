import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where the server may send a request a user chose the address of (a merchant's webhook URL): never into our
 * own network. A URL is refused up front when it is not `https:`, carries credentials or names a private
 * address; its host is resolved again at each send and the connection goes to exactly the address that was
 * checked, so a name that resolves to a public address when registered and to a private one later (DNS
 * rebinding) reaches nothing. Loopback is let through, over `http:` too, only when the deployment allows it
 * (development and tests).
 */

/** Hosts that are the loopback address, as URL.hostname spells them (push endpoints use the same set). */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Ranges that are not the public internet: private, loopback, link-local, shared, reserved and multicast. */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
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
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** An IPv4 address written inside IPv6 (`::ffff:10.0.0.1`) is judged as the IPv4 address it is. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return { address: mapped[1], family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export function isLoopbackAddress(address: string): boolean {
  const a = unmapped(address);
  return LOOPBACK.check(a.address, a.family);
}

export function isPublicAddress(address: string): boolean {
  const a = unmapped(address);
  return !NOT_PUBLIC.check(a.address, a.family);
}

export interface OutboundRules {
  /** Development and tests only: loopback addresses, over `http:` or `https:`, on any port. */
  allowLoopback: boolean;
}

/** Whether a resolved address may be connected to under `rules`. */
export function isAllowedAddress(address: string, rules: OutboundRules): boolean {
  return isPublicAddress(address) || (rules.allowLoopback && isLoopbackAddress(address));
}

/** Resolves a host name to its addresses (the system resolver by default; tests pass a scripted one). */
export type Resolve = (hostname: string) => Promise<string[]>;

export const systemResolve: Resolve = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** The host of a URL as an address when it is one (`[::1]` → `::1`), else undefined. */
function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : undefined;
}

/** Why a URL is refused before any lookup, or undefined when it may be tried. */
export function refusalOfUrl(raw: string, rules: OutboundRules): string | undefined {
  if (!URL.canParse(raw)) return 'not a URL';
  const url = new URL(raw);
  if (url.username || url.password) return 'credentials in the URL';
  const host = url.hostname.toLowerCase();
  const literal = literalAddress(host);
  const loopback = host === 'localhost' || (literal !== undefined && isLoopbackAddress(literal));
  if (loopback) {
    if (!rules.allowLoopback) return 'loopback address';
    return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : 'not http(s)';
  }
  if (url.protocol !== 'https:') return 'not https';
  if (literal !== undefined && !isPublicAddress(literal)) return 'private address';
  if (!host.includes('.')) return 'not a public host name';
  return undefined;
}

/** An address checked for one send: connect to exactly this one. */
export type CheckedAddress = { ok: true; address: string } | { ok: false; reason: string };

/**
 * The address to connect to for `url` now: its literal address, or the first of its resolved addresses when
 * every one is public (one private answer refuses the host: a resolver may rotate its answers).
 */
export async function checkedAddressOf(url: URL, rules: OutboundRules, resolve: Resolve): Promise<CheckedAddress> {
  const refusal = refusalOfUrl(url.href, rules);
  if (refusal) return { ok: false, reason: refusal };
  const host = url.hostname.toLowerCase();
  const literal = literalAddress(host);
  let addresses: string[];
  try {
    addresses = literal ? [literal] : await resolve(host);
  } catch {
    return { ok: false, reason: 'host not found' };
  }
  const first = addresses[0];
  if (first === undefined) return { ok: false, reason: 'host not found' };
  if (!addresses.every((address) => isAllowedAddress(address, rules))) return { ok: false, reason: 'private address' };
  return { ok: true, address: first };
}
