import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Fastify, {
  type FastifyInstance,
  type FastifyServerOptions,
  type RouteHandlerMethod,
  type RouteOptions,
} from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** Where the API's documentation is served: the Swagger UI page and its files, the OpenAPI document. */
export const DOCS_PREFIX = '/api/docs';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

/** The headers of the documentation's own answer that are not passed on: the app's reply sets its own. */
const NOT_PASSED_ON = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * The API's documentation (ADR 0253): the OpenAPI document of every route the app registers, and the Swagger
 * UI that shows it, built on the first request for them rather than at every start. Their packages (the
 * document's generator, a YAML library, a JSON-schema resolver: ~260 KB of code) then load and compile only
 * when someone reads the docs. The routes are recorded as the app registers them; the first request builds a
 * Fastify instance of the docs alone with those routes' schemas, and each request to `DOCS_PREFIX` is answered
 * by it through the app, so the app's hooks (security headers, public access) hold for the docs too.
 */
export function registerApiDocs(app: FastifyInstance, compilers: CompilersFactory): void {
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    // HEAD routes come with their GET routes again in the docs' instance.
    if (route.method !== 'HEAD' && !route.url.startsWith(DOCS_PREFIX)) routes.push(route);
  });
  let docs: Promise<FastifyInstance> | undefined;
  const serve: RouteHandlerMethod = async (request, reply) => {
    docs ??= buildDocs(routes, compilers).catch((error: unknown) => {
      // Built again at the next request rather than failing every one after.
      docs = undefined;
      throw error;
    });
    const { host: _host, ...headers } = request.headers;
    const res = await (await docs).inject({ method: 'GET', url: request.url, headers });
    reply.code(res.statusCode);
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined && !NOT_PASSED_ON.has(name)) reply.header(name, value);
    }
    return reply.send(res.rawPayload);
  };
  app.addHook('onClose', async () => {
    await (await docs?.catch(() => undefined))?.close();
  });
  app.get(DOCS_PREFIX, serve);
  app.get(`${DOCS_PREFIX}/*`, serve);
}

/** The docs' own instance: Swagger and its UI, and every recorded route with its schemas (never called). */
async function buildDocs(routes: readonly RouteOptions[], compilers: CompilersFactory): Promise<FastifyInstance> {
  const [{ default: fastifySwagger }, { default: fastifySwaggerUi }] = await Promise.all([
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
  ]);
  const docs = Fastify({ schemaController: { compilersFactory: compilers } });
  await docs.register(fastifySwagger, {
    openapi: {
      info: { title: 'OhGood Pay API', version: '1.0.0', description: '오굿페이 API' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          merchantKey: { type: 'apiKey', in: 'header', name: 'X-Merchant-Key' },
          staffBearer: { type: 'http', scheme: 'bearer', description: '운영 콘솔 토큰 (고객 토큰과 별개)' },
          merchantPortal: { type: 'http', scheme: 'bearer', description: '가맹점 포털 토큰 (비밀번호 + OTP)' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  const assets = swaggerUiAssets();
  await docs.register(fastifySwaggerUi, {
    routePrefix: DOCS_PREFIX,
    uiConfig: { docExpansion: 'list' },
    // Its page's files are read from its package, wherever its code was bundled (scripts/build-server.mjs).
    baseDir: assets,
    logo: { type: 'image/svg+xml', content: readFileSync(join(assets, 'logo.svg')) },
  });
  const notCalled = async () => undefined;
  for (const { method, url, schema, config } of routes) docs.route({ method, url, schema, config, handler: notCalled });
  await docs.ready();
  return docs;
}

/** The Swagger UI's page files (scripts, styles, logo), in its npm package. */
function swaggerUiAssets(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui/package.json')), 'static');
}
