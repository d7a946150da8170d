import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { authEndpoints } from '@ohgood/contract/auth';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Database } from './db/client';
import { Notifications } from './db/notifications';
import { registerAuthGuard } from './http/auth-guard';
import { registerEndpoint } from './http/endpoint';
import { registerErrorHandler } from './http/error-handler';
import { registerInputGuard } from './http/input-guard';
import { passJsonText } from './http/json-text';
import { type LogStream, loggerOptions } from './http/logging';
import { isApiPath } from './http/paths';
import { registerPublicCache } from './http/public-cache';
import { registerReadiness } from './http/readiness';
import { registerSecurityHeaders } from './http/security-headers';
import { registerWebApp } from './http/web-app';
import type { Clock } from './lib/clock';
import type { Config } from './lib/config';
import { workRoot } from './lib/work-dir';
import { createRevocations, REVOCATION_CHANNEL } from './modules/auth/revocations';
import { authRoutes } from './modules/auth/routes';
import { createAuthService } from './modules/auth/service';
import { createTokenService } from './modules/auth/tokens';
import { billsRoutes } from './modules/bills/routes';
import { createBillsService } from './modules/bills/service';
import { chatLlmFromConfig } from './modules/chat/llm';
import { chatRoutes } from './modules/chat/routes';
import { createChatService } from './modules/chat/service';
import { checkinRoutes } from './modules/checkin/routes';
import { createCheckinService } from './modules/checkin/service';
import { resolveMediaTools } from './modules/media/ffmpeg';
import { mediaRoutes } from './modules/media/routes';
import { createStorage, type MediaStorage } from './modules/media/storage';
import { merchantIdForKey } from './modules/merchants/keys';
import { merchantRoutes } from './modules/merchants/routes';
import { createMerchantService } from './modules/merchants/service';
import { createOpsCustomersService } from './modules/ops/customers-service';
import { createOpsMerchantsService } from './modules/ops/merchants-service';
import { createModerationService } from './modules/ops/moderation-service';
import { opsRoutes } from './modules/ops/routes';
import { createStaffService } from './modules/ops/staff-service';
import { createStaffTokens } from './modules/ops/staff-tokens';
import { paymentRoutes } from './modules/payments/routes';
import { createPaymentService } from './modules/payments/service';
import { profileRoutes } from './modules/profiles/routes';
import { createProfileService } from './modules/profiles/service';
import { reportRoutes } from './modules/report/routes';
import { createReportService } from './modules/report/service';
import { safetyRoutes } from './modules/safety/routes';
import { createSafetyService } from './modules/safety/service';
import { createCommentsService } from './modules/shorts/comments-service';
import { feedPosterOf } from './modules/shorts/feed-poster';
import { createFeedService } from './modules/shorts/feed-service';
import { ShortsPipeline, uploadLimits } from './modules/shorts/pipeline';
import { createRanking, RANK_REFRESH_MS } from './modules/shorts/ranking';
import { createReactionsService } from './modules/shorts/reactions-service';
import { PUBLIC_SHORTS_ROUTES, shortsRoutes } from './modules/shorts/routes';
import { createSearchService } from './modules/shorts/search';
import { searchRoutes } from './modules/shorts/search-routes';
import { createSubscriptionsService } from './modules/shorts/subscriptions-service';
import { createUploadStatusService } from './modules/shorts/upload-status-service';
import { createViewerState, viewersOfNotification } from './modules/shorts/viewer-state';
import { createWatchPointsService } from './modules/shorts/watch-points-service';
import { shortsMypageRoutes } from './modules/shorts-mypage/routes';
import { createShortsMypageService } from './modules/shorts-mypage/service';

export interface AppDeps {
  config: Config;
  database: Database;
  clock: Clock;
  jwtSecret: string;
  /** Where log lines go (tests capture them); stdout by default. */
  logStream?: LogStream;
  /** Media storage; built from the config when absent. */
  storage?: MediaStorage;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The upload queue (tests wait on it with `idle()` instead of sleeping). */
    mediaPipeline: ShortsPipeline;
  }
}

/** The Fastify instance with every plugin and route; tests build it on a real database. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database, clock } = deps;
  const storage = deps.storage ?? createStorage(config);
  const app = Fastify({
    logger: loggerOptions(config.LOG_LEVEL, deps.logStream),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  // A hot path's pre-built JSON text (`JsonText`) goes out as it is; every other body is checked by its schema.
  app.setSerializerCompiler((route: Parameters<typeof serializerCompiler>[0]) =>
    passJsonText(serializerCompiler(route)),
  );
  registerErrorHandler(app);
  registerSecurityHeaders(app, config.MEDIA_BASE_URL);
  registerInputGuard(app);

  // Docs and the web app's static files are public; this hook must exist before those plugins add routes.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/docs') || !isApiPath(route.url)) {
      route.config = { ...route.config, access: 'public' };
    }
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'OhGood Pay API', version: '1.0.0', description: '오굿페이 API' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          merchantKey: { type: 'apiKey', in: 'header', name: 'X-Merchant-Key' },
          staffBearer: { type: 'http', scheme: 'bearer', description: '운영 콘솔 토큰 (고객 토큰과 별개)' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });

  // One LISTEN connection per instance: live payment status and cache invalidation (migration 0003 triggers).
  const notifications = new Notifications(database.url);
  app.addHook('onClose', () => notifications.close());

  // Customer tokens an operator revoked are refused on every instance (docs/rules/operations.md#O5).
  const revocations = createRevocations(database.db);
  await revocations.load();
  await notifications.subscribe(REVOCATION_CHANNEL, (payload) => void revocations.onNotification(payload));
  const tokens = createTokenService(deps.jwtSecret, clock, revocations.isRevoked);
  const staff = createStaffService(database.db, clock, createStaffTokens(deps.jwtSecret, clock));
  registerAuthGuard(app, tokens, (key) => merchantIdForKey(database.db, key), staff.principalOf);
  const publicCache = registerPublicCache(app, { ttlMs: config.PUBLIC_CACHE_MS, routes: PUBLIC_SHORTS_ROUTES });
  await notifications.subscribe('feed_changed', () => publicCache.clear());

  // Liveness: the process answers HTTP. No dependency checks, so a database outage does not get every
  // instance restarted; that is what readiness (/health/ready) reports.
  registerEndpoint(app, authEndpoints.health, async () => ({ status: 'ok' as const, database: database.kind }));
  registerReadiness(app, { db: database.db, storage });

  const auth = createAuthService(database.db, clock, tokens, {
    perHour: config.SIGNUPS_PER_IP_PER_HOUR,
    perDay: config.SIGNUPS_PER_IP_PER_DAY,
  });
  await app.register(authRoutes(auth));
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
  const ranking = createRanking(database.db, clock, config.PUBLIC_CACHE_MS);
  // Whatever drops the public answers (a change notification, a shorts write here) drops pages and cursors.
  publicCache.onClear(() => ranking.forgetCursors());
  // The freshness term moves on even when nobody reads the feed (lazy reads catch up otherwise).
  const refreshTimer = setInterval(() => ranking.ensureFresh().catch(() => undefined), RANK_REFRESH_MS);
  refreshTimer.unref();
  app.addHook('onClose', async () => clearInterval(refreshTimer));
  await app.register(mediaRoutes(storage));
  // What each signed-in viewer reacted to and follows, remembered per instance; any instance's write is
  // announced by the database (migration 0010) and forgotten everywhere.
  const viewerState = createViewerState(database.db);
  await notifications.subscribe('viewer_changed', (payload) => viewerState.forget(viewersOfNotification(payload)));
  // Hidden content leaves this instance's public answers at once; other instances hear 'feed_changed'.
  const contentChanged = () => publicCache.clear();
  const safety = createSafetyService(database.db, clock, contentChanged);
  await notifications.subscribe('viewer_changed', (payload) => safety.forget(viewersOfNotification(payload)));
  await app.register(safetyRoutes(safety));
  // Comment rows per short, dropped with the public answers whenever anything about shorts changes.
  const comments = createCommentsService(database.db, clock, safety.blockedBy);
  publicCache.onClear(() => comments.forgetAll());
  const feed = createFeedService(database.db, config.MEDIA_BASE_URL, ranking, viewerState, safety.blockedBy);
  // One service per shorts sub-domain, each with one job (modules/shorts/*-service.ts).
  await app.register(
    shortsRoutes({
      feed,
      uploadStatus: createUploadStatusService(database.db),
      comments,
      reactions: createReactionsService(database.db, clock, viewerState),
      subscriptions: createSubscriptionsService(database.db, clock, viewerState),
      watchPoints: createWatchPointsService(database.db, clock),
      pipeline,
      mayUpload: safety.assertMayUpload,
      workDir: workRoot(config.DATA_DIR),
    }),
  );
  await app.register(searchRoutes(createSearchService(database.db, config.MEDIA_BASE_URL)));
  await app.register(profileRoutes(createProfileService(database.db, storage, config.MEDIA_BASE_URL, app.log)));
  await app.register(shortsMypageRoutes(createShortsMypageService(database.db, config.MEDIA_BASE_URL)));
  const merchants = createMerchantService(database.db, clock, config.PAYMENT_REQUEST_TTL_SECONDS);
  await app.register(merchantRoutes(merchants, config.PUBLIC_URL, notifications, clock));
  await app.register(
    opsRoutes({
      db: database.db,
      staff,
      customers: createOpsCustomersService(database.db, clock, merchants, revocations.remember),
      merchants: createOpsMerchantsService(database.db, clock),
      moderation: createModerationService(database.db, clock, config.MEDIA_BASE_URL, contentChanged),
    }),
  );
  await app.register(paymentRoutes(createPaymentService(database.db, clock)));

  const bills = createBillsService(database.db, clock);
  await app.register(billsRoutes(bills));
  await app.register(reportRoutes(createReportService(database.db, clock, bills)));
  await app.register(checkinRoutes(createCheckinService(database.db, clock)));
  const chat = createChatService(database.db, clock, {
    mediaBaseUrl: config.MEDIA_BASE_URL,
    llm: chatLlmFromConfig(config),
  });
  await app.register(chatRoutes(chat));

  await registerWebApp(app, config.WEB_DIST, feedPosterOf(feed));
  return app;
}
