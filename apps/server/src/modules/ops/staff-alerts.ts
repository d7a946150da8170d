import { kstIso } from '@ohgood/contract/kst';
import type { StaffAlert } from '@ohgood/contract/ops';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { staffAlerts } from '../../db/schema';
import type { Executor, Tx } from '../../db/tx';

/**
 * Alerts for staff (ADR 0200): a row per (kind, subject) that the console's home lists until it is resolved.
 * Raising it again (a day reconciled again, still wrong) refreshes the row instead of adding one; resolving
 * it (the day now reconciles) takes it off the home.
 */
export async function raiseStaffAlert(
  tx: Tx,
  alert: { kind: string; subject: string; message: string },
  at: Date,
): Promise<void> {
  await tx
    .insert(staffAlerts)
    .values({ ...alert, raisedAt: at })
    .onConflictDoUpdate({
      target: [staffAlerts.kind, staffAlerts.subject],
      set: { message: alert.message, raisedAt: at, resolvedAt: null },
    });
}

export async function resolveStaffAlert(tx: Tx, kind: string, subject: string, at: Date): Promise<void> {
  await tx
    .update(staffAlerts)
    .set({ resolvedAt: at })
    .where(and(eq(staffAlerts.kind, kind), eq(staffAlerts.subject, subject), isNull(staffAlerts.resolvedAt)));
}

/** How many open alerts the home lists at most (the newest). */
const HOME_ALERTS = 20;

/** The open alerts, newest first. */
export async function openStaffAlerts(executor: Executor): Promise<StaffAlert[]> {
  const rows = await executor
    .select()
    .from(staffAlerts)
    .where(isNull(staffAlerts.resolvedAt))
    .orderBy(desc(staffAlerts.raisedAt), desc(staffAlerts.id))
    .limit(HOME_ALERTS);
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    subject: row.subject,
    message: row.message,
    raisedAt: kstIso(row.raisedAt),
  }));
}
