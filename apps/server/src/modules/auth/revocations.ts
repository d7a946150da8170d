import { isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { customers } from '../../db/schema';

/** The channel an operator's "end every session" is announced on: payload `<customerId>:<epoch seconds>`. */
export const REVOCATION_CHANNEL = 'customer_sessions_revoked';

/**
 * Which customers' tokens an operator revoked, and up to when (docs/rules/operations.md#O5), kept in memory
 * because every signed-in request asks: loaded at start, then told of each revocation by the database's
 * notification (any instance) and by this instance's own action at once.
 */
export function createRevocations(db: Db) {
  const revokedAt = new Map<number, number>();
  const remember = (customerId: number, atSeconds: number) => {
    revokedAt.set(customerId, Math.max(atSeconds, revokedAt.get(customerId) ?? 0));
  };
  return {
    isRevoked(customerId: number, issuedAtSeconds: number): boolean {
      const at = revokedAt.get(customerId);
      return at !== undefined && issuedAtSeconds <= at;
    },
    remember,
    /** `*` follows a lost listener connection: whatever was missed is read again. */
    async onNotification(payload: string): Promise<void> {
      if (payload === '*') return this.load();
      const [id, at] = payload.split(':').map(Number);
      if (Number.isSafeInteger(id) && Number.isFinite(at)) remember(id as number, at as number);
    },
    async load(): Promise<void> {
      const rows = await db
        .select({ id: customers.id, at: customers.sessionsRevokedAt })
        .from(customers)
        .where(isNotNull(customers.sessionsRevokedAt));
      for (const row of rows) if (row.at) remember(row.id, Math.floor(row.at.getTime() / 1000));
    },
  };
}
export type Revocations = ReturnType<typeof createRevocations>;
