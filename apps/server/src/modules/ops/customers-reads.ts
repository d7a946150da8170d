import { createHmac } from 'node:crypto';
import { maskAccount } from '@ohgood/contract/bank';
import { creditLimitBounds, gradeOf, monthlyLimitOf } from '@ohgood/contract/grades';
import { kstDate, kstIso, kstMonth } from '@ohgood/contract/kst';
import type { OpsCustomerPage, OpsCustomerRow } from '@ohgood/contract/ops';
import type { Db } from '../../db/client';
import { withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import { writeAudit } from './audit';
import {
  type CustomerRow,
  customerActivity,
  dayFigures,
  findCustomer,
  LOCKOUT_WINDOW_MS,
  searchCustomers,
  searchQueryOf,
} from './customers-repository';
import { maskEmail, maskName } from './masking';
import { actorOf, type StaffPrincipal } from './staff-principal';

export const notFoundCustomer = () => notFound('CUSTOMER_NOT_FOUND', '고객 정보를 찾을 수 없습니다.');

/** What a masked customer row is made from. */
export type MaskableCustomer = Pick<CustomerRow, 'id' | 'name' | 'email' | 'account' | 'gradePoint' | 'suspended'>;

/** A customer as a search result or a work list's row: personal fields masked (#O4). */
export function rowOf(customer: MaskableCustomer): OpsCustomerRow {
  return {
    customerId: customer.id,
    name: maskName(customer.name),
    email: maskEmail(customer.email),
    account: maskAccount(customer.account),
    gradeName: gradeOf(customer.gradePoint).name,
    suspended: customer.suspended,
  };
}

type Activity = Awaited<ReturnType<typeof customerActivity>>;

/** When and why the customer was suspended or lifted: overdue months and operators' changes, oldest first. */
function suspensionHistory({ months, staffChanges }: Activity) {
  return [
    ...months
      .filter((s) => s.overdueAt !== null)
      .map((s) => ({ at: s.overdueAt as Date, what: `${s.month} 청구서 연체로 자동 정지` })),
    ...staffChanges.map((row) => ({
      at: row.at,
      what: `${row.action === 'customer.suspend' ? '운영자 정지' : '운영자 해제'} (${row.staffName}: ${row.reason})`,
    })),
  ]
    .sort((a, b) => a.at.getTime() - b.at.getTime())
    .map((h) => ({ at: kstIso(h.at), what: h.what }));
}

/** The console's customer page from the customer row and its activity. */
function pageOf(customer: CustomerRow, activity: Activity): OpsCustomerPage {
  const { lines, months, points, notices, lockouts } = activity;
  return {
    customer: {
      ...rowOf(customer),
      nickname: customer.nickname,
      accountName: customer.accountName,
      createdAt: kstIso(customer.createdAt),
      gradePoint: customer.gradePoint,
      limit: monthlyLimitOf(customer),
      gradeLimit: gradeOf(customer.gradePoint).monthlyLimit,
      creditLimit: customer.creditLimit,
      limitBounds: creditLimitBounds(customer.gradePoint),
      usedThisMonth: activity.owed,
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
    suspensionHistory: suspensionHistory(activity),
  };
}

/** What support and risk look up (docs/rules/operations.md#O4): search, one customer's page, today's figures. */
export function createOpsCustomerReads(
  db: Db,
  clock: Clock,
  /** Keys the hash of a search's query in its audit row (derived from the server's secret). */
  auditKey: Buffer,
) {
  return {
    /**
     * Exact customer id, exact e-mail or exact account number; only a name may be part of one (results
     * masked). Each search writes an audit row with what kind of query it was, a keyed hash of it and the ids
     * it found — never the query itself (docs/rules/operations.md#O4, #O6).
     */
    async search(by: StaffPrincipal, q: string): Promise<OpsCustomerRow[]> {
      const query = searchQueryOf(q);
      return withTx(db, async (tx) => {
        const rows = await searchCustomers(tx, query.where);
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
      const customer = await findCustomer(db, customerId);
      if (!customer) throw notFoundCustomer();
      const now = clock.now();
      return pageOf(customer, await customerActivity(db, customer, kstMonth(now), now));
    },

    /** Today's figures for the console's home (KST day). */
    async home() {
      const now = clock.now();
      const today = kstDate(now);
      return { date: today, ...(await dayFigures(db, today, now)) };
    },
  };
}
