import { resolve } from 'node:path';
import { startEmbeddedPostgres } from './db/embedded';
import { shiftedClock, systemClock } from './lib/clock';
import type { loadConfig } from './lib/config';
import { databaseWhere, dependencyStep, reasonOf } from './lib/dependency-step';
import { embeddedDataDir } from './lib/embedded-choice';
import type { HoldingServer } from './lib/holding-server';
import { safeErrorMessage } from './lib/safe-error';
import { resolveJwtSecret } from './lib/secrets';
import { waitForDependency } from './lib/startup-wait';
import { isDependencyOutage } from './lib/unavailable';

/**
 * The app's own modules (Fastify, the routes, the seed, the jobs), loaded while PostgreSQL starts: the
 * database is a separate process, so its start and this process's module loading overlap instead of adding
 * up (ADR 0119; the build splits these into their own chunk).
 */
const loadAppModules = () =>
  Promise.all([
    import('./app'),
    import('./seed/startup'),
    import('./jobs/scheduler'),
    import('./http/graceful-shutdown'),
    import('./modules/media/storage'),
    import('./modules/autopay/autopay-job'),
    import('./modules/bank/sandbox-bank'),
    import('./modules/media/sweep'),
    import('./db/tx'),
    import('./modules/settlements/payouts'),
  ]);

function storeWhere(config: ReturnType<typeof loadConfig>, mediaDir: (c: typeof config) => string): string {
  if (config.STORAGE === 'local') return `local directory ${mediaDir(config)}`;
  return `S3 bucket ${config.S3_BUCKET ?? '?'} at ${config.S3_ENDPOINT ?? 'AWS'}`;
}

/**
 * The last net under "a database outage never crashes the process": background work whose promise nobody
 * awaits (a re-read after the LISTEN connection came back, say) and that meets the outage is logged and
 * dropped (it runs again on its own). Any other unhandled rejection is still a bug and ends the process.
 */
function survivesBackgroundOutages(): void {
  process.on('unhandledRejection', (reason) => {
    if (!isDependencyOutage(reason)) throw reason;
    console.warn(`background work met a dependency outage and will run again: ${reasonOf(reason)}`);
  });
}

async function main(): Promise<void> {
  survivesBackgroundOutages();
  // Start-up phases in ms since the process began (the bench reads `readyMs`; target ≤ 1 s).
  const phases: Record<string, number> = { modules: Math.round(performance.now()) };
  const embeddedIn = embeddedDataDir();
  // The embedded PostgreSQL is spawned first, before even the database client's modules load (~0.3 s of
  // drizzle and pg): its start is the longest wait, and everything else overlaps it. Loading keeps this
  // thread busy, and the few steps before the spawn (the binary's path, a free port) need it, so the modules
  // load from the spawn on, while PostgreSQL starts (ADRs 0149, 0153). Without an embedded server, or when
  // it is already running (shared, nothing spawned), they load at once or when the start is done.
  let spawned: () => void = () => undefined;
  const postmasterSpawned = new Promise<void>((resolve) => {
    spawned = resolve;
  });
  const embedded = embeddedIn
    ? startEmbeddedPostgres({ dataDir: embeddedIn, durable: true, onSpawned: () => spawned() })
    : undefined;
  // A failed start is reported below, by the database step.
  const startLoading = (embedded ? Promise.race([postmasterSpawned, embedded]) : Promise.resolve()).catch(
    () => undefined,
  );
  // The database client first, the app's modules after it: the cluster's setup starts as soon as PostgreSQL is
  // up, and goes on beside the rest of the loading and the build (ADR 0261).
  const databaseClient = startLoading.then(() => import('./db/client'));
  const modules = databaseClient.then(loadAppModules, loadAppModules);
  // The whole configuration is checked while PostgreSQL starts; a bad one ends the start, and the server
  // spawned for it is stopped on the way out.
  const config = await startLoading.then(() => import('./lib/config')).then(({ loadConfig }) => loadConfig());
  const dataDir = resolve(config.DATA_DIR);
  // Settled either way before they are awaited, so a failure is reported once, below.
  for (const loading of [embedded, databaseClient, modules]) loading?.catch(() => undefined);
  const databaseName = config.DATABASE_URL
    ? `database (${databaseWhere(config.DATABASE_URL)})`
    : `embedded database (${dataDir})`;
  // While an external database is down at start-up the instance waits for it, answering probes meanwhile.
  let holding: HoldingServer | undefined;
  const database = await dependencyStep(databaseName, async () => {
    const client = await databaseClient.catch(async (error: unknown) => {
      // The server spawned above stops with the start-up that failed.
      await embedded?.then((server) => server.stop()).catch(() => undefined);
      throw error;
    });
    // Returned while the embedded cluster still migrates: the app's build goes on beside the migrations.
    const open = () =>
      client.openDatabaseWhileMigrating({
        databaseUrl: config.DATABASE_URL,
        migrationDatabaseUrl: config.MIGRATION_DATABASE_URL,
        dataDir,
        embedded,
      });
    if (!config.DATABASE_URL) return open();
    return waitForDependency(open, {
      what: databaseName,
      waitMs: config.DATABASE_WAIT_SECONDS * 1000,
      log: (line) => console.warn(line),
      onWaiting: async () => {
        // Loaded only when needed: a normal start does not pay for it.
        const { startHoldingServer } = await import('./lib/holding-server');
        holding = await startHoldingServer(config.HOST, config.PORT, 'postgres').catch((error: unknown) => {
          console.warn(`could not answer probes while waiting: ${reasonOf(error)}`);
          return undefined;
        });
      },
    });
  }).catch(async (error: unknown) => {
    await holding?.close();
    throw error;
  });
  phases.database = Math.round(performance.now());
  // The migrations' failure is the database's, named as such; what touches a table starts after them.
  const migrated = dependencyStep(databaseName, () => database.migrated).then(() => {
    phases.migrated = Math.round(performance.now());
  });
  migrated.catch(() => undefined);
  const [
    { buildApp },
    { prepareDemoData },
    { startInstanceWork, startScheduler },
    { gracefulShutdown },
    { createStorage, mediaDir },
    { runAutopay },
    { createSandboxBank },
    { sweepMedia },
    { CommitListeners, listenedDb },
    { payDueSettlements },
  ] = await modules;
  phases.modulesLoaded = Math.round(performance.now());
  const clock = config.CLOCK_START ? shiftedClock(config.CLOCK_START) : systemClock;
  if (config.CLOCK_START)
    console.warn(`CLOCK_START is set: the server's clock starts at ${config.CLOCK_START} (tests only)`);
  // One media storage for the demo seed and the app.
  const storage = createStorage(config);
  // Seeding writes media: a store that is down is named here rather than by a bare socket error mid-seed.
  if (config.SEED_DEMO) await dependencyStep(`media store (${storeWhere(config, mediaDir)})`, () => storage.check());
  // The migrations and then the seed wait on the database; building the app is this thread's work. They run
  // side by side: building touches no table before `migrated` (buildApp) and reads nothing the seed writes
  // (requests, which do, are only taken once all three are done, at listen).
  const seeded = migrated
    .then(() =>
      prepareDemoData(database, {
        storage,
        seed: config.SEED_DEMO,
        demoMerchantKey: config.DEMO_MERCHANT_KEY,
        clock,
        log: console,
        config,
      }),
    )
    .then(() => {
      phases.seed = Math.round(performance.now());
    });
  seeded.catch(() => undefined);
  // The app and the jobs below share one set of commit listeners: a job's events wake the relay at once.
  const commits = new CommitListeners();
  const app = await buildApp({
    config: { ...config, WEB_DIST: config.WEB_DIST ?? resolve(import.meta.dirname, '../../web/dist') },
    database,
    clock,
    storage,
    commits,
    jwtSecret: resolveJwtSecret(config.JWT_SECRET, dataDir),
  }).catch(async (error: unknown) => {
    await seeded.catch(() => undefined);
    throw error;
  });
  phases.app = Math.round(performance.now());
  await seeded.catch(async (error: unknown) => {
    await app.close();
    throw error;
  });
  // The job registry (jobs/registry.ts): this instance's own work always; the cluster's jobs (docs/rules/
  // bills-and-grades.md#B9–B12), caught up first, with RUN_JOBS. Never in buildApp, so tests drive jobs themselves.
  const db = listenedDb(database.db, commits);
  const stopInstanceWork = startInstanceWork(clock, app.log, {
    rankingRefresh: () => app.ranking.ensureFresh(),
    transcodeTakeover: () => app.mediaPipeline.takeOverStranded(),
  });
  const bank = createSandboxBank(db, clock);
  const stopClusterJobs = config.RUN_JOBS
    ? await startScheduler(
        { db, pool: database.pool },
        clock,
        app.log,
        {
          autopay: () => runAutopay(db, bank, clock),
          payouts: () => payDueSettlements(db, bank, clock),
          pushes: () => app.notices.push.drain(),
          webhooks: () => app.webhooks.sender.drain(),
          mediaSweep: () => sweepMedia(db, storage, clock),
        },
        app.metrics,
        { bank },
      )
    : async () => undefined;
  const stopJobs = async () => {
    stopInstanceWork();
    await stopClusterJobs();
  };
  const shutdown = gracefulShutdown({
    app,
    stopJobs,
    retireDatabase: () => database.retire(),
    closeDatabase: () => database.close(),
    drainMs: config.SHUTDOWN_DRAIN_SECONDS * 1000,
    timeoutMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    exit: (code) => process.exit(code),
  });
  // Ctrl-C reaches this process twice (terminal and `npm start`'s wrapper): the shutdown runs once.
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  // Started by `npm start`'s wrapper with an IPC channel: if the wrapper dies (even by kill -9), stop too.
  process.on('disconnect', () => shutdown('disconnect'));
  // The port passes from the probes' stand-in to the app (a refused connection for a moment at most).
  await holding?.close();
  await app.listen({ host: config.HOST, port: config.PORT });
  app.log.info(
    { database: database.kind, readyMs: Math.round(performance.now()), phases },
    `OhGood Pay listening on http://localhost:${config.PORT}`,
  );
}

main().catch((error: unknown) => {
  // Never the raw error: a failed query's message carries its parameters.
  console.error(error instanceof Error ? safeErrorMessage(error.message) : 'start-up failed');
  process.exit(1);
});
