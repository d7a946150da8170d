import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freePort } from './free-port';
import { isDependencyOutage } from './unavailable';

/** What pg throws for a server-side error: a DatabaseError with its SQLSTATE. */
function serverError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, severity: 'FATAL' });
}

/** What node's net module throws for a socket failure. */
function socketError(code: string, syscall: string, message: string): Error {
  return Object.assign(new Error(message), { code, syscall, errno: -1 });
}

/** The error pg really gives when connecting to `config` fails. */
async function connectFailure(config: pg.ClientConfig): Promise<unknown> {
  const client = new pg.Client({ ...config, user: 'nobody', password: 'x', database: 'none' });
  client.on('error', () => undefined);
  return client.connect().then(
    () => new Error('connected?'),
    (error: unknown) => error,
  );
}

describe('a database outage, in each shape pg, the pool and drizzle give it', () => {
  const outages: Array<[string, Error]> = [
    [
      '57P01 admin shutdown (pg_ctl restart, pg_terminate_backend)',
      serverError('57P01', 'terminating connection due to administrator command'),
    ],
    [
      '57P02 crash shutdown (another backend crashed)',
      serverError('57P02', 'terminating connection because of crash of another server process'),
    ],
    ['57P03 starting up', serverError('57P03', 'the database system is starting up')],
    ['57P03 shutting down', serverError('57P03', 'the database system is shutting down')],
    ['08006 connection failure', serverError('08006', 'connection failure')],
    ['08001 unable to connect', serverError('08001', 'could not connect')],
    ['08003 connection does not exist', serverError('08003', 'connection does not exist')],
    ['53300 too many connections (failover storms)', serverError('53300', 'sorry, too many clients already')],
    ['ECONNREFUSED', socketError('ECONNREFUSED', 'connect', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['ECONNRESET', socketError('ECONNRESET', 'read', 'read ECONNRESET')],
    ['EPIPE', socketError('EPIPE', 'write', 'write EPIPE')],
    ['ETIMEDOUT', socketError('ETIMEDOUT', 'connect', 'connect ETIMEDOUT 10.0.0.5:5432')],
    ['ENOENT on the Unix socket', socketError('ENOENT', 'connect', 'connect ENOENT /data/postgres/.s.PGSQL.5432')],
    ['a socket closed mid-query', new Error('Connection terminated unexpectedly')],
    ['a connect that timed out', new Error('Connection terminated due to connection timeout')],
    ['the pool checkout timeout', new Error('timeout exceeded when trying to connect')],
    [
      'a client whose connection failed earlier',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
    ['a client already closed', new Error('Client was closed and is not queryable')],
  ];

  for (const [shape, error] of outages) {
    it(`${shape}: an outage, bare and inside drizzle's query error`, () => {
      expect(isDependencyOutage(error)).toBe(true);
      expect(isDependencyOutage(new DrizzleQueryError('select 1', [], error))).toBe(true);
    });
  }

  it('ECONNREFUSED as pg really throws it for a TCP port nobody listens on', async () => {
    const error = await connectFailure({ host: '127.0.0.1', port: await freePort() });
    expect((error as { code?: string }).code).toBe('ECONNREFUSED');
    expect(isDependencyOutage(error)).toBe(true);
  });

  it('ENOENT as pg really throws it for a Unix socket that is gone (the embedded server is down)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ohgood-socket-'));
    try {
      const error = await connectFailure({ host: dir, port: 5432 });
      expect((error as { code?: string }).code).toBe('ENOENT');
      expect(isDependencyOutage(error)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('not an outage: a bug or a bad request stays a 500 or 4xx', () => {
  const bugs: Array<[string, Error]> = [
    ['a unique violation', serverError('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error', serverError('42601', 'syntax error at or near "selct"')],
    ['a lock timeout', serverError('55P03', 'canceling statement due to lock timeout')],
    [
      'a missing file (not a socket connect)',
      socketError('ENOENT', 'open', "ENOENT: no such file or directory, open 'x'"),
    ],
    ['a plain TypeError', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a pool used after shutdown', new Error('Cannot use a pool after calling end on the pool')],
  ];
  for (const [shape, error] of bugs) {
    it(shape, () => {
      expect(isDependencyOutage(error)).toBe(false);
      expect(isDependencyOutage(new DrizzleQueryError('select 1', [], error))).toBe(false);
    });
  }
});
