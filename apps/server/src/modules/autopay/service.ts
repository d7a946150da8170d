import type { AutopaySetting } from '@ohgood/contract/autopay';
import { maskAccount } from '@ohgood/contract/bank';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { customers } from '../../db/schema';
import { notFound } from '../../lib/errors';

/** The customer's autopay switch and the account it debits (docs/rules/bills-and-grades.md#B15). */
export function createAutopayService(db: Db) {
  async function read(customerId: number): Promise<AutopaySetting> {
    const [row] = await db
      .select({ autopay: customers.autopay, account: customers.account, accountName: customers.accountName })
      .from(customers)
      .where(eq(customers.id, customerId));
    if (!row) throw notFound('CUSTOMER_NOT_FOUND', '고객 정보를 찾을 수 없습니다.');
    return { ...row, account: maskAccount(row.account) };
  }
  return {
    get: read,
    async set(customerId: number, autopay: boolean): Promise<AutopaySetting> {
      await db.update(customers).set({ autopay }).where(eq(customers.id, customerId));
      return read(customerId);
    },
  };
}
export type AutopayService = ReturnType<typeof createAutopayService>;
