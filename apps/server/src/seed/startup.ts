import { eq, inArray, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client';
import { customers, merchantApiKeys } from '../db/schema';
import { rowsOf } from '../db/tx';
import type { Clock } from '../lib/clock';
import type { Config } from '../lib/config';
import type { MediaStorage } from '../modules/media/storage';
import { hashApiKey } from '../modules/merchants/keys';
import { DEMO_CUSTOMER } from './demo-customer';
import { demoMerchantKeys } from './demo-merchant-keys';
import { DEMO_MERCHANT_USER, disableDemoMerchantUser, enabledDemoMerchantUser } from './demo-merchant-user';
import { disableDemoOperators } from './demo-operators';
import { seedDemo } from './seed';

export interface StartupLog {
  warn(message: string): void;
}

/**
 * The demo part of start-up, under the start-up lock (two instances starting together seed once):
 * with SEED_DEMO the demo data is seeded idempotently; without it the published demo merchant keys are
 * revoked, because a documented key on a real deployment is an open door to the merchant API. Either way a
 * warning names the demo accounts the database holds.
 */
export async function prepareDemoData(
  database: Database,
  options: {
    seed: boolean;
    demoMerchantKey: string;
    clock: Clock;
    log: StartupLog;
    config?: Config;
    storage?: MediaStorage;
  },
): Promise<{ revokedKeys: number; demoAccounts: string[] }> {
  const keyHashes = demoMerchantKeys(options.demoMerchantKey).map((k) => hashApiKey(k.key));
  const revokedKeys = await database.exclusive(async (db) => {
    if (options.seed) {
      await seedDemo({
        db,
        clock: options.clock,
        demoMerchantKey: options.demoMerchantKey,
        config: options.config,
        storage: options.storage,
      });
      return 0;
    }
    const revoked = await db
      .delete(merchantApiKeys)
      .where(inArray(merchantApiKeys.keyHash, keyHashes))
      .returning({ merchantId: merchantApiKeys.merchantId });
    const operators = await disableDemoOperators(db, options.clock.now());
    if (operators > 0) options.log.warn(`SEED_DEMO is off: disabled ${operators} published demo operators`);
    if (await disableDemoMerchantUser(db, options.clock.now())) {
      options.log.warn('SEED_DEMO is off: disabled the published demo merchant user');
    }
    return revoked.length;
  });
  if (revokedKeys > 0) {
    options.log.warn(`SEED_DEMO is off: revoked ${revokedKeys} published demo merchant API keys`);
  }
  // What the warning names, asked in one statement: the last step before the start is ready.
  const nested = new QueryBuilder();
  const [present] = await rowsOf<{ customer: boolean; keys: number; merchantUser: boolean }>(
    database.db,
    sql`select exists (${nested.select({ id: customers.id }).from(customers).where(eq(customers.email, DEMO_CUSTOMER.email))}) as customer,
      (${nested.select({ n: sql`count(*)::int` }).from(merchantApiKeys).where(inArray(merchantApiKeys.keyHash, keyHashes))}) as keys,
      exists (${enabledDemoMerchantUser()}) as "merchantUser"`,
  );
  const demoAccounts: string[] = [];
  if (present?.customer) demoAccounts.push(`demo customer ${DEMO_CUSTOMER.email} (published password)`);
  if (present && present.keys > 0) {
    demoAccounts.push(`${present.keys} demo merchant API keys (published in the README)`);
  }
  if (present?.merchantUser) {
    demoAccounts.push(
      `demo merchant user ${DEMO_MERCHANT_USER.email} at /merchant/portal (published password and TOTP secret)`,
    );
  }
  if (demoAccounts.length > 0) {
    options.log.warn(
      `DEMO ACCOUNTS PRESENT: ${demoAccounts.join('; ')}. Never run a real deployment with them: ` +
        'start with SEED_DEMO=false and remove the demo customer.',
    );
  }
  return { revokedKeys, demoAccounts };
}
