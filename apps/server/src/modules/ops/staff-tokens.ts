import type { Clock } from '../../lib/clock';
import { createSessionTokens, SESSION_IDLE_MINUTES, type SessionTokens } from '../two-factor/session-tokens';

/**
 * Console tokens (docs/rules/operations.md#O2): signed with a key of their own and naming the audience
 * `ohgood-staff`, so neither a customer's token nor a merchant user's can pass for one.
 */
export const STAFF_AUDIENCE = 'ohgood-staff';
/** A console session ends after this long without a request. */
export const STAFF_IDLE_MINUTES = SESSION_IDLE_MINUTES;

export function createStaffTokens(secret: string, clock: Clock): SessionTokens {
  return createSessionTokens(secret, clock, {
    audience: STAFF_AUDIENCE,
    keyLabel: 'ohgood staff tokens',
    ttlSeconds: 10 * 60 * 60,
  });
}
export type StaffTokens = SessionTokens;
