import type { Db } from '../db/client';
import type { Clock } from '../lib/clock';
import { ensureDemoCustomer } from './demo-customer';

export interface SeedContext {
  db: Db;
  clock: Clock;
}

/** Demo data for the embedded default (domain §11). Every step is idempotent. */
export async function seedDemo({ db }: SeedContext): Promise<void> {
  await ensureDemoCustomer(db);
}
