import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import type { Cache } from '../lib/cache-home';

/** A stored anonymous answer. */
export interface PublicAnswer {
  /** The answer's JSON, encoded once: a hit is sent without encoding the text again. */
  body: Buffer;
  etag: string;
  contentType: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    publicCache?: { cache: Cache<string, PublicAnswer>; key: string; generation: number; served: boolean };
  }
}

/** Where a route's anonymous answers are kept, and under which key (none: this request is not kept). */
export interface PublicRoute {
  cache: Cache<string, PublicAnswer>;
  keyOf(request: FastifyRequest): string | undefined;
}

/**
 * Anonymous GET answers of the given routes (the public shorts feed, search, one short, its comments), kept in
 * their caches (`caches.ts`: lifetime, and the changes that drop them): a hit is sent as the stored JSON text,
 * with no database work, validation or serialization. Answers carry an `ETag` (If-None-Match → 304) and
 * `Cache-Control: public, max-age` so a CDN can serve them; they vary by `Authorization`, and a request with
 * a token is never cached (it is personalised). Its hooks sit on those routes alone (`onRoute`), so no other
 * request runs them; the routes must be added after this is registered.
 */
export function registerPublicCache(app: FastifyInstance, ttlMs: number, routes: Record<string, PublicRoute>): void {
  const cacheControl = ttlMs > 0 ? `public, max-age=${Math.ceil(ttlMs / 1000)}` : 'no-cache';

  /** Sends a kept answer of `route` to an anonymous GET, or lets the request go on to its handler. */
  const serveKept = (route: PublicRoute) =>
    async function servePublicAnswer(request: FastifyRequest, reply: FastifyReply) {
      if (request.method !== 'GET' || request.headers.authorization) return;
      const key = route.keyOf(request);
      if (key === undefined) return;
      request.publicCache = { cache: route.cache, key, generation: route.cache.generation(), served: false };
      const hit = route.cache.get(key);
      if (!hit) return;
      request.publicCache.served = true;
      reply.header('etag', hit.etag).header('cache-control', cacheControl).header('vary', 'authorization');
      if (request.headers['if-none-match'] === hit.etag) return reply.code(304).send();
      return reply.code(200).type(hit.contentType).send(hit.body);
    };

  /** Keeps a public answer computed for this request; what to send (a 304's empty body when it matches). */
  const keep = (request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown => {
    const state = request.publicCache;
    if (!state || state.served || reply.statusCode !== 200) return payload;
    // JSON as text, or already encoded (`JsonText`); anything else (a stream) is not cached.
    const body = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : undefined;
    if (!body) return payload;
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    reply.header('etag', etag).header('cache-control', cacheControl).header('vary', 'authorization');
    const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
    // Kept only if nothing it depends on changed while it was computed.
    state.cache.set(state.key, { body, etag, contentType }, state.generation);
    if (request.headers['if-none-match'] === etag) {
      reply.code(304);
      return '';
    }
    return payload;
  };
  // A callback hook: an async one costs a promise and a microtask each time.
  const keepPublicAnswer: onSendHookHandler = (request, reply, payload, done) =>
    done(null, keep(request, reply, payload));

  // The hooks go on the cached routes only: every other request (a signed-in page, a payment) skips both.
  app.addHook('onRoute', (route) => {
    const cached = routes[route.url];
    if (!cached || ![route.method].flat().includes('GET')) return;
    route.onRequest = [...hooksOf(route.onRequest), serveKept(cached)];
    route.onSend = [...hooksOf(route.onSend), keepPublicAnswer];
  });
}

/** A route option's hooks as a list (Fastify takes one hook, a list of them, or none). */
function hooksOf<H>(hooks: H | H[] | undefined): H[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}
