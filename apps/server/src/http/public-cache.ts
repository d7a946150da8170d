import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';

interface Entry {
  /** The answer's JSON, encoded once: a hit is sent without encoding the text again. */
  body: Buffer;
  etag: string;
  contentType: string;
  expires: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    publicCache?: { generation: number; served: boolean };
  }
}

const MAX_ENTRIES = 5_000;

export interface PublicCache {
  /** Drops every entry (the data behind the cached answers changed). */
  clear(): void;
  /** Runs `fn` on every clear: other caches of the same data (feed page rows, page cursors) follow along. */
  onClear(fn: () => void): void;
}

/**
 * A short-lived in-process cache of anonymous GET answers of the given routes (the public shorts feed, one
 * short, its comments): a hit is sent as the stored JSON text, with no database work, validation or
 * serialization. Entries live `ttlMs` and are dropped at once on `clear()` (change notifications from the
 * database, and shorts writes made through this instance). Answers carry an `ETag` (If-None-Match → 304)
 * and `Cache-Control: public, max-age` so a CDN can serve them; they vary by `Authorization`, and a request
 * with a token is never cached (it is personalised).
 */
export function registerPublicCache(app: FastifyInstance, options: { ttlMs: number; routes: string[] }): PublicCache {
  const routes = new Set(options.routes);
  const entries = new Map<string, Entry>();
  let generation = 0;
  const cacheControl = options.ttlMs > 0 ? `public, max-age=${Math.ceil(options.ttlMs / 1000)}` : 'no-cache';
  const applies = (request: FastifyRequest) =>
    request.method === 'GET' && routes.has(request.routeOptions.url ?? '') && !request.headers.authorization;

  app.addHook('onRequest', async (request, reply) => {
    if (!applies(request)) return;
    request.publicCache = { generation, served: false };
    const hit = entries.get(request.url);
    if (!hit) return;
    if (hit.expires <= Date.now()) {
      entries.delete(request.url);
      return;
    }
    request.publicCache.served = true;
    reply.header('etag', hit.etag).header('cache-control', cacheControl).header('vary', 'authorization');
    if (request.headers['if-none-match'] === hit.etag) return reply.code(304).send();
    return reply.code(200).type(hit.contentType).send(hit.body);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const state = request.publicCache;
    if (!state || state.served || reply.statusCode !== 200) return payload;
    // JSON as text, or already encoded (`JsonText`); anything else (a stream) is not cached.
    const body = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : undefined;
    if (!body) return payload;
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    reply.header('etag', etag).header('cache-control', cacheControl).header('vary', 'authorization');
    // An answer computed before a change must not be stored after it.
    if (options.ttlMs > 0 && state.generation === generation) {
      if (entries.size >= MAX_ENTRIES) entries.clear();
      const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
      entries.set(request.url, {
        body,
        etag,
        contentType,
        expires: Date.now() + options.ttlMs,
      });
    }
    if (request.headers['if-none-match'] === etag) {
      reply.code(304);
      return '';
    }
    return payload;
  });

  const followers: Array<() => void> = [];
  const clear = () => {
    generation += 1;
    entries.clear();
    for (const fn of followers) fn();
  };
  // Read-your-writes on this instance: a successful shorts write clears before its answer goes out.
  app.addHook('onSend', async (request, reply, payload) => {
    if (
      request.method !== 'GET' &&
      request.method !== 'HEAD' &&
      reply.statusCode < 400 &&
      request.url.includes('/shorts')
    ) {
      clear();
    }
    return payload;
  });
  return { clear, onClear: (fn) => followers.push(fn) };
}
