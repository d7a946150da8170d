import type { StaffRole } from '@ohgood/contract/endpoint';
import type { StaffMe } from '@ohgood/contract/ops';
import type { Actor } from './audit';
import { STAFF_IDLE_MINUTES } from './staff-tokens';

/** The operator a console request carries (the auth guard resolves it from the token's session). */
export interface StaffPrincipal {
  sessionId: string;
  staffId: number;
  email: string;
  name: string;
  role: StaffRole;
  /** Passed the second factor in this session. */
  totp: boolean;
}

export function actorOf(principal: StaffPrincipal): Actor {
  return { staffId: principal.staffId, name: principal.name, role: principal.role };
}

export function meOf(principal: StaffPrincipal): StaffMe {
  const { staffId, email, name, role } = principal;
  return { staffId, email, name, role, idleMinutes: STAFF_IDLE_MINUTES };
}
