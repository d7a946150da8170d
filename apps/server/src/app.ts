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
import { registerAuthGuard } from './http/auth-guard';
import { registerEndpoint } from './http/endpoint';
import { registerErrorHandler } from './http/error-handler';
import { loggerOptions } from './http/logging';
import { isApiPath } from './http/paths';
import { registerReadiness } from './http/readiness';
import { registerWebApp } from './http/web-app';
import type { Clock } from './lib/clock';
import type { Config } from './lib/config';
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
import { createStorage, type MediaStorage } from './modules/media/storage';
import { merchantRoutes } from './modules/merchants/routes';
import { createMerchantService } from './modules/merchants/service';
import { paymentRoutes } from './modules/payments/routes';
import { createPaymentService } from './modules/payments/service';
import { reportRoutes } from './modules/report/routes';
import { createReportService } from './modules/report/service';
import { shortsRoutes } from './modules/shorts/routes';

export interface AppDeps {
  config: Config;
  database: Database;
  clock: Clock;
  jwtSecret: string;
  /** Media storage; built from the config when absent. */
  storage?: MediaStorage;
}

/** The Fastify instance with every plugin and route; tests build it on a real database. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database, clock } = deps;
  const storage = deps.storage ?? createStorage(config);
  const app = Fastify({
    logger: loggerOptions(config.LOG_LEVEL),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);

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
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });

  const tokens = createTokenService(deps.jwtSecret, clock);
  registerAuthGuard(app, tokens);

  // Liveness: the process answers HTTP. No dependency checks, so a database outage does not get every
  // instance restarted; that is what readiness (/health/ready) reports.
  registerEndpoint(app, authEndpoints.health, async () => ({ status: 'ok' as const, database: database.kind }));
  registerReadiness(app, { db: database.db, storage });

  const auth = createAuthService(database.db, clock, tokens);
  await app.register(authRoutes(auth));
  await app.register(shortsRoutes({ ...deps, storage }));
  const merchants = createMerchantService(database.db, clock, config.PAYMENT_REQUEST_TTL_SECONDS);
  await app.register(merchantRoutes(database.db, merchants, config.PUBLIC_URL));
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

  await registerWebApp(app, config.WEB_DIST);
  return app;
}
