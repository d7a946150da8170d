import { createHmac } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { authEndpoints } from '@ohgood/contract/auth';
import { kstDate } from '@ohgood/contract/kst';
import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { type AppCacheHome, createAppCaches } from './caches';
import type { Database, Db } from './db/client';
import { PgListener } from './db/pg-listener';
import { CommitListeners, listenedDb } from './db/tx';
import { createRelay, type EventConsumer, type Relay } from './events/relay';
import { DOCS_PREFIX, registerApiDocs } from './http/api-docs';
import { registerAuthGuard } from './http/auth-guard';
import { registerEndpoint } from './http/endpoint';
import { frameworkErrors, registerErrorHandler } from './http/error-handler';
import { registerInputGuard } from './http/input-guard';
import { passJsonText } from './http/json-text';
import { type LogStream, loggerOptions } from './http/logging';
import { type AppMetrics, registerMetrics } from './http/metrics';
import { isApiPath } from './http/paths';
import { registerPublicCache } from './http/public-cache';
import { registerReadiness } from './http/readiness';
import { registerSecurityHeaders } from './http/security-headers';
import { registerUnreadBodyDrain } from './http/unread-body';
import { inlineScriptsOfWebApp, registerWebApp } from './http/web-app';
import { lastFinishedRuns } from './jobs/last-runs';
import { type Clock, systemClock } from './lib/clock';
import type { Config } from './lib/config';
import { workRoot } from './lib/work-dir';
import { createRevocations, REVOCATION_CHANNEL } from './modules/auth/revocations';
import { authRoutes } from './modules/auth/routes';
import { createAuthService } from './modules/auth/service';
import { createTokenService } from './modules/auth/tokens';
import { runAutopay } from './modules/autopay/autopay-job';
import { failedDebitsOn } from './modules/autopay/failed-debits';
import { autopayRoutes, sandboxInboxRoutes } from './modules/autopay/routes';
import { createAutopayService } from './modules/autopay/service';
import type { BankGateway } from './modules/bank/gateway';
import { createSandboxBank } from './modules/bank/sandbox-bank';
import { billsRoutes } from './modules/bills/routes';
import { createBillsService } from './modules/bills/service';
import { chatLlmFromConfig } from './modules/chat/llm';
import { chatRoutes } from './modules/chat/routes';
import { createChatService } from './modules/chat/service';
import { checkinRoutes } from './modules/checkin/routes';
import { createCheckinService } from './modules/checkin/service';
import { collectionsRoutes } from './modules/collections/routes';
import { createCollectionsService } from './modules/collections/service';
import { resolveMediaTools } from './modules/media/ffmpeg';
import { mediaRoutes } from './modules/media/routes';
import { createStorage, type MediaStorage } from './modules/media/storage';
import { merchantPortalRoutes } from './modules/merchant-portal/routes';
import { createMerchantUserSignIn, createPortalTokens } from './modules/merchant-portal/sign-in';
import { merchantIdForKey } from './modules/merchants/keys';
import { createLiveStatus, requestStatusAnnouncer } from './modules/merchants/live-status';
import { merchantRoutes } from './modules/merchants/routes';
import { createMerchantService } from './modules/merchants/service';
import { monthEndRoutes } from './modules/month-end/routes';
import { createLiveNotices } from './modules/notifications/live';
import { noticesConsumer } from './modules/notifications/notices-consumer';
import { createPushSender, type PushSender, resolveVapidKeys } from './modules/notifications/push';
import { notificationRoutes } from './modules/notifications/routes';
import { createNotificationService } from './modules/notifications/service';
import { createOpsCustomersService } from './modules/ops/customers-service';
import { opsDeskRoutes } from './modules/ops/desk/routes';
import { createOpsMerchantsService } from './modules/ops/merchants-service';
import { createModerationService } from './modules/ops/moderation-service';
import { opsRoutes } from './modules/ops/routes';
import { createStaffService } from './modules/ops/staff-service';
import { createStaffTokens } from './modules/ops/staff-tokens';
import { paymentRoutes } from './modules/payments/routes';
import { createPaymentService } from './modules/payments/service';
import { profileRoutes } from './modules/profiles/routes';
import { createProfileService } from './modules/profiles/service';
import { latestReconciliation } from './modules/reconciliation/reads';
import { reportRoutes } from './modules/report/routes';
import { createReportService } from './modules/report/service';
import { safetyRoutes } from './modules/safety/routes';
import { createSafetyService } from './modules/safety/service';
import { createSettlementOpsActions } from './modules/settlements/ops-actions';
import { merchantSettlementRoutes, opsSettlementRoutes } from './modules/settlements/routes';
import { createCommentsService } from './modules/shorts/comments-service';
import { feedPosterOf } from './modules/shorts/feed-poster';
import { createFeedService } from './modules/shorts/feed-service';
import { ShortsPipeline, uploadLimits } from './modules/shorts/pipeline';
import { createRanking, type Ranking } from './modules/shorts/ranking';
import { createReactionsService } from './modules/shorts/reactions-service';
import { publicShortsRoutes, shortsRoutes } from './modules/shorts/routes';
import { createSearchService } from './modules/shorts/search';
import { searchRoutes } from './modules/shorts/search-routes';
import { createSubscriptionsService } from './modules/shorts/subscriptions-service';
import { createUploadStatusService } from './modules/shorts/upload-status-service';
import { createViewerState } from './modules/shorts/viewer-state';
import { createWatchPointsService } from './modules/shorts/watch-points-service';
import { shortsMypageRoutes } from './modules/shorts-mypage/routes';
import { createShortsMypageService } from './modules/shorts-mypage/service';
import { createWebhookConsumer } from './modules/webhooks/enqueue';
import { opsWebhookRoutes, webhookRoutes } from './modules/webhooks/routes';
import { createWebhookSender, type WebhookSender } from './modules/webhooks/sender';
import { createWebhookService } from './modules/webhooks/service';

export interface AppDeps {
  config: Config;
  database: Database;
  clock: Clock;
  /** Real time, for what an outside device reads (staff TOTP codes); the system clock by default. */
  wallClock?: Clock;
  jwtSecret: string;
  /** Where log lines go (tests capture them); stdout by default. */
  logStream?: LogStream;
  /** Media storage; built from the config when absent. */
  storage?: MediaStorage;
  /** The bank for 1원 인증 deposits; the sandbox bank when absent. */
  bank?: BankGateway;
  /**
   * Who hears what this app's transactions committed (the relay's wake-up); made here when absent. The process
   * that also runs jobs passes its own, so a job's events wake the relay too.
   */
  commits?: CommitListeners;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The upload queue (tests wait on it with `idle()` instead of sleeping). */
    mediaPipeline: ShortsPipeline;
    /** This instance's caches: hit/miss counts (`home.stats()`) and the change API (`changes`). */
    caches: Pick<AppCacheHome, 'home' | 'changes'>;
    /** Operational metrics (`GET /metrics` with METRICS_TOKEN); jobs report their runs here. */
    metrics: AppMetrics;
    /** The outbox relay (tests drain it instead of sleeping). */
    relay: Relay;
    /** Web Push (tests drain it instead of sleeping). */
    notices: { push: PushSender };
    /** Merchant webhooks' sender (tests drain it instead of sleeping; the background work runs it). */
    webhooks: { sender: WebhookSender };
    /** The feed ranking of this instance (the job registry refreshes it). */
    ranking: Ranking;
  }
}

/** How long a refused request's unread body is read and dropped before its socket is closed (unread-body.ts). */
const UNREAD_BODY_DRAIN_MS = 10_000;

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

/**
 * The route schemas' compilers: zod's. A hot path's pre-built JSON text (`JsonText`) goes out as it is;
 * every other body is checked by its schema. (Fastify types these factories for Ajv's schemas; it hands them
 * each route's schemas, which are zod's here.)
 */
const ZOD_COMPILERS = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => (route: Parameters<typeof serializerCompiler>[0]) => passJsonText(serializerCompiler(route)),
} as unknown as CompilersFactory;

/** The Fastify instance with every plugin and route; tests build it on a real database. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, clock } = deps;
  const commits = deps.commits ?? new CommitListeners();
  // Every service gets the handle whose transactions tell this app's listeners what they committed.
  const database = { ...deps.database, db: listenedDb(deps.database.db, commits) };
  const storage = deps.storage ?? createStorage(config);
  const app = Fastify({
    logger: loggerOptions(config.LOG_LEVEL, deps.logStream),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    frameworkErrors,
    // Bodies are checked by the contract's zod schemas, in and out. Given here rather than set afterwards,
    // Fastify never builds its default JSON-schema compilers (Ajv, fast-json-stringify), and the server's
    // build leaves them out (scripts/build-server.mjs).
    schemaController: { compilersFactory: ZOD_COMPILERS },
  }).withTypeProvider<ZodTypeProvider>();
  // The app may be built while the database still migrates (main.ts): nothing here reads or writes a table
  // before `migrated`, and the start (every `onReady` below, so `listen` and the first request) waits for it.
  readyAfter(app, deps.database.migrated);
  registerErrorHandler(app);
  registerSecurityHeaders(app, config.MEDIA_BASE_URL, inlineScriptsOfWebApp(config.WEB_DIST));
  registerInputGuard(app);
  registerUnreadBodyDrain(app, {
    // The largest body any route accepts (an upload's video and thumbnail, their form fields), and a few
    // seconds: a refused upload's rest is read and dropped so its client hears the refusal.
    maxBytes: (config.UPLOAD_MAX_VIDEO_MB + config.UPLOAD_MAX_THUMBNAIL_MB + 1) * 1024 * 1024,
    maxMs: UNREAD_BODY_DRAIN_MS,
  });

  // Docs and the web app's static files are public; this hook must exist before those plugins add routes.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(DOCS_PREFIX) || !isApiPath(route.url)) {
      route.config = { ...route.config, access: 'public' };
    }
  });
  registerApiDocs(app, ZOD_COMPILERS);

  // One LISTEN connection per instance: live payment status and cache invalidation (migration 0003 triggers).
  const notifications = new PgListener(database.url, database.connectable);
  app.addHook('onClose', () => notifications.close());

  // Every in-process cache, and the changes (announced by the database) that drop each one.
  const { home, caches, changes, listening } = createAppCaches(
    { publicMs: config.PUBLIC_CACHE_MS, publicFeedMs: config.PUBLIC_FEED_CACHE_MS },
    notifications,
  );
  readyAfter(app, listening);
  app.decorate('caches', { home, changes });

  // Customer tokens an operator revoked are refused on every instance (docs/rules/operations.md#O5). Heard
  // before they are read, so one revoked in between is not missed; read once the schema is there.
  const revocations = createRevocations(database.db);
  readyAfter(
    app,
    notifications
      .subscribe(REVOCATION_CHANNEL, (payload) => {
        // The re-read after a reconnect can meet the database going away again: logged, never a crash; the
        // next reconnect reads again.
        revocations.onNotification(payload).catch((error: unknown) => {
          app.log.warn({ err: error }, 'revoked sessions not re-read; read again at the next reconnect');
        });
      })
      .then(() => database.migrated)
      .then(() => revocations.load()),
  );
  const tokens = createTokenService(deps.jwtSecret, clock, revocations.isRevoked, caches.genuineTokens);
  const staff = createStaffService(database.db, clock, createStaffTokens(deps.jwtSecret, clock), deps.wallClock);
  const portalSignIn = createMerchantUserSignIn(
    database.db,
    clock,
    createPortalTokens(deps.jwtSecret, clock),
    deps.wallClock ?? systemClock,
  );
  registerAuthGuard(
    app,
    tokens,
    { key: (key) => merchantIdForKey(database.db, key), portal: portalSignIn.principalOf },
    staff.principalOf,
  );
  registerPublicCache(app, config.PUBLIC_CACHE_MS, publicShortsRoutes(caches));

  // Liveness: the process answers HTTP. No dependency checks, so a database outage does not get every
  // instance restarted; that is what readiness (/health/ready) reports.
  registerEndpoint(app, authEndpoints.health, async () => ({ status: 'ok' as const, database: database.kind }));
  registerReadiness(app, {
    db: database.db,
    connectable: database.connectable,
    storage,
    dataDir: workRoot(config.DATA_DIR),
  });

  const auth = createAuthService(database.db, clock, tokens, {
    perHour: config.SIGNUPS_PER_IP_PER_HOUR,
    perDay: config.SIGNUPS_PER_IP_PER_DAY,
  });
  await registerInTurn(app, authRoutes(auth));
  // Shorts: one media queue and one ranking per instance, built here and handed to the routes.
  const pipeline = new ShortsPipeline(
    database.db,
    clock,
    storage,
    () => resolveMediaTools(config),
    uploadLimits(config),
    app.log,
    workRoot(config.DATA_DIR),
  );
  app.decorate('mediaPipeline', pipeline);
  app.addHook('onReady', () => pipeline.recover());
  app.addHook('onClose', () => pipeline.close());
  const ranking = createRanking(database.db, clock, caches, changes.rankingChanged);
  // Its periodic refresh is the job registry's (jobs/registry.ts), started where the app is composed.
  app.decorate('ranking', ranking);
  app.addHook('onClose', () => ranking.settled());
  await registerInTurn(app, mediaRoutes(storage));
  // What each signed-in viewer reacted to and follows, remembered per instance.
  const viewerState = createViewerState(database.db, caches.viewerFacts);
  // Hidden or shown content leaves every cached answer of this instance at once; the others hear the
  // database's change announcement of the same write.
  const contentChanged = () => changes.everythingChanged();
  const safety = createSafetyService(database.db, clock, contentChanged, caches.blockedCreators);
  await registerInTurn(app, safetyRoutes(safety));
  const comments = createCommentsService(database.db, clock, caches.commentRows, changes, safety.blockedBy);
  const feed = createFeedService(database.db, config.MEDIA_BASE_URL, ranking, viewerState, safety.blockedBy);
  // One service per shorts sub-domain, each with one job (modules/shorts/*-service.ts).
  await registerInTurn(
    app,
    shortsRoutes({
      feed,
      uploadStatus: createUploadStatusService(database.db),
      comments,
      reactions: createReactionsService(database.db, clock, changes),
      subscriptions: createSubscriptionsService(database.db, clock, changes),
      watchPoints: createWatchPointsService(database.db, clock),
      pipeline,
      mayUpload: safety.assertMayUpload,
      workDir: workRoot(config.DATA_DIR),
    }),
  );
  await registerInTurn(
    app,
    searchRoutes(createSearchService(database.db, config.MEDIA_BASE_URL, { manyMatches: caches.searchManyMatches })),
  );
  await registerInTurn(
    app,
    profileRoutes(createProfileService(database.db, storage, config.MEDIA_BASE_URL, app.log, changes)),
  );
  await registerInTurn(app, shortsMypageRoutes(createShortsMypageService(database.db, config.MEDIA_BASE_URL)));
  const merchants = createMerchantService(database.db, clock, config.PAYMENT_REQUEST_TTL_SECONDS);
  const live = createLiveStatus(merchants, notifications);
  await registerInTurn(
    app,
    merchantRoutes(merchants, config.PUBLIC_URL, live, clock, config.STATUS_STREAMS_PER_REQUEST),
  );
  await registerInTurn(app, merchantPortalRoutes(database.db, clock, portalSignIn, merchants));
  app.decorate(
    'metrics',
    registerMetrics(app, config.METRICS_TOKEN, {
      pool: database.pool,
      caches: home,
      openStreams: () => live.size(),
      transcodeQueue: () => pipeline.pending(),
      reconciliationMismatches: async () => (await latestReconciliation(database.db))?.mismatches ?? null,
      jobsLastFinished: () => lastFinishedRuns(database.db),
      now: () => clock.now(),
      failedDebitsToday: () => failedDebitsOn(database.db, kstDate(clock.now())),
      // The relay is composed last (its consumers come from the modules); a scrape comes after the start.
      outboxBacklog: () => app.relay.backlog(),
    }),
  );
  const opsCustomers = createOpsCustomersService(
    database.db,
    clock,
    merchants,
    revocations.remember,
    createHmac('sha256', deps.jwtSecret).update('ohgood audit query hashes').digest(),
  );
  await registerInTurn(
    app,
    opsRoutes({
      db: database.db,
      staff,
      customers: opsCustomers,
      merchants: createOpsMerchantsService(database.db, clock),
      moderation: createModerationService(database.db, clock, config.MEDIA_BASE_URL, contentChanged),
    }),
  );
  await registerInTurn(app, monthEndRoutes(database.db, clock));
  await registerInTurn(app, opsDeskRoutes(database.db, clock));
  await registerInTurn(app, merchantSettlementRoutes(database.db));
  await registerInTurn(app, opsSettlementRoutes(database.db, createSettlementOpsActions(database.db, clock)));
  await registerInTurn(app, paymentRoutes(createPaymentService(database.db, clock)));

  const bills = createBillsService(database.db, clock);
  await registerInTurn(app, billsRoutes(bills));
  // The built-in bank unless a real bank's adapter is handed in; its "bank app" is for development only.
  const bank = deps.bank ?? createSandboxBank(database.db, clock);
  await registerInTurn(
    app,
    autopayRoutes(
      createAutopayService(database.db, {
        clock,
        bank,
        codeKey: createHmac('sha256', deps.jwtSecret).update('ohgood account verification codes').digest(),
      }),
    ),
  );
  await registerInTurn(
    app,
    collectionsRoutes({
      db: database.db,
      clock,
      collections: createCollectionsService({
        db: database.db,
        clock,
        bank,
        previewKey: createHmac('sha256', deps.jwtSecret).update('ohgood bulk action previews').digest(),
        suspend: opsCustomers.suspend,
        lift: opsCustomers.lift,
      }),
      // A re-run autopay plan is debited at once, as after a scheduled one.
      afterRun: async (job) => {
        if (job === 'autopay') await runAutopay(database.db, bank, clock);
      },
    }),
  );
  if (config.SANDBOX_BANK_INBOX && !deps.bank) await registerInTurn(app, sandboxInboxRoutes(database.db));
  const notices = await registerNotices(app, deps, database.db, notifications);
  const webhooks = await registerWebhooks(app, deps, database.db);
  registerRelay(app, deps, database.db, commits, [notices, requestStatusAnnouncer, webhooks]);
  await registerInTurn(app, reportRoutes(createReportService(database.db, clock, bills)));
  await registerInTurn(app, checkinRoutes(createCheckinService(database.db, clock)));
  const chat = createChatService(database.db, clock, {
    mediaBaseUrl: config.MEDIA_BASE_URL,
    llm: chatLlmFromConfig(config),
  });
  await registerInTurn(app, chatRoutes(chat));

  await registerWebApp(app, config.WEB_DIST, feedPosterOf(feed));
  return app;
}

/**
 * `app.register`, one turn of the event loop later. A start builds the app while the database is set up on this
 * same thread (its connections' handshakes, the migrations and grants, main.ts): each of their round trips
 * waits for the thread, so the build lets them in between two plugins instead of holding them all until it
 * ends (~35 ms of a start, ADR 0261).
 */
async function registerInTurn(app: FastifyInstance, plugin: FastifyPluginAsync): Promise<void> {
  await nextTurn();
  await app.register(plugin);
}

/**
 * Holds the app's start (its `onReady`, so `listen` and the first injected request) until `setup` is done,
 * while the build goes on meanwhile: the database's part of starting (reading state, LISTEN) overlaps
 * registering the routes instead of coming before it. A failure fails the start.
 */
function readyAfter(app: FastifyInstance, setup: Promise<unknown>): void {
  setup.catch(() => undefined);
  app.addHook('onReady', async () => {
    await setup;
  });
}

/**
 * The notification center (docs/rules/notifications.md): its API and live stream and the Web Push sender;
 * returns its consumer of the outbox, which wakes the push sender after a batch with a notice to push now.
 */
async function registerNotices(
  app: FastifyInstance,
  deps: AppDeps,
  db: Db,
  notifications: PgListener,
): Promise<EventConsumer> {
  const { config, clock } = deps;
  const vapid = await resolveVapidKeys(config, config.DATA_DIR);
  const push = createPushSender(db, clock, vapid, app.log, { timeoutMs: config.PUSH_TIMEOUT_MS });
  app.decorate('notices', { push });
  const live = createLiveNotices(db, notifications);
  await registerInTurn(
    app,
    notificationRoutes(
      createNotificationService(db, clock, {
        hosts: config.PUSH_HOSTS,
        allowLoopback: config.PUSH_ALLOW_LOOPBACK,
      }),
      live,
      vapid.publicKey,
      config.NOTICE_STREAMS_PER_CUSTOMER,
    ),
  );
  return noticesConsumer(() => void push.drain().catch((error) => app.log.error({ err: error }, 'web push failed')));
}

/**
 * The outbox relay and its consumers (ADR 0213): a new consumer of domain events is one more entry in
 * `consumers`. With DISPATCH_EVENTS it runs from the app's start to its close.
 */
function registerRelay(
  app: FastifyInstance,
  deps: AppDeps,
  db: Db,
  commits: CommitListeners,
  consumers: readonly EventConsumer[],
): void {
  const relay = createRelay(db, deps.clock, { consumers, commits, log: app.log });
  app.decorate('relay', relay);
  if (!deps.config.DISPATCH_EVENTS) return;
  app.addHook('onReady', async () => relay.start());
  app.addHook('onClose', () => relay.stop());
}

/**
 * Merchant webhooks (docs/rules/webhooks.md): the merchant API's routes, the sender, and the outbox consumer
 * that enqueues deliveries; each enqueue wakes the sender after its commit, the background work sends the
 * retries.
 */
async function registerWebhooks(app: FastifyInstance, deps: AppDeps, db: Db) {
  const { config, clock } = deps;
  const rules = { allowLoopback: config.WEBHOOKS_ALLOW_LOOPBACK };
  const sender = createWebhookSender(db, clock, rules);
  const send = () => void sender.drain().catch((error) => app.log.error({ err: error }, 'webhook sending failed'));
  app.decorate('webhooks', { sender });
  await registerInTurn(app, webhookRoutes(createWebhookService(db, clock, rules, send)));
  await registerInTurn(app, opsWebhookRoutes(db, clock));
  return createWebhookConsumer(send);
}
