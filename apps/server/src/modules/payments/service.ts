import { maskAccount } from '@ohgood/contract/bank';
import { gradeOf } from '@ohgood/contract/grades';
import type { Bank } from '@ohgood/contract/limits';
import { PAY_MSG } from '@ohgood/contract/messages';
import type {
  FinalResult,
  Mypage,
  PaymentHistoryItem,
  PointHistoryItem,
  ValidateBody,
  ValidateResult,
} from '@ohgood/contract/payments';
import { qrTokenFrom } from '@ohgood/contract/qr';
import { and, desc, eq, gt, gte, isNull, lt, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { customers, idempotencyKeys, merchants, paymentRequests, pointLedger, purchases } from '../../db/schema';
import { type Tx, withTx } from '../../db/tx';
import { addMonths, type Clock, kstIso, kstMonth } from '../../lib/clock';
import { AppError, conflict, forbidden, notFound, tooMany, unprocessable } from '../../lib/errors';
import { hit, isOver } from '../../lib/rate-limit';
import { availableLimit, ensureStatement } from '../bills/statements';
import { lockedPointBalance, POINT_REASONS, postPoints } from '../points/ledger';

const FAILED_CODE_WINDOW = { limit: 5, windowMs: 10 * 60 * 1000 };
const VALIDATE_PER_IP = { limit: 60, windowMs: 10 * 60 * 1000 };
const FINAL_SCOPE = 'payment-final';

/** Earned points: floor(owed × rate%), in integers (rates have one decimal: 0.2 % → 2 per mille). */
export function earnedPoints(owed: number, pointPercent: number): number {
  return Math.floor((owed * Math.round(pointPercent * 10)) / 1000);
}

/** The request a code points at: a 6-digit PIN or a QR token (or its deep link); undefined if malformed. */
function codeCondition(body: ValidateBody): SQL | undefined {
  if (body.codeType === 'qrcode') return eq(paymentRequests.qrToken, qrTokenFrom(body.value));
  return /^\d{6}$/.test(body.value) ? eq(paymentRequests.pinCode, body.value) : undefined;
}

export interface PaymentService {
  validate(customerId: number, body: ValidateBody, ip: string): Promise<ValidateResult>;
  final(customerId: number, requestId: string, point: number, idempotencyKey?: string): Promise<FinalResult>;
  paymentHistory(customerId: number, month?: string): Promise<PaymentHistoryItem[]>;
  pointHistory(customerId: number, month?: string): Promise<PointHistoryItem[]>;
  mypage(customerId: number): Promise<Mypage>;
}

export function createPaymentService(db: Db, clock: Clock): PaymentService {
  const invalidCode = () => notFound('INVALID_CODE', PAY_MSG.invalidCode);

  async function storedFinal(executor: Db | Tx, customerId: number, key: string): Promise<FinalResult | null> {
    const [row] = await executor
      .select({ response: idempotencyKeys.response })
      .from(idempotencyKeys)
      .where(
        and(
          eq(idempotencyKeys.customerId, customerId),
          eq(idempotencyKeys.scope, FINAL_SCOPE),
          eq(idempotencyKeys.key, key),
        ),
      );
    return (row?.response as FinalResult | undefined) ?? null;
  }

  return {
    async validate(customerId, body, ip) {
      const now = clock.now();
      const failures = { key: `pay-code-fail:${customerId}`, ...FAILED_CODE_WINDOW };
      if (
        (await hit(db, { key: `pay-validate-ip:${ip}`, ...VALIDATE_PER_IP }, now)) ||
        (await isOver(db, failures, now))
      ) {
        throw tooMany('TOO_MANY_CODE_ATTEMPTS', PAY_MSG.tooManyCodes);
      }
      const [customer] = await db
        .select({ suspended: customers.suspended, pointBalance: customers.pointBalance })
        .from(customers)
        .where(eq(customers.id, customerId));
      if (!customer) throw notFound('CUSTOMER_NOT_FOUND', '고객 정보를 찾을 수 없습니다.');
      if (customer.suspended) throw forbidden('ACCOUNT_SUSPENDED', PAY_MSG.suspended);

      const match = codeCondition(body);
      // Reserve in one conditional update: only an ACTIVE, unexpired request that is free or already mine.
      const [reserved] = match
        ? await db
            .update(paymentRequests)
            .set({ reservedBy: customerId })
            .where(
              and(
                match,
                eq(paymentRequests.status, 'ACTIVE'),
                gt(paymentRequests.expiresAt, now),
                or(isNull(paymentRequests.reservedBy), eq(paymentRequests.reservedBy, customerId)),
              ),
            )
            .returning()
        : [];
      if (!reserved) {
        // A code this customer already holds or paid is not a guess (a scanner seeing it again, issue #14):
        // it is refused the same way but does not count towards the brute-force lock.
        const [mine] = match
          ? await db
              .select({ id: paymentRequests.id })
              .from(paymentRequests)
              .where(and(match, eq(paymentRequests.reservedBy, customerId)))
              .limit(1)
          : [];
        if (!mine) await hit(db, failures, now);
        const [taken] = match
          ? await db
              .select({ id: paymentRequests.id })
              .from(paymentRequests)
              .where(and(match, eq(paymentRequests.status, 'ACTIVE'), gt(paymentRequests.expiresAt, now)))
          : [];
        if (taken) throw conflict('REQUEST_RESERVED', PAY_MSG.reserved);
        // Unknown, expired, paid and cancelled codes all look the same: no oracle.
        throw invalidCode();
      }
      return {
        requestName: reserved.requestName,
        price: reserved.totalPrice,
        point: customer.pointBalance,
        balance: await availableLimit(db, customerId, kstMonth(now)),
        requestId: reserved.id,
      };
    },

    async final(customerId, requestId, point, idempotencyKey) {
      if (idempotencyKey) {
        const replay = await storedFinal(db, customerId, `key:${idempotencyKey}`);
        if (replay) return replay;
      }
      const now = clock.now();
      return withTx(db, async (tx) => {
        const [request] = await tx
          .select()
          .from(paymentRequests)
          .where(eq(paymentRequests.id, requestId))
          .for('update');
        if (!request) throw notFound('PAYMENT_REQUEST_NOT_FOUND', PAY_MSG.noRequest);
        if (request.status === 'PAID') {
          // The same final again (a retry, a double tap): the first result, nothing written.
          const first =
            request.reservedBy === customerId ? await storedFinal(tx, customerId, `request:${requestId}`) : null;
          if (first) return first;
          throw conflict('ALREADY_PAID', '이미 결제된 요청입니다.');
        }
        if (request.status !== 'ACTIVE' || request.expiresAt.getTime() <= now.getTime()) {
          throw conflict('REQUEST_NOT_ACTIVE', PAY_MSG.notActive);
        }
        if (request.reservedBy === null) throw conflict('REQUEST_NOT_VALIDATED', PAY_MSG.notValidated);
        if (request.reservedBy !== customerId) throw conflict('REQUEST_RESERVED', PAY_MSG.reserved);

        // Lock the customer: a customer's payments run one at a time, so limit and points are exact.
        const [customer] = await tx.select().from(customers).where(eq(customers.id, customerId)).for('update');
        if (!customer) throw notFound('CUSTOMER_NOT_FOUND', '고객 정보를 찾을 수 없습니다.');
        if (customer.suspended) throw forbidden('ACCOUNT_SUSPENDED', PAY_MSG.suspended);
        const points = await lockedPointBalance(tx, customerId);
        if (point < 0 || point > Math.min(request.totalPrice, points)) {
          throw unprocessable('INVALID_POINT', PAY_MSG.invalidPoint);
        }
        const owed = request.totalPrice - point;
        const month = kstMonth(now);
        if (owed > (await availableLimit(tx, customerId, month))) {
          throw unprocessable('LIMIT_EXCEEDED', PAY_MSG.limitExceeded);
        }

        const earned = earnedPoints(owed, gradeOf(customer.gradePoint).pointPercent);
        await ensureStatement(tx, customerId, month);
        const [purchase] = await tx
          .insert(purchases)
          .values({
            customerId,
            merchantId: request.merchantId,
            requestId: request.id,
            requestName: request.requestName,
            totalPrice: request.totalPrice,
            pointUsed: point,
            price: owed,
            pointEarned: earned,
            statementMonth: month,
            createdAt: now,
          })
          .returning({ id: purchases.id });
        if (!purchase) throw new Error('purchase insert returned nothing');
        const ref = { customerId, refType: 'purchase' as const, refId: String(purchase.id), at: now };
        let pointBalance = points;
        if (point > 0) {
          pointBalance =
            (await postPoints(tx, {
              ...ref,
              amount: -point,
              reason: POINT_REASONS.paymentUse,
              idempotencyKey: `purchase:${purchase.id}:use`,
            })) ?? pointBalance;
        }
        if (earned > 0) {
          pointBalance =
            (await postPoints(tx, {
              ...ref,
              amount: earned,
              reason: POINT_REASONS.paymentEarn,
              idempotencyKey: `purchase:${purchase.id}:earn`,
            })) ?? pointBalance;
        }
        await tx
          .update(paymentRequests)
          .set({ status: 'PAID', paidAt: now, closedAt: now })
          .where(eq(paymentRequests.id, request.id));

        const result: FinalResult = {
          paymentId: purchase.id,
          price: request.totalPrice,
          pointUsed: point,
          pointEarned: earned,
          balance: await availableLimit(tx, customerId, month),
          pointBalance,
        };
        const keys = [`request:${requestId}`, ...(idempotencyKey ? [`key:${idempotencyKey}`] : [])];
        await tx
          .insert(idempotencyKeys)
          .values(keys.map((key) => ({ customerId, scope: FINAL_SCOPE, key, response: result, createdAt: now })))
          .onConflictDoNothing();
        return result;
      });
    },

    async paymentHistory(customerId, month) {
      const conditions: SQL[] = [eq(purchases.customerId, customerId)];
      if (month) conditions.push(eq(purchases.statementMonth, month));
      const rows = await db
        .select({
          paymentId: purchases.id,
          createdAt: purchases.createdAt,
          requestName: purchases.requestName,
          merchant: merchants.name,
          totalPrice: purchases.totalPrice,
          point: purchases.pointUsed,
          price: purchases.price,
          pointEarned: purchases.pointEarned,
          status: purchases.status,
        })
        .from(purchases)
        .innerJoin(merchants, eq(merchants.id, purchases.merchantId))
        .where(and(...conditions))
        .orderBy(desc(purchases.createdAt), desc(purchases.id));
      return rows.map(({ createdAt, status, ...row }) => ({
        ...row,
        date: kstIso(createdAt),
        status: status as PaymentHistoryItem['status'],
      }));
    },

    async pointHistory(customerId, month) {
      const conditions: SQL[] = [eq(pointLedger.customerId, customerId)];
      if (month) {
        conditions.push(gte(pointLedger.kstDate, `${month}-01`), lt(pointLedger.kstDate, `${addMonths(month, 1)}-01`));
      }
      const rows = await db
        .select({ createdAt: pointLedger.createdAt, reason: pointLedger.reason, amount: pointLedger.amount })
        .from(pointLedger)
        .where(and(...conditions))
        .orderBy(desc(pointLedger.createdAt), desc(pointLedger.id));
      return rows.map((row) => ({ date: kstIso(row.createdAt), pointExplain: row.reason, point: row.amount }));
    },

    async mypage(customerId) {
      const [customer] = await db.select().from(customers).where(eq(customers.id, customerId));
      if (!customer) throw new AppError(404, 'CUSTOMER_NOT_FOUND', '고객 정보를 찾을 수 없습니다.');
      const grade = gradeOf(customer.gradePoint);
      return {
        name: customer.name,
        emailId: customer.email,
        gradeName: grade.name,
        pointPercent: grade.pointPercent,
        gradePoint: customer.gradePoint,
        account: maskAccount(customer.account),
        accountName: customer.accountName as Bank,
        point: customer.pointBalance,
      };
    },
  };
}
