import { creditLimitBounds, gradeOf, monthlyLimitOf } from '@ohgood/contract/grades';
import { kstIso } from '@ohgood/contract/kst';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { lockCustomer } from '../../db/locks';
import { type Tx, withTx } from '../../db/tx';
import { recordEvent } from '../../events/record-event';
import type { Clock } from '../../lib/clock';
import { conflict, notFound, unprocessable } from '../../lib/errors';
import { REVOCATION_CHANNEL } from '../auth/revocations';
import { recomputeSuspension } from '../bills/statements';
import type { MerchantService } from '../merchants/service';
import { writeAudit } from './audit';
import { notFoundCustomer } from './customers-reads';
import { type CustomerRow, deleteLockouts, findCustomer, purchaseOwners, updateCustomer } from './customers-repository';
import { actorOf, type StaffPrincipal } from './staff-principal';

/** A lockout counter's kind, without the e-mail or address its key names. */
function lockoutKindOf(key: string): string {
  if (key.startsWith('login-fail:account-ip:')) return 'login-fail:account-ip';
  if (key.startsWith('login-fail:account:')) return 'login-fail:account';
  return 'pay-code-fail';
}

function stateOf(customer: Pick<CustomerRow, 'id' | 'suspended' | 'staffSuspended' | 'overdueLifted'>) {
  return {
    customerId: customer.id,
    suspended: customer.suspended,
    staffSuspended: customer.staffSuspended,
    overdueLifted: customer.overdueLifted,
  };
}

/**
 * A check run under the customer's lock before a change, in its transaction (a bulk action's "still in the
 * filter"): throwing refuses the change.
 */
export type Guard = (tx: Tx) => Promise<void>;

/** Whether `limit` is one risk may set for these grade points (docs/rules/operations.md#O8). */
export function isLimitInBounds(gradePoint: number, limit: number): boolean {
  const { min, max, step } = creditLimitBounds(gradePoint);
  return limit >= min && limit <= max && limit % step === 0;
}

/**
 * What support and risk do about one customer (docs/rules/operations.md#O4–O5). Every change takes the
 * customer's lock first (db/tx.ts) and writes its audit row in the same transaction.
 */
export function createOpsCustomerActions(
  db: Db,
  clock: Clock,
  merchants: MerchantService,
  onSessionsRevoked: (customerId: number, atSeconds: number) => void,
) {
  /** Runs a change on the locked customer and audits it with its before and after. */
  async function change(
    by: StaffPrincipal,
    customerId: number,
    action: string,
    reason: string,
    work: (tx: Tx, before: CustomerRow) => Promise<void>,
    guard?: Guard,
  ) {
    return withTx(db, async (tx) => {
      const before = await lockCustomer(tx, customerId);
      await guard?.(tx);
      await work(tx, before);
      const state = stateOf((await findCustomer(tx, customerId)) ?? before);
      await writeAudit(tx, actorOf(by), clock.now(), {
        action,
        targetType: 'customer',
        targetId: customerId,
        reason,
        before: stateOf(before),
        after: state,
      });
      return state;
    });
  }

  return {
    /** One personal field in clear, audited with the reason in the same transaction. */
    async reveal(by: StaffPrincipal, customerId: number, field: 'name' | 'email' | 'account', reason: string) {
      return withTx(db, async (tx) => {
        const row = await findCustomer(tx, customerId);
        if (!row) throw notFoundCustomer();
        await writeAudit(tx, actorOf(by), clock.now(), {
          action: 'customer.reveal',
          targetType: 'customer',
          targetId: customerId,
          reason,
          after: { field },
        });
        return { field, value: row[field] };
      });
    },

    suspend: (by: StaffPrincipal, customerId: number, reason: string, guard?: Guard) =>
      change(
        by,
        customerId,
        'customer.suspend',
        reason,
        async (tx, before) => {
          if (before.staffSuspended) throw conflict('ALREADY_SUSPENDED', '이미 운영자가 정지한 고객입니다.');
          await updateCustomer(tx, customerId, { staffSuspended: true });
          await recomputeSuspension(tx, customerId, clock.now(), { byStaff: true });
        },
        guard,
      ),

    /** Ends an operator's suspension and forgives an overdue one until that debt is settled. */
    lift: (by: StaffPrincipal, customerId: number, reason: string, guard?: Guard) =>
      change(
        by,
        customerId,
        'customer.lift',
        reason,
        async (tx, before) => {
          if (!before.suspended) throw conflict('NOT_SUSPENDED', '결제 정지 상태가 아닙니다.');
          await updateCustomer(tx, customerId, { staffSuspended: false, overdueLifted: true });
          await recomputeSuspension(tx, customerId, clock.now(), { byStaff: true });
        },
        guard,
      ),

    async resetLockouts(by: StaffPrincipal, customerId: number, reason: string): Promise<number> {
      return withTx(db, async (tx) => {
        const customer = await lockCustomer(tx, customerId);
        const cleared = await deleteLockouts(tx, customer);
        await writeAudit(tx, actorOf(by), clock.now(), {
          action: 'customer.reset-lockouts',
          targetType: 'customer',
          targetId: customerId,
          reason,
          // The counters' keys hold the e-mail and client addresses: the row keeps only their kinds and counts.
          before: cleared.map((counter) => ({ kind: lockoutKindOf(counter.key), count: counter.count })),
          after: [],
        });
        return cleared.length;
      });
    },

    /** Every token issued so far stops working, on every instance (announced through the database). */
    async revokeSessions(by: StaffPrincipal, customerId: number, reason: string): Promise<string> {
      const at = clock.now();
      const atSeconds = Math.floor(at.getTime() / 1000);
      await withTx(db, async (tx) => {
        const before = await lockCustomer(tx, customerId);
        await updateCustomer(tx, customerId, { sessionsRevokedAt: at });
        await tx.execute(sql`select pg_notify(${REVOCATION_CHANNEL}, ${`${customerId}:${atSeconds}`})`);
        await writeAudit(tx, actorOf(by), at, {
          action: 'customer.revoke-sessions',
          targetType: 'customer',
          targetId: customerId,
          reason,
          before: { sessionsRevokedAt: before.sessionsRevokedAt },
          after: { sessionsRevokedAt: at },
        });
      });
      onSessionsRevoked(customerId, atSeconds);
      return kstIso(at);
    },

    /**
     * Sets the customer's monthly limit within the grade's bounds (docs/rules/operations.md#O8), under the
     * customer's lock, so no final decides on the old limit after this commits. The grade's own limit clears
     * risk's (the customer follows the grade again). Audited and recorded as `credit_limit.changed` in the
     * transaction of the change.
     */
    async changeLimit(by: StaffPrincipal, customerId: number, limit: number, reason: string) {
      return withTx(db, async (tx) => {
        const before = await lockCustomer(tx, customerId);
        const { min, max, step } = creditLimitBounds(before.gradePoint);
        if (!isLimitInBounds(before.gradePoint, limit)) {
          throw unprocessable(
            'LIMIT_OUT_OF_BOUNDS',
            `한도는 ${gradeOf(before.gradePoint).label} 등급 범위인 ${min.toLocaleString('ko-KR')}원~${max.toLocaleString('ko-KR')}원 안에서 ${step.toLocaleString('ko-KR')}원 단위로 정할 수 있습니다.`,
          );
        }
        const creditLimit = limit === max ? null : limit;
        await updateCustomer(tx, customerId, { creditLimit });
        const from = monthlyLimitOf(before);
        const at = clock.now();
        await writeAudit(tx, actorOf(by), at, {
          action: 'customer.limit',
          targetType: 'customer',
          targetId: customerId,
          reason,
          before: { limit: from, creditLimit: before.creditLimit },
          after: { limit, creditLimit },
        });
        await recordEvent(tx, { type: 'credit_limit.changed', customerId, from, to: limit, creditLimit }, at);
        return { customerId, limit, creditLimit };
      });
    },

    /** The merchant's own refund, with its rules, on the merchant's behalf; audited in its transaction. */
    async refund(by: StaffPrincipal, paymentId: number, reason: string) {
      const purchase = await purchaseOwners(db, paymentId);
      if (!purchase) throw notFound('PAYMENT_NOT_FOUND', '결제 내역을 찾을 수 없습니다.');
      const view = await merchants.refund(purchase.merchantId, purchase.requestId, '', async (tx, refunded) => {
        await writeAudit(tx, actorOf(by), clock.now(), {
          action: 'payment.refund',
          targetType: 'customer',
          targetId: purchase.customerId,
          reason,
          before: { paymentId, status: 'PAID' },
          after: { paymentId, status: refunded.status },
        });
      });
      return { paymentId, status: view.status };
    },
  };
}
