import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../lib/clock';

/** A login token's life (docs/rules/money-and-time.md#T5). */
export const TOKEN_TTL_SECONDS = 12 * 60 * 60;

export interface TokenService {
  issue(customerId: number): Promise<string>;
  /** The customer id in a valid token, or null. */
  verify(token: string): Promise<number | null>;
}

/*
 * Login tokens are standard JWTs signed with HMAC-SHA256 (RFC 7519, "HS256"), made and checked here with
 * node:crypto: every signed-in request verifies one, and a general JWT library's WebCrypto path cost ~0.1 ms
 * per call, a third of a CPU core at the feed's request rate. Only this exact form is accepted:
 * header {"alg":"HS256","typ":"JWT"}, a 32-byte signature, a positive integer subject and an unexpired `exp`.
 * `tokens.test.ts` checks the tokens against an independent JWT library both ways.
 */
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const BASE64URL = /^[A-Za-z0-9_-]+$/;

interface Claims {
  sub?: unknown;
  exp?: unknown;
}

export function createTokenService(secret: string, clock: Clock): TokenService {
  const sign = (input: string) => createHmac('sha256', secret).update(input).digest();
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

  return {
    async issue(customerId) {
      const iat = nowSeconds();
      const claims = { sub: String(customerId), iat, exp: iat + TOKEN_TTL_SECONDS, jti: randomUUID() };
      const body = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
      return `${body}.${sign(body).toString('base64url')}`;
    },

    async verify(token) {
      const parts = token.split('.');
      if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) return null;
      const [header, payload, signature] = parts as [string, string, string];
      const expected = sign(`${header}.${payload}`);
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      // Signed by us, so only the form we issue is looked at: anything else (another alg) is refused.
      if (header !== HEADER) return null;
      let claims: Claims;
      try {
        claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Claims;
      } catch {
        return null;
      }
      if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds()) return null;
      const id = typeof claims.sub === 'string' && /^\d+$/.test(claims.sub) ? Number(claims.sub) : Number.NaN;
      return Number.isSafeInteger(id) && id > 0 ? id : null;
    },
  };
}
