import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client';
import { merchants } from '../db/schema';
import { withTx } from '../db/tx';
import { addApiKey } from '../modules/merchants/keys';
import { POINT_REASONS, postPoints } from '../modules/points/ledger';

/** A real merchant row with a real (hashed) API key. */
export async function createMerchant(db: Db, name = '테스트상점', category: string | null = '식비') {
  const [row] = await db.insert(merchants).values({ name, category }).returning({ id: merchants.id });
  if (!row) throw new Error('merchant insert failed');
  const key = `test-key-${randomBytes(8).toString('hex')}`;
  await addApiKey(db, row.id, key);
  return { merchantId: row.id, key, headers: { 'x-merchant-key': key } };
}

/** Credits points through the real ledger, as an attendance reward would. */
export async function grantPoints(db: Db, customerId: number, amount: number, at: Date): Promise<void> {
  await withTx(db, (tx) =>
    postPoints(tx, {
      customerId,
      amount,
      reason: POINT_REASONS.checkin,
      refType: 'checkin',
      refId: `test-${randomBytes(4).toString('hex')}`,
      idempotencyKey: `test-grant:${randomBytes(8).toString('hex')}`,
      at,
    }),
  );
}
