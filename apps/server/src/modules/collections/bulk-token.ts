import { createHmac, timingSafeEqual } from 'node:crypto';
import type { BULK_ACTIONS } from '@ohgood/contract/ops-collections';
import type { WorkListFilter } from '@ohgood/contract/ops-desk';
import { conflict } from '../../lib/errors';

/**
 * A bulk action's preview, signed: the confirm acts on exactly the customers the operator saw, with the action
 * and reason they saw, and only for that operator and a few minutes (docs/rules/operations.md#O21). Nothing
 * is stored: the token carries the ids, and the server's key makes it unforgeable.
 */
export interface BulkPlan {
  staffId: number | null;
  action: (typeof BULK_ACTIONS)[number];
  reason: string;
  /** The work list and its filter the preview named: the confirm re-checks each customer against it. */
  filter: WorkListFilter;
  customerIds: number[];
  /** Epoch milliseconds after which the confirm is refused. */
  expiresAt: number;
}

export const PREVIEW_MINUTES = 10;

const stale = () =>
  conflict('BULK_PREVIEW_STALE', '미리 보기가 만료되었거나 올바르지 않습니다. 다시 미리 보기 해 주세요.');

export function signPlan(key: Buffer, plan: BulkPlan): string {
  const body = Buffer.from(JSON.stringify(plan)).toString('base64url');
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
}

/** The plan a token names, if it is this server's, this operator's and not expired. */
export function openPlan(key: Buffer, token: string, staffId: number | null, now: Date): BulkPlan {
  const [body, mac] = token.split('.');
  if (!body || !mac) throw stale();
  const expected = createHmac('sha256', key).update(body).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw stale();
  const plan = JSON.parse(Buffer.from(body, 'base64url').toString()) as BulkPlan;
  if (plan.staffId !== staffId || plan.expiresAt <= now.getTime()) throw stale();
  return plan;
}
