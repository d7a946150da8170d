import { maskAccount } from '@ohgood/contract/bank';
import { gradeOf } from '@ohgood/contract/grades';
import { kstIso } from '@ohgood/contract/kst';
import type { Bank } from '@ohgood/contract/limits';
import type { Mypage, PaymentHistoryItem, PointHistoryItem } from '@ohgood/contract/payments';
import { POINT_REASON_LABELS } from '@ohgood/contract/point-reasons';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import { findCustomer, paymentRows, pointRows } from './payments-repository';

/** What a customer reads of their payments: the payment and point histories and the my-page card. */
export function createPaymentReads(db: Db) {
  return {
    async paymentHistory(customerId: number, month?: string): Promise<PaymentHistoryItem[]> {
      const rows = await paymentRows(db, customerId, month);
      return rows.map(({ createdAt, status, ...row }) => ({
        ...row,
        date: kstIso(createdAt),
        status: status as PaymentHistoryItem['status'],
      }));
    },

    async pointHistory(customerId: number, month?: string): Promise<PointHistoryItem[]> {
      const rows = await pointRows(db, customerId, month);
      return rows.map((row) => ({
        date: kstIso(row.createdAt),
        pointExplain: POINT_REASON_LABELS[row.reason],
        point: row.amount,
        merchant: row.merchant,
      }));
    },

    async mypage(customerId: number): Promise<Mypage> {
      const customer = await findCustomer(db, customerId);
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
