import type { RegisterRequest } from '@ohgood/contract/auth';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import type { Db } from '../db/client';
import type { LogStream } from '../http/logging';
import { type Clock, ManualClock } from '../lib/clock';
import { type Config, testConfig } from '../lib/config';
import { openTestDatabase, type TestDatabase } from './test-database';

export interface Harness {
  app: FastifyInstance;
  database: TestDatabase;
  clock: ManualClock;
  close(): Promise<void>;
  /** Registers a customer through the API and returns its login token and id. */
  signUp(overrides?: Partial<RegisterRequest>): Promise<{ token: string; customerId: number; emailId: string }>;
}

let sequence = 0;

/** The real app on a real database, with a controlled clock (KST 2026-11-22 12:00 by default). */
export async function createHarness(
  options: {
    now?: string;
    config?: Partial<Config>;
    extend?: (app: FastifyInstance) => void;
    logStream?: LogStream;
    /** The TOTP wall clock; the harness's own clock by default, so fixtures' codes follow it. */
    wallClock?: Clock;
    /** The `db` the app is given, from the test database's own (a counting one, say); that one by default. */
    appDb?: (db: Db) => Db;
  } = {},
): Promise<Harness> {
  const clock = new ManualClock(options.now ?? '2026-11-22T03:00:00Z');
  const database = await openTestDatabase();
  const app = await buildApp({
    config: testConfig(options.config),
    database: options.appDb ? { ...database, db: options.appDb(database.db) } : database,
    clock,
    wallClock: options.wallClock ?? clock,
    jwtSecret: 'test-secret-test-secret-test-secret-1234',
    logStream: options.logStream,
  });
  options.extend?.(app);
  await app.ready();
  return {
    app,
    database,
    clock,
    async close() {
      await app.close();
      await database.close();
    },
    async signUp(overrides = {}) {
      sequence += 1;
      const body: RegisterRequest = {
        name: '테스트',
        emailId: `user${sequence}-${Date.now()}@example.com`,
        pwd: 'password1!',
        birth: '1990-01-01',
        account: '12345678901',
        accountName: '국민',
        ...overrides,
      };
      // Each test customer signs up from its own address, as real ones would: the per-IP sign-up limits
      // (docs/security.md) then stay at their production values in every test.
      const remoteAddress = `10.${(sequence >> 16) & 255}.${(sequence >> 8) & 255}.${sequence & 255}`;
      const registered = await app.inject({
        method: 'POST',
        url: '/api/public/register',
        payload: body,
        remoteAddress,
      });
      if (registered.statusCode !== 200) throw new Error(`register failed: ${registered.body}`);
      const login = await app.inject({
        method: 'POST',
        url: '/auth',
        payload: { emailId: body.emailId, pwd: body.pwd },
        remoteAddress,
      });
      if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
      return {
        token: login.json().accessToken as string,
        customerId: registered.json().data.customerId as number,
        emailId: body.emailId,
      };
    },
  };
}

/** Another instance of the app on the harness's database and clock (what a second server would be). */
export async function secondInstance(h: Harness, config: Partial<Config> = {}): Promise<FastifyInstance> {
  const app = await buildApp({
    config: testConfig(config),
    database: h.database,
    clock: h.clock,
    wallClock: h.clock,
    jwtSecret: 'test-secret-test-secret-test-secret-1234',
  });
  await app.ready();
  return app;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
