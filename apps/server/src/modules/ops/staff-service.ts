import type { Db } from '../../db/client';
import { type Clock, systemClock } from '../../lib/clock';
import { createStaffAdmin } from './staff-admin';
import { createStaffSignIn } from './staff-sign-in';
import type { StaffTokens } from './staff-tokens';

/**
 * Operators' accounts and sessions: signing in (`staff-sign-in.ts`) and their administration
 * (`staff-admin.ts`).
 */
/**
 * `wallClock` is real time, for TOTP codes only: an authenticator app reads the real time, so its codes are
 * checked against it even while the app clock is shifted (CLOCK_START); everything else uses `clock`.
 */
export function createStaffService(db: Db, clock: Clock, tokens: StaffTokens, wallClock: Clock = systemClock) {
  return { ...createStaffSignIn(db, clock, tokens, wallClock), ...createStaffAdmin(db, clock) };
}
export type StaffService = ReturnType<typeof createStaffService>;
