import { createHmac } from 'node:crypto';
import type { Clock } from '../../lib/clock';
import { hs256 } from '../auth/tokens';

/**
 * Console tokens (docs/rules/operations.md#O2): the same JWT form as a customer's, but signed with a key of
 * their own (derived from the secret) and naming the audience `ohgood-staff`, so neither kind of token can
 * ever pass for the other. A token names a session; the session row decides (idle time, second factor, end).
 */
export const STAFF_AUDIENCE = 'ohgood-staff';
/** A console session ends after this long without a request. */
export const STAFF_IDLE_MINUTES = 30;
/** And after a working day whatever happens. */
const STAFF_TOKEN_TTL_SECONDS = 10 * 60 * 60;

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function createStaffTokens(secret: string, clock: Clock) {
  const jwt = hs256(createHmac('sha256', secret).update('ohgood staff tokens').digest());
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);
  return {
    issue(sessionId: string): string {
      const iat = nowSeconds();
      return jwt.write({ sub: sessionId, aud: STAFF_AUDIENCE, iat, exp: iat + STAFF_TOKEN_TTL_SECONDS });
    },
    /** The session a genuine, unexpired console token names, or null. */
    sessionOf(token: string): string | null {
      const claims = jwt.read(token);
      if (!claims || claims.aud !== STAFF_AUDIENCE) return null;
      if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds()) return null;
      return typeof claims.sub === 'string' && SESSION_ID.test(claims.sub) ? claims.sub : null;
    },
  };
}
export type StaffTokens = ReturnType<typeof createStaffTokens>;
