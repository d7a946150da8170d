import { createHmac } from 'node:crypto';
import type { Clock } from '../../lib/clock';
import { hs256 } from '../auth/tokens';

/**
 * Tokens of password + TOTP sessions (operators, merchant users): the same JWT form as a customer's, but each
 * kind signed with a key of its own (derived from the secret and the kind's label) and naming its own audience,
 * so no kind of token can ever pass for another. A token names a session; the session row decides (idle time,
 * second factor, end).
 */
export interface SessionTokenKind {
  audience: string;
  /** Derives the kind's signing key from the secret. */
  keyLabel: string;
  /** A token ends after this long whatever happens (a working day). */
  ttlSeconds: number;
}

/** A session ends after this long without a request. */
export const SESSION_IDLE_MINUTES = 30;

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function createSessionTokens(secret: string, clock: Clock, kind: SessionTokenKind) {
  const jwt = hs256(createHmac('sha256', secret).update(kind.keyLabel).digest());
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);
  return {
    issue(sessionId: string): string {
      const iat = nowSeconds();
      return jwt.write({ sub: sessionId, aud: kind.audience, iat, exp: iat + kind.ttlSeconds });
    },
    /** The session a genuine, unexpired token of this kind names, or null. */
    sessionOf(token: string): string | null {
      const claims = jwt.read(token);
      if (!claims || claims.aud !== kind.audience) return null;
      if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds()) return null;
      return typeof claims.sub === 'string' && SESSION_ID.test(claims.sub) ? claims.sub : null;
    },
  };
}
export type SessionTokens = ReturnType<typeof createSessionTokens>;
