import type { Db } from '../db/client';
import type { Clock } from '../lib/clock';
import { seedDemoBills } from './demo-bills';
import { seedChatProducts } from './demo-chat-products';
import { ensureDemoCustomer } from './demo-customer';
import { ensureDemoMerchantKeys } from './demo-merchant-keys';
import { seedDemoShorts } from './demo-shorts';

export interface SeedContext {
  db: Db;
  clock: Clock;
  /** DEMO_MERCHANT_KEY: the demo merchants' API keys derive from it. */
  demoMerchantKey: string;
}

/** Demo data for the embedded default (domain §11). Every step is idempotent. */
export async function seedDemo({ db, clock, demoMerchantKey }: SeedContext): Promise<void> {
  await ensureDemoCustomer(db);
  await ensureDemoMerchantKeys(db, demoMerchantKey);
  await seedDemoBills(db, clock);
  await seedDemoShorts(db, clock);
  await seedChatProducts(db);
}
