import { kstDate } from '@ohgood/contract/kst';
import type { BULK_ACTIONS, collectionRow } from '@ohgood/contract/ops-collections';
import type { WorkListFilter } from '@ohgood/contract/ops-desk';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { conflict } from '../../lib/errors';
import { rowOf } from '../ops/customers-reads';
import { workListOf } from '../ops/desk/customer-filter';
import type { StaffPrincipal } from '../ops/staff-principal';
import { type BulkPlan, PREVIEW_MINUTES, signPlan } from './bulk-token';
import { countMatching, matchingCustomers } from './collections-repository';
import { debitsOf } from './debits';

/** How many customers one bulk action may name, and how many the preview shows. */
export const BULK_MAX = 500;
const PREVIEW_ROWS = 20;
const LIST_MAX = 200;

type Row = z.infer<typeof collectionRow>;

/** What risk looks at before acting: the list of who owes, a customer's debits, and a bulk action's preview. */
export function createCollectionsReads(db: Db, clock: Clock, previewKey: Buffer) {
  const today = () => kstDate(clock.now());

  /** The customers on a work list under its filter, with what they owe, oldest id first; personal fields masked. */
  async function matching(filter: WorkListFilter, limit: number): Promise<Row[]> {
    const rows = await matchingCustomers(db, filter, today(), limit);
    return rows.map(({ customer, facts }) => ({
      ...rowOf(customer),
      owed: Number(facts.owed),
      oldestMonth: facts.oldest_month,
      overdue: facts.overdue,
      failedToday: facts.failed_today,
    }));
  }

  return {
    debits: async (customerId: number) => ({ items: await debitsOf(db, customerId) }),

    async list(query: WorkListFilter) {
      const filter = workListOf(query);
      const items = await matching(filter, LIST_MAX);
      return { items, total: await countMatching(db, filter, today()) };
    },

    /** Who a bulk action would touch now, and the signed plan naming exactly them. */
    async preview(
      by: StaffPrincipal,
      input: WorkListFilter & { action: (typeof BULK_ACTIONS)[number]; reason: string },
    ) {
      // Exactly the list's own filter (the same schema and condition), nothing else the request carries.
      const filter = workListOf(input);
      const rows = await matching(filter, BULK_MAX + 1);
      if (rows.length > BULK_MAX) {
        throw conflict('BULK_PREVIEW_STALE', `한 번에 ${BULK_MAX}명까지 처리할 수 있습니다. 조건을 좁혀 주세요.`);
      }
      const expiresAt = clock.now().getTime() + PREVIEW_MINUTES * 60_000;
      const plan: BulkPlan = {
        staffId: by.staffId,
        action: input.action,
        reason: input.reason,
        filter,
        customerIds: rows.map((row) => row.customerId),
        expiresAt,
      };
      return {
        count: rows.length,
        rows: rows.slice(0, PREVIEW_ROWS),
        token: signPlan(previewKey, plan),
        expiresAt: new Date(expiresAt).toISOString(),
      };
    },
  };
}
