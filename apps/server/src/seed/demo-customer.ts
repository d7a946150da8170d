import { hash } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { customers } from '../db/schema';
import { setSandboxAccount } from '../modules/bank/sandbox-bank';
import { freeNickname } from './free-nickname';

/** Documented in the README; demo data only. */
export const DEMO_CUSTOMER = {
  email: 'demo@ohgood.kr',
  password: 'ohgood123!',
  name: '김오굿',
  birth: '1995-03-14',
  account: '1002345678901',
  accountName: '토스',
  nickname: '오굿러버',
} as const;

/** What the demo customer's linked account holds in the sandbox bank when it is seeded. */
export const DEMO_BANK_BALANCE = 3_000_000;

/** Creates the demo customer once, signed up at `at` (the app clock's time); returns its id either way. */
export async function ensureDemoCustomer(db: Db, at: Date): Promise<number> {
  const [existing] = await db
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.email, DEMO_CUSTOMER.email));
  if (existing) return existing.id;
  const [row] = await db
    .insert(customers)
    .values({
      email: DEMO_CUSTOMER.email,
      passwordHash: await hash(DEMO_CUSTOMER.password),
      name: DEMO_CUSTOMER.name,
      birth: DEMO_CUSTOMER.birth,
      account: DEMO_CUSTOMER.account,
      accountName: DEMO_CUSTOMER.accountName,
      nickname: await freeNickname(db, DEMO_CUSTOMER.nickname),
      introduce: '오굿페이 데모 계정입니다.',
      createdAt: at,
    })
    .onConflictDoNothing()
    .returning({ id: customers.id });
  if (row) {
    // The demo account in the sandbox bank, with money for autopay to debit (`npm run bank` changes it).
    await setSandboxAccount(db, DEMO_CUSTOMER.accountName, DEMO_CUSTOMER.account, { balance: DEMO_BANK_BALANCE }, at);
    return row.id;
  }
  const [again] = await db.select({ id: customers.id }).from(customers).where(eq(customers.email, DEMO_CUSTOMER.email));
  return again?.id ?? 0;
}
