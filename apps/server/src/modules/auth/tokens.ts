import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Cache } from '../../lib/cache-home';
import type { Clock } from '../../lib/clock';

/** A login token's life (docs/rules/money-and-time.md#T5). */
export const TOKEN_TTL_SECONDS = 12 * 60 * 60;

export interface TokenService {
  issue(customerId: number): Promise<string>;
  /** The customer id in a valid token, or null. */
  verify(token: string): Promise<number | null>;
}

/**
 * Whether a customer's tokens issued at `issuedAtSeconds` were revoked by an operator (docs/rules/operations.md#O5).
 * Answered from memory: every signed-in request asks it.
 */
export type RevocationCheck = (customerId: number, issuedAtSeconds: number) => boolean;

/*
 * Login tokens are standard JWTs signed with HMAC-SHA256 (RFC 7519, "HS256"), made and checked here with
 * node:crypto: every signed-in request verifies one, and a general JWT library's WebCrypto path cost ~0.1 ms
 * per call, a third of a CPU core at the feed's request rate. Only this exact form is accepted:
 * header {"alg":"HS256","typ":"JWT"}, a 32-byte signature, a positive integer subject and an unexpired `exp`.
 * `tokens.test.ts` checks the tokens against an independent JWT library both ways.
 */
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export interface Claims {
  sub?: unknown;
  exp?: unknown;
  iat?: unknown;
  aud?: unknown;
}

/** Signs and checks HS256 JWTs of our one form with `key`; `read` answers the claims of a genuine token. */
export function hs256(key: string | Buffer) {
  const sign = (input: string) => createHmac('sha256', key).update(input).digest();
  return {
    write(claims: Record<string, unknown>): string {
      const body = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
      return `${body}.${sign(body).toString('base64url')}`;
    },
    read(token: string): Claims | null {
      const parts = token.split('.');
      if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) return null;
      const [header, payload, signature] = parts as [string, string, string];
      const expected = sign(`${header}.${payload}`);
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      // Signed by us, so only the form we issue is looked at: anything else (another alg) is refused.
      if (header !== HEADER) return null;
      try {
        return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Claims;
      } catch {
        return null;
      }
    },
  };
}

/** What a genuine customer token of ours says: checked once per token text (`createTokenService`). */
export interface GenuineToken {
  customerId: number;
  issuedAt: number;
  expiresAt: number;
}

/** The claims of a token signed with our key in our one form, for a customer; null for anything else. */
function genuineOf(claims: Claims | null): GenuineToken | null {
  if (!claims || typeof claims.exp !== 'number') return null;
  // A token with an audience belongs to someone else (the console's tokens name theirs and use another key).
  if (claims.aud !== undefined) return null;
  const id = typeof claims.sub === 'string' && /^\d+$/.test(claims.sub) ? Number(claims.sub) : Number.NaN;
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return { customerId: id, issuedAt: typeof claims.iat === 'number' ? claims.iat : 0, expiresAt: claims.exp };
}

/**
 * `genuine` (optional) remembers what a token's text says once its signature is checked (ADR 0256): the text
 * cannot say anything else under the same key, so a signed-in request then costs a lookup instead of an HMAC,
 * two base64 decodings and a JSON parse. Only what can never change is remembered: expiry and revocation are
 * judged on every request, against the clock and the revocations as they are then.
 */
export function createTokenService(
  secret: string,
  clock: Clock,
  revoked: RevocationCheck = () => false,
  genuine?: Cache<string, GenuineToken>,
): TokenService {
  const jwt = hs256(secret);
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

  function genuineToken(token: string): GenuineToken | null {
    const known = genuine?.get(token);
    if (known) return known;
    const checked = genuineOf(jwt.read(token));
    if (checked) genuine?.set(token, checked);
    return checked;
  }

  return {
    async issue(customerId) {
      const iat = nowSeconds();
      return jwt.write({ sub: String(customerId), iat, exp: iat + TOKEN_TTL_SECONDS, jti: randomUUID() });
    },

    async verify(token) {
      const checked = genuineToken(token);
      if (!checked || checked.expiresAt <= nowSeconds()) return null;
      return revoked(checked.customerId, checked.issuedAt) ? null : checked.customerId;
    },
  };
}
