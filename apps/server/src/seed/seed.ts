import type { Db } from '../db/client';
import type { Clock } from '../lib/clock';
import { type Config, loadConfig } from '../lib/config';
import { createStorage, type MediaStorage } from '../modules/media/storage';
import { seedDemoBills } from './demo-bills';
import { seedChatProducts } from './demo-chat-products';
import { ensureDemoCustomer } from './demo-customer';
import { ensureDemoMerchantKeys } from './demo-merchant-keys';
import { ensureDemoMerchantUser } from './demo-merchant-user';
import { ensureDemoOperators } from './demo-operators';
import { ensureDemoSettlementAccounts } from './demo-settlement-accounts';
import { seedDemoShorts } from './demo-shorts';

export interface SeedContext {
  db: Db;
  clock: Clock;
  /** DEMO_MERCHANT_KEY: the demo merchants' API keys derive from it. */
  demoMerchantKey: string;
  /** Where demo media goes (MEDIA_DIR / DATA_DIR / STORAGE); the process environment when omitted. */
  config?: Config;
  /** The app's one media storage (built from `config` when omitted, e.g. by tests). */
  storage?: MediaStorage;
}

/** Demo data for the embedded default (docs/rules/demo-data.md). Every step is idempotent. */
export async function seedDemo({
  db,
  clock,
  demoMerchantKey,
  config = loadConfig(),
  storage,
}: SeedContext): Promise<void> {
  const media = storage ?? createStorage(config);
  await ensureDemoCustomer(db, clock.now());
  await ensureDemoMerchantKeys(db, demoMerchantKey);
  await ensureDemoOperators(db, clock.now());
  await ensureDemoMerchantUser(db, clock.now());
  await seedDemoBills(db, clock);
  await ensureDemoSettlementAccounts(db, clock);
  await seedDemoShorts(db, clock, config, media);
  await seedChatProducts(db, config, media);
}
