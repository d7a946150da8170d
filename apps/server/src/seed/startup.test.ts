import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../db/client';
import { customers, merchantApiKeys, shorts } from '../db/schema';
import { ManualClock } from '../lib/clock';
import { loadConfig, testConfig } from '../lib/config';
import { merchantIdForKey } from '../modules/merchants/keys';
import { countingDb } from '../test/counting-db';
import { openTestDatabase } from '../test/test-database';
import { DEMO_CUSTOMER, ensureDemoCustomer } from './demo-customer';
import { ensureDemoMerchantKeys } from './demo-merchant-keys';
import { ensureDemoMerchantUser } from './demo-merchant-user';
import { prepareDemoData } from './startup';

const clock = new ManualClock('2026-11-22T03:00:00Z');
const KEY = 'demo-merchant-key';
const mediaDirs: string[] = [];
afterAll(() => {
  for (const dir of mediaDirs) rmSync(dir, { recursive: true, force: true });
});
function capture() {
  const warnings: string[] = [];
  return { warnings, log: { warn: (message: string) => warnings.push(message) } };
}

describe('demo data on a real deployment', () => {
  it('SEED_DEMO defaults to false with DATABASE_URL and to true on the embedded database', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/ohgood' }).SEED_DEMO).toBe(false);
    expect(loadConfig({}).SEED_DEMO).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/ohgood', SEED_DEMO: 'true' }).SEED_DEMO).toBe(true);
  });

  it('without SEED_DEMO no demo merchant key exists: published keys left by an old seed are revoked, with a warning', async () => {
    const database = await openTestDatabase();
    try {
      const fresh = capture();
      expect(await prepareDemoData(database, { seed: false, demoMerchantKey: KEY, clock, log: fresh.log })).toEqual({
        revokedKeys: 0,
        demoAccounts: [],
      });
      expect(fresh.warnings).toEqual([]);
      expect(await database.db.select().from(merchantApiKeys)).toEqual([]);

      // A database seeded once before (e.g. a demo that became production).
      await ensureDemoCustomer(database.db, clock.now());
      await ensureDemoMerchantKeys(database.db, KEY);
      expect(await merchantIdForKey(database.db, KEY)).not.toBeNull();
      await ensureDemoMerchantUser(database.db, clock.now());
      const old = capture();
      const outcome = await prepareDemoData(database, { seed: false, demoMerchantKey: KEY, clock, log: old.log });
      expect(outcome.revokedKeys).toBe(8);
      expect(await merchantIdForKey(database.db, KEY)).toBeNull();
      expect(await merchantIdForKey(database.db, `${KEY}-2`)).toBeNull();
      expect(old.warnings.join('\n')).toMatch(/revoked 8 published demo merchant API keys/);
      expect(old.warnings.join('\n')).toMatch(/disabled the published demo merchant user/);
      expect(old.warnings.join('\n')).not.toMatch(/demo merchant user shop@/);
      expect(old.warnings.join('\n')).toMatch(/DEMO ACCOUNTS PRESENT: demo customer demo@ohgood\.kr/);
    } finally {
      await database.close();
    }
  });
});

describe('the demo accounts warning', () => {
  it('asks what it names in one statement after the seed: the last step before the start is ready', async () => {
    const database = await openTestDatabase();
    try {
      await ensureDemoCustomer(database.db, clock.now());
      await ensureDemoMerchantUser(database.db, clock.now());
      // The lock's work runs on a connection of its own; what is counted is the report on the app's pool.
      const counted = countingDb(database.db);
      const { log, warnings } = capture();
      const outcome = await prepareDemoData(
        { ...database, db: counted.db },
        { seed: false, demoMerchantKey: KEY, clock, log },
      );
      expect(counted.counter.statements).toBe(1);
      // With demo data off the merchant user was just disabled: only the customer is named.
      expect(outcome.demoAccounts).toEqual([`demo customer ${DEMO_CUSTOMER.email} (published password)`]);
      expect(warnings.join('\n')).toMatch(/DEMO ACCOUNTS PRESENT: demo customer demo@ohgood\.kr/);
    } finally {
      await database.close();
    }
  });
});

describe('demo seed with two instances', () => {
  it('two instances starting together on an empty database seed once, each warning about the demo accounts', async () => {
    const first = await openTestDatabase();
    // A second server instance: its own pool on the same PostgreSQL database.
    const second: Database = await openDatabase({ databaseUrl: first.url, migrationDatabaseUrl: first.ownerUrl });
    const mediaDir = mkdtempSync(join(tmpdir(), 'ohgood-seed-twice-'));
    mediaDirs.push(mediaDir);
    const config = testConfig({ MEDIA_DIR: mediaDir });
    const logs = [capture(), capture()] as const;
    try {
      await Promise.all(
        ([first, second] as const).map((database, i) =>
          prepareDemoData(database, {
            seed: true,
            demoMerchantKey: KEY,
            clock,
            log: logs[i === 0 ? 0 : 1].log,
            config,
          }),
        ),
      );
      const [count] = await first.db.select({ n: sql<number>`count(*)::int` }).from(shorts);
      expect(count?.n).toBe(9);
      const demo = await first.db.select().from(customers).where(eq(customers.email, DEMO_CUSTOMER.email));
      expect(demo).toHaveLength(1);
      expect(await first.db.select().from(merchantApiKeys)).toHaveLength(8);
      for (const { warnings } of logs) {
        expect(warnings.join('\n')).toMatch(/DEMO ACCOUNTS PRESENT/);
        expect(warnings.join('\n')).toMatch(/demo merchant user shop@merchant\.ohgood\.kr at \/merchant\/portal/);
      }
    } finally {
      await second.close();
      await first.close();
    }
  }, 180_000);
});
