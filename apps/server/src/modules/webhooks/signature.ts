import { createHmac, randomBytes } from 'node:crypto';

/** A new signing secret: 192 random bits, prefixed so a leaked one is recognisable in a scan. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

/** Hex HMAC-SHA256 of `<t>.<body>` under `secret`: the `v1` of the signature header. */
export function signatureOf(secret: string, t: number, body: string): string {
  return createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
}

/**
 * `t=<unix seconds>,v1=<hex>` with one `v1` per secret that signs now (two during a rotation's overlap, the
 * new secret's first), so a receiver holding either secret verifies the delivery.
 */
export function signatureHeader(secrets: readonly string[], at: Date, body: string): string {
  const t = Math.floor(at.getTime() / 1000);
  return [`t=${t}`, ...secrets.map((secret) => `v1=${signatureOf(secret, t, body)}`)].join(',');
}
