import { createHmac } from 'node:crypto';
import { maskAccount } from '@ohgood/contract/bank';
import { creditLimitBounds, gradeOf, monthlyLimitOf } from '@ohgood/contract/grades';
import { kstDate, kstIso, kstMonth } from '@ohgood/contract/kst';
import type { OpsCustomerPage, OpsCustomerRow } from '@ohgood/contract/ops';
import { and, asc, desc, eq, gt, ilike, inArray, isNotNull, like, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { lockCustomer } from '../../db/locks';
import {
  auditLog,
  autopayAttempts,
  customers,
  notifications,
  pointLedger,
  purchases,
  rateLimitCounters,
  statements,
} from '../../db/schema';
import { type Tx, withTx } from '../../db/tx';
import { recordEvent } from '../../events/record-event';
import type { Clock } from '../../lib/clock';
import { conflict, notFound, unprocessable } from '../../lib/errors';
import { REVOCATION_CHANNEL } from '../auth/revocations';
import { normalizeEmail } from '../auth/service';
import { owedSql, recomputeSuspension } from '../bills/statements';
import type { MerchantService } from '../merchants/service';
import { escapeLike } from '../shorts/search';
import { writeAudit } from './audit';
import { maskEmail, maskName } from './masking';
import { actorOf, type StaffPrincipal } from './staff-service';

type CustomerRow = typeof customers.$inferSelect;

/**
 * The counters that lock a customer out (docs/rules/operations.md#O5): failed logins on their email
 * (`auth/service.ts`) and failed payment codes (`payments/service.ts`), both in 10-minute windows.
 */
const LOCKOUT_WINDOW_MS = 10 * 60 * 1000;
/**
 * A customer's own lockout counters: login failures per account and per (account, address), failed codes. A
 * counter at zero is none: an attempt that succeeded gave back the place it claimed (`db/rate-limit-counters.ts`).
 */
const lockoutKeys = (customer: Pick<CustomerRow, 'id' | 'email'>) =>
  and(
    or(
      inArray(rateLimitCounters.key, [`login-fail:account:${customer.email}`, `pay-code-fail:${customer.id}`]),
      like(rateLimitCounters.key, `login-fail:account-ip:${escapeLike(customer.email)}:%`),
    ),
    gt(rateLimitCounters.count, 0),
  );

/** A lockout counter's kind, without the e-mail or address its key names. */
function lockoutKindOf(key: string): string {
  if (key.startsWith('login-fail:account-ip:')) return 'login-fail:account-ip';
  if (key.startsWith('login-fail:account:')) return 'login-fail:account';
  return 'pay-code-fail';
}

const SEARCH_LIMIT = 20;

/**
 * What the console's search takes (docs/rules/operations.md#O4): an e-mail (with '@') matches exactly; digits
 * (hyphens and spaces allowed) match a customer id or an account number exactly; anything else is part of a
 * name. No part of an e-mail or an account finds anyone, so a mask cannot be completed by trying its pieces.
 */
export function searchQueryOf(q: string): { kind: 'email' | 'number' | 'name'; normalized: string; where: SQL } {
  const term = q.trim();
  if (term.includes('@')) {
    const email = normalizeEmail(term);
    return { kind: 'email', normalized: email, where: eq(customers.email, email) };
  }
  const digits = term.replace(/[\s-]/g, '');
  if (/^\d+$/.test(digits)) {
    const byId = digits.length <= 9 ? [eq(customers.id, Number(digits))] : [];
    return { kind: 'number', normalized: digits, where: or(...byId, eq(customers.account, digits)) as SQL };
  }
  return { kind: 'name', normalized: term, where: ilike(customers.name, `%${escapeLike(term)}%`) };
}

function rowOf(customer: CustomerRow): OpsCustomerRow {
  return {
    customerId: customer.id,
    name: maskName(customer.name),
    email: maskEmail(customer.email),
    account: maskAccount(customer.account),
    gradeName: gradeOf(customer.gradePoint).name,
    suspended: customer.suspended,
  };
}

function stateOf(customer: Pick<CustomerRow, 'id' | 'suspended' | 'staffSuspended' | 'overdueLifted'>) {
  return {
    customerId: customer.id,
    suspended: customer.suspended,
    staffSuspended: customer.staffSuspended,
    overdueLifted: customer.overdueLifted,
  };
}

/** Whether `limit` is one risk may set for these grade points (docs/rules/operations.md#O8). */
export function isLimitInBounds(gradePoint: number, limit: number): boolean {
  const { min, max, step } = creditLimitBounds(gradePoint);
  return limit >= min && limit <= max && limit % step === 0;
}

const notFoundCustomer = () => notFound('CUSTOMER_NOT_FOUND', '고객 정보를 찾을 수 없습니다.');

/**
 * What support and risk see and do about one customer (docs/rules/operations.md#O4–O5). Every change takes
 * the customer's lock first (db/tx.ts) and writes its audit row in the same transaction.
 */
export function createOpsCustomersService(
  db: Db,
  clock: Clock,
  merchants: MerchantService,
  onSessionsRevoked: (customerId: number, atSeconds: number) => void,
  /** Keys the hash of a search's query in its audit row (derived from the server's secret). */
  auditKey: Buffer,
) {
  async function load(customerId: number): Promise<CustomerRow> {
    const [row] = await db.select().from(customers).where(eq(customers.id, customerId));
    if (!row) throw notFoundCustomer();
    return row;
  }

  /** Runs a change on the locked customer and audits it with its before and after. */
  async function change(
    by: StaffPrincipal,
    customerId: number,
    action: string,
    reason: string,
    work: (tx: Tx, before: CustomerRow) => Promise<void>,
  ) {
    return withTx(db, async (tx) => {
      const before = await lockCustomer(tx, customerId);
      await work(tx, before);
      const [after] = await tx.select().from(customers).where(eq(customers.id, customerId));
      const state = stateOf(after ?? before);
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
    /**
     * Exact customer id, exact e-mail or exact account number; only a name may be part of one (results
     * masked). Each search writes an audit row with what kind of query it was, a keyed hash of it and the ids
     * it found — never the query itself (docs/rules/operations.md#O4, #O6).
     */
    async search(by: StaffPrincipal, q: string): Promise<OpsCustomerRow[]> {
      const query = searchQueryOf(q);
      return withTx(db, async (tx) => {
        const rows = await tx
          .select()
          .from(customers)
          .where(query.where)
          .orderBy(asc(customers.id))
          .limit(SEARCH_LIMIT);
        await writeAudit(tx, actorOf(by), clock.now(), {
          action: 'customer.search',
          targetType: 'search',
          targetId: query.kind,
          reason: '',
          after: {
            kind: query.kind,
            queryLength: [...query.normalized].length,
            queryHash: createHmac('sha256', auditKey).update(`${query.kind}:${query.normalized}`).digest('hex'),
            results: rows.length,
            resultIds: rows.map((row) => row.id),
          },
        });
        return rows.map(rowOf);
      });
    },

    async page(customerId: number): Promise<OpsCustomerPage> {
      const customer = await load(customerId);
      const now = clock.now();
      const month = kstMonth(now);
      const [owed] = await db.select({ owed: owedSql(customerId, month) }).from(sql`(values (1)) as one (x)`);
      const grade = gradeOf(customer.gradePoint);
      const lines = await db
        .select()
        .from(purchases)
        .where(eq(purchases.customerId, customerId))
        .orderBy(desc(purchases.id))
        .limit(200);
      const months = await db
        .select()
        .from(statements)
        .where(eq(statements.customerId, customerId))
        .orderBy(desc(statements.month));
      const points = await db
        .select()
        .from(pointLedger)
        .where(eq(pointLedger.customerId, customerId))
        .orderBy(desc(pointLedger.id))
        .limit(50);
      const notices = await db
        .select()
        .from(notifications)
        .where(eq(notifications.customerId, customerId))
        .orderBy(desc(notifications.id))
        .limit(50);
      const lockouts = await db
        .select()
        .from(rateLimitCounters)
        .where(
          and(lockoutKeys(customer), gt(rateLimitCounters.windowStart, new Date(now.getTime() - LOCKOUT_WINDOW_MS))),
        );
      const staffChanges = await db
        .select()
        .from(auditLog)
        .where(
          and(
            eq(auditLog.targetType, 'customer'),
            eq(auditLog.targetId, String(customerId)),
            inArray(auditLog.action, ['customer.suspend', 'customer.lift']),
          ),
        )
        .orderBy(asc(auditLog.id));
      const overdue = months.filter((s) => s.overdueAt !== null);
      const history = [
        ...overdue.map((s) => ({ at: s.overdueAt as Date, what: `${s.month} 청구서 연체로 자동 정지` })),
        ...staffChanges.map((row) => ({
          at: row.at,
          what: `${row.action === 'customer.suspend' ? '운영자 정지' : '운영자 해제'} (${row.staffName}: ${row.reason})`,
        })),
      ].sort((a, b) => a.at.getTime() - b.at.getTime());
      return {
        customer: {
          ...rowOf(customer),
          nickname: customer.nickname,
          accountName: customer.accountName,
          createdAt: kstIso(customer.createdAt),
          gradePoint: customer.gradePoint,
          limit: monthlyLimitOf(customer),
          gradeLimit: grade.monthlyLimit,
          creditLimit: customer.creditLimit,
          limitBounds: creditLimitBounds(customer.gradePoint),
          usedThisMonth: Number(owed?.owed ?? 0),
          pointBalance: customer.pointBalance,
          staffSuspended: customer.staffSuspended,
          overdueLifted: customer.overdueLifted,
          sessionsRevokedAt: customer.sessionsRevokedAt ? kstIso(customer.sessionsRevokedAt) : null,
          uploadBannedUntil: customer.uploadBannedUntil ? kstIso(customer.uploadBannedUntil) : null,
        },
        statements: months.map((s) => {
          const mine = lines.filter((line) => line.statementMonth === s.month);
          return {
            month: s.month,
            extension: s.extension,
            overdue: s.overdueAt !== null,
            paid: mine.length > 0 && mine.every((line) => line.status !== 'UNPAID'),
            lines: mine.map((line) => ({
              paymentId: line.id,
              requestName: line.requestName,
              price: line.price,
              status: line.status,
            })),
          };
        }),
        payments: lines.map((line) => ({
          paymentId: line.id,
          date: kstIso(line.createdAt),
          requestName: line.requestName,
          totalPrice: line.totalPrice,
          pointUsed: line.pointUsed,
          status: line.status,
        })),
        points: points.map((p) => ({ date: p.kstDate, amount: p.amount, reason: p.reason })),
        notices: notices.map((n) => ({ at: kstIso(n.createdAt), kind: n.kind, title: n.title, body: n.body })),
        lockouts: lockouts.map((row) => ({
          key: row.key.startsWith('login-fail') ? '로그인 실패' : '결제 코드 실패',
          count: row.count,
          until: kstIso(new Date(row.windowStart.getTime() + LOCKOUT_WINDOW_MS)),
        })),
        suspensionHistory: history.map((h) => ({ at: kstIso(h.at), what: h.what })),
      };
    },

    /** One personal field in clear, audited with the reason in the same transaction. */
    async reveal(by: StaffPrincipal, customerId: number, field: 'name' | 'email' | 'account', reason: string) {
      return withTx(db, async (tx) => {
        const [row] = await tx.select().from(customers).where(eq(customers.id, customerId));
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

    suspend: (by: StaffPrincipal, customerId: number, reason: string) =>
      change(by, customerId, 'customer.suspend', reason, async (tx, before) => {
        if (before.staffSuspended) throw conflict('ALREADY_SUSPENDED', '이미 운영자가 정지한 고객입니다.');
        await tx.update(customers).set({ staffSuspended: true }).where(eq(customers.id, customerId));
        await recomputeSuspension(tx, customerId, clock.now(), { byStaff: true });
      }),

    /** Ends an operator's suspension and forgives an overdue one until that debt is settled. */
    lift: (by: StaffPrincipal, customerId: number, reason: string) =>
      change(by, customerId, 'customer.lift', reason, async (tx, before) => {
        if (!before.suspended) throw conflict('NOT_SUSPENDED', '결제 정지 상태가 아닙니다.');
        await tx
          .update(customers)
          .set({ staffSuspended: false, overdueLifted: true })
          .where(eq(customers.id, customerId));
        await recomputeSuspension(tx, customerId, clock.now(), { byStaff: true });
      }),

    async resetLockouts(by: StaffPrincipal, customerId: number, reason: string): Promise<number> {
      return withTx(db, async (tx) => {
        const customer = await lockCustomer(tx, customerId);
        const cleared = await tx
          .delete(rateLimitCounters)
          .where(lockoutKeys(customer))
          .returning({ key: rateLimitCounters.key, count: rateLimitCounters.count });
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
        await tx.update(customers).set({ sessionsRevokedAt: at }).where(eq(customers.id, customerId));
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
        await tx.update(customers).set({ creditLimit }).where(eq(customers.id, customerId));
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
      const [purchase] = await db
        .select({ requestId: purchases.requestId, merchantId: purchases.merchantId, customerId: purchases.customerId })
        .from(purchases)
        .where(eq(purchases.id, paymentId));
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

    /** Today's figures for the console's home (KST day). */
    async home() {
      const now = clock.now();
      const today = kstDate(now);
      const [figures] = await db
        .select({
          payments: sql<number>`count(*) filter (where (${purchases.createdAt} at time zone 'Asia/Seoul')::date = ${today}::date)`,
          amount: sql<string>`coalesce(sum(${purchases.totalPrice}) filter (where (${purchases.createdAt} at time zone 'Asia/Seoul')::date = ${today}::date), 0)`,
          refunds: sql<number>`count(*) filter (where (${purchases.refundedAt} at time zone 'Asia/Seoul')::date = ${today}::date)`,
          refunded: sql<string>`coalesce(sum(${purchases.totalPrice}) filter (where (${purchases.refundedAt} at time zone 'Asia/Seoul')::date = ${today}::date), 0)`,
        })
        .from(purchases)
        .where(or(gt(purchases.createdAt, new Date(now.getTime() - 2 * 86_400_000)), isNotNull(purchases.refundedAt)));
      const [overdue] = await db
        .select({ n: sql<number>`count(distinct ${statements.customerId})` })
        .from(statements)
        .innerJoin(
          purchases,
          and(eq(purchases.customerId, statements.customerId), eq(purchases.statementMonth, statements.month)),
        )
        .where(and(isNotNull(statements.overdueAt), eq(purchases.status, 'UNPAID')));
      const [autopay] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(autopayAttempts)
        .where(and(eq(autopayAttempts.kstDate, today), eq(autopayAttempts.status, 'FAILED')));
      return {
        date: today,
        payments: { count: Number(figures?.payments ?? 0), amount: Number(figures?.amount ?? 0) },
        refunds: { count: Number(figures?.refunds ?? 0), amount: Number(figures?.refunded ?? 0) },
        overdueCustomers: Number(overdue?.n ?? 0),
        autopayFailures: Number(autopay?.n ?? 0),
      };
    },
  };
}
export type OpsCustomersService = ReturnType<typeof createOpsCustomersService>;
