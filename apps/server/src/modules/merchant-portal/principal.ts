import type { PortalMe } from '@ohgood/contract/merchant-portal';
import { SESSION_IDLE_MINUTES } from '../two-factor/session-tokens';

/** The merchant user of a portal request (the auth guard resolves it from the token's session). */
export interface MerchantUserPrincipal {
  sessionId: string;
  merchantUserId: number;
  merchantId: number;
  merchantName: string;
  email: string;
  name: string;
  /** Passed the second factor in this session. */
  totp: boolean;
}

export function portalMeOf(principal: MerchantUserPrincipal): PortalMe {
  const { merchantUserId, email, name, merchantId, merchantName } = principal;
  return { merchantUserId, email, name, merchantId, merchantName, idleMinutes: SESSION_IDLE_MINUTES };
}
