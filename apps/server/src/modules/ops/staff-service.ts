import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { createStaffAdmin } from './staff-admin';
import { createStaffSignIn } from './staff-sign-in';
import type { StaffTokens } from './staff-tokens';

/**
 * Operators' accounts and sessions: signing in (`staff-sign-in.ts`) and their administration
 * (`staff-admin.ts`).
 */
export function createStaffService(db: Db, clock: Clock, tokens: StaffTokens) {
  return { ...createStaffSignIn(db, clock, tokens), ...createStaffAdmin(db, clock) };
}
export type StaffService = ReturnType<typeof createStaffService>;
