import { createPublicKey } from 'node:crypto';
import { LOOPBACK_HOSTS } from '../../lib/outbound-address';

/** Where a device's push endpoint may point (config PUSH_HOSTS, PUSH_ALLOW_LOOPBACK). */
export interface PushEndpointRules {
  hosts: readonly string[];
  /** Tests only: `http:` or `https:` on any port of the loopback address. */
  allowLoopback: boolean;
}

/**
 * A push endpoint on one of the allowed push services (a host or its subdomain), over `https:` on port 443 and
 * without credentials: never a made-up address, another port of the push host, or plain HTTP.
 */
export function isAllowedPushEndpoint(endpoint: string, rules: PushEndpointRules): boolean {
  if (!URL.canParse(endpoint)) return false;
  const url = new URL(endpoint);
  const host = url.hostname.toLowerCase();
  if (url.username || url.password) return false;
  if (rules.allowLoopback && LOOPBACK_HOSTS.has(host)) return url.protocol === 'http:' || url.protocol === 'https:';
  // URL drops the scheme's default port, so https on 443 (written or not) has an empty port.
  if (url.protocol !== 'https:' || url.port !== '') return false;
  return rules.hosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const bytesOf = (text: string) => (BASE64URL.test(text) ? Buffer.from(text, 'base64url') : Buffer.alloc(0));

/**
 * The device's keys as RFC 8291 needs them: `p256dh` an uncompressed P-256 point (65 bytes, 0x04, on the
 * curve) and `auth` a 16-byte secret, both base64url. A key that is not one would make its encryption throw at
 * send time; it is refused here instead.
 */
export function arePushKeysValid(keys: { p256dh: string; auth: string }): boolean {
  const point = bytesOf(keys.p256dh);
  if (bytesOf(keys.auth).length !== 16 || point.length !== 65 || point[0] !== 0x04) return false;
  try {
    createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: point.subarray(1, 33).toString('base64url'),
        y: point.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    });
    return true;
  } catch {
    return false;
  }
}
