import { kstEndOfDay, kstIso, kstStartOfDay } from '@ohgood/contract/kst';
import type { AuditRow } from '@ohgood/contract/ops';
import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { auditLog } from '../../db/schema';
import type { Executor } from '../../db/tx';

/** Who acted: a signed-in operator, or the `ops` command run on the server (no staff row). */
export interface Actor {
  staffId: number | null;
  name: string;
  role: string;
}

export interface AuditEntry {
  action: string;
  targetType: string;
  targetId: string | number;
  reason: string;
  before?: unknown;
  after?: unknown;
}

/**
 * Writes one audit row (docs/rules/operations.md#O6). Callers pass their transaction, so the row and the change
 * it records commit together or not at all; the table refuses UPDATE and DELETE.
 */
export async function writeAudit(tx: Executor, actor: Actor, at: Date, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    at,
    staffId: actor.staffId,
    staffName: actor.name,
    role: actor.role,
    action: entry.action,
    targetType: entry.targetType,
    targetId: String(entry.targetId),
    reason: entry.reason,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

export interface AuditFilter {
  staffId?: number;
  action?: string;
  targetType?: string;
  targetId?: string;
  from?: string;
  to?: string;
  before?: number;
}

const PAGE = 50;

/** Newest first, 50 a page; `before` is the last id of the previous page. */
export async function readAudit(
  db: Db,
  filter: AuditFilter,
): Promise<{ items: AuditRow[]; nextCursor: number | null }> {
  const where: SQL[] = [];
  if (filter.staffId) where.push(eq(auditLog.staffId, filter.staffId));
  if (filter.action) where.push(eq(auditLog.action, filter.action));
  if (filter.targetType) where.push(eq(auditLog.targetType, filter.targetType));
  if (filter.targetId) where.push(eq(auditLog.targetId, filter.targetId));
  if (filter.from) where.push(gte(auditLog.at, kstStartOfDay(filter.from)));
  if (filter.to) where.push(lt(auditLog.at, kstEndOfDay(filter.to)));
  if (filter.before) where.push(lt(auditLog.id, filter.before));
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(...where))
    .orderBy(desc(auditLog.id))
    .limit(PAGE + 1);
  const items = rows.slice(0, PAGE).map((row) => ({
    auditId: row.id,
    // KST, like every time the console shows.
    at: kstIso(row.at),
    staffId: row.staffId,
    staffName: row.staffName,
    role: row.role,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    reason: row.reason,
    before: row.before,
    after: row.after,
  }));
  return { items, nextCursor: rows.length > PAGE ? (items.at(-1)?.auditId ?? null) : null };
}
